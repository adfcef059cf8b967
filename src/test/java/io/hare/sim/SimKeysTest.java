package io.hare.sim;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.hare.testing.KeysDocs;
import org.junit.Test;

/** hare-sim-default.xml documents exactly the keys of {@link SimKeys}, with the same defaults. */
public class SimKeysTest {

  @Test(timeout = 60_000)
  public void defaultsFileMatchesConstants() throws Exception {
    assertEquals(KeysDocs.inCode(SimKeys.class), KeysDocs.documented("/hare-sim-default.xml"));
  }

  @Test(timeout = 60_000)
  public void keysFollowTheNamingRules() throws Exception {
    for (String k : KeysDocs.inCode(SimKeys.class).keySet()) {
      assertTrue(k, k.matches("yarn\\.hare\\.sim(\\.[a-z0-9]+(-[a-z0-9]+)*)+"));
    }
  }
}
