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
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ApplicationMaster's end of the warm task runner ({@link TaskRunnerScript}): a TCP server
 * the job's task containers connect to after their first task, to report each task's exit code
 * and be told the next task to run in the same container, or to exit.
 *
 * <p>Protocol, one line each way per task, ASCII:
 * <pre>
 * runner: hello CONTAINER_ID SECRET        once, after the container's first task
 * runner: done EXIT_CODE                   after each task
 * AM:     run ROUND INDEX                  run that task of the job next, in this container
 * AM:     exit                             no next task: exit 0 (the AM has every result)
 * </pre>
 * The secret, a random 128-bit value in the containers' environment only, keeps other users'
 * processes from posing as the job's runners. A connection that sends anything else is closed;
 * its container then ends with its own exit status, which the AM reads as usual.
 *
 * <p>One daemon thread accepts; one daemon thread serves each runner (a job has at most k
 * running containers). {@link Handler} calls must not block.
 */
final class RunnerServer implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(RunnerServer.class);
  /** A runner that says nothing for this long after connecting is dropped. */
  private static final int HELLO_TIMEOUT_MS = 30_000;

  /** The next task of a runner: {@code round} and {@code index}. */
  record Next(int round, int index) {}

  /** What the AM does with a runner's report. */
  interface Handler {
    /** The task that ran in {@code container} exited; the next one to run there, if any. */
    Optional<Next> taskEnded(ContainerId container, int exitCode);
  }

  private final Handler handler;
  private final String secret;
  private final ServerSocket socket;
  private final Thread acceptor;
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
      for (String line; (line = in.readLine()) != null; ) {
        Integer code = exitCode(line);
        if (code == null) {
          LOG.warn("task runner of {}: unexpected '{}'; closing", container, line);
          return;
        }
        Optional<Next> next = handler.taskEnded(container, code);
        out.write(next.map(n -> "run " + n.round() + " " + n.index()).orElse("exit") + "\n");
        out.flush();
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
    try {
      socket.close();
    } catch (IOException e) {
      LOG.debug("closing the task runner server: {}", e.toString());
    }
  }
}
