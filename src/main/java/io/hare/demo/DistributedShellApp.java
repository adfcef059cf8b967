package io.hare.demo;

import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ApplicationReport;
import org.apache.hadoop.yarn.api.records.YarnApplicationState;
import org.apache.hadoop.yarn.applications.distributedshell.ApplicationMaster;
import org.apache.hadoop.yarn.applications.distributedshell.Client;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.exceptions.YarnException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hadoop's own distributedshell (3.4.2, the release on Maven Central) beside the Hare jobs:
 * {@code containers} containers of 256 MB and one vcore, no GPU, each running
 * {@code sleep sleepS}. Its stock {@link Client} submits it and watches it on a thread of its
 * own, as {@code yarn jar ... distributedshell} would; the application id comes from the
 * ResourceManager's list, by name, because the client keeps it to itself.
 *
 * <p>The client copies its ApplicationMaster's jar to {@code ~/NAME/APP_ID} on the cluster's
 * file system (here the local one); {@link #cleanUp} removes it.
 */
public final class DistributedShellApp implements StockApplication {

  private static final Logger LOG = LoggerFactory.getLogger(DistributedShellApp.class);
  public static final String KIND = "distributedshell";
  /** How long the run waits for the ResourceManager to list a submitted application. */
  private static final long LIST_TIMEOUT_MS = 60_000;

  private final String name;
  private final String queue;
  private final long submitAtMs;
  private final int containers;
  private final int sleepS;
  private ExecutorService client;
  private ApplicationId id;

  public DistributedShellApp(String name, String queue, long submitAtMs, int containers,
      int sleepS) {
    if (containers < 1 || sleepS < 0 || submitAtMs < 0) {
      throw new IllegalArgumentException("bad distributedshell " + name + ": " + containers
          + " containers, sleep " + sleepS + " s, at " + submitAtMs + " ms");
    }
    this.name = name;
    this.queue = queue;
    this.submitAtMs = submitAtMs;
    this.containers = containers;
    this.sleepS = sleepS;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public String kind() {
    return KIND;
  }

  @Override
  public String queue() {
    return queue;
  }

  @Override
  public long submitAtMs() {
    return submitAtMs;
  }

  /** Its containers, each running {@code sleep}. */
  public int containers() {
    return containers;
  }

  /** How long each container sleeps, s. */
  public int sleepS() {
    return sleepS;
  }

  @Override
  public ApplicationId submit(YarnConfiguration conf, File dir) throws IOException,
      InterruptedException {
    Client c;
    try {
      c = new Client(new YarnConfiguration(conf));
      boolean ok = c.init(new String[] {"--jar", amJar(), "--appname", name, "--queue", queue,
          "--shell_command", "sleep " + sleepS, "--num_containers", Integer.toString(containers),
          "--container_resources", "memory-mb=256,vcores=1", "--master_memory", "256",
          "--master_vcores", "1", "--timeout", Long.toString(3_600_000)});
      if (!ok) {
        throw new IOException("distributedshell " + name + " refused its options");
      }
    } catch (IOException e) {
      throw e;
    } catch (Exception e) {
      throw new IOException("cannot set up distributedshell " + name + ": " + e, e);
    }
    client = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "distributedshell-client-" + name);
      t.setDaemon(true);
      return t;
    });
    Future<Boolean> watching = client.submit(c::run);
    try (YarnClient yarn = YarnClient.createYarnClient()) {
      yarn.init(new YarnConfiguration(conf));
      yarn.start();
      long deadline = System.currentTimeMillis() + LIST_TIMEOUT_MS;
      while (System.currentTimeMillis() < deadline) {
        Optional<ApplicationId> found = find(yarn);
        if (found.isPresent()) {
          id = found.get();
          LOG.info("submitted distributedshell {} as {} to queue {}: {} containers of sleep {}",
              name, id, queue, containers, sleepS);
          return id;
        }
        if (watching.isDone()) {
          throw new IOException("the distributedshell client of " + name
              + " ended before its application was listed: " + outcome(watching));
        }
        Thread.sleep(100);
      }
    } catch (YarnException e) {
      throw new IOException("cannot list the applications to find distributedshell " + name, e);
    }
    throw new IOException("the ResourceManager did not list distributedshell " + name
        + " within " + LIST_TIMEOUT_MS + " ms");
  }

  private Optional<ApplicationId> find(YarnClient yarn) throws IOException, YarnException {
    return yarn.getApplications(EnumSet.allOf(YarnApplicationState.class)).stream()
        .filter(r -> r.getName().equals(name)).map(ApplicationReport::getApplicationId)
        .findFirst();
  }

  private static String outcome(Future<Boolean> f) throws InterruptedException {
    try {
      return "returned " + f.get();
    } catch (ExecutionException e) {
      return e.getCause().toString();
    }
  }

  /** The distributedshell jar on this JVM's classpath, which the client ships as its AM. */
  private static String amJar() throws IOException {
    try {
      return Path.of(ApplicationMaster.class.getProtectionDomain().getCodeSource().getLocation()
          .toURI()).toString();
    } catch (URISyntaxException | RuntimeException e) {
      throw new IOException("cannot locate the distributedshell jar: " + e, e);
    }
  }

  @Override
  public void cleanUp() {
    if (client != null) {
      client.shutdownNow();
    }
    if (id != null) {
      File app = new File(new File(System.getProperty("user.home"), name), id.toString());
      FileUtil.fullyDelete(app);
      File parent = app.getParentFile();
      String[] left = parent.list();
      if (left != null && left.length == 0 && !parent.delete()) {
        LOG.debug("could not remove {}", parent);
      }
    }
  }
}
