package io.hare.yarn.app;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import io.hare.core.ConfigException;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

/**
 * Malformed job specs, one per row: the valid base spec with one key changed (or removed, when
 * the value is null). Each must be refused with a problem that names the key, the bad value and
 * a word of what is allowed.
 */
@RunWith(Parameterized.class)
public class JobSpecValidatorTest {

  static Map<String, String> valid() {
    Map<String, String> m = new TreeMap<>();
    m.put(AppKeys.JOB_NAME, "resnet-demo");
    m.put(AppKeys.JOB_ROUNDS, "10");
    m.put(AppKeys.JOB_TASKS_PER_ROUND, "4");
    m.put(AppKeys.TASK_COMMAND, "java -cp hare-yarn.jar io.hare.example.SgdJob task");
    return m;
  }

  static Configuration conf(Map<String, String> m) {
    Configuration c = new Configuration(false);
    m.forEach(c::set);
    return c;
  }

  @Parameters(name = "{0}={1}")
  public static Collection<Object[]> cases() {
    return Arrays.asList(new Object[][] {
        {AppKeys.JOB_NAME, null, "required"},
        {AppKeys.JOB_NAME, "  ", "required"},
        {AppKeys.JOB_ROUNDS, null, "required"},
        {AppKeys.JOB_ROUNDS, "0", "from 1 to"},
        {AppKeys.JOB_ROUNDS, "-3", "from 1 to"},
        {AppKeys.JOB_ROUNDS, "ten", "whole number"},
        {AppKeys.JOB_ROUNDS, "2.5", "whole number"},
        {AppKeys.JOB_ROUNDS, "100000001", "from 1 to 100000000"},
        {AppKeys.JOB_TASKS_PER_ROUND, null, "required"},
        {AppKeys.JOB_TASKS_PER_ROUND, "0", "from 1 to 100000"},
        {AppKeys.JOB_TASKS_PER_ROUND, "100001", "from 1 to 100000"},
        {AppKeys.TASK_COMMAND, null, "required"},
        {AppKeys.TASK_COMMAND, "", "required"},
        {AppKeys.JOB_WEIGHT, "0", "> 0"},
        {AppKeys.JOB_WEIGHT, "-1", "> 0"},
        {AppKeys.JOB_WEIGHT, "NaN", "> 0"},
        {AppKeys.JOB_WEIGHT, "heavy", "> 0"},
        {AppKeys.JOB_WEIGHT, "2e6", "<= 1000000"},
        {AppKeys.JOB_MODEL, "ResNet 50", "a-z"},
        {AppKeys.JOB_QUEUE, "my queue", "without spaces"},
        {AppKeys.TASK_MEMORY_MB, "0", ">= 1"},
        {AppKeys.TASK_MEMORY_MB, "2g", ">= 1"},
        {AppKeys.TASK_VCORES, "0", ">= 1"},
        {AppKeys.TASK_GPUS, "2", "only 1 is supported"},
        {AppKeys.TASK_GPUS, "0", "only 1 is supported"},
        {AppKeys.TASK_MAX_ATTEMPTS, "0", ">= 1"},
        {AppKeys.TASK_MAX_ATTEMPTS, "1000", "from 1 to 100"},
        {AppKeys.AM_MEMORY_MB, "128", ">= 256"},
        {AppKeys.AM_MAX_ATTEMPTS, "0", ">= 1"},
        {AppKeys.AM_HEARTBEAT_INTERVAL_MS, "5", "from 10 to 60000"},
        {AppKeys.AM_HEARTBEAT_INTERVAL_MS, "60001", "from 10 to 60000"},
        {AppKeys.AM_HEARTBEAT_INTERVAL_MS, "fast", "from 10 to 60000"},
        {AppKeys.AM_JAVA_OPTS, "-Xmx4g", "without -Xmx"},
        {AppKeys.TASK_REUSE_ENABLED, "yes", "true or false"},
        {AppKeys.TASK_MODE, "daemon", "process or resident"},
        {AppKeys.SYNC_MODE, "forever", "process or resident"},
        {AppKeys.SYNC_MODE, "resident", "needs a sync step to run"},
        {AppKeys.AM_JAVA_OPTS, "-XX:+UseSerialGC Serial", "starting with '-'"},
        {AppKeys.AM_JAVA_OPTS, "-Dhome=\"$HOME\"", "no quotes or $"},
        {AppKeys.AM_JAR, "/no/such/hare.jar", "existing Hare jar"},
        {AppKeys.FILES, "/no/such/data.bin", "no such file"},
        {AppKeys.ARCHIVES, "/no/such/env.tar.gz", "no such file"},
        {AppKeys.JOB_STAGING_DIR, "", "directory"},
        {"yarn.app.hare.job.round", "10", "did you mean yarn.app.hare.job.rounds?"},
        {"yarn.app.hare.task.memory", "4096", "did you mean yarn.app.hare.task.memory-mb?"},
        {"yarn.app.hare.sync.comand", "x", "did you mean yarn.app.hare.sync.command?"},
        {"yarn.app.hare.completely.different.thing", "1", "unknown key"},
        {AppKeys.ENV_PREFIX + "HARE_ROUND", "7", "set by Hare itself"},
        {AppKeys.ENV_PREFIX + "1BAD", "x", "environment variable name"},
        // wrong types, huge and odd numbers
        {AppKeys.JOB_ROUNDS, "true", "whole number"},
        {AppKeys.JOB_ROUNDS, "1e3", "whole number"},
        {AppKeys.JOB_ROUNDS, "0x10", "whole number"},
        {AppKeys.JOB_ROUNDS, "2147483648", "from 1 to 100000000"},
        {AppKeys.JOB_ROUNDS, " ", "required, and empty"},
        {AppKeys.JOB_TASKS_PER_ROUND, "-2", "from 1 to 100000"},
        {AppKeys.JOB_WEIGHT, "Infinity", "> 0"},
        {AppKeys.JOB_WEIGHT, "10d", "a number > 0"},
        {AppKeys.JOB_WEIGHT, "1,5", "a number > 0"},
        {AppKeys.JOB_MODEL, "m".repeat(65), "1-64 characters"},
        {AppKeys.JOB_QUEUE, "", "without spaces"},
        {AppKeys.TASK_MEMORY_MB, "99999999999", "<= 2147483647"},
        {AppKeys.TASK_VCORES, "-1", ">= 1 and <= 2147483647"},
        {AppKeys.TASK_GPUS, "one", "must be 1"},
        {AppKeys.AM_MAX_ATTEMPTS, "99999999999", "<= 2147483647"},
        {AppKeys.ARCHIVES, "pom.xml", "archives ending in .zip"},
        {AppKeys.JOB_FILE_SYSTEMS, "data-ns", "file system URIs with a scheme"},
        {AppKeys.JOB_FILE_SYSTEMS, "/data", "file system URIs with a scheme"},
        {AppKeys.ENV_PREFIX + "HARE_WORK_DIR", "/tmp", "set by Hare itself"},
        {AppKeys.ENV_PREFIX + "MY-VAR", "x", "environment variable name"},
        {"yarn.app.hare.weight", "5", "did you mean yarn.app.hare.job.weight?"},
    });
  }

  private final String key;
  private final String value;
  private final String allowed;

  public JobSpecValidatorTest(String key, String value, String allowed) {
    this.key = key;
    this.value = value;
    this.allowed = allowed;
  }

  @Test(timeout = 60_000)
  public void refusedNamingTheKey() {
    Map<String, String> m = valid();
    if (value == null) {
      m.remove(key);
    } else {
      m.put(key, value);
    }
    try {
      HareJobSpec s = JobSpecValidator.read(conf(m));
      fail(key + "=" + value + " accepted as " + s);
    } catch (ConfigException e) {
      List<String> p = e.problems();
      assertEquals(p.toString(), 1, p.size());
      assertTrue(p.get(0), p.get(0).startsWith(key + ": "));
      if (value != null && !value.isBlank() && !key.startsWith(AppKeys.ENV_PREFIX)) {
        assertTrue(p.get(0), p.get(0).contains("'" + value + "'"));
      }
      assertTrue(p.get(0), p.get(0).contains(allowed));
    }
  }
}
