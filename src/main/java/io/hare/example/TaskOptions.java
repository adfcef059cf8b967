package io.hare.example;

import io.hare.core.BadInputException;
import picocli.CommandLine.Option;

/** The options of a task's work, shared by {@code task} (one task) and {@code worker} (many). */
final class TaskOptions {

  @Option(names = "--type-factors", paramLabel = "TYPE=FACTOR,...",
      description = {"Demo only: emulate slower GPU types by repeating the gradient computation "
          + "FACTOR times on a node whose HARE_GPU_TYPE is TYPE (e.g. v100=1,t4=2.2,k80=6.9). "
          + "Off by default; never changes the result."})
  String typeFactors;

  @Option(names = "--base-repeats", defaultValue = "1", paramLabel = "N",
      description = "Demo only: gradient computations at factor 1 (${DEFAULT-VALUE}).")
  int baseRepeats;

  @Option(names = "--gpu-ms", defaultValue = "0", paramLabel = "MS",
      description = {"Demo only: pace the emulated GPU instead of repeating work: compute the "
          + "gradient --base-repeats times on any type, then hold the GPU until FACTOR x MS "
          + "have passed (0, the default: off)."})
  long gpuMs;

  @Option(names = "--work-dir", paramLabel = "DIR",
      description = {"The job's data directory (what init wrote); wins over HARE_WORK_DIR, "
          + "which is the AM's staging directory when the job runs under Hare."})
  String workDir;

  /** The GPU emulation the options ask for; off without them. */
  GpuEmulation emulation() throws BadInputException {
    return GpuEmulation.parse(typeFactors, baseRepeats, gpuMs, "--type-factors");
  }
}
