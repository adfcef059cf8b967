package io.hare.yarn.app;

import io.hare.worker.ResidentWorker;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ApplicationMaster's end of the task channel ({@code docs/task-channel.md}): a TCP server on
 * the AM host's address that the job's task runners ({@link TaskRunnerScript}) connect to, prove
 * which container they are (challenge and response under the container's own key, {@link
 * ChannelKeys}), report each task's exit code and are told the next task to run in the same
 * container, to park, or to exit. A standby container (pre-launched without its GPU) connects
 * before any task and waits to be given its first.
 *
 * <p>Protocol version {@value #VERSION}, one ASCII line each way per step:
 * <pre>
 * AM:     hare-channel 1 NONCE            at once, on every connection it admits
 * runner: hello 1 CONTAINER_ID PROOF      PROOF: hex HMAC-SHA256 of the greeting line, a space
 *                                         and CONTAINER_ID, under the container's key
 * AM:     ok                              the runner is that container
 * runner: ready                           a standby (it ran nothing), or after park
 * runner: done ROUND INDEX EXIT_CODE      the task the AM gave the container ended
 * AM:     run ROUND INDEX [DEVICE]        run that task of the job next, in this container, on
 *                                         GPU DEVICE if given (HARE_GPU_DEVICE and
 *                                         CUDA_VISIBLE_DEVICES; a promoted standby's launch
 *                                         environment has none)
 * AM:     park                            no next task yet: wait as a standby; say ready
 * AM:     exit                            no next task: exit with the last task's status (the
 *                                         AM has every result; the scheduler counts an end
 *                                         with 0 as a task computed); sent once the AM's
 *                                         reports about the container reached the scheduler
 * AM:     error CODE TEXT                 refused (busy, timeout, line, protocol, version, auth,
 *                                         task); the AM closes the connection
 * </pre>
 * The AM answers {@code ready} only when it has a task for the standby (the scheduler gave the
 * container its GPU) or gives the standby up, which may be long after: the runner waits.
 *
 * <p>Bounds: open connections (admitted, authenticated or not) at most the containers the AM
 * holds ({@link Handler#containersHeld}) plus {@link Limits#margin}, an extra one refused at once;
 * one connection per container; lines of at most {@link Limits#maxLineBytes} bytes of printable
 * ASCII, a longer line refused without being kept; a hello within {@link Limits#handshakeMs} of
 * connecting. A result is accepted only from the container the AM gave that task. Each refusal
 * goes to the peer as an {@code error} line and to the log once per peer address
 * ({@link RefusalLog}).
 *
 * <p>One daemon thread serves every connection (non-blocking I/O); each admitted connection holds
 * one line buffer. {@link Handler} calls are made on that thread and must not block.
 */
final class RunnerServer implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(RunnerServer.class);
  /** The protocol version this server speaks: the resident workers' ({@link ResidentWorker}). */
  static final int VERSION = ResidentWorker.VERSION;
  /** The greeting's first word. */
  static final String MAGIC = ResidentWorker.MAGIC;
  private static final int NONCE_BYTES = 32;
  /**
   * The longest a runner told to exit waits for the AM's reports about its container to reach
   * the scheduler ({@link Handler#beforeExit}): normally one hurried heartbeat; longer only
   * while the ResourceManager is unreachable, and a runner is not kept past that for it.
   */
  static final long EXIT_WAIT_MS = 30_000;

  /**
   * The channel's bounds.
   *
   * @param maxLineBytes the longest line, newline included, a peer may send
   * @param handshakeMs how long a new connection has to say a valid hello
   * @param margin connections allowed beyond the containers the AM holds (runners of containers
   *     ending or starting while the AM's count moves)
   * @param refusalLogIntervalMs how often refusals of one peer may be logged
   */
  record Limits(int maxLineBytes, long handshakeMs, int margin, long refusalLogIntervalMs) {
    static final Limits DEFAULT =
        new Limits(ResidentWorker.MAX_LINE_BYTES, 10_000, 8, 60_000);

    Limits {
      if (maxLineBytes < 256 || handshakeMs < 1 || margin < 1 || refusalLogIntervalMs < 1) {
        throw new IllegalArgumentException("channel limits: a line of at least 256 bytes, a"
            + " handshake of at least 1 ms, a margin of at least 1 connection and a log interval"
            + " of at least 1 ms; got " + maxLineBytes + ", " + handshakeMs + ", " + margin + ", "
            + refusalLogIntervalMs);
      }
    }
  }

  /**
   * The next task of a runner: {@code round} and {@code index}, and the GPU {@code device} it
   * runs on (-1: leave the container's as it is); or {@link #PARK}.
   */
  record Next(int round, int index, int device) {
    /** Not a task: the runner is to wait as a standby (its container is being parked). */
    static final Next PARK = new Next(-1, -1);

    /** A task whose device the runner leaves as the container's environment has it. */
    Next(int round, int index) {
      this(round, index, -1);
    }

    /**
     * Whether this is {@link #PARK}. Not {@code equals}: a record's first equals in a JVM
     * bootstraps its method handles, some 35 ms in a small AM JVM, at its first task switch.
     */
    boolean parks() {
      return round < 0;
    }
  }

  /** What the AM does with a runner's report. */
  interface Handler {
    /**
     * The task that ran in {@code container} exited; the next one to run there, {@link
     * Next#PARK} to wait as a standby, or empty to exit.
     */
    Optional<Next> taskEnded(ContainerId container, int exitCode);

    /**
     * The standby runner of {@code container} is ready. The future completes with its first
     * task once the AM has one for it, or with empty (exit) when the AM gives the standby up;
     * the server cancels it when the connection ends first. The default knows no standbys:
     * they exit at once.
     */
    default CompletableFuture<Optional<Next>> standby(ContainerId container) {
      return CompletableFuture.completedFuture(Optional.empty());
    }

    /**
     * Completes when the runner of {@code container}, to be told to exit, may exit (after at
     * most {@link #EXIT_WAIT_MS} it is told all the same); the default at once.
     */
    default CompletableFuture<Void> beforeExit(ContainerId container) {
      return CompletableFuture.completedFuture(null);
    }

    /**
     * The task the AM gave {@code container} and waits to hear of; empty if none (a {@code done}
     * is then passed on as it is, for the AM to retire the runner). The default knows none.
     */
    default Optional<Next> taskOf(ContainerId container) {
      return Optional.empty();
    }

    /** How many containers the AM holds, each of which may connect once. */
    default int containersHeld() {
      return 0;
    }
  }

  private enum State {
    /** Greeted; the runner's turn to say hello. */
    HELLO,
    /** Authenticated; the runner's turn: ready or done (a task may run for hours). */
    REPORT,
    /** The AM's turn: the runner said ready, or waits to be told exit ({@code exiting}). */
    WAITING
  }

  /** One admitted connection; touched by the server's thread only. */
  private final class Conn {
    final SocketChannel channel;
    final SelectionKey key;
    final InetAddress peer;
    final ByteBuffer in = ByteBuffer.allocate(limits.maxLineBytes());
    final long deadlineNanos;
    ByteBuffer out;
    boolean closeAfterWrite;
    boolean closed;
    State state = State.HELLO;
    String greeting;
    ContainerId container;
    CompletableFuture<Optional<Next>> standby;
    /** The wait of a runner to be told exit ({@link Handler#beforeExit}); null otherwise. */
    CompletableFuture<Void> exiting;

    Conn(SocketChannel channel, InetAddress peer) throws IOException {
      this.channel = channel;
      this.peer = peer;
      this.key = channel.register(selector, SelectionKey.OP_READ, this);
      this.deadlineNanos = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(limits.handshakeMs());
    }
  }

  private final Handler handler;
  private final ChannelKeys keys;
  private final Limits limits;
  private final ServerSocketChannel server;
  private final Selector selector;
  private final Thread thread;
  private final SecureRandom random = new SecureRandom();
  private final RefusalLog refusals;
  /** Work from other threads (a standby's answer), run on the server's thread. */
  private final Queue<Runnable> inbox = new ConcurrentLinkedQueue<>();
  /** Connections not authenticated yet, oldest (first to time out) first. */
  private final LinkedHashSet<Conn> greeted = new LinkedHashSet<>();
  private final Map<ContainerId, Conn> byContainer = new HashMap<>();
  /** Open connections; written by the server's thread only. */
  private volatile int open;
  private volatile boolean closed;

  /** A server with {@link Limits#DEFAULT} on an ephemeral port of {@code address}. */
  RunnerServer(Handler handler, ChannelKeys keys, InetAddress address) throws IOException {
    this(handler, keys, address, Limits.DEFAULT);
  }

  /** Binds an ephemeral port of {@code address} (only that address) and starts serving. */
  RunnerServer(Handler handler, ChannelKeys keys, InetAddress address, Limits limits)
      throws IOException {
    this.handler = handler;
    this.keys = keys;
    this.limits = limits;
    this.refusals = new RefusalLog(LOG, limits.refusalLogIntervalMs(),
        () -> TimeUnit.NANOSECONDS.toMillis(System.nanoTime()));
    this.selector = Selector.open();
    this.server = ServerSocketChannel.open();
    try {
      server.bind(new InetSocketAddress(address, 0));
      server.configureBlocking(false);
      server.register(selector, SelectionKey.OP_ACCEPT);
    } catch (IOException e) {
      server.close();
      selector.close();
      throw new IOException("cannot bind the task channel to " + address + ": " + e.getMessage(),
          e);
    }
    this.thread = new Thread(this::serve, "hare-task-channel");
    thread.setDaemon(true);
    thread.start();
  }

  int port() {
    return server.socket().getLocalPort();
  }

  /** Connections open now (admitted, authenticated or not). */
  int connections() {
    return open;
  }

  InetAddress address() {
    return server.socket().getInetAddress();
  }

  private void serve() {
    try {
      while (!closed) {
        selector.select(this::ready, selectTimeoutMs());
        for (Runnable r = inbox.poll(); r != null; r = inbox.poll()) {
          r.run();
        }
        expireHandshakes();
      }
    } catch (IOException | RuntimeException e) {
      if (!closed) {
        LOG.error("task channel: the server stopped; connected runners lose their tasks (exit"
            + " " + TaskRunnerScript.LOST + ") and new ones run one task each", e);
      }
    } finally {
      for (SelectionKey k : new ArrayList<>(selector.keys())) {
        if (k.attachment() instanceof Conn c) {
          close(c);
        }
      }
      try {
        server.close();
        selector.close();
      } catch (IOException e) {
        LOG.debug("closing the task channel: {}", e.toString());
      }
    }
  }

  private long selectTimeoutMs() {
    Iterator<Conn> it = greeted.iterator();
    if (!it.hasNext()) {
      return 0; // no deadline: wait for I/O or the inbox
    }
    return Math.max(1, TimeUnit.NANOSECONDS.toMillis(it.next().deadlineNanos - System.nanoTime()));
  }

  private void ready(SelectionKey k) {
    if (!k.isValid()) {
      return;
    }
    if (k.isAcceptable()) {
      try {
        accept();
      } catch (RuntimeException e) {
        LOG.error("task channel: accepting a connection failed", e);
      }
      return;
    }
    Conn c = (Conn) k.attachment();
    try {
      if (k.isWritable()) {
        flush(c);
      }
      if (!c.closed && k.isValid() && k.isReadable()) {
        read(c);
      }
    } catch (RuntimeException e) {
      failed(c, e);
    }
  }

  /** A bug serving one connection closes that connection, not the channel. */
  private void failed(Conn c, RuntimeException e) {
    LOG.error("task channel: serving {} from {} failed; closing its connection", who(c), c.peer,
        e);
    close(c);
  }

  private void accept() {
    while (true) {
      SocketChannel ch;
      try {
        ch = server.accept();
      } catch (IOException e) {
        LOG.warn("task channel: accept failed: {}", e.toString());
        return;
      }
      if (ch == null) {
        return;
      }
      InetAddress peer = peerOf(ch);
      if (open >= connectionLimit()) {
        refuseAtOnce(ch, peer, "busy", "the channel holds " + open + " connections, its limit"
            + " (containers held + " + limits.margin() + ")");
        continue;
      }
      try {
        ch.configureBlocking(false);
        ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
        Conn c = new Conn(ch, peer);
        open++;
        greeted.add(c);
        byte[] nonce = new byte[NONCE_BYTES];
        random.nextBytes(nonce);
        c.greeting = MAGIC + " " + VERSION + " " + HexFormat.of().formatHex(nonce);
        send(c, c.greeting);
      } catch (IOException e) {
        LOG.debug("task channel: a connection from {} failed at once: {}", peer, e.toString());
        closeQuietly(ch);
      }
    }
  }

  /** The containers the AM holds plus the margin; the margin alone if the AM cannot say. */
  private int connectionLimit() {
    try {
      return handler.containersHeld() + limits.margin();
    } catch (RuntimeException e) {
      LOG.error("task channel: cannot count the containers the AM holds", e);
      return limits.margin();
    }
  }

  private static InetAddress peerOf(SocketChannel ch) {
    try {
      return ((InetSocketAddress) ch.getRemoteAddress()).getAddress();
    } catch (IOException e) {
      return InetAddress.getLoopbackAddress();
    }
  }

  /** Refuses a connection not admitted: one error line, best effort, and close. */
  private void refuseAtOnce(SocketChannel ch, InetAddress peer, String code, String why) {
    refusals.refused(peer, code, why);
    try {
      ch.configureBlocking(false);
      ch.write(line("error " + code + " " + why));
    } catch (IOException e) {
      // closing is all that is left
    }
    closeQuietly(ch);
  }

  private void read(Conn c) {
    int n;
    try {
      n = c.channel.read(c.in);
    } catch (IOException e) {
      LOG.debug("task channel: connection of {} from {} failed: {}", who(c), c.peer,
          e.toString());
      close(c);
      return;
    }
    if (n < 0) {
      LOG.debug("task channel: {} from {} closed the connection", who(c), c.peer);
      close(c);
      return;
    }
    while (!c.closed && c.out == null) {
      int end = newline(c.in);
      if (end < 0) {
        if (!c.in.hasRemaining()) {
          refuse(c, "line", "a line longer than " + limits.maxLineBytes() + " bytes");
        }
        return;
      }
      byte[] bytes = new byte[end];
      c.in.flip();
      c.in.get(bytes);
      c.in.get(); // the newline
      c.in.compact();
      if (!printable(bytes)) {
        refuse(c, "protocol", "a line with bytes other than printable ASCII");
        return;
      }
      onLine(c, new String(bytes, StandardCharsets.US_ASCII));
    }
  }

  private static int newline(ByteBuffer b) {
    for (int i = 0; i < b.position(); i++) {
      if (b.get(i) == '\n') {
        return i;
      }
    }
    return -1;
  }

  private static boolean printable(byte[] bytes) {
    for (byte b : bytes) {
      if (b < 0x20 || b > 0x7e) {
        return false;
      }
    }
    return true;
  }

  private void onLine(Conn c, String line) {
    switch (c.state) {
      case HELLO -> hello(c, line);
      case REPORT -> report(c, line);
      default -> refuse(c, "protocol", "a line while the runner waits for its task");
    }
  }

  private void hello(Conn c, String line) {
    String[] f = line.split(" ", -1);
    if (!f[0].equals("hello")) {
      refuse(c, "auth", "the first line must be hello");
      return;
    }
    if (f.length != 4) {
      refuse(c, "protocol", "hello takes: hello VERSION CONTAINER_ID PROOF");
      return;
    }
    if (!f[1].equals(Integer.toString(VERSION))) {
      refuse(c, "version", "this ApplicationMaster speaks version " + VERSION);
      return;
    }
    ContainerId id;
    try {
      id = ContainerId.fromString(f[2]);
    } catch (IllegalArgumentException e) {
      refuse(c, "auth", "not a container id");
      return;
    }
    if (!keys.verify(c.greeting, id, f[3])) {
      refuse(c, "auth", "not the proof of " + id);
      return;
    }
    if (byContainer.containsKey(id)) {
      refuse(c, "busy", id + " is connected already");
      return;
    }
    greeted.remove(c);
    c.container = id;
    c.state = State.REPORT;
    byContainer.put(id, c);
    try {
      c.channel.setOption(StandardSocketOptions.SO_KEEPALIVE, true); // a node that vanishes
    } catch (IOException e) {
      LOG.debug("task channel: no keep-alive for {}: {}", id, e.toString());
    }
    LOG.debug("task channel: {} connected from {}", id, c.peer);
    send(c, "ok");
  }

  private void report(Conn c, String line) {
    if (line.equals("ready")) {
      c.state = State.WAITING;
      CompletableFuture<Optional<Next>> answer = handler.standby(c.container);
      c.standby = answer;
      // the answer may come from an AM callback thread, under the round protocol's lock
      answer.whenComplete((next, e) -> {
        inbox.add(() -> {
          try {
            answerStandby(c, answer, next);
          } catch (RuntimeException x) {
            failed(c, x);
          }
        });
        selector.wakeup();
      });
      return;
    }
    String[] f = line.split(" ", -1);
    int[] done = f.length == 4 && f[0].equals("done") ? ints(f) : null;
    if (done == null) {
      refuse(c, "protocol", "expected ready or done ROUND INDEX EXIT_CODE");
      return;
    }
    Optional<Next> held = handler.taskOf(c.container);
    if (held.isPresent() && (held.get().round() != done[0] || held.get().index() != done[1])) {
      refuse(c, "task", c.container + " was given round " + held.get().round() + " task "
          + held.get().index() + ", not round " + done[0] + " task " + done[1]);
      return;
    }
    answer(c, handler.taskEnded(c.container, done[2]));
  }

  /** Fields 1 to 3 as ints; null if one is not. */
  private static int[] ints(String[] f) {
    try {
      return new int[] {Integer.parseInt(f[1]), Integer.parseInt(f[2]), Integer.parseInt(f[3])};
    } catch (NumberFormatException e) {
      return null;
    }
  }

  private void answerStandby(Conn c, CompletableFuture<Optional<Next>> answer,
      Optional<Next> next) {
    if (c.closed || c.standby != answer) {
      return; // the connection ended first: no-one left to tell
    }
    c.standby = null;
    answer(c, next == null ? Optional.empty() : next); // null: cancelled or failed
  }

  private void answer(Conn c, Optional<Next> next) {
    c.state = State.REPORT;
    if (next.isEmpty()) {
      CompletableFuture<Void> sent = handler.beforeExit(c.container);
      if (sent.isDone()) {
        exit(c);
        return;
      }
      // the runner waits for its answer; a line from it meanwhile is out of turn
      c.state = State.WAITING;
      CompletableFuture<Void> wait = sent.copy()
          .completeOnTimeout(null, EXIT_WAIT_MS, TimeUnit.MILLISECONDS);
      c.exiting = wait;
      wait.whenComplete((v, e) -> {
        inbox.add(() -> {
          if (!c.closed && c.exiting == wait) {
            c.exiting = null;
            try {
              exit(c);
            } catch (RuntimeException x) {
              failed(c, x);
            }
          }
        });
        selector.wakeup();
      });
      return;
    }
    Next n = next.get();
    send(c, n.parks() ? "park" : "run " + n.round() + " " + n.index()
        + (n.device() < 0 ? "" : " " + n.device()));
  }

  private void exit(Conn c) {
    c.state = State.REPORT;
    c.closeAfterWrite = true;
    send(c, "exit");
  }

  /** Refuses an admitted connection: logged, an error line, and closed. */
  private void refuse(Conn c, String code, String why) {
    refusals.refused(c.peer, code, why);
    c.closeAfterWrite = true;
    c.out = null;
    send(c, "error " + code + " " + why);
  }

  /**
   * Writes {@code text} as a line. Reading stops until it is out (a runner sends nothing before
   * it has its answer), so a connection holds at most one answer.
   */
  private void send(Conn c, String text) {
    c.out = line(text);
    flush(c);
  }

  private void flush(Conn c) {
    try {
      c.channel.write(c.out);
    } catch (IOException e) {
      LOG.debug("task channel: cannot write to {} at {}: {}", who(c), c.peer, e.toString());
      close(c);
      return;
    }
    if (c.closeAfterWrite) {
      close(c); // the last word was sent if the peer reads; a peer that does not is not waited for
    } else if (c.out.hasRemaining()) {
      c.key.interestOps(SelectionKey.OP_WRITE);
    } else {
      c.out = null;
      c.key.interestOps(SelectionKey.OP_READ);
    }
  }

  private void expireHandshakes() {
    long now = System.nanoTime();
    for (Iterator<Conn> it = greeted.iterator(); it.hasNext(); ) {
      Conn c = it.next();
      if (now - c.deadlineNanos < 0) {
        return;
      }
      it.remove();
      refuse(c, "timeout", "no valid hello within " + limits.handshakeMs() + " ms");
    }
  }

  private void close(Conn c) {
    if (c.closed) {
      return;
    }
    c.closed = true;
    open--;
    greeted.remove(c);
    if (c.container != null) {
      byContainer.remove(c.container, c);
    }
    if (c.standby != null) {
      c.standby.cancel(false); // no-one left to tell, if it has not been answered yet
      c.standby = null;
    }
    c.exiting = null;
    c.key.cancel();
    closeQuietly(c.channel);
  }

  private static void closeQuietly(SocketChannel ch) {
    try {
      ch.close();
    } catch (IOException e) {
      LOG.debug("task channel: closing a connection: {}", e.toString());
    }
  }

  private static String who(Conn c) {
    return c.container == null ? "an unauthenticated runner" : c.container.toString();
  }

  private static ByteBuffer line(String text) {
    return ByteBuffer.wrap((text + "\n").getBytes(StandardCharsets.US_ASCII));
  }

  /** Stops serving and closes every connection (their runners then end as if the AM went). */
  @Override
  public void close() {
    closed = true;
    selector.wakeup();
    try {
      thread.join(10_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
