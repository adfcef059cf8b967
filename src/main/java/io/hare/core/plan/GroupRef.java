package io.hare.core.plan;

/**
 * A barrier group of one job in a planning order: group {@code group} (0-based over the job's
 * remaining groups) of job {@code job} (index into the problem's jobs), with its sort key.
 */
public record GroupRef(int job, int group, double key) {}
