package io.hare.yarn.app;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where a job that did not succeed stopped. Its ApplicationMaster ends the unregister
 * diagnostics with {@link #mark()}, and a client reads it back with {@link #find}: YARN reports
 * a progress of 1 for every ended application whatever it did, so these words are the only
 * record of a failed job's rounds that the ResourceManager keeps.
 *
 * @param roundsDone rounds whose sync finished (checkpointed)
 * @param rounds the job's R
 * @param round the round in progress when the job stopped, 0-based as {@code HARE_ROUND}; -1
 *     when none had begun
 * @param tasksDone tasks of that round done (0 when none had begun)
 * @param tasksPerRound the job's k (0 when no round had begun)
 */
public record JobStop(int roundsDone, int rounds, int round, int tasksDone, int tasksPerRound) {

  private static final Pattern MARK = Pattern.compile("\\s*\\[hare: (\\d+) of (\\d+) rounds done"
      + "(?:; stopped in round (\\d+) with (\\d+) of (\\d+) tasks done)?]");

  /** {@code 3 of 8 rounds done; stopped in round 3 with 1 of 4 tasks done}. */
  public String describe() {
    String done = roundsDone + " of " + rounds + " rounds done";
    return round < 0 ? done : done + "; stopped in round " + round + " with " + tasksDone
        + " of " + tasksPerRound + " tasks done";
  }

  /** {@link #describe()} in brackets, to end the AM's diagnostics. */
  public String mark() {
    return "[hare: " + describe() + "]";
  }

  /** The last mark in an application's diagnostics; empty when its AM left none. */
  public static Optional<JobStop> find(String diagnostics) {
    if (diagnostics == null) {
      return Optional.empty();
    }
    Matcher m = MARK.matcher(diagnostics);
    JobStop last = null;
    while (m.find()) {
      last = m.group(3) == null
          ? new JobStop(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)), -1, 0, 0)
          : new JobStop(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)),
              Integer.parseInt(m.group(3)), Integer.parseInt(m.group(4)),
              Integer.parseInt(m.group(5)));
    }
    return Optional.ofNullable(last);
  }

  /** The diagnostics without their marks: why the job stopped. */
  public static String why(String diagnostics) {
    return diagnostics == null ? "" : MARK.matcher(diagnostics).replaceAll("").strip();
  }
}
