package io.hare.example;

/**
 * How the demo and the benches start the example job's JVMs in containers: its tasks, workers,
 * sync steps and the ApplicationMasters that run them.
 */
public final class ContainerJava {

  /**
   * JVM options of those short-lived, small JVMs: C1 only and no perf data start a worker on
   * 0.50 s of CPU instead of 0.65 s and an ApplicationMaster on 1.5 s instead of 2.7 s, which
   * matters when a dozen of them share two cores. Not the serial collector: on Java 17 the
   * JDK's class data archive maps its heap objects (the module graph among them) with G1 only,
   * and without them an ApplicationMaster's start took 0.1-0.2 s more CPU and a worker's
   * 0.04 s (docs/performance.md, section 3).
   */
  public static final String LEAN_OPTS = "-XX:TieredStopAtLevel=1 -XX:-UsePerfData";

  private ContainerJava() {}

  /**
   * The command that runs {@link SgdJob} in a container (the container's {@code JAVA_HOME},
   * 128 MB of heap, {@link #LEAN_OPTS}), to be followed by its subcommand and options.
   */
  public static String sgdJob() {
    return "\"$JAVA_HOME\"/bin/java -Xmx128m " + LEAN_OPTS + " " + SgdJob.class.getName();
  }
}
