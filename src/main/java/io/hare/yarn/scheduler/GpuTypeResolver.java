package io.hare.yarn.scheduler;

import io.hare.core.GpuType;
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
 * logged).
 */
final class GpuTypeResolver {

  private static final Logger LOG = LoggerFactory.getLogger(GpuTypeResolver.class);

  private final String attribute;
  private final GpuType defaultType;

  GpuTypeResolver(String attribute, GpuType defaultType) {
    this.attribute = attribute;
    this.defaultType = defaultType;
  }

  GpuType resolve(String host, Collection<NodeAttribute> attributes) {
    String central = null;
    String distributed = null;
    if (attributes != null) {
      for (NodeAttribute a : attributes) {
        if (!attribute.equals(a.getAttributeKey().getAttributeName())) {
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
    String value = central != null ? central : distributed;
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
}
