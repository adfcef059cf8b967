package io.hare.yarn.app;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import io.hare.core.BadInputException;
import io.hare.core.ConfigException;
import io.hare.core.KeyHints;
import io.hare.yarn.JobTags;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/** A valid spec is read with its defaults; files and overrides; all problems at once. */
public class HareJobSpecTest {

  @Rule
  public TemporaryFolder tmp = new TemporaryFolder();

  static Path write(Path file, Map<String, String> props) throws Exception {
    StringBuilder b = new StringBuilder("<?xml version=\"1.0\"?>\n<configuration>\n");
    props.forEach((k, v) -> b.append("  <property><name>").append(k).append("</name><value>")
        .append(v).append("</value></property>\n"));
    Files.writeString(file, b.append("</configuration>\n").toString());
    return file;
  }

  @Test(timeout = 60_000)
  public void validSpecGetsDefaults() throws Exception {
    HareJobSpec s = JobSpecValidator.read(JobSpecValidatorTest.conf(JobSpecValidatorTest.valid()));
    assertEquals("resnet-demo", s.name());
    assertEquals(10, s.rounds());
    assertEquals(4, s.tasksPerRound());
    assertEquals(1.0, s.weight(), 0);
    assertEquals("default", s.queue());
    assertEquals(1, s.taskGpus());
    assertEquals(3, s.taskMaxAttempts());
    assertEquals(2048, s.taskMemoryMb());
    assertTrue(!s.hasSync());
    assertEquals(List.of(), s.files());
    assertEquals(List.of(), s.fileSystems());
    assertEquals("task reuse on: the AM takes standbys", JobTags.write(s.tags()),
        JobTags.write(new JobTags.Info(1.0, java.util.OptionalInt.of(10),
            java.util.OptionalInt.of(4), java.util.Optional.empty(), true,
            JobTags.PROTOCOL_VERSION)));
  }

  @Test(timeout = 60_000)
  public void fullSpecRoundTripsThroughConfiguration() throws Exception {
    Path data = tmp.newFile("data.bin").toPath();
    Path env = tmp.newFile("pyenv.tar.gz").toPath();
    Map<String, String> m = JobSpecValidatorTest.valid();
    m.put(AppKeys.JOB_WEIGHT, "2.5");
    m.put(AppKeys.JOB_MODEL, "resnet50");
    m.put(AppKeys.JOB_QUEUE, "research");
    m.put(AppKeys.SYNC_COMMAND, "java -cp hare-yarn.jar io.hare.example.SgdJob sync");
    m.put(AppKeys.FILES, data + ", hdfs:///shared/vocab.txt");
    m.put(AppKeys.ARCHIVES, env.toString());
    m.put(AppKeys.JOB_FILE_SYSTEMS, "hdfs://data-ns, s3a://bucket");
    m.put(AppKeys.ENV_PREFIX + "OMP_NUM_THREADS", "2");
    HareJobSpec s = JobSpecValidator.read(JobSpecValidatorTest.conf(m));
    assertEquals(List.of(data.toString(), "hdfs:///shared/vocab.txt"), s.files());
    assertEquals(List.of("hdfs://data-ns", "s3a://bucket"), s.fileSystems());
    assertEquals(Map.of("OMP_NUM_THREADS", "2"), s.env());
    assertEquals(s, JobSpecValidator.read(s.toConfiguration()));
    assertEquals(List.of("hare.weight=2.5", "hare.rounds=10", "hare.tasks-per-round=4",
        "hare.model=resnet50", "hare.standby=true", "hare.protocol=1"),
        List.copyOf(JobTags.write(s.tags())));
  }

  @Test(timeout = 60_000)
  public void everyProblemIsReportedAtOnce() throws Exception {
    Configuration c = new Configuration(false);
    c.set(AppKeys.JOB_ROUNDS, "0");
    c.set(AppKeys.TASK_GPUS, "4");
    c.set("yarn.app.hare.job.wieght", "3");
    c.set("yarn.scheduler.hare.policy", "hlas"); // not ours: ignored
    try {
      JobSpecValidator.read(c);
      fail();
    } catch (ConfigException e) {
      String all = String.join("\n", e.problems());
      assertEquals(all, 6, e.problems().size()); // name, tasks-per-round, command missing too
      assertTrue(all, all.contains("yarn.app.hare.job.wieght: unknown key (value '3'); did you "
          + "mean yarn.app.hare.job.weight?"));
      assertTrue(all, all.contains(AppKeys.JOB_NAME + ": required, and not set"));
      assertTrue(all, all.contains(AppKeys.TASK_GPUS + ": '4' is not allowed"));
    }
  }

  @Test(timeout = 60_000)
  public void fileAndOverrides() throws Exception {
    Path f = write(tmp.newFile("job.xml").toPath(), JobSpecValidatorTest.valid());
    Configuration c = JobSpecFile.load(f, Map.of(AppKeys.JOB_ROUNDS, "3"));
    assertEquals(3, JobSpecValidator.read(c).rounds());
    assertEquals(10, JobSpecValidator.read(JobSpecFile.load(f, Map.of())).rounds());
  }

  @Test(timeout = 60_000)
  public void missingNotXmlOrNotConfigurationIsBadInput() throws Exception {
    Path garbage = tmp.newFile("garbage.xml").toPath();
    Files.writeString(garbage, "rounds = 10\n");
    Path broken = tmp.newFile("broken.xml").toPath();
    Files.writeString(broken, "<configuration>\n<property><name>x</name>\n</configuration>\n");
    Path other = tmp.newFile("pom.xml").toPath();
    Files.writeString(other, "<project><name>x</name></project>");
    assertBad(tmp.getRoot().toPath().resolve("nope.xml"), "no such job spec file");
    assertBad(garbage, "garbage.xml:1:1: not well-formed XML");
    assertBad(broken, "broken.xml:3:");
    assertBad(other, "expected <configuration>");
    assertBad(tmp.getRoot().toPath(), "not a readable file");
  }

  private static void assertBad(Path f, String expected) {
    try {
      JobSpecFile.load(f, Map.of());
      fail(f + " accepted");
    } catch (BadInputException e) {
      assertTrue(e.getMessage(), e.getMessage().contains(expected));
      assertTrue(e.getMessage(), e.getMessage().contains(f.getFileName().toString()));
    }
  }

  @Test(timeout = 60_000)
  public void editDistance() {
    assertEquals(0, KeyHints.distance("abc", "abc"));
    assertEquals(1, KeyHints.distance("abc", "abd"));
    assertEquals(3, KeyHints.distance("kitten", "sitting"));
    assertEquals(3, KeyHints.distance("", "abc"));
  }
}
