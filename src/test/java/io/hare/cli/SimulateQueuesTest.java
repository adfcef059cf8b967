package io.hare.cli;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * {@code hare simulate} with queues: the jobs file's queue column, the RM's queue file
 * ({@code --queues}), the per-queue report beside the single-queue run, and the errors.
 */
public class SimulateQueuesTest {

  @Rule
  public TemporaryFolder tmp = new TemporaryFolder();

  private Path jobs;
  private Path profiles;

  private void writeFiles(String jobsText) throws IOException {
    jobs = tmp.getRoot().toPath().resolve("jobs.csv");
    profiles = tmp.getRoot().toPath().resolve("profiles.csv");
    Files.writeString(jobs, jobsText);
    Files.writeString(profiles, "model,gpu_type,compute_ms,sync_ms\ncnn,v100,100,50\n");
  }

  private Path queuesXml() throws IOException {
    Path f = tmp.getRoot().toPath().resolve("yarn-site.xml");
    Files.writeString(f, "<?xml version=\"1.0\"?>\n<configuration>\n"
        + "<property><name>yarn.resourcemanager.scheduler.class</name><value>x</value></property>\n"
        + "<property><name>yarn.scheduler.hare.queues</name><value>a,b</value></property>\n"
        + "<property><name>yarn.scheduler.hare.queue.a.guaranteed-gpu-share</name>"
        + "<value>0.75</value></property>\n"
        + "<property><name>yarn.scheduler.hare.queue.b.guaranteed-gpu-share</name>"
        + "<value>0.25</value></property>\n"
        + "<property><name>yarn.scheduler.hare.queue.b.acl-submit-applications</name>"
        + "<value>bob</value></property>\n</configuration>\n");
    return f;
  }

  @Test(timeout = 60_000)
  public void theQueueColumnAndTheRmQueueFileGiveEachQueueItsGuarantee() throws Exception {
    // b's job B1 borrows all 4 GPUs at 0; a's job A arrives at 0.05 s and gets its 3 GPUs back
    // at the task boundary, 0.1 s: its JCT is 0.2 s (0.3 s with one queue, behind all of B2)
    writeFiles("job_id,arrival_s,weight,model,tasks_per_round,rounds,queue\n"
        + "B1,0,1,cnn,4,1,b\nB2,0,1,cnn,4,1,b\nA,0.05,1,cnn,3,1,a\n");
    CliRun r = CliRun.run(WorkloadSources.STANDARD, Map.of(), "simulate", "--cluster", "v100=4",
        "--jobs-file", jobs.toString(), "--profiles-file", profiles.toString(),
        "--policies", "yarn-fifo", "--queues", queuesXml().toString(), "--json");
    assertEquals(r.toString(), HareCommand.OK, r.code);
    JsonNode res = new ObjectMapper().readTree(r.out).get("results").get(0);
    JsonNode qs = res.get("queues");
    assertEquals(3, qs.size());
    assertEquals("a", qs.get(1).get("name").asText());
    assertEquals(3, qs.get(1).get("guaranteed_gpus").asInt());
    assertEquals(0.2, qs.get(1).get("total_weighted_jct_s").asDouble(), 1e-9);
    assertEquals(0.05, qs.get(1).get("guarantee_wait_s").asDouble(), 1e-9);
    assertEquals(0.15, qs.get(1).get("guarantee_short_gpu_s").asDouble(), 1e-9);
    assertEquals(0.15, qs.get(1).get("guarantee_lent_gpu_s").asDouble(), 1e-9);
    assertEquals("A behind B2 with one queue", 0.3,
        qs.get(1).get("single_queue_total_weighted_jct_s").asDouble(), 1e-9);
    // B2 is what A's guarantee costs: 0.35 s with queues, 0.25 s with one; B1 0.15 s in both
    assertEquals(0.5, qs.get(2).get("total_weighted_jct_s").asDouble(), 1e-9);
    assertEquals(0.4, qs.get(2).get("single_queue_total_weighted_jct_s").asDouble(), 1e-9);
    assertEquals(2, qs.get(2).get("jobs").asInt());
    double withQueues = res.get("total_weighted_jct_s").asDouble();
    double single = res.get("single_queue_total_weighted_jct_s").asDouble();
    assertEquals(withQueues / single, res.get("ratio_to_single_queue").asDouble(), 1e-12);

    CliRun table = CliRun.run(WorkloadSources.STANDARD, Map.of(), "simulate", "--cluster",
        "v100=4", "--jobs-file", jobs.toString(), "--profiles-file", profiles.toString(),
        "--policies", "yarn-fifo", "--queues", queuesXml().toString());
    assertEquals(table.toString(), HareCommand.OK, table.code);
    assertTrue(table.out, table.out.contains("guarantee wait s")
        && table.out.contains("0.750 (3 GPUs)") && table.out.contains("with one queue"));
  }

