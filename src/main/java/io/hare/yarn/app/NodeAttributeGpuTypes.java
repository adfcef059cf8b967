package io.hare.yarn.app;

import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.yarn.api.records.NodeAttribute;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * GPU types from the ResourceManager's node attributes (the scheduler's
 * {@code yarn.scheduler.hare.gpu-type.attribute}, default {@code gpu-model}), asked once per host
 * and cached. The centralized {@code rm.yarn.io} attribute wins over the NodeManager's
 * {@code nm.yarn.io}, as an admin's mapping should. A failed lookup gives the empty string
 * (HARE_GPU_TYPE unknown) and is not cached, so a later container on the host asks again.
 */
public final class NodeAttributeGpuTypes implements GpuTypes {

  private static final Logger LOG = LoggerFactory.getLogger(NodeAttributeGpuTypes.class);

  private final YarnClient client;
  private final String attribute;
  private final Map<String, String> byHost = new ConcurrentHashMap<>();

  public NodeAttributeGpuTypes(YarnClient client, String attribute) {
    this.client = client;
    this.attribute = attribute;
  }

  @Override
  public String typeOf(NodeId node) {
    String cached = byHost.get(node.getHost());
    if (cached != null) {
      return cached;
    }
    try {
      Map<String, Set<NodeAttribute>> attrs = client.getNodeToAttributes(Set.of(node.getHost()));
      String type = choose(attrs.getOrDefault(node.getHost(), Set.of()), attribute);
      byHost.put(node.getHost(), type);
      return type;
    } catch (Exception e) {
      LOG.warn("cannot read the node attributes of {}: {}", node.getHost(), e.toString());
      return "";
    }
  }

  /** The value of {@code name}, rm.yarn.io first; lower case; empty if absent. */
  static String choose(Set<NodeAttribute> attrs, String name) {
    String nm = "";
    for (NodeAttribute a : attrs) {
      if (!a.getAttributeKey().getAttributeName().equals(name)) {
        continue;
      }
      String v = a.getAttributeValue().trim().toLowerCase(Locale.ROOT);
      if (NodeAttribute.PREFIX_CENTRALIZED.equals(a.getAttributeKey().getAttributePrefix())) {
        return v;
      }
      nm = v;
    }
    return nm;
  }
}
