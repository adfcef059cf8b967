/**
 * The policy API: what a host (the ResourceManager plugin, the simulator) gives a policy
 * ({@link io.hare.core.policy.ClusterView}, {@link io.hare.core.policy.JobView},
 * {@link io.hare.core.policy.GpuView}) and what it gets back
 * ({@link io.hare.core.policy.Assignment}), the {@link io.hare.core.policy.SchedulingPolicy}
 * contract itself, the settings a policy reads ({@link io.hare.core.policy.PolicyConfig}) and
 * the registry that names the built-in ones ({@link io.hare.core.policy.Policies}). Hosts
 * depend on this package only, so a policy family can change inside its own package without a
 * host noticing; the families are {@code hare}, {@code hlas}, {@code gang} and {@code blind}.
 * Like all of {@code io.hare.core}, it never imports Hadoop.
 */
package io.hare.core.policy;
