package io.hare.yarn.scheduler;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import io.hare.core.GpuType;
import java.util.ArrayList;
import java.util.List;
import org.junit.Test;

/** The admin's mapping file: globs, first match wins, every bad line reported with its number. */
public class GpuTypeMappingTest {

  private static GpuTypeMapping parse(List<String> problems, String... lines) {
    return GpuTypeMapping.parse("map.txt", List.of(lines), problems);
  }

  @Test(timeout = 60_000)
  public void globsMatchCaseInsensitivelyAndTheFirstMatchWins() {
    List<String> problems = new ArrayList<>();
    GpuTypeMapping m = parse(problems,
        "# GPU models of the lab cluster",
        "",
        "gpu-v100-07   K80   # this one was swapped",
        "gpu-v100-*    v100",
        "gpu-{a,b}?.lab   t4",
        "node[1-3]  a100",
        "   ");
    assertEquals(List.of(), problems);
    assertEquals(GpuType.of("k80"), m.modelOf("gpu-v100-07"));
    assertEquals(GpuType.of("v100"), m.modelOf("GPU-V100-01"));
    assertEquals(GpuType.of("t4"), m.modelOf("gpu-b9.lab"));
    assertEquals(GpuType.of("a100"), m.modelOf("node2"));
    assertNull(m.modelOf("node4"));
    assertNull(m.modelOf("gpu-c1.lab"));
    assertNull("a glob matches the whole name", m.modelOf("x-gpu-v100-01"));
  }

  @Test(timeout = 60_000)
  public void everyBadLineIsReportedWithItsNumberAndWhatIsAllowed() {
    List<String> problems = new ArrayList<>();
    GpuTypeMapping m = parse(problems,
        "good-host v100",
        "lonely-host",                // 2: one field
        "a b c",                      // 3: three fields
        "bad/host v100",              // 4: '/' is no host character
        "host-x Tesla!",              // 5: not a type name
        "good-host t4",               // 6: repeats line 1
        "node[1-  v100");             // 7: unclosed glob
    assertTrue(m.isEmpty());
    assertEquals(String.join("\n", problems), 6, problems.size());
    assertTrue(problems.get(0), problems.get(0).startsWith("map.txt:2: expected 2 fields"));
    assertTrue(problems.get(0), problems.get(0).contains("'HOST_OR_GLOB GPU_MODEL'"));
    assertTrue(problems.get(1), problems.get(1).startsWith("map.txt:3: expected 2 fields"));
    assertTrue(problems.get(2), problems.get(2).startsWith("map.txt:4: bad host pattern 'bad/host'"));
    assertTrue(problems.get(2), problems.get(2).contains("allowed are host names"));
    assertTrue(problems.get(3), problems.get(3).startsWith("map.txt:5: bad GPU model 'Tesla!'"));
    assertTrue(problems.get(3), problems.get(3).contains("[a-z0-9_-]"));
    assertTrue(problems.get(4), problems.get(4).startsWith("map.txt:6: host pattern 'good-host'"
        + " repeats line 1"));
    assertTrue(problems.get(5), problems.get(5).startsWith("map.txt:7: bad host glob 'node[1-'"));
  }

  @Test(timeout = 60_000)
  public void aMissingFileIsOneProblemAndNoFileIsNoMapping() {
    List<String> problems = new ArrayList<>();
    assertTrue(GpuTypeMapping.read("", problems).isEmpty());
    assertEquals(List.of(), problems);
    GpuTypeMapping.read("/nonexistent/hare-gpu-map.txt", problems);
    assertEquals(1, problems.size());
    assertEquals("/nonexistent/hare-gpu-map.txt: no such file", problems.get(0));
  }
}
