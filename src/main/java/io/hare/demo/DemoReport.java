package io.hare.demo;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The demo's text report (a table per run, a summary of all runs) and its JSON object. The JSON
 * is the stable interface: {@code policy}, {@code total_weighted_jct_s}, {@code nodes},
 * {@code jobs}, {@code tasks} (every attempt, with its {@code state}: SUCCEEDED, FAILED or
 * LOST, its {@code exit_code}, and for a lost one {@code gone_ms}, when YARN saw its container
 * end), {@code injected} (the faults of {@code --inject}: {@code fault}, {@code at_ms},
 * {@code detail}, {@code containers}; empty without), {@code simulated_total_weighted_jct_s}
 * (the simulator's prediction for the same submissions, {@link DemoPrediction}; null when there
 * is none), {@code load_warning} (null, or why the machine was too loaded for the figures to mean
 * much, {@link LoadCheck}) and, with a second policy, {@code compare} with the same fields.
 * Each job has its {@code kind} ({@code hare}, or a stock application's, e.g.
 * {@code distributedshell}, whose {@code model_matches_reference} is null) and {@code queue}.
 * With queues to report ({@code hare demo --tenants}), {@code queues} lists each with its
 * {@code guaranteed_share}, {@code contended_gpu_seconds} and
 * {@code contended_guaranteed_gpu_seconds}, {@code contended_held_gpu_seconds} (what the
 * scheduler gave its containers there; {@link ContendedShares}) and what those containers lacked
 * of the guarantee, split into {@code contended_lent_gpu_seconds} (held by other queues above
 * their guarantees) and {@code contended_idle_gpu_seconds} (held by no one), and
 * {@code contended_s} is the contended windows' length; both are absent otherwise.
 */
public final class DemoReport {

  /**
   * What the report says of a run besides what it measured.
   *
   * @param simulatedTotalWeightedJctS the simulator's total weighted JCT for the same
   *     submissions under the same policy, s; null when not simulated
   * @param loadWarning why the run's figures mean little, or null
   * @param queues the queues' shares in contended windows, or null when not reported
   */
  public record Notes(Double simulatedTotalWeightedJctS, String loadWarning,
      ContendedShares.Figures queues, Replay.Outcome replay) {
    public static final Notes NONE = new Notes(null, null);

    /** Notes without queue figures or a replay. */
    public Notes(Double simulatedTotalWeightedJctS, String loadWarning) {
      this(simulatedTotalWeightedJctS, loadWarning, null, null);
    }

    /** Notes without a replay. */
    public Notes(Double simulatedTotalWeightedJctS, String loadWarning,
        ContendedShares.Figures queues) {
      this(simulatedTotalWeightedJctS, loadWarning, queues, null);
    }
  }

  /** What the summary's last column means, in one sentence. */
  public static final String X_FIRST = "x first: the policy's total weighted JCT divided by the "
      + "first policy's, so below 1.00 its jobs finished sooner, weighted, than under the first "
      + "policy, and above 1.00 later.";

  private static final ObjectMapper JSON = new ObjectMapper()
      .enable(SerializationFeature.INDENT_OUTPUT);

  private DemoReport() {}

  /** The per-job table of one run. */
  public static void printJobs(DemoResult r, PrintWriter out) {
    long t0 = r.originMs();
    out.printf(Locale.ROOT, "policy %s: %d jobs, %d task attempts%n", r.policy(), r.jobs().size(),
        r.tasks().size());
    boolean queues = r.jobs().stream().anyMatch(j -> !j.hare() || !"default".equals(j.queue()));
    String fmt = (queues ? "%-17s %-10s " : "%-15s %s") + "%-32s %-12s %6s %3s %3s %8s %8s %7s  "
        + "%-10s %s%n";
    out.printf(Locale.ROOT, fmt, "job", queues ? "queue" : "", "application", "model", "weight",
        "R", "k", "submit s", "finish s", "JCT s", "state", "model = reference");
    for (DemoResult.Job j : r.jobs()) {
      out.printf(Locale.ROOT, fmt, j.name(), queues ? j.queue() : "", j.appId(),
          j.hare() ? j.model() : j.kind(), j.hare() ? num(j.weight()) : "-",
          j.hare() ? Integer.toString(j.rounds()) : "-",
          j.hare() ? Integer.toString(j.tasksPerRound()) : "-", sec(j.submitMs() - t0),
          sec(j.finishMs() - t0), sec(j.finishMs() - j.submitMs()),
          j.finalState() + (r.mustFail().contains(j.name()) ? "*" : ""),
          !j.hare() ? "-" : j.modelMatchesReference() ? "yes" : "NO");
    }
    if (!r.mustFail().isEmpty()) {
      out.println("* made to fail by the injected faults");
    }
    printInjected(r, out);
    out.println();
  }

