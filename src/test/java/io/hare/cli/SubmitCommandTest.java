package io.hare.cli;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertTrue;

import io.hare.yarn.app.AppKeys;
import io.hare.yarn.app.ContainerClasspath;
import io.hare.yarn.app.HareJobSpec;
import io.hare.yarn.app.JobCredentials;
import io.hare.yarn.app.JobSpecFile;
import io.hare.yarn.app.JobSpecValidator;
import io.hare.yarn.app.JobStop;
import io.hare.yarn.app.SharedJars;
import io.hare.yarn.app.tokens.TokenRefreshSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.Credentials;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ApplicationSubmissionContext;
import org.apache.hadoop.yarn.api.records.ContainerLaunchContext;
import org.apache.hadoop.yarn.api.records.FinalApplicationStatus;
import org.apache.hadoop.yarn.api.records.LocalResourceType;
import org.apache.hadoop.yarn.api.records.LocalResourceVisibility;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.ResourceInformation;
import org.apache.hadoop.yarn.api.records.YarnApplicationState;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.util.resource.ResourceUtils;
import org.junit.Before;
import org.junit.BeforeClass;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/** {@code hare submit} against an in-memory ResourceManager, staging on the local file system. */
public class SubmitCommandTest {

  @Rule
  public TemporaryFolder tmp = new TemporaryFolder();

  private final FakeYarnApps yarn = new FakeYarnApps();
  private Path staging;
  private Path jar;
  private Path data;

  @BeforeClass
  public static void gpus() {
    Configuration c = new Configuration(false);
    c.set(YarnConfiguration.RESOURCE_TYPES, ResourceInformation.GPU_URI);
    ResourceUtils.resetResourceTypes(c);
  }

  @Before
  public void files() throws Exception {
    staging = tmp.newFolder("staging").toPath();
    jar = tmp.newFile("hare-yarn-0.1.jar").toPath();
    Files.writeString(jar, "not really a jar, but the client only copies it");
    data = tmp.newFile("shard.bin").toPath();
    Files.writeString(data, "0123");
  }

  private Path spec(Map<String, String> extra) throws Exception {
    Map<String, String> m = new LinkedHashMap<>();
    m.put(AppKeys.JOB_NAME, "mnist");
    m.put(AppKeys.JOB_ROUNDS, "4");
    m.put(AppKeys.JOB_TASKS_PER_ROUND, "2");
    m.put(AppKeys.TASK_COMMAND, "java -cp hare-yarn.jar io.hare.example.SgdJob task");
    m.put(AppKeys.SYNC_COMMAND, "java -cp hare-yarn.jar io.hare.example.SgdJob sync");
    m.put(AppKeys.JOB_WEIGHT, "2");
    m.put(AppKeys.JOB_MODEL, "resnet50");
    m.put(AppKeys.JOB_QUEUE, "research");
    m.put(AppKeys.JOB_STAGING_DIR, staging.toString());
    m.put(AppKeys.AM_JAR, jar.toString());
    m.put(AppKeys.FILES, data.toString());
    m.put("fs.defaultFS", "file:///");
    m.putAll(extra);
    StringBuilder b = new StringBuilder("<?xml version=\"1.0\"?>\n<configuration>\n");
    m.forEach((k, v) -> b.append("<property><name>").append(k).append("</name><value>")
        .append(v).append("</value></property>\n"));
    Path f = tmp.newFile("job-" + extra.hashCode() + ".xml").toPath();
    Files.writeString(f, b.append("</configuration>\n").toString());
    return f;
  }

  @Test(timeout = 60_000)
  public void validateAcceptsAValidSpec() throws Exception {
    AppCliRun r = AppCliRun.run(yarn, "submit", "--validate", spec(Map.of()).toString());
    assertEquals(r.toString(), 0, r.code);
    assertTrue(r.toString(), r.out.contains("job mnist, 4 rounds of 2 tasks"));
    assertTrue(r.toString(), yarn.submitted.isEmpty());
  }

