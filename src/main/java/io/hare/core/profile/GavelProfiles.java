package io.hare.core.profile;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hare.core.BadInputException;
import io.hare.core.GpuType;
import io.hare.core.TaskTimes;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Per-step task times from Gavel's measured throughputs ({@code simulation_throughputs.json},
 * Narayanan et al., OSDI '20, MIT licence): K80, P100 and V100 for 26 (model, batch size) job
 * types. Immutable.
 *
 * <p><b>File.</b> {@code {type: {"('Model (batch size B)', s)": {"null": steps/s, ...}}}}, where
 * {@code s} is the number of workers (scale) and {@code "null"} the throughput of the job alone;
 * the other keys (two jobs sharing a GPU) are not used. Only the consolidated types
 * {@code k80, p100, v100} are read ({@code *_unconsolidated} spreads workers over servers).
 *
 * <p><b>Compute.</b> One step is one mini-batch on one GPU: {@code compute = 1000 / thr(1)} ms.
 *
 * <p><b>Sync.</b> Gavel's throughput at scale s counts the steps of all s workers (ResNet-18 on
 * K80 makes 4.8 steps/s alone and 26.9 with 8 workers), so one worker needs {@code s / thr(s)}
 * seconds per step at scale s. What a step costs beyond the isolated step is the price of
 * synchronising, so {@code sync = max(0, 1000 s / thr(s) - 1000 / thr(1))} ms, from scale 2, or
 * scale 4 when scale 2 is missing or 0 (0 marks a run that did not fit). The floor is needed
 * because some scale-2 runs are slightly faster per step than the scale-1 run (measurement noise).
 * Job types measured at scale 1 only (A3C, CycleGAN, Recommendation) get the median
 * sync/compute ratio of all derived entries ({@link #fallbackSyncShare()}) times their compute.
 * An entry whose scale-1 throughput is 0 or missing does not exist: the model cannot run there.
 *
 * <p><b>Names.</b> {@code "ResNet-50 (batch size 64)"} becomes {@code resnet-50-bs64}: lower
 * case, spaces to hyphens, the batch size as {@code -bsN}; job types without a batch size keep
 * their name ({@code a3c}, {@code cyclegan}). See {@link #modelName(String)}.
 *
 * <p><b>Tasks.</b> A task of n steps ({@link #table(int)}, {@link #forSteps}) computes for n
 * steps and syncs n times as long: it stands for n synchronous steps coarsened into one round, so
 * a job keeps the measured share of time it spends synchronising whatever n is.
 */
public final class GavelProfiles {

  /** The consolidated GPU types of the file, in the file's order. */
  public static final List<GpuType> TYPES =
      List.of(GpuType.of("k80"), GpuType.of("p100"), GpuType.of("v100"));

  private static final Pattern KEY = Pattern.compile("\\('(.+)', (\\d+)\\)");
  private static final Pattern BATCH = Pattern.compile("(.+?) \\(batch size (\\d+)\\)");

  private final Map<String, Map<GpuType, TaskTimes>> perStep;
  private final double fallbackSyncShare;

  private GavelProfiles(Map<String, Map<GpuType, TaskTimes>> perStep, double fallbackSyncShare) {
    this.perStep = perStep;
    this.fallbackSyncShare = fallbackSyncShare;
  }

  /** Reads Gavel's throughput file. */
  public static GavelProfiles read(Path json) throws IOException, BadInputException {
    try (InputStream in = Files.newInputStream(json)) {
      return parse(in, json.toString());
    } catch (NoSuchFileException e) {
      throw new BadInputException(json + ": no such file");
    }
  }

  /** Reads Gavel's throughput file from {@code in}; {@code source} names it in messages. */
  public static GavelProfiles parse(InputStream in, String source)
      throws IOException, BadInputException {
    JsonNode root;
    try {
      root = new ObjectMapper().readTree(in);
    } catch (JacksonException e) {
      throw new BadInputException(source + ": not valid JSON: " + e.getOriginalMessage(), e);
    }
    if (root == null || !root.isObject()) {
      throw new BadInputException(source + ": expected a JSON object of GPU types");
    }
    // job type -> GPU type -> scale -> throughput (steps/s over all workers)
    Map<String, Map<GpuType, Map<Integer, Double>>> thr = new TreeMap<>();
    for (GpuType type : TYPES) {
      JsonNode byJob = root.get(type.name());
      if (byJob == null || !byJob.isObject()) {
        throw new BadInputException(source + ": no object '" + type + "'; Gavel's file has one"
            + " per GPU type " + TYPES);
      }
      for (Iterator<Map.Entry<String, JsonNode>> it = byJob.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        Matcher m = KEY.matcher(e.getKey());
        String where = source + ": " + type + " / " + e.getKey();
        if (!m.matches()) {
          throw new BadInputException(where + ": key must look like \"('Model (batch size 64)',"
              + " 1)\"");
        }
        JsonNode alone = e.getValue().get("null");
        if (alone == null || !alone.isNumber() || !Double.isFinite(alone.asDouble())
            || alone.asDouble() < 0) {
          throw new BadInputException(where + ": field 'null' must be a throughput >= 0 (steps/s)");
        }
        thr.computeIfAbsent(modelName(m.group(1)), k -> new LinkedHashMap<>())
            .computeIfAbsent(type, k -> new TreeMap<>())
            .put(Integer.parseInt(m.group(2)), alone.asDouble());
      }
    }
    return derive(thr);
  }

  private static GavelProfiles derive(Map<String, Map<GpuType, Map<Integer, Double>>> thr) {
    Map<String, Map<GpuType, double[]>> derived = new TreeMap<>(); // {compute, sync or NaN}
    List<Double> shares = new ArrayList<>();
    thr.forEach((model, byType) -> byType.forEach((type, byScale) -> {
      double one = byScale.getOrDefault(1, 0.0);
      if (one <= 0) {
        return; // not measured alone on this type: the model does not run there
      }
      double compute = 1000.0 / one;
      double sync = Double.NaN;
      for (int s : new int[] {2, 4}) {
        double t = byScale.getOrDefault(s, 0.0);
        if (t > 0) {
          sync = Math.max(0, 1000.0 * s / t - compute);
          shares.add(sync / compute);
          break;
        }
      }
      derived.computeIfAbsent(model, k -> new LinkedHashMap<>()).put(type,
          new double[] {compute, sync});
    }));
    double share = median(shares);
    Map<String, Map<GpuType, TaskTimes>> out = new LinkedHashMap<>();
    derived.forEach((model, byType) -> {
      Map<GpuType, TaskTimes> m = new LinkedHashMap<>();
      byType.forEach((type, cs) -> m.put(type,
          new TaskTimes(cs[0], Double.isNaN(cs[1]) ? share * cs[0] : cs[1])));
      out.put(model, Collections.unmodifiableMap(m));
    });
    return new GavelProfiles(Collections.unmodifiableMap(out), share);
  }

  private static double median(List<Double> xs) {
    if (xs.isEmpty()) {
      return 0;
    }
    List<Double> s = new ArrayList<>(xs);
    Collections.sort(s);
    int n = s.size();
    return n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
  }

  /** Our name for a Gavel job type: {@code "Transformer (batch size 128)"} -> transformer-bs128. */
  public static String modelName(String gavelJobType) {
    String base = gavelJobType.trim();
    String batch = "";
    Matcher m = BATCH.matcher(base);
    if (m.matches()) {
      base = m.group(1);
      batch = "-bs" + m.group(2);
    }
    return base.toLowerCase(Locale.ROOT).replaceAll("\\s+", "-") + batch;
  }

  /** Model names, sorted. */
  public List<String> models() {
    return List.copyOf(perStep.keySet());
  }

  /** Times of one step of {@code model} on {@code type}, or null if it was not measured there. */
  public TaskTimes perStep(String model, GpuType type) {
    return perStep.getOrDefault(model, Map.of()).get(type);
  }

  /** Per-type times of one step of {@code model} (empty if unknown). */
  public Map<GpuType, TaskTimes> perStep(String model) {
    return perStep.getOrDefault(model, Map.of());
  }

  /** Sync/compute ratio given to job types that Gavel measured at scale 1 only. */
  public double fallbackSyncShare() {
    return fallbackSyncShare;
  }

  /** A task of {@code steps} steps: compute and sync both {@code steps} times one step's. */
  public static TaskTimes forSteps(TaskTimes perStep, int steps) {
    if (steps < 1) {
      throw new IllegalArgumentException("steps per task must be >= 1, got " + steps);
    }
    return new TaskTimes(perStep.computeMs() * steps, perStep.syncMs() * steps);
  }

  /** Every model under its own name, one task being {@code stepsPerTask} steps. */
  public ProfileTable table(int stepsPerTask) {
    ProfileTable.Builder b = ProfileTable.builder();
    perStep.forEach((model, byType) -> byType.forEach((type, t) ->
        b.put(model, type, forSteps(t, stepsPerTask))));
    return b.build();
  }
}
