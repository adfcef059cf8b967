package io.hare.yarn.app;

import io.hare.core.SchedulerKeys;
import io.hare.core.TaskContract;
import io.hare.yarn.app.tokens.KeytabOnKill;
import io.hare.yarn.app.tokens.TokenRefresher;
import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.yarn.api.ApplicationConstants.Environment;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.ContainerLaunchContext;
import org.apache.hadoop.yarn.api.records.ContainerUpdateType;
import org.apache.hadoop.yarn.api.records.FinalApplicationStatus;
import org.apache.hadoop.yarn.api.records.LocalResource;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.ResourceInformation;
import org.apache.hadoop.yarn.api.records.UpdateContainerRequest;
import org.apache.hadoop.yarn.client.api.AMRMClient.ContainerRequest;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.apache.hadoop.yarn.client.api.async.AMRMClientAsync;
import org.apache.hadoop.yarn.client.api.async.NMClientAsync;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.security.AMRMTokenIdentifier;
import org.apache.hadoop.yarn.security.client.RMDelegationTokenIdentifier;
import org.apache.hadoop.yarn.util.resource.Resources;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Hare ApplicationMaster: wiring of the YARN clients (made by an {@link AmClients} factory, so
 * tests can script them) to {@link RoundProtocol}, which holds all the logic. One AM per job; {@link JobSubmitter} starts it with the spec localized as
 * {@value #SPEC_FILE}, the Hare jar as {@value JobSubmitter#JAR} and {@code HARE_WORK_DIR} set.
 *
 * <p>The round protocol, as it runs here:
 * <ol>
 *   <li>Register with the ResourceManager. Read the checkpoint in HARE_WORK_DIR
 *       ({@link FsRoundCheckpoint}); a new AM attempt resumes after the last finished round.
 *   <li>For round r, add k asks for one-GPU containers ({@link TaskLaunch#request}).
 *   <li>Each allocated container is started at once ({@code NMClientAsync}) with the task command
 *       and the round's environment ({@link TaskEnv}); the AM never waits for k containers, so
 *       the scheduler may run the round's tasks at different times, on different GPU types, and
 *       one after another on one GPU. Every satisfied ask is removed and surplus containers are
 *       released, so AMRMClient's over-allocation does not take GPUs from other jobs.
 *   <li>A task that fails (exit status not 0, or its container cannot start) asks again, on any
 *       GPU, up to {@code task.max-attempts} attempts; then the job fails.
 *   <li>When all k tasks of round r succeeded, the sync step runs as a local process in this
 *       container ({@link ProcessSyncStep}, or one process for the job:
 *       {@link ResidentSyncStep}); then the round is checkpointed, progress (reported on
 *       each heartbeat) becomes (r+1)/R, and round r+1 asks.
 *   <li>After R rounds, or at the first failure, unregister with SUCCEEDED or FAILED and the
 *       diagnostics of {@link JobOutcome} (the failing task, its exit code and its log), ended
 *       by a {@link JobStop} mark (rounds done, the round and tasks where it stopped). A crash
 *       before unregistering lets YARN start a new attempt, which resumes.
 * </ol>
 *
 * <p>With task reuse, the Hare scheduler may also hand the AM standby containers: pre-launched
 * without the GPU on a node whose GPU is about to free, for this job's next task. The AM starts
 * each at once; its runner connects to the AM's {@link RunnerServer} and waits. When the
 * scheduler promotes it (an INCREASE_RESOURCE container update carrying the GPU), the AM binds
 * the round's next waiting task to it, tells its NodeManager the new resource
 * ({@code updateContainerResourceAsync}) and the runner the task: a switch of a GPU to this job
 * then costs a heartbeat and a line over a socket instead of a container launch. Details:
 * {@link RoundProtocol}.
 */
public final class HareApplicationMaster {

  /** The spec's file name in the work directory and the AM's working directory. */
  public static final String SPEC_FILE = "hare-job.xml";

  private static final Logger LOG = LoggerFactory.getLogger(HareApplicationMaster.class);
  /** NodeManager connections an AM keeps open (yarn.client.max-cached-nodemanagers-proxies). */
  static final int CACHED_NM_CONNECTIONS = 64;
  /** How long the AM tries to reach a NodeManager to start or update a container. */
  static final long NM_CONNECT_WAIT_MS = 20_000;
  /** Between two such tries. */
  static final long NM_CONNECT_RETRY_MS = 2_000;

  private final AmClients clients;
  private final Configuration conf;
  private final HareJobSpec spec;
  private final String jobId;
  private final String workDir;
  private final TaskLaunch launch;
  private final SyncStep sync;
  private final RoundCheckpoint checkpoint;
  private final GpuTypes gpuTypes;
  private final RunnerLink runners;
  private final TokenRefresher tokens;

  /**
   * An AM for one job attempt; nothing runs before {@link #run}.
   *
   * @param clients creates the AMRM and NM clients ({@link AmClients#yarn} in a container)
   * @param conf the configuration the clients are inited with
   */
  public HareApplicationMaster(AmClients clients, Configuration conf, HareJobSpec spec,
      String jobId, String workDir, TaskLaunch launch, SyncStep sync, RoundCheckpoint checkpoint,
      GpuTypes gpuTypes) {
    this(clients, conf, spec, jobId, workDir, launch, sync, checkpoint, gpuTypes, null,
        TokenRefresher.NONE);
  }

  /**
   * @param runners where the warm containers' runner server reports (null: none)
   * @param tokens refreshes the AM's tokens; started once the rounds are, closed on the way out
   */
  HareApplicationMaster(AmClients clients, Configuration conf, HareJobSpec spec, String jobId,
      String workDir, TaskLaunch launch, SyncStep sync, RoundCheckpoint checkpoint,
      GpuTypes gpuTypes, RunnerLink runners, TokenRefresher tokens) {
    this.runners = runners;
    this.tokens = tokens;
    this.clients = clients;
    this.conf = conf;
    this.spec = spec;
    this.jobId = jobId;
    this.workDir = workDir;
    this.launch = launch;
    this.sync = sync;
    this.checkpoint = checkpoint;
    this.gpuTypes = gpuTypes;
  }

  public static void main(String[] args) {
    int code;
    try {
      code = runInContainer() ? 0 : 1;
    } catch (LostYarnException e) {
      // YARN's decision, no fault here: a killed job's AM is told to shut down this way, and the
      // throw site says all there is
      LOG.warn("Hare ApplicationMaster exits: {}", e.getMessage());
      code = 2;
    } catch (Throwable t) {
      // not unregistered: YARN starts another attempt (up to am.max-attempts), which resumes
      LOG.error("Hare ApplicationMaster failed", t);
      code = 2;
    }
    System.exit(code);
  }

  /**
   * The NodeManager client's configuration: {@code conf}, keeping connections open and giving up
   * on an unreachable NodeManager sooner. A job starts a container per task on the same few
   * NodeManagers; YARN's default (0 cached proxies) opens an authenticated RPC connection per
   * start, tens of ms of every switch. YARN's client retries a start on a NodeManager that does
   * not answer for 3 minutes ({@code yarn.client.nodemanager-connect.max-wait-ms}); a task whose
   * node died waits that long before it is asked again elsewhere, so the AM gives up after
   * {@link #NM_CONNECT_WAIT_MS}. A value the job or cluster sets wins; YARN's shipped default
   * does not count as one.
   */
  static Configuration nodeManagerConf(Configuration conf) {
    Configuration c = new Configuration(conf);
    unlessSet(conf, c, YarnConfiguration.NM_CLIENT_MAX_NM_PROXIES, CACHED_NM_CONNECTIONS);
    unlessSet(conf, c, YarnConfiguration.CLIENT_NM_CONNECT_MAX_WAIT_MS, NM_CONNECT_WAIT_MS);
    unlessSet(conf, c, YarnConfiguration.CLIENT_NM_CONNECT_RETRY_INTERVAL_MS,
        NM_CONNECT_RETRY_MS);
    return c;
  }

  private static void unlessSet(Configuration conf, Configuration c, String key, long value) {
    String[] from = conf.getPropertySources(key);
    if (from == null || java.util.Arrays.equals(from, new String[] {"yarn-default.xml"})) {
      c.setLong(key, value);
    }
  }

  /**
   * Registers, runs the rounds and unregisters with the outcome and its diagnostics; the
   * clients are stopped on the way out.
   *
   * @return whether the job succeeded
   * @throws Exception if YARN could not be reached (the AM then exits without unregistering)
   */
  public boolean run() throws Exception {
    AmCallbacks callbacks = new AmCallbacks();
    AMRMClientAsync<ContainerRequest> rm = clients.resourceManager(callbacks);
    NMClientAsync nm = clients.nodeManagers(callbacks.nm);
    rm.init(conf);
    nm.init(nodeManagerConf(conf));
    RoundProtocol protocol = new RoundProtocol(spec, jobId, workDir, launch,
        new ContainerAsks() {
          @Override
          public void addContainerRequest(ContainerRequest r) {
            rm.addContainerRequest(r);
          }

          @Override
          public void removeContainerRequest(ContainerRequest r) {
            rm.removeContainerRequest(r);
          }

          @Override
          public void releaseAssignedContainer(ContainerId id) {
            rm.releaseAssignedContainer(id);
          }

          @Override
          public void updateBlacklist(List<String> additions, List<String> removals) {
            rm.updateBlacklist(additions, removals);
          }

          @Override
          public void awaitingGpu(boolean waiting) {
            rm.setHeartbeatInterval(waiting ? spec.amStandbyHeartbeatMs() : spec.amHeartbeatMs());
          }

          @Override
          public void reportTaskStarted(Container c) {
            rm.requestContainerUpdate(c, UpdateContainerRequest.newInstance(c.getVersion(),
                c.getId(), ContainerUpdateType.DECREASE_RESOURCE, c.getResource(), null));
            // the scheduler counts the task before it only while the container runs: a report
            // that reaches it after the NodeManager's report of the container's end is refused
            // by YARN as an update of an unknown container, and the job is a task short
            clients.hurry();
          }

          @Override
          public CompletableFuture<Void> reportsSent(ContainerId c) {
            return clients.updatesSent(c);
          }

          @Override
          public void reportParked(Container c) {
            Resource small = Resources.clone(c.getResource());
            small.setResourceValue(ResourceInformation.GPU_URI, 0);
            rm.requestContainerUpdate(c, UpdateContainerRequest.newInstance(c.getVersion(),
                c.getId(), ContainerUpdateType.DECREASE_RESOURCE, small, null));
            clients.hurry(); // the GPU idles until the scheduler hears of it
          }
        },
        new ContainerLauncher() {
          @Override
          public void startContainer(Container c, ContainerLaunchContext context) {
            nm.startContainerAsync(c, launch.withChannelKey(c.getId(), context));
          }

          @Override
          public void updateResource(Container c) {
            nm.updateContainerResourceAsync(c);
          }
        },
        sync, checkpoint, gpuTypes, System::currentTimeMillis, tokens::generation);
    callbacks.protocol = protocol;
    if (runners != null) {
      runners.protocol = protocol;
    }
    rm.start();
    nm.start();
    try {
      rm.registerApplicationMaster(host(), -1, "");
      protocol.start();
      tokens.start(protocol::onTokensRefreshed);
      // what this JVM's start cost, up to its first asks: many AMs starting on a busy node
      // delay their jobs by this much CPU each (docs/performance.md, section 3)
      LOG.info("{}: registered; this JVM used {} ms of CPU up to here", jobId,
          ProcessHandle.current().info().totalCpuDuration().map(Duration::toMillis)
              .orElse(-1L));
      JobOutcome outcome = protocol.await(Long.MAX_VALUE, TimeUnit.DAYS).orElseThrow();
      if (!outcome.final_()) {
        // not unregistered: YARN starts another attempt (am.max-attempts), which resumes
        throw new LostYarnException("the ApplicationMaster lost YARN: " + outcome.diagnostics()
            + "; exiting without unregistering, after " + outcome.roundsDone()
            + " finished rounds");
      }
      // YARN reports progress 1 for any ended job: the diagnostics carry where it stopped
      rm.unregisterApplicationMaster(outcome.succeeded() ? FinalApplicationStatus.SUCCEEDED
          : FinalApplicationStatus.FAILED, outcome.succeeded() ? outcome.diagnostics()
          : outcome.diagnostics() + " " + protocol.stop().mark(), null);
      return outcome.succeeded();
    } finally {
      tokens.close();
      nm.stop();
      rm.stop();
    }
  }

  /** The AM as YARN starts it: spec, ids and directories from its container. */
  private static boolean runInContainer() throws Exception {
    Configuration conf = new YarnConfiguration();
    Configuration specConf = new Configuration(false);
    specConf.addResource(new Path(new File(SPEC_FILE).toURI()));
    HareJobSpec spec = JobSpecValidator.read(specConf);
    ContainerId self = ContainerId.fromString(System.getenv(Environment.CONTAINER_ID.name()));
    String jobId = self.getApplicationAttemptId().getApplicationId().toString();
    Path work = new Path(System.getenv(TaskContract.WORK_DIR));
    File logDir = new File(System.getenv(Environment.LOG_DIRS.name()).split(",")[0]);

    // the staged spec's files: the Hare jar first, then the job's own files
    Map<String, LocalResource> resources = LocalResources.of(conf, spec.files(),
        spec.archives());
    RunnerLink link = new RunnerLink();
    ChannelKeys keys = new ChannelKeys();
    String host = host();
    RunnerServer runners = spec.taskReuse()
        ? new RunnerServer(link, keys, InetAddress.getByName(host)) : null;
    TokenRefresher tokens = AmTokens.refresher(conf, spec, work);
    TaskLaunch launch = new TaskLaunch(spec, resources, AmTokens.forTasks(),
        ContainerClasspath.of(conf), runners == null ? null
            : new TaskLaunch.Channel(host, runners.port(), keys));

    YarnClient yarn = YarnClient.createYarnClient();
    yarn.init(conf);
    yarn.start();
    GpuTypes gpuTypes = gpuTypes(conf, yarn);
    ExecutorService syncThread = Executors.newSingleThreadExecutor();
    String taskWorkDir = TaskEnv.workDirForTasks(work, FileSystem.getDefaultUri(conf));
    ResidentSyncStep resident = spec.syncMode() == SyncMode.RESIDENT
        ? new ResidentSyncStep(spec, jobId, taskWorkDir, logDir, syncThread, tokens) : null;
    KeytabOnKill keytabOnKill = AmTokens.onKill(conf, spec, work,
        self.getApplicationAttemptId());
    boolean unregistered = false;
    try {
      boolean ok = new HareApplicationMaster(AmClients.yarn(spec.amHeartbeatMs()), conf, spec,
          jobId, taskWorkDir, launch, resident != null ? resident
              : new ProcessSyncStep(spec, jobId, taskWorkDir, logDir, syncThread, tokens),
          new FsRoundCheckpoint(FileSystem.get(conf), work),
          gpuTypes, link, tokens).run();
      unregistered = true;
      // no attempt follows that would localize it
      AmTokens.deleteStagedKeytab(conf, spec, work);
      return ok;
    } finally {
      if (keytabOnKill != null && unregistered) {
        keytabOnKill.settle();
      } else if (keytabOnKill != null) {
        // leaving without unregistering: the RM's shutdown request after a kill reaches the AM
        // before the NodeManager's SIGTERM does; else another attempt may follow
        keytabOnKill.run();
      }
      if (runners != null) {
        runners.close();
      }
      if (resident != null) {
        resident.close();
      }
      syncThread.shutdownNow();
      yarn.stop();
    }
  }

  /**
   * This AM's host as its NodeManager names it ({@code NM_HOST}; outside a container, the local
   * host's name): the AM registers with it, and the task channel listens on its address only.
   */
  private static String host() throws IOException {
    String nm = System.getenv(Environment.NM_HOST.name());
    return nm != null && !nm.isEmpty() ? nm : InetAddress.getLocalHost().getCanonicalHostName();
  }

  /**
   * Where the AM reads each container's GPU type: the RM's node attributes, which a secure
   * cluster serves an AM only with the RM delegation token that Hare's client sends
   * ({@link JobCredentials}); without one (another client), every lookup would wait out the
   * RM client's retries, so the types stay unknown to the tasks (HARE_GPU_TYPE empty).
   */
  private static GpuTypes gpuTypes(Configuration conf, YarnClient yarn) throws IOException {
    boolean rmToken = UserGroupInformation.getCurrentUser().getCredentials().getAllTokens()
        .stream().anyMatch(t -> t.getKind().equals(RMDelegationTokenIdentifier.KIND_NAME));
    if (UserGroupInformation.isSecurityEnabled() && !rmToken) {
      LOG.warn("No ResourceManager delegation token on this secure cluster (was the job"
          + " submitted without Hare's client?): the tasks' HARE_GPU_TYPE stays empty");
      return GpuTypes.UNKNOWN;
    }
    return new NodeAttributeGpuTypes(yarn, conf.get(SchedulerKeys.GPU_TYPE_ATTRIBUTE,
        SchedulerKeys.DEFAULT_GPU_TYPE_ATTRIBUTE));
  }

  /**
   * The AM lost YARN (the RM asked it to shut down, or cannot be reached): it exits without
   * unregistering, and YARN starts another attempt or, for a killed job, none.
   */
  static final class LostYarnException extends IOException {
    LostYarnException(String message) {
      super(message);
    }
  }
}
