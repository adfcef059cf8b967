/**
 * The {@code hare} and {@code hare-paper} policies: the paper's Algorithm 1 re-planned online
 * (relaxation, round order, list scheduling) and our measured changes to it (Smith order, type
 * affinity from the relaxation, priority dispatch, sync holds, the starvation guard). Its
 * dispatcher, plan follower and bookkeeping are package-private because no other policy shares
 * them; its {@code yarn.scheduler.hare.hare.*} keys are in {@link
 * io.hare.core.policy.hare.HareKeys}, beside the code that reads them.
 */
package io.hare.core.policy.hare;
