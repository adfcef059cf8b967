package io.hare.core.plan;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.hare.core.ClusterSpec;
import io.hare.core.JobSpec;
import io.hare.core.profile.TaskTimeModel;
import io.hare.sim.JobOutcome;
import io.hare.sim.SimResult;
import io.hare.sim.TaskRecord;
import io.hare.testing.ScheduleChecks;
import java.util.ArrayList;
import java.util.List;

/**
 * Checks a planned schedule with the same independent rule checker the simulated schedules go
 * through ({@link ScheduleChecks}: every task once, eligible GPU, arrival, exact task times, no
 * overlap on a GPU, the round barrier, completion = end of the last round), then recomputes the
 * reported objectives from the tasks.
 */
final class ExactChecks {

  private ExactChecks() {}

  static void assertValid(ExactSchedule s, ClusterSpec cluster, List<JobSpec> jobs,
      TaskTimeModel truth) {
    List<TaskRecord> records = new ArrayList<>();
    long busy = 0;
    for (ScheduledTask t : s.tasks()) {
      records.add(new TaskRecord(t.jobId(), t.round(), t.index(), t.gpuId(), t.gpuType().name(),
          t.startMs(), t.startMs(), t.computeEndMs(), t.syncEndMs()));
      busy += t.computeEndMs() - t.startMs();
    }
    List<JobOutcome> outcomes = new ArrayList<>();
    double weightedJct = 0;
    double weightedCompletion = 0;
    long tasks = 0;
    for (JobSpec j : jobs) {
      Long c = s.completionMs().get(j.id());
      assertTrue("no completion for job " + j.id(), c != null && c >= 0);
      outcomes.add(new JobOutcome(j.id(), j.weight(), j.model(), j.tasksPerRound(), j.rounds(),
          j.arrivalMs(), c));
      weightedJct += j.weight() * (c - j.arrivalMs()) / 1000.0;
      weightedCompletion += j.weight() * c / 1000.0;
      tasks += j.totalTasks();
    }
    assertEquals("completions", jobs.size(), s.completionMs().size());
    assertEquals("task count", tasks, s.tasks().size());
    SimResult r = new SimResult("exact", outcomes, records, busy, cluster.size(), 0, 0, 0, 0);
    ScheduleChecks.assertValid(r, cluster, jobs, truth, 0);
    assertEquals("weighted JCT", weightedJct, s.weightedJctS(), 1e-9);
    assertEquals("weighted completion", weightedCompletion, s.weightedCompletionS(), 1e-9);
    assertTrue("lower bound " + s.jctLowerBoundS() + " above " + s.weightedJctS(),
        s.jctLowerBoundS() <= s.weightedJctS() + 1e-9);
    if (s.optimal()) {
      assertEquals("optimal: bound = value", s.weightedJctS(), s.jctLowerBoundS(), 1e-9);
    }
  }
}
