package io.hare.yarn.app;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.hare.worker.ResidentSync;
import io.hare.worker.ResidentWorker;
import java.io.ByteArrayOutputStream;
import java.io.PrintWriter;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.Test;

/** The Java library's side of the resident sync step's pipes ({@link ResidentSync}). */
public class ResidentSyncTest {

  private final List<Integer> ran = new ArrayList<>();
  private final StringWriter err = new StringWriter();
  private final ByteArrayOutputStream answers = new ByteArrayOutputStream();

  /** Round 3 fails with 7, round 4 throws, round 5 returns a status no process can have. */
  private int round(int r) {
    ran.add(r);
    if (r == 4) {
      throw new IllegalStateException("round 4 broke");
    }
    return r == 3 ? 7 : r == 5 ? 300 : 0;
  }

  private int run(Map<String, String> env, String requests) {
    return new ResidentSync(env::get, new PrintWriter(err, true))
        .run(this::round, new StringReader(requests), answers);
  }

  private List<String> answers() {
    String s = answers.toString(StandardCharsets.US_ASCII);
    return s.isEmpty() ? List.of() : List.of(s.split("\n"));
  }

  @Test
  public void runsTheFirstRoundThenEachRequestedOneAndAnswersEach() {
    assertEquals(0, run(Map.of("HARE_ROUND", "2", ResidentSync.RESIDENT, "1"),
        "sync 3\nsync 4\nsync 5\n"));
    assertEquals(List.of(2, 3, 4, 5), ran);
    assertEquals(List.of("hare-sync done 2 0", "hare-sync done 3 7", "hare-sync done 4 1",
        "hare-sync done 5 1"), answers());
    assertTrue(err.toString(), err.toString().contains("round 4 broke"));
  }

  @Test
  public void withoutTheResidentFlagItRunsOneRoundAndReturnsItsStatus() {
    assertEquals(7, run(Map.of("HARE_ROUND", "3"), "sync 4\n"));
    assertEquals(List.of(3), ran);
    assertEquals(List.of(), answers());
  }

  @Test
  public void aLineItCannotReadStopsItWithBadInput() {
    for (String bad : List.of("sync\n", "sync x\n", "sync 1 2\n", "run 1 0\n", "sync -1\n",
        "sync 9999999999\n")) {
      ran.clear();
      answers.reset();
      assertEquals(bad, ResidentWorker.BAD_INPUT,
          run(Map.of("HARE_ROUND", "0", ResidentSync.RESIDENT, "1"), bad + "sync 1\n"));
      assertEquals(bad, List.of(0), ran);
      assertEquals(bad, List.of("hare-sync done 0 0"), answers());
    }
    assertTrue(err.toString(), err.toString().contains("cannot read: sync x"));
  }

  @Test
  public void aFirstRoundThatIsNotAWholeNumberRunsNothing() {
    assertEquals(ResidentWorker.BAD_INPUT, run(Map.of(ResidentSync.RESIDENT, "1"), ""));
    assertEquals(ResidentWorker.BAD_INPUT, run(Map.of("HARE_ROUND", "-1"), ""));
    assertEquals(List.of(), ran);
    assertTrue(err.toString(), err.toString().contains("HARE_ROUND must be a whole number"));
  }
}
