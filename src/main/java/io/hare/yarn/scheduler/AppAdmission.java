package io.hare.yarn.scheduler;

import io.hare.core.BadInputException;
import io.hare.core.SchedulerKeys;
import io.hare.yarn.JobTags;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.server.resourcemanager.RMContext;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMAppEvent;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMAppEventType;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.attempt.RMAppAttemptEvent;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.attempt.RMAppAttemptEventType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Admits an application: reads its {@link JobTags}, clamps its weight to the admin's cap, and
 * tells the RM the outcome. A malformed Hare tag rejects that application alone, as the
 * CapacityScheduler rejects a bad queue: an {@code APP_REJECTED} event whose message the user
 * sees as the diagnostics of {@code yarn application -status}. Nothing else is disturbed.
 *
 * <p>Weights above {@code yarn.scheduler.hare.weight.max} are clamped, logged once per
 * application. One cap for everyone in this slice; per-queue or per-user caps would slot in here.
 */
final class AppAdmission {

  private static final Logger LOG = LoggerFactory.getLogger(AppAdmission.class);

  private volatile double weightMax;
  private final boolean clairvoyant;
  private final TaskTimeSource times;

  AppAdmission(double weightMax, boolean clairvoyant, TaskTimeSource times) {
    this.weightMax = weightMax;
    this.clairvoyant = clairvoyant;
    this.times = times;
  }

  void setWeightMax(double weightMax) {
    this.weightMax = weightMax;
  }

  /** The application as a job, or null after rejecting it. */
  YarnJob admit(RMContext rm, ApplicationId id, long nowMs) {
    RMApp app = rm.getRMApps().get(id);
    JobTags.Info info;
    try {
      info = JobTags.parse(app == null ? null : app.getApplicationTags());
    } catch (BadInputException e) {
      String message = "Hare scheduler rejected " + id + ": " + e.getMessage();
      LOG.warn(message);
      rm.getDispatcher().getEventHandler()
          .handle(new RMAppEvent(id, RMAppEventType.APP_REJECTED, message));
      return null;
    }
    double weight = info.weight();
    if (weight > weightMax) {
      LOG.info("{}: weight {} clamped to {} ({})", id, weight, weightMax,
          SchedulerKeys.WEIGHT_MAX);
      weight = weightMax;
    }
    times.addJob(id.toString(), info.model().orElse(null));
    if (info.model().isPresent() && !times.profiled(info.model().get())) {
      LOG.info("{}: model {} has no profile; it starts from the default task time", id,
          info.model().get());
    }
    long arrival = app == null ? nowMs : Math.min(nowMs, app.getSubmitTime());
    return new YarnJob(id, arrival, weight, info, clairvoyant, times);
  }

  void accept(RMContext rm, ApplicationId id) {
    rm.getDispatcher().getEventHandler().handle(new RMAppEvent(id, RMAppEventType.APP_ACCEPTED));
  }

  void attemptAdded(RMContext rm, ApplicationAttemptId id) {
    rm.getDispatcher().getEventHandler()
        .handle(new RMAppAttemptEvent(id, RMAppAttemptEventType.ATTEMPT_ADDED));
  }
}
