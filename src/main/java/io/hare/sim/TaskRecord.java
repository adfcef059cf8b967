package io.hare.sim;

/**
 * One task as it ran in a simulation.
 *
 * @param startMs the GPU is taken (a switch, if any, runs from here)
 * @param computeStartMs compute begins (after the switch)
 * @param computeEndMs compute ends and the GPU is free
 * @param syncEndMs the task's gradient is applied; the round ends at the max of these
 */
public record TaskRecord(String jobId, int round, int index, String gpuId, String gpuType,
    long startMs, long computeStartMs, long computeEndMs, long syncEndMs) {

  public boolean switched() {
    return computeStartMs > startMs;
  }
}
