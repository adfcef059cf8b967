package io.hare.yarn.scheduler;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.server.resourcemanager.MockAM;
import org.apache.hadoop.yarn.server.resourcemanager.MockNM;
import org.apache.hadoop.yarn.server.resourcemanager.MockRMAppSubmissionData;
import org.apache.hadoop.yarn.server.resourcemanager.MockRMAppSubmitter;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMAppState;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

/**
 * Application tags written by hand with the YARN API ({@code ClientRMService.submitApplication}),
 * bypassing the Hare client, one case per row, all against one running RM. Each bad submission
 * is refused (by the Hare scheduler, or by YARN itself before the scheduler sees it) with a
 * message naming the tag, the value and what is allowed; after each one, a well-formed
 * application submitted to the same RM still gets its GPU containers.
 */
@RunWith(Parameterized.class)
public class HareBadTagsTest {

  /** Who refuses: the Hare scheduler (the application FAILS with a diagnostic) or YARN. */
  enum By { HARE, YARN }

  @Parameters(name = "{0}")
  public static Collection<Object[]> cases() {
    String longTag = "hare.model=" + "m".repeat(120);
    List<String> eleven = new ArrayList<>();
    for (int i = 0; i < 11; i++) {
      eleven.add("team" + i);
    }
    return Arrays.asList(new Object[][] {
        {"weight-not-a-number", By.HARE, tags("hare.weight=heavy"),
            words("hare.weight=heavy", "must be a number > 0 and <= 1000000")},
        {"weight-negative", By.HARE, tags("hare.weight=-5"), words("'-5'", "> 0")},
        {"weight-zero", By.HARE, tags("hare.weight=0"), words("'0'", "> 0")},
        {"weight-huge", By.HARE, tags("hare.weight=1e300"), words("'1e300'", "<= 1000000")},
        {"weight-nan", By.HARE, tags("hare.weight=NaN"), words("'nan'", "a number > 0")},
        {"weight-infinity", By.HARE, tags("hare.weight=Infinity"),
            words("'infinity'", "a number > 0")},
        {"weight-java-suffix", By.HARE, tags("hare.weight=10d"), words("'10d'", "a number")},
        {"weight-hex", By.HARE, tags("hare.weight=0x1p4"), words("'0x1p4'", "a number")},
        {"weight-empty", By.HARE, tags("hare.weight="), words("hare.weight=", "''")},
        {"weight-no-equals", By.HARE, tags("hare.weight"), words("needs a value", "=VALUE")},
        {"weight-twice", By.HARE, tags("hare.weight=1", "hare.weight=2"),
            words("hare.weight is given twice ('1' and '2')", "give it once")},
        {"weight-twice-differing-in-case", By.HARE, tags("hare.weight=2", "HARE.WEIGHT=3"),
            words("hare.weight is given twice")},
        {"weight-twice-differing-in-spaces", By.HARE, tags("hare.weight=2", "hare.weight= 2"),
            words("given twice")},
        {"rounds-negative", By.HARE, tags("hare.rounds=-1"), words("'-1'", "from 1 to")},
        {"rounds-fraction", By.HARE, tags("hare.rounds=2.5"), words("'2.5'", "whole number")},
        {"rounds-huge", By.HARE, tags("hare.rounds=100000001"),
            words("'100000001'", "from 1 to 100000000")},
        {"rounds-beyond-long", By.HARE, tags("hare.rounds=99999999999999999999"),
            words("'99999999999999999999'", "whole number")},
        {"rounds-boolean", By.HARE, tags("hare.rounds=true"), words("'true'", "whole number")},
        {"tasks-per-round-zero", By.HARE, tags("hare.tasks-per-round=0"),
            words("hare.tasks-per-round=0", "from 1 to 100000")},
        {"tasks-per-round-huge", By.HARE, tags("hare.tasks-per-round=100001"),
            words("'100001'", "from 1 to 100000")},
        {"tasks-per-round-nan", By.HARE, tags("hare.tasks-per-round=nan"),
            words("'nan'", "whole number")},
        {"model-with-slash", By.HARE, tags("hare.model=../etc/passwd"),
            words("'../etc/passwd'", "model name")},
        {"model-empty", By.HARE, tags("hare.model="), words("hare.model=", "model name")},
        {"unknown-hare-tag", By.HARE, tags("hare.priority=1"),
            words("unknown hare tag 'hare.priority'", "known: hare.weight")},
        {"unknown-hare-tag-misspelt", By.HARE, tags("hare.wieght=2"),
            words("'hare.wieght'", "hare.weight")},
        {"bare-prefix", By.HARE, tags("hare."), words("unknown hare tag 'hare.'")},
        {"one-bad-among-good", By.HARE, tags("hare.weight=2", "hare.rounds=3", "team=vision",
            "hare.tasks-per-round=-4"), words("hare.tasks-per-round=-4")},
        {"tag-too-long", By.YARN, tags(longTag),
            words("is too long", "maximum allowed length of a tag is 100")},
        {"too-many-tags", By.YARN, eleven.toArray(new String[0]),
            words("too many applicationtags", "a maximum of only 10 are allowed")},
    });
  }

