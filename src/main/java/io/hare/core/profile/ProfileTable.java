package io.hare.core.profile;

import io.hare.core.GpuType;
import io.hare.core.TaskTimes;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Immutable table of task times per (model, GPU type). A missing entry means the model does not
 * run on that type (e.g. it does not fit in its memory); policies never place it there.
 */
public final class ProfileTable implements TaskTimeModel {

  private final Map<String, Map<GpuType, TaskTimes>> byModel;

  private ProfileTable(Map<String, Map<GpuType, TaskTimes>> byModel) {
    this.byModel = byModel;
  }

  public static Builder builder() {
    return new Builder();
  }

  @Override
  public TaskTimes times(String model, GpuType type) {
    Map<GpuType, TaskTimes> m = byModel.get(model);
    return m == null ? null : m.get(type);
  }

  public Set<String> models() {
    return byModel.keySet();
  }

  /** Per-type times of one model (empty if unknown), in insertion order. */
  public Map<GpuType, TaskTimes> forModel(String model) {
    return byModel.getOrDefault(model, Map.of());
  }

  public boolean hasModel(String model) {
    return byModel.containsKey(model);
  }

  /** Accumulates entries; the last value given for a (model, type) wins. */
  public static final class Builder {
    private final Map<String, Map<GpuType, TaskTimes>> m = new LinkedHashMap<>();

    public Builder put(String model, GpuType type, TaskTimes times) {
      m.computeIfAbsent(model, k -> new LinkedHashMap<>()).put(type, times);
      return this;
    }

    public Builder put(String model, String type, double computeMs, double syncMs) {
      return put(model, GpuType.of(type), new TaskTimes(computeMs, syncMs));
    }

    public ProfileTable build() {
      Map<String, Map<GpuType, TaskTimes>> copy = new LinkedHashMap<>();
      m.forEach((k, v) -> copy.put(k, Collections.unmodifiableMap(new LinkedHashMap<>(v))));
      return new ProfileTable(Collections.unmodifiableMap(copy));
    }
  }
}
