package io.hare.yarn.app;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.test.GenericTestUtils;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;
import org.slf4j.LoggerFactory;

/**
 * The task channel's server against hostile and broken peers: each is refused with an error line
 * and logged once per peer, on one thread with bounded memory, while a legitimate runner keeps
 * getting its tasks.
 */
public class RunnerServerTest {

  private static final ApplicationAttemptId ATTEMPT =
      ApplicationAttemptId.newInstance(ApplicationId.newInstance(1_700_000_000_000L, 7), 1);
  private static final ContainerId A = ContainerId.newContainerId(ATTEMPT, 2);
  private static final ContainerId B = ContainerId.newContainerId(ATTEMPT, 3);
  /** Short enough for a test to see a handshake time out. */
  private static final RunnerServer.Limits LIMITS =
      new RunnerServer.Limits(4096, 1_000, 8, 60_000);

  private final ChannelKeys keys = new ChannelKeys();
  private final TestingHandler handler = new TestingHandler();
  private GenericTestUtils.LogCapturer log;
  private RunnerServer server;

  /** Gives each container the next task index after each report; records the reports. */
  private static final class TestingHandler implements RunnerServer.Handler {
    final List<String> reports = Collections.synchronizedList(new ArrayList<>());
    final Map<ContainerId, RunnerServer.Next> tasks = new ConcurrentHashMap<>();
    /** What a container's exit waits for; none: at once. */
    final Map<ContainerId, CompletableFuture<Void>> exits = new ConcurrentHashMap<>();
    volatile int held;

    @Override
    public CompletableFuture<Void> beforeExit(ContainerId c) {
      return exits.getOrDefault(c, CompletableFuture.completedFuture(null));
    }

    @Override
    public Optional<RunnerServer.Next> taskEnded(ContainerId c, int code) {
      reports.add(c + " " + code);
      RunnerServer.Next now = tasks.get(c);
      if (now == null) {
        return Optional.empty();
      }
      RunnerServer.Next next = new RunnerServer.Next(now.round(), now.index() + 1);
      tasks.put(c, next);
      return Optional.of(next);
    }

    @Override
    public Optional<RunnerServer.Next> taskOf(ContainerId c) {
      return Optional.ofNullable(tasks.get(c));
    }

    @Override
    public int containersHeld() {
      return held;
    }
  }

  @Before
  public void start() throws IOException {
    log = GenericTestUtils.LogCapturer.captureLogs(LoggerFactory.getLogger(RunnerServer.class));
    handler.tasks.put(A, new RunnerServer.Next(0, 0));
    handler.tasks.put(B, new RunnerServer.Next(0, 5));
    handler.held = 2;
    server = new RunnerServer(handler, keys, InetAddress.getLoopbackAddress(), LIMITS);
  }

  @After
  public void stop() {
    if (server != null) {
      server.close();
    }
    if (log != null) {
      log.stopCapturing();
    }
  }

  /** Container A's runner reports its task and is given the next: the channel still serves. */
  private void assertALegitRunnerCompletesItsTask(ContainerId c) throws IOException {
    RunnerServer.Next task = handler.tasks.get(c);
    try (TestingRunner r = new TestingRunner(server)) {
      assertEquals("ok", r.hello(c, keys.keyOf(c)));
      r.send("done " + task.round() + " " + task.index() + " 0");
      assertEquals("run " + task.round() + " " + (task.index() + 1), r.readLine());
    }
  }

  /** Reads until the server's error line or the end; the error line, or null. */
  private static String refusal(TestingRunner r) throws IOException {
    for (String line = r.readLine(); line != null; line = r.readLine()) {
      if (line.startsWith("error ")) {
        assertNull("the connection ends after the error", r.readLine());
        return line;
      }
    }
    return null;
  }

  private int refusalLines() {
    return log.getOutput().split("refused a connection from 127\\.0\\.0\\.1", -1).length - 1;
  }

