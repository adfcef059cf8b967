package io.hare.sim.workload;

import io.hare.core.BadInputException;
import io.hare.core.ClusterSpec;
import io.hare.core.CsvInput;
import io.hare.core.GpuType;
import io.hare.core.JobSpec;
import io.hare.core.profile.ProfileCsv;
import io.hare.core.profile.ProfileTable;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.stream.Collectors;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;

/**
 * JOBS.csv and PROFILES.csv as {@code hare simulate --jobs-file/--profiles-file} read them.
 *
 * <p>JOBS.csv has the header {@code job_id,arrival_s,weight,model,tasks_per_round,rounds}: a
 * unique id, the arrival in seconds from the start (&gt;= 0, fractions allowed, rounded to ms),
 * a finite weight &gt; 0, the profile name, the scale k and the number of rounds (integers &gt;=
 * 1). An optional column {@code queue} names the job's queue ({@code default} when the column
 * or the value is missing); {@link #checkQueues} refuses a queue that is not configured.
 * PROFILES.csv is {@link ProfileCsv}. Both are read by {@link CsvInput} (columns in any
 * order, {@code #} comments, extra columns ignored); every error names file, line and field.
 * A job whose model has no row at all in PROFILES.csv is refused while reading; whether the
 * model can run on a given cluster is {@link #checkRunnable}'s business, since the files do not
 * know the cluster.
 *
 * <p>{@link #read} remembers, for the workload it returns, the line of each job, so that
 * {@link #checkRunnable} can point at it; for a workload that did not come from {@link #read} it
 * names the job id instead. Thread-safe.
 */
public final class WorkloadFiles {

  public static final String JOB_ID = "job_id";
  public static final String ARRIVAL_S = "arrival_s";
  public static final String WEIGHT = "weight";
  public static final String MODEL = "model";
  public static final String TASKS_PER_ROUND = "tasks_per_round";
  public static final String ROUNDS = "rounds";
  public static final String QUEUE = "queue";
  public static final List<String> HEADER =
      List.of(JOB_ID, ARRIVAL_S, WEIGHT, MODEL, TASKS_PER_ROUND, ROUNDS);

  /** "file:line" of each job, by the profile table (compared by identity) of its workload. */
  private static final Map<ProfileTable, Map<JobSpec, String>> ORIGIN =
      Collections.synchronizedMap(new WeakHashMap<>());

  private WorkloadFiles() {}

  public static Workload read(Path jobsCsv, Path profilesCsv)
      throws IOException, BadInputException {
    ProfileTable profiles = ProfileCsv.read(profilesCsv);
    List<JobSpec> jobs = new ArrayList<>();
    Map<JobSpec, String> origin = new HashMap<>();
    Map<String, Long> idLine = new HashMap<>();
    try (CsvInput in = CsvInput.open(jobsCsv, HEADER)) {
      for (CsvInput.Row row = in.next(); row != null; row = in.next()) {
        String id = row.text(JOB_ID);
        Long first = idLine.putIfAbsent(id, row.line());
        if (first != null) {
          throw row.error(JOB_ID, "job id '" + id + "' is already used on line " + first
              + "; ids must be unique");
        }
        double arrivalS = row.number(ARRIVAL_S, 0, true, "seconds");
        double weight = row.number(WEIGHT, 0, false, "");
        String model = row.text(MODEL);
        if (!profiles.hasModel(model)) {
          throw row.error(MODEL, "no profile for model '" + model + "' in " + profilesCsv
              + "; it has: " + list(new ArrayList<>(profiles.models())));
        }
        int k = (int) row.integer(TASKS_PER_ROUND, 1, Integer.MAX_VALUE);
        int rounds = (int) row.integer(ROUNDS, 1, Integer.MAX_VALUE);
        String queue = row.raw(QUEUE);
        JobSpec job = new JobSpec(id, Math.round(arrivalS * 1000), weight, model, k, rounds,
            queue.isEmpty() ? JobSpec.DEFAULT_QUEUE : queue);
        jobs.add(job);
        origin.put(job, row.file() + ":" + row.line());
      }
    }
    ORIGIN.put(profiles, origin);
    return new Workload(jobsCsv.toString(), jobs, profiles);
  }

