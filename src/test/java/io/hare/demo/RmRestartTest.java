package io.hare.demo;

import static org.junit.Assert.assertEquals;

import io.hare.embedded.TaskEvents;
import java.util.List;
import org.junit.Test;

/**
 * Which tasks read as running ran through an injected RM restart: not one whose end line,
 * appended a moment after its time, came after the read although it had ended before the
 * injection (seen in a CI run of FaultsIT on a loaded machine).
 */
public class RmRestartTest {

  private static TaskEvents.Attempt attempt(String container, int index, long endMs) {
    return new TaskEvents.Attempt("application_1_0001", 1, index, "h1", "t4", container, 1_000,
        endMs, endMs < 0 ? -1 : 0);
  }

  @Test(timeout = 60_000)
  public void aTaskWhoseEndWasOnRecordLateDidNotRunThroughTheRestart() {
    long at = 5_000;
    TaskEvents.Attempt late = attempt("c2", 0, -1);
    TaskEvents.Attempt through = attempt("c3", 1, -1);
    TaskEvents.Attempt endedAfter = attempt("c4", 2, -1);
    List<TaskEvents.Attempt> onRecord = List.of(attempt("c2", 0, 4_800),
        attempt("c3", 1, -1), attempt("c4", 2, 5_200));
    assertEquals(List.of(through, endedAfter),
        RmRestart.ranThrough(List.of(late, through, endedAfter), onRecord, at));
  }
}
