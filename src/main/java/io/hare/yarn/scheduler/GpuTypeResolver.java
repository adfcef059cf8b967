package io.hare.yarn.scheduler;

import io.hare.core.GpuType;
import io.hare.yarn.GpuDevices;
import java.util.Collection;
import org.apache.hadoop.yarn.api.records.NodeAttribute;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A node's GPU type from its node attributes: the attribute named by
 * {@code yarn.scheduler.hare.gpu-type.attribute}, with prefix {@code rm.yarn.io} (centralized,
 * set by an admin) or {@code nm.yarn.io} (distributed, from the NodeManager). When both are set
 * the centralized one wins, so an admin can correct what a node reports. A node without the
 * attribute, or with a value that is not a valid type name, gets the default type (the latter
 * logged). The same precedence gives whether the node's GPUs are isolated per container; a
 * node that does not say, or says neither true nor false (logged), takes the default
 * ({@code yarn.scheduler.hare.gpu-isolation.default}).
 */
final class GpuTypeResolver {

  private static final Logger LOG = LoggerFactory.getLogger(GpuTypeResolver.class);

  private final String attribute;
  private final GpuType defaultType;
  private final boolean isolatedByDefault;

  GpuTypeResolver(String attribute, GpuType defaultType, boolean isolatedByDefault) {
    this.attribute = attribute;
    this.defaultType = defaultType;
    this.isolatedByDefault = isolatedByDefault;
  }

  GpuType resolve(String host, Collection<NodeAttribute> attributes) {
    String value = value(attribute, attributes);
    if (value == null || value.isBlank()) {
      return defaultType;
    }
    try {
      return GpuType.of(value);
    } catch (IllegalArgumentException e) {
      LOG.warn("node {}: attribute {}={} is not a GPU type ({}); using the default type {}", host,
          attribute, value, e.getMessage(), defaultType);
      return defaultType;
    }
  }

  /**
   * Whether the node's GPUs are isolated per container ({@link GpuDevices#ISOLATION_ATTRIBUTE},
   * with the same precedence); the default when the node does not say or says something else
   * (logged).
   */
  boolean isolated(String host, Collection<NodeAttribute> attributes) {
    String value = value(GpuDevices.ISOLATION_ATTRIBUTE, attributes);
    if (value == null) {
      return isolatedByDefault;
    }
    Boolean isolated = GpuDevices.isolation(value);
    if (isolated == null) {
      LOG.warn("node {}: attribute {}={} is neither true nor false; taking its GPUs as {}",
          host, GpuDevices.ISOLATION_ATTRIBUTE, value,
          isolatedByDefault ? "isolated" : "not isolated");
      return isolatedByDefault;
    }
    return isolated;
  }

  /** The value of attribute {@code name}: centralized if set, else distributed, else null. */
  private static String value(String name, Collection<NodeAttribute> attributes) {
    String central = null;
    String distributed = null;
    if (attributes != null) {
      for (NodeAttribute a : attributes) {
        if (!name.equals(a.getAttributeKey().getAttributeName())) {
          continue;
        }
        String prefix = a.getAttributeKey().getAttributePrefix();
        if (NodeAttribute.PREFIX_CENTRALIZED.equals(prefix)) {
          central = a.getAttributeValue();
        } else if (NodeAttribute.PREFIX_DISTRIBUTED.equals(prefix)) {
          distributed = a.getAttributeValue();
        }
      }
    }
    return central != null ? central : distributed;
  }
}
