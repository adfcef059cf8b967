package io.hare.yarn.app;

import io.hare.core.TaskContract;
import io.hare.worker.ResidentWorker;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.hadoop.yarn.api.ApplicationConstants;
import org.apache.hadoop.yarn.api.ApplicationConstants.Environment;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.ContainerLaunchContext;
import org.apache.hadoop.yarn.api.records.LocalResource;
import org.apache.hadoop.yarn.api.records.Priority;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.ResourceInformation;
import org.apache.hadoop.yarn.client.api.AMRMClient.ContainerRequest;
import org.apache.hadoop.yarn.exceptions.ResourceNotFoundException;

/**
 * What a task container asks for and runs: the container request (memory, vcores and
 * {@code yarn.io/gpu}, anywhere) and the launch context (the task command under bash with the
 * {@link TaskEnv} variables and the container {@code CLASSPATH}, stdout and stderr in the
 * container's log directory, the job's localized files).
 */
public final class TaskLaunch {

  /** All task asks share one priority: only one round asks at a time. */
  static final Priority PRIORITY = Priority.newInstance(1);
  /** The variables naming the task channel's host and port. */
  static final String RUNNER_HOST = ResidentWorker.RUNNER_HOST;
  static final String RUNNER_PORT = ResidentWorker.RUNNER_PORT;

  private final HareJobSpec spec;
  private final Map<String, LocalResource> resources;
  /** The tokens of a container launched now (null, or null from it: none). */
  private final Supplier<ByteBuffer> tokens;
  private final String classpath;
  /** The task channel of warm containers; null: one task each. */
  private final Channel channel;

  /**
   * Where warm containers' runners reach the AM's task channel ({@link RunnerServer}): its host
   * and port, given to them as {@code HARE_RUNNER_HOST} and {@code HARE_RUNNER_PORT}, and the
   * keys that give each container its own ({@link #withChannelKey}).
   */
  record Channel(String host, int port, ChannelKeys keys) {}

  /** A launch that sets no {@code CLASSPATH}. */
  public TaskLaunch(HareJobSpec spec, Map<String, LocalResource> resources,
      Supplier<ByteBuffer> tokens) {
    this(spec, resources, tokens, "");
  }

  /**
   * @param resources the job's localized files, by link name
   * @param tokens the credentials of a container launched now, asked at each launch: a launch
   *     after the AM refreshed its tokens carries the new ones (null, or null from it: none)
   * @param classpath the tasks' {@code CLASSPATH} ({@link ContainerClasspath#of}), unless the
   *     spec's env sets one; empty for none
   */
  public TaskLaunch(HareJobSpec spec, Map<String, LocalResource> resources,
      Supplier<ByteBuffer> tokens, String classpath) {
    this(spec, resources, tokens, classpath, null);
  }

  /**
   * @param channel the AM's task channel: each container then runs the job's tasks one after
   *     another as the AM hands them out, as new processes under {@link TaskRunnerScript} or, in
   *     {@link TaskMode#RESIDENT}, in the job's worker; null: each container runs one task
   */
  TaskLaunch(HareJobSpec spec, Map<String, LocalResource> resources,
      Supplier<ByteBuffer> tokens, String classpath, Channel channel) {
    this.spec = spec;
    this.resources = Map.copyOf(resources);
    this.tokens = tokens;
    this.classpath = classpath;
    this.channel = channel;
  }

  /** Whether containers run several tasks of the job (warm containers). */
  boolean warm() {
    return channel != null;
  }

  /**
   * One task container's ask, on any node, under its own allocation request id.
   *
   * @throws IllegalStateException if the cluster does not declare {@code yarn.io/gpu}
   */
  public ContainerRequest request(long allocationRequestId) {
    Resource r = Resource.newInstance(spec.taskMemoryMb(), spec.taskVcores());
    try {
      r.setResourceValue(ResourceInformation.GPU_URI, spec.taskGpus());
    } catch (ResourceNotFoundException e) {
      throw new IllegalStateException("the cluster does not declare the resource type "
          + ResourceInformation.GPU_URI + " (resource-types.xml); Hare tasks need it", e);
    }
    return ContainerRequest.newBuilder().capability(r).priority(PRIORITY)
        .allocationRequestId(allocationRequestId).relaxLocality(true).build();
  }

