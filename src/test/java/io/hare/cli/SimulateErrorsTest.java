package io.hare.cli;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * Option parsing and exit codes of {@code hare simulate}: bad input gives exit code 2 and one
 * clear message on stderr (no stack trace, nothing on stdout); a failing simulation gives 1.
 */
public class SimulateErrorsTest {

  private static final String CLUSTER = "v100=3,t4=2,k80=3";

  @Rule
  public TemporaryFolder tmp = new TemporaryFolder();

  private static CliRun badInput(String... args) {
    CliRun r = CliRun.run(args);
    assertEquals(r.toString(), HareCommand.BAD_INPUT, r.code);
    assertEquals("nothing on stdout\n" + r, "", r.out);
    assertFalse("no stack trace\n" + r, r.err.contains("\tat ") || r.err.contains("Exception"));
    return r;
  }

  private static void assertErr(CliRun r, String... parts) {
    for (String p : parts) {
      assertTrue("stderr names '" + p + "'\n" + r, r.err.contains(p));
    }
  }

  @Test(timeout = 60_000)
  public void unknownPolicyIsBadInputAndListsTheKnownOnes() {
    CliRun r = badInput("simulate", "--cluster", CLUSTER, "--workload", "paper",
        "--policies", "yarn-fifo,no-such-policy");
    assertErr(r, "unknown policy 'no-such-policy'", "yarn-fifo");
  }

  @Test(timeout = 60_000)
  public void aMisspeltPolicyGetsTheClosestKnownOne() {
    CliRun r = badInput("simulate", "--cluster", CLUSTER, "--workload", "paper",
        "--policies", "hare,alox");
    assertErr(r, "unknown policy 'alox' (did you mean allox?)");
    CliRun far = badInput("simulate", "--cluster", CLUSTER, "--workload", "paper",
        "--policies", "hare,nope");
    assertFalse("'nope' is 3 edits from 'hare': no guess\n" + far, far.err.contains("did you"));
  }

  @Test(timeout = 60_000)
  public void aMisspeltRequiredOptionIsNamedBeforeItIsMissing() {
    // picocli finds --policies missing first; the typo is what the user needs to see
    CliRun r = badInput("simulate", "--cluster", CLUSTER, "--workload", "paper",
        "--policis", "hare,allox");
    assertTrue(r.toString(), r.err.startsWith("hare simulate: unknown option '--policis'; did"
        + " you mean --policies?\n"));
    assertErr(r, "Missing required option: '--policies");
  }

  @Test(timeout = 60_000)
  public void badProfileErrorSettingsAreNamedWithWhatIsAllowed() {
    assertErr(badInput("simulate", "--cluster", CLUSTER, "--workload", "paper", "--policies",
        "yarn-fifo", "-D", "yarn.hare.sim.profile-noise=-0.5", "-D",
        "yarn.hare.sim.profile-bias=0"), "yarn.hare.sim.profile-noise", "got '-0.5'",
        "yarn.hare.sim.profile-bias", "got '0'");
  }

  @Test(timeout = 60_000)
  public void everyUnknownPolicyIsReportedAtOnce() {
    CliRun r = badInput("simulate", "--cluster", CLUSTER, "--workload", "paper",
        "--policies", "nope1,yarn-fifo,nope2");
    assertErr(r, "'nope1'", "'nope2'", "2 problems");
  }

  @Test(timeout = 60_000)
  public void policyListedTwiceOrEmptyIsBadInput() {
    assertErr(badInput("simulate", "--cluster", CLUSTER, "--workload", "paper",
        "--policies", "yarn-fifo,yarn-fifo"), "yarn-fifo is listed twice");
    assertErr(badInput("simulate", "--cluster", CLUSTER, "--workload", "paper",
        "--policies", "yarn-fifo,,"), "empty policy name");
    assertErr(badInput("simulate", "--cluster", CLUSTER, "--workload", "paper",
        "--policies", "yarn-fifo,io.hare.core.policy.blind.YarnFifoPolicy"),
        "is policy yarn-fifo, listed twice");
  }

