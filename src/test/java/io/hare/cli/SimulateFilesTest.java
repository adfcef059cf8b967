package io.hare.cli;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hare.sim.workload.WorkloadFiles;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.Assume;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * The whole path with the real readers: JOBS.csv and PROFILES.csv from disk. Skipped while
 * {@link WorkloadFiles} is still a stub (it is built on another branch), and the data path
 * defaults and precedence.
 */
public class SimulateFilesTest {

  @Rule
  public TemporaryFolder tmp = new TemporaryFolder();

  private Path[] writeFiles(String jobsText) throws IOException {
    Path jobs = tmp.getRoot().toPath().resolve("jobs.csv");
    Path profiles = tmp.getRoot().toPath().resolve("profiles.csv");
    Files.writeString(jobs, jobsText);
    Files.writeString(profiles, "model,gpu_type,compute_ms,sync_ms\n"
        + "cnn,v100,100,20\ngnn,v100,200,10\n");
    return new Path[] {jobs, profiles};
  }

  private static void assumeReadersBuilt(Path jobs, Path profiles) throws Exception {
    try {
      WorkloadFiles.read(jobs, profiles);
    } catch (UnsupportedOperationException e) {
      Assume.assumeNoException("WorkloadFiles is still a stub", e);
    }
  }

  @Test(timeout = 60_000)
  public void jobsAndProfilesFilesGiveTheHandCheckedResult() throws Exception {
    // the same two jobs as SimulateOutputTest: total weighted JCT 3 x 0.24 + 0.21 = 0.93 s
    Path[] f = writeFiles("job_id,arrival_s,weight,model,tasks_per_round,rounds\n"
        + "a,0,3,cnn,1,2\nb,1,1,gnn,1,1\n");
    assumeReadersBuilt(f[0], f[1]);
    CliRun r = CliRun.run(WorkloadSources.STANDARD, Map.of(), "simulate", "--cluster", "v100=1",
        "--jobs-file", f[0].toString(), "--profiles-file", f[1].toString(),
        "--policies", "yarn-fifo", "--json");
    assertEquals(r.toString(), HareCommand.OK, r.code);
    JsonNode res = new ObjectMapper().readTree(r.out).get("results").get(0);
    assertEquals(0.93, res.get("total_weighted_jct_s").asDouble(), 1e-9);
  }

  @Test(timeout = 60_000)
  public void aMalformedJobsFileIsBadInputNamingFileAndLine() throws Exception {
    Path[] f = writeFiles("job_id,arrival_s,weight,model,tasks_per_round,rounds\n"
        + "a,0,3,cnn,1,2\n");
    assumeReadersBuilt(f[0], f[1]);
    writeFiles("job_id,arrival_s,weight,model,tasks_per_round,rounds\n"
        + "a,0,3,cnn,1,2\nb,soon,1,gnn,1,1\n"); // line 3: arrival_s is not a number
    CliRun r = CliRun.run(WorkloadSources.STANDARD, Map.of(), "simulate", "--cluster", "v100=1",
        "--jobs-file", f[0].toString(), "--profiles-file", f[1].toString(),
        "--policies", "yarn-fifo");
    assertEquals(r.toString(), HareCommand.BAD_INPUT, r.code);
    assertTrue(r.toString(), r.err.contains("jobs.csv:3") && r.err.contains("arrival_s"));
    assertEquals("", r.out);
  }

  @Test(timeout = 60_000)
  public void dataPathsOptionThenKeyThenEnvironmentThenDefault() {
    Path opt = Path.of("opt.csv");
    Map<String, String> key = Map.of(DataPaths.PHILLY_CSV, "key.csv");
    Map<String, String> env = Map.of(DataPaths.ENV_PHILLY_CSV, "env.csv");
    assertEquals(opt, resolve(opt, key, env).path());
    assertEquals(Path.of("key.csv"), resolve(null, key, env).path());
    assertEquals(Path.of("env.csv"), resolve(null, Map.of(), env).path());
    DataPaths.Resolved def = resolve(null, Map.of(), Map.of());
    assertEquals(Path.of("../shared/data/philly-jobs.csv"), def.path());
    assertTrue(def.source(), def.source().contains("--philly-csv")
        && def.source().contains(DataPaths.PHILLY_CSV)
        && def.source().contains(DataPaths.ENV_PHILLY_CSV));
  }

  @Test(timeout = 60_000)
  public void dataPathKeysAreDocumentedWithTheirDefaults() throws Exception {
    Map<String, String> documented = new HashMap<>();
    try (InputStream in = SimulateFilesTest.class.getResourceAsStream("/hare-sim-default.xml")) {
      Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(in);
      NodeList props = doc.getElementsByTagName("property");
      for (int i = 0; i < props.getLength(); i++) {
        Element p = (Element) props.item(i);
        documented.put(p.getElementsByTagName("name").item(0).getTextContent().trim(),
            p.getElementsByTagName("value").item(0).getTextContent().trim());
      }
    }
    assertEquals(DataPaths.DEFAULT_PHILLY_CSV, documented.get(DataPaths.PHILLY_CSV));
    assertEquals(DataPaths.DEFAULT_GAVEL_JSON, documented.get(DataPaths.GAVEL_JSON));
  }

  private static DataPaths.Resolved resolve(Path option, Map<String, String> settings,
      Map<String, String> env) {
    return DataPaths.resolve(option, "--philly-csv", settings, DataPaths.PHILLY_CSV, env,
        DataPaths.ENV_PHILLY_CSV, DataPaths.DEFAULT_PHILLY_CSV);
  }
}