  /**
   * Refuses a workload with a job that could never run on {@code cluster}: its model has no
   * profile on any GPU type the cluster has, or its scale k exceeds the GPUs of those types (a
   * gang policy needs k of them at once and would never start it).
   *
   * @throws BadInputException naming the job's file and line (or its id), the model and the
   *     cluster's types
   */
  public static void checkRunnable(Workload workload, ClusterSpec cluster)
      throws BadInputException {
    Map<JobSpec, String> origin = ORIGIN.getOrDefault(workload.profiles(), Map.of());
    for (JobSpec j : workload.jobs()) {
      List<GpuType> usable = new ArrayList<>();
      int gpus = 0;
      for (GpuType t : cluster.types()) {
        if (cluster.count(t) > 0 && workload.profiles().times(j.model(), t) != null) {
          usable.add(t);
          gpus += cluster.count(t);
        }
      }
      String where = origin.get(j);
      String prefix = where == null ? "job '" + j.id() + "': " : where + ": ";
      if (usable.isEmpty()) {
        throw new BadInputException(prefix + "field '" + MODEL + "': model '" + j.model()
            + "' has no profile on any GPU type of the cluster (" + cluster + "); it has"
            + " profiles on: " + list(workload.profiles().forModel(j.model()).keySet().stream()
                .map(GpuType::name).collect(Collectors.toList())));
      }
      if (j.tasksPerRound() > gpus) {
        throw new BadInputException(prefix + "field '" + TASKS_PER_ROUND + "': " + j.tasksPerRound()
            + " tasks per round, but model '" + j.model() + "' can run on only " + gpus
            + " GPUs of the cluster (" + cluster + ": types " + list(usable.stream()
                .map(GpuType::name).collect(Collectors.toList())) + "); at most " + gpus);
      }
    }
  }

  /**
   * Refuses a workload with a job whose queue is not among {@code queues} (the configured ones,
   * {@code default} first).
   *
   * @param how where the queues come from, for the message (e.g. the keys to set)
   * @throws BadInputException naming the job's file and line (or its id), its queue and the
   *     configured queues
   */
  public static void checkQueues(Workload workload, Collection<String> queues, String how)
      throws BadInputException {
    Map<JobSpec, String> origin = ORIGIN.getOrDefault(workload.profiles(), Map.of());
    for (JobSpec j : workload.jobs()) {
      if (!queues.contains(j.queue())) {
        String where = origin.get(j);
        throw new BadInputException((where == null ? "job '" + j.id() + "': " : where + ": ")
            + "field '" + QUEUE + "': queue '" + j.queue() + "' is not configured; the queues"
            + " are " + String.join(", ", queues) + " (" + how + ")");
      }
    }
  }

  /** Writes the jobs and profiles of {@code w} in the formats {@link #read} reads. */
  public static void write(Workload w, Path jobsCsv, Path profilesCsv) throws IOException {
    ProfileCsv.write(w.profiles(), profilesCsv);
    try (Writer out = Files.newBufferedWriter(jobsCsv, StandardCharsets.UTF_8)) {
      // the queue column only when a job is outside default, so one-queue files stay as they were
      boolean queues = w.jobs().stream().anyMatch(j -> !j.queue().equals(JobSpec.DEFAULT_QUEUE));
      List<String> header = new ArrayList<>(HEADER);
      if (queues) {
        header.add(QUEUE);
      }
      CSVPrinter p = new CSVPrinter(out, CSVFormat.DEFAULT.builder()
          .setHeader(header.toArray(new String[0])).setRecordSeparator('\n').get());
      for (JobSpec j : w.jobs()) {
        List<Object> r = new ArrayList<>(List.of(j.id(),
            CsvInput.formatNumber(j.arrivalMs() / 1000.0), CsvInput.formatNumber(j.weight()),
            j.model(), j.tasksPerRound(), j.rounds()));
        if (queues) {
          r.add(j.queue());
        }
        p.printRecord(r);
      }
      p.flush();
    }
  }

  private static String list(List<String> names) {
    if (names.isEmpty()) {
      return "none";
    }
    int shown = Math.min(names.size(), 12);
    return String.join(", ", names.subList(0, shown))
        + (shown < names.size() ? ", ... (" + names.size() + " in all)" : "");
  }
}
