package io.hare.yarn.scheduler;

import io.hare.core.ConfigException;
import io.hare.core.GpuType;
import io.hare.core.SchedulerKeys;
import io.hare.core.TaskTimes;
import io.hare.core.policy.SchedulingPolicy;
import io.hare.yarn.scheduler.standby.StandbySwitching;
import io.hare.yarn.scheduler.times.TaskTimeSaver;
import io.hare.yarn.scheduler.times.TaskTimeStores;
import io.hare.yarn.scheduler.web.HareWeb;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.thirdparty.com.google.common.util.concurrent.SettableFuture;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.ContainerStatus;
import org.apache.hadoop.yarn.api.records.NodeAttribute;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.api.records.NodeState;
import org.apache.hadoop.yarn.api.records.Priority;
import org.apache.hadoop.yarn.api.records.QueueACL;
import org.apache.hadoop.yarn.api.records.QueueInfo;
import org.apache.hadoop.yarn.api.records.QueueUserACLInfo;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.ResourceRequest;
import org.apache.hadoop.yarn.api.records.ResourceUtilization;
import org.apache.hadoop.yarn.api.records.SchedulingRequest;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.exceptions.YarnException;
import org.apache.hadoop.yarn.server.api.protocolrecords.NMContainerStatus;
import org.apache.hadoop.yarn.server.resourcemanager.RMContext;
import org.apache.hadoop.yarn.server.resourcemanager.nodelabels.RMNodeLabelsManager;
import org.apache.hadoop.yarn.server.resourcemanager.recovery.RMStateStore.RMState;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMAppState;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.attempt.RMAppAttemptState;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainer;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainerEventType;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainerState;
import org.apache.hadoop.yarn.server.resourcemanager.rmnode.RMNode;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.Allocation;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.ContainerUpdates;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.QueueMetrics;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerApplication;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerUtils;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.common.fica.FiCaSchedulerNode;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.SchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.fifo.FifoAppAttempt;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.fifo.FifoScheduler;
import org.apache.hadoop.yarn.util.resource.DominantResourceCalculator;
import org.apache.hadoop.yarn.util.resource.ResourceCalculator;
import org.apache.hadoop.yarn.util.resource.Resources;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Hare scheduler for YARN's ResourceManager: set
 * {@code yarn.resourcemanager.scheduler.class} to this class. It places containers by every
 * resource type with the {@link DominantResourceCalculator} (so {@code yarn.io/gpu} is never
 * over-committed) and lets the configured policy ({@code yarn.scheduler.hare.policy}, the same
 * objects the simulator runs) decide which waiting GPU task gets which free GPU.
 *
 * <ul>
 *   <li>Non-GPU asks (ApplicationMasters, anything with 0 GPUs) are placed first, in FIFO order,
 *       on the node that heartbeats, whenever they fit: they never wait behind GPU tasks.
 *   <li>GPU asks are one-GPU tasks. At a heartbeat where something changed, every free GPU of
 *       the cluster is offered to the policy ({@link PolicyHost}) and each answer becomes a
 *       container on that GPU's node ({@link GpuTasks}). Offering the whole cluster rather than
 *       the heartbeating node keeps the choice of GPU type with the policy instead of with
 *       whichever node happens to heartbeat first; a container on another node is as valid in
 *       YARN as one on the heartbeating node (the AM launches it).
 *   <li>A node that has not heartbeated for {@code yarn.scheduler.hare.node.liveness-grace-ms}
 *       gets no new containers and its GPUs are not offered until it heartbeats again
 *       ({@link NodeLiveness}): YARN keeps a crashed NodeManager RUNNING for minutes. GPU tasks
 *       keep off the nodes their AM blacklisted ({@link GpuElsewhere}).
 *   <li>Containers of more than one GPU, from AMs that do not speak the Hare protocol, are served
 *       first come first served on one node, with a node reservation so that one-GPU tasks do
 *       not take each GPU as it frees ({@link MultiGpuContainers}). A Hare AM's tasks are one
 *       GPU each: it is refused a larger ask at allocate. YARN's maximum allocation still caps
 *       every container at the largest node.
 *   <li>Job information comes from application tags ({@link io.hare.yarn.JobTags}); a malformed
 *       tag rejects that application alone with a diagnostic ({@link AppAdmission}).
 *   <li>GPU types come from node attributes ({@link GpuTypeResolver}), on node registration and
 *       on every {@code NODE_ATTRIBUTES_UPDATE}.
 * </ul>
 *
 * <p>Queues ({@link HareQueues}: GPU guarantees and maxima, ACLs enforced with
 * {@code yarn.acl.enable}, application, user and AM limits, mappings; weight caps per user and
 * queue, {@link WeightCaps}). GPU types may
 * also come from an admin mapping file that the scheduler registers as {@code rm.yarn.io}
 * attributes ({@link CentralGpuTypes}). Work-preserving RM restart rebuilds running GPU tasks
 * ({@link #recoverContainersOnNode}). Locality is not weighed: a relaxed ask is served off-switch
 * (as FifoScheduler's last step), a strict non-GPU ask only on the nodes or racks it names,
 * and a strict GPU ask is refused ({@link AmUpdates}). Not in this slice: queue hierarchies,
 * reservations, preemption.
 *
 * <p>Threading: event handling ({@link SchedulerEvents}) and scheduling ({@link HarePass}) run
 * under this object's monitor, as in YARN's FifoScheduler; {@link #allocate} from AM RPC threads
 * only updates the attempt's asks and flags the application for the next scheduling pass
 * ({@link AmAllocation}). The policy's heavy re-plans run on one background daemon thread
 * ({@code hare-replan}, {@link #newReplanExecutor}); the heartbeat only reads the latest finished
 * plan and never waits for a solve (locking rule in {@link PolicyGate}).
 */
public class HareScheduler extends FifoScheduler {

  private static final Logger LOG = LoggerFactory.getLogger(HareScheduler.class);

  private final ResourceCalculator calculator = new DominantResourceCalculator();
  private Configuration conf;
  private HareSettings settings;
  private HareQueues queues;
  private GpuInventory inventory;
  private NodeGpus nodeGpus;
  private NodeWatch liveness;
  private TaskTimeSource times;
  private TaskTimeSaver timeSaver; // measured times kept across restarts; off unless configured
  private HareSettings initial; // the settings of init: the task-time store's, which a refresh
                                // does not change
  private PolicyHost host;
  private GpuTasks gpuTasks;
  private AppAdmission admission;
  private AppLifecycle apps;
  private CentralGpuTypes centralTypes; // the admin's mapping file, registered as rm.yarn.io
  private final ContainerPlacer placer = new ContainerPlacer();
  private final List<TaskListener> taskListeners = new CopyOnWriteArrayList<>();
  private final NonGpuAsks nonGpuAsks = new NonGpuAsks(placer);
  private MultiGpuContainers multiGpu;
  private GpuReserve gpuReserve;
  /**
   * Resources of live containers. FifoScheduler's own counter, which its heartbeat code reads
   * for headroom and queue metrics: shared so those are right (Hare alone changes it).
   */
  private final Resource used = super.getUsedResource();
  private Executor replanExecutor;
  private HareSchedulerMetrics hareMetrics;
  private HarePass pass;
  private AmAllocation amAllocation;
  private String webId; // the RM's, under which the scheduler page answers
  private AutoCloseable web; // the scheduler page and REST answer on the RM's web server

  /** The service is named FifoScheduler's way (its only constructor); names show in logs. */
  public HareScheduler() {
    super();
  }

  @Override
  public void serviceInit(Configuration c) throws Exception {
    // throws every problem at once: the RM won't start
    HareSettings.WithPolicy read = HareSettings.readWithPolicy(c);
    HareSettings s = read.settings();
    synchronized (this) {
      settings = s;
      initial = s;
      applications = new ConcurrentSkipListMap<>();
      minimumAllocation = super.getMinimumAllocation();
      initMaximumResourceCapability(super.getMaximumAllocation());
      queues = new HareQueues(s.admin().queues(), c, this::getClusterResource,
          id -> applications.get(id)); // FifoScheduler replaces the map at init
      inventory = new GpuInventory();
      times = new TaskTimeSource(s.profiles(), s.defaultComputeMs(), s.priorWeight(),
          s.window());
      SchedulingPolicy policy = read.policy(); // built once, while its keys were validated
      replanExecutor = newReplanExecutor();
      hareMetrics = HareSchedulerMetrics.register();
      host = new PolicyHost(policy, inventory, times, s.replanIntervalMs(),
          s.passMinIntervalMs(), replanExecutor, replanListener(hareMetrics));
      host.queueGate().configure(s.admin().queues());
      multiGpu = new MultiGpuContainers(inventory, placer, host::markDirty);
      gpuReserve = new GpuReserve(s.reserveMemoryMb(), s.reserveVcores(), minimumAllocation);
      gpuTasks = new GpuTasks(host, inventory, placer, taskListeners, new IsolatedNodes(inventory),
          StandbySwitching.chosen(s.standbyEnabled(), s.standbyLeadMs(),
              hareMetrics::skippedStandbys)); // a refresh does not change it
      nodeGpus = new NodeGpus(inventory,
          new GpuTypeResolver(s.gpuTypeAttribute(), s.defaultGpuType(),
              s.isolatedByDefault()), host);
      liveness = new NodeWatch(s.nodeLivenessGraceMs(), nodeGpus, hareMetrics);
      amAllocation = new AmAllocation(used, this::getClusterResource, nonGpuAsks, multiGpu,
          gpuReserve, gpuTasks, nodeGpus);
      pass = new HarePass(used, this::currentAttempt, nodeTracker::getNode, nonGpuAsks,
          gpuReserve, inventory, multiGpu, gpuTasks, host, liveness, nodeGpus, queues,
          hareMetrics);
      admission = new AppAdmission(s.admin().weightCaps(), policy.clairvoyant(), times);
      apps = new AppLifecycle(() -> applications, () -> rmContext, this::getClock, admission,
          queues, gpuTasks, times, nonGpuAsks, multiGpu, hareMetrics);
      centralTypes = new CentralGpuTypes(s.gpuTypeAttribute());
      centralTypes.apply(s.admin().mapping(), List.of(), null); // nodes register later
      webId = HareWeb.install(c);
      LOG.info("Hare scheduler: policy {}, GPU type attribute {} (default type {}), weight cap"
          + " {}, {} profiled models, re-plan interval {} ms, least pass interval {} ms",
          policy.name(), s.gpuTypeAttribute(), s.defaultGpuType(), s.weightMax(),
          s.profiles().models().size(), s.replanIntervalMs(), s.passMinIntervalMs());
    }
    super.serviceInit(c);
  }

  /**
   * Who is told each re-plan's snapshot and solve times: {@code metrics} (the scheduler's
   * metrics2 source). A subclass may wrap it (the scheduler bench records the longest).
   */
  protected ReplanListener replanListener(ReplanListener metrics) {
    return metrics;
  }

  /**
   * Where heavy re-plans run: one daemon thread ({@code hare-replan}) so the heartbeat path never
   * waits for a solve. A subclass may return another executor (tests: a same-thread one, which
   * makes each re-plan finish before the pass that asked for it places anything).
   */
  protected Executor newReplanExecutor() {
    return Replanner.newThread();
  }

  /**
   * Serves the scheduler page once started: on the active RM, not on a standby's scheduler. The
   * saved task times start loading here too (on the saver's thread), not at init: a standby's
   * scheduler is initialised long before it starts, while the active RM still saves; the RM has
   * recovered its applications by now, so the saved jobs that are still running are known.
   */
  @Override
  public void serviceStart() throws Exception {
    super.serviceStart();
    HareSettings s;
    synchronized (this) {
      web = HareWeb.serve(webId, this::report);
      s = initial; // an HA RM refreshes before it starts its scheduler
    }
    // not under the lock: the saver's thread reads the file, and seeds the jobs under theirs
    TaskTimeSaver saver = TaskTimeSaver.start(TaskTimeStores.of(s.taskTimesStoreUri(),
        getConfig()), times, s.taskTimesSaveIntervalMs(), TaskTimeSaver.unfinishedIn(rmContext));
    synchronized (this) {
      timeSaver = saver;
    }
  }

  @Override
  public void serviceStop() throws Exception {
    TaskTimeSaver saver;
    synchronized (this) {
      saver = timeSaver;
    }
    if (saver != null) {
      saver.close(); // the last save, without the scheduler's lock
    }
    if (replanExecutor instanceof ExecutorService e) {
      e.shutdownNow();
    }
    if (hareMetrics != null) {
      hareMetrics.unregister();
    }
    if (web != null) {
      web.close();
    }
    super.serviceStop();
  }

  @Override
  public synchronized void setConf(Configuration c) {
    this.conf = c;
  }

  @Override
  public synchronized Configuration getConf() {
    return conf;
  }

  @Override
  public synchronized void setRMContext(RMContext context) {
    this.rmContext = context;
  }

  /**
   * {@code yarn rmadmin -refreshQueues}: re-reads and validates the settings; a bad one refuses
   * the refresh and keeps the running settings. Profiles and the weight cap take effect (the cap
   * for applications submitted from now on); a new policy name needs an RM restart. The queue
   * ACLs take effect at once; a new GPU-type mapping file is registered for every node.
   */
  @Override
  public void reinitialize(Configuration c, RMContext context) throws IOException {
    HareSettings s;
    try {
      s = HareSettings.read(c);
    } catch (ConfigException e) {
      throw new IOException(e.getMessage(), e);
    }
    synchronized (this) {
      Optional<String> unsupported = s.admin().queues().several()
          ? host.policy().queuesUnsupported() : Optional.empty();
      if (unsupported.isPresent()) { // the running policy, which a refresh does not replace
        throw new IOException(SchedulerKeys.QUEUES + ": " + unsupported.get());
      }
      if (!s.policyName().equals(settings.policyName())) {
        LOG.warn("{} changed from {} to {}: a new policy takes effect only at RM restart",
            SchedulerKeys.POLICY, settings.policyName(), s.policyName());
      }
      if (!s.taskTimesStoreUri().equals(initial.taskTimesStoreUri())
          || s.taskTimesSaveIntervalMs() != initial.taskTimesSaveIntervalMs()) {
        LOG.warn("{} or {} changed: the task-time store changes only at RM restart",
            SchedulerKeys.TASK_TIMES_STORE_URI, SchedulerKeys.TASK_TIMES_STORE_SAVE_INTERVAL_MS);
      }
      settings = s;
      setConf(c);
      queues.apply(s.admin().queues()); // refuses to drop a queue in use: nothing changed yet
      host.queueGate().configure(s.admin().queues());
      liveness.setGraceMs(s.nodeLivenessGraceMs());
      times.setProfiles(s.profiles(), s.defaultComputeMs());
      admission.setWeightCaps(s.admin().weightCaps());
      List<String> hosts = new ArrayList<>();
      nodeTracker.getAllNodes().forEach(n -> hosts.add(n.getNodeID().getHost()));
      centralTypes.apply(s.admin().mapping(), hosts, rmContext.getNodeAttributesManager());
    }
    super.reinitialize(c, context);
  }

  @Override
  public ResourceCalculator getResourceCalculator() {
    return calculator;
  }

  @Override
  public Allocation allocate(ApplicationAttemptId attemptId, List<ResourceRequest> ask,
      List<SchedulingRequest> schedulingRequests, List<ContainerId> release,
      List<String> blacklistAdditions, List<String> blacklistRemovals,
      ContainerUpdates updateRequests) {
    HareAppAttempt attempt = HareAppAttempt.of(getApplicationAttempt(attemptId));
    if (attempt == null || !attempt.getApplicationAttemptId().equals(attemptId)) {
      LOG.error("allocate for an unknown or previous attempt {}", attemptId);
      return EMPTY_ALLOCATION;
    }
    if (!attempt.isWaitingForAMContainer()) {
      // an AM's own call; the RM's call with the AM container's ask runs inside the attempt's
      // state machine, where an exception strands the application, so that ask is vetted at
      // admission instead (AppAdmission#amContainerProblem)
      AmUpdates.refuseSchedulingRequests(schedulingRequests);
      AmUpdates.refuseMultiGpuTasks(attempt.speaksHare(), ask);
      AmUpdates.refuseStrictGpuLocality(ask);
    }
    normalizeResourceRequests(ask);
    releaseContainers(release, attempt);
    // The attempt's write lock, not its monitor: YARN's attempt code takes the write lock first
    // and the monitor inside it (FifoAppAttempt.allocate -> addToNewlyAllocatedContainers, on the
    // scheduler thread), so holding the monitor here while the pulls below wait for the write
    // lock deadlocked the RM under short heartbeats.
    AmAllocation.Answer out = attempt.underWriteLock(() -> attempt.isStopped() ? null
        : amAllocation.apply(attempt, ask, blacklistAdditions, blacklistRemovals,
            updateRequests));
    if (out == null) {
      return EMPTY_ALLOCATION;
    }
    if (out.parking()) {
      passNow(); // a parked container's GPU goes to the next job now, not at a node heartbeat
    }
    return out.allocation();
  }

  /** A policy pass outside a node heartbeat (the scheduler's lock, after the attempt's). */
  private synchronized void passNow() {
    if (readyToAllocate()) {
      pass.gpus(getClock().getTime(), settings.nodeLivenessGraceMs());
      pass.publish(getClusterResource());
    }
  }

  /** False while a work-preserving restart waits for the NodeManagers' containers. */
  private boolean readyToAllocate() {
    return !rmContext.isWorkPreservingRecoveryEnabled()
        || rmContext.isSchedulerReadyForAllocatingContainers();
  }

  /** YARN's scheduler events, each served by its method here ({@link SchedulerEvents}). */
  @Override
  public void handle(SchedulerEvent event) {
    SchedulerEvents.dispatch(this, event);
  }

  // --- nodes ---

  synchronized void addNode(RMNode rmNode) {
    nodeTracker.addNode(new HareNode(rmNode));
    liveness.added(rmNode.getNodeID(), getClock().getTime());
    centralTypes.nodeAdded(rmNode.getNodeID().getHost(), rmContext.getNodeAttributesManager());
    refreshNodeGpus(rmNode.getNodeID());
  }

  synchronized void removeNode(RMNode rmNode) {
    FiCaSchedulerNode node = nodeTracker.getNode(rmNode.getNodeID());
    if (node == null) {
      return;
    }
    for (RMContainer c : node.getCopiedListOfRunningContainers()) {
      completedContainer(c, SchedulerUtils.createAbnormalContainerStatus(
          c.getContainerId(), SchedulerUtils.LOST_CONTAINER), RMContainerEventType.KILL);
    }
    nodeTracker.removeNode(rmNode.getNodeID());
    liveness.removed(rmNode.getNodeID());
  }

  synchronized void refreshNodeGpus(NodeId id) {
    FiCaSchedulerNode node = nodeTracker.getNode(id);
    if (node != null) {
      nodeGpus.refresh(node, rmContext.getNodeAttributesManager());
    }
  }

  /** {@code NODE_ATTRIBUTES_UPDATE}: the GPU types of the hosts in {@code byHost}. */
  synchronized void nodeAttributesUpdated(Map<String, Set<NodeAttribute>> byHost) {
    nodeGpus.attributesUpdated(byHost, nodeTracker);
  }

  /**
   * A heartbeat: YARN's processing of the node's launched and completed containers first, then
   * Hare's placement. The first part is private to AbstractYarnScheduler and reached only
   * through FifoScheduler's {@code nodeUpdate}, whose own memory-only placement (it would
   * over-commit GPUs) is kept from placing anything, and from visiting every application
   * ({@link FifoPass}).
   */
  @Override
  protected synchronized void nodeUpdate(RMNode rmNode) {
    FifoPass.run(() -> super.nodeUpdate(rmNode));
    FiCaSchedulerNode node = nodeTracker.getNode(rmNode.getNodeID());
    liveness.heard(rmNode.getNodeID(), node, getClock().getTime(),
        rmContext.getNodeAttributesManager());
    if (node == null) {
      return;
    }
    boolean draining = nodeGpus.draining(node,
        rmNode.getState() == NodeState.DECOMMISSIONING, rmContext.getNodeAttributesManager());
    if (!readyToAllocate()) {
      return;
    }
    if (node.getNodeUtilization() == null) {
      // an NM that reports no utilization would make the REST /nodes resource fail (NPE)
      node.setNodeUtilization(ResourceUtilization.newInstance(0, 0, 0f));
    }
    if (node.getAggregatedContainersUtilization() == null) {
      node.setAggregatedContainersUtilization(ResourceUtilization.newInstance(0, 0, 0f));
    }
    if (!draining) { // nothing new starts on a node being decommissioned
      pass.nonGpu(node);
    }
    long now = getClock().getTime();
    pass.gpus(now, settings.nodeLivenessGraceMs());
    for (RMContainer c : pass.standbys(node, now, draining)) {
      completedContainer(c, SchedulerUtils.createAbnormalContainerStatus(c.getContainerId(),
          "standby container no longer needed (it ran no task)"), RMContainerEventType.KILL);
    }
    pass.publish(getClusterResource());
  }

  private HareAppAttempt currentAttempt(ApplicationId id) {
    SchedulerApplication<FifoAppAttempt> app = applications.get(id);
    return app == null ? null : HareAppAttempt.of(app.getCurrentAppAttempt());
  }

  // --- applications ---

  /**
   * A new application, in the queue it names or its mapping gives ({@link HareQueues#place}):
   * admitted from its tags ({@link AppAdmission}) or rejected with a diagnostic (an unknown or
   * full queue, a denied ACL, a bad tag). Replaces FifoScheduler's.
   */
  @Override
  public synchronized void addApplication(ApplicationId id, String queueName, String user,
      boolean recovering, boolean unmanagedAM) {
    apps.add(id, queueName, user, recovering, unmanagedAM, aclsEnabled());
  }

  /** A new attempt of an admitted application, in Hare's queue. Replaces FifoScheduler's. */
  @Override
  public synchronized void addApplicationAttempt(ApplicationAttemptId id, boolean transferState,
      boolean recovering) {
    apps.addAttempt(id, transferState, recovering);
  }

  synchronized void removeAttempt(ApplicationAttemptId id,
      RMAppAttemptState finalState,
      boolean keepContainers) {
    HareAppAttempt attempt = HareAppAttempt.of(getApplicationAttempt(id));
    if (attempt == null) {
      LOG.warn("unknown attempt {} finished", id);
      return;
    }
    for (RMContainer c : attempt.getLiveContainers()) {
      if (keepContainers && c.getState() == RMContainerState.RUNNING) {
        continue; // work-preserving AM restart keeps running containers
      }
      completedContainer(c, SchedulerUtils.createAbnormalContainerStatus(
          c.getContainerId(), SchedulerUtils.COMPLETED_APPLICATION), RMContainerEventType.KILL);
    }
    attempt.stop(finalState);
    gpuTasks.asksChanged(id.getApplicationId());
  }

  synchronized void removeApplication(ApplicationId id, RMAppState finalState) {
    apps.remove(id, finalState);
  }

  // --- containers ---

  /**
   * YARN's container completion, which gives the ask of a container killed before its AM pulled
   * it back to the attempt on its own: the application's asks are then re-read as if its AM had
   * asked ({@link NonGpuAsks}, {@link GpuTasks#asksChanged}).
   */
  @Override
  public void completedContainer(RMContainer rmContainer, ContainerStatus status,
      RMContainerEventType event) {
    boolean askGivenBack = rmContainer != null && rmContainer.getContainerRequest() != null;
    super.completedContainer(rmContainer, status, event);
    if (askGivenBack) {
      ApplicationId app = rmContainer.getApplicationAttemptId().getApplicationId();
      nonGpuAsks.flag(app);
      multiGpu.flag(app);
      gpuTasks.asksChanged(app);
    }
  }

  @Override
  protected synchronized void completedContainerInternal(RMContainer rmContainer,
      ContainerStatus status, RMContainerEventType event) {
    HareAppAttempt attempt = HareAppAttempt.of(
        getCurrentAttemptForContainer(rmContainer.getContainerId()));
    FiCaSchedulerNode node = nodeTracker.getNode(rmContainer.getContainer().getNodeId());
    if (attempt != null && attempt.underWriteLock(
        () -> attempt.promotionLost(rmContainer.getContainerId()))) {
      LOG.info("promoted standby {} ended before its AM heard of the promotion: its ask goes back",
          rmContainer.getContainerId());
      gpuTasks.asksChanged(attempt.getApplicationId());
    }
    queues.ended(rmContainer.getContainerId());
    if (!multiGpu.completed(rmContainer.getContainerId())) {
      gpuTasks.containerCompleted(rmContainer, status, event, getClock().getTime());
    }
    if (attempt == null) {
      LOG.info("container {} of an unknown attempt completed ({})",
          rmContainer.getContainerId(), event);
      return;
    }
    attempt.containerCompleted(rmContainer, status, event, RMNodeLabelsManager.NO_LABEL);
    if (node != null) {
      node.releaseContainer(rmContainer.getContainerId(), false);
    }
    Resources.subtractFrom(used, rmContainer.getContainer().getResource());
  }

  @Override
  public void killContainer(RMContainer container) {
    completedContainer(container, SchedulerUtils.createKilledContainerStatus(
        container.getContainerId(), "killed by the RM"), RMContainerEventType.KILL);
  }

  @Override
  public RMContainer getRMContainer(ContainerId id) {
    FifoAppAttempt attempt = getCurrentAttemptForContainer(id);
    return attempt == null ? null : attempt.getRMContainer(id);
  }

  /**
   * Work-preserving RM restart: containers that a NodeManager reports running when it
   * re-registers are recovered into YARN's bookkeeping (node, attempt, queue metrics) by the
   * base class, then into Hare's: their resources count as used, and a GPU container of a known
   * job holds a GPU of its node and is a running task of the job for the policy
   * ({@code onJobArrived} if new to it, then {@code onTaskStarted}). The job's tags are re-read
   * from the recovered application ({@link AppAdmission}).
   *
   * <p>What is lost: Hare keeps no state of its own in the RM state store, so tasks finished
   * before the restart are unknown; a job's rounds done count again from 0, and its measured
   * task times restart from the profile unless the task-time store is on (then from what was
   * saved, {@link TaskTimeSaver}). Readiness is not lost: the AM, the source of truth,
   * re-sends its outstanding asks when it re-registers ({@code onTasksReady} or
   * {@code onRoundDone} as its asks grow). A clairvoyant policy therefore sees a recovered job
   * as having more rounds left than it has; it only ranks it lower, it never places wrongly. A
   * recovered container's run time is not a measurement (its start is unknown).
   */
  @Override
  public synchronized void recoverContainersOnNode(List<NMContainerStatus> reports, RMNode nm) {
    List<ContainerId> known = new ArrayList<>();
    if (reports != null) {
      reports.forEach(r -> {
        if (getRMContainer(r.getContainerId()) != null) {
          known.add(r.getContainerId()); // already live: not a recovery
        }
      });
    }
    super.recoverContainersOnNode(reports, nm);
    if (reports == null) {
      return;
    }
    for (NMContainerStatus r : reports) {
      RMContainer c = getRMContainer(r.getContainerId());
      if (c == null || known.contains(r.getContainerId())
          || c.getState() == RMContainerState.COMPLETED) {
        continue;
      }
      Resources.addTo(used, c.getAllocatedResource());
      if (c.isAMContainer()) {
        queues.placed(c);
      }
      if (!multiGpu.recovered(c)) {
        gpuTasks.recovered(c, getClock().getTime());
      }
    }
  }

  @Override
  public void recover(RMState state) {
    // RM restart recovery is not in this slice; applications restart from their submission
  }

  // --- queues ({@link HareQueues}) ---

  /** {@code yarn queue -status}: {@link HareQueues#info}. */
  @Override
  public synchronized QueueInfo getQueueInfo(String queueName, boolean includeChildQueues,
      boolean recursive) {
    return queues.info(queueName);
  }

  @Override
  public synchronized List<QueueUserACLInfo> getQueueUserAclInfo() {
    return queues.userAclInfo();
  }

  @Override
  public QueueMetrics getRootQueueMetrics() {
    return queues.rootMetrics();
  }

  @Override
  public synchronized boolean checkAccess(UserGroupInformation callerUGI, QueueACL acl,
      String queueName) {
    HareQueue q = queues.get(queueName);
    return q != null && q.hasAccess(acl, callerUGI);
  }

  @Override
  public synchronized List<ApplicationAttemptId> getAppsInQueue(String queueName) {
    return queues.attemptsIn(queueName);
  }

  /**
   * {@code yarn application -updatePriority}: refused, naming what Hare orders jobs by. YARN's
   * base scheduler answers priority 0 and changes nothing, which a user reads as done.
   */
  @Override
  public Priority updateApplicationPriority(Priority newPriority, ApplicationId id,
      SettableFuture<Object> future, UserGroupInformation user) throws YarnException {
    throw new YarnException("the Hare scheduler does not order applications by YARN priority"
        + " (asked: " + newPriority.getPriority() + " for " + id + "); a Hare job's place comes"
        + " from its weight (yarn.app.hare.job.weight at submit, capped by "
        + SchedulerKeys.WEIGHT_MAX + " and its per-queue and per-user caps) and the work it has"
        + " left");
  }

  /** {@code yarn application -movetoqueue}, before the RM records the move: the rules hold. */
  @Override
  public synchronized void preValidateMoveApplication(ApplicationId id, String target)
      throws YarnException {
    queues.checkMove(id, target, aclsEnabled());
  }

  /**
   * Moves an application, its running containers and pending asks (and their metrics) to
   * another queue; its GPU tasks count against that queue's shares from the next pass.
   */
  @Override
  public synchronized String moveApplication(ApplicationId id, String target)
      throws YarnException {
    String to = queues.move(id, target, aclsEnabled());
    YarnJob job = gpuTasks.job(id);
    if (job != null) {
      job.setQueue(to);
    }
    host.markDirty();
    return to;
  }

  private boolean aclsEnabled() {
    return YarnConfiguration.isAclEnabled(getConf() != null ? getConf() : getConfig());
  }

  @Override
  public int getNumClusterNodes() {
    return nodeTracker.nodeCount();
  }

  // --- for tests and metrics ---

  /** The settings in use: those of the start or of the last refresh that was accepted. */
  public synchronized HareSettings settings() {
    return settings;
  }

  /** Tells {@code listener} of every GPU ask change, task start and task end from now on. */
  public void addTaskListener(TaskListener listener) {
    taskListeners.add(listener);
  }

  /** The policy in use. */
  public synchronized SchedulingPolicy policy() {
    return host.policy();
  }

  /** The GPU type Hare uses for a node, or null if the node has no GPUs. */
  public synchronized GpuType gpuType(NodeId node) {
    return inventory.typeOf(node);
  }

  /** The weight the scheduler uses for an application, after the cap; NaN if unknown. */
  public synchronized double weight(ApplicationId app) {
    YarnJob j = gpuTasks.job(app);
    return j == null ? Double.NaN : j.weight();
  }

  /** GPU task containers running now, as Hare counts them (recovered ones included). */
  public synchronized int runningGpuTasks() {
    return gpuTasks.runningCount();
  }

  /** Standby containers waiting for a GPU ({@link StandbySwitching}). */
  public synchronized int standbys() {
    return gpuTasks.standbyCount();
  }

  /** The task times Hare estimates for an application on a type; null if unknown there. */
  public synchronized TaskTimes taskTimes(ApplicationId app, GpuType type) {
    return times.times(app.toString(), type);
  }

  /** Running GPU tasks of an application as Hare counts them; -1 if unknown. */
  public synchronized int runningTasks(ApplicationId app) {
    YarnJob j = gpuTasks.job(app);
    return j == null ? -1 : j.running;
  }

  /** Hare's metrics2 source. */
  public synchronized HareSchedulerMetrics hareMetrics() {
    return hareMetrics;
  }

  /**
   * What the RM's scheduler page and Hare's REST answer show, taken now under this lock; its
   * forecast is computed when read, outside it ({@link SchedulerReport}).
   */
  public synchronized SchedulerReport report() {
    long now = getClock().getTime();
    boolean acls = YarnConfiguration.isAclEnabled(getConf() != null ? getConf() : getConfig());
    return SchedulerReport.take(host.policy().name(), now, inventory.counts(),
        gpuTasks.runningCount(), host.pendingTasks(), gpuTasks.standbyCount(), gpuTasks.jobs(),
        id -> applications.containsKey(id) ? applications.get(id).getUser() : null,
        id -> queues.of(id) == null ? null : queues.of(id).getQueueName(),
        queues.config().queues().values(), queues.overcommit(), host.forecast(now), (caller, owner, queue) -> !acls
            || caller.getShortUserName().equals(owner) || queues.administers(caller, queue));
  }

  /** Nodes silent past the liveness grace now ({@link NodeWatch}). */
  public synchronized int silentNodes() {
    return liveness.silentCount();
  }

  /** Re-plans run so far. */
  public synchronized long replans() {
    return host.replans();
  }
}