  @Test(timeout = 60_000)
  public void validateListsEveryProblem() throws Exception {
    Path f = spec(Map.of(AppKeys.TASK_GPUS, "8", "yarn.app.hare.job.ronuds", "3"));
    AppCliRun r = AppCliRun.run(yarn, "submit", "--validate", f.toString(),
        "-D", AppKeys.JOB_TASKS_PER_ROUND + "=zero");
    assertEquals(r.toString(), 2, r.code);
    assertTrue(r.toString(), r.err.contains("3 problems"));
    assertTrue(r.toString(), r.err.contains(AppKeys.TASK_GPUS + ": '8'"));
    assertTrue(r.toString(), r.err.contains("did you mean yarn.app.hare.job.rounds?"));
    assertTrue(r.toString(), r.err.contains(AppKeys.JOB_TASKS_PER_ROUND + ": 'zero'"));
    assertFalse(r.toString(), r.err.contains("Exception"));
  }

  @Test(timeout = 60_000)
  public void missingOrNonXmlFileIsBadInput() throws Exception {
    AppCliRun missing = AppCliRun.run(yarn, "submit", "--validate", tmp.getRoot() + "/no.xml");
    assertEquals(missing.toString(), 2, missing.code);
    assertTrue(missing.toString(), missing.err.contains("no.xml: no such job spec file"));
    Path text = tmp.newFile("job.txt").toPath();
    Files.writeString(text, "rounds: 4\n");
    AppCliRun notXml = AppCliRun.run(yarn, "submit", text.toString());
    assertEquals(notXml.toString(), 2, notXml.code);
    assertTrue(notXml.toString(), notXml.err.contains("not well-formed XML"));
    assertTrue(yarn.submitted.isEmpty());
  }

  @Test(timeout = 60_000)
  public void detachedSubmissionBuildsTheAmContext() throws Exception {
    AppCliRun r = AppCliRun.run(yarn, "submit", spec(Map.of()).toString(), "--detach",
        "-D", AppKeys.JOB_ROUNDS + "=6");
    assertEquals(r.toString(), 0, r.code);
    ApplicationId id = ApplicationId.newInstance(1700000000000L, 1);
    assertEquals(id + "\n", r.out);
    ApplicationSubmissionContext c = yarn.submitted.get(id);
    assertEquals("mnist", c.getApplicationName());
    assertEquals("research", c.getQueue());
    assertEquals("HARE", c.getApplicationType());
    assertEquals("task reuse on: the AM takes standby containers", Map.of("hare.weight=2.0", 0,
        "hare.rounds=6", 0, "hare.tasks-per-round=2", 0, "hare.model=resnet50", 0,
        "hare.standby=true", 0, "hare.protocol=1", 0).keySet(), c.getApplicationTags());
    assertEquals(Resource.newInstance(1024, 1), c.getResource());
    assertEquals(2, c.getMaxAppAttempts());
    ContainerLaunchContext am = c.getAMContainerSpec();
    assertTrue(am.getCommands().get(0), am.getCommands().get(0)
        .contains("io.hare.yarn.app.HareApplicationMaster"));
    Path work = staging.resolve(id.toString());
    assertEquals(work.toUri().getPath().replaceAll("/$", ""),
        new org.apache.hadoop.fs.Path(am.getEnvironment().get("HARE_WORK_DIR")).toUri().getPath());
    // picocli comes along: the example job's commands need it and no cluster classpath has it
    String picocli = ContainerClasspath.dependencyJar(java.nio.file.Paths.get("hare-yarn.jar"))
        .orElseThrow().getFileName().toString();
    assertEquals(List.of("hare-yarn.jar", "hare-job.xml", "shard.bin", picocli),
        List.copyOf(am.getLocalResources().keySet()));
    assertTrue(am.getEnvironment().get("CLASSPATH").startsWith("{{PWD}}/*<CPS>"));
    assertEquals(LocalResourceType.FILE, am.getLocalResources().get("shard.bin").getType());
    assertEquals(4, am.getLocalResources().get("shard.bin").getSize());
    // the staged spec is what the AM reads: valid, with the override and staged paths
    HareJobSpec staged = JobSpecValidator.read(
        JobSpecFile.load(work.resolve("hare-job.xml"), Map.of()));
    assertEquals(6, staged.rounds());
    assertEquals(3, staged.files().size());
    Path shared = staging.resolve(SharedJars.DIR);
    assertTrue(staged.files().get(0), staged.files().get(0).contains(shared + "/")
        && staged.files().get(0).endsWith("/hare-yarn.jar"));
    assertTrue(staged.files().get(1), staged.files().get(1).endsWith(id + "/shard.bin"));
    assertTrue(staged.files().get(2), staged.files().get(2).contains(shared + "/")
        && staged.files().get(2).endsWith("/" + picocli));
    assertEquals("0123", Files.readString(work.resolve("shard.bin")));
    assertEquals(Files.readString(jar), Files.readString(Path.of(
        new org.apache.hadoop.fs.Path(staged.files().get(0)).toUri().getPath())));
    assertEquals("the job's own files are kept for the job", LocalResourceVisibility.APPLICATION,
        am.getLocalResources().get("shard.bin").getVisibility());
    assertEquals("Hare's jars once per user", LocalResourceVisibility.PRIVATE,
        am.getLocalResources().get("hare-yarn.jar").getVisibility());
    assertEquals(LocalResourceVisibility.PRIVATE,
        am.getLocalResources().get(picocli).getVisibility());
  }

