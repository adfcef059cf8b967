package io.hare.embedded;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the task and sync processes themselves record of their runs: a command is wrapped so that
 * it appends one line to an events file as it starts and one as it ends (with its exit code),
 * with the round, task index, node, GPU type, container and a millisecond clock. These are the
 * real process start and end times inside the containers, which the demo and the benchmarks
 * report; YARN's own records have only container allocation and completion as the RM saw them.
 *
 * <p>Lines are appended with {@code >>} (one small {@code write} with {@code O_APPEND}, atomic on
 * a local file system), so concurrent tasks of a job on one machine may share a file; the file
 * must be on a local or NFS path that every NodeManager of the cluster sees.
 *
 * <p>Line format: {@code KIND APP ROUND INDEX HOST TYPE CONTAINER MS [EXIT] [DEVICE]} with KIND
 * one of {@code start}, {@code end}, {@code sync-start}, {@code sync-end}, {@code -} for a value
 * the process did not have (the index of a sync step), EXIT on end lines only, and DEVICE the GPU
 * device the process saw ({@code HARE_GPU_DEVICE}, else {@code CUDA_VISIBLE_DEVICES}), last and
 * optional.
 */
public final class TaskEvents {

  /** One task attempt as its process recorded it; {@code endMs} and {@code exitCode} are -1
   * when it never recorded an end (killed, or its node was lost); {@code gpuDevice} the device
   * it saw, empty if none. */
  public record Attempt(String appId, int round, int index, String host, String gpuType,
      String containerId, long startMs, long endMs, int exitCode, String gpuDevice) {

    /** An attempt that saw no device. */
    public Attempt(String appId, int round, int index, String host, String gpuType,
        String containerId, long startMs, long endMs, int exitCode) {
      this(appId, round, index, host, gpuType, containerId, startMs, endMs, exitCode, "");
    }

    public boolean ended() {
      return endMs >= 0;
    }

    public boolean succeeded() {
      return ended() && exitCode == 0;
    }

    public long durationMs() {
      return ended() ? endMs - startMs : -1;
    }
  }

  /** One run of a round's sync step; {@code endMs} -1 when it never recorded an end. */
  public record Sync(String appId, int round, long startMs, long endMs, int exitCode) {}

  /** The attempts and sync runs of one events file, each list by start time. */
  public record Runs(List<Attempt> attempts, List<Sync> syncs) {}

  private static final String FIELDS = "\"$HARE_JOB_ID\" \"$HARE_ROUND\" \"${HARE_TASK_INDEX:--}\""
      + " \"${NM_HOST:--}\" \"${HARE_GPU_TYPE:--}\" \"${CONTAINER_ID:--}\"";
  /**
   * The device, set before the first line: nested braces would end in a double closing brace,
   * which the NodeManager's launch script takes for its own parameter expansion and drops.
   */
  private static final String DEVICE_VAR = "hare_device=\"${CUDA_VISIBLE_DEVICES:--}\"; "
      + "hare_device=\"${HARE_GPU_DEVICE:-$hare_device}\"; ";
  private static final String DEVICE = " \"$hare_device\"";

  private TaskEvents() {}

  /** {@code command} (a task command) wrapped to record its start and end in {@code file}. */
  public static String wrapTask(String command, Path file) {
    return wrap(command, file, "start", "end");
  }

  /** {@code command} (a sync command) wrapped to record its start and end in {@code file}. */
  public static String wrapSync(String command, Path file) {
    return wrap(command, file, "sync-start", "sync-end");
  }

  private static String wrap(String command, Path file, String start, String end) {
    String f = "'" + file.toAbsolutePath().toString().replace("'", "'\\''") + "'";
    // the command runs in a subshell so that an `exit` in it still lets the end line be written
    return DEVICE_VAR + "echo " + start + " " + FIELDS + " \"$(date +%s%3N)\"" + DEVICE + " >> "
        + f + "; ( " + command + " ); rc=$?; echo " + end + " " + FIELDS + " \"$(date +%s%3N)\" \"$rc\""
        + DEVICE + " >> " + f + "; exit $rc";
  }

  /** Reads an events file; a missing file has no runs. */
  public static Runs read(Path file) throws IOException {
    if (!Files.exists(file)) {
      return new Runs(List.of(), List.of());
    }
    Map<String, long[]> open = new LinkedHashMap<>();
    Map<String, String[]> first = new LinkedHashMap<>();
    List<Attempt> attempts = new ArrayList<>();
    List<Sync> syncs = new ArrayList<>();
    int n = 0;
    for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
      n++;
      if (line.isBlank()) {
        continue;
      }
      String[] f = line.strip().split(" ");
      boolean isEnd = f[0].equals("end") || f[0].equals("sync-end");
      boolean known = isEnd || f[0].equals("start") || f[0].equals("sync-start");
      int fields = isEnd ? 9 : 8; // and the device, optional
      if (!known || (f.length != fields && f.length != fields + 1)) {
        throw new IOException(file + ":" + n + ": not an event line: " + line);
      }
      long ms;
      try {
        ms = Long.parseLong(f[7]);
      } catch (NumberFormatException e) {
        throw new IOException(file + ":" + n + ": bad time '" + f[7] + "'");
      }
      String key = (f[0].startsWith("sync") ? "sync " : "") + String.join(" ", f[1], f[2], f[3],
          f[6]);
      if (!isEnd) {
        open.put(key, new long[] {ms});
        first.put(key, f);
        continue;
      }
      long[] started = open.remove(key);
      String[] s = first.remove(key);
      if (started == null) {
        throw new IOException(file + ":" + n + ": an end without a start: " + line);
      }
      int rc = Integer.parseInt(f[8]);
      if (f[0].equals("sync-end")) {
        syncs.add(new Sync(s[1], Integer.parseInt(s[2]), started[0], ms, rc));
      } else {
        attempts.add(attempt(s, started[0], ms, rc));
      }
    }
    open.forEach((key, started) -> {
      String[] s = first.get(key);
      if (s[0].equals("sync-start")) {
        syncs.add(new Sync(s[1], Integer.parseInt(s[2]), started[0], -1, -1));
      } else {
        attempts.add(attempt(s, started[0], -1, -1));
      }
    });
    attempts.sort(Comparator.comparingLong(Attempt::startMs));
    syncs.sort(Comparator.comparingLong(Sync::startMs));
    return new Runs(List.copyOf(attempts), List.copyOf(syncs));
  }

  private static Attempt attempt(String[] s, long start, long end, int rc) {
    String device = s.length > 8 && !s[8].equals("-") ? s[8] : "";
    return new Attempt(s[1], Integer.parseInt(s[2]), Integer.parseInt(s[3]), s[4], s[5], s[6],
        start, end, rc, device);
  }
}
