package io.hare.yarn.scheduler;

import io.hare.core.BadInputException;
import io.hare.yarn.JobTags;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.QueueACL;
import org.apache.hadoop.yarn.api.records.ResourceRequest;
import org.apache.hadoop.yarn.server.resourcemanager.RMContext;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMAppEvent;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMAppEventType;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.attempt.RMAppAttemptEvent;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.attempt.RMAppAttemptEventType;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.Queue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Admits an application: reads its {@link JobTags}, clamps its weight to the admin's cap, and
 * tells the RM the outcome. A malformed Hare tag rejects that application alone, as the
 * CapacityScheduler rejects a bad queue: an {@code APP_REJECTED} event whose message the user
 * sees as the diagnostics of {@code yarn application -status}. Nothing else is disturbed.
 *
 * <p>Weights above the admin's cap are clamped, logged once per application (at admission). The
 * cap is the most specific of {@code weight.max.user.<user>}, {@code weight.max.queue.<queue>}
 * (the queue named at submission) and {@code weight.max} ({@link WeightCaps}).
 */
final class AppAdmission {

  private static final Logger LOG = LoggerFactory.getLogger(AppAdmission.class);

  private volatile WeightCaps caps;
  private final boolean clairvoyant;
  private final TaskTimeSource times;

  AppAdmission(WeightCaps caps, boolean clairvoyant, TaskTimeSource times) {
    this.caps = caps;
    this.clairvoyant = clairvoyant;
    this.times = times;
  }

  /** New caps for applications admitted from now on (refreshQueues). */
  void setWeightCaps(WeightCaps caps) {
    this.caps = caps;
  }

  /**
   * Whether {@code user} may submit to {@code queue}: with {@code yarn.acl.enable} the user
   * needs the queue's submit or administer ACL, as the RM checks for the Capacity and Fair
   * schedulers (the RM itself checks only theirs, so other schedulers must, as FairScheduler
   * does again at APP_ADDED). A denied application is rejected with a diagnostic.
   */
  boolean maySubmit(RMContext rm, ApplicationId id, String user, Queue queue,
      boolean aclsEnabled) {
    if (!aclsEnabled) {
      return true;
    }
    UserGroupInformation ugi = UserGroupInformation.createRemoteUser(user);
    if (queue.hasAccess(QueueACL.SUBMIT_APPLICATIONS, ugi)
        || queue.hasAccess(QueueACL.ADMINISTER_QUEUE, ugi)) {
      return true;
    }
    String message = "User " + user + " does not have permission to submit " + id
        + " to queue " + queue.getQueueName() + " (see "
        + QueueConfig.key(queue.getQueueName(), QueueConfig.SUBMIT) + ")";
    LOG.warn(message);
    rm.getDispatcher().getEventHandler()
        .handle(new RMAppEvent(id, RMAppEventType.APP_REJECTED, message));
    return false;
  }

  /**
   * The queue of a new application ({@link HareQueues#place}), or null after rejecting it: an
   * unknown or full queue, or (with ACLs on) a user who may not submit there. A recovered
   * application whose queue is gone runs in {@code default}.
   */
  HareQueue queueFor(RMContext rm, HareQueues queues, ApplicationId id, String requested,
      String user, boolean recovering, boolean aclsEnabled) {
    HareQueues.Placement where = queues.place(requested, user, recovering);
    HareQueue queue = where.queue();
    if (queue == null && recovering) {
      LOG.warn("recovered application {}: {}; it runs in default", id, where.refusal());
      queue = queues.get(null);
    } else if (queue == null) {
      reject(rm, id, where.refusal());
      return null;
    }
    if (!recovering && !maySubmit(rm, id, user, queue, aclsEnabled)) {
      return null;
    }
    placedIn(rm, id, queue.getQueueName());
    return queue;
  }

  /** Rejects {@code id} with {@code why}, which its user sees as the diagnostics. */
  void reject(RMContext rm, ApplicationId id, String why) {
    String message = "Hare scheduler rejected " + id + ": " + why;
    LOG.warn(message);
    rm.getDispatcher().getEventHandler()
        .handle(new RMAppEvent(id, RMAppEventType.APP_REJECTED, message));
  }

  /**
   * The application runs in {@code queue}: the RM is told when a mapping chose it, so that
   * reports and the weight cap per queue name the queue it is in (as FairScheduler does).
   */
  void placedIn(RMContext rm, ApplicationId id, String queue) {
    RMApp app = rm.getRMApps().get(id);
    if (app != null && !queue.equals(app.getQueue())) {
      LOG.info("{}: submitted to queue {}, placed in {} by {}", id, app.getQueue(), queue,
          io.hare.core.SchedulerKeys.QUEUE_MAPPINGS);
      app.setQueue(queue);
    }
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
    Optional<String> amProblem = amContainerProblem(app, info.speaksHare());
    if (amProblem.isPresent()) {
      reject(rm, id, amProblem.get());
      return null;
    }
    double weight = info.weight();
    WeightCaps.Cap cap = caps.capFor(app == null ? null : app.getUser(),
        app == null ? null : app.getQueue());
    if (weight > cap.max()) {
      LOG.info("{}: weight {} clamped to {} ({})", id, weight, cap.max(), cap.key());
      weight = cap.max();
    }
    times.addJob(id.toString(), info.model().orElse(null));
    if (info.model().isPresent() && !times.profiled(info.model().get())) {
      LOG.info("{}: model {} has no profile; it starts from the default task time", id,
          info.model().get());
    }
    long arrival = app == null ? nowMs : Math.min(nowMs, app.getSubmitTime());
    return new YarnJob(id, arrival, weight, info, clairvoyant, times);
  }

  /**
   * Why the application's AM container cannot be served, if it cannot: Hare serves no GPU ask
   * with strict locality, and no ask of several GPUs per container from an AM of the Hare
   * protocol. An AM's own asks are refused at allocate ({@link AmUpdates}); the AM container's
   * is asked by the RM inside the attempt's state machine, where a refusal would leave the
   * application waiting for ever, so it is refused here, with a diagnostic.
   */
  static Optional<String> amContainerProblem(RMApp app, boolean speaksHare) {
    List<ResourceRequest> am = app == null ? null : app.getAMResourceRequests();
    Optional<ResourceRequest> strict = AmUpdates.strictGpuAsk(am);
    if (strict.isPresent()) {
      return Optional.of("its AM container asks for a GPU with strict locality"
          + " (relaxLocality=false for " + strict.get().getResourceName() + "); HareScheduler"
          + " places GPU containers where its policy chooses, so it serves no such ask");
    }
    return AmUpdates.multiGpuHareAsk(speaksHare, am).map(r -> "its AM container asks for "
        + "yarn.io/gpu=" + Gpus.of(r.getCapability()) + "; an application of the Hare protocol"
        + " is served one GPU per container at most");
  }

  void accept(RMContext rm, ApplicationId id) {
    rm.getDispatcher().getEventHandler().handle(new RMAppEvent(id, RMAppEventType.APP_ACCEPTED));
  }

  void attemptAdded(RMContext rm, ApplicationAttemptId id) {
    rm.getDispatcher().getEventHandler()
        .handle(new RMAppAttemptEvent(id, RMAppAttemptEventType.ATTEMPT_ADDED));
  }
}