  @Test(timeout = 60_000)
  public void aRunnerProvingItsContainerReportsAndIsToldItsNextTask() throws Exception {
    try (TestingRunner r = new TestingRunner(server)) {
      String greeting = r.greeting();
      assertTrue(greeting, greeting.matches("hare-channel 1 [0-9a-f]{64}"));
      r.send(TestingRunner.helloLine(greeting, A, keys.keyOf(A)));
      assertEquals("ok", r.readLine());
      r.send("done 0 0 3");
      assertEquals("run 0 1", r.readLine());
      handler.tasks.remove(A); // the AM has no task for it any more
      r.send("done 0 1 0");
      assertEquals("exit", r.readLine());
      assertNull(r.readLine());
    }
    assertEquals(List.of(A + " 3", A + " 0"), handler.reports);
    assertEquals("nothing refused", 0, refusalLines());
  }

  /**
   * A runner with no next task is told to exit only once the AM's reports about its container
   * have reached the scheduler; the server serves other runners meanwhile.
   */
  @Test(timeout = 60_000)
  public void aRunnerIsToldToExitOnlyOnceTheAmsReportsAboutItsContainerWentOut()
      throws Exception {
    CompletableFuture<Void> sent = new CompletableFuture<>();
    handler.exits.put(A, sent);
    try (TestingRunner a = new TestingRunner(server);
        TestingRunner b = new TestingRunner(server)) {
      assertEquals("ok", a.hello(A, keys.keyOf(A)));
      assertEquals("ok", b.hello(B, keys.keyOf(B)));
      handler.tasks.remove(A);
      a.send("done 0 0 1");
      GenericTestUtils.waitFor(() -> handler.reports.contains(A + " 1"), 10, 30_000);
      // the server's one thread answers a report as it reads it: an answer to a would be on
      // a's socket before b's answer is on b's
      b.send("done 0 5 0");
      assertEquals("run 0 6", b.readLine());
      assertFalse("a waits for the AM's reports", a.lineWaiting());
      sent.complete(null);
      assertEquals("exit", a.readLine());
      assertNull(a.readLine());
    }
    assertEquals(List.of(A + " 1", B + " 0"), handler.reports);
  }

  @Test(timeout = 60_000)
  public void doneWithoutHelloIsRefused() throws Exception {
    try (TestingRunner r = new TestingRunner(server)) {
      r.greeting();
      r.send("done 0 0 0");
      assertEquals("error auth the first line must be hello", refusal(r));
    }
    assertEquals(List.of(), handler.reports);
    assertALegitRunnerCompletesItsTask(A);
  }

  @Test(timeout = 60_000)
  public void aWrongKeyIsRefused() throws Exception {
    try (TestingRunner r = new TestingRunner(server)) {
      assertTrue(r.hello(A, new ChannelKeys().keyOf(A)).startsWith("error auth not the proof"));
      assertNull(r.readLine());
    }
    assertEquals(List.of(), handler.reports);
    assertALegitRunnerCompletesItsTask(A);
  }

  @Test(timeout = 60_000)
  public void anotherContainersIdIsRefused() throws Exception {
    try (TestingRunner r = new TestingRunner(server)) {
      assertEquals("A's key proves A only", "error auth not the proof of " + B,
          r.hello(B, keys.keyOf(A)));
    }
    assertEquals(List.of(), handler.reports);
    assertALegitRunnerCompletesItsTask(B);
  }

  @Test(timeout = 60_000)
  public void aReplayedHelloIsRefused() throws Exception {
    String seen;
    try (TestingRunner r = new TestingRunner(server)) {
      seen = TestingRunner.helloLine(r.greeting(), A, keys.keyOf(A));
      r.send(seen);
      assertEquals("ok", r.readLine());
    }
    try (TestingRunner replay = new TestingRunner(server)) {
      replay.greeting(); // a fresh nonce: the old proof answers another challenge
      replay.send(seen);
      assertEquals("error auth not the proof of " + A, refusal(replay));
    }
    assertALegitRunnerCompletesItsTask(A);
  }

