package io.hare.cli;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import org.junit.Test;

/** Bad {@code hare demo} options exit 2 with a message naming them, before any cluster starts. */
public class DemoOptionsTest {

  private static void refused(String expected, String... args) {
    String[] full = new String[args.length + 1];
    full[0] = "demo";
    System.arraycopy(args, 0, full, 1, args.length);
    CliRun r = CliRun.run(full);
    assertEquals(r.toString(), HareCommand.BAD_INPUT, r.code);
    assertTrue(r.toString(), r.err.contains(expected));
    assertTrue("nothing on stdout: " + r, r.out.isEmpty());
  }

  @Test(timeout = 60_000)
  public void badOptionsAreNamed() {
    refused("--jobs: must be from 1 to 40, got 0", "--jobs", "0");
    refused("--nodes: 'a100=2' is not TYPE=GPUS", "--nodes", "v100=1,a100=2");
    refused("--nodes: 'v100=0'", "--nodes", "v100=0");
    refused("--heartbeat-ms: must be from 10 to 60000, got 5", "--heartbeat-ms", "5");
    refused("--task-ms: must be from 1 to 600000, got 0", "--tenants", "--task-ms", "0");
    refused("--compare: the same policy as --policy (hare)", "--compare", "hare");
    refused("-D yarn.scheduler.hare.policy: only", "-D", "yarn.scheduler.hare.policy=hlas");
    refused("-D yarn.app.hare.job.weight: only yarn.scheduler.hare.*",
        "-D", "yarn.app.hare.job.weight=3");
    refused("--inject: unknown fault 'disk-full'; known: rm-restart, rm-failover, am-failure,"
        + " node-loss, task-failure", "--inject", "rm-restart,disk-full");
    refused("--inject: 'rm-restart' and 'rm-failover' do not go together", "--inject",
        "rm-failover,rm-restart");
    refused("--inject: an empty name", "--inject", "");
  }

  @Test(timeout = 60_000)
  public void tenantsRefuseFaultsTheirOwnQueueListAndGuaranteesPastTheFleet() {
    refused("--inject: not with --tenants", "--tenants", "--inject", "rm-restart");
    refused("-D yarn.scheduler.hare.queues: --tenants sets the queues (team-a,team-b)",
        "--tenants", "-D", "yarn.scheduler.hare.queues=team-a");
    refused("the guarantees must sum to at most 1", "--tenants", "-D",
        "yarn.scheduler.hare.queue.team-a.guaranteed-gpu-share=0.9");
  }

  @Test(timeout = 60_000)
  public void anUnknownPolicyOrBadSettingIsRefusedByTheSchedulersOwnValidation() {
    refused("yarn.scheduler.hare.policy", "--policy", "no-such-policy");
    refused("yarn.scheduler.hare.weight.max", "-D", "yarn.scheduler.hare.weight.max=0");
  }

  @Test(timeout = 60_000)
  public void helpNamesTheOptions() {
    CliRun r = CliRun.run("demo", "--help");
    assertEquals(r.toString(), HareCommand.OK, r.code);
    for (String o : new String[] {"--policy", "--compare", "--jobs", "--out", "--json",
        "--inject", "rm-restart", "rm-failover", "am-failure", "node-loss", "task-failure", "\"injected\"",
        "--tenants", "\"contended_gpu_seconds\"", "\"contended_guaranteed_gpu_seconds\""}) {
      assertTrue(o, r.out.contains(o));
    }
  }
}
