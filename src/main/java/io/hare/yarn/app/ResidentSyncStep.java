package io.hare.yarn.app;

import io.hare.worker.ResidentSync;
import io.hare.yarn.app.tokens.TokenRefresher;
import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.IntConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the sync command as one process for the job ({@code yarn.app.hare.sync.mode=resident}):
 * started at the first sync step with that round's {@link TaskEnv} variables and
 * {@value ResidentSync#RESIDENT}{@code =1}, then given each later round as a line
 * {@code sync ROUND} on its standard input. It answers each round with
 * {@code hare-sync done ROUND CODE} on its standard output ({@link ResidentSync}); closing its
 * standard input tells it to exit. A framework's import and the model it builds are then paid once
 * per job, not once per round.
 *
 * <p>The process runs in the AM's container, as {@link ProcessSyncStep}'s do, and its pipes are
 * the only way to it: no port, no credential. Its stderr, and the lines of its stdout that are not
 * answers, go to {@code LOGDIR/sync.log}; a line longer than {@value #MAX_LINE_BYTES} bytes is
 * cut there, so its output cannot fill the AM's memory.
 *
 * <p>A command that does not speak the protocol still works: it runs the round of its
 * environment and exits, and its exit status is that round's result, as in process mode; the
 * next round starts it again. A process that exits, or breaks a line of the protocol, while it
 * holds a round it was given on its standard input fails that round (its exit status, or 1 if
 * that was 0); the next round starts a new process.
 *
 * <p>Rounds run one at a time on the given executor, as the AM asks for them.
 */
public final class ResidentSyncStep implements SyncStep, AutoCloseable {

  /** The longest line of the process's stdout kept whole; a longer one is cut in the log. */
  static final int MAX_LINE_BYTES = 4096;
  /** How long {@link #close} waits for the process to exit after its stdin is closed. */
  static final long EXIT_WAIT_MS = 10_000;
  private static final Logger LOG = LoggerFactory.getLogger(ResidentSyncStep.class);

  private final HareJobSpec spec;
  private final String jobId;
  private final String workDir;
  private final File log;
  private final ExecutorService executor;
  /** The live process and its pipes; set and read by the round running (one at a time). */
  private Process process;
  /** The same process, for {@link #close}, which must not wait for a round's lock. */
  private volatile Process current;
  private OutputStream stdin;
  private LineReader stdout;
  private FileOutputStream logOut;
  private final TokenRefresher tokens;
  /** The token generation the live process started with. */
  private long startedWith;

  public ResidentSyncStep(HareJobSpec spec, String jobId, String workDir, File logDir,
      ExecutorService executor) {
    this(spec, jobId, workDir, logDir, executor, TokenRefresher.NONE);
  }

  /**
   * @param tokens the AM's refreshed tokens: a process reads its tokens once, as it starts, so
   *     after a refresh the next round starts a new one, pointed at the new tokens
   */
  public ResidentSyncStep(HareJobSpec spec, String jobId, String workDir, File logDir,
      ExecutorService executor, TokenRefresher tokens) {
    this.tokens = tokens;
    this.spec = spec;
    this.jobId = jobId;
    this.workDir = workDir;
    this.log = new File(logDir, "sync.log");
    this.executor = executor;
  }

  @Override
  public void start(int round, IntConsumer onExit) {
    executor.execute(() -> onExit.accept(run(round)));
  }

  @Override
  public String logLocation(int round) {
    return log.getPath();
  }

  /** Whether a process is alive, waiting for its next round or running one. */
  boolean alive() {
    Process p = current;
    return p != null && p.isAlive();
  }

  private synchronized int run(int round) {
    try {
      if (process != null && process.isAlive() && startedWith == tokens.generation()) {
        try {
          stdin.write(ResidentSync.request(round).getBytes(StandardCharsets.US_ASCII));
          stdin.flush();
        } catch (IOException e) {
          return ended(round, "could not be given the round (" + e.getMessage() + ")", true);
        }
        return answer(round, true);
      }
      stop();
      if (!startProcess(round)) {
        return ProcessSyncStep.START_FAILED;
      }
      return answer(round, false);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      stop();
      return ProcessSyncStep.START_FAILED;
    }
  }

  private boolean startProcess(int round) {
    ProcessBuilder pb = new ProcessBuilder(List.of("bash", "-c", spec.syncCommand()));
    Map<String, String> env = pb.environment();
    env.putAll(TaskEnv.forSync(spec, jobId, workDir, round));
    env.put(ResidentSync.RESIDENT, "1");
    startedWith = tokens.generation(); // before the file: a refresh now restarts it once more
    env.putAll(tokens.childEnv());
    pb.redirectError(ProcessBuilder.Redirect.appendTo(log));
    try {
      logOut = new FileOutputStream(log, true);
      process = pb.start();
    } catch (IOException e) {
      LOG.error("{}: the sync process could not start for round {}", jobId, round, e);
      stop();
      return false;
    }
    current = process;
    stdin = process.getOutputStream();
    stdout = new LineReader(process.getInputStream());
    LOG.info("{}: sync process {} started for round {}", jobId, process.pid(), round);
    return true;
  }

  /**
   * Reads the process's stdout up to round {@code round}'s answer; copies other lines to the log.
   * {@code given}: the round was given on stdin, so an exit without an answer is a failure.
   */
  private int answer(int round, boolean given) throws InterruptedException {
    String prefix = ResidentSync.ANSWER + " ";
    while (true) {
      String line;
      try {
        line = stdout.next();
      } catch (IOException e) {
        line = null;
      }
      if (line == null) {
        return ended(round, "exited", given);
      }
      if (!line.startsWith(prefix)) {
        copyToLog(line);
        continue;
      }
      String[] words = line.substring(prefix.length()).split(" ", -1);
      if (words.length == 2 && words[0].equals(Integer.toString(round))
          && words[1].matches("[0-9]{1,3}") && Integer.parseInt(words[1]) <= 255) {
        int code = Integer.parseInt(words[1]);
        LOG.info("{}: sync step of round {} ended with {} (resident process {})", jobId, round,
            code, process.pid());
        return code;
      }
      // an answer for another round, or not an answer at all: the process cannot be trusted
      copyToLog(line);
      LOG.error("{}: the sync process answered '{}' for round {}; stopping it", jobId,
          abbreviate(line), round);
      stop();
      return 1;
    }
  }

  /** The round's result once the process's stdout ended; the process is waited for. */
  private int ended(int round, String how, boolean given) throws InterruptedException {
    Process p = process;
    if (!p.waitFor(EXIT_WAIT_MS, TimeUnit.MILLISECONDS)) {
      kill(p);
      p.waitFor();
    }
    int code = p.exitValue();
    stop();
    if (given) {
      LOG.error("{}: the sync process {} {} with {} during round {}, without its result; the"
          + " next round starts a new one", jobId, p.pid(), how, code, round);
      return code == 0 ? 1 : code;
    }
    LOG.info("{}: sync step of round {} exited with {} (not resident: the command ran one round)",
        jobId, round, code);
    return code;
  }

  private void copyToLog(String line) {
    try {
      logOut.write((line + "\n").getBytes(StandardCharsets.UTF_8));
      logOut.flush();
    } catch (IOException e) {
      LOG.warn("{}: cannot write the sync log {}: {}", jobId, log, e.getMessage());
    }
  }

  private static String abbreviate(String line) {
    return line.length() <= 80 ? line : line.substring(0, 80) + "...";
  }

  /** Ends the process (if any) and forgets it. */
  private void stop() {
    if (process != null) {
      kill(process);
    }
    current = null;
    closeQuietly(stdin);
    closeQuietly(stdout == null ? null : stdout.in);
    closeQuietly(logOut);
    process = null;
    stdin = null;
    stdout = null;
    logOut = null;
  }

  /**
   * Tells a live process to exit (its stdin closed), waits up to {@value #EXIT_WAIT_MS} ms and
   * then kills it with the processes it started. A round still running (the job ended without
   * it) then reads the end of the process's output and fails.
   */
  @Override
  public void close() {
    Process p = current;
    if (p == null) {
      return;
    }
    closeQuietly(p.getOutputStream());
    try {
      if (!p.waitFor(EXIT_WAIT_MS, TimeUnit.MILLISECONDS)) {
        LOG.warn("{}: the sync process {} did not exit within {} ms of its stdin closing;"
            + " killing it", jobId, p.pid(), EXIT_WAIT_MS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    kill(p);
  }

  /** The process and what it started: {@code bash -c} may have forked the command. */
  private static void kill(Process p) {
    p.descendants().forEach(ProcessHandle::destroyForcibly);
    p.destroyForcibly();
  }

  private static void closeQuietly(AutoCloseable c) {
    if (c != null) {
      try {
        c.close();
      } catch (Exception e) {
        // the process is gone or going: nothing to tell it
      }
    }
  }

  /** Lines of a stream, each cut at {@link #MAX_LINE_BYTES} bytes; null at the end. */
  static final class LineReader {
    private final InputStream in;

    LineReader(InputStream in) {
      this.in = in;
    }

    String next() throws IOException {
      byte[] buf = new byte[MAX_LINE_BYTES];
      int n = 0;
      boolean cut = false;
      int b;
      while ((b = in.read()) != -1 && b != '\n') {
        if (n < buf.length) {
          buf[n++] = (byte) b;
        } else {
          cut = true;
        }
      }
      if (b == -1 && n == 0 && !cut) {
        return null;
      }
      String line = new String(buf, 0, n, StandardCharsets.UTF_8);
      return cut ? line + " [cut at " + MAX_LINE_BYTES + " bytes]" : line;
    }
  }
}
