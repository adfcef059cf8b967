package io.hare.core;

import java.io.Closeable;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import org.apache.commons.csv.CSVException;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;
import org.apache.commons.csv.DuplicateHeaderMode;

/**
 * A user's CSV file with a header row, read row by row with typed getters whose errors name the
 * file, the line and the field ({@link BadInputException#at}). Used by every file reader of the
 * project so that all of them report mistakes the same way.
 *
 * <p>Format: RFC 4180 (commons-csv {@code DEFAULT}), first non-comment line is the header, values
 * are trimmed, empty lines and lines starting with {@code #} are skipped, columns are found by
 * name (their order is free, extra columns are ignored, a name given twice is an error). Line numbers are those of the file, so
 * skipped lines do not shift them.
 *
 * <p>Not thread-safe. Close it (try-with-resources) to release the file.
 */
public final class CsvInput implements Closeable {

  private static final CSVFormat FORMAT = CSVFormat.DEFAULT.builder()
      .setHeader().setSkipHeaderRecord(true).setTrim(true).setIgnoreSurroundingSpaces(true)
      .setIgnoreEmptyLines(true).setCommentMarker('#')
      .setDuplicateHeaderMode(DuplicateHeaderMode.DISALLOW).get();

  private final String file;
  private final CSVParser parser;
  private final Iterator<CSVRecord> records;

  private CsvInput(String file, CSVParser parser) {
    this.file = file;
    this.parser = parser;
    this.records = parser.iterator();
  }

  /**
   * Opens {@code path} and checks that the header has every one of {@code required} columns.
   *
   * @throws BadInputException if the file is missing, or a column is missing (naming the
   *     columns the file must have and those it has)
   */
  public static CsvInput open(Path path, List<String> required)
      throws IOException, BadInputException {
    Reader r;
    try {
      r = Files.newBufferedReader(path, StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      throw new BadInputException(path + ": no such file");
    }
    try {
      return of(r, path.toString(), required);
    } catch (BadInputException | IOException | RuntimeException e) {
      r.close();
      throw e;
    }
  }

  /** Reads CSV text from {@code reader}; {@code file} is the name used in messages. */
  public static CsvInput of(Reader reader, String file, List<String> required)
      throws IOException, BadInputException {
    CSVParser p;
    try {
      p = CSVParser.builder().setReader(reader).setFormat(FORMAT).get();
    } catch (CharacterCodingException e) {
      throw notText(file, 1, e);
    } catch (IllegalArgumentException | UncheckedIOException | CSVException e) {
      if (e.getCause() instanceof CharacterCodingException c) {
        throw notText(file, 1, c);
      }
      // commons-csv refuses duplicate or malformed header names this way
      throw new BadInputException(file + ":1: bad header: " + e.getMessage(), e);
    }
    List<String> header = p.getHeaderNames();
    for (String col : required) {
      if (!header.contains(col)) {
        long line = Math.max(1, p.getCurrentLineNumber());
        p.close();
        throw BadInputException.at(file, line, col, "missing column; the header must name "
            + String.join(",", required) + " (found: "
            + (header.isEmpty() ? "nothing" : String.join(",", header)) + ")");
      }
    }
    return new CsvInput(file, p);
  }

  /** Binary garbage, or text in another encoding: say so rather than "Input length = 1". */
  private static BadInputException notText(String file, long line, CharacterCodingException e) {
    return new BadInputException(file + ":" + line + ": not UTF-8 text (" + e + "); a CSV file"
        + " with a header row is expected", e);
  }

  /** The name used in messages. */
  public String file() {
    return file;
  }

  /**
   * The next data row, or null at the end of the file.
   *
   * @throws BadInputException if the CSV itself is broken (e.g. an unclosed quote)
   */
  public Row next() throws BadInputException {
    try {
      if (!records.hasNext()) {
        return null;
      }
      CSVRecord rec = records.next();
      return new Row(rec, parser.getCurrentLineNumber());
    } catch (UncheckedIOException | IllegalStateException e) {
      Throwable why = e.getCause() != null ? e.getCause() : e;
      if (why instanceof CharacterCodingException c) {
        throw notText(file, parser.getCurrentLineNumber() + 1, c);
      }
      throw new BadInputException(file + ":" + parser.getCurrentLineNumber()
          + ": not valid CSV: " + why.getMessage(), e);
    }
  }

  @Override
  public void close() throws IOException {
    parser.close();
  }

  /** One data row. Getters throw {@link BadInputException} naming this row's line and field. */
  public final class Row {
    private final CSVRecord rec;
    private final long line;

    private Row(CSVRecord rec, long line) {
      this.rec = rec;
      this.line = line;
    }

    public long line() {
      return line;
    }

    public String file() {
      return file;
    }

    /** An error about {@code field} on this row. */
    public BadInputException error(String field, String problem) {
      return BadInputException.at(file, line, field, problem);
    }

    /** The raw (trimmed) value, or "" when the row is too short to have it. */
    public String raw(String field) {
      return rec.isSet(field) ? rec.get(field) : "";
    }

    /** A value that must not be empty. */
    public String text(String field) throws BadInputException {
      String v = raw(field);
      if (v.isEmpty()) {
        throw error(field, "missing value");
      }
      return v;
    }

    /** A finite number. */
    public double number(String field, String allowed) throws BadInputException {
      String v = text(field);
      double d;
      try {
        d = Double.parseDouble(v);
      } catch (NumberFormatException e) {
        throw error(field, "must be " + allowed + ", got '" + v + "' (not a number)");
      }
      if (!Double.isFinite(d)) {
        throw error(field, "must be " + allowed + ", got '" + v + "' (not finite)");
      }
      return d;
    }

    /** A finite number in {@code [min, +inf)} ({@code minInclusive}) or {@code (min, +inf)}. */
    public double number(String field, double min, boolean minInclusive, String unit)
        throws BadInputException {
      String allowed = "a number " + (minInclusive ? ">= " : "> ") + formatNumber(min)
          + (unit.isEmpty() ? "" : " (" + unit + ")");
      double d = number(field, allowed);
      if (minInclusive ? d < min : d <= min) {
        throw error(field, "must be " + allowed + ", got '" + raw(field) + "'");
      }
      return d;
    }

    /** A whole number in {@code [min, max]}; "4.0" is accepted as 4. */
    public long integer(String field, long min, long max) throws BadInputException {
      String allowed = max >= Integer.MAX_VALUE ? "an integer >= " + min
          : "an integer in [" + min + ", " + max + "]";
      double d = number(field, allowed);
      if (d != Math.rint(d) || d < min) {
        throw error(field, "must be " + allowed + ", got '" + raw(field) + "'");
      }
      if (d > max) {
        throw error(field, "must be at most " + max + ", got '" + raw(field) + "'");
      }
      return (long) d;
    }
  }

  /** Shortest text that reads back to the same double: "120" for 120.0, else Java's form. */
  public static String formatNumber(double d) {
    if (d == Math.rint(d) && Math.abs(d) < 1e15) {
      return Long.toString((long) d);
    }
    return Double.toString(d);
  }
}
