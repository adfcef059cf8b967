package io.hare.core.plan;

/** One task in a plan: a task of round {@code round} of job {@code jobId} on a given GPU. */
public record PlannedTask(String jobId, int round, long startMs, long endMs) {}
