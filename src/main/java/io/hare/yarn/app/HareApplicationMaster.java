package io.hare.yarn.app;

import io.hare.core.SchedulerKeys;
import io.hare.core.TaskContract;
import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.security.Credentials;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.token.Token;
import org.apache.hadoop.yarn.api.ApplicationConstants.Environment;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.ContainerStatus;
import org.apache.hadoop.yarn.api.records.FinalApplicationStatus;
import org.apache.hadoop.yarn.api.records.LocalResource;
import org.apache.hadoop.yarn.api.records.LocalResourceType;
import org.apache.hadoop.yarn.api.records.NodeReport;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.UpdatedContainer;
import org.apache.hadoop.yarn.client.api.AMRMClient.ContainerRequest;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.apache.hadoop.yarn.client.api.async.AMRMClientAsync;
import org.apache.hadoop.yarn.client.api.async.NMClientAsync;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.security.AMRMTokenIdentifier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Hare ApplicationMaster: wiring of the real YARN clients to {@link RoundProtocol}, which
 * holds all the logic. One AM per job; {@link JobSubmitter} starts it with the spec localized as
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
 *       container ({@link ProcessSyncStep}); then the round is checkpointed, progress (reported on
 *       each heartbeat) becomes (r+1)/R, and round r+1 asks.
 *   <li>After R rounds, or at the first failure, unregister with SUCCEEDED or FAILED and the
 *       diagnostics of {@link JobOutcome} (the failing task, its exit code and its log). A crash
 *       before unregistering lets YARN start a new attempt, which resumes.
 * </ol>
 */
public final class HareApplicationMaster {

  /** The spec's file name in the work directory and the AM's working directory. */
  public static final String SPEC_FILE = "hare-job.xml";

  private static final Logger LOG = LoggerFactory.getLogger(HareApplicationMaster.class);

  private HareApplicationMaster() {}

  public static void main(String[] args) {
    int code;
    try {
      code = run() ? 0 : 1;
    } catch (Throwable t) {
      // not unregistered: YARN starts another attempt (up to am.max-attempts), which resumes
      LOG.error("Hare ApplicationMaster failed", t);
      code = 2;
    }
    System.exit(code);
  }

  private static boolean run() throws Exception {
    Configuration conf = new YarnConfiguration();
    Configuration specConf = new Configuration(false);
    specConf.addResource(new Path(new File(SPEC_FILE).toURI()));
    HareJobSpec spec = JobSpecValidator.read(specConf);
    ContainerId self = ContainerId.fromString(System.getenv(Environment.CONTAINER_ID.name()));
    String jobId = self.getApplicationAttemptId().getApplicationId().toString();
    Path work = new Path(System.getenv(TaskContract.WORK_DIR));
    File logDir = new File(System.getenv(Environment.LOG_DIRS.name()).split(",")[0]);

    Map<String, LocalResource> resources = new LinkedHashMap<>(
        LocalResources.of(conf, spec.files(), spec.archives()));
    resources.put(JobSubmitter.JAR,
        LocalResources.of(conf, new Path(work, JobSubmitter.JAR), LocalResourceType.FILE));
    TaskLaunch launch = new TaskLaunch(spec, resources, containerTokens(),
        ContainerClasspath.of(conf));

    YarnClient yarn = YarnClient.createYarnClient();
    yarn.init(conf);
    yarn.start();
    ExecutorService syncThread = Executors.newSingleThreadExecutor();
    Callbacks callbacks = new Callbacks();
    AMRMClientAsync<ContainerRequest> rm = AMRMClientAsync.createAMRMClientAsync(1000, callbacks);
    NMClientAsync nm = NMClientAsync.createNMClientAsync(callbacks.nm);
    rm.init(conf);
    nm.init(conf);
    RoundProtocol protocol = new RoundProtocol(spec, jobId, work.toString(), launch,
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
        },
        nm::startContainerAsync,
        new ProcessSyncStep(spec, jobId, work.toString(), logDir, syncThread),
        new FsRoundCheckpoint(FileSystem.get(conf), work),
        new NodeAttributeGpuTypes(yarn, conf.get(SchedulerKeys.GPU_TYPE_ATTRIBUTE,
            SchedulerKeys.DEFAULT_GPU_TYPE_ATTRIBUTE)));
    callbacks.protocol = protocol;
    rm.start();
    nm.start();
    try {
      rm.registerApplicationMaster(InetAddress.getLocalHost().getCanonicalHostName(), -1, "");
      protocol.start();
      JobOutcome outcome = protocol.await(Long.MAX_VALUE, TimeUnit.DAYS).orElseThrow();
      rm.unregisterApplicationMaster(outcome.succeeded() ? FinalApplicationStatus.SUCCEEDED
          : FinalApplicationStatus.FAILED, outcome.diagnostics(), null);
      return outcome.succeeded();
    } finally {
      syncThread.shutdownNow();
      nm.stop();
      rm.stop();
      yarn.stop();
    }
  }

  /** This AM's credentials without the AMRM token, for the task containers. */
  private static ByteBuffer containerTokens() throws IOException {
    Credentials creds = UserGroupInformation.getCurrentUser().getCredentials();
    Iterator<Token<?>> it = creds.getAllTokens().iterator();
    while (it.hasNext()) {
      if (it.next().getKind().equals(AMRMTokenIdentifier.KIND_NAME)) {
        it.remove();
      }
    }
    DataOutputBuffer out = new DataOutputBuffer();
    creds.writeTokenStorageToStream(out);
    return ByteBuffer.wrap(out.getData(), 0, out.getLength());
  }

  /** Forwards the YARN callbacks to the protocol (set before the clients start). */
  private static final class Callbacks extends AMRMClientAsync.AbstractCallbackHandler {
    volatile RoundProtocol protocol;

    final NMClientAsync.AbstractCallbackHandler nm = new NMClientAsync.AbstractCallbackHandler() {
      @Override
      public void onStartContainerError(ContainerId id, Throwable t) {
        protocol.onStartFailed(id, t);
      }

      @Override
      public void onContainerStarted(ContainerId id, Map<String, ByteBuffer> data) {
        LOG.debug("started {}", id);
      }

      @Override
      public void onContainerStatusReceived(ContainerId id, ContainerStatus status) {}

      @Override
      public void onContainerStopped(ContainerId id) {}

      @Override
      public void onContainerResourceIncreased(ContainerId id, Resource r) {}

      @Override
      public void onContainerResourceUpdated(ContainerId id, Resource r) {}

      @Override
      public void onGetContainerStatusError(ContainerId id, Throwable t) {}

      @Override
      public void onIncreaseContainerResourceError(ContainerId id, Throwable t) {}

      @Override
      public void onUpdateContainerResourceError(ContainerId id, Throwable t) {}

      @Override
      public void onStopContainerError(ContainerId id, Throwable t) {}
    };

    @Override
    public void onContainersCompleted(List<ContainerStatus> statuses) {
      protocol.onContainersCompleted(statuses);
    }

    @Override
    public void onContainersAllocated(List<Container> containers) {
      protocol.onContainersAllocated(containers);
    }

    @Override
    public void onContainersUpdated(List<UpdatedContainer> containers) {}

    @Override
    public void onShutdownRequest() {
      protocol.abort("the ResourceManager asked the ApplicationMaster to shut down");
    }

    @Override
    public void onNodesUpdated(List<NodeReport> nodes) {}

    @Override
    public float getProgress() {
      RoundProtocol p = protocol;
      return p == null ? 0 : p.progress();
    }

    @Override
    public void onError(Throwable e) {
      protocol.abort("ResourceManager connection failed: " + e);
    }
  }
}
