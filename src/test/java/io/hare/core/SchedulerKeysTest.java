package io.hare.core;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import io.hare.core.policy.Policies;
import io.hare.testing.KeysDocs;
import java.util.Map;
import java.util.TreeMap;
import org.junit.Test;

/**
 * hare-default.xml documents exactly the keys of {@link SchedulerKeys} and of the policy
 * families' keys classes ({@link Policies#keyClasses()}), with the same defaults; no key is
 * declared twice.
 */
public class SchedulerKeysTest {

  @Test(timeout = 60_000)
  public void defaultsFileMatchesConstants() throws Exception {
    // hare-default.xml also documents the NodeManager's yarn.nodemanager.hare.* keys
    Map<String, String> scheduler = new TreeMap<>();
    KeysDocs.documented("/hare-default.xml").forEach((k, v) -> {
      if (k.startsWith(SchedulerKeys.PREFIX)) {
        scheduler.put(k, v);
      }
    });
    assertEquals(inCode(), scheduler);
  }

  private static Map<String, String> inCode() throws Exception {
    Map<String, String> all = new TreeMap<>();
    for (Class<?> c : Policies.keyClasses()) {
      KeysDocs.inCode(c).forEach((k, v) -> assertNull(k + " declared twice", all.put(k, v)));
    }
    return all;
  }

  @Test(timeout = 60_000)
  public void keysFollowTheNamingRules() throws Exception {
    for (String k : inCode().keySet()) {
      assertTrue(k + ": lower-case, dots between levels, hyphens inside",
          k.matches("yarn\\.scheduler\\.hare(\\.[a-z0-9]+(-[a-z0-9]+)*)+"));
    }
  }
}