  /** The injected faults of a run, at seconds from its first submission, and its failed jobs'
   * diagnostics. */
  public static void printInjected(DemoResult r, PrintWriter out) {
    if (r.injected().isEmpty()) {
      return;
    }
    out.printf(Locale.ROOT, "injected faults (%d task attempts failed, %d lost):%n",
        r.tasks().stream().filter(t -> "FAILED".equals(t.state())).count(),
        r.tasks().stream().filter(t -> "LOST".equals(t.state())).count());
    for (Injected i : r.injected()) {
      out.printf(Locale.ROOT, "  %8s  %-12s %s%n", i.happened() ? sec(i.atMs() - r.originMs())
          + " s" : "-", i.fault(), i.detail());
    }
    for (DemoResult.Job j : r.jobs()) {
      if (!j.succeeded() && !j.diagnostics().isBlank()) {
        out.printf(Locale.ROOT, "  %s %s: %s%n", j.name(), j.finalState(),
            firstLine(j.diagnostics()));
      }
    }
  }

  /**
   * The first line of a YARN diagnostic (the AM's own message; YARN appends the container's
   * multi-line launch report), with " ..." when there is more; the JSON has all of it.
   */
  static String firstLine(String diagnostics) {
    String s = diagnostics.strip();
    int nl = s.indexOf('\n');
    return nl < 0 ? s : s.substring(0, nl).strip() + " ...";
  }

  /** One line per run, and the total weighted JCT of each run over the first's. */
  public static void printSummary(List<DemoResult> runs, PrintWriter out) {
    printSummary(runs, Map.of(), out);
  }

  /**
   * One line per run, and the total weighted JCT of each run over the first's; then what
   * {@code notes} (by policy) say: the simulator's totals and any load warning.
   */
  public static void printSummary(List<DemoResult> runs, Map<String, Notes> notes,
      PrintWriter out) {
    String fmt = "%-12s %13s %10s %11s %6s %8s %10s %9s%n";
    out.printf(Locale.ROOT, fmt, "policy", "total wJCT s", "avg JCT s", "makespan s", "tasks",
        "jobs ok", "models ok", "x first");
    double first = runs.get(0).totalWeightedJctS();
    for (DemoResult r : runs) {
      long ok = r.jobs().stream().filter(DemoResult.Job::succeeded).count();
      long models = r.jobs().stream().filter(DemoResult.Job::modelMatchesReference).count();
      long hare = r.jobs().stream().filter(DemoResult.Job::hare).count();
      double avg = r.jobs().stream().mapToDouble(DemoResult.Job::jctS).average().orElse(0);
      out.printf(Locale.ROOT, fmt, r.policy(), String.format(Locale.ROOT, "%.1f",
          r.totalWeightedJctS()), String.format(Locale.ROOT, "%.1f", avg),
          String.format(Locale.ROOT, "%.1f", r.makespanS()), r.tasks().size(),
          ok + "/" + r.jobs().size(), models + "/" + hare,
          String.format(Locale.ROOT, "%.2f", r.totalWeightedJctS() / first));
    }
    List<String> simulated = new java.util.ArrayList<>();
    for (DemoResult r : runs) {
      Double s = notes.getOrDefault(r.policy(), Notes.NONE).simulatedTotalWeightedJctS();
      if (s != null) {
        simulated.add(String.format(Locale.ROOT, "%s %.1f s", r.policy(), s));
      }
    }
    out.println(X_FIRST);
    if (!simulated.isEmpty()) {
      out.printf("simulated total weighted JCT (same submissions and policy, the profile's task "
          + "and sync times, no YARN overheads): %s%n", String.join(", ", simulated));
    }
    for (DemoResult r : runs) {
      String w = notes.getOrDefault(r.policy(), Notes.NONE).loadWarning();
      if (w != null) {
        out.printf("load warning (%s): %s%n", r.policy(), w);
      }
    }
    for (DemoResult r : runs) {
      ContendedShares.Figures q = notes.getOrDefault(r.policy(), Notes.NONE).queues();
      if (q != null) {
        printQueues(r, q, out);
      }
    }
  }

