package io.hare.bench;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * What {@code hare bench scheduler} prints: one JSON object, or a table with one column per
 * scheduler. The JSON's first seven fields are the interface (allocations per second
 * are steady churn's, latencies are churn heartbeats', {@code hare_replan_ms} the longest
 * re-plan of the run, {@code hare_state_heap_mb} as {@link RunResult#stateHeapBytes}); more
 * fields follow, and a scheduler that was not run has {@code null} in its fields.
 */
public final class BenchReport {

  private static final ObjectMapper MAPPER = new ObjectMapper()
      .enable(SerializationFeature.INDENT_OUTPUT);

  private BenchReport() {}

  public static ObjectNode toJson(SchedulerBench.Settings s, List<RunResult> results) {
    RunResult h = find(results, Contender.HARE);
    RunResult c = find(results, Contender.CAPACITY);
    ObjectNode o = MAPPER.createObjectNode();
    put(o, "hare_allocations_per_s", h, r -> r.churn().allocationsPerSecond());
    put(o, "capacity_allocations_per_s", c, r -> r.churn().allocationsPerSecond());
    put(o, "hare_heartbeat_p50_ms", h, r -> r.churnHeartbeats().p50Ms());
    put(o, "hare_heartbeat_p99_ms", h, r -> r.churnHeartbeats().p99Ms());
    put(o, "capacity_heartbeat_p99_ms", c, r -> r.churnHeartbeats().p99Ms());
    put(o, "hare_replan_ms", h, r -> r.replans().maxMs());
    put(o, "hare_state_heap_mb", h, r -> r.stateHeapBytes() / 1048576.0);
    o.put("nodes", s.shape().nodes());
    o.put("gpus_per_node", s.shape().gpusPerNode());
    o.put("jobs", s.shape().jobs());
    o.put("warmup_ticks", s.warmupTicks());
    o.put("churn_ticks", s.churnTicks());
    o.put("hare_pass_interval_ms", s.passIntervalMs());
    o.put("arrivals_per_tick", s.arrivalsPerTick());
    for (Contender k : Contender.values()) {
      RunResult r = find(results, k);
      String p = k.label() + "_";
      put(o, p + "fill_allocations_per_s", r, x -> x.fill().allocationsPerSecond());
      put(o, p + "fill_allocations", r, x -> x.fill().allocations());
      put(o, p + "fill_ticks", r, x -> x.fill().ticks());
      put(o, p + "fill_heartbeat_p99_ms", r, x -> x.fillHeartbeats().p99Ms());
      put(o, p + "fill_heartbeat_max_ms", r, x -> x.fillHeartbeats().maxMs());
      put(o, p + "churn_allocations", r, x -> x.churn().allocations());
      put(o, p + "cpu_allocations_per_s", r, x -> x.churn().allocationsPerCpuSecond());
      put(o, p + "churn_heartbeat_ms", r, x -> x.churn().path().heartbeatNanos() / 1e6);
      put(o, p + "churn_allocate_ms", r, x -> x.churn().path().allocateNanos() / 1e6);
      put(o, p + "churn_allocate_calls", r, x -> x.churn().path().allocateCalls());
      put(o, p + "heartbeat_p50_ms", r, x -> x.churnHeartbeats().p50Ms());
      put(o, p + "heartbeat_p99_ms", r, x -> x.churnHeartbeats().p99Ms());
      put(o, p + "heartbeat_max_ms", r, x -> x.churnHeartbeats().maxMs());
      put(o, p + "heartbeat_cpu_p50_ms", r, x -> x.churnHeartbeatsCpu().p50Ms());
      put(o, p + "heartbeat_cpu_p99_ms", r, x -> x.churnHeartbeatsCpu().p99Ms());
      put(o, p + "heartbeat_cpu_max_ms", r, x -> x.churnHeartbeatsCpu().maxMs());
      put(o, p + "pass_heartbeats", r, x -> x.churnPassesCpu().count());
      put(o, p + "pass_heartbeat_cpu_p50_ms", r, x -> x.churnPassesCpu().p50Ms());
      put(o, p + "pass_heartbeat_cpu_p99_ms", r, x -> x.churnPassesCpu().p99Ms());
      put(o, p + "replans", r, x -> x.replans().count());
      put(o, p + "replan_avg_ms", r, x -> x.replans().meanMs());
      put(o, p + "replan_p99_ms", r, x -> x.replans().p99Ms());
      put(o, p + "replan_cpu_max_ms", r, x -> x.replansCpu().maxMs());
      put(o, p + "replan_snapshot_p50_ms", r, x -> x.replanSnapshots().p50Ms());
      put(o, p + "replan_snapshot_max_ms", r, x -> x.replanSnapshots().maxMs());
      put(o, p + "state_heap_mb", r, x -> x.stateHeapBytes() / 1048576.0);
      put(o, p + "violations", r, x -> x.violations().none() ? 0 : 1);
    }
    return o;
  }

  public static String toJsonText(SchedulerBench.Settings s, List<RunResult> results) {
    try {
      return MAPPER.writeValueAsString(toJson(s, results)) + "\n";
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write the bench JSON", e);
    }
  }

  /** The human-readable table. */
  public static String table(SchedulerBench.Settings s, List<RunResult> results) {
    StringBuilder b = new StringBuilder();
    b.append(String.format(Locale.ROOT, "scheduler bench: %d nodes x %d GPUs, %d jobs "
        + "(k 1-8, tasks 1-%d ticks), %d warm-up + %d measured churn ticks; Hare's least pass"
        + " interval %d ms%s%n%n",
        s.shape().nodes(), s.shape().gpusPerNode(), s.shape().jobs(),
        BenchWorkload.MAX_TASK_TICKS, s.warmupTicks(), s.churnTicks(), s.passIntervalMs(),
        s.arrivalsPerTick() == 0 ? "" : String.format(Locale.ROOT,
            "; %d more jobs arrive in each warm-up and churn tick", s.arrivalsPerTick())));
    b.append(String.format(Locale.ROOT, "%-34s", ""));
    for (RunResult r : results) {
      b.append(String.format(Locale.ROOT, "%14s", r.contender().label()));
    }
    b.append('\n');
    row(b, "fill: allocations", results, r -> (double) r.fill().allocations(), "%.0f");
    row(b, "fill: ticks", results, r -> (double) r.fill().ticks(), "%.0f");
    row(b, "fill: allocations/s", results, r -> r.fill().allocationsPerSecond(), "%.0f");
    row(b, "fill: heartbeat max ms", results, r -> r.fillHeartbeats().maxMs(), "%.2f");
    row(b, "churn: allocations", results, r -> (double) r.churn().allocations(), "%.0f");
    row(b, "churn: allocations/s", results, r -> r.churn().allocationsPerSecond(), "%.0f");
    row(b, "churn: allocations/CPU-s", results, r -> r.churn().allocationsPerCpuSecond(),
        "%.0f");
    row(b, "churn: heartbeat time ms", results,
        r -> r.churn().path().heartbeatNanos() / 1e6, "%.1f");
    row(b, "churn: AM allocate time ms", results,
        r -> r.churn().path().allocateNanos() / 1e6, "%.1f");
    row(b, "churn: heartbeat p50 ms", results, r -> r.churnHeartbeats().p50Ms(), "%.3f");
    row(b, "churn: heartbeat p99 ms", results, r -> r.churnHeartbeats().p99Ms(), "%.3f");
    row(b, "churn: heartbeat max ms", results, r -> r.churnHeartbeats().maxMs(), "%.3f");
    row(b, "churn: heartbeat CPU p50 ms", results, r -> r.churnHeartbeatsCpu().p50Ms(),
        "%.3f");
    row(b, "churn: heartbeat CPU p99 ms", results, r -> r.churnHeartbeatsCpu().p99Ms(),
        "%.3f");
    row(b, "churn: heartbeat CPU max ms", results, r -> r.churnHeartbeatsCpu().maxMs(),
        "%.3f");
    row(b, "churn: heartbeats with a pass", results, r -> (double) r.churnPassesCpu().count(),
        "%.0f");
    row(b, "churn: pass heartbeat CPU p50 ms", results, r -> r.churnPassesCpu().p50Ms(),
        "%.3f");
    row(b, "churn: pass heartbeat CPU p99 ms", results, r -> r.churnPassesCpu().p99Ms(),
        "%.3f");
    row(b, "re-plans", results, r -> (double) r.replans().count(), "%.0f");
    row(b, "re-plan p50 ms", results, r -> r.replans().p50Ms(), "%.1f");
    row(b, "re-plan max ms", results, r -> r.replans().maxMs(), "%.1f");
    row(b, "re-plan CPU max ms", results, r -> r.replansCpu().maxMs(), "%.1f");
    row(b, "re-plan snapshot p50 ms", results, r -> r.replanSnapshots().p50Ms(), "%.1f");
    row(b, "re-plan snapshot max ms", results, r -> r.replanSnapshots().maxMs(), "%.1f");
    row(b, "RM heap for the jobs MB", results, r -> r.stateHeapBytes() / 1048576.0, "%.1f");
    row(b, "violations (over-commit etc.)", results, r -> r.violations().none() ? 0.0 : 1.0,
        "%.0f");
    return b.toString();
  }

  private static void row(StringBuilder b, String name, List<RunResult> results,
      Function<RunResult, Double> f, String fmt) {
    b.append(String.format(Locale.ROOT, "%-34s", name));
    for (RunResult r : results) {
      b.append(String.format(Locale.ROOT, "%14s", String.format(Locale.ROOT, fmt, f.apply(r))));
    }
    b.append('\n');
  }

  private static void put(ObjectNode o, String key, RunResult r,
      Function<RunResult, Number> f) {
    if (r == null) {
      o.putNull(key);
      return;
    }
    Number n = f.apply(r);
    if (n instanceof Double d) {
      o.put(key, Math.round(d * 1000) / 1000.0);
    } else {
      o.put(key, n.longValue());
    }
  }

  private static RunResult find(List<RunResult> results, Contender c) {
    return results.stream().filter(r -> r.contender() == c).findFirst().orElse(null);
  }
}
