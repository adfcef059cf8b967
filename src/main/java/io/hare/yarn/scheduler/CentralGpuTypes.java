package io.hare.yarn.scheduler;

import io.hare.core.GpuType;
import java.io.IOException;
import java.util.Collection;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.hadoop.yarn.api.records.NodeAttribute;
import org.apache.hadoop.yarn.api.records.NodeAttributeType;
import org.apache.hadoop.yarn.nodelabels.NodeAttributesManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Registers the admin's {@link GpuTypeMapping} centrally: each registered host that the mapping
 * matches gets {@code rm.yarn.io/<attribute>=<model>} in the RM's {@link NodeAttributesManager},
 * so {@code yarn nodeattributes -nodetoattributes} shows it, it is persisted like any admin
 * attribute, and it comes back to the scheduler as a {@code NODE_ATTRIBUTES_UPDATE} (which
 * {@link NodeGpus} turns into the node's type; rm.yarn.io wins over nm.yarn.io).
 *
 * <p>A host's other {@code rm.yarn.io} attributes are kept: the manager's replace operation
 * works per prefix, so the host's whole centralized set is written back with only this attribute
 * changed (the manager's add operation would keep an old value). Hosts are registered when
 * their node registers ({@link #nodeAdded}) and all at once on a new mapping ({@link #apply});
 * hosts the previous mapping matched and the new one does not lose the attribute.
 *
 * <p>Called under the scheduler's lock. The manager dispatches its update event asynchronously,
 * so nothing here calls back into the scheduler. A failure of the manager (e.g. the attribute
 * already exists with another type) is logged and leaves that host's attribute as it was.
 */
final class CentralGpuTypes {

  private static final Logger LOG = LoggerFactory.getLogger(CentralGpuTypes.class);

  private final String attribute;
  private GpuTypeMapping mapping = GpuTypeMapping.NONE;

  CentralGpuTypes(String attribute) {
    this.attribute = attribute;
  }

  GpuTypeMapping mapping() {
    return mapping;
  }

  /** A new mapping: registers it for every host in {@code hosts} (the registered nodes'). */
  void apply(GpuTypeMapping next, Collection<String> hosts, NodeAttributesManager manager) {
    GpuTypeMapping before = mapping;
    mapping = next;
    if (manager == null) {
      return;
    }
    Changes changes = new Changes();
    for (String host : new HashSet<>(hosts)) {
      GpuType now = next.modelOf(host);
      if (now != null || before.modelOf(host) != null) {
        change(host, now, manager, changes);
      }
    }
    changes.write(manager);
  }

  /** A node registered: registers its host's model, if the mapping matches it. */
  void nodeAdded(String host, NodeAttributesManager manager) {
    GpuType model = mapping.modelOf(host);
    if (model == null || manager == null) {
      return;
    }
    Changes changes = new Changes();
    change(host, model, manager, changes);
    changes.write(manager);
  }

  /** Records what makes the host's attribute {@code model} (null: none), if anything. */
  private void change(String host, GpuType model, NodeAttributesManager manager,
      Changes changes) {
    Set<NodeAttribute> central = new HashSet<>();
    NodeAttribute current = null;
    for (NodeAttribute a : manager.getAttributesForNode(host).keySet()) {
      if (!NodeAttribute.PREFIX_CENTRALIZED.equals(a.getAttributeKey().getAttributePrefix())) {
        continue;
      }
      if (attribute.equals(a.getAttributeKey().getAttributeName())) {
        current = a;
      } else {
        central.add(a);
      }
    }
    if (model == null) {
      if (current != null) {
        changes.remove.put(host, Set.of(current));
      }
      return;
    }
    if (current != null && model.name().equals(current.getAttributeValue())) {
      return;
    }
    central.add(NodeAttribute.newInstance(NodeAttribute.PREFIX_CENTRALIZED, attribute,
        NodeAttributeType.STRING, model.name()));
    changes.replace.put(host, central);
  }

  /**
   * The manager calls to make, batched so each is one update event and one store write. Its
   * replace skips empty sets, so dropping the attribute is a remove of the current one.
   */
  private final class Changes {
    final Map<String, Set<NodeAttribute>> replace = new TreeMap<>();
    final Map<String, Set<NodeAttribute>> remove = new TreeMap<>();

    void write(NodeAttributesManager manager) {
      try {
        if (!replace.isEmpty()) {
          manager.replaceNodeAttributes(NodeAttribute.PREFIX_CENTRALIZED, replace);
          LOG.info("GPU-type mapping {}: registered {}/{} on {}", mapping.file(),
              NodeAttribute.PREFIX_CENTRALIZED, attribute, replace.keySet());
        }
        if (!remove.isEmpty()) {
          manager.removeNodeAttributes(remove);
          LOG.info("GPU-type mapping {}: removed {}/{} from {} (no longer mapped)",
              mapping.file(), NodeAttribute.PREFIX_CENTRALIZED, attribute, remove.keySet());
        }
      } catch (IOException | RuntimeException e) {
        LOG.warn("GPU-type mapping {}: could not update {}/{} on {} {}: {}", mapping.file(),
            NodeAttribute.PREFIX_CENTRALIZED, attribute, replace.keySet(), remove.keySet(),
            e.toString());
      }
    }
  }
}
