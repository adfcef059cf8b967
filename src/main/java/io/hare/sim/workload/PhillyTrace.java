package io.hare.sim.workload;

import io.hare.core.BadInputException;
import io.hare.core.CsvInput;
import java.io.IOException;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Rows of the Philly job CSV ({@code timestamp,duration,num_gpus,gpu_time,cluster}): the
 * submission time ({@code yyyy-MM-dd HH:mm:ss}, read as UTC; only differences matter), the run
 * time in seconds (&gt;= 0) and the number of GPUs (an integer &gt;= 1). {@code gpu_time} and
 * {@code cluster} are not used. Errors name file, line and field.
 */
final class PhillyTrace {

  static final String TIMESTAMP = "timestamp";
  static final String DURATION = "duration";
  static final String NUM_GPUS = "num_gpus";

  private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

  /** One job of the trace, with where it came from. */
  record TraceJob(String file, long line, long startS, double durationS, int gpus) {

    BadInputException error(String field, String problem) {
      return BadInputException.at(file, line, field, problem);
    }
  }

  private PhillyTrace() {}

  /** Jobs sorted by submission time (ties by line); the first {@code maxJobs} if &gt; 0. */
  static List<TraceJob> read(Path csv, int maxJobs) throws IOException, BadInputException {
    List<TraceJob> jobs = new ArrayList<>();
    try (CsvInput in = CsvInput.open(csv, List.of(TIMESTAMP, DURATION, NUM_GPUS))) {
      for (CsvInput.Row row = in.next(); row != null; row = in.next()) {
        String ts = row.text(TIMESTAMP);
        long startS;
        try {
          startS = LocalDateTime.parse(ts, TIME).toEpochSecond(ZoneOffset.UTC);
        } catch (DateTimeParseException e) {
          throw row.error(TIMESTAMP, "must be a time yyyy-MM-dd HH:mm:ss, got '" + ts + "'");
        }
        double duration = row.number(DURATION, 0, true, "seconds");
        int gpus = (int) row.integer(NUM_GPUS, 1, Integer.MAX_VALUE);
        jobs.add(new TraceJob(in.file(), row.line(), startS, duration, gpus));
      }
    }
    jobs.sort(Comparator.comparingLong(TraceJob::startS).thenComparingLong(TraceJob::line));
    return maxJobs > 0 && maxJobs < jobs.size() ? List.copyOf(jobs.subList(0, maxJobs)) : jobs;
  }
}