  /**
   * A second job of the same jars stages no second copy: its AM and tasks are given the very file
   * (size and time stamp) the first job's were, which is what lets a NodeManager that localized it
   * for the first job start the second job's containers without localizing it again. Another
   * jar is staged apart from it.
   */
  @Test(timeout = 60_000)
  public void jobsOfOneJarShareItsStagedCopy() throws Exception {
    Path f = spec(Map.of());
    assertEquals(0, AppCliRun.run(yarn, "submit", f.toString(), "--detach").code);
    assertEquals(0, AppCliRun.run(yarn, "submit", f.toString(), "--detach").code);
    List<ApplicationSubmissionContext> jobs = List.copyOf(yarn.submitted.values());
    assertEquals(2, jobs.size());
    org.apache.hadoop.yarn.api.records.LocalResource first = jobs.get(0).getAMContainerSpec()
        .getLocalResources().get("hare-yarn.jar");
    org.apache.hadoop.yarn.api.records.LocalResource second = jobs.get(1).getAMContainerSpec()
        .getLocalResources().get("hare-yarn.jar");
    assertEquals(first.getResource(), second.getResource());
    assertEquals(first.getTimestamp(), second.getTimestamp());
    assertEquals(first.getSize(), second.getSize());
    assertNotEquals("each job's own files are its own",
        jobs.get(0).getAMContainerSpec().getLocalResources().get("shard.bin").getResource(),
        jobs.get(1).getAMContainerSpec().getLocalResources().get("shard.bin").getResource());

    Files.writeString(jar, "another build of the jar");
    assertEquals(0, AppCliRun.run(yarn, "submit", f.toString(), "--detach").code);
    org.apache.hadoop.yarn.api.records.LocalResource third = yarn.submitted.values().stream()
        .filter(c -> !jobs.contains(c)).findFirst().orElseThrow().getAMContainerSpec()
        .getLocalResources().get("hare-yarn.jar");
    assertNotEquals(first.getResource(), third.getResource());
    assertEquals("the first copy is left as it was", first.getTimestamp(), Files
        .getLastModifiedTime(Path.of(first.getResource().getFile())).toMillis());
  }

  @Test(timeout = 60_000)
  public void aJobFileNamedLikeTheHareJarIsRefused() throws Exception {
    Path own = tmp.newFolder("mine").toPath().resolve("hare-yarn.jar");
    Files.writeString(own, "a file of the job's");
    AppCliRun r = AppCliRun.run(yarn, "submit", spec(Map.of(AppKeys.FILES, own.toString()))
        .toString(), "--detach");
    assertEquals(r.toString(), 2, r.code);
    assertTrue(r.toString(), r.err.contains(AppKeys.FILES + ": hare-yarn.jar is the Hare jar's"
        + " name in the containers"));
    assertTrue(yarn.submitted.isEmpty());
  }

