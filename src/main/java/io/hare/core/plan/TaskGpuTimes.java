package io.hare.core.plan;

/** A flattened instance's task times per GPU, in milliseconds, as the CP-SAT models read them. */
interface TaskGpuTimes {

  int gpuCount();

  /** Whether task {@code t} can run on GPU {@code m}. */
  boolean eligible(int t, int m);

  long compute(int t, int m);

  long sync(int t, int m);

  /** The models' unit of time: every time of the instance is a multiple of it. */
  long tickMs();
}