  @Test(timeout = 60_000)
  public void badClusterStringsNameTheEntry() {
    assertErr(badInput("simulate", "--cluster", "v100=x,t4=2", "--workload", "paper",
        "--policies", "yarn-fifo"), "--cluster", "'v100=x'", "integer");
    assertErr(badInput("simulate", "--cluster", "v100", "--workload", "paper",
        "--policies", "yarn-fifo"), "--cluster", "'v100'", "type=count");
    assertErr(badInput("simulate", "--cluster", "v100=2,v100=3", "--workload", "paper",
        "--policies", "yarn-fifo"), "--cluster", "listed twice");
    assertErr(badInput("simulate", "--cluster", "v100=0,t4=0", "--workload", "paper",
        "--policies", "yarn-fifo"), "--cluster", "no GPUs");
  }

  @Test(timeout = 60_000)
  public void missingJobsOrProfilesFileIsNamed() throws IOException {
    Path jobs = tmp.newFile("jobs.csv").toPath();
    Path missing = tmp.getRoot().toPath().resolve("nope.csv");
    assertErr(badInput("simulate", "--cluster", CLUSTER, "--jobs-file", missing.toString(),
        "--profiles-file", jobs.toString(), "--policies", "yarn-fifo"),
        "--jobs-file", missing.toString(), "no such file");
    assertErr(badInput("simulate", "--cluster", CLUSTER, "--jobs-file", jobs.toString(),
        "--profiles-file", missing.toString(), "--policies", "yarn-fifo"),
        "--profiles-file", missing.toString(), "no such file");
    assertErr(badInput("simulate", "--cluster", CLUSTER, "--jobs-file",
        tmp.getRoot().toString(), "--profiles-file", jobs.toString(), "--policies", "yarn-fifo"),
        "--jobs-file", "not a readable file");
  }

  @Test(timeout = 60_000)
  public void missingPhillyDataNamesThePathAndHowToSetIt() {
    Path missing = tmp.getRoot().toPath().resolve("philly.csv");
    CliRun r = CliRun.run(new CliRun.FixtureSources(),
        Map.of(DataPaths.ENV_PHILLY_CSV, missing.toString()), "simulate", "--cluster", CLUSTER,
        "--workload", "philly", "--policies", "yarn-fifo");
    assertEquals(r.toString(), HareCommand.BAD_INPUT, r.code);
    assertErr(r, missing.toString(), "$" + DataPaths.ENV_PHILLY_CSV, "no such file");
  }

  @Test(timeout = 60_000)
  public void workloadChoiceIsExclusiveAndRequired() {
    badInput("simulate", "--cluster", CLUSTER, "--policies", "yarn-fifo");
    badInput("simulate", "--cluster", CLUSTER, "--workload", "paper", "--jobs-file", "a.csv",
        "--profiles-file", "b.csv", "--policies", "yarn-fifo");
    assertErr(badInput("simulate", "--cluster", CLUSTER, "--jobs-file", "a.csv",
        "--policies", "yarn-fifo"), "--profiles-file");
    assertErr(badInput("simulate", "--cluster", CLUSTER, "--workload", "google",
        "--policies", "yarn-fifo"), "--workload", "paper or philly", "'google'");
  }

  @Test(timeout = 60_000)
  public void badNumbersAreBadInput() {
    assertErr(badInput("simulate", "--cluster", CLUSTER, "--workload", "paper", "--jobs", "ten",
        "--policies", "yarn-fifo"), "--jobs", "ten");
    assertErr(badInput("simulate", "--cluster", CLUSTER, "--workload", "paper", "--jobs", "0",
        "--policies", "yarn-fifo"), "--jobs", ">= 1");
    assertErr(badInput("simulate", "--cluster", CLUSTER, "--workload", "philly", "--jobs", "-1",
        "--policies", "yarn-fifo"), "--jobs", ">= 0");
    assertErr(badInput("simulate", "--cluster", CLUSTER, "--workload", "paper",
        "--switch-ms", "-5", "--policies", "yarn-fifo"), "--switch-ms", ">= 0");
  }

