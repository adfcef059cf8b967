package io.hare.worker;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Function;

/**
 * The loop of a resident worker: a process that starts once in its task container, builds its
 * framework state (imports, model, data; the caller does that before {@link #run}), and then
 * takes task after task of its job from the ApplicationMaster over the task channel
 * ({@code docs/task-channel.md}, protocol version {@value #VERSION}), so a task costs a line over
 * a socket and the work itself, not a process start.
 *
 * <p>What it reads from its container's environment: {@code HARE_RUNNER_HOST} and
 * {@code HARE_RUNNER_PORT} (the channel; absent: none), {@code CONTAINER_ID},
 * {@code HADOOP_TOKEN_FILE_LOCATION} (the credentials file that holds the container's key;
 * {@link ChannelKey}), {@value #STANDBY} (non-empty: a standby, which runs no first task), and
 * the first task, {@code HARE_ROUND}, {@code HARE_TASK_INDEX} and {@code HARE_GPU_DEVICE}
 * (optional). The key is kept in this process's memory only.
 *
 * <p>The protocol, as the bash runner speaks it: after the handshake, a standby says
 * {@code ready}; any other worker runs its first task and says {@code done ROUND INDEX CODE}.
 * Then {@code run ROUND INDEX [DEVICE]} runs that task and says {@code done}, {@code park} is
 * answered with {@code ready} (the worker waits, its state kept), {@code exit} ends the loop.
 *
 * <p>Exit status ({@link #run}'s result, for the caller's {@code System.exit}): after
 * {@code exit}, the status of the last task it ran (0 for a standby that ran none), since
 * YARN's scheduler counts a container that ends with 0 as a computed task; {@value #LOST}
 * when, after the handshake, the connection broke or the AM sent an error or a line this
 * version cannot read (the AM then counts the task it gave last as failed
 * and runs it again); when the channel cannot be used (no address, no key, no connection, a
 * refused handshake), the first task's own exit code, or 0 for a standby, which ran nothing;
 * {@value #BAD_INPUT} when a worker that is not a standby has no valid first task in its
 * environment. Why the channel was not used goes to stderr.
 *
 * <p>A task whose {@link TaskBody} throws counts as exit code 1 (its stack trace goes to
 * stderr, the container's log) and the worker takes its next task; an {@link Error} ends the
 * process, and the AM counts the task it held as failed. Not thread-safe: one worker per process.
 */
public final class ResidentWorker {

  /** Exit status of a worker that lost its AM with a result or a task not delivered. */
  public static final int LOST = 75;
  /** Exit status of a worker without a valid first task in its environment. */
  public static final int BAD_INPUT = 2;
  /** The variable that makes a worker a standby. */
  public static final String STANDBY = "HARE_STANDBY";
  public static final String RUNNER_HOST = "HARE_RUNNER_HOST";
  public static final String RUNNER_PORT = "HARE_RUNNER_PORT";
  /** The channel's greeting word and the protocol version this worker speaks. */
  public static final String MAGIC = "hare-channel";
  public static final int VERSION = 1;
  /** The longest line of the protocol, its newline included. */
  public static final int MAX_LINE_BYTES = 4096;
  /** How long the worker waits for the AM's greeting and its answer to hello. */
  static final int HANDSHAKE_READ_MS = 60_000;

  private final Function<String, String> vars;
  private final PrintWriter err;

  /**
   * @param env the container's environment: a variable's value, null when it is not set
   * @param err where the worker says why it did not use the channel, and task failures
   */
  public ResidentWorker(Function<String, String> env, PrintWriter err) {
    this.vars = env;
    this.err = err;
  }

  /** Serves {@code body} in this process's container; the exit status for {@code System.exit}. */
  public static int serve(TaskBody body) {
    return new ResidentWorker(System::getenv, new PrintWriter(System.err, true)).run(body);
  }

  /** The variable {@code name}; empty when it is not set. */
  private String env(String name) {
    String v = vars.apply(name);
    return v == null ? "" : v;
  }