  /**
   * The queues' guarantees in the contended windows, a line each, and in words whether every
   * queue got {@link TenantsWorkload#TARGET} of its guarantee and every application succeeded.
   */
  public static void printQueues(DemoResult r, ContendedShares.Figures q, PrintWriter out) {
    out.println();
    out.printf(Locale.ROOT, "queues under %s: every queue had GPU tasks waiting for %.1f s of the"
        + " run's %.1f s (%d GPUs)%n", r.policy(), q.contendedS(), q.runS(), q.gpus());
    String fmt = "%-10s %10s %17s %16s %13s %17s %13s%n";
    out.printf(Locale.ROOT, fmt, "queue", "guarantee", "guaranteed GPU-s", "tasks ran GPU-s",
        "of guarantee", "containers GPU-s", "of guarantee");
    for (ContendedShares.Queue x : q.queues()) {
      out.printf(Locale.ROOT, fmt, x.name(), String.format(Locale.ROOT, "%.2f",
          x.guaranteedShare()),
          String.format(Locale.ROOT, "%.1f", x.contendedGuaranteedGpuSeconds()),
          String.format(Locale.ROOT, "%.1f", x.contendedGpuSeconds()), percent(x.ofGuarantee()),
          String.format(Locale.ROOT, "%.1f", x.contendedHeldGpuSeconds()),
          percent(x.heldOfGuarantee()));
    }
    long failed = r.jobs().stream().filter(j -> !j.succeeded()).count();
    String apps = failed == 0 ? "every application succeeded"
        : failed + " of " + r.jobs().size() + " applications did not succeed";
    int target = (int) Math.round(100 * TenantsWorkload.TARGET);
    out.println("(tasks ran: the task processes' own start to end; containers: the scheduler's "
        + "allocation to the container's end, which also counts its launch and its worker's "
        + "start)");
    for (ContendedShares.Queue x : q.queues()) {
      double lacked = x.contendedLentGpuSeconds() + x.contendedIdleGpuSeconds();
      if (lacked > 0) {
        out.printf(Locale.ROOT, "%s's containers lacked %.1f GPU-s of its guarantee: %.1f held "
            + "by other queues above their own guarantees (lent: back as those tasks end), %.1f "
            + "held by no one (idle: no job took them)%n", x.name(), lacked,
            x.contendedLentGpuSeconds(), x.contendedIdleGpuSeconds());
      }
    }
    if (q.contendedS() <= 0) {
      out.printf("The queues never had GPU tasks waiting at the same time, so no guarantee was "
          + "tested; %s.%n", apps);
    } else {
      out.printf("While they competed, %s %d %% of the GPU-seconds its guarantee promised (the "
          + "target), and the scheduler gave %s; %s.%n",
          q.met(TenantsWorkload.TARGET) ? "each queue's tasks ran at least"
              : "some queue's tasks ran less than", target,
          q.heldMet(TenantsWorkload.TARGET) ? "each queue's containers at least that much"
              : "some queue's containers less than that", apps);
    }
  }

  /**
   * Per run, whether the simulator, given the measured task times, ran the same policy to the
   * same order of tasks on every node; the first difference of each node that differs.
   */
  public static void printReplays(List<DemoResult> runs, List<Replay.Outcome> replays,
      PrintWriter out) {
    out.println();
    for (int i = 0; i < runs.size(); i++) {
      Replay.Outcome o = replays.get(i);
      if (o.nodes().isEmpty()) {
        out.printf("simulator replay of %s: not replayed (%s)%n", runs.get(i).policy(), o.why());
        continue;
      }
      out.printf("simulator replay of %s with the measured task times: the same task order on "
          + "%d of %d nodes%n", runs.get(i).policy(), o.sameNodes(), o.nodes().size());
      for (Replay.NodeOrder n : o.nodes()) {
        if (!n.same()) {
          int k = 0;
          while (k < n.real().size() && k < n.simulated().size()
              && n.real().get(k).equals(n.simulated().get(k))) {
            k++;
          }
          out.printf("  %s (%s): task %d differs: YARN %s, simulator %s%n", n.host(),
              runs.get(i).typeByHost().get(n.host()), k, tail(n.real(), n.realStartMs(), k),
              tail(n.simulated(), n.simulatedStartMs(), k));
        }
      }
    }
  }

  /** Up to three tasks from {@code from} on, each with its start in seconds. */
  private static String tail(List<String> order, List<Long> startMs, int from) {
    StringBuilder b = new StringBuilder();
    for (int k = from; k < Math.min(from + 3, order.size()); k++) {
      b.append(k > from ? " " : "").append(order.get(k)).append(String.format(Locale.ROOT,
          "@%.1fs", startMs.get(k) / 1000.0));
    }
    return b.length() == 0 ? "(no more)" : b + (from + 3 < order.size() ? " ..." : "");
  }

  /** The JSON object of a run, with {@code compare} holding the second run if there is one. */
  public static String json(DemoResult run, Optional<DemoResult> compare) {
    return json(run, compare, Map.of());
  }

  /** As {@link #json(DemoResult, Optional)}, with each run's {@code notes} by policy. */
  public static String json(DemoResult run, Optional<DemoResult> compare,
      Map<String, Notes> notes) {
    ObjectNode o = object(run, notes.getOrDefault(run.policy(), Notes.NONE));
    compare.ifPresent(c -> o.set("compare", object(c, notes.getOrDefault(c.policy(),
        Notes.NONE))));
    try {
      return JSON.writeValueAsString(o);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException("cannot write the demo's JSON", e);
    }
  }

