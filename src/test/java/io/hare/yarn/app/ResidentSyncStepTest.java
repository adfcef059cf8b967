package io.hare.yarn.app;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertTrue;

import io.hare.example.SgdJob;
import io.hare.yarn.app.tokens.TokenRefresher;
import java.io.File;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.After;
import org.junit.Before;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * {@code yarn.app.hare.sync.mode=resident}: one sync process serves round after round over its
 * pipes; a command that does not speak the protocol runs as one process per round; a process
 * that dies or lies about a round fails that round only, and the next round starts a new one.
 */
public class ResidentSyncStepTest {

  /**
   * A resident sync step in bash: the first round from its environment, then one per
   * {@code sync R} line. It records "PID ROUND" per round, prints a line that is not an answer,
   * and ends round 3 with exit status 7 (a failed round it survives).
   */
  private static final String BASH_SYNC = String.join("\n",
      "r=$HARE_ROUND",
      "while true; do",
      "  echo \"$$ $r\" >> \"$ROUNDS\"",
      "  echo \"round $r synced by $$\"",
      "  echo \"stderr of $r\" >&2",
      "  code=0; [ \"$r\" = 3 ] && code=7",
      "  echo \"hare-sync done $r $code\"",
      "  read -r word r || { echo bye >> \"$ROUNDS\"; exit 0; }",
      "done");

  @Rule
  public TemporaryFolder tmp = new TemporaryFolder();

  private ExecutorService executor;
  private Path rounds;

  @Before
  public void setUp() throws Exception {
    executor = Executors.newSingleThreadExecutor();
    rounds = tmp.getRoot().toPath().resolve("rounds");
  }

  @After
  public void tearDown() {
    executor.shutdownNow();
  }

  private ResidentSyncStep step(String command) throws Exception {
    Map<String, String> m = JobSpecValidatorTest.valid();
    m.put(AppKeys.SYNC_COMMAND, command);
    m.put(AppKeys.SYNC_MODE, "resident");
    m.put(AppKeys.ENV_PREFIX + "ROUNDS", rounds.toString());
    HareJobSpec spec = JobSpecValidator.read(JobSpecValidatorTest.conf(m));
    assertEquals(SyncMode.RESIDENT, spec.syncMode());
    return new ResidentSyncStep(spec, "job", "/w", tmp.getRoot(), executor);
  }

  private static int sync(SyncStep step, int round) throws InterruptedException {
    BlockingQueue<Integer> codes = new ArrayBlockingQueue<>(1);
    step.start(round, codes::add);
    Integer code = codes.poll(60, TimeUnit.SECONDS);
    assertTrue("round " + round + " ended", code != null);
    return code;
  }

  private List<String> rounds() throws Exception {
    return Files.readAllLines(rounds);
  }

  @Test(timeout = 120_000)
  public void oneProcessServesEveryRoundAndExitsWhenClosed() throws Exception {
    ResidentSyncStep step = step(BASH_SYNC);
    assertEquals(0, sync(step, 0));
    assertEquals(0, sync(step, 1));
    assertEquals(0, sync(step, 2));
    assertEquals("a failed round is that round's result", 7, sync(step, 3));
    assertTrue("the process outlives a failed round", step.alive());
    assertEquals(0, sync(step, 4));
    List<String> seen = rounds();
    String pid = seen.get(0).split(" ")[0];
    assertEquals(List.of(pid + " 0", pid + " 1", pid + " 2", pid + " 3", pid + " 4"), seen);
    step.close();
    assertFalse(step.alive());
    assertEquals("closing its stdin told it to exit", "bye", rounds().get(5));
    String log = Files.readString(new File(step.logLocation(4)).toPath());
    assertTrue(log, log.contains("round 2 synced by " + pid + "\n"));
    assertTrue(log, log.contains("stderr of 4\n"));
    assertFalse("answers are not logged as output: " + log, log.contains("hare-sync done"));
  }

