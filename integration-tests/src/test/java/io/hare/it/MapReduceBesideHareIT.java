package io.hare.it;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.hare.embedded.EmbeddedCluster;
import io.hare.embedded.TaskEvents;
import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.SleepJob;
import org.apache.hadoop.mapreduce.TaskReport;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.TypeConverter;
import org.apache.hadoop.mapreduce.v2.jobhistory.JHAdminConfig;
import org.apache.hadoop.test.GenericTestUtils;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ApplicationReport;
import org.apache.hadoop.yarn.api.records.FinalApplicationStatus;
import org.apache.hadoop.yarn.applications.distributedshell.ApplicationMaster;
import org.apache.hadoop.yarn.applications.distributedshell.Client;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * Stock non-GPU applications beside Hare jobs under the Hare scheduler, on an
 * {@link EmbeddedCluster} of two nodes of two GPUs and 4 GB each: Hadoop's own MapReduce
 * {@code SleepJob} (more 256 MB maps than the cluster holds at once, so they run in waves) and a
 * distributedshell without GPUs, both in {@code default}. Two Hare jobs run in two queues of half
 * the GPUs each. A first Hare job asks for GPUs before they come, so the scheduler
 * knows a GPU task's size; a second one comes while the first maps run and more wait. Every
 * application succeeds, and the second Hare job is not held back by the MapReduce job: each node
 * keeps, for each free GPU, the memory of a GPU task ({@code GpuReserve}), so all its rounds run
 * before the first map ends. With the reserve off
 * ({@code yarn.scheduler.hare.non-gpu.reserve-per-gpu.memory-mb=0}) the maps take every byte a
 * task frees, and the second job's first task started only after the maps' waves (measured:
 * 285 s after the first map's start with 24 maps, against 19-29 s with the reserve).
 */
public class MapReduceBesideHareIT {

  /**
   * More maps than run at once (each node's vcores, less a GPU task's for each free GPU, hold
   * about ten), and few enough for two waves: every wave costs a map's sleep.
   */
  private static final int MAPS = 16;
  private static final int MAP_MB = 256;
  private static final long MAP_SLEEP_MS = 45_000;
  private static final int ROUNDS = 3;
  private static final int TASKS = 2;
  private static final String SHELL = "hare-it-shell-beside-mr";
  private static final List<String> QUEUES = List.of("team-a", "team-b");

  private static EmbeddedCluster hare;
  private static YarnClient yarn;
  private static Path base;

  @BeforeClass
  public static void startCluster() throws Exception {
    Configuration settings = new Configuration(false);
    // the MR ApplicationMaster gives every map container the shuffle service's data, which a
    // NodeManager refuses unless it runs that service, even for a job without reduces
    settings.set(YarnConfiguration.NM_AUX_SERVICES, "mapreduce_shuffle");
    settings.set("yarn.nodemanager.aux-services.mapreduce_shuffle.class",
        "org.apache.hadoop.mapred.ShuffleHandler");
    settings.setInt("mapreduce.shuffle.port", 0); // two NodeManagers in one JVM
    // the Hare jobs in two queues of half the GPUs each; MapReduce and distributedshell in
    // default, which keeps no GPU guarantee
    settings.set("yarn.scheduler.hare.queues", String.join(",", QUEUES));
    for (String q : QUEUES) {
      settings.set("yarn.scheduler.hare.queue." + q + ".guaranteed-gpu-share", "0.5");
    }
    hare = EmbeddedCluster.start(GenericTestUtils.getTestDir("MapReduceBesideHareIT"),
        "MapReduceBesideHareIT", List.of(new EmbeddedCluster.Node("v100", 2),
            new EmbeddedCluster.Node("v100", 2)), settings);
    base = GenericTestUtils.getTestDir("MapReduceBesideHareIT-jobs").toPath();
    FileUtil.fullyDelete(base.toFile());
    yarn = YarnClient.createYarnClient();
    yarn.init(new YarnConfiguration(hare.conf()));
    yarn.start();
  }

  @AfterClass
  public static void stopCluster() {
    if (yarn != null) {
      yarn.stop();
    }
    if (hare != null) {
      hare.close();
    }
    FileUtil.fullyDelete(new File(System.getProperty("user.home"), SHELL));
  }

  @Test(timeout = 600_000)
  public void stockMapReduceAndDistributedShellSucceedWithoutHoldingBackTheGpuTasks()
      throws Exception {
    // a first Hare job asks for GPUs before the others come: the scheduler learns a GPU task's
    // size, which it keeps free on a node for each free GPU
    Path first = job("first", 5);
    ApplicationId firstApp = SgdJobFiles.submit(hare, spec(first, "first"),
        "yarn.app.hare.job.queue=" + QUEUES.get(0));
    GenericTestUtils.waitFor(() -> started(first) > 0, 250, 240_000);

    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      Job mr = sleepJob();
      mr.submit();
      Future<TaskReport[]> mrMaps = pool.submit(() -> maps(mr));
      Future<Boolean> shell = pool.submit(MapReduceBesideHareIT::shell);
      // the second Hare job comes while the maps hold the cluster's memory and more wait
      GenericTestUtils.waitFor(() -> mapsRunning(mr) > 0, 250, 240_000);
      Path second = job("second", 6);
      ApplicationId secondApp = SgdJobFiles.submit(hare, spec(second, "second"),
          "yarn.app.hare.job.queue=" + QUEUES.get(1));

      List<ApplicationId> hareApps = List.of(firstApp, secondApp);
      for (int i = 0; i < hareApps.size(); i++) {
        ApplicationId id = hareApps.get(i);
        GenericTestUtils.waitFor(() -> ended(id), 250, 480_000);
        ApplicationReport r = yarn.getApplicationReport(id);
        assertEquals(id + ": " + r.getDiagnostics(), FinalApplicationStatus.SUCCEEDED,
            r.getFinalApplicationStatus());
        assertEquals(id + "'s queue", QUEUES.get(i), r.getQueue());
      }
      SgdJobFiles.assertEqualsReference(first, shape("first"));
      SgdJobFiles.assertEqualsReference(second, shape("second"));
      TaskReport[] maps = mrMaps.get(540, TimeUnit.SECONDS);
      ApplicationReport m = yarn.getApplicationReport(mrApp(mr));
      assertEquals("the MapReduce job: " + m.getDiagnostics(), FinalApplicationStatus.SUCCEEDED,
          m.getFinalApplicationStatus());
      assertTrue("the distributedshell application succeeded", shell.get(540, TimeUnit.SECONDS));

      assertEquals(Arrays.toString(maps), MAPS, maps.length);
      long firstMapStart = Arrays.stream(maps).mapToLong(TaskReport::getStartTime).min()
          .orElseThrow();
      long firstMapEnd = Arrays.stream(maps).mapToLong(TaskReport::getFinishTime).min()
          .orElseThrow();
      long lastMapStart = Arrays.stream(maps).mapToLong(TaskReport::getStartTime).max()
          .orElseThrow();
      // a map that started only when another ended waited from the first map's start on
      assertTrue("the maps ran in waves (they wanted more than the cluster had): last start "
          + lastMapStart + ", first end " + firstMapEnd, lastMapStart >= firstMapEnd);
      List<TaskEvents.Attempt> tasks = SgdJobFiles.runs(second).attempts();
      TaskEvents.Attempt earliest = tasks.stream()
          .min(Comparator.comparingLong(TaskEvents.Attempt::startMs)).orElseThrow();
      TaskEvents.Attempt last = tasks.stream()
          .max(Comparator.comparingLong(TaskEvents.Attempt::endMs)).orElseThrow();
      System.out.printf("maps: first start %d, first end +%d ms, last start +%d ms; second Hare"
          + " job: first task +%d ms, last end +%d ms%n", firstMapStart,
          firstMapEnd - firstMapStart, lastMapStart - firstMapStart,
          earliest.startMs() - firstMapStart, last.endMs() - firstMapStart);
      assertTrue("the second Hare job ran while maps were running: " + earliest
          + " started before the first map " + firstMapStart, earliest.startMs() > firstMapStart);
      assertTrue("every task of the second Hare job ran while the first maps held the memory"
          + " and others waited, none waited for a map to end: its last " + last + " ended at "
          + last.endMs() + ", the first map at " + firstMapEnd, last.endMs() < firstMapEnd);
    } finally {
      pool.shutdownNow();
    }
  }

  private static Path job(String name, int seed) throws Exception {
    return SgdJobFiles.init(base.resolve(name), seed);
  }

  private static SgdJobFiles.Shape shape(String name) {
    return new SgdJobFiles.Shape(name, ROUNDS, TASKS, base.resolve("staging"));
  }

  private static Path spec(Path job, String name) throws Exception {
    return SgdJobFiles.writeSpec(job, shape(name), "");
  }

  /**
   * The maps' reports as the MR ApplicationMaster last gave them, polled until its application
   * ends: after that the MR client asks a JobHistoryServer, which this cluster does not run.
   */
  private static TaskReport[] maps(Job mr) throws Exception {
    AtomicReference<TaskReport[]> seen = new AtomicReference<>(new TaskReport[0]);
    ApplicationId app = mrApp(mr);
    GenericTestUtils.waitFor(() -> {
      try {
        TaskReport[] now = mr.getTaskReports(TaskType.MAP);
        if (now.length > 0) {
          seen.set(now);
        }
      } catch (IOException e) {
        // the ApplicationMaster is not up yet, or has just gone: the last reports stand
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return true;
      }
      return ended(app);
    }, 250, 540_000);
    return seen.get();
  }

  private static ApplicationId mrApp(Job mr) {
    return TypeConverter.toYarn(mr.getJobID()).getAppId();
  }

  /** Maps running or done (a map that ran holds or held a container). */
  private static int mapsRunning(Job mr) {
    try {
      return (int) Arrays.stream(mr.getTaskReports(TaskType.MAP))
          .filter(t -> t.getStartTime() > 0).count();
    } catch (Exception e) {
      return 0; // the MR ApplicationMaster is not up yet
    }
  }

  /** Hadoop's SleepJob, map-only: {@value #MAPS} maps of {@value #MAP_MB} MB. */
  private static Job sleepJob() throws Exception {
    Configuration c = new Configuration(hare.conf());
    c.set(MRConfig.FRAMEWORK_NAME, MRConfig.YARN_FRAMEWORK_NAME);
    c.set(MRJobConfig.MR_AM_STAGING_DIR, base.resolve("mr-staging").toString());
    c.set(JHAdminConfig.MR_HISTORY_INTERMEDIATE_DONE_DIR,
        base.resolve("mr-history/intermediate").toString());
    c.set(JHAdminConfig.MR_HISTORY_DONE_DIR, base.resolve("mr-history/done").toString());
    // the containers' classpath is this JVM's (EmbeddedCluster), which holds MapReduce
    c.set(MRJobConfig.MAPREDUCE_APPLICATION_CLASSPATH,
        hare.conf().get(YarnConfiguration.YARN_APPLICATION_CLASSPATH));
    c.setInt(MRJobConfig.MR_AM_VMEM_MB, 512);
    c.set(MRJobConfig.MR_AM_COMMAND_OPTS, "-Xmx300m");
    c.setInt(MRJobConfig.MAP_MEMORY_MB, MAP_MB);
    c.set(MRJobConfig.MAP_JAVA_OPTS, "-Xmx200m");
    c.setInt(MRJobConfig.MAP_CPU_VCORES, 1);
    SleepJob sleep = new SleepJob();
    sleep.setConf(c);
    return sleep.createJob(MAPS, 0, MAP_SLEEP_MS, 1, 0, 0);
  }

  /** distributedshell: two containers without GPUs. */
  private static boolean shell() throws Exception {
    String jar = Path.of(ApplicationMaster.class.getProtectionDomain().getCodeSource()
        .getLocation().toURI()).toString();
    Client client = new Client(new YarnConfiguration(hare.conf()));
    boolean ok = client.init(new String[] {"--jar", jar, "--appname", SHELL,
        "--shell_command", "sleep 3", "--num_containers", "2",
        "--container_resources", "memory-mb=256,vcores=1", "--master_memory", "256",
        "--timeout", "480000"});
    assertTrue("distributedshell took its options", ok);
    return client.run();
  }

  private static int started(Path job) {
    try {
      return SgdJobFiles.runs(job).attempts().size();
    } catch (Exception e) {
      return 0; // no events file yet
    }
  }

  private static boolean ended(ApplicationId id) {
    return SgdJobFiles.ended(yarn, id);
  }
}
