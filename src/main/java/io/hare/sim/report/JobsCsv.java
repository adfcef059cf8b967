package io.hare.sim.report;

import io.hare.sim.JobOutcome;
import io.hare.sim.SimResult;
import java.io.IOException;
import java.io.Writer;
import java.util.Locale;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;

/**
 * One row per job of one simulation, in arrival order:
 * {@code job_id,weight,model,k,rounds,arrival_s,completion_s,jct_s}. Times are seconds with
 * millisecond precision; {@code completion_s} and {@code jct_s} are empty for a job that did not
 * finish. RFC 4180 quoting (commons-csv) with Unix line ends, so odd job ids survive.
 */
public final class JobsCsv {

  static final String[] HEADER = {"job_id", "weight", "model", "k", "rounds", "arrival_s",
      "completion_s", "jct_s"};

  private JobsCsv() {}

  public static void write(SimResult result, Writer out) throws IOException {
    CSVFormat format =
        CSVFormat.RFC4180.builder().setHeader(HEADER).setRecordSeparator("\n").get();
    try (CSVPrinter p = new CSVPrinter(out, format)) {
      for (JobOutcome j : result.jobs()) {
        p.printRecord(j.jobId(), j.weight(), j.model(), j.tasksPerRound(), j.rounds(),
            seconds(j.arrivalMs()), j.finished() ? seconds(j.completionMs()) : "",
            j.finished() ? seconds(j.completionMs() - j.arrivalMs()) : "");
      }
    }
  }

  private static String seconds(long ms) {
    return String.format(Locale.ROOT, "%.3f", ms / 1000.0);
  }
}
