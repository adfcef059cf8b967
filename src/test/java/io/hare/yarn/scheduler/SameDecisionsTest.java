package io.hare.yarn.scheduler;

import static org.junit.Assert.assertEquals;

import io.hare.core.ClusterSpec;
import io.hare.core.JobSpec;
import io.hare.core.SchedulerKeys;
import io.hare.core.policy.Policies;
import io.hare.core.policy.PolicyConfig;
import io.hare.core.policy.hare.HareKeys;
import io.hare.core.profile.ProfileCsv;
import io.hare.core.profile.ProfileTable;
import io.hare.sim.SimOptions;
import io.hare.sim.SimResult;
import io.hare.sim.Simulator;
import io.hare.sim.TaskRecord;
import io.hare.yarn.JobTags;
import java.io.File;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeMap;
import org.apache.hadoop.test.GenericTestUtils;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.resourcemanager.MockAM;
import org.apache.hadoop.yarn.server.resourcemanager.MockNM;
import org.junit.Test;

/**
 * The shared core: the same state (GPUs and types, jobs with their tags and ready tasks, the same
 * profiles) given to the simulator and to the scheduler inside a MockRM gives the same
 * decisions, for the same policy objects. Compared: which GPU types each job's first tasks get
 * when every job's first round is ready at once and there are fewer GPUs than tasks.
 */
public class SameDecisionsTest extends MockRmTestCase {

  // cnn gains 10x from a v100, gnn only 1.5x
  private static final String PROFILES = "model,gpu_type,compute_ms,sync_ms\n"
      + "cnn,v100,100,10\ncnn,k80,1000,10\ngnn,v100,100,10\ngnn,k80,150,10\n";

  // A: Smith key 6 x 100 / 4 = 150, C: 600 / 2 = 300, B: 600 / 1 = 600 (no ties)
  private static final List<JobSpec> JOBS = List.of(
      new JobSpec("A", 0, 4, "cnn", 2, 3),
      new JobSpec("B", 0, 1, "gnn", 2, 3),
      new JobSpec("C", 0, 2, "cnn", 2, 3));


  @Test(timeout = 300_000)
  public void simulatorAndSchedulerDecideAlike() throws Exception {
    // type-aware policies: their choice of type is by design, not by the order GPUs are listed
    // hare twice: with an exact plan of the state (4 GPUs, 18 tasks) and with the Smith order
    for (String exact : List.of("24", "0", "-")) {
      String policy = exact.equals("-") ? "hlas" : "hare";
      Map<String, String> keys = exact.equals("-") ? Map.of()
          : Map.of(HareKeys.EXACT_MAX_TASKS, exact);
      Map<String, List<String>> sim = simulated(policy, keys);
      Map<String, List<String>> rm = scheduled(policy, keys);
      assertEquals(policy + " " + keys + ": first placements", sim, rm);
      if (policy.equals("hare")) {
        // and they are the sensible ones: the heavy cnn job gets the v100s
        assertEquals(List.of("v100", "v100"), rm.get("A"));
      }
    }
  }

  /** GPU types of the tasks each job starts at time 0 in the simulator. */
  private static Map<String, List<String>> simulated(String policy, Map<String, String> keys)
      throws Exception {
    ProfileTable t = ProfileCsv.read(new java.io.StringReader(PROFILES), "profiles");
    SimResult r = new Simulator(ClusterSpec.parse("v100=2,k80=2"), JOBS, t,
        new SimOptions(0, true)).run(Policies.create(policy, new PolicyConfig(keys, 0)));
    Map<String, List<String>> out = new TreeMap<>();
    for (TaskRecord task : r.tasks()) {
      if (task.startMs() == 0) {
        out.computeIfAbsent(task.jobId(), x -> new ArrayList<>()).add(task.gpuType());
      }
    }
    out.values().forEach(Collections::sort);
    return out;
  }

  /** GPU types of the containers each job gets from one scheduling pass of the MockRM. */
  private Map<String, List<String>> scheduled(String policy, Map<String, String> keys)
      throws Exception {
    File csv = GenericTestUtils.getTestDir("same-decisions-profiles.csv");
    Files.writeString(csv.toPath(), PROFILES);
    YarnConfiguration conf = HareRm.conf();
    conf.set(SchedulerKeys.POLICY, policy);
    conf.set(SchedulerKeys.PROFILES_FILE, csv.getAbsolutePath());
    keys.forEach(conf::set);
    h = HareRm.start(conf);
    MockNM am = h.node("amhost:1234", 0); // the ApplicationMasters run here
    MockNM v100 = h.node("v100host:1234", 2);
    MockNM k80 = h.node("k80host:1234", 2);
    h.setType("v100host", "v100");
    h.setType("k80host", "k80");
    Map<String, MockAM> ams = new TreeMap<>();
    for (JobSpec j : JOBS) {
      ams.put(j.id(), h.launch(h.submit(JobTags.write(new JobTags.Info(j.weight(),
          OptionalInt.of(j.rounds()), OptionalInt.of(j.tasksPerRound()),
          Optional.of(j.model()))).toArray(new String[0])), am));
    }
    for (MockAM a : ams.values()) {
      HareRm.askGpuTasks(a, 2);
    }
    Map<String, List<String>> out = new TreeMap<>();
    boolean first = true;
    for (Map.Entry<String, MockAM> e : ams.entrySet()) {
      List<Container> got = first ? h.heartbeatAndPull(e.getValue(), v100, k80)
          : h.heartbeatAndPull(e.getValue());
      first = false;
      for (Container c : got) {
        out.computeIfAbsent(e.getKey(), x -> new ArrayList<>())
            .add(h.scheduler().gpuType(c.getNodeId()).name());
      }
    }
    out.values().forEach(Collections::sort);
    h.close();
    h = null;
    return out;
  }
}
