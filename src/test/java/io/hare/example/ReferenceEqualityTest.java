package io.hare.example;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * The example job's promise: R rounds of k task processes and a sync step each, with the tasks
 * in any order, on any GPU type, some retried, give the model of the single-process reference
 * byte for byte; and the loss goes down.
 */
public class ReferenceEqualityTest {

  private static final String[] TYPES = {"v100", "t4", "k80", "M60", ""};
  private static final String FACTORS = "v100=1,t4=2.2,k80=6.9";

  @Rule
  public TemporaryFolder tmp = new TemporaryFolder();

  /** Runs the job as the AM would, in a scrambled order; returns the work directory. */
  private Path runAsHare(int rounds, int k, long orderSeed, String... initArgs) throws Exception {
    Path dir = tmp.newFolder().toPath().resolve("work");
    List<String> init = new ArrayList<>(List.of("init", "--work-dir", dir.toString()));
    init.addAll(List.of(initArgs));
    SgdJobRun r = SgdJobRun.run(Map.of(), init.toArray(new String[0]));
    assertEquals(r.toString(), 0, r.code);
    Random rnd = new Random(orderSeed);
    for (int round = 0; round < rounds; round++) {
      List<Integer> order = new ArrayList<>();
      for (int i = 0; i < k; i++) {
        order.add(i);
      }
      Collections.shuffle(order, rnd);
      for (int i : order) {
        task(dir, round, i, k, TYPES[rnd.nextInt(TYPES.length)]);
        if (rnd.nextInt(3) == 0) { // a retry, on another GPU type: same bytes
          byte[] first = Files.readAllBytes(dir.resolve(WorkFiles.gradient(round, i)));
          task(dir, round, i, k, TYPES[rnd.nextInt(TYPES.length)]);
          assertArrayEquals("retry of task " + i + " round " + round, first,
              Files.readAllBytes(dir.resolve(WorkFiles.gradient(round, i))));
        }
      }
      sync(dir, round, k);
      if (round == 1) { // a resumed AM may run a sync step again: nothing changes
        byte[] model = Files.readAllBytes(dir.resolve(WorkFiles.model(2)));
        String log = Files.readString(dir.resolve(WorkFiles.LOSS_LOG));
        sync(dir, round, k);
        assertArrayEquals(model, Files.readAllBytes(dir.resolve(WorkFiles.model(2))));
        assertEquals(log, Files.readString(dir.resolve(WorkFiles.LOSS_LOG)));
      }
    }
    return dir;
  }

  private static void task(Path dir, int round, int i, int k, String type) {
    SgdJobRun r = SgdJobRun.run(SgdJobRun.env(dir.toString(), round, i, k, type), "task",
        "--type-factors", FACTORS);
    assertEquals(r.toString(), 0, r.code);
  }

  private static void sync(Path dir, int round, int k) {
    SgdJobRun r = SgdJobRun.run(SgdJobRun.env(dir.toString(), round, -1, k, ""), "sync");
    assertEquals(r.toString(), 0, r.code);
  }

  private static SgdJobRun reference(Path dir, int rounds, int k) {
    SgdJobRun r = SgdJobRun.run(Map.of(), "reference", "--work-dir", dir.toString(),
        "--rounds", Integer.toString(rounds), "--tasks-per-round", Integer.toString(k));
    assertEquals(r.toString(), 0, r.code);
    return r;
  }

  private static void assertSameAsReference(Path dir, int rounds, int k) throws Exception {
    SgdJobRun ref = reference(dir, rounds, k);
    byte[] hare = Files.readAllBytes(dir.resolve(WorkFiles.model(rounds)));
    byte[] plain = Files.readAllBytes(dir.resolve("reference-model-r" + rounds));
    assertEquals(Model.HEADER_BYTES + 8 * 4 * 9, hare.length); // 4 classes x (8 features + 1)
    assertArrayEquals("model after " + rounds + " rounds of " + k + " tasks", plain, hare);
    // The same doubles along the way, too: the sync steps logged the reference's losses.
    String log = Files.readString(dir.resolve(WorkFiles.LOSS_LOG), StandardCharsets.UTF_8);
    assertTrue(ref.toString() + "\n--- loss log\n" + log, ref.out.startsWith(log));
  }

  @Test(timeout = 60_000)
  public void scrambledRetriedRunEqualsReference() throws Exception {
    Path dir = runAsHare(8, 4, 42);
    assertSameAsReference(dir, 8, 4);
  }

  @Test(timeout = 60_000)
  public void oneTaskPerRoundAndOddKAlsoEqualReference() throws Exception {
    assertSameAsReference(runAsHare(5, 1, 7, "--seed", "3"), 5, 1);
    assertSameAsReference(runAsHare(4, 3, 8, "--seed", "3", "--batch-size", "50"), 4, 3);
  }

  @Test(timeout = 60_000)
  public void lossGoesDown() throws Exception {
    Path dir = runAsHare(10, 4, 1);
    List<String> lines = Files.readAllLines(dir.resolve(WorkFiles.LOSS_LOG));
    assertEquals("header and one line per round: " + lines, 11, lines.size());
    String[] first = lines.get(1).split("\t");
    String[] last = lines.get(10).split("\t");
    assertEquals("0", first[0]);
    assertEquals("9", last[0]);
    // Model round 0 is all zeros: every class has probability 1/4, so the loss is ln 4.
    assertEquals(Math.log(4), Double.parseDouble(first[1]), 1e-12);
    double firstLoss = Double.parseDouble(first[2]);
    double lastLoss = Double.parseDouble(last[2]);
    assertTrue("loss after round 0 " + firstLoss + " below ln 4", firstLoss < Math.log(4));
    assertTrue("loss after round 9 " + lastLoss + " well below round 0's " + firstLoss,
        lastLoss < 0.6 * firstLoss);
  }
}
