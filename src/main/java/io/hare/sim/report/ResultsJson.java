package io.hare.sim.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hare.sim.QueueOutcome;
import io.hare.sim.SimResult;
import java.util.TreeMap;

/**
 * The machine-readable comparison, as {@code hare simulate --json} prints it and as
 * {@code results.json} stores it:
 *
 * <pre>
 * {"lower_bound_total_weighted_jct_s": X,
 *  "results": [{"policy": "hare", "total_weighted_jct_s": X, "avg_jct_s": X, "p95_jct_s": X,
 *               "makespan_s": X, "gpu_utilization": X, "jobs": N,
 *               "unfinished_jobs": N, "ratio_to_best": X, "ratio_to_lower_bound": X,
 *               "ratio_to_exact": X, "switches": N, "replans": N, "replan_avg_ms": X,
 *               "replan_max_ms": X}, ...],
 *  "workload": "paper", "cluster": "v100=40,...", "switch_ms": N,
 *  "critical_path_total_weighted_jct_s": X,
 *  "exact": {"total_weighted_jct_s": X, "proven": B, "lower_bound_s": X, "solve_s": X}}
 * </pre>
 *
 * <p>{@code exact} is there only with {@code --exact}; {@code ratio_to_exact} is null without it.
 *
 * <p>With several queues each result also has {@code "single_queue_total_weighted_jct_s"} (the
 * same policy on the same workload with one queue), {@code "ratio_to_single_queue"} and
 * {@code "queues": [{"name", "guaranteed_share", "guaranteed_gpus", "jobs", "unfinished_jobs",
 * "total_weighted_jct_s", "guarantee_wait_s", "guarantee_short_gpu_s", "guarantee_lent_gpu_s",
 * "single_queue_total_weighted_jct_s"}, ...]}: the time the queue had tasks waiting while it held
 * fewer GPUs than its guarantee, the GPU-seconds it lacked over that time, of those the ones
 * other queues held above their own guarantees, and its jobs' total weighted JCT in the
 * single-queue run ({@link QueueOutcome}).
 *
 * <p>Fields keep this order; the first seven of a result are the stable interface, the rest may
 * grow. Times are seconds unless the name says otherwise; {@code gpu_utilization} is a fraction
 * in [0, 1]. A number that does not exist (the bound when it could not be computed, JCT
 * statistics when no job finished, a ratio without a base) is {@code null}, never NaN.
 */
public final class ResultsJson {

  private static final ObjectMapper MAPPER = new ObjectMapper()
      .enable(SerializationFeature.INDENT_OUTPUT);

  private ResultsJson() {}

  public static ObjectNode toJson(Comparison c) {
    ObjectNode root = MAPPER.createObjectNode();
    number(root, "lower_bound_total_weighted_jct_s", c.lowerBoundS());
    ArrayNode results = root.putArray("results");
    for (SimResult r : c.results()) {
      ObjectNode o = results.addObject();
      o.put("policy", r.policy());
      number(o, "total_weighted_jct_s", r.totalWeightedJctS());
      number(o, "avg_jct_s", r.avgJctS());
      number(o, "p95_jct_s", r.p95JctS());
      number(o, "makespan_s", r.makespanS());
      number(o, "gpu_utilization", r.gpuUtilization());
      o.put("jobs", r.jobs().size());
      o.put("unfinished_jobs", r.unfinishedJobs());
      number(o, "ratio_to_best", c.ratioToBest(r));
      number(o, "ratio_to_lower_bound", c.ratioToLowerBound(r));
      number(o, "ratio_to_exact", c.ratioToExact(r));
      o.put("switches", r.switches());
      o.put("replans", r.replans());
      number(o, "replan_avg_ms", r.replanAvgMs());
      number(o, "replan_max_ms", r.replanMaxMs());
      if (r.severalQueues()) {
        queues(o, r);
      }
    }
    root.put("workload", c.workload());
    root.put("cluster", c.cluster());
    root.put("switch_ms", c.switchMs());
    number(root, "critical_path_total_weighted_jct_s", c.criticalPathS());
    if (c.exact() != null) {
      ObjectNode e = root.putObject("exact");
      number(e, "total_weighted_jct_s", c.exact().totalWeightedJctS());
      e.put("proven", c.exact().proven());
      number(e, "lower_bound_s", c.exact().lowerBoundS());
      number(e, "solve_s", c.exact().solveS());
    }
    return root;
  }

  /** The comparison as indented JSON text, ending with a newline. */
  public static String toText(Comparison c) {
    try {
      return MAPPER.writeValueAsString(toJson(c)) + System.lineSeparator();
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot serialise a tree of plain values", e);
    }
  }

  private static void queues(ObjectNode o, SimResult r) {
    number(o, "single_queue_total_weighted_jct_s", r.singleQueueTotalWeightedJctS());
    number(o, "ratio_to_single_queue", r.singleQueueTotalWeightedJctS() > 0
        ? r.totalWeightedJctS() / r.singleQueueTotalWeightedJctS() : Double.NaN);
    ArrayNode qs = o.putArray("queues");
    for (QueueOutcome q : r.queues()) {
      ObjectNode n = qs.addObject();
      n.put("name", q.name());
      number(n, "guaranteed_share", q.guaranteedShare());
      n.put("guaranteed_gpus", q.guaranteedGpus());
      if (!q.guaranteedTypeShares().isEmpty()) {
        ObjectNode types = n.putObject("guaranteed_type_shares");
        new TreeMap<>(q.guaranteedTypeShares()).forEach(types::put);
      }
      n.put("jobs", q.jobs());
      n.put("unfinished_jobs", q.unfinishedJobs());
      number(n, "total_weighted_jct_s", q.totalWeightedJctS());
      number(n, "guarantee_wait_s", q.guaranteeWaitS());
      number(n, "guarantee_short_gpu_s", q.guaranteeShortGpuS());
      number(n, "guarantee_lent_gpu_s", q.guaranteeLentGpuS());
      number(n, "single_queue_total_weighted_jct_s", q.singleQueueTotalWeightedJctS());
    }
  }

  private static void number(ObjectNode o, String field, double v) {
    if (Double.isFinite(v)) {
      o.put(field, v);
    } else {
      o.putNull(field);
    }
  }
}
