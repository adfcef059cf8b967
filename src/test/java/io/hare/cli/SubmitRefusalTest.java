package io.hare.cli;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import io.hare.yarn.app.AppKeys;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

/**
 * {@code hare submit} (not {@code --validate}) with a bad spec, one case per row: it exits 2 with
 * a message naming the key or file and what is allowed, no stack trace, submits nothing and
 * stages nothing. A row's text is the spec file itself ({@code {BASE}} stands for the properties
 * of a valid spec) or, for a row with {@code -D}, an override on the command line.
 */
@RunWith(Parameterized.class)
public class SubmitRefusalTest {

  private static final String BASE = "{BASE}";

  @Parameters(name = "{0}")
  public static Collection<Object[]> cases() {
    return Arrays.asList(new Object[][] {
        {"unknown-key", spec(prop("yarn.app.hare.job.prioirty", "5")), null,
            words("yarn.app.hare.job.prioirty: unknown key (value '5')", "did you mean")},
        {"weight-huge", spec(prop(AppKeys.JOB_WEIGHT, "1e9")), null,
            words(AppKeys.JOB_WEIGHT + ": '1e9'", "<= 1000000")},
        {"rounds-override-negative", spec(""), AppKeys.JOB_ROUNDS + "=-4",
            words(AppKeys.JOB_ROUNDS + ": '-4'", "from 1 to")},
        {"two-problems-at-once", spec(prop(AppKeys.TASK_GPUS, "4")
            + prop(AppKeys.TASK_MEMORY_MB, "lots")), null,
            words("2 problems", AppKeys.TASK_GPUS + ": '4'", AppKeys.TASK_MEMORY_MB + ": 'lots'")},
        {"same-file-name-twice", spec(prop(AppKeys.FILES, "pom.xml,./pom.xml")), null,
            words(AppKeys.FILES + ": './pom.xml'", "pom.xml is localized twice")},
        {"not-xml", "rounds: 4\n", null, words("not well-formed XML")},
        {"not-a-configuration", "<?xml version=\"1.0\"?><job><rounds>4</rounds></job>", null,
            words("not a Hadoop configuration file", "expected <configuration>")},
        {"external-entity", "<?xml version=\"1.0\"?><!DOCTYPE c [<!ENTITY x SYSTEM"
            + " \"file:///etc/passwd\">]><configuration>" + BASE
            + prop(AppKeys.JOB_NAME, "&x;") + "</configuration>", null,
            words("not well-formed XML", "DOCTYPE")},
        {"unclosed-tag", "<?xml version=\"1.0\"?><configuration>" + BASE
            + "<property><name>x</name>", null,
            words("job.xml:8:25: not well-formed XML", "must start and end")},
    });
  }

  private static String prop(String k, String v) {
    return "<property><name>" + k + "</name><value>" + v + "</value></property>\n";
  }

  private static String spec(String extra) {
    return "<?xml version=\"1.0\"?>\n<configuration>\n" + BASE + extra + "</configuration>\n";
  }

  private static String[] words(String... w) {
    return w;
  }

  @Rule
  public TemporaryFolder tmp = new TemporaryFolder();

  private final String name;
  private final String text;
  private final String override;
  private final String[] mentions;

  public SubmitRefusalTest(String name, String text, String override, String[] mentions) {
    this.name = name;
    this.text = text;
    this.override = override;
    this.mentions = mentions;
  }

  @Test(timeout = 60_000)
  public void refusedBeforeAnythingIsStagedOrSubmitted() throws Exception {
    Path staging = tmp.newFolder("staging").toPath();
    Path jar = tmp.newFile("hare-yarn.jar").toPath();
    Map<String, String> base = new LinkedHashMap<>();
    base.put(AppKeys.JOB_NAME, "mnist");
    base.put(AppKeys.JOB_ROUNDS, "4");
    base.put(AppKeys.JOB_TASKS_PER_ROUND, "2");
    base.put(AppKeys.TASK_COMMAND, "true");
    base.put(AppKeys.JOB_STAGING_DIR, staging.toString());
    base.put(AppKeys.AM_JAR, jar.toString());
    base.put("fs.defaultFS", "file:///");
    StringBuilder props = new StringBuilder();
    base.forEach((k, v) -> props.append(prop(k, v)));
    Path f = tmp.newFile("job.xml").toPath();
    Files.writeString(f, text.replace(BASE, props));
    FakeYarnApps yarn = new FakeYarnApps();
    AppCliRun r = override == null ? AppCliRun.run(yarn, "submit", f.toString())
        : AppCliRun.run(yarn, "submit", f.toString(), "-D", override);
    assertEquals(r.toString(), 2, r.code);
    for (String m : mentions) {
      assertTrue(name + ": should mention " + m + "\n" + r, r.err.contains(m));
    }
    assertFalse(r.toString(), r.err.contains("Exception"));
    assertTrue("nothing submitted", yarn.submitted.isEmpty());
    try (Stream<Path> staged = Files.list(staging)) {
      assertEquals("nothing staged", 0, staged.count());
    }
  }
}
