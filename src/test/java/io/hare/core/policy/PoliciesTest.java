package io.hare.core.policy;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import io.hare.core.ConfigException;
import io.hare.core.policy.blind.SchedHomoPolicy;
import io.hare.core.policy.blind.YarnFifoPolicy;
import io.hare.core.policy.gang.AlloxPolicy;
import io.hare.core.policy.gang.GavelFifoPolicy;
import io.hare.core.policy.gang.SrtfPolicy;
import io.hare.core.policy.gang.TiresiasLasPolicy;
import io.hare.core.policy.hare.HarePolicy;
import io.hare.core.policy.hlas.HlasPolicy;
import java.util.List;
import java.util.Map;
import org.junit.Test;

/** The policy registry: by short name, by class name, and every way naming one can go wrong. */
public class PoliciesTest {

  @Test(timeout = 60_000)
  public void createsByShortName() throws Exception {
    SchedulingPolicy p = Policies.create(" yarn-fifo ", PolicyConfig.defaults());
    assertSame(YarnFifoPolicy.class, p.getClass());
    assertEquals(YarnFifoPolicy.NAME, p.name());
    List<String> names = Policies.names();
    assertEquals(HarePolicy.NAME, names.get(0));
    for (String n : List.of(HarePolicy.NAME, HlasPolicy.NAME, GavelFifoPolicy.NAME,
        SrtfPolicy.NAME, SchedHomoPolicy.NAME, AlloxPolicy.NAME, TiresiasLasPolicy.NAME,
        YarnFifoPolicy.NAME)) {
      assertTrue(n, names.contains(n));
      assertEquals(n, Policies.create(n, PolicyConfig.defaults()).name());
    }
  }

  @Test(timeout = 60_000)
  public void createsByClassName() throws Exception {
    SchedulingPolicy p = Policies.create(YarnFifoPolicy.class.getName(), PolicyConfig.defaults());
    assertSame(YarnFifoPolicy.class, p.getClass());
    PolicyConfig c = new PolicyConfig(Map.of("test.limit", "4"), 0L);
    assertEquals(4, ((ReadsAKey) Policies.create(ReadsAKey.class.getName(), c)).limit);
  }

  @Test(timeout = 60_000)
  public void unknownNameListsTheKnownOnes() {
    for (String bad : new String[] {"nope", "HARE", null}) {
      ConfigException e = refused(bad);
      String m = e.problems().get(0);
      assertTrue(m, m.startsWith("policy: unknown policy '" + (bad == null ? "" : bad) + "'"));
      assertTrue(m, m.contains("known: " + String.join(", ", Policies.names())));
      assertTrue(m, m.contains(SchedulingPolicy.class.getName()));
    }
  }

  @Test(timeout = 60_000)
  public void classNameErrorsSayWhatIsWrong() {
    assertEquals(List.of("policy: class com.example.Missing not found"),
        refused("com.example.Missing").problems());
    assertEquals(List.of("policy: class java.lang.String does not implement "
        + SchedulingPolicy.class.getName()), refused("java.lang.String").problems());
    String noCtor = NoConfigConstructor.class.getName();
    assertEquals(List.of("policy: class " + noCtor + " needs a public constructor taking "
        + PolicyConfig.class.getName()), refused(noCtor).problems());
  }

  @Test(timeout = 60_000)
  public void aFactorysProblemsAreThrownAfterTheCall() {
    PolicyConfig c = new PolicyConfig(Map.of("test.limit", "99", "test.x.enabled", "maybe"), 0L);
    try {
      Policies.create(ReadsAKey.class.getName(), c);
      fail("bad settings accepted");
    } catch (ConfigException e) {
      assertEquals(List.of("test.limit: must be an integer in [1, 10], got '99'",
          "test.x.enabled: must be true or false, got 'maybe'"), e.problems());
    }
  }

  @Test(timeout = 60_000)
  public void aConstructorThatThrowsIsAFailedStart() throws Exception {
    try {
      Policies.create(FailsToStart.class.getName(), PolicyConfig.defaults());
      fail("no exception");
    } catch (IllegalStateException e) {
      assertTrue(e.getMessage(), e.getMessage().contains("failed to start"));
      assertTrue(e.getMessage(), e.getMessage().contains("boom"));
      assertSame(IllegalArgumentException.class, e.getCause().getClass());
    }
  }

  private static ConfigException refused(String name) {
    try {
      SchedulingPolicy p = Policies.create(name, PolicyConfig.defaults());
      fail("'" + name + "' gave " + p);
      return null;
    } catch (ConfigException e) {
      assertEquals(1, e.problems().size());
      return e;
    }
  }

  /** Never places anything. */
  abstract static class Idle implements SchedulingPolicy {
    @Override
    public String name() {
      return "testing-idle";
    }

    @Override
    public boolean clairvoyant() {
      return false;
    }

    @Override
    public List<Assignment> assign(ClusterView cluster, List<? extends GpuView> freeGpus,
        long nowMs) {
      return List.of();
    }
  }

  /** A policy with only a no-argument constructor: cannot be built from configuration. */
  public static final class NoConfigConstructor extends Idle {
    public NoConfigConstructor() {}
  }

  /** Reads two keys through the typed getters. */
  public static final class ReadsAKey extends Idle {
    final int limit;

    public ReadsAKey(PolicyConfig c) {
      limit = c.getInt("test.limit", 2, 1, 10);
      c.getBoolean("test.x.enabled", false);
    }
  }

  /** Its constructor throws, as a policy with a broken invariant would. */
  public static final class FailsToStart extends Idle {
    public FailsToStart(PolicyConfig c) {
      throw new IllegalArgumentException("boom");
    }
  }
}
