package io.hare.demo;

import io.hare.core.profile.ProfileTable;
import io.hare.example.ContainerJava;
import io.hare.example.Env;
import io.hare.example.SgdJob;
import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The profile the demo's scheduler starts from ({@code yarn.scheduler.hare.profiles.file}): per
 * model and GPU type, the time of one task process on this machine with every emulated GPU busy.
 * The demo's tasks are paced ({@code SgdJob task --gpu-ms}, {@code io.hare.example.GpuEmulation}):
 * a task holds its GPU for slowdown x gpuMs after it has started. {@link #calibrate} times real
 * task processes of the example job, as the demo runs them, to learn their start-up and end,
 * which is CPU work: divided by the share of a core a process gets when every GPU's process
 * starts at once (the emulated GPUs share the machine's cores). It is only the prior: the
 * scheduler refines it from the containers it sees finish, as it would refine an admin's
 * profile on a real cluster.
 *
 * @param startupMs a task process's start-up and end, alone on the machine
 * @param share the share of a core a task gets with every GPU busy, in (0, 1]
 * @param syncMs the sync step off the GPU plus the AM's round trip, at that share
 */
public record DemoProfiles(double startupMs, double share, long syncMs) {

  /**
   * Times two task processes of the example job in {@code dir} (a few seconds) and sizes the
   * share for {@code gpus} emulated GPUs on this machine's cores.
   *
   * @param heartbeatMs the AMs' and NodeManagers' heartbeat interval (a barrier costs about two)
   */
  public static DemoProfiles calibrate(File dir, int gpus, int heartbeatMs)
      throws IOException, InterruptedException {
    File job = new File(dir, "calibration");
    org.apache.hadoop.fs.FileUtil.fullyDelete(job);
    StringWriter out = new StringWriter();
    int code = SgdJob.commandLine(new PrintWriter(out), new PrintWriter(out), Env.SYSTEM)
        .execute("init", "--work-dir", job.getAbsolutePath(), "--seed", "1");
    if (code != SgdJob.OK) {
      throw new IOException("calibration: SgdJob init failed: " + out);
    }
    double few = Math.min(time(job), time(job));
    double share = Math.min(1.0, Runtime.getRuntime().availableProcessors() / (gpus + 1.0));
    long sync = Math.round(few / share + 2.0 * heartbeatMs);
    return new DemoProfiles(few, share, sync);
  }

  /** Wall time of one task process computing its gradient once, unpaced, ms. */
  private static double time(File job) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx128m"));
    cmd.addAll(List.of(ContainerJava.LEAN_OPTS.split(" ")));
    cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), SgdJob.class.getName(),
        "task", "--work-dir", job.getAbsolutePath()));
    ProcessBuilder pb = new ProcessBuilder(cmd);
    pb.environment().put("HARE_JOB_ID", "calibration");
    pb.environment().put("HARE_ROUND", "0");
    pb.environment().put("HARE_TASK_INDEX", "0");
    pb.environment().put("HARE_TASKS_PER_ROUND", "1");
    pb.environment().put("HARE_GPU_TYPE", "v100");
    pb.redirectErrorStream(true);
    long t0 = System.nanoTime();
    Process p = pb.start();
    p.getInputStream().readAllBytes();
    if (p.waitFor() != 0) {
      throw new IOException("calibration: a task process exited " + p.exitValue());
    }
    return (System.nanoTime() - t0) / 1e6;
  }

  /**
   * The profile of resident workers ({@code yarn.app.hare.task.mode=resident}): a task starts no
   * process, so it costs its paced GPU time alone.
   */
  public DemoProfiles resident() {
    return new DemoProfiles(0, share, syncMs);
  }

  /**
   * Expected time of one task of {@code model} on {@code type}, every GPU busy, its GPU paced
   * at {@code gpuMs} on the fastest type.
   */
  public double taskMs(DemoModel model, String type, long gpuMs) {
    return startupMs / share + model.slowdown(type) * gpuMs;
  }

  /**
   * The profile of every demo model for tasks paced at {@code gpuMs}, in whole milliseconds: what
   * {@link #write} writes for the scheduler, and what the demo's prediction simulates.
   */
  public ProfileTable table(long gpuMs) {
    ProfileTable.Builder b = ProfileTable.builder();
    for (DemoModel m : DemoModel.ALL) {
      for (String type : DemoModel.TYPES) {
        b.put(m.name(), type, Math.round(taskMs(m, type, gpuMs)), syncMs);
      }
    }
    return b.build();
  }

  /** Writes the profiles CSV of every demo model for tasks paced at {@code gpuMs}. */
  public void write(Path file, long gpuMs) throws IOException {
    StringBuilder csv = new StringBuilder("model,gpu_type,compute_ms,sync_ms\n");
    ProfileTable table = table(gpuMs);
    table.models().forEach(m -> table.forModel(m).forEach((type, t) ->
        csv.append(String.format(Locale.ROOT, "%s,%s,%.0f,%.0f%n", m, type.name(),
            t.computeMs(), t.syncMs()))));
    Files.writeString(file, csv, StandardCharsets.UTF_8);
  }
}
