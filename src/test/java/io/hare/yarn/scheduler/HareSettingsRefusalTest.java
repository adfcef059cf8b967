package io.hare.yarn.scheduler;

import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import io.hare.core.ConfigException;
import io.hare.testing.BadSchedulerConf;
import java.io.File;
import java.util.Collection;
import java.util.List;
import org.apache.hadoop.test.GenericTestUtils;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

/**
 * Each bad scheduler setting of {@link BadSchedulerConf}, alone on top of the defaults, is
 * refused by the validation the RM runs at start and on refresh: every problem names the key,
 * and one of them the bad value and what is allowed. (All at once: {@code HareSettingsTest}.)
 */
@RunWith(Parameterized.class)
public class HareSettingsRefusalTest {

  static File dir() {
    File d = GenericTestUtils.getTestDir("bad-scheduler-conf");
    d.mkdirs();
    return d;
  }

  @Parameters(name = "{0}")
  public static Collection<Object[]> cases() throws Exception {
    return BadSchedulerConf.cases(dir().toPath()).stream().map(c -> new Object[] {c}).toList();
  }

  private final BadSchedulerConf.Case c;

  public HareSettingsRefusalTest(BadSchedulerConf.Case c) {
    this.c = c;
  }

  @Test(timeout = 60_000)
  public void refusedNamingKeyValueAndWhatIsAllowed() throws Exception {
    YarnConfiguration conf = new YarnConfiguration();
    conf.set(c.key(), c.value());
    try {
      HareSettings.read(conf);
      fail(c + ": " + c.key() + "=" + c.value() + " accepted");
    } catch (ConfigException e) {
      List<String> problems = e.problems();
      assertFalse(problems.isEmpty());
      for (String p : problems) {
        assertTrue(c + ": '" + p + "' should start with the key", p.startsWith(c.key()));
      }
      assertTrue(c + ": " + problems + " should mention " + c.mentions(),
          problems.stream().anyMatch(p -> c.mentions().stream().allMatch(p::contains)));
    }
  }
}
