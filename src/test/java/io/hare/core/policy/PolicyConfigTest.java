package io.hare.core.policy;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import io.hare.core.ConfigException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.Test;

/** Typed getters: good values parsed, bad ones recorded with key and value, all thrown at once. */
public class PolicyConfigTest {

  @Test(timeout = 60_000)
  public void goodValuesAreParsedAndMissingOnesDefault() throws Exception {
    PolicyConfig c = new PolicyConfig(Map.of(
        "s", "  text ", "c", " FAST ", "d", " 2.5 ", "l", "-7", "i", "42", "b", " TRUE "), 9L);
    assertEquals(9L, c.seed());
    assertEquals("text", c.getString("s", "def"));
    assertEquals("def", c.getString("missing", "def"));
    assertEquals("fast", c.getChoice("c", "slow", "slow", "fast"));
    assertEquals("slow", c.getChoice("missing", "slow", "slow", "fast"));
    assertEquals(2.5, c.getDouble("d", 1, 0, 2.5), 0);
    assertEquals(1.0, c.getDouble("missing", 1, 0, 2), 0);
    assertEquals(-7L, c.getLong("l", 0, -10, 10));
    assertEquals(3L, c.getLong("missing", 3, 0, 10));
    assertEquals(42, c.getInt("i", 0, 42, 42));
    assertTrue(c.getBoolean("b", false));
    assertTrue(c.getBoolean("missing", true));
    assertTrue(c.problems().isEmpty());
    c.check();
  }

  @Test(timeout = 60_000)
  public void everyBadValueIsCollectedThenThrownTogether() {
    PolicyConfig c = new PolicyConfig(Map.of("c", "medium", "d1", "abc", "d2", "3", "d3", "NaN",
        "l1", "1.5", "l2", "11", "i", "3000000000", "b", "yes"), 0L);
    // each bad value falls back to the default so the factory can go on reading
    assertEquals("slow", c.getChoice("c", "slow", "slow", "fast"));
    assertEquals(1.0, c.getDouble("d1", 1, 0, 2), 0);
    assertEquals(1.0, c.getDouble("d2", 1, 0, 2), 0);
    assertEquals(1.0, c.getDouble("d3", 1, 0, 2), 0);
    assertEquals(5L, c.getLong("l1", 5, 0, 10));
    assertEquals(5L, c.getLong("l2", 5, 0, 10));
    // 3e9 is a long but not an int: refused by the int range, not wrapped around
    assertEquals(7, c.getInt("i", 7, 0, Integer.MAX_VALUE));
    assertFalse(c.getBoolean("b", false));
    c.addProblem("cross: a must be below b");
    List<String> expected = List.of(
        "c: must be one of slow, fast, got 'medium'",
        "d1: must be a number in [0.0, 2.0], got 'abc'",
        "d2: must be a number in [0.0, 2.0], got '3'",
        "d3: must be a number in [0.0, 2.0], got 'NaN'",
        "l1: must be an integer in [0, 10], got '1.5'",
        "l2: must be an integer in [0, 10], got '11'",
        "i: must be an integer in [0, 2147483647], got '3000000000'",
        "b: must be true or false, got 'yes'",
        "cross: a must be below b");
    assertEquals(expected, c.problems());
    try {
      c.check();
      fail("no exception");
    } catch (ConfigException e) {
      assertEquals(expected, e.problems());
      assertTrue(e.getMessage(), e.getMessage().startsWith("invalid configuration (9 problems):"));
      for (String p : expected) {
        assertTrue(e.getMessage(), e.getMessage().contains("  " + p));
      }
    }
  }

  @Test(timeout = 60_000)
  public void oneProblemIsSingular() {
    PolicyConfig c = PolicyConfig.defaults();
    c.addProblem("x: bad");
    try {
      c.check();
      fail("no exception");
    } catch (ConfigException e) {
      assertTrue(e.getMessage(), e.getMessage().startsWith("invalid configuration (1 problem):"));
    }
  }

  @Test(timeout = 60_000)
  public void valuesAndProblemsAreCopies() {
    Map<String, String> m = new HashMap<>(Map.of("k", "1"));
    PolicyConfig c = new PolicyConfig(m, 0L);
    m.put("k", "2");
    assertEquals("1", c.getString("k", "0"));
    try {
      c.values().put("k", "3");
      fail("values are mutable");
    } catch (UnsupportedOperationException expected) {
      // read-only view
    }
    List<String> before = c.problems();
    c.addProblem("late");
    assertTrue(before.isEmpty());
    assertEquals(PolicyConfig.defaults().seed(), 0L);
    assertTrue(PolicyConfig.defaults().values().isEmpty());
  }
}
