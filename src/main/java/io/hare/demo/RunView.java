package io.hare.demo;

import io.hare.embedded.ClusterFaults;
import io.hare.embedded.EmbeddedCluster;
import io.hare.embedded.TaskEvents;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainer;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainerState;

/**
 * What a {@link DemoRun} shows an {@link Injection} while its jobs run: the cluster and what to
 * break in it, the jobs submitted so far and what their processes recorded. Only the run's own
 * thread calls it.
 */
public interface RunView {

  EmbeddedCluster cluster();

  ClusterFaults faults();

  /** The jobs submitted so far, in submission order, with their application ids. */
  Map<DemoJob, ApplicationId> submitted();

  /** What the job's task and sync processes have recorded so far. */
  TaskEvents.Runs events(DemoJob job) throws IOException;

  /** The ResourceManager's application of a submitted job (the RM running now). */
  default RMApp app(DemoJob job) {
    return cluster().rm().getRMContext().getRMApps().get(submitted().get(job));
  }

  /**
   * The job's task attempts running now: started, not ended, and their container live in the
   * ResourceManager (an attempt whose container was lost or killed never records an end).
   */
  default List<TaskEvents.Attempt> running(DemoJob job) throws IOException {
    List<TaskEvents.Attempt> out = new ArrayList<>();
    for (TaskEvents.Attempt a : events(job).attempts()) {
      if (!a.ended()) {
        RMContainer c = cluster().rm().getResourceScheduler().getRMContainer(
            ContainerId.fromString(a.containerId()));
        if (c != null && c.getState() != RMContainerState.COMPLETED) {
          out.add(a);
        }
      }
    }
    return out;
  }

  /** Whether a submitted job's application has ended (finished, failed or killed). */
  default boolean ended(DemoJob job) {
    RMApp a = app(job);
    return a == null || switch (a.getState()) {
      case FINISHED, FAILED, KILLED -> true;
      default -> false;
    };
  }
}
