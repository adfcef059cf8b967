package io.hare.it;

import static org.junit.Assert.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An SGD job submitted to a {@link StandaloneCluster} with the tarball's {@code bin/hare submit},
 * running in the background: the client's process and where it writes. Closing it kills a
 * client still running.
 */
record StandaloneJob(Process client, Path out, Path job, SgdJobFiles.Shape shape,
    long startNanos) implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(StandaloneJob.class);

  /**
   * Starts {@code bin/hare submit} of a job of {@code rounds} rounds of {@code tasks} tasks, each
   * task's command after {@code taskPrelude} (e.g. {@code "sleep 8; "} for slow tasks).
   */
  static StandaloneJob submit(StandaloneCluster cluster, Path base, String name, int rounds,
      int tasks, String taskPrelude) throws Exception {
    SgdJobFiles.Shape shape = new SgdJobFiles.Shape(name, rounds, tasks, base.resolve("staging"));
    Path job = SgdJobFiles.init(base.resolve("jobs/sgd"), 11);
    Path spec = SgdJobFiles.writeSpec(job, shape, taskPrelude);
    Path out = base.resolve("submit.out");
    ProcessBuilder client = new ProcessBuilder(cluster.hare("submit", "--poll-ms", "1000",
        spec.toString())).directory(cluster.hareHome().toFile()).redirectErrorStream(true)
        .redirectOutput(out.toFile());
    client.environment().clear();
    client.environment().putAll(cluster.hareEnv());
    long t0 = System.nanoTime();
    Process p = client.start();
    p.getOutputStream().close();
    return new StandaloneJob(p, out, job, shape, t0);
  }

  /** The application id {@code hare submit} printed, once it has. */
  Optional<ApplicationId> appId() throws Exception {
    if (!Files.exists(out)) {
      return Optional.empty();
    }
    return Files.readAllLines(out).stream().map(String::strip)
        .filter(l -> l.startsWith("application_")).findFirst().map(ApplicationId::fromString);
  }

  /**
   * Waits for {@code hare submit} to end, asserts it succeeded with its first AM (a second
   * attempt would rerun the job and hide an AM that the fault brought down); the job's time.
   */
  long awaitSuccess(StandaloneCluster cluster, long timeoutMs) throws Exception {
    StandaloneCluster.waitFor("hare submit to end (" + out + ")", timeoutMs,
        () -> !client.isAlive());
    long jobMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
    String printed = Files.readString(out);
    LOG.info("hare submit output:\n{}", printed);
    assertEquals(printed, 0, client.exitValue());
    ApplicationId id = appId().orElseThrow();
    JsonNode attempts = cluster.rest("/ws/v1/cluster/apps/" + id + "/appattempts");
    assertEquals("AM attempts of " + id + ": " + attempts, 1,
        attempts.path("appAttempts").path("appAttempt").size());
    return jobMs;
  }

  @Override
  public void close() throws InterruptedException {
    if (client.isAlive()) {
      client.descendants().forEach(ProcessHandle::destroyForcibly);
      client.destroyForcibly().waitFor();
    }
  }
}