  @Test(timeout = 60_000)
  public void aResultIsAcceptedOnlyForTheTaskTheContainerWasGiven() throws Exception {
    try (TestingRunner r = new TestingRunner(server)) {
      assertEquals("ok", r.hello(A, keys.keyOf(A)));
      r.send("done 0 5 0"); // B's task
      assertEquals("error task " + A + " was given round 0 task 0, not round 0 task 5",
          refusal(r));
    }
    assertEquals(List.of(), handler.reports);
    assertALegitRunnerCompletesItsTask(A);
  }

  @Test(timeout = 60_000)
  public void aSecondConnectionOfOneContainerIsRefused() throws Exception {
    try (TestingRunner first = new TestingRunner(server);
        TestingRunner second = new TestingRunner(server)) {
      assertEquals("ok", first.hello(A, keys.keyOf(A)));
      assertEquals("error busy " + A + " is connected already", second.hello(A, keys.keyOf(A)));
      first.send("done 0 0 0");
      assertEquals("run 0 1", first.readLine());
    }
  }

  @Test(timeout = 60_000)
  public void anotherVersionIsRefusedNamingTheOneSpoken() throws Exception {
    try (TestingRunner r = new TestingRunner(server)) {
      r.greeting();
      r.send("hello 2 " + A + " 00");
      assertEquals("error version this ApplicationMaster speaks version 1", refusal(r));
    }
  }

  @Test(timeout = 60_000)
  public void binaryGarbageIsRefused() throws Exception {
    byte[] garbage = new byte[512];
    for (int i = 0; i < garbage.length; i++) {
      garbage[i] = (byte) (i * 37);
    }
    garbage[garbage.length - 1] = '\n';
    try (TestingRunner r = new TestingRunner(server)) {
      r.greeting();
      r.sendBytes(garbage);
      assertEquals("error protocol a line with bytes other than printable ASCII", refusal(r));
    }
    assertALegitRunnerCompletesItsTask(A);
  }

  @Test(timeout = 60_000)
  public void aSilentConnectionIsClosedAtTheHandshakeDeadline() throws Exception {
    try (TestingRunner r = new TestingRunner(server)) {
      r.greeting();
      assertEquals("error timeout no valid hello within 1000 ms", refusal(r));
    }
    assertALegitRunnerCompletesItsTask(A);
  }

  @Test(timeout = 120_000)
  public void aHugeLineIsRefusedWithoutBeingKept() throws Exception {
    long heapBefore = usedHeapAfterGc();
    long sent = 0;
    byte[] chunk = new byte[64 * 1024];
    java.util.Arrays.fill(chunk, (byte) 'x');
    try (TestingRunner r = new TestingRunner(server)) {
      r.greeting();
      try {
        while (sent < 64L * 1024 * 1024) { // a 64 MB line with no newline
          r.sendBytes(chunk);
          sent += chunk.length;
        }
      } catch (IOException expected) {
        // the server closed the connection after its 4 KiB line buffer filled
      }
      String answer = refusal(r);
      assertTrue("closed, with the error line if it arrived before the reset: " + answer,
          answer == null || answer.equals("error line a line longer than 4096 bytes"));
    }
    long growth = usedHeapAfterGc() - heapBefore;
    LoggerFactory.getLogger(RunnerServerTest.class).info("huge line: {} bytes written before the"
        + " server closed; heap growth after GC {} KiB", sent, growth / 1024);
    assertTrue("the connection was closed long before 64 MB: " + sent, sent < 64L * 1024 * 1024);
    assertTrue("heap grew " + growth + " bytes", growth < 8L * 1024 * 1024);
    assertALegitRunnerCompletesItsTask(A);
  }

