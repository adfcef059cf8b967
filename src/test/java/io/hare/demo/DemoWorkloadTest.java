package io.hare.demo;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.Test;

public class DemoWorkloadTest {

  @Test(timeout = 60_000)
  public void slowdownsComeFromThePapersSpeedUpsOverAK80() {
    assertEquals(1.0, DemoModel.RESNET50.slowdown("v100"), 0);
    assertEquals(6.9 / 2.2, DemoModel.RESNET50.slowdown("t4"), 1e-12);
    assertEquals(6.9, DemoModel.RESNET50.slowdown("k80"), 1e-12);
    assertEquals(2.2 / 1.95, DemoModel.GRAPHSAGE.slowdown("t4"), 1e-12);
    assertEquals("v100=1.000,t4=1.128,k80=2.200", DemoModel.GRAPHSAGE.typeFactors());
    assertEquals(DemoModel.LSTM, DemoModel.byName("lstm"));
  }

  @Test(timeout = 60_000)
  public void jobsAreSubmittedAGapApartAndALargerWorkloadRepeatsWithNewSeedsAndNames() {
    List<DemoJob> jobs = DemoWorkload.jobs(20, 1000);
    assertEquals(20, jobs.size());
    Set<String> names = new HashSet<>();
    Set<Integer> seeds = new HashSet<>();
    for (int i = 0; i < jobs.size(); i++) {
      assertEquals(i * 1000L, jobs.get(i).submitAtMs());
      names.add(jobs.get(i).name());
      seeds.add(jobs.get(i).seed());
    }
    assertEquals("names are unique", 20, names.size());
    assertEquals("seeds are unique", 20, seeds.size());
    assertEquals(jobs.get(0).model(), jobs.get(8).model());
    assertTrue(jobs.get(8).name().endsWith("-2"));
  }

  @Test(timeout = 60_000)
  public void theWorkloadMixesModelsWeightsAndScales() {
    List<DemoJob> jobs = DemoWorkload.jobs(DemoWorkload.DEFAULT_JOBS, 0);
    assertEquals(DemoModel.ALL.size(), jobs.stream().map(DemoJob::model).distinct().count());
    assertTrue(jobs.stream().map(DemoJob::weight).distinct().count() >= 3);
    assertTrue(jobs.stream().map(DemoJob::tasksPerRound).distinct().count() >= 2);
  }
}
