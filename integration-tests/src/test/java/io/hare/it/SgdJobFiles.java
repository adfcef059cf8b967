package io.hare.it;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;

import io.hare.cli.HareCommand;
import io.hare.cli.WorkloadSources;
import io.hare.embedded.EmbeddedCluster;
import io.hare.embedded.TaskEvents;
import io.hare.example.Env;
import io.hare.example.SgdJob;
import java.io.File;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.YarnApplicationState;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.apache.hadoop.yarn.conf.YarnConfiguration;

/**
 * An example SGD job ({@link SgdJob}) as a user prepares it for {@code hare submit}: its work
 * directory ({@code SgdJob init}), a job spec whose task and sync runs are recorded in the work
 * directory's {@link #EVENTS} file, and the check that the trained model equals the one-process
 * reference.
 */
final class SgdJobFiles {

  static final String EVENTS = "events.txt";

  private SgdJobFiles() {}

  /** The job's shape and where YARN stages it. */
  record Shape(String name, int rounds, int tasks, Path staging) {}

  /** {@code SgdJob init} into {@code dir} (emptied first), in-process. */
  static Path init(Path dir, int seed) throws Exception {
    FileUtil.fullyDelete(dir.toFile());
    assertEquals(SgdJob.OK, sgd("init", "--work-dir", dir.toString(), "--seed",
        Integer.toString(seed)));
    return dir;
  }

  /**
   * {@code job}'s spec file, {@code job.xml}: SgdJob tasks (each after {@code taskPrelude}, a
   * shell command or empty), no Hare jar named (the client ships its own).
   */
  static Path writeSpec(Path job, Shape shape, String taskPrelude) throws Exception {
    Path events = job.resolve(EVENTS);
    Path spec = job.resolve("job.xml");
    StringBuilder xml = new StringBuilder("<configuration>\n");
    spec(shape, "'" + job + "'", task -> TaskEvents.wrapTask(taskPrelude + task, events),
        sync -> TaskEvents.wrapSync(sync, events))
        .forEach((k, v) -> xml.append(prop(k, v)));
    Files.writeString(spec, xml.append("</configuration>\n").toString(), StandardCharsets.UTF_8);
    return spec;
  }

  /**
   * The spec's keys for SgdJob tasks and sync step on {@code workDir} (quoted for the shell if it
   * needs it), each command as {@code task} and {@code sync} wrap it.
   */
  static Map<String, String> spec(Shape shape, String workDir, UnaryOperator<String> task,
      UnaryOperator<String> sync) {
    String java = "\"$JAVA_HOME\"/bin/java -Xmx128m io.hare.example.SgdJob";
    String where = " --work-dir " + workDir;
    Map<String, String> m = new LinkedHashMap<>();
    m.put("yarn.app.hare.job.name", shape.name());
    m.put("yarn.app.hare.job.model", "resnet18");
    m.put("yarn.app.hare.job.rounds", Integer.toString(shape.rounds()));
    m.put("yarn.app.hare.job.tasks-per-round", Integer.toString(shape.tasks()));
    m.put("yarn.app.hare.job.staging-dir", shape.staging().toString());
    m.put("yarn.app.hare.task.command", task.apply(java + " task" + where));
    m.put("yarn.app.hare.sync.command", sync.apply(java + " sync" + where));
    m.put("yarn.app.hare.task.memory-mb", "256");
    m.put("yarn.app.hare.am.memory-mb", "512");
    return m;
  }

  /**
   * {@code hare submit --detach SPEC} in-process against {@code cluster}, as a user runs it, with
   * the AM jar this build made ({@code target/hare-yarn.jar}) and {@code more} as {@code -D}.
   */
  static ApplicationId submit(EmbeddedCluster cluster, Path spec, String... more)
      throws Exception {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    List<String> args = new ArrayList<>(List.of("submit",
        "--detach", spec.toString(),
        "-D", YarnConfiguration.RM_ADDRESS + "=" + cluster.conf().get(YarnConfiguration.RM_ADDRESS),
        "-D", YarnConfiguration.YARN_APPLICATION_CLASSPATH + "="
            + cluster.conf().get(YarnConfiguration.YARN_APPLICATION_CLASSPATH),
        "-D", "yarn.app.hare.am.jar=" + new File("target/hare-yarn.jar").getAbsolutePath()));
    for (String d : more) {
      args.add("-D");
      args.add(d);
    }
    int code = HareCommand.commandLine(new PrintWriter(out), new PrintWriter(err),
        WorkloadSources.STANDARD, Map.of()).execute(args.toArray(String[]::new));
    assertEquals("hare submit: " + err, HareCommand.OK, code);
    return ApplicationId.fromString(out.toString().strip().lines().findFirst().orElseThrow());
  }

  /** Whether YARN says the application ended (finished, failed or killed); false if unknown. */
  static boolean ended(YarnClient yarn, ApplicationId id) {
    try {
      return EnumSet.of(YarnApplicationState.FINISHED, YarnApplicationState.FAILED,
          YarnApplicationState.KILLED).contains(yarn.getApplicationReport(id)
          .getYarnApplicationState());
    } catch (Exception e) {
      return false;
    }
  }

  static TaskEvents.Runs runs(Path job) throws Exception {
    return TaskEvents.read(job.resolve(EVENTS));
  }

  /** The model after R rounds is byte-identical to {@code SgdJob reference}'s. */
  static void assertEqualsReference(Path dir, Shape shape) throws Exception {
    int r = shape.rounds();
    assertEquals(SgdJob.OK, sgd("reference", "--work-dir", dir.toString(), "--rounds",
        Integer.toString(r), "--tasks-per-round", Integer.toString(shape.tasks())));
    byte[] trained = Files.readAllBytes(dir.resolve("model-r" + r));
    byte[] reference = Files.readAllBytes(dir.resolve("reference-model-r" + r));
    assertArrayEquals(dir + ": model-r" + r + " differs from the reference", reference, trained);
  }

  private static String prop(String name, String value) {
    return "  <property><name>" + name + "</name><value>" + value.replace("&", "&amp;")
        .replace("<", "&lt;").replace(">", "&gt;") + "</value></property>\n";
  }

  private static int sgd(String... args) {
    StringWriter out = new StringWriter();
    return SgdJob.commandLine(new PrintWriter(out), new PrintWriter(out), Env.SYSTEM)
        .execute(args);
  }
}