  /** Takes and runs tasks until told to exit; the exit status described above. */
  public int run(TaskBody body) {
    boolean standby = !env(STANDBY).isEmpty();
    Optional<Task> first = Optional.empty();
    if (!standby) {
      first = firstTask();
      if (first.isEmpty()) {
        return BAD_INPUT;
      }
    }
    Optional<Channel> channel = connect();
    if (channel.isEmpty()) {
      return standby ? 0 : runTask(body, first.get());
    }
    try (Channel c = channel.get()) {
      int last = standby ? 0 : runTask(body, first.get());
      String say = standby ? "ready" : done(first.get(), last);
      while (true) {
        c.send(say);
        String line = c.readLine();
        if (line == null) {
          err.println("hare worker: the task channel closed; the AM runs the last task again");
          return LOST;
        }
        String[] f = line.split(" ", -1);
        switch (f[0]) {
          case "park" -> say = "ready";
          case "exit" -> {
            // YARN's scheduler counts a container that ends with 0 as a task computed: a
            // worker whose last task failed must not, or that task counts, and its retry again
            return last;
          }
          case "run" -> {
            Optional<Task> t = runLine(f);
            if (t.isEmpty()) {
              err.println("hare worker: the task channel sent a run line this worker cannot"
                  + " read: " + line);
              return LOST;
            }
            last = runTask(body, t.get());
            say = done(t.get(), last);
          }
          default -> {
            err.println("hare worker: the task channel said: " + line);
            return LOST;
          }
        }
      }
    } catch (IOException e) {
      err.println("hare worker: the task channel broke (" + e.getMessage() + "); the AM runs the"
          + " last task again");
      return LOST;
    }
  }

  private static String done(Task t, int code) {
    return "done " + t.round() + " " + t.index() + " " + code;
  }

  /** The task's result as an exit status: 0 stays 0, and what no status 1-255 can be is 1. */
  private int runTask(TaskBody body, Task t) {
    try {
      int code = body.run(t);
      if (code != 0 && (code < 1 || code > 255)) {
        // System.exit(256) ends a process with 0: a failure must never read as success
        err.println("hare worker: " + t.label() + " returned " + code
            + ", not an exit status 0-255: it counts as 1");
        return 1;
      }
      return code;
    } catch (Exception e) {
      err.println("hare worker: " + t.label() + " failed: " + e);
      for (StackTraceElement s : e.getStackTrace()) {
        err.println("\tat " + s); // the container's stderr is its YARN log: the trace belongs there
      }
      err.flush();
      return 1;
    }
  }

  /** The task of the container's launch environment; empty, having said why, if it has none. */
  private Optional<Task> firstTask() {
    OptionalInt round = number(env("HARE_ROUND"));
    OptionalInt index = number(env("HARE_TASK_INDEX"));
    String d = env("HARE_GPU_DEVICE");
    OptionalInt device = d.isEmpty() ? OptionalInt.empty() : number(d);
    if (round.isEmpty() || index.isEmpty() || !d.isEmpty() && device.isEmpty()) {
      err.println("hare worker: no task in the environment: HARE_ROUND ('"
          + env("HARE_ROUND") + "') and HARE_TASK_INDEX ('"
          + env("HARE_TASK_INDEX") + "') must be whole numbers >= 0, and"
          + " HARE_GPU_DEVICE ('" + d + "') one or empty; a standby has " + STANDBY + " set");
      return Optional.empty();
    }
    return Optional.of(new Task(round.getAsInt(), index.getAsInt(), device));
  }

