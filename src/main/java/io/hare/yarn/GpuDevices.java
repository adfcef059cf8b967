package io.hare.yarn;

import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.OptionalInt;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.api.records.ResourceInformation;
import org.apache.hadoop.yarn.conf.YarnConfiguration;

/**
 * How a GPU task container learns its device. YARN's NodeManager assigns devices only where its
 * GPU plugin isolates them per container ({@code yarn.nodemanager.resource-plugins} with
 * {@code yarn.io/gpu}: a devices cgroup that hides the other GPUs, or
 * {@code NVIDIA_VISIBLE_DEVICES} for a Docker container). Elsewhere ({@code yarn.io/gpu} as a
 * static count) every container sees every GPU, so the scheduler assigns each GPU container of
 * such a node a device index of its own and puts it on the container as the allocation tag
 * {@code hare.gpu-device=N}; the AM exports it to the task as {@code HARE_GPU_DEVICE} and
 * {@code CUDA_VISIBLE_DEVICES}. A container on an isolating node carries no such tag, and its
 * task sees the device as YARN exposes it.
 *
 * <p>A node says whether it isolates with the node attribute {@value #ISOLATION_ATTRIBUTE}
 * ({@code true} or {@code false}; centralized {@code rm.yarn.io} wins over distributed
 * {@code nm.yarn.io}); a node that does not say is taken as the scheduler's
 * {@code yarn.scheduler.hare.gpu-isolation.default} says (by default as the RM's own
 * configuration would set up a NodeManager: {@link #isolatedBy}).
 */
public final class GpuDevices {

  /** The node attribute stating whether a node's GPUs are isolated per container. */
  public static final String ISOLATION_ATTRIBUTE = "gpu-isolation";

  private static final String TAG = JobTags.PREFIX + "gpu-device=";
  /**
   * The tag of a standby container made for one busy GPU of its node: the device it is expected
   * to get ({@link #expected}). A hint, not an assignment: the container holds no GPU yet.
   */
  private static final String STANDBY_TAG = JobTags.PREFIX + "standby-device=";

  private GpuDevices() {}

  /** The allocation tag of device {@code index}. */
  public static String tag(int index) {
    if (index < 0) {
      throw new IllegalArgumentException("a device index is >= 0, got " + index);
    }
    return TAG + index;
  }

  /** The allocation tag of a standby expected to get device {@code index}. */
  public static String standbyTag(int index) {
    if (index < 0) {
      throw new IllegalArgumentException("a device index is >= 0, got " + index);
    }
    return STANDBY_TAG + index;
  }

  /**
   * The device a standby container was made for (its {@link #standbyTag}; null tags: none);
   * empty if none. Its worker may get ready on it (a CUDA context, its model) before its task.
   */
  public static OptionalInt expected(Collection<String> tags) {
    return index(tags, STANDBY_TAG);
  }

  /** {@code tags} (null: none) without any device tag, plus the tag of {@code index}. */
  public static Set<String> withDevice(Collection<String> tags, int index) {
    Set<String> out = withoutDevice(tags);
    out.add(tag(index));
    return out;
  }

  /** {@code tags} (null: none) without any device tag or standby hint. */
  public static Set<String> withoutDevice(Collection<String> tags) {
    Set<String> out = new LinkedHashSet<>();
    if (tags != null) {
      for (String t : tags) {
        if (!t.startsWith(TAG) && !t.startsWith(STANDBY_TAG)) {
          out.add(t);
        }
      }
    }
    return out;
  }

  /** The device index among a container's allocation tags (null: none); empty if none. */
  public static OptionalInt of(Collection<String> tags) {
    return index(tags, TAG);
  }

  /** The index of the first tag {@code prefix}N among {@code tags} (null: none); empty if none. */
  private static OptionalInt index(Collection<String> tags, String prefix) {
    if (tags != null) {
      for (String t : tags) {
        if (t.startsWith(prefix)) {
          try {
            int i = Integer.parseInt(t.substring(prefix.length()));
            if (i >= 0) {
              return OptionalInt.of(i);
            }
          } catch (NumberFormatException e) {
            // not a tag of ours after all: none
          }
        }
      }
    }
    return OptionalInt.empty();
  }

  /** Every device index among a container's allocation tags (null: none), in tag order. */
  public static Set<Integer> all(Collection<String> tags) {
    Set<Integer> out = new LinkedHashSet<>();
    if (tags != null) {
      for (String t : tags) {
        OptionalInt i = of(List.of(t));
        if (i.isPresent()) {
          out.add(i.getAsInt());
        }
      }
    }
    return out;
  }

  /** YARN's executor under which the GPU plugin isolates devices (named: the RM lacks it). */
  private static final String LINUX_EXECUTOR =
      "org.apache.hadoop.yarn.server.nodemanager.LinuxContainerExecutor";

  /**
   * Whether a NodeManager of {@code conf} isolates GPUs per container:
   * {@code yarn.nodemanager.resource-plugins} lists {@code yarn.io/gpu} and containers run under
   * the {@code LinuxContainerExecutor} (the GPU plugin's devices cgroup, or Docker's
   * {@code NVIDIA_VISIBLE_DEVICES}). Otherwise {@code yarn.io/gpu} is a static count and every
   * container sees every GPU.
   */
  public static boolean isolatedBy(Configuration conf) {
    boolean plugin = conf.getTrimmedStringCollection(YarnConfiguration.NM_RESOURCE_PLUGINS)
        .contains(ResourceInformation.GPU_URI);
    return plugin && conf.getTrimmed(YarnConfiguration.NM_CONTAINER_EXECUTOR, "")
        .equals(LINUX_EXECUTOR);
  }

  /**
   * The value of {@value #ISOLATION_ATTRIBUTE} as a boolean: null for a value that is neither
   * {@code true} nor {@code false} (any case).
   */
  public static Boolean isolation(String value) {
    String v = value == null ? "" : value.trim();
    return v.equalsIgnoreCase("true") ? Boolean.TRUE
        : v.equalsIgnoreCase("false") ? Boolean.FALSE : null;
  }
}
