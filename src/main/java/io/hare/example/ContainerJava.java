package io.hare.example;

/**
 * How the demo and the benches start the example job's JVMs in containers: its tasks, workers,
 * sync steps and the ApplicationMasters that run them.
 */
public final class ContainerJava {

  /**
   * JVM options of those short-lived, small JVMs: C1 only, serial GC and no perf data start one
   * in about 0.3 s of CPU instead of 0.5 s, which matters when a dozen of them share two cores.
   */
  public static final String LEAN_OPTS = "-XX:+UseSerialGC -XX:TieredStopAtLevel=1"
      + " -XX:-UsePerfData";

  private ContainerJava() {}

  /**
   * The command that runs {@link SgdJob} in a container (the container's {@code JAVA_HOME},
   * 128 MB of heap, {@link #LEAN_OPTS}), to be followed by its subcommand and options.
   */
  public static String sgdJob() {
    return "\"$JAVA_HOME\"/bin/java -Xmx128m " + LEAN_OPTS + " " + SgdJob.class.getName();
  }
}
