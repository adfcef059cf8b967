package io.hare.example;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Demo and benchmark instrumentation of the resident worker and the resident sync step: the
 * start and end of each task or sync step it runs, as lines of the events file the embedded cluster reads ({@code io.hare.embedded.TaskEvents},
 * whose bash wrapper writes the same lines around a task process):
 * {@code start APP ROUND INDEX HOST TYPE CONTAINER MS DEVICE} and
 * {@code end APP ROUND INDEX HOST TYPE CONTAINER MS EXIT DEVICE} ({@code sync-start} and
 * {@code sync-end} with the index {@code -} for a sync step), {@code -} for a value the
 * worker does not have. Each line is one append ({@code O_APPEND}), so workers on one machine
 * may share a file.
 */
final class EventsFile {

  private final Path file;
  private final String app;
  private final String host;
  private final String type;
  private final String container;

  EventsFile(Path file, Env env) {
    this.file = file;
    this.app = field(env.get("HARE_JOB_ID"));
    this.host = field(env.get("NM_HOST"));
    this.type = field(env.get("HARE_GPU_TYPE"));
    this.container = field(env.get("CONTAINER_ID"));
  }

  void start(int round, int index, String device) throws IOException {
    append("start " + fields(round, index) + " " + System.currentTimeMillis() + " "
        + field(device));
  }

  void end(int round, int index, int exitCode, String device) throws IOException {
    append("end " + fields(round, index) + " " + System.currentTimeMillis() + " " + exitCode
        + " " + field(device));
  }

  /** The start of round {@code round}'s sync step (a resident sync process's round). */
  void syncStart(int round) throws IOException {
    append("sync-start " + fields(round, "-") + " " + System.currentTimeMillis() + " -");
  }

  void syncEnd(int round, int exitCode) throws IOException {
    append("sync-end " + fields(round, "-") + " " + System.currentTimeMillis() + " " + exitCode
        + " -");
  }

  private String fields(int round, int index) {
    return fields(round, Integer.toString(index));
  }

  private String fields(int round, String index) {
    return app + " " + round + " " + index + " " + host + " " + type + " " + container;
  }

  private void append(String line) throws IOException {
    Files.write(file, (line + "\n").getBytes(StandardCharsets.UTF_8),
        StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.APPEND);
  }

  private static String field(String s) {
    return s == null || s.isBlank() ? "-" : s.strip().replace(' ', '_');
  }
}
