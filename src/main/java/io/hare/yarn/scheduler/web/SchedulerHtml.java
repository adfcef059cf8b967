package io.hare.yarn.scheduler.web;

import io.hare.core.plan.Forecast;
import io.hare.yarn.scheduler.SchedulerReport;
import java.time.Instant;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.stream.Collectors;

/**
 * The scheduler page of the RM web UI for Hare ({@value HareWebFilter#PAGE_PATH}): GPUs per type,
 * GPU tasks running and waiting, and per job its weight, rounds done of R and predicted
 * completion. Plain HTML with the RM's style sheet and links back to its pages; the same data as
 * {@link SchedulerJson}.
 */
final class SchedulerHtml {

  private SchedulerHtml() {}

  static String render(SchedulerReport r, Optional<Forecast> forecast) {
    StringBuilder h = new StringBuilder(4096);
    h.append("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">")
        .append("<title>Hare Scheduler</title>")
        .append("<link rel=\"stylesheet\" href=\"/static/yarn.css\">")
        .append("<style>table{border-collapse:collapse;margin:0.5em 0 1.5em}")
        .append("th,td{border:1px solid #ccc;padding:2px 8px;text-align:right}")
        .append("th:first-child,td:first-child{text-align:left}</style></head><body>\n")
        .append("<p><a href=\"/cluster\">Cluster</a> | <a href=\"/cluster/apps\">Applications</a>")
        .append(" | <a href=\"/cluster/nodes\">Nodes</a> | <a href=\"")
        .append(HareWebFilter.REST_PATH).append("\">JSON</a></p>\n")
        .append("<h1>Hare Scheduler</h1>\n<p>Policy <b>").append(esc(r.policy()))
        .append("</b>, at ").append(Instant.ofEpochMilli(r.atMs())).append("</p>\n");
    h.append("<h2>GPUs</h2>\n<table id=\"gpus\"><tr><th>type</th><th>total</th><th>used</th>")
        .append("<th>free</th></tr>\n");
    for (SchedulerReport.GpuCount g : r.gpus()) {
      h.append("<tr><td>").append(esc(g.type())).append("</td><td>").append(g.total())
          .append("</td><td>").append(g.used()).append("</td><td>").append(g.free())
          .append("</td></tr>\n");
    }
    h.append("</table>\n<h2>GPU tasks</h2>\n<table id=\"tasks\"><tr><th>running</th>")
        .append("<th>waiting</th><th>standby containers</th></tr>\n<tr><td>")
        .append(r.runningTasks()).append("</td><td>").append(r.waitingTasks()).append("</td><td>")
        .append(r.standbys()).append("</td></tr></table>\n");
    queues(h, r);
    h.append("<h2>Jobs</h2>\n<p>Predicted completion: ")
        .append(esc(forecast.isPresent() ? SchedulerJson.ESTIMATE : SchedulerJson.unavailable(r)))
        .append(forecast.isPresent() && !forecast.get().complete()
            ? " (the forecast stopped at its task cap: later jobs have none)" : "")
        .append(".</p>\n<table id=\"jobs\"><tr><th>application</th><th>user</th><th>weight</th>")
        .append("<th>model</th>")
        .append("<th>k</th><th>rounds done</th><th>running</th><th>waiting</th>")
        .append("<th>predicted completion</th></tr>\n");
    for (SchedulerReport.Job j : r.jobs()) {
      OptionalLong c = SchedulerJson.predicted(forecast, j.id());
      h.append("<tr><td><a href=\"/cluster/app/").append(esc(j.id())).append("\">")
          .append(esc(j.id())).append("</a></td><td>").append(esc(String.valueOf(j.user())))
          .append("</td><td>").append(String.format(Locale.ROOT, "%.2f", j.weight())).append("</td><td>")
          .append(esc(j.model())).append("</td><td>").append(j.tasksPerRound())
          .append("</td><td>").append(j.roundsDone()).append(" of ")
          .append(j.rounds().isPresent() ? Integer.toString(j.rounds().getAsInt()) : "?")
          .append("</td><td>").append(j.runningTasks()).append("</td><td>")
          .append(j.waitingTasks()).append("</td><td>")
          .append(c.isPresent() ? when(c.getAsLong(), r.atMs()) : "-").append("</td></tr>\n");
    }
    h.append("</table>\n");
    if (r.hiddenJobs() > 0) {
      h.append("<p>").append(r.hiddenJobs()).append(" jobs of other users are not shown (YARN")
          .append(" ACLs: only the queue's administrators see them).</p>\n");
    }
    return h.append("</body></html>\n").toString();
  }

  /** Each queue's guarantee, maximum and GPU tasks; and a warning when the guarantees overcommit. */
  private static void queues(StringBuilder h, SchedulerReport r) {
    h.append("<h2>Queues</h2>\n");
    r.queueWarning().ifPresent(w -> h.append("<p class=\"warning\">Warning: ").append(esc(w))
        .append(".</p>\n"));
    h.append("<table id=\"queues\"><tr><th>queue</th><th>guaranteed</th><th>maximum</th>")
        .append("<th>running</th><th>waiting</th></tr>\n");
    for (SchedulerReport.QueueLine q : r.queues()) {
      String share = q.guaranteedTypeShares().isEmpty()
          ? String.format(Locale.ROOT, "%.2f of the fleet", q.guaranteedShare())
          : q.guaranteedTypeShares().entrySet().stream().map(e -> String.format(Locale.ROOT,
              "%.2f of %s", e.getValue(), e.getKey())).collect(Collectors.joining(", "));
      h.append("<tr><td>").append(esc(q.name())).append("</td><td>").append(esc(share))
          .append(" (").append(q.guaranteedGpus()).append(" GPUs)</td><td>")
          .append(String.format(Locale.ROOT, "%.2f", q.maximumShare())).append(" (")
          .append(q.maximumGpus()).append(" GPUs)</td><td>").append(q.runningTasks())
          .append("</td><td>").append(q.waitingTasks()).append("</td></tr>\n");
    }
    h.append("</table>\n");
  }

  /** An instant and how far from now, e.g. {@code 2026-12-02T09:00:00Z (in 1h 5m)}. */
  static String when(long ms, long nowMs) {
    long s = Math.max(0, (ms - nowMs + 999) / 1000);
    String in = s >= 3600 ? (s / 3600) + "h " + (s % 3600 / 60) + "m"
        : s >= 60 ? (s / 60) + "m " + (s % 60) + "s" : s + "s";
    return Instant.ofEpochMilli(ms) + " (in " + in + ")";
  }

  private static String esc(String s) {
    StringBuilder b = new StringBuilder(s.length());
    for (char ch : s.toCharArray()) {
      switch (ch) {
        case '<' -> b.append("&lt;");
        case '>' -> b.append("&gt;");
        case '&' -> b.append("&amp;");
        case '"' -> b.append("&quot;");
        case '\'' -> b.append("&#39;");
        default -> b.append(ch);
      }
    }
    return b.toString();
  }
}