  /**
   * 1,000 connections held open: the channel admits the containers it holds plus its margin,
   * refuses the rest at once, serves them all on one thread in bounded memory, keeps answering a
   * runner connected before, then, the flood gone, serves a new runner; one log line names the
   * peer. Logs the figures (threads, heap) for docs/task-channel.md.
   */
  @Test(timeout = 180_000)
  public void aFloodOfConnectionsIsRefusedOnOneThreadInBoundedMemory() throws Exception {
    int flood = 1000;
    handler.held = 2; // A and B: 10 connections at most
    server.close();
    // handshakes outlast the flood here: the deadline has its own test
    server = new RunnerServer(handler, keys, InetAddress.getLoopbackAddress(),
        new RunnerServer.Limits(4096, 120_000, 8, 60_000));
    try (TestingRunner early = new TestingRunner(server)) {
      assertEquals("ok", early.hello(A, keys.keyOf(A)));
      int threadsBefore = ManagementFactory.getThreadMXBean().getThreadCount();
      long heapBefore = usedHeapAfterGc();
      // plain sockets read unbuffered: the test's own side of the flood stays small
      List<Socket> held = new ArrayList<>();
      List<Socket> greeted = new ArrayList<>();
      int busy = 0;
      try {
        for (int i = 0; i < flood; i++) {
          Socket r = new Socket(server.address(), server.port());
          r.setSoTimeout(30_000);
          held.add(r);
          String first = rawLine(r);
          if (first != null && first.startsWith("hare-channel 1 ")) {
            greeted.add(r);
          } else if (first != null && first.startsWith("error busy ")) {
            busy++;
          }
        }
        int threadsDuring = ManagementFactory.getThreadMXBean().getThreadCount();
        long heapDuring = usedHeapAfterGc();
        long channelThreads = Thread.getAllStackTraces().keySet().stream()
            .filter(t -> t.getName().startsWith("hare-task-channel")).count();
        LoggerFactory.getLogger(RunnerServerTest.class).info("flood of {} connections held open:"
            + " {} admitted, {} refused at once; JVM threads {} -> {} ({} of the channel); heap"
            + " after GC {} KiB -> {} KiB (growth {} KiB, the test's own sockets included)",
            flood, greeted.size(), busy, threadsBefore, threadsDuring, channelThreads,
            heapBefore / 1024, heapDuring / 1024, (heapDuring - heapBefore) / 1024);
        assertEquals("the containers held (2) plus the margin (8), less the early runner", 9,
            greeted.size());
        assertEquals(flood - 9, busy);
        assertEquals(1, channelThreads);
        assertTrue("threads " + threadsBefore + " -> " + threadsDuring,
            threadsDuring <= threadsBefore + 2);
        assertTrue("heap grew " + (heapDuring - heapBefore),
            heapDuring - heapBefore < 16L * 1024 * 1024);

        early.send("done 0 0 0"); // the channel still answers a runner it admitted before
        assertEquals("run 0 1", early.readLine());
      } finally {
        for (Socket r : held) {
          r.close();
        }
      }
      GenericTestUtils.waitFor(() -> server.connections() == 1, 20, 60_000);
      assertALegitRunnerCompletesItsTask(B);
    }
    assertEquals("one line for the peer, within the log interval:\n" + log.getOutput(), 1,
        refusalLines());
  }

  @Test(timeout = 60_000)
  public void listensOnTheGivenAddressOnly() throws Exception {
    assertEquals(InetAddress.getLoopbackAddress(), server.address());
    try (Socket s = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
      byte[] first = s.getInputStream().readNBytes(13);
      assertEquals("hare-channel ", new String(first, StandardCharsets.US_ASCII));
    }
  }

  /** One line read byte by byte (no buffer); null at the end of the stream or on a reset. */
  private static String rawLine(Socket s) throws IOException {
    StringBuilder b = new StringBuilder();
    try {
      for (int c = s.getInputStream().read(); c != '\n'; c = s.getInputStream().read()) {
        if (c < 0) {
          return b.length() == 0 ? null : b.toString();
        }
        b.append((char) c);
      }
    } catch (java.net.SocketException e) {
      return null;
    }
    return b.toString();
  }

  private static long usedHeapAfterGc() {
    System.gc();
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }
}
