package io.hare.bench;

import java.util.Arrays;

/**
 * Wall time a scheduler spends in its scheduling path, as the {@link TimedScheduler}s measure
 * it: each node heartbeat ({@code NODE_UPDATE}, where containers are placed and completed ones
 * released) and each AM {@code allocate} call (where asks arrive and allocations are handed
 * out). Heartbeats run on the RM's dispatcher thread and AM calls on the bench's, so every
 * method is synchronized; the cost is a few tens of nanoseconds on a path of microseconds.
 */
public final class PathTimer {

  /** The totals at one moment; differences of two give a phase. */
  public record Snapshot(int heartbeats, long heartbeatNanos, long allocateCalls,
      long allocateNanos) {

    /** What happened between {@code earlier} and this snapshot. */
    public Snapshot since(Snapshot earlier) {
      return new Snapshot(heartbeats - earlier.heartbeats,
          heartbeatNanos - earlier.heartbeatNanos, allocateCalls - earlier.allocateCalls,
          allocateNanos - earlier.allocateNanos);
    }

    /** Heartbeat and allocate time together. */
    public long pathNanos() {
      return heartbeatNanos + allocateNanos;
    }
  }

  private long[] heartbeats = new long[4096];
  private int count;
  private long heartbeatNanos;
  private long allocateCalls;
  private long allocateNanos;

  synchronized void heartbeat(long nanos) {
    if (count == heartbeats.length) {
      heartbeats = Arrays.copyOf(heartbeats, count * 2);
    }
    heartbeats[count++] = nanos;
    heartbeatNanos += nanos;
  }

  synchronized void allocate(long nanos) {
    allocateCalls++;
    allocateNanos += nanos;
  }

  public synchronized Snapshot snapshot() {
    return new Snapshot(count, heartbeatNanos, allocateCalls, allocateNanos);
  }

  /** Durations of the heartbeats from index {@code from} (a snapshot's count) on, in order. */
  public synchronized long[] heartbeatsSince(int from) {
    return Arrays.copyOfRange(heartbeats, Math.min(from, count), count);
  }
}
