package io.hare.demo;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The idle stretches of a demo job, for the charts to show what they are:
 * <ul>
 *   <li>{@link Kind#AM_START}: from the job's submission to its first task process's start (the
 *       ApplicationMaster starting, asking, its first container launching);
 *   <li>{@link Kind#SYNC}: while one of the job's sync steps runs (its recorded start and end)
 *       between a round's last task end and the next round's first task start, or after the last
 *       round's;
 *   <li>{@link Kind#BARRIER}: the rest of the time between a round's last task end and the next
 *       round's first task start: the AM hearing of the ends, the next round's asks, waiting
 *       for a free GPU, its containers launching. All of it when no sync step was recorded
 *       there.
 * </ul>
 * Task attempts without an end (lost) do not end a round. Pure; times as given.
 */
public final class JobGaps {

  /** What a gap is. */
  public enum Kind {
    AM_START("AM start"), BARRIER("barrier"), SYNC("sync");

    private final String label;

    Kind(String label) {
      this.label = label;
    }

    public String label() {
      return label;
    }
  }

  /** One idle stretch of a job, {@code startMs} before {@code endMs}. */
  public record Gap(Kind kind, String appId, long startMs, long endMs) {}

  private JobGaps() {}

  /** The gaps of every job of a run, job by job, each job's by time. */
  public static List<Gap> of(DemoResult run) {
    List<Gap> out = new ArrayList<>();
    for (DemoResult.Job j : run.jobs()) {
      out.addAll(of(j, run.tasks().stream().filter(t -> t.appId().equals(j.appId())).toList(),
          run.syncs().stream().filter(s -> s.appId().equals(j.appId())).toList()));
    }
    return out;
  }

  /** The gaps of {@code job} given its task attempts and sync runs, by time. */
  public static List<Gap> of(DemoResult.Job job, List<DemoResult.Task> tasks,
      List<DemoResult.Sync> syncs) {
    List<Gap> out = new ArrayList<>();
    if (tasks.isEmpty()) {
      return out;
    }
    long first = tasks.stream().mapToLong(DemoResult.Task::startMs).min().orElseThrow();
    if (first > job.submitMs()) {
      out.add(new Gap(Kind.AM_START, job.appId(), job.submitMs(), first));
    }
    Map<Integer, long[]> rounds = new TreeMap<>(); // round -> {first start, last end}
    for (DemoResult.Task t : tasks) {
      long[] r = rounds.computeIfAbsent(t.round(), k -> new long[] {Long.MAX_VALUE, -1});
      r[0] = Math.min(r[0], t.startMs());
      if (t.endMs() >= 0) {
        r[1] = Math.max(r[1], t.endMs());
      }
    }
    List<DemoResult.Sync> ended = syncs.stream().filter(s -> s.endMs() >= s.startMs())
        .sorted(Comparator.comparingLong(DemoResult.Sync::startMs)).toList();
    for (Map.Entry<Integer, long[]> e : rounds.entrySet()) {
      long lastEnd = e.getValue()[1];
      if (lastEnd < 0) {
        continue;
      }
      long[] next = rounds.get(e.getKey() + 1);
      if (next != null) {
        between(job.appId(), lastEnd, next[0], ended, true, out);
      } else if (e.getKey() == job.rounds() - 1) {
        // after the last round: its sync, then the AM finishing (not a gap of the GPUs)
        between(job.appId(), lastEnd, Long.MAX_VALUE, ended, false, out);
      }
    }
    out.sort(Comparator.comparingLong(Gap::startMs));
    return out;
  }

  /** The syncs within [from, to), and with {@code barrier} the rest as barrier. */
  private static void between(String appId, long from, long to, List<DemoResult.Sync> syncs,
      boolean barrier, List<Gap> out) {
    long at = from;
    for (DemoResult.Sync s : syncs) {
      long start = Math.max(s.startMs(), at);
      long end = Math.min(s.endMs(), to);
      if (end <= start) {
        continue;
      }
      if (barrier && start > at) {
        out.add(new Gap(Kind.BARRIER, appId, at, start));
      }
      out.add(new Gap(Kind.SYNC, appId, start, end));
      at = end;
    }
    if (barrier && to > at) {
      out.add(new Gap(Kind.BARRIER, appId, at, to));
    }
  }
}
