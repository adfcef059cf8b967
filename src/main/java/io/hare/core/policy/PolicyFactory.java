package io.hare.core.policy;

/**
 * Builds a policy from its settings. A factory reads its keys through the typed getters of
 * {@link PolicyConfig}, which collect problems; the registry throws them all after the call.
 */
@FunctionalInterface
public interface PolicyFactory {

  SchedulingPolicy create(PolicyConfig config);
}
