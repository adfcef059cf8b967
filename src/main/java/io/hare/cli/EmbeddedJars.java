package io.hare.cli;

import io.hare.core.BadInputException;
import java.io.File;
import java.nio.file.Path;

/**
 * What {@code hare demo} and {@code hare bench} need to run an embedded cluster: its jars
 * (MiniYARNCluster, in target/embedded-lib of a source checkout, which the tarball's bin/hare does
 * not have) and the Hare jar its jobs localize.
 */
final class EmbeddedJars {

  private EmbeddedJars() {}

  /** A clear message where the tarball's bin/hare, which has no MiniYARNCluster, runs it. */
  static void require(String command) throws BadInputException {
    try {
      Class.forName("org.apache.hadoop.yarn.server.MiniYARNCluster", false,
          EmbeddedJars.class.getClassLoader());
    } catch (ClassNotFoundException e) {
      throw new BadInputException(command + " needs the embedded cluster's jars "
          + "(MiniYARNCluster, in target/embedded-lib of a source checkout): run dist/bin/hare "
          + "from a checkout");
    }
  }

  /** The jar this command runs from, which the embedded cluster's jobs localize. */
  static Path ownJar() throws BadInputException {
    try {
      Path p = Path.of(EmbeddedJars.class.getProtectionDomain().getCodeSource().getLocation()
          .toURI());
      if (p.toString().endsWith(".jar")) {
        return p;
      }
      // a test or IDE run from target/classes: the packaged jar next to it
      File packaged = p.resolveSibling("hare-yarn.jar").toFile();
      if (packaged.isFile()) {
        return packaged.toPath();
      }
      throw new BadInputException("running from " + p + ", not a jar, and there is no "
          + packaged + ": run 'mvn -B -DskipTests package' first");
    } catch (java.net.URISyntaxException e) {
      throw new IllegalStateException("cannot locate the Hare jar", e);
    }
  }
}
