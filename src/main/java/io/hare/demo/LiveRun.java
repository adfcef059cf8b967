package io.hare.demo;

import io.hare.embedded.ClusterFaults;
import io.hare.embedded.EmbeddedCluster;
import io.hare.embedded.TaskEvents;
import java.io.File;
import java.io.IOException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.hadoop.yarn.api.records.ApplicationId;

/** The {@link RunView} of a {@link DemoRun} in progress. Not thread-safe. */
final class LiveRun implements RunView {

  private final EmbeddedCluster cluster;
  private final ClusterFaults faults;
  private final Map<String, File> workDirs;
  private final Map<DemoJob, ApplicationId> submitted = new LinkedHashMap<>();

  /** @param workDirs each job's work directory, by job name */
  LiveRun(EmbeddedCluster cluster, Map<String, File> workDirs) {
    this.cluster = cluster;
    this.faults = new ClusterFaults(cluster);
    this.workDirs = workDirs;
  }

  void submitted(DemoJob job, ApplicationId id) {
    submitted.put(job, id);
  }

  @Override
  public EmbeddedCluster cluster() {
    return cluster;
  }

  @Override
  public ClusterFaults faults() {
    return faults;
  }

  @Override
  public Map<DemoJob, ApplicationId> submitted() {
    return Collections.unmodifiableMap(submitted);
  }

  @Override
  public TaskEvents.Runs events(DemoJob job) throws IOException {
    return TaskEvents.read(DemoRun.eventsFile(workDirs.get(job.name())));
  }
}
