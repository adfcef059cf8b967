import io.hare.embedded.EmbeddedCluster;
import io.hare.yarn.app.AppKeys;
import io.hare.yarn.app.JobSpecValidator;
import io.hare.yarn.app.JobSubmitter;
import io.hare.yarn.app.YarnApps;
import io.hare.yarn.app.YarnClientApps;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.YarnApplicationState;

/**
 * What an ApplicationMaster's start costs, in CPU ms up to its first asks (its log line
 * "registered; this JVM used N ms of CPU up to here"), per variant of AM jar and JVM options
 * (docs/performance.md, section 3). One embedded node; jobs of 1 round x 1 task ({@code true})
 * one after another, the variants interleaved REPS times. Build and run from the repository
 * root after {@code mvn -B -o -DskipTests package}:
 *
 * <pre>
 * CP="$PWD/target/hare-yarn.jar:$PWD/target/lib/*:$PWD/target/embedded-lib/*"
 * javac -cp "$CP" -d /tmp/asb dist/bench/start-cost/AmStartBench.java
 * java -Dlog4j.configuration=file:/dev/null -cp "/tmp/asb:$CP" AmStartBench /tmp/asb/run 3 \
 *   "$PWD/target/hare-yarn.jar|" "$PWD/target/hare-yarn.jar|-XX:TieredStopAtLevel=1"
 * </pre>
 *
 * Each variant is {@code JAR|JVM OPTIONS}; prints a RESULT line per AM and a MEDIAN per variant
 * (-1: the AM wrote no such line; its AppMaster.stderr under DIR says why). The classpath must be
 * absolute: the containers get this JVM's.
 */
public class AmStartBench {

  private static final String LINE = "this JVM used ";

  public static void main(String[] a) throws Exception {
    File dir = new File(a[0]);
    int reps = Integer.parseInt(a[1]);
    try (EmbeddedCluster cluster = EmbeddedCluster.start(new File(dir, "cluster"),
        "am-start-bench", List.of(new EmbeddedCluster.Node("v100", 1)),
        new Configuration(false));
        YarnApps apps = YarnClientApps.open(cluster.conf())) {
      Map<String, List<Long>> res = new LinkedHashMap<>();
      for (int r = 0; r < reps; r++) {
        for (int v = 2; v < a.length; v++) {
          String[] jarOpts = a[v].split("\\|", 2);
          Configuration c = new Configuration(false);
          c.set(AppKeys.JOB_NAME, "am-start-bench");
          c.setInt(AppKeys.JOB_ROUNDS, 1);
          c.setInt(AppKeys.JOB_TASKS_PER_ROUND, 1);
          c.set(AppKeys.JOB_STAGING_DIR, new File(dir, "staging").getAbsolutePath());
          c.set(AppKeys.TASK_COMMAND, "true");
          c.set(AppKeys.TASK_MODE, "process");
          c.setInt(AppKeys.TASK_MEMORY_MB, 256);
          c.setInt(AppKeys.AM_MEMORY_MB, 512);
          c.setInt(AppKeys.AM_MAX_ATTEMPTS, 1);
          c.set(AppKeys.AM_JAVA_OPTS, jarOpts[1]);
          c.set(AppKeys.AM_JAR, jarOpts[0]);
          ApplicationId id = new JobSubmitter(apps, cluster.conf())
              .submit(JobSpecValidator.read(c));
          while (!EnumSet.of(YarnApplicationState.FINISHED, YarnApplicationState.FAILED,
              YarnApplicationState.KILLED).contains(apps.report(id).getYarnApplicationState())) {
            Thread.sleep(200);
          }
          long ms = -1;
          for (File d : cluster.logDirs()) {
            Path p = d.toPath().resolve(id.toString());
            if (!Files.exists(p)) {
              continue;
            }
            try (Stream<Path> s = Files.walk(p)) {
              for (Path f : s.filter(x -> x.getFileName().toString().equals("AppMaster.stderr"))
                  .toList()) {
                for (String l : Files.readAllLines(f)) {
                  int i = l.indexOf(LINE);
                  if (i >= 0) {
                    ms = Long.parseLong(l.substring(i + LINE.length()).split(" ")[0]);
                  }
                }
              }
            }
          }
          res.computeIfAbsent(a[v], k -> new ArrayList<>()).add(ms);
          System.out.println("RESULT " + a[v] + " " + id + " " + ms);
        }
      }
      res.forEach((k, l) -> {
        List<Long> s = new ArrayList<>(l);
        Collections.sort(s);
        System.out.println("MEDIAN " + k + " " + s.get(s.size() / 2) + " " + l);
      });
    }
  }
}
