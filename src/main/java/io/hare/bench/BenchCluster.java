package io.hare.bench;

import io.hare.core.SchedulerKeys;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.ContainerStatus;
import org.apache.hadoop.yarn.api.records.NodeAttribute;
import org.apache.hadoop.yarn.api.records.NodeAttributeType;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.ResourceInformation;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.resourcemanager.MockAM;
import org.apache.hadoop.yarn.server.resourcemanager.MockNM;
import org.apache.hadoop.yarn.server.resourcemanager.MockRM;
import org.apache.hadoop.yarn.server.resourcemanager.MockRMAppSubmissionData;
import org.apache.hadoop.yarn.server.resourcemanager.MockRMAppSubmitter;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.AbstractYarnScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerNode;
import org.apache.hadoop.yarn.util.resource.ResourceUtils;
import org.apache.log4j.Level;
import org.apache.log4j.LogManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A ResourceManager (YARN's {@link MockRM}, its real services in one JVM) with one scheduler
 * under test, {@code N} NodeManagers and {@code J} unmanaged ApplicationMasters, driven in
 * <em>ticks</em>. A tick is one NodeManager heartbeat interval (1 s on the scheduler's clock,
 * which the bench owns; node {@code i} of {@code N} at {@code i/N} of it): every node heartbeats
 * once, reporting the task containers that ended, and every AM with something to do heartbeats
 * once ({@link BenchJob#step}), the two interleaved ({@link #tick}).
 *
 * <p>Why MockRM rather than calling the scheduler's event handler directly: the heartbeat and
 * the AM calls then go through YARN's own ResourceTrackerService, RMNode state machine,
 * ApplicationMasterService and container state machine, exactly as in a real RM, so each
 * scheduler does all the work it does in production (container tokens, completed-container
 * bookkeeping) and nothing is stubbed. Only the scheduler's share of that path is timed
 * ({@link TimedScheduler}), so the RPC-free MockRM plumbing around it does not count.
 *
 * <p>Invariants checked at every tick, whatever the scheduler: no node runs more GPU task
 * containers than it has GPUs (by the bench's own count of what the AMs received and by the
 * scheduler's node accounting), every container has exactly one GPU, and no job receives a
 * container it did not ask for. Not thread-safe: one bench thread drives it.
 */
public final class BenchCluster implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(BenchCluster.class);

  /** Scheduler time per tick: one NodeManager heartbeat interval. */
  public static final long TICK_MS = BenchWorkload.TICK_MS;
  private static final long REPLAN_WAIT_MS = 600_000;
  /**
   * Logs a line per node and per application at INFO, which at bench scale buries the results;
   * kept at WARN while a bench RM runs (unless set quieter), restored after.
   */
  private static final String CHATTY = "io.hare.yarn.scheduler";

  private final Contender contender;
  private final BenchShape shape;
  private final Path work;
  private final MockRM rm;
  private final TimedScheduler scheduler;
  private final TickClock clock = new TickClock();
  private final List<BenchNode> nodes = new ArrayList<>();
  private final Map<NodeId, BenchNode> byId = new HashMap<>();
  private final List<BenchJob> jobs = new ArrayList<>();
  private long tick;
  private boolean clocksOn;
  private int arrivalsPerTick;
  private final Violations violations = new Violations();
  private final Level chattyLevel;

  private BenchCluster(Contender contender, BenchShape shape, Path work, MockRM rm,
      Level chattyLevel) {
    this.chattyLevel = chattyLevel;
    this.contender = contender;
    this.shape = shape;
    this.work = work;
    this.rm = rm;
    this.scheduler = (TimedScheduler) rm.getResourceScheduler();
    ((AbstractYarnScheduler<?, ?>) rm.getResourceScheduler()).setClock(clock);
  }

  /** Starts the RM with the contender's scheduler and registers the nodes (no jobs yet). */
  public static BenchCluster start(Contender contender, BenchShape shape) throws Exception {
    return start(contender, shape, 0);
  }

  /** {@link #start(Contender, BenchShape)} with Hare's least time between two passes. */
  public static BenchCluster start(Contender contender, BenchShape shape, long passIntervalMs)
      throws Exception {
    Path work = Files.createTempDirectory("hare-bench-");
    Files.writeString(work.resolve("profiles.csv"), BenchWorkload.profilesCsv(),
        StandardCharsets.UTF_8);
    YarnConfiguration conf = contender.conf(shape.gpusPerNode(), work);
    conf.setLong(SchedulerKeys.PASS_MIN_INTERVAL_MS, passIntervalMs); // read by Hare only
    ResourceUtils.resetResourceTypes(conf);
    Level level = LogManager.getRootLogger().getLevel();
    MockRM rm = new BenchRm(conf);
    LogManager.getRootLogger().setLevel(level); // MockRM turns the root logger to DEBUG
    org.apache.log4j.Logger chatty = LogManager.getLogger(CHATTY);
    Level chattyLevel = chatty.getLevel();
    if (chatty.getEffectiveLevel() == Level.INFO) {
      chatty.setLevel(Level.WARN);
    }
    rm.start();
    BenchCluster c = new BenchCluster(contender, shape, work, rm, chattyLevel);
    try {
      c.addNodes();
    } catch (Exception | Error e) {
      c.close();
      throw e;
    }
    return c;
  }

  private void addNodes() throws Exception {
    int g = shape.gpusPerNode();
    Resource size = Resource.newInstance(4096L * g + 4096, 2 * g + 2,
        Map.of(ResourceInformation.GPU_URI, (long) g));
    Map<String, Set<NodeAttribute>> types = new HashMap<>();
    for (int i = 0; i < shape.nodes(); i++) {
      String host = host(i);
      MockNM nm = rm.registerNode(host + ":1234", size);
      BenchNode n = new BenchNode(nm, i);
      nodes.add(n);
      byId.put(nm.getNodeId(), n);
      types.put(host, Set.of(NodeAttribute.newInstance(NodeAttribute.PREFIX_CENTRALIZED,
          SchedulerKeys.DEFAULT_GPU_TYPE_ATTRIBUTE, NodeAttributeType.STRING,
          BenchWorkload.gpuType(i))));
    }
    // GPU types as an admin sets them centrally; CapacityScheduler ignores them
    rm.getRMContext().getNodeAttributesManager().replaceNodeAttributes(
        NodeAttribute.PREFIX_CENTRALIZED, types);
    rm.drainEvents();
    for (BenchNode n : nodes) {
      n.nm.nodeHeartbeat(true);
    }
    rm.drainEvents();
  }

  /**
   * Node {@code i}'s host: a loopback address of its own, since the RM resolves every
   * heartbeating host (NodesListManager) and a made-up name would cost a DNS lookup each time.
   */
  static String host(int i) {
    return "127.10." + (i / 250) + "." + (1 + i % 250);
  }

  /** Submits every job's application and registers its (unmanaged) AM; nothing asked yet. */
  public void submitJobs() throws Exception {
    submit(shape.jobs());
  }

  /**
   * Jobs arriving during the churn: from the next tick on, {@code perTick} new jobs arrive in
   * each tick, spread over it (before the heartbeats of nodes {@code i N / perTick}), and ask
   * for their first round at once. They continue the workload's job indices.
   */
  public void arriveEachTick(int perTick) {
    if (perTick < 0) {
      throw new IllegalArgumentException("arrivals per tick must be >= 0, got " + perTick);
    }
    arrivalsPerTick = perTick;
  }

  /** Jobs submitted so far, those that arrived during the churn included. */
  public int submittedJobs() {
    return jobs.size();
  }

  /**
   * Submits {@code n} more jobs and registers their (unmanaged) AMs; nothing asked yet. Not
   * timed: only the scheduler's heartbeat and allocate paths are.
   */
  private List<BenchJob> submit(int n) throws Exception {
    List<RMApp> apps = new ArrayList<>();
    int first = jobs.size();
    for (int j = first; j < first + n; j++) {
      apps.add(MockRMAppSubmitter.submit(rm, MockRMAppSubmissionData.Builder
          .createWithMemory(1024, rm).withAppName("bench-" + j).withUnmanagedAM(true)
          .withApplicationTags(BenchWorkload.tags(j, BenchWorkload.rounds(j, shape.rounds())))
          .withWaitForAppAcceptedState(false).build()));
    }
    rm.drainEvents();
    List<BenchJob> added = new ArrayList<>();
    for (int i = 0; i < apps.size(); i++) {
      int j = first + i;
      RMApp app = apps.get(i);
      if (app.getCurrentAppAttempt() == null) {
        throw new IllegalStateException("the " + contender.label() + " scheduler did not accept"
            + " job " + j + " (" + app.getState() + "): " + app.getDiagnostics());
      }
      ApplicationAttemptId attempt = app.getCurrentAppAttempt().getAppAttemptId();
      MockAM am = new MockAM(rm.getRMContext(), rm.getApplicationMasterService(), attempt);
      rm.waitForState(attempt, org.apache.hadoop.yarn.server.resourcemanager.rmapp.attempt
          .RMAppAttemptState.LAUNCHED);
      am.registerAppAttempt();
      BenchJob job = new BenchJob(j, BenchWorkload.rounds(j, shape.rounds()), shape.failEvery(),
          am);
      jobs.add(job);
      added.add(job);
    }
    rm.drainEvents();
    return added;
  }

  /** Every job asks for its first round. */
  public void startJobs() throws Exception {
    for (BenchJob j : jobs) {
      j.start();
    }
    rm.drainEvents();
  }

  /** From now on containers end after their duration (until now they run indefinitely). */
  public void startClocks() {
    clocksOn = true;
    for (BenchNode n : nodes) {
      n.startClocks(tick);
    }
  }

  /**
   * One tick: every node heartbeats once (reporting the containers that ended) and every AM
   * with something to do heartbeats once, interleaved as in an RM where both come every second:
   * AM {@code j} right after node {@code j * N / J}, with the RM's events drained first so it
   * sees every allocation made so far; the tick's arrivals ({@link #arriveEachTick}) are
   * submitted between the heartbeats and ask at once. Re-plans in flight finish before the tick
   * ends (as they would within a 1 s heartbeat interval).
   *
   * @return containers the AMs received in this tick
   */
  public int tick() throws Exception {
    tick++;
    int received = 0;
    int next = 0; // next job to step, in slot order
    int arrived = 0;
    for (BenchNode n : nodes) {
      // heartbeats spread over the interval, as a real RM hears them: what depends on the time
      // between two heartbeats (Hare's least pass interval) sees the gaps a cluster this size has
      clock.set(tick * TICK_MS + n.index * TICK_MS / nodes.size());
      int due = (int) ((n.index + 1L) * arrivalsPerTick / nodes.size()) - arrived;
      if (due > 0) {
        for (BenchJob j : submit(due)) {
          j.start();
        }
        arrived += due;
      }
      List<BenchNode.Running> ended = n.takeDue(tick);
      List<ContainerStatus> statuses = new ArrayList<>(ended.size());
      for (BenchNode.Running r : ended) {
        statuses.add(BenchNode.completed(r));
        r.job.ended(r);
      }
      n.nm.nodeHeartbeat(statuses, true);
      int upTo = (int) ((n.index + 1L) * jobs.size() / nodes.size()); // jobs of this slot
      if (next < upTo) {
        rm.drainEvents();
        for (; next < upTo; next++) {
          received += jobs.get(next).step(tick, clocksOn, byId::get).size();
        }
      }
    }
    rm.drainEvents();
    if (!scheduler.replanTimes().awaitIdle(REPLAN_WAIT_MS)) {
      LOG.warn("a re-plan is still running after {} ms", REPLAN_WAIT_MS);
    }
    rm.drainEvents();
    violations.check(nodes, this::schedulerNode, shape.gpusPerNode(), jobs);
    return received;
  }

  private SchedulerNode schedulerNode(NodeId id) {
    return rm.getResourceScheduler().getSchedulerNode(id);
  }

  public Contender contender() {
    return contender;
  }

  public BenchShape shape() {
    return shape;
  }

  public long ticks() {
    return tick;
  }

  public PathTimer timer() {
    return scheduler.timer();
  }

  public ReplanTimes replanTimes() {
    return scheduler.replanTimes();
  }

  public Violations violations() {
    return violations;
  }

  /** The jobs' AMs, by job index. */
  List<BenchJob> jobs() {
    return jobs;
  }

  /** GPU task containers running now, by the bench's count. */
  public int busyGpus() {
    int n = 0;
    for (BenchNode b : nodes) {
      n += b.busy();
    }
    return n;
  }

  /** Every job's record so far, by job index. */
  public List<JobRecord> jobRecords() {
    List<JobRecord> out = new ArrayList<>(jobs.size());
    for (BenchJob j : jobs) {
      out.add(j.record());
    }
    return out;
  }

  /** Containers the scheduler counts allocated now (its root queue's metrics). */
  public int allocatedContainers() {
    return rm.getResourceScheduler().getRootQueueMetrics().getAllocatedContainers();
  }

  /** Jobs that finished all their rounds. */
  public int finishedJobs() {
    return (int) jobs.stream().filter(BenchJob::finished).count();
  }

  @Override
  public void close() throws IOException {
    try {
      rm.stop();
    } finally {
      LogManager.getLogger(CHATTY).setLevel(chattyLevel);
      try (Stream<Path> files = Files.walk(work)) {
        for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
          Files.deleteIfExists(p);
        }
      }
    }
  }
}