  /**
   * A process reads its tokens once, as it starts: after the AM refreshed its tokens, the next
   * round runs in a new process pointed at the refreshed token file.
   */
  @Test(timeout = 120_000)
  public void afterATokenRefreshTheNextRoundStartsANewProcessWithTheNewTokenFile()
      throws Exception {
    long[] generation = {0};
    TokenRefresher tokens = new TokenRefresher() {
      @Override
      public void start(Runnable afterRefresh) {}

      @Override
      public long generation() {
        return generation[0];
      }

      @Override
      public Map<String, String> childEnv() {
        return generation[0] == 0 ? Map.of()
            : Map.of("HADOOP_TOKEN_FILE_LOCATION", "/am/hare-am.tokens");
      }

      @Override
      public void close() {}
    };
    Map<String, String> m = JobSpecValidatorTest.valid();
    m.put(AppKeys.SYNC_COMMAND, BASH_SYNC.replace("echo \"$$ $r\"",
        "echo \"$$ $r ${HADOOP_TOKEN_FILE_LOCATION:-container}\""));
    m.put(AppKeys.SYNC_MODE, "resident");
    m.put(AppKeys.ENV_PREFIX + "ROUNDS", rounds.toString());
    m.put(AppKeys.ENV_PREFIX + "HADOOP_TOKEN_FILE_LOCATION", "");
    ResidentSyncStep step = new ResidentSyncStep(JobSpecValidator.read(
        JobSpecValidatorTest.conf(m)), "job", "/w", tmp.getRoot(), executor, tokens);
    assertEquals(0, sync(step, 0));
    assertEquals(0, sync(step, 1));
    generation[0] = 1;
    assertEquals(0, sync(step, 2));
    assertEquals("the script fails round 3 and lives on", 7, sync(step, 3));
    step.close();
    List<String> seen = rounds();
    String first = seen.get(0).split(" ")[0];
    String second = seen.get(3).split(" ")[0];
    assertEquals("the old process is stopped, the new one closed", List.of(first + " 0 container",
        first + " 1 container", second + " 2 /am/hare-am.tokens",
        second + " 3 /am/hare-am.tokens", "bye"), seen);
  }

  @Test(timeout = 120_000)
  public void aCommandThatDoesNotSpeakTheProtocolRunsOnceEachRound() throws Exception {
    ResidentSyncStep step = step("echo \"$$ $HARE_ROUND $HARE_SYNC_RESIDENT\" >> \"$ROUNDS\";"
        + " exit $(( HARE_ROUND == 1 ? 4 : 0 ))");
    assertEquals(0, sync(step, 0));
    assertEquals("its exit status is the round's result", 4, sync(step, 1));
    assertEquals(0, sync(step, 2));
    List<String> seen = rounds();
    assertEquals(3, seen.size());
    for (int r = 0; r < 3; r++) {
      assertTrue(seen.get(r), seen.get(r).endsWith(" " + r + " 1"));
    }
    assertNotEquals("a new process per round", seen.get(0).split(" ")[0],
        seen.get(1).split(" ")[0]);
    assertFalse(step.alive());
  }

  @Test(timeout = 120_000)
  public void aProcessThatDiesWithItsRoundFailsItAndTheNextRoundStartsAnother() throws Exception {
    // round 1 ends the process with status 0 and no answer: the round cannot count as done
    ResidentSyncStep step = step(BASH_SYNC.replace("  code=0;",
        "  [ \"$r\" = 1 ] && exit 0; code=0;"));
    assertEquals(0, sync(step, 0));
    assertEquals(1, sync(step, 1));
    assertFalse(step.alive());
    assertEquals(0, sync(step, 2));
    List<String> seen = rounds();
    assertEquals(3, seen.size());
    assertEquals(seen.get(0).split(" ")[0], seen.get(1).split(" ")[0]);
    assertNotEquals(seen.get(1).split(" ")[0], seen.get(2).split(" ")[0]);
    step.close();
  }

