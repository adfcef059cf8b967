package io.hare.demo;

import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.hare.core.SchedulerKeys;
import io.hare.yarn.scheduler.HareSettings;
import java.io.InputStream;
import java.net.URL;
import java.nio.file.Path;
import java.util.zip.GZIPInputStream;
import org.apache.hadoop.conf.Configuration;
import org.junit.Test;

/**
 * The replay of a recorded EndToEndIT run under hare (a CI run on 2 cores: its journal, tasks and
 * calibrated profiles): warm containers that went on with their job's next task between passes,
 * ends the RM heard of tens of milliseconds before its next pass, and holds across syncs whose
 * expected ends fall within those milliseconds of a busy GPU's. The simulator reproduces the task
 * order of every node.
 */
public class RecordedRunReplayTest {

  @Test(timeout = 60_000)
  public void aRecordedHareRunReplaysExactly() throws Exception {
    DemoResult run;
    try (InputStream in = new GZIPInputStream(resource("endtoend-hare-run.json.gz")
        .openStream())) {
      run = new ObjectMapper().readValue(in, DemoResult.class);
    }
    Configuration c = new Configuration(false);
    c.set(SchedulerKeys.POLICY, run.policy());
    c.set(SchedulerKeys.PROFILES_FILE,
        Path.of(resource("endtoend-hare-profiles.csv").toURI()).toString());
    Replay.Outcome o = Replay.of(run, HareSettings.read(c));
    StringBuilder all = new StringBuilder();
    o.nodes().forEach(n -> all.append('\n').append(n.host())
        .append(n.same() ? " same" : " DIFFERS").append("\n  YARN ").append(n.timedReal())
        .append("\n  sim  ").append(n.timedSimulated()));
    assertTrue(o.why() + all, o.allSame());
  }

  private static URL resource(String name) {
    URL u = RecordedRunReplayTest.class.getResource("/replay/" + name);
    if (u == null) {
      throw new IllegalStateException("test resource /replay/" + name + " missing");
    }
    return u;
  }
}
