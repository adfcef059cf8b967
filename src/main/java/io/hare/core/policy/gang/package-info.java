/**
 * The gang baselines: policies under which a job holds all k GPUs of a round at once and keeps
 * them ({@code gavel-fifo}, {@code srtf}, {@code srtf-hetero}, {@code smith-hetero},
 * {@code tiresias-las} and {@code allox}). They share one lease bookkeeping ({@code GangLeases}),
 * one dispatch pass and one placement of a gang on a type or a span of types, which is why they
 * live together and those parts stay package-private.
 *
 * <p>AlloX is here rather than in a package of its own: its heterogeneity-aware min-cost matching
 * only chooses which waiting job starts on which free GPUs; once started, a job is a gang like
 * any other (arrival-order queue, gang placement, leases), so a separate package would have to
 * make those shared parts public for one policy. The keys of the family (the
 * {@code tiresias.*} and {@code allox.*} ones) are in {@link io.hare.core.policy.gang.GangKeys}.
 */
package io.hare.core.policy.gang;