  @Test(timeout = 60_000)
  public void settingsOutsideTheHareRootsOrMalformedAreBadInput() {
    assertErr(badInput("simulate", "--cluster", CLUSTER, "--workload", "paper",
        "--policies", "yarn-fifo", "-D", "yarn.scheduler.fair.x=1"),
        "yarn.scheduler.fair.x", "yarn.scheduler.hare.*", "yarn.hare.sim.*");
    assertErr(badInput("simulate", "--cluster", CLUSTER, "--workload", "paper",
        "--policies", "yarn-fifo", "-Dyarn.scheduler.hare.seed=abc"),
        "yarn.scheduler.hare.seed", "'abc'");
    badInput("simulate", "--cluster", CLUSTER, "--workload", "paper", "--policies", "yarn-fifo",
        "-D", "no-equals-sign");
  }

  @Test(timeout = 60_000)
  public void misspeltKeysUnderTheRootsAreAllRefusedWithTheClosestKnownKey() {
    // hare's own keys sit under yarn.scheduler.hare.hare.*: one level short is easy to type
    CliRun r = badInput("simulate", "--cluster", CLUSTER, "--workload", "paper",
        "--policies", "hare", "-D", "yarn.scheduler.hare.affinity-min-share=0",
        "-D", "yarn.hare.sim.profile-noize=0.5", "-D", "yarn.hare.sim.nothing-like-it=1");
    assertErr(r, "yarn.scheduler.hare.affinity-min-share: unknown key; did you mean "
            + "yarn.scheduler.hare.hare.affinity-min-share?",
        "yarn.hare.sim.profile-noize: unknown key; did you mean yarn.hare.sim.profile-noise?",
        "yarn.hare.sim.nothing-like-it: unknown key; see hare-sim-default.xml");
  }

  @Test(timeout = 60_000)
  public void aClusterWithoutThePapersTypesIsNamedOnce() {
    CliRun r = CliRun.run(WorkloadSources.STANDARD, Map.of(), "simulate", "--cluster", "a100=4",
        "--workload", "paper", "--jobs", "5", "--policies", "hare");
    assertEquals(r.toString(), HareCommand.BAD_INPUT, r.code);
    assertErr(r, "paper workload: cluster a100=4 has no GPU of the paper's types");
    assertFalse(r.toString(), r.err.contains("paper workload: paper workload"));
  }

  @Test(timeout = 60_000)
  public void outThatIsAFileIsBadInput() throws IOException {
    Path f = tmp.newFile("taken").toPath();
    assertErr(badInput("simulate", "--cluster", CLUSTER, "--workload", "paper",
        "--policies", "yarn-fifo", "--out", f.toString()), "--out", "not a directory");
  }

  @Test(timeout = 60_000)
  public void unknownOptionAndMissingCommandAreBadInput() {
    assertErr(badInput("simulate", "--cluster", CLUSTER, "--workload", "paper",
        "--policies", "yarn-fifo", "--bogus"), "--bogus", "--help");
    assertErr(badInput("simulate"), "--cluster");
    assertErr(badInput(), "Usage: hare", "simulate");
    assertErr(badInput("simulat"), "simulat");
  }

  @Test(timeout = 60_000)
  public void aPolicyBreakingTheRulesIsARuntimeFailure() {
    CliRun r = CliRun.run("simulate", "--cluster", CLUSTER, "--workload", "paper", "--jobs", "4",
        "--policies", "yarn-fifo," + TestingPolicies.Broken.class.getName());
    assertEquals(r.toString(), HareCommand.FAILURE, r.code);
    assertErr(r, "failed", "no-such-gpu");
    assertEquals(r.toString(), "", r.out);
  }

  @Test(timeout = 60_000)
  public void everyCommandHasHelp() {
    CliRun top = CliRun.run("--help");
    assertEquals(top.toString(), HareCommand.OK, top.code);
    assertTrue(top.out, top.out.contains("simulate"));
    CliRun sim = CliRun.run("simulate", "--help");
    assertEquals(sim.toString(), HareCommand.OK, sim.code);
    for (String opt : new String[] {"--cluster", "--workload", "--jobs", "--seed", "--jobs-file",
        "--profiles-file", "--policies", "--switch-ms", "--out", "--json", "--philly-csv",
        "--gavel-json", "-D", "Exit codes"}) {
      assertTrue("help shows " + opt, sim.out.contains(opt));
    }
    CliRun viaHelp = CliRun.run("help", "simulate");
    assertEquals(viaHelp.toString(), HareCommand.OK, viaHelp.code);
    assertTrue(viaHelp.toString(), viaHelp.out.contains("--cluster"));
  }
}