  private static ObjectNode object(DemoResult r, Notes notes) {
    ObjectNode o = JSON.createObjectNode();
    o.put("policy", r.policy());
    o.put("total_weighted_jct_s", r.totalWeightedJctS());
    if (notes.simulatedTotalWeightedJctS() != null) {
      o.put("simulated_total_weighted_jct_s", notes.simulatedTotalWeightedJctS());
    } else {
      o.putNull("simulated_total_weighted_jct_s");
    }
    if (notes.loadWarning() != null) {
      o.put("load_warning", notes.loadWarning());
    } else {
      o.putNull("load_warning");
    }
    if (notes.replay() == null) {
      o.putNull("replay");
    } else {
      Replay.Outcome p = notes.replay();
      ObjectNode replay = o.putObject("replay").put("nodes", p.nodes().size())
          .put("same_nodes", p.sameNodes());
      if (p.nodes().isEmpty()) {
        replay.put("not_replayed", p.why());
      } else {
        replay.putNull("not_replayed");
      }
    }
    ArrayNode nodes = o.putArray("nodes");
    for (Map.Entry<String, Integer> e : r.gpusByHost().entrySet()) {
      nodes.addObject().put("node", e.getKey()).put("gpu_type", r.typeByHost().get(e.getKey()))
          .put("gpus", e.getValue());
    }
    ArrayNode jobs = o.putArray("jobs");
    for (DemoResult.Job j : r.jobs()) {
      ObjectNode n = jobs.addObject().put("app_id", j.appId()).put("name", j.name())
          .put("kind", j.kind()).put("queue", j.queue());
      if (j.hare()) {
        n.put("weight", j.weight()).put("model", j.model()).put("rounds", j.rounds())
            .put("tasks_per_round", j.tasksPerRound());
      } else {
        n.putNull("weight").putNull("model").putNull("rounds").putNull("tasks_per_round");
      }
      n.put("submit_ms", j.submitMs()).put("finish_ms", j.finishMs())
          .put("final_state", j.finalState());
      if (j.hare()) {
        n.put("model_matches_reference", j.modelMatchesReference());
      } else {
        n.putNull("model_matches_reference");
      }
      n.put("diagnostics", j.diagnostics()).put("made_to_fail", r.mustFail().contains(j.name()));
    }
    if (notes.queues() != null) {
      o.put("contended_s", notes.queues().contendedS());
      ArrayNode queues = o.putArray("queues");
      for (ContendedShares.Queue q : notes.queues().queues()) {
        queues.addObject().put("name", q.name()).put("guaranteed_share", q.guaranteedShare())
            .put("contended_gpu_seconds", q.contendedGpuSeconds())
            .put("contended_guaranteed_gpu_seconds", q.contendedGuaranteedGpuSeconds())
            .put("contended_held_gpu_seconds", q.contendedHeldGpuSeconds())
            .put("contended_lent_gpu_seconds", q.contendedLentGpuSeconds())
            .put("contended_idle_gpu_seconds", q.contendedIdleGpuSeconds());
      }
    }
    ArrayNode tasks = o.putArray("tasks");
    for (DemoResult.Task t : r.tasks()) {
      ObjectNode n = tasks.addObject().put("app_id", t.appId()).put("round", t.round())
          .put("index", t.index()).put("node", t.node()).put("gpu_type", t.gpuType())
          .put("gpu", t.gpu()).put("container_id", t.containerId()).put("start_ms", t.startMs());
      if (t.gpuDevice().isEmpty()) {
        n.putNull("gpu_device");
      } else {
        n.put("gpu_device", t.gpuDevice());
      }
      if (t.endMs() >= 0) {
        n.put("end_ms", t.endMs());
      } else {
        n.putNull("end_ms");
      }
      n.put("state", t.state());
      if (t.endMs() >= 0) {
        n.put("exit_code", t.exitCode());
      } else {
        n.putNull("exit_code");
      }
      if (t.goneMs() >= 0) {
        n.put("gone_ms", t.goneMs());
      }
    }
    ArrayNode injected = o.putArray("injected");
    for (Injected i : r.injected()) {
      ObjectNode n = injected.addObject().put("fault", i.fault());
      if (i.happened()) {
        n.put("at_ms", i.atMs());
      } else {
        n.putNull("at_ms");
      }
      n.put("detail", i.detail());
      ArrayNode c = n.putArray("containers");
      i.containers().forEach(c::add);
    }
    return o;
  }

  private static String percent(double share) {
    return Double.isNaN(share) ? "-" : String.format(Locale.ROOT, "%.0f %%", 100 * share);
  }

  private static String sec(long ms) {
    return String.format(Locale.ROOT, "%.1f", ms / 1000.0);
  }

  private static String num(double v) {
    return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
  }
}