  /** {@code run ROUND INDEX [DEVICE] ...}: later fields are a later version's. */
  private static Optional<Task> runLine(String[] f) {
    if (f.length < 3) {
      return Optional.empty();
    }
    OptionalInt round = number(f[1]);
    OptionalInt index = number(f[2]);
    OptionalInt device = f.length > 3 && !f[3].isEmpty() ? number(f[3]) : OptionalInt.empty();
    if (round.isEmpty() || index.isEmpty() || f.length > 3 && !f[3].isEmpty()
        && device.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(new Task(round.getAsInt(), index.getAsInt(), device));
  }

  private static OptionalInt number(String s) {
    if (s == null || s.isEmpty() || s.length() > 9 || !s.chars().allMatch(Character::isDigit)) {
      return OptionalInt.empty();
    }
    return OptionalInt.of(Integer.parseInt(s));
  }

  /** The channel after a successful handshake; empty, having said why, if it cannot be used. */
  private Optional<Channel> connect() {
    String host = env(RUNNER_HOST);
    String port = env(RUNNER_PORT);
    if (port.isEmpty()) {
      err.println("hare worker: no task channel (" + RUNNER_PORT + " unset): this container"
          + " runs one task");
      return Optional.empty();
    }
    String container = env("CONTAINER_ID");
    String tokens = env("HADOOP_TOKEN_FILE_LOCATION");
    Optional<byte[]> key;
    try {
      key = tokens.isEmpty() ? Optional.empty() : ChannelKey.read(Path.of(tokens));
    } catch (IOException e) {
      key = Optional.empty();
    }
    if (key.isEmpty() || container.isEmpty()) {
      err.println("hare worker: no task channel key in the container credentials (or no"
          + " CONTAINER_ID); it runs no further task");
      return Optional.empty();
    }
    Channel c = null;
    try {
      c = new Channel(host, Integer.parseInt(port));
      String greeting = c.readLine();
      if (greeting == null || !greeting.startsWith(MAGIC + " " + VERSION + " ")) {
        err.println("hare worker: the task channel refused this container (" + greeting
            + "); it runs no further task");
        c.close();
        return Optional.empty();
      }
      c.send("hello " + VERSION + " " + container + " "
          + ChannelProof.proof(key.get(), greeting, container));
      String answer = c.readLine();
      if (!"ok".equals(answer)) {
        err.println("hare worker: the task channel refused this container (" + answer
            + "); it runs no further task");
        c.close();
        return Optional.empty();
      }
      c.handshaken();
      return Optional.of(c);
    } catch (IOException | NumberFormatException e) {
      err.println("hare worker: cannot use the task channel at " + host + ":" + port + " ("
          + e.getMessage() + "); it runs no further task");
      if (c != null) {
        c.close();
      }
      return Optional.empty();
    }
  }

  /** One connection to the AM's task channel: lines out, bounded lines in. */
  private static final class Channel implements Closeable {
    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;

    Channel(String host, int port) throws IOException {
      socket = new Socket();
      try {
        socket.connect(new InetSocketAddress(host, port), HANDSHAKE_READ_MS);
        socket.setSoTimeout(HANDSHAKE_READ_MS);
        socket.setKeepAlive(true);
        socket.setTcpNoDelay(true); // a line is a whole message: nothing to batch
        in = new BufferedInputStream(socket.getInputStream());
        out = socket.getOutputStream();
      } catch (IOException e) {
        close();
        throw e;
      }
    }

    /** After the handshake a task may run for hours: reads wait as long as the AM does. */
    void handshaken() throws IOException {
      socket.setSoTimeout(0);
    }

    void send(String line) throws IOException {
      out.write((line + "\n").getBytes(StandardCharsets.US_ASCII));
      out.flush();
    }

    /** The next line without its newline; null at the end of the stream. */
    String readLine() throws IOException {
      ByteArrayOutputStream b = new ByteArrayOutputStream(64);
      while (true) {
        int c = in.read();
        if (c < 0) {
          return null;
        }
        if (c == '\n') {
          return b.toString(StandardCharsets.US_ASCII);
        }
        if (c < 0x20 || c > 0x7e || b.size() + 1 >= MAX_LINE_BYTES) {
          throw new IOException("a line that is not printable ASCII or longer than "
              + MAX_LINE_BYTES + " bytes");
        }
        b.write(c);
      }
    }

    @Override
    public void close() {
      try {
        socket.close();
      } catch (IOException e) {
        // nothing to do: the connection is gone either way
      }
    }
  }
}
