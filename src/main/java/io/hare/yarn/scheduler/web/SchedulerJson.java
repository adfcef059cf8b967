package io.hare.yarn.scheduler.web;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hare.core.plan.Forecast;
import io.hare.yarn.scheduler.SchedulerReport;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The JSON answer of {@value HareWebFilter#REST_PATH}: {@code {"hareScheduler": {...}}} with the
 * policy, the GPUs per type ({@code total}, {@code used}, {@code free}), the GPU tasks
 * ({@code running}, {@code waiting}, {@code standbys}), the forecast's basis and every job with
 * its weight, rounds done of R and predicted completion ({@code predictedCompletionMs}, epoch ms
 * on the RM's clock, and as an ISO-8601 instant; null when there is none). Times are ms.
 */
final class SchedulerJson {

  /** What a prediction is, in words: shown with every forecast. */
  static final String ESTIMATE = "estimate: what is left of each job list-scheduled in the "
      + "policy's current order with its estimated task times, assuming no failures and no new "
      + "jobs";

  private static final ObjectMapper JSON = new ObjectMapper();

  private SchedulerJson() {}

  static String render(SchedulerReport r, Optional<Forecast> forecast) {
    Map<String, Object> s = new LinkedHashMap<>();
    s.put("policy", r.policy());
    s.put("atMs", r.atMs());
    List<Object> gpus = new ArrayList<>();
    for (SchedulerReport.GpuCount g : r.gpus()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("type", g.type());
      m.put("total", g.total());
      m.put("used", g.used());
      m.put("free", g.free());
      gpus.add(m);
    }
    s.put("gpus", gpus);
    Map<String, Object> tasks = new LinkedHashMap<>();
    tasks.put("running", r.runningTasks());
    tasks.put("waiting", r.waitingTasks());
    tasks.put("standbys", r.standbys());
    s.put("gpuTasks", tasks);
    List<Object> queues = new ArrayList<>();
    for (SchedulerReport.QueueLine q : r.queues()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("name", q.name());
      m.put("guaranteedShare", q.guaranteedShare());
      m.put("maximumShare", q.maximumShare());
      if (!q.guaranteedTypeShares().isEmpty()) {
        m.put("guaranteedTypeShares", q.guaranteedTypeShares());
      }
      m.put("guaranteedGpus", q.guaranteedGpus());
      m.put("maximumGpus", q.maximumGpus());
      m.put("runningTasks", q.runningTasks());
      m.put("waitingTasks", q.waitingTasks());
      queues.add(m);
    }
    s.put("queues", queues);
    s.put("queueWarning", r.queueWarning().orElse(null));
    Map<String, Object> f = new LinkedHashMap<>();
    f.put("available", forecast.isPresent());
    forecast.ifPresent(x -> {
      f.put("atMs", x.atMs());
      f.put("complete", x.complete());
    });
    f.put("basis", forecast.isPresent() ? ESTIMATE : unavailable(r));
    s.put("forecast", f);
    List<Object> jobs = new ArrayList<>();
    for (SchedulerReport.Job j : r.jobs()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("id", j.id());
      m.put("user", j.user());
      m.put("queue", j.queue());
      m.put("weight", j.weight());
      m.put("model", j.model());
      m.put("tasksPerRound", j.tasksPerRound());
      m.put("rounds", j.rounds().isPresent() ? j.rounds().getAsInt() : null);
      m.put("roundsDone", j.roundsDone());
      m.put("runningTasks", j.runningTasks());
      m.put("waitingTasks", j.waitingTasks());
      m.put("arrivalMs", j.arrivalMs());
      OptionalLong c = predicted(forecast, j.id());
      m.put("predictedCompletionMs", c.isPresent() ? c.getAsLong() : null);
      m.put("predictedCompletion", c.isPresent()
          ? Instant.ofEpochMilli(c.getAsLong()).toString() : null);
      jobs.add(m);
    }
    s.put("jobs", jobs);
    s.put("hiddenJobs", r.hiddenJobs());
    try {
      return JSON.writeValueAsString(Map.of("hareScheduler", s));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write the scheduler report as JSON", e);
    }
  }

  static OptionalLong predicted(Optional<Forecast> forecast, String jobId) {
    return forecast.isPresent() ? forecast.get().completionMs(jobId) : OptionalLong.empty();
  }

  /** Why there is no forecast, in words. */
  static String unavailable(SchedulerReport r) {
    return "no forecast: policy " + r.policy() + " makes none, or a re-plan was running";
  }
}