  @Test(timeout = 60_000)
  public void perTypeGuaranteesAreReadFromDAndReported() throws Exception {
    writeFiles("job_id,arrival_s,weight,model,tasks_per_round,rounds,queue\n"
        + "B1,0,1,cnn,4,1,b\nA,0.05,1,cnn,3,1,a\n");
    Files.writeString(profiles, "model,gpu_type,compute_ms,sync_ms\ncnn,v100,100,50\n"
        + "cnn,t4,100,50\n");
    String[] args = {"simulate", "--cluster", "v100=2,t4=2", "--jobs-file", jobs.toString(),
        "--profiles-file", profiles.toString(), "--policies", "yarn-fifo",
        "-D", "yarn.scheduler.hare.queues=a,b",
        "-D", "yarn.scheduler.hare.queue.a.guaranteed-gpu-share.v100=1",
        "-D", "yarn.scheduler.hare.queue.a.guaranteed-gpu-share.t4=0.5",
        "-D", "yarn.scheduler.hare.queue.b.guaranteed-gpu-share.t4=0.5"};
    CliRun r = CliRun.run(WorkloadSources.STANDARD, Map.of(), concat(args, "--json"));
    assertEquals(r.toString(), HareCommand.OK, r.code);
    JsonNode a = new ObjectMapper().readTree(r.out).get("results").get(0).get("queues").get(1);
    assertEquals("a", a.get("name").asText());
    assertEquals("2 V100s and 1 T4", 3, a.get("guaranteed_gpus").asInt());
    assertEquals(1.0, a.get("guaranteed_type_shares").get("v100").asDouble(), 0);
    assertEquals(0.5, a.get("guaranteed_type_shares").get("t4").asDouble(), 0);
    assertEquals("B1 borrowed a's 3 GPUs from 0.05 s to 0.1 s", 0.15,
        a.get("guarantee_short_gpu_s").asDouble(), 1e-9);
    CliRun table = CliRun.run(WorkloadSources.STANDARD, Map.of(), args);
    assertEquals(table.toString(), HareCommand.OK, table.code);
    assertTrue(table.out, table.out.contains("t4 0.500, v100 1.000 (3 GPUs)"));

    CliRun both = CliRun.run(WorkloadSources.STANDARD, Map.of(), concat(args,
        "-D", "yarn.scheduler.hare.queue.b.guaranteed-gpu-share=0.5"));
    assertEquals(both.toString(), HareCommand.BAD_INPUT, both.code);
    assertTrue(both.err, both.err.contains("yarn.scheduler.hare.queue.b.guaranteed-gpu-share:"
        + " a queue is guaranteed either a share of the whole fleet"));
  }

  private static String[] concat(String[] a, String... more) {
    String[] out = Arrays.copyOf(a, a.length + more.length);
    System.arraycopy(more, 0, out, a.length, more.length);
    return out;
  }

  @Test(timeout = 60_000)
  public void aPolicyThatFollowsAPlanIsRefusedUnderSeveralQueues() throws Exception {
    writeFiles("job_id,arrival_s,weight,model,tasks_per_round,rounds,queue\n"
        + "B1,0,1,cnn,4,1,b\nA,0.05,1,cnn,3,1,a\n");
    CliRun r = CliRun.run(WorkloadSources.STANDARD, Map.of(), "simulate", "--cluster", "v100=4",
        "--jobs-file", jobs.toString(), "--profiles-file", profiles.toString(),
        "--policies", "hare,hare-paper", "--queues", queuesXml().toString());
    assertEquals(r.toString(), HareCommand.BAD_INPUT, r.code);
    assertTrue(r.err, r.err.contains("--policies: hare-paper, with yarn.scheduler.hare.queues set: "
        + "yarn.scheduler.hare.hare.dispatch=plan cannot serve several queues"));
    assertFalse("hare itself is not refused", r.err.contains("--policies: hare,"));
  }

  @Test(timeout = 60_000)
  public void aPropertiesFileServesToo() throws Exception {
    writeFiles("job_id,arrival_s,weight,model,tasks_per_round,rounds,queue\n"
        + "B1,0,1,cnn,4,1,b\nA,0.05,1,cnn,3,1,a\n");
    Path props = tmp.getRoot().toPath().resolve("queues.properties");
    Files.writeString(props, "# the RM's keys\nyarn.scheduler.hare.queues = a,b\n"
        + "yarn.scheduler.hare.queue.a.guaranteed-gpu-share = 0.75\n");
    CliRun r = CliRun.run(WorkloadSources.STANDARD, Map.of(), "simulate", "--cluster", "v100=4",
        "--jobs-file", jobs.toString(), "--profiles-file", profiles.toString(),
        "--policies", "yarn-fifo", "--queues", props.toString(), "--json",
        "-D", "yarn.scheduler.hare.queue.a.guaranteed-gpu-share=0.5"); // -D wins over the file
    assertEquals(r.toString(), HareCommand.OK, r.code);
    JsonNode a = new ObjectMapper().readTree(r.out).get("results").get(0).get("queues").get(1);
    assertEquals("a", a.get("name").asText());
    assertEquals(2, a.get("guaranteed_gpus").asInt());
  }