  /**
   * Security: the job's work directory is its owner's only (rwx------) whatever the umask, and
   * every staged file (jar, spec, data files) is readable by the owner only; tasks of other users
   * cannot read or change them. On the local file system, as on HDFS.
   */
  @Test(timeout = 60_000)
  public void theWorkDirectoryAndStagedFilesAreTheOwnersOnly() throws Exception {
    AppCliRun r = AppCliRun.run(yarn, "submit", spec(Map.of()).toString(), "--detach");
    assertEquals(r.toString(), 0, r.code);
    Path work = staging.resolve(ApplicationId.newInstance(1700000000000L, 1).toString());
    assertEquals(PosixFilePermissions.fromString("rwx------"),
        Files.getPosixFilePermissions(work));
    List<String> staged = new ArrayList<>();
    try (Stream<Path> files = Files.list(work)) {
      for (Path f : files.filter(f -> !f.getFileName().toString().endsWith(".crc")).toList()) {
        staged.add(f.getFileName().toString());
        assertEquals(f.toString(), PosixFilePermissions.fromString("rw-------"),
            Files.getPosixFilePermissions(f));
      }
    }
    assertTrue(staged.toString(), staged.containsAll(List.of("hare-job.xml", "shard.bin")));
    // the shared jars' directories and copies too
    try (Stream<Path> shared = Files.walk(staging.resolve(SharedJars.DIR))) {
      List<Path> all = shared.filter(p -> !p.getFileName().toString().endsWith(".crc")).toList();
      assertEquals(all.toString(), 5, all.size()); // .jars, two content dirs, two jars
      for (Path p : all) {
        assertEquals(p.toString(), PosixFilePermissions.fromString(Files.isDirectory(p)
            ? "rwx------" : "rw-------"), Files.getPosixFilePermissions(p));
      }
    }
  }

  @Test(timeout = 60_000)
  public void followsRoundsUntilSuccess() throws Exception {
    ApplicationId id = ApplicationId.newInstance(1700000000000L, 1);
    yarn.script(id,
        new FakeYarnApps.Step(YarnApplicationState.ACCEPTED, FinalApplicationStatus.UNDEFINED, 0,
            ""),
        new FakeYarnApps.Step(YarnApplicationState.RUNNING, FinalApplicationStatus.UNDEFINED, 0,
            ""),
        new FakeYarnApps.Step(YarnApplicationState.RUNNING, FinalApplicationStatus.UNDEFINED,
            0.25f, ""),
        new FakeYarnApps.Step(YarnApplicationState.RUNNING, FinalApplicationStatus.UNDEFINED,
            0.25f, ""),
        new FakeYarnApps.Step(YarnApplicationState.RUNNING, FinalApplicationStatus.UNDEFINED,
            0.75f, ""),
        new FakeYarnApps.Step(YarnApplicationState.FINISHED, FinalApplicationStatus.SUCCEEDED, 1,
            ""));
    AppCliRun r = AppCliRun.run(yarn, "submit", spec(Map.of()).toString());
    assertEquals(r.toString(), 0, r.code);
    assertEquals(id + "\n"
        + id + " ACCEPTED: [....................] 0 of 4 rounds done\n"
        + id + " RUNNING: [....................] 0 of 4 rounds done\n"
        + id + " RUNNING: [#####...............] 1 of 4 rounds done\n"
        + id + " RUNNING: [###############.....] 3 of 4 rounds done\n"
        + id + " FINISHED (SUCCEEDED): [####################] 4 of 4 rounds done\n", r.out);
    assertEquals(6, yarn.polls);
  }

  /**
   * Submits the test spec; the job runs with {@code progress}, then ends in {@code state}, as
   * YARN reports an ended job: progress 1 whatever it did.
   */
  private AppCliRun endsAfter(float progress, YarnApplicationState state,
      FinalApplicationStatus status, String diagnostics) throws Exception {
    yarn.script(ApplicationId.newInstance(1700000000000L, 1),
        new FakeYarnApps.Step(YarnApplicationState.RUNNING, FinalApplicationStatus.UNDEFINED,
            progress, ""),
        new FakeYarnApps.Step(state, status, 1, diagnostics));
    return AppCliRun.run(yarn, "submit", spec(Map.of()).toString());
  }

