package io.hare.yarn.app;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.ContainerStatus;
import org.apache.hadoop.yarn.api.records.NodeReport;
import org.apache.hadoop.yarn.api.records.PreemptionContainer;
import org.apache.hadoop.yarn.api.records.PreemptionContract;
import org.apache.hadoop.yarn.api.records.PreemptionMessage;
import org.apache.hadoop.yarn.api.records.StrictPreemptionContract;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.UpdatedContainer;
import org.apache.hadoop.yarn.api.records.impl.pb.ContainerIdPBImpl;
import org.apache.hadoop.yarn.api.records.impl.pb.PreemptionContractPBImpl;
import org.apache.hadoop.yarn.api.records.impl.pb.StrictPreemptionContractPBImpl;
import org.apache.hadoop.yarn.client.api.async.AMRMClientAsync;
import org.apache.hadoop.yarn.client.api.async.NMClientAsync;
import org.apache.hadoop.yarn.proto.YarnProtos;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Forwards the YARN clients' callbacks to the {@link RoundProtocol}; {@link #protocol} is set
 * before the clients start. Progress is 0 until then.
 */
final class AmCallbacks extends AMRMClientAsync.AbstractCallbackHandler {

  private static final Logger LOG = LoggerFactory.getLogger(AmCallbacks.class);

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
    public void onContainerResourceUpdated(ContainerId id, Resource r) {
      LOG.debug("{} now holds {}", id, r);
    }

    @Override
    public void onGetContainerStatusError(ContainerId id, Throwable t) {}

    @Override
    public void onIncreaseContainerResourceError(ContainerId id, Throwable t) {}

    /**
     * A promoted standby's NodeManager did not take its new resource. The task runs all the
     * same (YARN's accounting is the ResourceManager's); only the node's enforcement of the GPU
     * may lag, so this is worth a warning, not a failure.
     */
    @Override
    public void onUpdateContainerResourceError(ContainerId id, Throwable t) {
      LOG.warn("the NodeManager of {} did not take its new resource: {}", id, t.toString());
    }

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

  /** Among them, standby containers the scheduler promoted (gave a GPU). */
  @Override
  public void onContainersUpdated(List<UpdatedContainer> containers) {
    protocol.onContainersUpdated(containers);
  }

  /**
   * Containers the ResourceManager wants back. The Hare scheduler asks with the negotiable
   * contract ("give these back when you choose"), which the AM honours at the end of each
   * container's current task; a strict contract (the RM will kill them) is honoured the same way,
   * as nothing better can be done before the kill.
   */
  @Override
  public void onPreemptionMessageReceived(PreemptionMessage message) {
    PreemptionContract negotiable = message.getContract();
    if (negotiable != null) {
      protocol.revoke(containers(negotiable));
    }
    StrictPreemptionContract strict = message.getStrictContract();
    if (strict != null) {
      protocol.revoke(containers(strict));
    }
  }

  /**
   * The containers of a strict contract, read from its protobuf where it has one (it always does
   * from the RM): the record's {@code getContainers()} puts PreemptionContainer records in a
   * HashSet, and their hashCode is protobuf's reflective one, whose first call in a JVM builds
   * YARN's protobuf descriptors, about 100 ms in a small AM JVM, in the middle of a task switch
   * (the scheduler asks a warm container back as another job's standby waits for its GPU).
   */
  static List<ContainerId> containers(StrictPreemptionContract strict) {
    if (strict instanceof StrictPreemptionContractPBImpl pb) {
      return ids(pb.getProto().getContainerList());
    }
    return ids(strict.getContainers());
  }

  /** The containers of a negotiable contract, read as the strict contract's are. */
  static List<ContainerId> containers(PreemptionContract contract) {
    if (contract instanceof PreemptionContractPBImpl pb) {
      return ids(pb.getProto().getContainerList());
    }
    return ids(contract.getContainers());
  }

  private static List<ContainerId> ids(List<YarnProtos.PreemptionContainerProto> protos) {
    List<ContainerId> ids = new ArrayList<>();
    for (YarnProtos.PreemptionContainerProto c : protos) {
      if (c.hasId()) {
        ids.add(new ContainerIdPBImpl(c.getId()));
      }
    }
    return ids;
  }

  private static List<ContainerId> ids(Set<PreemptionContainer> containers) {
    List<ContainerId> ids = new ArrayList<>();
    if (containers != null) {
      containers.forEach(c -> ids.add(c.getId()));
    }
    return ids;
  }

  @Override
  public void onShutdownRequest() {
    protocol.abort("the ResourceManager asked the ApplicationMaster to shut down");
  }

  @Override
  public void onNodesUpdated(List<NodeReport> nodes) {
    protocol.onNodesUpdated(nodes);
  }

  /**
   * AMRMClientAsync asks for the progress after each heartbeat's response, for the next
   * heartbeat: the protocol's timed work ({@link RoundProtocol#beforeHeartbeat}) rides on it, so
   * what it queues goes with that heartbeat.
   */
  @Override
  public float getProgress() {
    RoundProtocol p = protocol;
    if (p == null) {
      return 0;
    }
    p.beforeHeartbeat();
    return p.progress();
  }

  @Override
  public void onError(Throwable e) {
    // its stack once, here: the AM's exit line carries only the message
    LOG.warn("ResourceManager connection failed", e);
    protocol.abort("ResourceManager connection failed: " + e);
  }
}
