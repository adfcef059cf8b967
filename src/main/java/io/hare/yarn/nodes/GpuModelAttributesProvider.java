package io.hare.yarn.nodes;

import io.hare.core.GpuType;
import io.hare.core.SchedulerKeys;
import io.hare.yarn.GpuDevices;
import java.io.File;
import java.io.IOException;
import java.util.Set;
import java.util.TimerTask;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.util.Shell;
import org.apache.hadoop.yarn.api.records.NodeAttribute;
import org.apache.hadoop.yarn.api.records.NodeAttributeType;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.nodemanager.nodelabels.NodeAttributesProvider;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A NodeManager attributes provider that publishes the node's GPU model as
 * {@code nm.yarn.io/<attribute>} (distributed registration; the attribute name is the RM's
 * {@code yarn.scheduler.hare.gpu-type.attribute}, default {@code gpu-model}). Enable it in the
 * NodeManager's yarn-site.xml:
 *
 * <pre>
 * yarn.nodemanager.node-attributes.provider = io.hare.yarn.nodes.GpuModelAttributesProvider
 * yarn.nodemanager.hare.gpu-model           = v100       (or:)
 * yarn.nodemanager.hare.gpu-model.script-path = /opt/hare/sbin/hare-gpu-model.sh
 * </pre>
 *
 * <p>The model comes from {@value #MODEL} when set (fixed for the NM's life; YARN's built-in
 * {@code config} provider re-reads yarn-site.xml from the classpath instead, which ignores the
 * NM's own configuration object). Otherwise the script at {@value #SCRIPT_PATH} runs at start
 * and every {@code yarn.nodemanager.node-attributes.provider.fetch-interval-ms}, killed after
 * {@code ...fetch-timeout-ms}; it prints YARN's script-provider format
 * ({@code NODE_ATTRIBUTE:gpu-model,STRING,v100}), as {@code dist/sbin/hare-gpu-model.sh} does.
 *
 * <p>With the model it publishes {@code nm.yarn.io/gpu-isolation} ({@link
 * GpuDevices#ISOLATION_ATTRIBUTE}): {@code true} when this NodeManager isolates GPUs per
 * container, that is {@code yarn.nodemanager.resource-plugins} lists {@code yarn.io/gpu} and
 * containers run under the {@code LinuxContainerExecutor} (the GPU plugin's devices cgroup, or
 * Docker's {@code NVIDIA_VISIBLE_DEVICES}); {@code false} otherwise (a static
 * {@code yarn.io/gpu} count, where Hare assigns devices). An admin corrects it centrally with
 * {@code rm.yarn.io/gpu-isolation}, which wins.
 *
 * <p>Bad configuration (neither key, an invalid model name, a script that is not executable)
 * fails {@code serviceInit}, so the NodeManager does not start with an unknown GPU model. A
 * failing run of the script is logged and keeps the previous attributes, as YARN's script
 * provider does.
 */
public class GpuModelAttributesProvider extends NodeAttributesProvider {

  /** The node's GPU model, e.g. v100; wins over the script. */
  public static final String MODEL = "yarn.nodemanager.hare.gpu-model";

  /** Script that prints the model in YARN's script-provider format; used when MODEL is unset. */
  public static final String SCRIPT_PATH = "yarn.nodemanager.hare.gpu-model.script-path";

  private static final Logger LOG = LoggerFactory.getLogger(GpuModelAttributesProvider.class);
  private static final String LINE_PREFIX = "NODE_ATTRIBUTE:";

  private String attribute;
  private boolean isolated;
  private GpuType fixed;
  private String script;
  private long timeoutMs;

  public GpuModelAttributesProvider() {
    super(GpuModelAttributesProvider.class.getName());
  }

  @Override
  protected void serviceInit(Configuration conf) throws Exception {
    super.serviceInit(conf);
    attribute = conf.getTrimmed(SchedulerKeys.GPU_TYPE_ATTRIBUTE,
        SchedulerKeys.DEFAULT_GPU_TYPE_ATTRIBUTE);
    isolated = GpuDevices.isolatedBy(conf);
    String model = conf.getTrimmed(MODEL, "");
    script = conf.getTrimmed(SCRIPT_PATH, "");
    timeoutMs = conf.getLong(YarnConfiguration.NM_NODE_ATTRIBUTES_PROVIDER_FETCH_TIMEOUT_MS,
        YarnConfiguration.DEFAULT_NM_NODE_ATTRIBUTES_PROVIDER_FETCH_TIMEOUT_MS);
    if (!model.isEmpty()) {
      try {
        fixed = GpuType.of(model);
      } catch (IllegalArgumentException e) {
        throw new IOException(MODEL + ": " + e.getMessage(), e);
      }
      setIntervalTime(DISABLE_NODE_DESCRIPTORS_PROVIDER_FETCH_TIMER); // it cannot change
      LOG.info("GPU model {} from {}", fixed, MODEL);
      return;
    }
    if (script.isEmpty()) {
      throw new IOException("set " + MODEL + " (the node's GPU model, e.g. v100) or "
          + SCRIPT_PATH + " (a script such as hare-gpu-model.sh) for " + getName());
    }
    File f = new File(script);
    if (!f.isFile() || !FileUtil.canExecute(f)) {
      throw new IOException(SCRIPT_PATH + ": '" + script + "' is not an executable file");
    }
    setIntervalTime(conf.getLong(YarnConfiguration.NM_NODE_ATTRIBUTES_PROVIDER_FETCH_INTERVAL_MS,
        YarnConfiguration.DEFAULT_NM_NODE_ATTRIBUTES_PROVIDER_FETCH_INTERVAL_MS));
  }

  @Override
  public TimerTask createTimerTask() {
    return new TimerTask() {
      @Override
      public void run() {
        try {
          setDescriptors(Set.of(attribute(fixed != null ? fixed : runScript()),
              NodeAttribute.newInstance(NodeAttribute.PREFIX_DISTRIBUTED,
                  GpuDevices.ISOLATION_ATTRIBUTE, NodeAttributeType.STRING,
                  Boolean.toString(isolated))));
        } catch (IOException | RuntimeException e) {
          LOG.error("GPU model not updated, keeping {}: {}", getDescriptors(), e.getMessage());
        }
      }
    };
  }

  private NodeAttribute attribute(GpuType model) {
    return NodeAttribute.newInstance(NodeAttribute.PREFIX_DISTRIBUTED, attribute,
        NodeAttributeType.STRING, model.name());
  }

  /** Runs the script and reads the model from its {@code NODE_ATTRIBUTE:} line. */
  GpuType runScript() throws IOException {
    Shell.ShellCommandExecutor run = new Shell.ShellCommandExecutor(new String[] {script}, null,
        null, timeoutMs);
    try {
      run.execute();
    } catch (IOException e) {
      throw new IOException(script + " failed (exit " + run.getExitCode() + "): "
          + e.getMessage(), e);
    }
    if (run.isTimedOut()) {
      throw new IOException(script + " timed out after " + timeoutMs + " ms");
    }
    String found = null;
    for (String line : run.getOutput().split("\n")) {
      String l = line.trim();
      if (!l.startsWith(LINE_PREFIX)) {
        continue;
      }
      String[] f = l.substring(LINE_PREFIX.length()).split(",");
      if (f.length == 3 && f[0].trim().equals(attribute)) {
        if (!"STRING".equals(f[1].trim())) {
          throw new IOException(script + ": attribute " + attribute + " must be STRING, got '"
              + l + "'");
        }
        found = f[2].trim();
      }
    }
    if (found == null) {
      throw new IOException(script + " printed no line '" + LINE_PREFIX + attribute
          + ",STRING,MODEL'; it printed: " + run.getOutput().trim());
    }
    try {
      return GpuType.of(found);
    } catch (IllegalArgumentException e) {
      throw new IOException(script + ": " + e.getMessage(), e);
    }
  }

  @Override
  protected void cleanUp() {
    // nothing held between runs
  }
}