  @Test(timeout = 60_000)
  public void oneQueueLeavesTheOutputAsItWas() throws Exception {
    writeFiles("job_id,arrival_s,weight,model,tasks_per_round,rounds\nB,0,1,cnn,4,2\n");
    CliRun r = CliRun.run(WorkloadSources.STANDARD, Map.of(), "simulate", "--cluster", "v100=4",
        "--jobs-file", jobs.toString(), "--profiles-file", profiles.toString(),
        "--policies", "yarn-fifo", "--json");
    assertEquals(r.toString(), HareCommand.OK, r.code);
    JsonNode res = new ObjectMapper().readTree(r.out).get("results").get(0);
    assertTrue(r.out, !res.has("queues") && !res.has("single_queue_total_weighted_jct_s"));
  }

  @Test(timeout = 60_000)
  public void aJobInAnUnknownQueueIsBadInputListingTheQueues() throws Exception {
    writeFiles("job_id,arrival_s,weight,model,tasks_per_round,rounds,queue\n"
        + "B,0,1,cnn,1,1,b\nA,0,1,cnn,1,1,vision\n");
    CliRun r = CliRun.run(WorkloadSources.STANDARD, Map.of(), "simulate", "--cluster", "v100=4",
        "--jobs-file", jobs.toString(), "--profiles-file", profiles.toString(),
        "--policies", "yarn-fifo", "-D", "yarn.scheduler.hare.queues=a,b");
    assertEquals(r.toString(), HareCommand.BAD_INPUT, r.code);
    assertTrue(r.toString(), r.err.contains("jobs.csv:3: field 'queue': queue 'vision' is not"
        + " configured; the queues are default, a, b (set them with yarn.scheduler.hare.queues"));
    assertEquals("", r.out);
  }

  @Test(timeout = 60_000)
  public void badQueueSettingsAndAssignmentsAreBadInput() throws Exception {
    writeFiles("job_id,arrival_s,weight,model,tasks_per_round,rounds\nB,0,1,cnn,1,1\n");
    CliRun r = CliRun.run(WorkloadSources.STANDARD, Map.of(), "simulate", "--cluster", "v100=4",
        "--jobs-file", jobs.toString(), "--profiles-file", profiles.toString(),
        "--policies", "yarn-fifo", "-D", "yarn.scheduler.hare.queues=a,b",
        "-D", "yarn.scheduler.hare.queue.a.guaranteed-gpu-share=0.75",
        "-D", "yarn.scheduler.hare.queue.b.guaranteed-gpu-share=0.5");
    assertEquals(r.toString(), HareCommand.BAD_INPUT, r.code);
    assertTrue(r.toString(), r.err.contains("the guarantees must sum to at most 1"));

    r = CliRun.run(WorkloadSources.STANDARD, Map.of(), "simulate", "--cluster", "v100=4",
        "--jobs-file", jobs.toString(), "--profiles-file", profiles.toString(),
        "--policies", "yarn-fifo", "-D", "yarn.hare.sim.queue-assignment=round-robin");
    assertEquals(r.toString(), HareCommand.BAD_INPUT, r.code);
    assertTrue(r.toString(), r.err.contains("only for --workload paper or philly"));

    r = CliRun.run(WorkloadSources.STANDARD, Map.of(), "simulate", "--cluster", "v100=4",
        "--workload", "paper", "--jobs", "5", "--policies", "yarn-fifo",
        "-D", "yarn.hare.sim.queue-assignment=by-team");
    assertEquals(r.toString(), HareCommand.BAD_INPUT, r.code);
    assertTrue(r.toString(), r.err.contains(
        "yarn.hare.sim.queue-assignment: must be none or round-robin, got 'by-team'"));

    r = CliRun.run(WorkloadSources.STANDARD, Map.of(), "simulate", "--cluster", "v100=4",
        "--workload", "paper", "--jobs", "5", "--policies", "yarn-fifo",
        "--queues", tmp.getRoot().toPath().resolve("missing.xml").toString());
    assertEquals(r.toString(), HareCommand.BAD_INPUT, r.code);
    assertTrue(r.toString(), r.err.contains("missing.xml: no such file"));
  }
}
