package io.hare.bench;

import org.apache.hadoop.yarn.util.Clock;

/**
 * The scheduler's clock in a bench run: set by the bench at each tick, so time-based scheduler
 * behaviour (Hare's re-plan interval, measured task durations) follows the simulated heartbeat
 * intervals and not how fast the bench machine is.
 */
final class TickClock implements Clock {

  private volatile long nowMs;

  void set(long ms) {
    nowMs = ms;
  }

  @Override
  public long getTime() {
    return nowMs;
  }
}
