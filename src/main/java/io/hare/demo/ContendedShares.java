package io.hare.demo;

import io.hare.embedded.SchedulerJournal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Whether queues got their GPU guarantees while they competed, from what a demo run recorded.
 * A <em>contended window</em> is a stretch of time in which every queue of {@code shares} had GPU
 * tasks waiting: some job of the queue had outstanding one-GPU asks, as the scheduler's journal
 * recorded them ({@link SchedulerJournal.Kind#ASKS}, at each change). In those windows a queue
 * is promised {@code share x GPUs x window length} GPU-seconds; what it got is the time its
 * task processes ran there, from their own start and end records (an attempt without an end
 * counts nothing). Outside the windows a queue may borrow idle GPUs or lend its own, so only the
 * windows test a guarantee.
 *
 * <p>Beside the tasks' own time, the GPU-seconds the scheduler gave the queue's containers in
 * the windows ({@code held}: from the journal's STARTED, at allocation, to ENDED) separate the
 * scheduler's share from YARN's overheads: a container's launch and its worker's start hold a
 * GPU that runs no task yet, which on a loaded machine is seconds per container.
 *
 * <p>Where the scheduler gave a queue fewer GPUs than its guarantee in the windows, the
 * shortfall splits into two parts, moment by moment: GPUs that other queues' containers held
 * above those queues' own guarantees ({@code lent}: they come back as those tasks end), and GPUs
 * that no container held ({@code idle}: no job took them; with shares that sum to at most 1 the
 * two make up the whole shortfall).
 *
 * <p>A queue is named as the ResourceManager reports an application's queue, with a leading
 * {@code root.} dropped. Pure and stateless.
 */
public final class ContendedShares {

  /**
   * One queue's figures.
   *
   * @param contendedGpuSeconds GPU-seconds its tasks ran in the contended windows
   * @param contendedGuaranteedGpuSeconds what its guarantee promised there: share x GPUs x the
   *     windows' length
   * @param contendedHeldGpuSeconds GPU-seconds the scheduler gave its containers there
   * @param contendedLentGpuSeconds of what its containers lacked of the guarantee there, the
   *     GPU-seconds other queues' containers held above their own guarantees
   * @param contendedIdleGpuSeconds of what its containers lacked there, the GPU-seconds no
   *     container held
   */
  public record Queue(String name, double guaranteedShare, double contendedGpuSeconds,
      double contendedGuaranteedGpuSeconds, double contendedHeldGpuSeconds,
      double contendedLentGpuSeconds, double contendedIdleGpuSeconds) {

    /** What it got over what it was promised; NaN without contended windows. */
    public double ofGuarantee() {
      return contendedGuaranteedGpuSeconds > 0
          ? contendedGpuSeconds / contendedGuaranteedGpuSeconds : Double.NaN;
    }

    /** What the scheduler gave it over what it was promised; NaN without contended windows. */
    public double heldOfGuarantee() {
      return contendedGuaranteedGpuSeconds > 0
          ? contendedHeldGpuSeconds / contendedGuaranteedGpuSeconds : Double.NaN;
    }
  }

  /**
   * The run's figures.
   *
   * @param contendedS the contended windows' total length, s
   * @param runS from the first submission to the last finish, s
   * @param gpus the cluster's GPUs
   */
  public record Figures(List<Queue> queues, double contendedS, double runS, int gpus) {

    public Figures {
      queues = List.copyOf(queues);
    }

    /** Whether each queue got at least {@code target} of its contended guarantee. */
    public boolean met(double target) {
      return contendedS > 0 && queues.stream().allMatch(q -> q.ofGuarantee() >= target);
    }

    /** Whether the scheduler held at least {@code target} of each queue's contended guarantee. */
    public boolean heldMet(double target) {
      return contendedS > 0 && queues.stream().allMatch(q -> q.heldOfGuarantee() >= target);
    }
  }

  private ContendedShares() {}

  /**
   * The figures of {@code run} for the queues of {@code shares} (queue to guaranteed share, in
   * report order), over the cluster's GPUs.
   */
  public static Figures of(DemoResult run, Map<String, Double> shares) {
    int gpus = run.gpusByHost().values().stream().mapToInt(Integer::intValue).sum();
    Map<String, String> queueOf = new HashMap<>();
    run.jobs().forEach(j -> queueOf.put(j.appId(), name(j.queue())));
    List<long[]> windows = windows(run.journal(), queueOf, shares.keySet());
    double contendedS = windows.stream().mapToLong(w -> w[1] - w[0]).sum() / 1000.0;
    Map<String, Long> ranMs = new LinkedHashMap<>();
    shares.keySet().forEach(q -> ranMs.put(q, 0L));
    for (DemoResult.Task t : run.tasks()) {
      String q = queueOf.get(t.appId());
      if (q == null || !ranMs.containsKey(q) || t.endMs() < 0) {
        continue;
      }
      ranMs.merge(q, overlap(t.startMs(), t.endMs(), windows), Long::sum);
    }
    Map<String, double[]> ms = containers(run.journal(), queueOf, shares, gpus, windows);
    List<Queue> out = new ArrayList<>();
    shares.forEach((q, share) -> out.add(new Queue(q, share, ranMs.get(q) / 1000.0,
        share * gpus * contendedS, ms.get(q)[0] / 1000.0, ms.get(q)[1] / 1000.0,
        ms.get(q)[2] / 1000.0)));
    return new Figures(out, contendedS, run.makespanS(), gpus);
  }

  /**
   * The windows, as {start, end} ms, in which every queue of {@code queues} had asks
   * outstanding, from the journal's ASKS entries in its order.
   */
  static List<long[]> windows(List<SchedulerJournal.Entry> journal, Map<String, String> queueOf,
      java.util.Set<String> queues) {
    Map<String, Integer> outstanding = new HashMap<>();
    Map<String, Integer> waiting = new HashMap<>();
    List<long[]> out = new ArrayList<>();
    long openSince = -1;
    long last = 0;
    for (SchedulerJournal.Entry e : journal) {
      last = Math.max(last, e.ms());
      if (e.kind() != SchedulerJournal.Kind.ASKS) {
        continue;
      }
      String q = queueOf.get(e.appId());
      if (q == null || !queues.contains(q)) {
        continue;
      }
      int before = outstanding.getOrDefault(e.appId(), 0);
      outstanding.put(e.appId(), e.outstanding());
      waiting.merge(q, e.outstanding() - before, Integer::sum);
      boolean all = queues.stream().allMatch(x -> waiting.getOrDefault(x, 0) > 0);
      if (all && openSince < 0) {
        openSince = e.ms();
      } else if (!all && openSince >= 0) {
        add(out, openSince, e.ms());
        openSince = -1;
      }
    }
    if (openSince >= 0) {
      add(out, openSince, last); // a run cut short: the journal's last entry ends it
    }
    return out;
  }

  private static long overlap(long start, long end, List<long[]> windows) {
    long in = 0;
    for (long[] w : windows) {
      in += Math.max(0, Math.min(end, w[1]) - Math.max(start, w[0]));
    }
    return in;
  }

  /**
   * Per queue of {@code shares}, GPU-milliseconds in the windows: {held, lent, idle}. A container
   * is held from its STARTED to its next ENDED (a container whose task continues ends and starts
   * at once), or to the journal's last entry. Between two entries (in time order) the open
   * containers are constant, and a queue short of {@code share x gpus} lacks first what the
   * others hold above their own guarantees (a queue outside {@code shares}, or an application of
   * no known queue, has none), then what is free.
   */
  private static Map<String, double[]> containers(List<SchedulerJournal.Entry> journal,
      Map<String, String> queueOf, Map<String, Double> shares, int gpus, List<long[]> windows) {
    Map<String, double[]> out = new HashMap<>();
    shares.keySet().forEach(q -> out.put(q, new double[3]));
    List<SchedulerJournal.Entry> byTime = new ArrayList<>(journal);
    byTime.sort(Comparator.comparingLong(SchedulerJournal.Entry::ms));
    Map<String, String> open = new HashMap<>(); // container -> queue, "" for none known
    Map<String, Integer> held = new HashMap<>();
    long since = byTime.isEmpty() ? 0 : byTime.get(0).ms();
    for (SchedulerJournal.Entry e : byTime) {
      long in = e.ms() > since ? overlap(since, e.ms(), windows) : 0;
      if (in > 0) {
        int total = held.values().stream().mapToInt(Integer::intValue).sum();
        for (String q : shares.keySet()) {
          out.get(q)[0] += (double) held.getOrDefault(q, 0) * in;
          double lacks = shares.get(q) * gpus - held.getOrDefault(q, 0);
          if (lacks <= 0) {
            continue;
          }
          double above = 0;
          for (Map.Entry<String, Integer> h : held.entrySet()) {
            if (!h.getKey().equals(q)) {
              above += Math.max(0, h.getValue() - shares.getOrDefault(h.getKey(), 0.0) * gpus);
            }
          }
          double lent = Math.min(lacks, above);
          double idle = Math.min(lacks - lent, Math.max(0, gpus - total));
          out.get(q)[1] += lent * in;
          out.get(q)[2] += idle * in;
        }
      }
      since = Math.max(since, e.ms());
      if (e.kind() == SchedulerJournal.Kind.STARTED) {
        String q = queueOf.getOrDefault(e.appId(), "");
        if (open.put(e.containerId(), q) == null) {
          held.merge(q, 1, Integer::sum);
        }
      } else if (e.kind() == SchedulerJournal.Kind.ENDED) {
        String q = open.remove(e.containerId());
        if (q != null) {
          held.merge(q, -1, Integer::sum);
        }
      }
    }
    return out;
  }

  private static void add(List<long[]> windows, long start, long end) {
    if (end > start) {
      windows.add(new long[] {start, end});
    }
  }

  /** A queue's name as the ResourceManager reports it, without a leading {@code root.}. */
  static String name(String reported) {
    return reported.startsWith("root.") ? reported.substring("root.".length()) : reported;
  }
}
