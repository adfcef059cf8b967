package io.hare.core;

import static org.junit.Assert.assertEquals;

import io.hare.core.policy.Policies;
import io.hare.core.policy.gang.GangKeys;
import io.hare.core.policy.hare.HareKeys;
import io.hare.core.policy.hlas.HlasKeys;
import java.util.List;
import org.junit.Test;

/** Misspelt keys are refused with the closest known key; families and other roots pass. */
public class KnownKeysTest {

  private final KnownKeys known = new KnownKeys(Policies.keyClasses(), SchedulerKeys.PREFIX);

  @Test(timeout = 60_000)
  public void knownKeysFamiliesAndOtherRootsPass() {
    assertEquals(List.of(), known.unknown(List.of(SchedulerKeys.POLICY,
        HareKeys.LP_MAX_JOBS, HlasKeys.AGING_RATE, GangKeys.ALLOX_ALPHA,
        SchedulerKeys.WEIGHT_MAX_USER_PREFIX + "alice",
        SchedulerKeys.WEIGHT_MAX_QUEUE_PREFIX + "default", "yarn.resourcemanager.address")));
  }

  @Test(timeout = 60_000)
  public void misspeltFamilyKeyGetsTheClosestKeyOfItsFamily() {
    // the policy families declare their keys beside them, not in SchedulerKeys
    assertEquals(List.of("yarn.scheduler.hare.hare.lp-max-job: unknown key; did you mean "
        + "yarn.scheduler.hare.hare.lp-max-jobs?"),
        known.unknown(List.of("yarn.scheduler.hare.hare.lp-max-job")));
  }

  @Test(timeout = 60_000)
  public void misspeltKeyGetsTheClosestKnownOne() {
    // "polcy" is one edit from "policy"; "weight.maximum" three from "weight.max"
    assertEquals(List.of(
        "yarn.scheduler.hare.polcy: unknown key; did you mean yarn.scheduler.hare.policy?",
        "yarn.scheduler.hare.weight.maximum: unknown key; did you mean "
            + "yarn.scheduler.hare.weight.max?"),
        known.unknown(List.of("yarn.scheduler.hare.weight.maximum",
            "yarn.scheduler.hare.polcy")));
  }

  @Test(timeout = 60_000)
  public void farOffKeyPointsToTheDefaultsFileAndAFamilyNeedsAMember() {
    assertEquals(List.of(
        "yarn.scheduler.hare.totally-different-setting-name: unknown key; see hare-default.xml"
            + " for the known keys",
        "yarn.scheduler.hare.weight.max.user.: unknown key; did you mean "
            + "yarn.scheduler.hare.weight.max?"),
        known.unknown(List.of("yarn.scheduler.hare.totally-different-setting-name",
            SchedulerKeys.WEIGHT_MAX_USER_PREFIX)));
  }
}
