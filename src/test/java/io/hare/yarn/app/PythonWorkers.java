package io.hare.yarn.app;

import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.hadoop.yarn.api.records.ContainerId;

/**
 * Starts Python workers for tests: finds an interpreter, and gives a worker the environment a
 * task container has (the channel's address, its credentials file, {@code PYTHONPATH} holding
 * {@code dist/python}).
 */
public final class PythonWorkers {

  public static final Path LIBRARY = Path.of("dist/python").toAbsolutePath();

  /**
   * A Python script whose arguments are three {@code torch.save}d state dicts A, B and R0: it
   * exits 0 printing {@code equal N} (N tensors) when A and B hold the same tensors, bit for bit,
   * and A differs from R0 (the model trained); else it fails naming the first difference.
   */
  public static final String SAME_TRAINED_MODEL = String.join("\n", List.of(
      "import sys, torch",
      "a, b, r0 = (torch.load(f, map_location='cpu') for f in sys.argv[1:4])",
      "assert list(a) == list(b), (list(a), list(b))",
      "for k in a:",
      "    assert torch.equal(a[k], b[k]), k",
      "assert any(not torch.equal(a[k], r0[k]) for k in a), 'the model did not train'",
      "print('equal', len(a))"));

  private PythonWorkers() {}

  /**
   * A {@code python3} that imports torch: the one on {@code PATH}, else {@code /usr/bin/python3}
   * (where Debian's {@code python3-torch} installs); empty if neither does.
   */
  public static Optional<Path> withTorch() {
    return Stream.concat(onPath().stream(), Stream.of(Path.of("/usr/bin/python3")))
        .filter(p -> Files.isExecutable(p) && runs(p, "import torch")).findFirst();
  }

  /** The first {@code python3} on {@code PATH}. */
  static Optional<Path> onPath() {
    String path = System.getenv("PATH");
    if (path == null) {
      return Optional.empty();
    }
    for (String dir : path.split(File.pathSeparator)) {
      Path p = Path.of(dir.isEmpty() ? "." : dir, "python3");
      if (Files.isExecutable(p)) {
        return Optional.of(p);
      }
    }
    return Optional.empty();
  }

  /** Whether {@code python} runs {@code code} with exit 0 within a minute. */
  static boolean runs(Path python, String code) {
    try {
      Process p = new ProcessBuilder(python.toString(), "-c", code)
          .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
      if (!p.waitFor(60, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        return false;
      }
      return p.exitValue() == 0;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /**
   * A task container's environment: its id, the server's address (none if null), its
   * credentials file holding the key {@code keys} gives it (none if null, the file then is not
   * written), and {@code PYTHONPATH}.
   */
  static Map<String, String> containerEnv(ContainerId id, RunnerServer server, ChannelKeys keys,
      Path credentials) throws IOException {
    Map<String, String> env = new HashMap<>();
    env.put("CONTAINER_ID", id.toString());
    env.put("PYTHONPATH", LIBRARY.toString());
    env.put("PYTHONUNBUFFERED", "1");
    if (server != null) {
      env.put(TaskLaunch.RUNNER_HOST, "127.0.0.1");
      env.put(TaskLaunch.RUNNER_PORT, Integer.toString(server.port()));
    }
    if (keys != null) {
      // the container's credentials file, as the NodeManager writes it from its launch context
      ByteBuffer b = keys.tokens(id, null);
      byte[] bytes = new byte[b.remaining()];
      b.get(bytes);
      Files.write(credentials, bytes);
      env.put("HADOOP_TOKEN_FILE_LOCATION", credentials.toString());
    }
    return env;
  }
}
