package io.hare.sim.report;

import io.hare.sim.JobOutcome;
import io.hare.sim.SimResult;
import java.io.IOException;
import java.io.Writer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;

/**
 * One row per job of one simulation, in arrival order:
 * {@code job_id,weight,model,k,rounds,arrival_s,completion_s,jct_s}. Times are seconds with
 * millisecond precision; {@code completion_s} and {@code jct_s} are empty for a job that did not
 * finish. With several queues a last column {@code queue} gives each job's queue. RFC 4180 quoting (commons-csv) with Unix line ends, so odd job ids survive.
 */
public final class JobsCsv {

  static final String[] HEADER = {"job_id", "weight", "model", "k", "rounds", "arrival_s",
      "completion_s", "jct_s"};

  private JobsCsv() {}

  public static void write(SimResult result, Writer out) throws IOException {
    boolean queues = result.severalQueues();
    String[] header = queues ? Arrays.copyOf(HEADER, HEADER.length + 1) : HEADER;
    if (queues) {
      header[HEADER.length] = "queue";
    }
    CSVFormat format =
        CSVFormat.RFC4180.builder().setHeader(header).setRecordSeparator("\n").get();
    try (CSVPrinter p = new CSVPrinter(out, format)) {
      for (JobOutcome j : result.jobs()) {
        List<Object> row = new ArrayList<>(List.of(j.jobId(), j.weight(), j.model(),
            j.tasksPerRound(), j.rounds(), seconds(j.arrivalMs()),
            j.finished() ? seconds(j.completionMs()) : "",
            j.finished() ? seconds(j.completionMs() - j.arrivalMs()) : ""));
        if (queues) {
          row.add(j.queue());
        }
        p.printRecord(row);
      }
    }
  }

  private static String seconds(long ms) {
    return String.format(Locale.ROOT, "%.3f", ms / 1000.0);
  }
}
