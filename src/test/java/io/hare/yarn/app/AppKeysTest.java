package io.hare.yarn.app;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.hare.testing.KeysDocs;
import org.junit.Test;

/** hare-app-default.xml documents exactly the keys of {@link AppKeys}, with the same defaults. */
public class AppKeysTest {

  @Test(timeout = 60_000)
  public void defaultsFileMatchesConstants() throws Exception {
    assertEquals(KeysDocs.inCode(AppKeys.class), KeysDocs.documented("/hare-app-default.xml"));
  }

  @Test(timeout = 60_000)
  public void keysFollowTheNamingRules() throws Exception {
    for (String k : KeysDocs.inCode(AppKeys.class).keySet()) {
      assertTrue(k + ": lower-case, dots between levels, hyphens inside",
          k.matches("yarn\\.app\\.hare(\\.[a-z0-9]+(-[a-z0-9]+)*)+"));
    }
  }
}
