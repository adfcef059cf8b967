package io.hare.yarn.app;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ApplicationMaster's end of the warm task runner ({@link TaskRunnerScript}): a TCP server
 * the job's task containers connect to after their first task, to report each task's exit code
 * and be told the next task to run in the same container, or to exit. A standby container
 * (pre-launched without its GPU) connects before any task and waits to be given its first.
 *
 * <p>Protocol, one line each way per task, ASCII:
 * <pre>
 * runner: hello CONTAINER_ID SECRET        once, after the container's first task (a standby's
 *                                          at once)
 * runner: ready                            a standby, right after hello (it ran nothing), or
 *                                          after park
 * runner: done EXIT_CODE                   after each task
 * AM:     run ROUND INDEX [DEVICE]         run that task of the job next, in this container,
 *                                          on GPU DEVICE if given (HARE_GPU_DEVICE and
 *                                          CUDA_VISIBLE_DEVICES; a promoted standby's launch
 *                                          environment has none)
 * AM:     park                             no next task yet: the container becomes a standby
 *                                          (its GPU goes back to the scheduler); say ready
 * AM:     exit                             no next task: exit 0 (the AM has every result)
 * </pre>
 * The AM answers {@code ready} only when it has a task for the standby (the scheduler gave the
 * container its GPU) or gives the standby up, which may be long after: the runner waits.
 *
 * <p>The secret, a random 128-bit value in the containers' environment only, keeps other users'
 * processes from posing as the job's runners. A connection that sends anything else is closed;
 * its container then ends with its own exit status, which the AM reads as usual.
 *
 * <p>One daemon thread accepts; one daemon thread serves each runner (a job has at most k
 * running containers, plus the standbys the scheduler gives it); one daemon thread writes the
 * answers to standbys as their futures complete. {@link Handler} calls must not block.
 */
final class RunnerServer implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(RunnerServer.class);
  /** A runner that says nothing for this long after connecting is dropped. */
  private static final int HELLO_TIMEOUT_MS = 30_000;

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
  }

  private final Handler handler;
  private final String secret;
  private final ServerSocket socket;
  private final Thread acceptor;
  /**
   * Writes the answers to standbys: a standby's future completes on an AM callback thread,
   * under the round protocol's lock, where no socket I/O belongs.
   */
  private final ExecutorService answers = Executors.newSingleThreadExecutor(r -> {
    Thread t = new Thread(r, "hare-runner-answers");
    t.setDaemon(true);
    return t;
  });
  private volatile boolean closed;

  /** Binds an ephemeral port on every interface and starts accepting. */
  RunnerServer(Handler handler) throws IOException {
    this.handler = handler;
    byte[] b = new byte[16];
    new SecureRandom().nextBytes(b);
    this.secret = HexFormat.of().formatHex(b);
    this.socket = new ServerSocket(0);
    this.acceptor = new Thread(this::accept, "hare-runner-accept");
    acceptor.setDaemon(true);
    acceptor.start();
  }

  int port() {
    return socket.getLocalPort();
  }

  String secret() {
    return secret;
  }

  private void accept() {
    while (!closed) {
      try {
        Socket s = socket.accept();
        Thread t = new Thread(() -> serve(s), "hare-runner-" + s.getRemoteSocketAddress());
        t.setDaemon(true);
        t.start();
      } catch (IOException e) {
        if (!closed) {
          LOG.warn("task runner server: accept failed: {}", e.toString());
        }
      }
    }
  }

  private void serve(Socket s) {
    CompletableFuture<Optional<Next>> standby = null;
    try (s; BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(),
        StandardCharsets.US_ASCII)); Writer out = new OutputStreamWriter(s.getOutputStream(),
        StandardCharsets.US_ASCII)) {
      s.setTcpNoDelay(true);
      s.setSoTimeout(HELLO_TIMEOUT_MS);
      ContainerId container = hello(in.readLine());
      if (container == null) {
        LOG.warn("task runner server: refused a connection from {} (bad hello)",
            s.getRemoteSocketAddress());
        return;
      }
      s.setSoTimeout(0); // a task may run for hours before its runner reports
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        if ("ready".equals(line)) {
          // this thread goes on reading, so that a connection ending while the standby waits is
          // seen at once (and its future cancelled); the answer is written when it comes
          standby = handler.standby(container);
          standby.whenCompleteAsync((next, e) -> {
            if (e == null) {
              answerStandby(s, out, container, next);
            }
          }, answers);
          continue;
        }
        Integer code = exitCode(line);
        if (code == null) {
          LOG.warn("task runner of {}: unexpected '{}'; closing", container, line);
          return;
        }
        Optional<Next> next = handler.taskEnded(container, code);
        write(out, next);
        if (next.isEmpty()) {
          return;
        }
      }
    } catch (SocketTimeoutException e) {
      LOG.warn("task runner server: no hello from {} within {} ms", s.getRemoteSocketAddress(),
          HELLO_TIMEOUT_MS);
    } catch (IOException e) {
      if (!closed) {
        LOG.info("task runner connection from {} ended: {}", s.getRemoteSocketAddress(),
            e.toString());
      }
    } finally {
      if (standby != null) {
        standby.cancel(false); // no-one left to tell, if it has not been answered yet
      }
    }
  }

  private void answerStandby(Socket s, Writer out, ContainerId container, Optional<Next> next) {
    try {
      write(out, next);
    } catch (IOException e) {
      LOG.info("task runner of standby {}: cannot send its answer ({}); closing", container,
          e.toString());
      try {
        s.close(); // ends the reading thread too
      } catch (IOException ignored) {
        // closing is all that was left to do
      }
    }
  }

  /** One answer line; the standby's answer and the reading thread's may come from two threads. */
  private static void write(Writer out, Optional<Next> next) throws IOException {
    synchronized (out) {
      out.write(next.map(n -> n.parks() ? "park" : "run " + n.round() + " "
          + n.index() + (n.device() < 0 ? "" : " " + n.device())).orElse("exit") + "\n");
      out.flush();
    }
  }

  private ContainerId hello(String line) {
    String[] f = line == null ? new String[0] : line.split(" ");
    if (f.length != 3 || !f[0].equals("hello") || !MessageDigest.isEqual(
        f[2].getBytes(StandardCharsets.US_ASCII), secret.getBytes(StandardCharsets.US_ASCII))) {
      return null;
    }
    try {
      return ContainerId.fromString(f[1]);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  private static Integer exitCode(String line) {
    if (!line.startsWith("done ")) {
      return null;
    }
    try {
      return Integer.parseInt(line.substring(5).strip());
    } catch (NumberFormatException e) {
      return null;
    }
  }

  @Override
  public void close() {
    closed = true;
    answers.shutdownNow();
    try {
      socket.close();
    } catch (IOException e) {
      LOG.debug("closing the task runner server: {}", e.toString());
    }
  }
}
