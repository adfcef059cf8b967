package io.hare.yarn.app.tokens;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.test.GenericTestUtils;
import org.junit.After;
import org.junit.Before;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.slf4j.LoggerFactory;

/**
 * The AM's shutdown hook deletes the staged keytab only when the RM has the attempt KILLED; a stop
 * with the attempt running (another attempt may follow), an RM that cannot be asked, or an AM that
 * settled the keytab itself leave it.
 */
public class KeytabOnKillTest {

  @Rule
  public final TemporaryFolder tmp = new TemporaryFolder();

  private Path work;
  private Path keytab;
  private final AtomicInteger asked = new AtomicInteger();
  private GenericTestUtils.LogCapturer log;

  @Before
  public void stage() throws Exception {
    work = tmp.newFolder("application_1_0001").toPath();
    keytab = work.resolve(TokenRefreshSpec.KEYTAB_LINK);
    Files.writeString(keytab, "keytab bytes");
    log = GenericTestUtils.LogCapturer.captureLogs(LoggerFactory.getLogger(KeytabOnKill.class));
  }

  @After
  public void stopCapturing() {
    log.stopCapturing();
  }

  private KeytabOnKill hook(Boolean killed) {
    org.apache.hadoop.fs.Path dir = new org.apache.hadoop.fs.Path(work.toUri());
    return new KeytabOnKill(() -> {
      asked.incrementAndGet();
      if (killed == null) {
        throw new java.net.ConnectException("the RM is down");
      }
      return killed;
    }, () -> StagedKeytab.delete(new Configuration(), dir, "killed"),
        StagedKeytab.in(dir).toString());
  }

  @Test(timeout = 30_000)
  public void aKilledAttemptsKeytabIsDeleted() {
    KeytabOnKill hook = hook(true);
    hook.run();
    assertFalse(Files.exists(keytab));
    hook.run();
    assertEquals("runs once", 1, asked.get());
  }

  @Test(timeout = 30_000)
  public void aStopWithTheAttemptRunningKeepsItForTheNextAttempt() {
    hook(false).run();
    assertTrue(Files.exists(keytab));
    assertTrue(log.getOutput(), log.getOutput().contains("stays for the job's next attempt"));
  }

  @Test(timeout = 30_000)
  public void anRmThatCannotBeAskedKeepsItWithAWarning() {
    hook(null).run();
    assertTrue(Files.exists(keytab));
    String out = log.getOutput();
    assertTrue(out, out.contains("WARN") && out.contains(keytab.getFileName().toString())
        && out.contains("the RM is down"));
  }

  /** The hook on SIGTERM while the AM's main thread deletes: the JVM must not halt under it. */
  @Test(timeout = 30_000)
  public void aSecondCallerWaitsForTheFirstToFinish() throws Exception {
    CountDownLatch asking = new CountDownLatch(1);
    CountDownLatch answer = new CountDownLatch(1);
    org.apache.hadoop.fs.Path dir = new org.apache.hadoop.fs.Path(work.toUri());
    KeytabOnKill hook = new KeytabOnKill(() -> {
      asking.countDown();
      answer.await();
      return true;
    }, () -> StagedKeytab.delete(new Configuration(), dir, "killed"), keytab.toString());
    Thread main = new Thread(hook);
    main.start();
    asking.await();
    Thread second = new Thread(hook);
    second.start();
    GenericTestUtils.waitFor(() -> second.getState() == Thread.State.BLOCKED, 10, 10_000);
    assertTrue("the keytab is still there while the first caller asks", Files.exists(keytab));
    answer.countDown();
    second.join();
    assertFalse("deleted by the time the second caller returns", Files.exists(keytab));
    main.join();
  }

  @Test(timeout = 30_000)
  public void anAmThatSettledTheKeytabItselfIsLeftAlone() {
    KeytabOnKill hook = hook(true);
    hook.settle();
    hook.run();
    assertEquals("the RM is not asked at the AM's own exit", 0, asked.get());
    assertTrue(Files.exists(keytab));
  }
}
