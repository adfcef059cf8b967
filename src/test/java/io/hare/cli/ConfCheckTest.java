package io.hare.cli;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import io.hare.testing.BadSchedulerConf;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/** {@code hare conf-check}: the scheduler's start-up validation, from the command line. */
public class ConfCheckTest {

  @Rule
  public TemporaryFolder tmp = new TemporaryFolder();

  private Path site(String... props) throws Exception {
    StringBuilder b = new StringBuilder("<?xml version=\"1.0\"?>\n<configuration>\n");
    for (int i = 0; i < props.length; i += 2) {
      b.append("  <property><name>").append(props[i]).append("</name><value>")
          .append(props[i + 1]).append("</value></property>\n");
    }
    Path f = tmp.newFile("yarn-site-" + props.length + ".xml").toPath();
    Files.writeString(f, b.append("</configuration>\n").toString());
    return f;
  }

  @Test(timeout = 60_000)
  public void validFileIsAccepted() throws Exception {
    Path f = site("yarn.scheduler.hare.policy", "hlas", "yarn.scheduler.hare.weight.max", "8");
    CliRun r = CliRun.run("conf-check", "--conf", f.toString());
    assertEquals(r.toString(), 0, r.code);
    assertTrue(r.toString(), r.out.contains("policy hlas"));
    assertTrue(r.toString(), r.out.contains("2 yarn.scheduler.hare.* keys"));
  }

  @Test(timeout = 60_000)
  public void withStandbysOnItExplainsThatIsolatedNodesSkipThem() throws Exception {
    Path f = site("yarn.scheduler.hare.policy", "hlas");
    CliRun off = CliRun.run("conf-check", "--conf", f.toString());
    assertFalse(off.toString(), off.out.contains("gpu-isolation"));
    CliRun on = CliRun.run("conf-check", "--conf", f.toString(),
        "-D", "yarn.scheduler.hare.standby.enabled=true");
    assertEquals(on.toString(), 0, on.code);
    assertTrue(on.toString(), on.out.contains("standby and parked containers apply only on nodes"
        + " whose GPUs YARN does not isolate per container"));
    assertTrue(on.toString(), on.out.contains("gpu-isolation=false"));
  }

  @Test(timeout = 60_000)
  public void everyBadValueIsNamedAtOnce() throws Exception {
    Path f = site("yarn.scheduler.hare.weight.max", "0",
        "yarn.scheduler.hare.gpu-type.attribute", "gpu.model");
    CliRun r = CliRun.run("conf-check", "--conf", f.toString(),
        "-D", "yarn.scheduler.hare.policy=no-such-policy");
    assertEquals(r.toString(), 2, r.code);
    assertTrue(r.toString(), r.err.contains("yarn.scheduler.hare.weight.max"));
    assertTrue(r.toString(), r.err.contains("0"));
    assertTrue(r.toString(), r.err.contains("gpu.model"));
    assertTrue(r.toString(), r.err.contains("no-such-policy"));
    assertTrue(r.toString(), r.err.contains("3 problems"));
    assertFalse(r.toString(), r.err.contains("Exception"));
  }

  /** conf-check lists every row of {@link BadSchedulerConf} at once, each by its key. */
  @Test(timeout = 60_000)
  public void everyBadKeyOfTheTableIsListed() throws Exception {
    Map<String, String> bad = BadSchedulerConf.all(tmp.newFolder("files").toPath());
    List<String> props = new ArrayList<>();
    bad.forEach((k, v) -> {
      props.add(k);
      props.add(v);
    });
    CliRun r = CliRun.run("conf-check", "--conf", site(props.toArray(new String[0])).toString());
    assertEquals(r.toString(), 2, r.code);
    List<String> listed = r.err.lines().filter(l -> l.startsWith("  ")).map(String::strip)
        .toList();
    for (String key : bad.keySet()) {
      assertTrue(key + " not listed:\n" + r.err,
          listed.stream().anyMatch(l -> l.startsWith(key + ":")));
    }
    assertTrue(r.err, r.err.startsWith("hare conf-check: " + listed.size() + " problems:"));
    assertFalse(r.toString(), r.err.contains("Exception"));
  }

  @Test(timeout = 60_000)
  public void laterSourcesWin() throws Exception {
    Path bad = site("yarn.scheduler.hare.weight.max", "0");
    Path good = site("yarn.scheduler.hare.weight.max", "5", "yarn.scheduler.hare.policy", "hare");
    assertEquals(0, CliRun.run("conf-check", "--conf", bad.toString(), "--conf", good.toString())
        .code);
    assertEquals(0, CliRun.run("conf-check", "--conf", bad.toString(),
        "-D", "yarn.scheduler.hare.weight.max=3").code);
  }

  @Test(timeout = 60_000)
  public void missingOrMalformedFileIsBadInput() throws Exception {
    CliRun missing = CliRun.run("conf-check", "--conf", tmp.getRoot() + "/nope.xml");
    assertEquals(missing.toString(), 2, missing.code);
    assertTrue(missing.toString(), missing.err.contains("nope.xml"));
    Path garbage = tmp.newFile("garbage.xml").toPath();
    Files.writeString(garbage, "this is not <xml");
    CliRun r = CliRun.run("conf-check", "--conf", garbage.toString());
    assertEquals(r.toString(), 2, r.code);
    assertTrue(r.toString(), r.err.contains("cannot read the configuration"));
  }

  @Test(timeout = 60_000)
  public void misspeltKeyIsRefusedWithASuggestion() throws Exception {
    Path f = site("yarn.scheduler.hare.weight.mx", "4");
    CliRun r = CliRun.run("conf-check", "--conf", f.toString());
    assertEquals(r.toString(), 2, r.code);
    assertTrue(r.toString(), r.err.contains(
        "yarn.scheduler.hare.weight.mx: unknown key; did you mean yarn.scheduler.hare.weight.max?"));
  }

  @Test(timeout = 60_000)
  public void theShippedExampleIsValid() {
    CliRun r = CliRun.run("conf-check", "--conf", "conf/yarn-site.xml");
    assertEquals(r.toString(), 0, r.code);
    assertTrue(r.toString(), r.out.contains("policy hare"));
  }
}
