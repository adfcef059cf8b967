package io.hare.it;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.fail;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The binary tarball that {@code mvn package} built ({@code target/hare-yarn-*-bin.tar.gz}),
 * unpacked with {@code tar} as an admin does, and commands run the way a shell runs them.
 */
final class Tarball {

  private Tarball() {}

  /** A finished command: its exit code, stdout and stderr. */
  record Run(int code, String out, String err) {}

  /** Unpacks the tarball into a fresh {@code dir}; returns the unpacked top directory. */
  static Path unpack(Path dir) throws Exception {
    Path target = Path.of("target").toAbsolutePath();
    List<Path> tarballs;
    try (Stream<Path> s = Files.list(target)) {
      tarballs = s.filter(p -> p.getFileName().toString().matches("hare-yarn-.*-bin\\.tar\\.gz"))
          .collect(Collectors.toList());
    }
    assertEquals("one tarball in " + target + " (run 'mvn package' first)", 1, tarballs.size());
    run(target, List.of("rm", "-rf", dir.toString()), Map.of(), 60);
    Files.createDirectories(dir);
    Run untar = run(dir, List.of("tar", "xzf", tarballs.get(0).toString()), Map.of(), 60);
    assertEquals(untar.err, 0, untar.code);
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(Files::isDirectory).findFirst().orElseThrow();
    }
  }

  /**
   * Runs a command in {@code dir} with exactly the environment {@code env} (if not empty);
   * fails the test if it runs over {@code timeoutS}.
   */
  static Run run(Path dir, List<String> cmd, Map<String, String> env, long timeoutS)
      throws Exception {
    File out = File.createTempFile("tarball", ".out");
    File err = File.createTempFile("tarball", ".err");
    try {
      ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile())
          .redirectOutput(out).redirectError(err);
      if (!env.isEmpty()) {
        pb.environment().clear();
        pb.environment().putAll(env);
      }
      Process p = pb.start();
      if (!p.waitFor(timeoutS, TimeUnit.SECONDS)) {
        p.descendants().forEach(ProcessHandle::destroyForcibly);
        p.destroyForcibly().waitFor();
        fail(cmd + " ran over " + timeoutS + " s; stdout: " + read(out) + "\nstderr: "
            + read(err));
      }
      return new Run(p.exitValue(), read(out), read(err));
    } finally {
      out.delete();
      err.delete();
    }
  }

  private static String read(File f) throws IOException {
    return Files.readString(f.toPath());
  }
}
