package io.hare.core.profile;

import io.hare.core.BadInputException;
import io.hare.core.CsvInput;
import io.hare.core.GpuType;
import io.hare.core.TaskTimes;
import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;

/**
 * {@code PROFILES.csv}: task times per (model, GPU type), one row each, header
 * {@code model,gpu_type,compute_ms,sync_ms}.
 *
 * <p>{@code compute_ms} is the time one task holds a GPU of that type (&gt; 0),
 * {@code sync_ms} its gradient push and model pull after compute (&gt;= 0). A model with no row for
 * a type cannot run on that type. GPU type names are case-insensitive ({@link GpuType}).
 * Rows are read by {@link CsvInput}: columns in any order, {@code #} comments and blank lines
 * allowed, extra columns ignored.
 *
 * <p>Reading refuses, naming file, line and field: a missing column, a value that is not a
 * number, compute &lt;= 0, sync &lt; 0, either above a year ({@link #MAX_MS}), a bad GPU type
 * name, a (model, type) given twice, and a file that is not UTF-8 text. It reads on past a bad
 * field and lists every problem at once, one a line (at most {@link #MAX_LISTED}, then how
 * many more), so that an admin fixes a file in one go.
 */
public final class ProfileCsv {

  public static final String MODEL = "model";
  public static final String GPU_TYPE = "gpu_type";
  public static final String COMPUTE_MS = "compute_ms";
  public static final String SYNC_MS = "sync_ms";
  public static final List<String> HEADER = List.of(MODEL, GPU_TYPE, COMPUTE_MS, SYNC_MS);

  private ProfileCsv() {}

  public static ProfileTable read(Path file) throws IOException, BadInputException {
    try (CsvInput in = CsvInput.open(file, HEADER)) {
      return read(in);
    }
  }

  /** Reads from {@code reader}; {@code fileName} names it in messages. */
  public static ProfileTable read(Reader reader, String fileName)
      throws IOException, BadInputException {
    try (CsvInput in = CsvInput.of(reader, fileName, HEADER)) {
      return read(in);
    }
  }

  private static ProfileTable read(CsvInput in) throws BadInputException {
    ProfileTable.Builder b = ProfileTable.builder();
    Map<String, Long> seen = new HashMap<>();
    List<String> problems = new ArrayList<>();
    try {
      for (CsvInput.Row next = in.next(); next != null; next = in.next()) {
        CsvInput.Row row = next;
        String model = field(() -> row.text(MODEL), problems);
        GpuType type = field(() -> gpuType(row), problems);
        Double compute = field(() -> atMostAYear(row, COMPUTE_MS,
            row.number(COMPUTE_MS, 0, false, "milliseconds")), problems);
        Double sync = field(() -> atMostAYear(row, SYNC_MS,
            row.number(SYNC_MS, 0, true, "milliseconds")), problems);
        if (model == null || type == null) {
          continue;
        }
        Long first = seen.putIfAbsent(model + "\u0000" + type.name(), row.line());
        if (first != null) {
          problems.add(row.error(GPU_TYPE, "model '" + model + "' on type " + type
              + " is already given on line " + first + "; each (model, gpu_type) once")
              .getMessage());
        } else if (compute != null && sync != null) {
          b.put(model, type, new TaskTimes(compute, sync));
        }
      }
    } catch (BadInputException e) {
      problems.add(e.getMessage()); // the file is not CSV from here on: nothing more to read
    }
    if (!problems.isEmpty()) {
      throw new BadInputException(listed(problems, in.file()));
    }
    return b.build();
  }

  /** Most problems one read lists; a file that is wrong throughout is counted past them. */
  static final int MAX_LISTED = 50;

  private static List<String> listed(List<String> problems, String file) {
    if (problems.size() <= MAX_LISTED) {
      return problems;
    }
    List<String> out = new ArrayList<>(problems.subList(0, MAX_LISTED));
    out.add(file + ": " + (problems.size() - MAX_LISTED) + " more problems");
    return out;
  }

  private interface Field<T> {
    T get() throws BadInputException;
  }

  /** The field's value, or null with its problem added: a row's other fields are still read. */
  private static <T> T field(Field<T> f, List<String> problems) {
    try {
      return f.get();
    } catch (BadInputException e) {
      problems.add(e.getMessage());
      return null;
    }
  }

  private static GpuType gpuType(CsvInput.Row row) throws BadInputException {
    try {
      return GpuType.of(row.text(GPU_TYPE));
    } catch (IllegalArgumentException e) {
      throw row.error(GPU_TYPE, e.getMessage());
    }
  }

  /**
   * Longest task time a profile may give, a year in milliseconds: beyond it every sum of times
   * the planners and the simulator form in whole milliseconds would overflow or lose meaning.
   */
  public static final double MAX_MS = 365.0 * 24 * 3600 * 1000;

  private static double atMostAYear(CsvInput.Row row, String field, double ms)
      throws BadInputException {
    if (ms > MAX_MS) {
      throw row.error(field, "must be at most " + CsvInput.formatNumber(MAX_MS)
          + " (a year, in milliseconds), got '" + row.raw(field) + "'");
    }
    return ms;
  }

  /** Writes every entry of {@code table}, models and types in the table's order. */
  public static void write(ProfileTable table, Path file) throws IOException {
    try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      write(table, w);
    }
  }

  public static void write(ProfileTable table, Writer out) throws IOException {
    CSVFormat f = CSVFormat.DEFAULT.builder().setHeader(HEADER.toArray(new String[0]))
        .setRecordSeparator('\n').get();
    CSVPrinter p = new CSVPrinter(out, f);
    for (String model : table.models()) {
      for (Map.Entry<GpuType, TaskTimes> e : table.forModel(model).entrySet()) {
        TaskTimes t = e.getValue();
        p.printRecord(model, e.getKey().name(), CsvInput.formatNumber(t.computeMs()),
            CsvInput.formatNumber(t.syncMs()));
      }
    }
    p.flush();
  }
}
