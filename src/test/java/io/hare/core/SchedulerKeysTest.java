package io.hare.core;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.hare.testing.KeysDocs;
import java.util.Map;
import java.util.TreeMap;
import org.junit.Test;

/** hare-default.xml documents exactly the keys of {@link SchedulerKeys}, with the same defaults. */
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
    assertEquals(KeysDocs.inCode(SchedulerKeys.class), scheduler);
  }

  @Test(timeout = 60_000)
  public void keysFollowTheNamingRules() throws Exception {
    for (String k : KeysDocs.inCode(SchedulerKeys.class).keySet()) {
      assertTrue(k + ": lower-case, dots between levels, hyphens inside",
          k.matches("yarn\\.scheduler\\.hare(\\.[a-z0-9]+(-[a-z0-9]+)*)+"));
    }
  }
}
