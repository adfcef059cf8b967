package io.hare.demo;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A model of the demo workload and how much slower each emulated GPU type runs it than a V100.
 * The slowdowns come from the Hare paper's Fig. 2 speed-ups over a K80 (ResNet-50 6.9x on a
 * V100 and 2.2x on a T4, so a T4 is 6.9 / 2.2 = 3.14x slower than a V100; GraphSAGE 2.2x and
 * 1.95x). The example job paces its tasks by them ({@code SgdJob task --type-factors
 * --gpu-ms}): a task on a slower type holds its emulated GPU that many times longer after
 * computing its gradient for real ({@code io.hare.example.GpuEmulation}). This is the demo's
 * only emulation.
 *
 * @param slowdowns factor per GPU type, each &gt;= 1, the fastest type 1
 */
public record DemoModel(String name, Map<String, Double> slowdowns) {

  public static final DemoModel RESNET50 = of("resnet50", 6.9, 2.2);
  public static final DemoModel TRANSFORMER = of("transformer", 5.55, 1.8);
  public static final DemoModel LSTM = of("lstm", 4.1, 1.7);
  public static final DemoModel GRAPHSAGE = of("graphsage", 2.2, 1.95);

  /** Every demo model. */
  public static final List<DemoModel> ALL = List.of(RESNET50, TRANSFORMER, LSTM, GRAPHSAGE);

  /** The GPU types the models know, fastest first. */
  public static final List<String> TYPES = List.of("v100", "t4", "k80");

  public DemoModel {
    slowdowns = Map.copyOf(slowdowns);
  }

  /** The demo model of that name. */
  public static DemoModel byName(String name) {
    return ALL.stream().filter(m -> m.name().equals(name)).findFirst().orElseThrow(
        () -> new IllegalArgumentException("no demo model '" + name + "'; there are "
            + ALL.stream().map(DemoModel::name).toList()));
  }

  /** From the speed-ups over a K80 of a V100 and a T4. */
  private static DemoModel of(String name, double v100OverK80, double t4OverK80) {
    Map<String, Double> s = new LinkedHashMap<>();
    s.put("v100", 1.0);
    s.put("t4", v100OverK80 / t4OverK80);
    s.put("k80", v100OverK80);
    return new DemoModel(name, s);
  }

  public double slowdown(String type) {
    Double f = slowdowns.get(type);
    if (f == null) {
      throw new IllegalArgumentException("model " + name + " has no slowdown for GPU type "
          + type + "; it knows " + TYPES);
    }
    return f;
  }

  /** The {@code --type-factors} value of the example job's task command. */
  public String typeFactors() {
    return TYPES.stream().map(t -> t + "=" + String.format(Locale.ROOT, "%.3f", slowdown(t)))
        .collect(Collectors.joining(","));
  }
}
