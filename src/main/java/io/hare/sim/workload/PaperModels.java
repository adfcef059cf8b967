package io.hare.sim.workload;

import io.hare.core.GpuType;
import java.util.List;

/**
 * The eight models of the Hare paper's evaluation (HPDC '22 Table 2) with per-GPU-type
 * mini-batch times rebuilt from the numbers the paper publishes. The paper releases no table
 * of task times (PAPER-NOTES section 5); this is how we rebuild one.
 *
 * <p><b>V100 time of one mini-batch.</b> Table 3 gives, per model, Hare's average switch time
 * t_sw and its share p of the task time. Since the "Default" row reaches 98% the share is
 * t_sw / (t_sw + compute), so compute = t_sw (1/p - 1): VGG19 149 ms, ResNet50 53 ms,
 * InceptionV3 170 ms, BERT-base 440 ms, Transformer 420 ms, DeepSpeech 337 ms, FastGCN 39 ms,
 * GraphSAGE 28 ms. The paper does not name the GPU of Table 3; we take it as the V100, which is
 * 8 of its 15 testbed GPUs.
 *
 * <p><b>Other types.</b> The time on type t is the V100 time x speed-up(V100) / speed-up(t), with
 * the speed-ups over K80 read from the paper's Fig. 2 (DESIGN.md table). Models without a row of
 * their own use the nearest one: VGG19 -&gt; ResNet152 (a deep, compute-bound CNN), InceptionV3
 * -&gt; ResNet50 (a CNN of similar FLOPs), BERT-base -&gt; Transformer (BERT is a Transformer
 * encoder), DeepSpeech -&gt; LSTM (a recurrent speech model), FastGCN -&gt; GraphSAGE (a graph
 * network on Cora, bound by input preprocessing like GraphSAGE).
 */
public final class PaperModels {

  /** The paper's four workload categories (Table 2), in the order of its job-mix ratios. */
  public enum Category { CV, NLP, SPEECH, REC }

  /** The GPU types of the paper's testbed, in the order of the speed-up arrays. */
  public static final List<GpuType> TYPES = List.of(GpuType.of("k80"), GpuType.of("m60"),
      GpuType.of("t4"), GpuType.of("v100"));

  /** Fig. 2 speed-ups over K80, in {@link #TYPES} order (K80 = 1). */
  private static final double[] RESNET50 = {1, 1.5, 2.2, 6.9};
  private static final double[] RESNET152 = {1, 1.4, 2.15, 6.75};
  private static final double[] GRAPHSAGE = {1, 1.2, 1.95, 2.2};
  private static final double[] LSTM = {1, 1.4, 1.7, 4.1};
  private static final double[] TRANSFORMER = {1, 1.25, 1.8, 5.55};

  /**
   * One model.
   *
   * @param name profile name
   * @param switchMs Hare's average switch time (Table 3)
   * @param switchShare its share of the task time, a fraction (Table 3)
   * @param speedups Fig. 2 row used, in {@link #TYPES} order
   */
  public record Model(String name, Category category, double switchMs, double switchShare,
      double[] speedups) {

    /** Compute time of one mini-batch on a V100, ms. */
    public double v100BatchMs() {
      return switchMs * (1 / switchShare - 1);
    }

    /** Compute time of one mini-batch on {@code type}, ms, or NaN if not a paper type. */
    public double batchMs(GpuType type) {
      int i = TYPES.indexOf(type);
      return i < 0 ? Double.NaN : v100BatchMs() * speedups[3] / speedups[i];
    }
  }

  public static final List<Model> MODELS = List.of(
      new Model("vgg19", Category.CV, 2.77, 0.0182, RESNET152),
      new Model("resnet50", Category.CV, 2.04, 0.0371, RESNET50),
      new Model("inception-v3", Category.CV, 2.46, 0.0143, RESNET50),
      new Model("bert-base", Category.NLP, 5.03, 0.0113, TRANSFORMER),
      new Model("transformer", Category.NLP, 5.79, 0.0136, TRANSFORMER),
      new Model("deepspeech", Category.SPEECH, 4.27, 0.0125, LSTM),
      new Model("fastgcn", Category.REC, 1.83, 0.0453, GRAPHSAGE),
      new Model("graphsage", Category.REC, 0.96, 0.0336, GRAPHSAGE));

  private PaperModels() {}

  /** Models of one category, in table order. */
  public static List<Model> of(Category c) {
    return MODELS.stream().filter(m -> m.category() == c).toList();
  }

  /**
   * Category of a paper profile name, with or without the {@code -xN} task-size suffix the
   * workload adds; null for other names.
   */
  public static Category categoryOf(String profileName) {
    String base = profileName.replaceFirst("-x\\d+$", "");
    for (Model m : MODELS) {
      if (m.name().equals(base)) {
        return m.category();
      }
    }
    return null;
  }
}
