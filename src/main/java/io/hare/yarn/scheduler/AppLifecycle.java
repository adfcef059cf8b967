package io.hare.yarn.scheduler;

import java.util.Map;
import java.util.function.Supplier;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.server.resourcemanager.RMContext;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMAppState;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerApplication;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.fifo.FifoAppAttempt;
import org.apache.hadoop.yarn.util.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * YARN's applications and attempts as Hare takes them in and lets them go: an application is
 * placed in a queue and admitted from its tags ({@link AppAdmission}), or rejected with a
 * diagnostic; an admitted one becomes a job of the policy ({@link GpuTasks}) and a YARN
 * application of the scheduler. Its attempts are {@link HareAppAttempt}s in its queue. A removed
 * application leaves the policy, the task times, its queue and its user's active list.
 *
 * <p>The scheduler's YARN state (its applications map, which FifoScheduler replaces at init, its
 * RM context and its clock, which tests replace) is read at each call. Not thread-safe: called
 * under the scheduler's monitor.
 */
final class AppLifecycle {

  private static final Logger LOG = LoggerFactory.getLogger(AppLifecycle.class);

  private final Supplier<Map<ApplicationId, SchedulerApplication<FifoAppAttempt>>> applications;
  private final Supplier<RMContext> rm;
  private final Supplier<Clock> clock;
  private final AppAdmission admission;
  private final HareQueues queues;
  private final GpuTasks gpuTasks;
  private final TaskTimeSource times;
  private final NonGpuAsks nonGpuAsks;
  private final MultiGpuContainers multiGpu;
  private final HareSchedulerMetrics metrics;

  AppLifecycle(Supplier<Map<ApplicationId, SchedulerApplication<FifoAppAttempt>>> applications,
      Supplier<RMContext> rm, Supplier<Clock> clock, AppAdmission admission, HareQueues queues,
      GpuTasks gpuTasks, TaskTimeSource times, NonGpuAsks nonGpuAsks, MultiGpuContainers multiGpu,
      HareSchedulerMetrics metrics) {
    this.applications = applications;
    this.rm = rm;
    this.clock = clock;
    this.admission = admission;
    this.queues = queues;
    this.gpuTasks = gpuTasks;
    this.times = times;
    this.nonGpuAsks = nonGpuAsks;
    this.multiGpu = multiGpu;
    this.metrics = metrics;
  }

  /** A new application ({@link HareScheduler#addApplication}). */
  void add(ApplicationId id, String queueName, String user, boolean recovering,
      boolean unmanagedAM, boolean aclsEnabled) {
    HareQueue queue = admission.queueFor(rm.get(), queues, id, queueName, user, recovering,
        aclsEnabled);
    if (queue == null) {
      metrics.rejected();
      return; // rejected with a diagnostic
    }
    YarnJob job = admission.admit(rm.get(), id, clock.get().getTime());
    if (job == null) {
      metrics.rejected();
      return; // rejected with a diagnostic
    }
    if (recovering) {
      job.recovered(); // its rounds done before the restart come with its AM's progress
    }
    queues.admitted(id, queue, user);
    job.setQueue(queue.getQueueName());
    applications.get().put(id, new SchedulerApplication<>(queue, user, unmanagedAM));
    gpuTasks.addJob(job);
    queue.getMetrics().submitApp(user, unmanagedAM);
    LOG.info("Accepted application {} from user {} in queue {} (weight {}, model {}, rounds {},"
        + " k {})", id, user, queue.getQueueName(), job.weight(), job.model(),
        job.rounds().isPresent() ? Integer.toString(job.rounds().getAsInt()) : "unknown",
        job.tasksPerRound());
    if (!recovering) {
      admission.accept(rm.get(), id);
    }
  }

  /** A new attempt of an admitted application ({@link HareScheduler#addApplicationAttempt}). */
  void addAttempt(ApplicationAttemptId id, boolean transferState, boolean recovering) {
    SchedulerApplication<FifoAppAttempt> app = applications.get().get(id.getApplicationId());
    if (app == null) {
      LOG.error("attempt {} of an unknown application", id);
      return;
    }
    YarnJob job = gpuTasks.job(id.getApplicationId());
    HareQueue queue = (HareQueue) app.getQueue();
    HareAppAttempt attempt = new HareAppAttempt(id, app.getUser(), queue, queue.users(),
        rm.get(), job != null && job.speaksHare());
    if (transferState) {
      attempt.transferStateFromPreviousAttempt(app.getCurrentAppAttempt());
    }
    app.setCurrentAppAttempt(attempt);
    nonGpuAsks.flag(id.getApplicationId()); // a transferred state may come with asks
    multiGpu.flag(id.getApplicationId());
    queue.getMetrics().submitAppAttempt(app.getUser(), app.isUnmanagedAM());
    if (!recovering) {
      admission.attemptAdded(rm.get(), id);
      if (job != null && id.getAttemptId() > 1) {
        job.attemptRestarted();
      }
    }
  }

  /** An application YARN removed, in {@code finalState}. */
  void remove(ApplicationId id, RMAppState finalState) {
    SchedulerApplication<FifoAppAttempt> app = applications.get().remove(id);
    gpuTasks.removeJob(id, clock.get().getTime());
    times.removeJob(id.toString());
    if (app == null) {
      return;
    }
    queues.removed(id);
    ((HareQueue) app.getQueue()).users().deactivateApplication(app.getUser(), id);
    app.stop(finalState);
  }
}
