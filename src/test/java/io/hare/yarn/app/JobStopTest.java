package io.hare.yarn.app;

import static org.junit.Assert.assertEquals;

import java.util.Optional;
import org.junit.Test;

/** The mark a failed job's AM leaves in its diagnostics, read back as a client does. */
public class JobStopTest {

  @Test(timeout = 60_000)
  public void aMarkReadsBackWhateverYarnPutAroundIt() {
    JobStop stop = new JobStop(3, 8, 3, 1, 4);
    // YARN may put an earlier attempt's diagnostics before the AM's
    String diagnostics = "AM container exited with code 1\nround 3 task 3 failed 3 times; "
        + "last attempt: exit code 2 " + stop.mark();
    assertEquals(Optional.of(stop), JobStop.find(diagnostics));
    assertEquals("AM container exited with code 1\nround 3 task 3 failed 3 times; last attempt:"
        + " exit code 2", JobStop.why(diagnostics));
  }

  @Test(timeout = 60_000)
  public void theLastMarkWinsAndAJobStoppedBeforeAnyRoundSaysSo() {
    JobStop early = new JobStop(0, 8, -1, 0, 0);
    assertEquals("[hare: 0 of 8 rounds done]", early.mark());
    assertEquals(Optional.of(early), JobStop.find("attempt 1 " + new JobStop(2, 8, 2, 0, 4)
        .mark() + " attempt 2 " + early.mark()));
  }

  @Test(timeout = 60_000)
  public void diagnosticsWithoutAMarkHaveNone() {
    assertEquals(Optional.empty(), JobStop.find("Application killed by user."));
    assertEquals(Optional.empty(), JobStop.find(null));
    assertEquals("", JobStop.why(null));
    assertEquals("Application killed by user.", JobStop.why("Application killed by user."));
  }
}
