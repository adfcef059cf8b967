/**
 * The type-blind task-level baselines: {@code yarn-fifo} (what a stock YARN queue does) and
 * {@code sched-homo} (the Hare paper's Sched_Homo). Like Hare they place a round's tasks one by
 * one as GPUs free (no gang), but they never compare GPU types: a job's times are the cluster's
 * average and which free GPU a task gets is a seeded random draw. That is what makes them the
 * anchors that show what heterogeneity awareness is worth, and it is why they are neither in
 * {@code hare} nor in {@code gang}. They have no keys of their own.
 */
package io.hare.core.policy.blind;