  @Test(timeout = 60_000)
  public void failedJobsLastLineSaysWhereItStoppedAndWhy() throws Exception {
    AppCliRun r = endsAfter(0.25f, YarnApplicationState.FINISHED, FinalApplicationStatus.FAILED,
        "round 1 task 1 failed 3 times;\nexit code 42 " + new JobStop(1, 4, 1, 1, 2).mark());
    assertEquals(r.toString(), 1, r.code);
    String id = "application_1700000000000_0001";
    assertTrue(r.toString(), r.out.endsWith(id + " FINISHED (FAILED): [#####...............] 1"
        + " of 4 rounds done; stopped in round 1 with 1 of 2 tasks done: round 1 task 1 failed"
        + " 3 times; exit code 42\n"));
    assertTrue(r.toString(), r.err.contains(id + " did not succeed: FINISHED (FAILED)"));
  }

  @Test(timeout = 60_000)
  public void killedJobKeepsTheRoundsLastSeenRunning() throws Exception {
    AppCliRun r = endsAfter(0.5f, YarnApplicationState.KILLED, FinalApplicationStatus.KILLED,
        "Application killed by user.");
    assertEquals(r.toString(), 1, r.code);
    assertTrue(r.toString(), r.out.endsWith("application_1700000000000_0001 KILLED (KILLED):"
        + " [##########..........] at least 2 of 4 rounds done (the last report before the end):"
        + " Application killed by user.\n"));
  }

  /**
   * A job with an AM keytab: {@code "--detach"} or nothing; it is killed after a report of it
   * running. Returns where the keytab was staged.
   */
  private Path killedKeytabJob(String... options) throws Exception {
    Path keytab = tmp.newFile("alice.keytab").toPath();
    Files.writeString(keytab, "keytab bytes");
    ApplicationId id = ApplicationId.newInstance(1700000000000L, 1);
    yarn.script(id,
        new FakeYarnApps.Step(YarnApplicationState.RUNNING, FinalApplicationStatus.UNDEFINED,
            0.25f, ""),
        new FakeYarnApps.Step(YarnApplicationState.KILLED, FinalApplicationStatus.KILLED, 1,
            "Application killed by user."));
    Configuration secure = new Configuration(false);
    secure.set(YarnConfiguration.RM_PRINCIPAL, "rm/_HOST@EXAMPLE.COM");
    JobCredentials kerberos = new JobCredentials(secure, true, new Credentials(),
        (principal, file) -> { });
    List<String> args = new ArrayList<>(List.of("submit", spec(Map.of(
        AppKeys.AM_PRINCIPAL, "alice@EXAMPLE.COM", AppKeys.AM_KEYTAB, keytab.toString()))
        .toString()));
    args.addAll(List.of(options));
    AppCliRun r = AppCliRun.run(yarn, kerberos, args.toArray(new String[0]));
    assertEquals(r.toString(), options.length == 0 ? 1 : 0, r.code);
    Path work = staging.resolve(id.toString());
    assertTrue("staged and submitted", Files.exists(work.resolve("hare-job.xml")));
    return work.resolve(TokenRefreshSpec.KEYTAB_LINK);
  }

  /**
   * The client that follows a job deletes its staged keytab when the job ends, as the AM does when
   * it unregisters: a killed job's AM may not have had the time.
   */
  @Test(timeout = 60_000)
  public void aFollowedJobThatEndsTakesItsStagedKeytabAlong() throws Exception {
    assertFalse("deleted once the job was KILLED", Files.exists(killedKeytabJob()));
  }

  @Test(timeout = 60_000)
  public void aDetachedJobsKeytabIsLeftToItsAm() throws Exception {
    Path staged = killedKeytabJob("--detach");
    assertEquals("keytab bytes", Files.readString(staged));
    assertEquals("rw-------", PosixFilePermissions.toString(
        Files.getPosixFilePermissions(staged)));
  }

  @Test(timeout = 60_000)
  public void asksBeyondTheClusterAreRefusedBeforeSubmission() throws Exception {
    yarn.max = Resource.newInstance(1000, 8);
    AppCliRun r = AppCliRun.run(yarn, "submit", spec(Map.of()).toString());
    assertEquals(r.toString(), 2, r.code);
    assertTrue(r.toString(), r.err.contains(AppKeys.TASK_MEMORY_MB + ": 2048 is more than"));
    assertTrue(r.toString(), r.err.contains(AppKeys.AM_MEMORY_MB + ": 1024 is more than"));
    assertTrue(r.toString(), r.err.contains(AppKeys.TASK_GPUS + ": the cluster grants"));
    assertTrue(yarn.submitted.isEmpty());
  }
}
