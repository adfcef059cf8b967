/**
 * The {@code hlas} policy: heterogeneity-aware least attained service, the non-clairvoyant
 * policy of the journal version of Hare, in our own design since only that paper's abstract is
 * public. Its type matching (a models x GPU-types transport problem) and per-job bookkeeping are
 * package-private because only hlas uses them; its {@code yarn.scheduler.hare.hlas.*} keys are
 * in {@link io.hare.core.policy.hlas.HlasKeys}.
 */
package io.hare.core.policy.hlas;
