package io.hare.sim.workload;

import io.hare.core.ClusterSpec;
import java.util.Map;

/** The paper's setting (HPDC '22 section 7): 8 models in 4 categories, V100/T4/K80/M60. */
public final class PaperWorkload {

  private PaperWorkload() {}

  /**
   * @param settings {@code yarn.hare.sim.paper.*} overrides of the documented distributions
   */
  public static Workload generate(ClusterSpec cluster, int jobs, long seed,
      Map<String, String> settings) {
    throw new UnsupportedOperationException("not built yet");
  }
}
