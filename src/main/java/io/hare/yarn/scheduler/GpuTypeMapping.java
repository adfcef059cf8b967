package io.hare.yarn.scheduler;

import io.hare.core.GpuType;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import org.apache.hadoop.fs.GlobPattern;

/**
 * The admin's host-to-GPU-model mapping ({@code yarn.scheduler.hare.gpu-type.mapping-file}).
 * One mapping a line, {@code HOST_OR_GLOB GPU_MODEL}, separated by blanks; {@code #} starts a
 * comment; blank lines are allowed. Hosts and globs are case-insensitive (Hadoop's
 * {@link GlobPattern}: {@code * ? [a-z] {a,b}}); the first matching line wins.
 *
 * <p>Parsed strictly: every bad line is reported, all at once, as
 * {@code FILE:LINE: what is wrong; what is allowed}; a line whose pattern repeats an earlier
 * line's is bad too (the first match wins, so it could never apply). Immutable once read.
 */
final class GpuTypeMapping {

  /** No mapping file: matches no host. */
  static final GpuTypeMapping NONE = new GpuTypeMapping("", List.of());

  private static final Pattern HOST_CHARS = Pattern.compile("[a-z0-9._\\-*?\\[\\]{},!^]+");

  /** One line of the file. */
  record Entry(String pattern, GlobPattern glob, GpuType model, int line) {}

  private final String file;
  private final List<Entry> entries;

  private GpuTypeMapping(String file, List<Entry> entries) {
    this.file = file;
    this.entries = List.copyOf(entries);
  }

  /**
   * Reads the file; each problem found is added to {@code problems}.
   *
   * @return the mapping, or {@link #NONE} when anything is wrong
   */
  static GpuTypeMapping read(String file, List<String> problems) {
    if (file == null || file.isBlank()) {
      return NONE;
    }
    List<String> lines;
    try {
      lines = Files.readAllLines(Path.of(file), StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      problems.add(file + ": no such file");
      return NONE;
    } catch (CharacterCodingException e) {
      problems.add(file + ": not UTF-8 text (" + e + "); expected lines 'HOST_OR_GLOB"
          + " GPU_MODEL'");
      return NONE;
    } catch (IOException | RuntimeException e) {
      problems.add(file + ": cannot read: " + e);
      return NONE;
    }
    return parse(file, lines, problems);
  }

  /** Parses {@code lines} of {@code file}; each problem found is added to {@code problems}. */
  static GpuTypeMapping parse(String file, List<String> lines, List<String> problems) {
    int before = problems.size();
    List<Entry> entries = new ArrayList<>();
    Map<String, Integer> seen = new HashMap<>();
    for (int i = 0; i < lines.size(); i++) {
      int no = i + 1;
      String text = lines.get(i);
      int hash = text.indexOf('#');
      text = (hash >= 0 ? text.substring(0, hash) : text).strip();
      if (text.isEmpty()) {
        continue;
      }
      String where = file + ":" + no + ": ";
      String[] fields = text.split("\\s+");
      if (fields.length != 2) {
        problems.add(where + "expected 2 fields 'HOST_OR_GLOB GPU_MODEL', got " + fields.length
            + " in '" + text + "'");
        continue;
      }
      String host = fields[0].toLowerCase(Locale.ROOT);
      GlobPattern glob = glob(host, where, problems);
      GpuType model = null;
      try {
        model = GpuType.of(fields[1]);
      } catch (IllegalArgumentException e) {
        problems.add(where + "bad GPU model '" + fields[1] + "': " + e.getMessage());
      }
      if (glob == null || model == null) {
        continue;
      }
      Integer earlier = seen.putIfAbsent(host, no);
      if (earlier != null) {
        problems.add(where + "host pattern '" + fields[0] + "' repeats line " + earlier
            + "; the first match wins, so this line never applies: remove one of them");
        continue;
      }
      entries.add(new Entry(host, glob, model, no));
    }
    return problems.size() > before ? NONE : new GpuTypeMapping(file, entries);
  }

  private static GlobPattern glob(String host, String where, List<String> problems) {
    if (!HOST_CHARS.matcher(host).matches()) {
      problems.add(where + "bad host pattern '" + visible(host) + "': allowed are host names"
          + " (letters, digits, '.', '-', '_') and the glob characters * ? [ ] { } , ! ^");
      return null;
    }
    try {
      return new GlobPattern(host);
    } catch (RuntimeException e) {
      problems.add(where + "bad host glob '" + host + "': " + e.getMessage());
      return null;
    }
  }

  /** {@code s} with control characters written as Java escapes: messages show them. */
  private static String visible(String s) {
    StringBuilder b = new StringBuilder();
    s.codePoints().forEach(c -> {
      if (Character.isISOControl(c)) {
        b.append(String.format("\\u%04x", c));
      } else {
        b.appendCodePoint(c);
      }
    });
    return b.toString();
  }

  /** The model of the first line matching {@code host}, or null when none does. */
  GpuType modelOf(String host) {
    String h = host.toLowerCase(Locale.ROOT);
    for (Entry e : entries) {
      if (e.glob().matches(h)) {
        return e.model();
      }
    }
    return null;
  }

  boolean isEmpty() {
    return entries.isEmpty();
  }

  String file() {
    return file;
  }

  List<Entry> entries() {
    return entries;
  }
}
