package io.hare.worker;

import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.util.function.Function;

/**
 * The loop of a resident sync step ({@code yarn.app.hare.sync.mode=resident};
 * {@code docs/task-channel.md}, "The sync step's pipes"): one process for the job, in the
 * ApplicationMaster's container, that builds its state once and then runs round after round of
 * the sync step as the AM asks.
 *
 * <p>Protocol version 1, over the process's standard streams (the AM started the process, so
 * nobody else holds them: no port and no credential):
 * <pre>
 * the first round       the one in HARE_ROUND, run at once
 * process -> stdout:    hare-sync done ROUND CODE     after each round; CODE 0-255, 0 success
 * AM -> stdin:          sync ROUND                    run that round next
 * AM closes stdin:                                     exit 0
 * </pre>
 * The answers go to the process's original standard output; {@link #serve} points
 * {@code System.out} at stderr first, so what the step prints goes to the sync log and cannot be
 * taken for an answer.
 *
 * <p>Without {@value #RESIDENT}{@code =1} in its environment (process mode, or an AM that does
 * not know this protocol), the process runs the round of its environment once and its result is
 * the exit status: one command works under both modes.
 */
public final class ResidentSync {

  /** Set to 1 by an AM that keeps the sync process for the next round. */
  public static final String RESIDENT = "HARE_SYNC_RESIDENT";
  /** The first words of an answer. */
  public static final String ANSWER = "hare-sync done";
  /** The longest request line the process reads. */
  static final int MAX_LINE_CHARS = 256;

  /** One round of a sync step, run with the state the process built once. */
  @FunctionalInterface
  public interface RoundBody {
    /** Runs round {@code round}'s sync step; its exit code (0: success). */
    int run(int round) throws Exception;
  }

  private final Function<String, String> vars;
  private final PrintWriter err;

  /**
   * @param env the process's environment: a variable's value, null when it is not set
   * @param err where the loop says why it stopped, and a round's exception
   */
  public ResidentSync(Function<String, String> env, PrintWriter err) {
    this.vars = env;
    this.err = err;
  }

  /** The AM's request for round {@code round}, newline included. */
  public static String request(int round) {
    return "sync " + round + "\n";
  }

  /**
   * Serves {@code body} in this process with its real streams; the exit status for
   * {@code System.exit}.
   */
  public static int serve(RoundBody body) {
    return serve(System::getenv, body);
  }

  /**
   * Serves {@code body} with this process's real streams and the environment {@code env} (the
   * process's own, or one a caller adjusted, such as the job's data directory).
   */
  public static int serve(Function<String, String> env, RoundBody body) {
    PrintWriter err = new PrintWriter(System.err, true);
    ResidentSync sync = new ResidentSync(env, err);
    if (!sync.resident()) {
      return sync.run(body, null, null);
    }
    OutputStream answers = new FileOutputStream(FileDescriptor.out);
    System.out.flush();
    System.setOut(new PrintStream(new FileOutputStream(FileDescriptor.err), true,
        StandardCharsets.UTF_8));
    return sync.run(body, new InputStreamReader(System.in, StandardCharsets.US_ASCII), answers);
  }

  /** Whether the AM keeps this process for the next round. */
  public boolean resident() {
    return "1".equals(vars.apply(RESIDENT));
  }

  /**
   * Runs the first round, then (when {@link #resident}) each round read from {@code requests},
   * answering on {@code answers}. Returns the first round's exit code when not resident; 0 when
   * the requests end; {@value ResidentWorker#BAD_INPUT} for a first round that is not a whole
   * number, or a request this version cannot read (the AM then fails the round it gave).
   */
  public int run(RoundBody body, Reader requests, OutputStream answers) {
    String first = vars.apply("HARE_ROUND");
    int round = whole(first);
    if (round < 0) {
      err.println("hare sync: HARE_ROUND must be a whole number, got "
          + (first == null ? "nothing" : "'" + first + "'"));
      return ResidentWorker.BAD_INPUT;
    }
    if (!resident()) {
      return runRound(body, round);
    }
    BufferedReader in = new BufferedReader(requests);
    try {
      while (true) {
        int code = runRound(body, round);
        answers.write((ANSWER + " " + round + " " + code + "\n")
            .getBytes(StandardCharsets.US_ASCII));
        answers.flush();
        String line = readLine(in);
        if (line == null) {
          return 0;
        }
        round = line.startsWith("sync ") ? whole(line.substring(5)) : -1;
        if (round < 0) {
          err.println("hare sync: the ApplicationMaster sent a line this version cannot read: "
              + (line.length() > 80 ? line.substring(0, 80) + "..." : line));
          return ResidentWorker.BAD_INPUT;
        }
      }
    } catch (IOException e) {
      err.println("hare sync: the ApplicationMaster's pipe broke (" + e.getMessage() + ")");
      return ResidentWorker.LOST;
    }
  }

  private int runRound(RoundBody body, int round) {
    try {
      int code = body.run(round);
      return code >= 0 && code <= 255 ? code : 1;
    } catch (Exception e) {
      e.printStackTrace(err);
      err.flush();
      return 1;
    }
  }

  /** The next line, at most {@link #MAX_LINE_CHARS} characters kept; null at the end. */
  private static String readLine(BufferedReader in) throws IOException {
    StringBuilder sb = new StringBuilder();
    int c;
    while ((c = in.read()) != -1 && c != '\n') {
      if (sb.length() < MAX_LINE_CHARS) {
        sb.append((char) c);
      }
    }
    return c == -1 && sb.length() == 0 ? null : sb.toString();
  }

  /** A whole number of at most 9 ASCII digits, or -1. */
  private static int whole(String s) {
    if (s == null || s.isEmpty() || s.length() > 9 || !s.chars().allMatch(ch -> ch >= '0'
        && ch <= '9')) {
      return -1;
    }
    return Integer.parseInt(s);
  }
}
