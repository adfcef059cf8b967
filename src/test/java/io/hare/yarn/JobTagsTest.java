package io.hare.yarn;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import io.hare.core.BadInputException;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import org.junit.Test;

/** The tag codec: what the client writes the scheduler reads back; bad values name themselves. */
public class JobTagsTest {

  @Test(timeout = 60_000)
  public void writtenTagsParseBackEvenLowerCased() throws Exception {
    JobTags.Info info = new JobTags.Info(2.5, OptionalInt.of(40), OptionalInt.of(4),
        Optional.of("ResNet-50-bs64"));
    Set<String> tags = JobTags.write(info);
    List<String> lower = tags.stream().map(String::toLowerCase).toList(); // as YARN stores them
    JobTags.Info back = JobTags.parse(lower);
    assertEquals(2.5, back.weight(), 0);
    assertEquals(OptionalInt.of(40), back.rounds());
    assertEquals(OptionalInt.of(4), back.tasksPerRound());
    assertEquals(Optional.of("resnet-50-bs64"), back.model());
  }

  @Test(timeout = 60_000)
  public void anAmThatTakesStandbysSaysSoInATag() throws Exception {
    JobTags.Info info = new JobTags.Info(1, OptionalInt.empty(), OptionalInt.empty(),
        Optional.empty(), true, JobTags.PROTOCOL_VERSION);
    assertTrue(JobTags.write(info).contains("hare.standby=true"));
    assertTrue(JobTags.parse(JobTags.write(info)).standby());
    assertEquals(false, JobTags.parse(List.of("hare.standby=false")).standby());
    assertEquals("no tag: no standbys", false, JobTags.parse(List.of("hare.weight=2")).standby());
    assertEquals(false, JobTags.write(JobTags.Info.NONE).stream()
        .anyMatch(t -> t.startsWith("hare.standby")));
    refused("hare.standby=1", "hare.standby", "1", "true or false");
  }

  @Test(timeout = 60_000)
  public void anAmDeclaresTheHareProtocolVersionItSpeaks() throws Exception {
    JobTags.Info info = new JobTags.Info(1, OptionalInt.empty(), OptionalInt.empty(),
        Optional.empty(), false, JobTags.PROTOCOL_VERSION);
    assertTrue(JobTags.write(info).contains("hare.protocol=" + JobTags.PROTOCOL_VERSION));
    assertTrue(JobTags.parse(JobTags.write(info)).speaksHare());
    assertEquals("no tag: YARN's meanings only", false,
        JobTags.parse(List.of("hare.weight=2")).speaksHare());
    assertEquals(false, JobTags.write(JobTags.Info.NONE).stream()
        .anyMatch(t -> t.startsWith("hare.protocol")));
    refused("hare.protocol=2", "hare.protocol", "2", "a whole number from 1 to 1");
    refused("hare.protocol=0", "hare.protocol", "0", "a whole number from 1 to 1");
  }

  @Test(timeout = 60_000)
  public void noHareTagsMeansWeightOneAndNothingKnown() throws Exception {
    assertEquals(JobTags.Info.NONE, JobTags.parse(List.of("team=vision", "nightly")));
    assertEquals(JobTags.Info.NONE, JobTags.parse(null));
  }

  @Test(timeout = 60_000)
  public void malformedTagsAreRefusedWithTagValueAndRule() {
    refused("hare.weight=abc", "hare.weight", "abc", "> 0");
    refused("hare.weight=nan", "hare.weight", "nan", "> 0");
    refused("hare.weight=-1", "hare.weight", "-1", "> 0");
    refused("hare.weight=0", "hare.weight", "0", "> 0");
    refused("hare.weight=1e300", "hare.weight", "1e300", "<= 1000000");
    refused("hare.weight=infinity", "hare.weight", "infinity", "> 0");
    refused("hare.rounds=2.5", "hare.rounds", "2.5", "whole number");
    refused("hare.rounds=99999999999", "hare.rounds", "99999999999", "whole number");
    refused("hare.tasks-per-round=0", "hare.tasks-per-round", "0", "from 1");
    refused("hare.model=a b", "hare.model", "a b", "model name");
    refused("hare.speed=3", "hare.speed", "unknown", "hare.weight");
    refused("hare.rounds", "hare.rounds", "needs a value", "=VALUE");
  }

  @Test(timeout = 60_000)
  public void aTagGivenTwiceIsRefused() {
    try {
      JobTags.parse(List.of("hare.weight=1", "hare.weight=2"));
      fail();
    } catch (BadInputException e) {
      assertTrue(e.getMessage(), e.getMessage().contains("hare.weight is given twice"));
    }
  }

  private static void refused(String tag, String... mentions) {
    try {
      JobTags.parse(List.of(tag));
      fail(tag + " was accepted");
    } catch (BadInputException e) {
      for (String m : mentions) {
        assertTrue(tag + ": '" + e.getMessage() + "' should mention " + m,
            e.getMessage().contains(m));
      }
    }
  }
}
