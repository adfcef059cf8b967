package io.hare.bench;

/**
 * What one scheduler did on the bench workload.
 *
 * @param fill empty cluster to full (or to every first-round ask placed)
 * @param churn the measured steady-churn ticks (tasks ending, rounds re-asking)
 * @param fillHeartbeats duration of every heartbeat of the fill phase
 * @param churnHeartbeats wall duration of every heartbeat of the measured churn ticks
 * @param churnHeartbeatsCpu the same heartbeats' CPU time on the RM's dispatcher thread
 * @param churnPassesCpu the CPU time of those heartbeats that ran a policy pass (Hare only)
 * @param replans the scheduler's background re-plans over the whole run, wall time
 * @param replansCpu the same re-plans' CPU time
 * @param replanSnapshots the split re-plans' snapshots, taken in heartbeats, wall time
 * @param stateHeapBytes RM heap after GC with every job active and the cluster full, minus the
 *     RM's heap after GC with only the nodes registered
 * @param filled whether the fill phase reached its target before stalling
 */
public record RunResult(Contender contender, PhaseResult fill, PhaseResult churn,
    Latency fillHeartbeats, Latency churnHeartbeats, Latency churnHeartbeatsCpu,
    Latency churnPassesCpu, Latency replans, Latency replansCpu, Latency replanSnapshots,
    long stateHeapBytes,
    boolean filled, Violations violations) {}