  private static String[] tags(String... t) {
    return t;
  }

  private static String[] words(String... w) {
    return w;
  }

  private static HareRm h;
  private static MockNM nm;

  private final String name;
  private final By by;
  private final String[] tags;
  private final String[] mentions;

  public HareBadTagsTest(String name, By by, String[] tags, String[] mentions) {
    this.name = name;
    this.by = by;
    this.tags = tags;
    this.mentions = mentions;
  }

  @BeforeClass
  public static void startRm() throws Exception {
    h = HareRm.start(HareRm.conf());
    nm = h.node("h1:1234", 2);
  }

  @AfterClass
  public static void stopRm() {
    if (h != null) {
      h.close();
    }
  }

  @Test(timeout = 300_000)
  public void refusedWithItsReasonAndOthersAreStillServed() throws Exception {
    String message = submitBad();
    // YARN lower-cases tags; the message quotes what the scheduler saw
    for (String m : mentions) {
      assertTrue(name + ": '" + message + "' should mention " + m,
          message.toLowerCase().contains(m.toLowerCase()));
    }
    assertAWellFormedJobGetsItsGpus();
  }

  /** Submits the bad tags; returns the diagnostics or the exception's message. */
  private String submitBad() throws Exception {
    MockRMAppSubmissionData data = MockRMAppSubmissionData.Builder.createWithMemory(1024, h.rm)
        .withApplicationTags(new LinkedHashSet<>(List.of(tags)))
        .withWaitForAppAcceptedState(false).build();
    if (by == By.YARN) {
      try {
        RMApp app = MockRMAppSubmitter.submit(h.rm, data);
        fail(name + ": YARN accepted " + app.getApplicationId());
        return null;
      } catch (Exception e) {
        Throwable t = e; // doAs wraps the RPC's YarnException
        while (t.getCause() != null && t.getMessage() == null) {
          t = t.getCause();
        }
        return t.getClass().getSimpleName() + ": " + t.getMessage();
      }
    }
    RMApp bad = MockRMAppSubmitter.submit(h.rm, data);
    h.rm.waitForState(bad.getApplicationId(), RMAppState.FAILED);
    String diagnostics = bad.getDiagnostics().toString();
    assertTrue(diagnostics, diagnostics.startsWith("Hare scheduler rejected "
        + bad.getApplicationId() + ": application tag"));
    assertEquals("not counted as a Hare job", Double.NaN,
        h.scheduler().weight(bad.getApplicationId()), 0);
    return diagnostics;
  }

  private static void assertAWellFormedJobGetsItsGpus() throws Exception {
    RMApp good = h.submit("hare.weight=2", "hare.rounds=1", "hare.tasks-per-round=2");
    MockAM am = h.launch(good, nm);
    HareRm.askGpuTasks(am, 2);
    List<Container> got = h.heartbeatAndPull(am, nm);
    assertEquals("both GPU tasks of the good job", 2, got.size());
    for (Container c : got) {
      assertEquals(1, HareRm.gpus(c));
      h.finish(nm, c);
    }
    h.rm.killApp(good.getApplicationId()); // frees the AM's memory for the next case
    h.rm.waitForState(good.getApplicationId(), RMAppState.KILLED);
  }
}
