package io.hare.sim.workload;

import io.hare.core.BadInputException;
import io.hare.core.JobSpec;
import io.hare.core.queues.QueueShares;
import io.hare.sim.SimKeys;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Puts the jobs of a generated workload (paper, philly) into queues, by
 * {@code yarn.hare.sim.queue-assignment}: {@code none} leaves every job in {@code default};
 * {@code round-robin} takes the jobs in arrival order (then id) and gives job i the i-th of the
 * queues other than {@code default}, in the order configured, cycling, so each queue gets every
 * n-th job of the same arrival process (with no queue but {@code default}, all stay there).
 * Stateless.
 */
public final class QueueAssignment {

  public static final String NONE = "none";
  public static final String ROUND_ROBIN = "round-robin";

  private QueueAssignment() {}

  /** The setting, checked. */
  public static String read(Map<String, String> settings) throws BadInputException {
    String v = settings.getOrDefault(SimKeys.QUEUE_ASSIGNMENT, SimKeys.DEFAULT_QUEUE_ASSIGNMENT)
        .trim();
    if (!v.equals(NONE) && !v.equals(ROUND_ROBIN)) {
      throw new BadInputException(SimKeys.QUEUE_ASSIGNMENT + ": must be " + NONE + " or "
          + ROUND_ROBIN + ", got '" + v + "'");
    }
    return v;
  }

  /** {@code w} with its jobs in queues by {@code how}, from {@link #read}. */
  public static Workload apply(Workload w, QueueShares queues, String how) {
    if (how.equals(NONE)) {
      return w;
    }
    List<String> targets = new ArrayList<>(queues.queues().keySet());
    targets.remove(QueueShares.DEFAULT);
    if (targets.isEmpty()) {
      return w;
    }
    List<JobSpec> sorted = new ArrayList<>(w.jobs());
    sorted.sort(Comparator.comparingLong(JobSpec::arrivalMs).thenComparing(JobSpec::id));
    Map<String, String> queueOf = new HashMap<>();
    for (int i = 0; i < sorted.size(); i++) {
      queueOf.put(sorted.get(i).id(), targets.get(i % targets.size()));
    }
    List<JobSpec> out = new ArrayList<>(sorted.size());
    for (JobSpec j : w.jobs()) { // the workload's own order, which the lower bound reads
      out.add(j.inQueue(queueOf.get(j.id())));
    }
    return new Workload(w.name(), out, w.profiles());
  }
}
