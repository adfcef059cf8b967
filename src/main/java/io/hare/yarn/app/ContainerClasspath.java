package io.hare.yarn.app;

import java.net.URISyntaxException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.api.ApplicationConstants;
import org.apache.hadoop.yarn.api.ApplicationConstants.Environment;
import org.apache.hadoop.yarn.conf.YarnConfiguration;

/**
 * The classpath of Hare's containers (AM and tasks): the container's working directory first
 * (the localized Hare jar and {@link #dependencyJar picocli}), then the cluster's
 * {@code yarn.application.classpath} (Hadoop). It is set as {@code CLASSPATH}, so a task or sync
 * command can run {@code $JAVA_HOME/bin/java io.hare.example.SgdJob task} without {@code -cp}.
 */
public final class ContainerClasspath {

  private ContainerClasspath() {}

  /** {@code {{PWD}}/*} then the cluster's classpath, expanded by the NodeManager. */
  public static String of(Configuration conf) {
    StringBuilder cp = new StringBuilder(Environment.PWD.$$()).append("/*");
    for (String c : conf.getStrings(YarnConfiguration.YARN_APPLICATION_CLASSPATH,
        YarnConfiguration.DEFAULT_YARN_CROSS_PLATFORM_APPLICATION_CLASSPATH)) {
      cp.append(ApplicationConstants.CLASS_PATH_SEPARATOR).append(c.trim());
    }
    return cp.toString();
  }

  /**
   * The jar of the one non-Hadoop library the Hare jar's commands need in a container
   * (picocli, for {@code io.hare.example.SgdJob}); a cluster's classpath brings Hadoop but not
   * picocli. Empty when picocli was not loaded from a jar (e.g. a build directory), or when it
   * was loaded from {@code hareJar} itself (the tarball's plugin jar carries it relocated), which
   * the job ships anyway.
   */
  public static Optional<Path> dependencyJar(Path hareJar) {
    try {
      Path p = Paths.get(picocli.CommandLine.class.getProtectionDomain().getCodeSource()
          .getLocation().toURI());
      return p.toString().endsWith(".jar")
          && !p.toAbsolutePath().equals(hareJar.toAbsolutePath()) ? Optional.of(p)
          : Optional.empty();
    } catch (URISyntaxException | RuntimeException e) {
      return Optional.empty();
    }
  }
}