  @Test(timeout = 120_000)
  public void anAnswerForAnotherRoundFailsTheRoundAndStopsTheProcess() throws Exception {
    ResidentSyncStep step = step(BASH_SYNC.replace("hare-sync done $r $code",
        "hare-sync done $(( r == 1 ? 9 : r )) $code"));
    assertEquals(0, sync(step, 0));
    assertEquals(1, sync(step, 1));
    assertFalse("a process that lies about its round is not trusted again", step.alive());
    assertEquals(0, sync(step, 2));
    step.close();
  }

  @Test(timeout = 120_000)
  public void aLineWithoutEndIsCutInTheLogAndTheAnswerStillCounts() throws Exception {
    ResidentSyncStep step = step("head -c 100000 /dev/zero | tr '\\0' x; echo;"
        + " echo \"hare-sync done $HARE_ROUND 0\"; read -r word r; exit 3");
    assertEquals(0, sync(step, 0));
    String log = Files.readString(new File(step.logLocation(0)).toPath());
    assertTrue(log.contains("[cut at " + ResidentSyncStep.MAX_LINE_BYTES + " bytes]"));
    assertTrue(log, log.length() < 2 * ResidentSyncStep.MAX_LINE_BYTES);
    assertEquals("it exited with 3 at round 1's request", 3, sync(step, 1));
  }

  @Test(timeout = 300_000)
  public void theExampleJobsResidentSyncTrainsTheReferenceModel() throws Exception {
    Path dir = tmp.newFolder("job").toPath();
    StringWriter log = new StringWriter();
    assertEquals(log.toString(), 0, SgdJob.commandLine(new PrintWriter(log, true),
        new PrintWriter(log, true), Map.<String, String>of()::get)
        .execute("init", "--work-dir", dir.toString()));
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    ResidentSyncStep step = step(TaskLaunch.quote(java) + " -cp "
        + TaskLaunch.quote(System.getProperty("java.class.path"))
        + " io.hare.example.SgdJob sync --work-dir " + TaskLaunch.quote(dir.toString())
        + " --events " + TaskLaunch.quote(dir.resolve("events").toString()));
    int k = 4;  // valid()'s tasks per round
    for (int round = 0; round < 3; round++) {
      for (int i = 0; i < k; i++) {
        Map<String, String> env = Map.of("HARE_JOB_ID", "job", "HARE_ROUND",
            Integer.toString(round), "HARE_TASK_INDEX", Integer.toString(i),
            "HARE_TASKS_PER_ROUND", Integer.toString(k), "HARE_WORK_DIR", dir.toString(),
            "HARE_GPU_TYPE", "v100");
        assertEquals(log.toString(), 0, SgdJob.commandLine(new PrintWriter(log, true),
            new PrintWriter(log, true), env::get).execute("task", "--gpu-ms", "0"));
      }
      int code = sync(step, round);
      assertEquals(Files.readString(new File(step.logLocation(round)).toPath()), 0, code);
      assertTrue(step.alive());
    }
    step.close();
    assertEquals(0, SgdJob.commandLine(new PrintWriter(log, true), new PrintWriter(log, true),
        Map.<String, String>of()::get).execute("reference", "--work-dir", dir.toString(),
        "--rounds", "3", "--tasks-per-round", Integer.toString(k)));
    assertArrayEquals("the model after 3 rounds is the sequential reference's, byte for byte",
        Files.readAllBytes(dir.resolve("reference-model-r3")),
        Files.readAllBytes(dir.resolve("model-r3")));
    String syncLog = Files.readString(new File(step.logLocation(2)).toPath());
    assertTrue(syncLog, syncLog.contains("round 2"));
    // the embedded cluster's events: a start and an end per round, as its bash wrapper writes
    List<String> events = Files.readAllLines(dir.resolve("events")).stream()
        .map(l -> l.replaceAll(" [0-9]{13}", " MS")).toList();
    assertEquals(List.of("sync-start job 0 - - - - MS -", "sync-end job 0 - - - - MS 0 -",
        "sync-start job 1 - - - - MS -", "sync-end job 1 - - - - MS 0 -",
        "sync-start job 2 - - - - MS -", "sync-end job 2 - - - - MS 0 -"), events);
  }
}
