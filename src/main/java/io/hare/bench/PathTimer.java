package io.hare.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.function.BooleanSupplier;

/**
 * Time a scheduler spends in its scheduling path, as the {@link TimedScheduler}s measure it:
 * each node heartbeat ({@code NODE_UPDATE}, where containers are placed and completed ones
 * released) and each AM {@code allocate} call (where asks arrive and allocations are handed
 * out). Both wall time and the calling thread's CPU time are kept: wall time is what a
 * heartbeat costs the RM, and includes GC pauses and, on a shared machine, time the thread was
 * not running; CPU time is the scheduler's own work. Heartbeats run on the RM's dispatcher thread
 * and AM calls on the bench's, so every method is synchronized; the timing itself costs about a
 * microsecond per call.
 */
public final class PathTimer {

  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  /** The totals at one moment; differences of two give a phase. */
  public record Snapshot(int heartbeats, long heartbeatNanos, long heartbeatCpuNanos,
      long allocateCalls, long allocateNanos, long allocateCpuNanos) {

    /** What happened between {@code earlier} and this snapshot. */
    public Snapshot since(Snapshot earlier) {
      return new Snapshot(heartbeats - earlier.heartbeats,
          heartbeatNanos - earlier.heartbeatNanos,
          heartbeatCpuNanos - earlier.heartbeatCpuNanos, allocateCalls - earlier.allocateCalls,
          allocateNanos - earlier.allocateNanos, allocateCpuNanos - earlier.allocateCpuNanos);
    }

    /** Heartbeat and allocate wall time together. */
    public long pathNanos() {
      return heartbeatNanos + allocateNanos;
    }

    /** Heartbeat and allocate CPU time together. */
    public long pathCpuNanos() {
      return heartbeatCpuNanos + allocateCpuNanos;
    }
  }

  /** A started measurement of one call. */
  public record Start(long wallNanos, long cpuNanos) {}

  private long[] wall = new long[4096];
  private long[] cpu = new long[4096];
  /** Whether each heartbeat ran a policy pass (Hare's; never for other schedulers). */
  private boolean[] passed = new boolean[4096];
  private int count;
  private long heartbeatNanos;
  private long heartbeatCpuNanos;
  private long allocateCalls;
  private long allocateNanos;
  private long allocateCpuNanos;

  /**
   * Starts timing a call on this thread. The CPU clock is read outside the wall-clock window on
   * both ends: here it is a system call of several microseconds, which the wall time of a call
   * must not include.
   */
  static Start start() {
    long cpu = THREADS.getCurrentThreadCpuTime();
    return new Start(System.nanoTime(), cpu);
  }

  void heartbeat(Start s) {
    heartbeat(s, () -> false);
  }

  /** A heartbeat's end; {@code pass} says, after the clocks are read, whether it ran a pass. */
  void heartbeat(Start s, BooleanSupplier pass) {
    long w = System.nanoTime() - s.wallNanos();
    long c = THREADS.getCurrentThreadCpuTime() - s.cpuNanos();
    boolean p = pass.getAsBoolean();
    synchronized (this) {
      if (count == wall.length) {
        wall = Arrays.copyOf(wall, count * 2);
        cpu = Arrays.copyOf(cpu, count * 2);
        passed = Arrays.copyOf(passed, count * 2);
      }
      wall[count] = w;
      passed[count] = p;
      cpu[count++] = c;
      heartbeatNanos += w;
      heartbeatCpuNanos += c;
    }
  }

  void allocate(Start s) {
    long w = System.nanoTime() - s.wallNanos();
    long c = THREADS.getCurrentThreadCpuTime() - s.cpuNanos();
    synchronized (this) {
      allocateCalls++;
      allocateNanos += w;
      allocateCpuNanos += c;
    }
  }

  public synchronized Snapshot snapshot() {
    return new Snapshot(count, heartbeatNanos, heartbeatCpuNanos, allocateCalls, allocateNanos,
        allocateCpuNanos);
  }

  /** Wall durations of the heartbeats from index {@code from} (a snapshot's count) on. */
  public synchronized long[] heartbeatsSince(int from) {
    return Arrays.copyOfRange(wall, Math.min(from, count), count);
  }

  /** CPU durations of the heartbeats from index {@code from} on that ran a policy pass. */
  public synchronized long[] passCpuSince(int from) {
    long[] out = new long[count];
    int n = 0;
    for (int i = Math.min(from, count); i < count; i++) {
      if (passed[i]) {
        out[n++] = cpu[i];
      }
    }
    return Arrays.copyOf(out, n);
  }

  /** CPU durations of the heartbeats from index {@code from} on. */
  public synchronized long[] heartbeatCpuSince(int from) {
    return Arrays.copyOfRange(cpu, Math.min(from, count), count);
  }
}