  public ContainerLaunchContext context(Map<String, String> env) {
    String log = ApplicationConstants.LOG_DIR_EXPANSION_VAR;
    // a resident worker speaks the task channel itself; a task process needs the bash runner
    String script = warm() && spec.taskMode() == TaskMode.PROCESS
        ? TaskRunnerScript.of(spec.taskCommand()) : spec.taskCommand();
    String command = "bash -c " + forLaunchScript(quote(script)) + " 1>" + log
        + "/stdout 2>" + log + "/stderr";
    ByteBuffer now = tokens == null ? null : tokens.get();
    ByteBuffer t = now == null ? null : now.duplicate();
    Map<String, String> full = new HashMap<>(env);
    if (!classpath.isEmpty() && !env.containsKey(Environment.CLASSPATH.name())) {
      full.put(Environment.CLASSPATH.name(), classpath);
    }
    if (spec.taskMode() == TaskMode.RESIDENT && full.containsKey(TaskContract.GPU_DEVICE)) {
      // a resident worker outlives its first task, and a later one may run on another device of
      // the node (after a park): it picks the device per task (HARE_GPU_DEVICE, then the run
      // line), so its launch environment must not hide the node's other GPUs
      full.remove(TaskContract.CUDA_VISIBLE_DEVICES);
    }
    if (warm()) {
      full.put(RUNNER_HOST, channel.host());
      full.put(RUNNER_PORT, Integer.toString(channel.port()));
    }
    return ContainerLaunchContext.newInstance(resources, full, List.of(command), null, t, null);
  }

  /**
   * The launch context of a standby container (pre-launched without its GPU, for a task the AM
   * hands it later): {@link #context} plus {@value TaskRunnerScript#STANDBY}, so that its runner
   * waits for a task instead of running one.
   *
   * @throws IllegalStateException if containers run one task each: only a runner can wait
   */
  ContainerLaunchContext standbyContext(Map<String, String> env) {
    if (!warm()) {
      throw new IllegalStateException("a standby container needs the task runner server (task"
          + " reuse); this job's containers run one task each");
    }
    Map<String, String> full = new HashMap<>(env);
    full.put(TaskRunnerScript.STANDBY, "1");
    return context(full);
  }

  /**
   * {@code context}, made for {@code container}, with that container's task channel key added to
   * its tokens ({@link ChannelKeys#tokens}): the NodeManager puts it in the container's private
   * credentials file, not in its environment or launch script. Unchanged without a channel. The
   * tokens are those {@code context} was made with, so that one launch carries one generation.
   */
  ContainerLaunchContext withChannelKey(ContainerId container, ContainerLaunchContext context) {
    if (warm()) {
      context.setTokens(channel.keys().tokens(container, context.getTokens()));
    }
    return context;
  }

  /**
   * {@code s} escaped for the NodeManager's launch script, which runs a container's command as
   * {@code exec /bin/bash -c "COMMAND"} without escaping it: inside those double quotes a
   * {@code "}, {@code $}, backquote or backslash of the task command would be taken by the outer
   * shell.
   */
  static String forLaunchScript(String s) {
    StringBuilder b = new StringBuilder(s.length() + 8);
    for (char c : s.toCharArray()) {
      if (c == '"' || c == '$' || c == '`' || c == '\\') {
        b.append('\\');
      }
      b.append(c);
    }
    return b.toString();
  }

  /** {@code s} as one single-quoted bash word. */
  static String quote(String s) {
    return "'" + s.replace("'", "'\\''") + "'";
  }
}
