package io.hare.yarn.scheduler;

import io.hare.yarn.GpuDevices;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.function.Function;
import java.util.function.Predicate;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.ResourceRequest;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainer;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerAppUtils;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.common.PendingAsk;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.common.fica.FiCaSchedulerNode;
import org.apache.hadoop.yarn.server.scheduler.SchedulerRequestKey;
import org.apache.hadoop.yarn.util.resource.Resources;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Containers of more than one GPU, asked by ApplicationMasters that do not speak the Hare
 * protocol (a distributedshell with {@code yarn.io/gpu=2}, a framework's multi-GPU worker). The
 * policy schedules one-GPU tasks; these containers are served beside it, first come first
 * served, the way YARN's own schedulers serve them: all the GPUs of one node at once.
 *
 * <p>Before each policy pass, the applications with such asks are visited in application order.
 * An ask that fits on a node with enough free GPUs (and memory and vcores) is placed there at
 * once. Otherwise its application <em>reserves</em> one node, as CapacityScheduler reserves a
 * node for a container too large for it now: the node with the most free GPUs among those large
 * enough. The reserved node's free GPUs, and each of its GPUs as it frees, are withheld from the
 * policy (taken in the {@link GpuInventory} for the application, so the policy plans around
 * them) until there are enough, and the container is placed on them. Without the reservation a
 * stream of one-GPU tasks would take each GPU as it frees and the large container would wait
 * forever. An application holds at most one reservation and a node at most one; a reservation
 * ends when its ask is placed or withdrawn, its attempt stops, its node leaves or falls silent
 * (its GPUs then retire), or its node is blacklisted by the AM.
 *
 * <p>The container's GPUs are taken in the inventory until it ends. On a node whose GPUs YARN
 * does not isolate it carries a device tag per GPU ({@link GpuDevices}); where YARN isolates, the
 * NodeManager assigns the devices.
 *
 * <p>Not thread-safe apart from {@link #asked} and {@link #flag}: the scheduler's lock.
 */
final class MultiGpuContainers {

  private static final Logger LOG = LoggerFactory.getLogger(MultiGpuContainers.class);

  /** A node held for an application's container of {@code gpus} GPUs. */
  private static final class Reservation {
    final ApplicationId app;
    final NodeId node;
    final long gpus;
    final List<YarnGpu> held = new ArrayList<>();

    Reservation(ApplicationId app, NodeId node, long gpus) {
      this.app = app;
      this.node = node;
      this.gpus = gpus;
    }
  }

  private final GpuInventory inventory;
  private final ContainerPlacer placer;
  private final Runnable gpusChanged;
  private final ConcurrentSkipListSet<ApplicationId> flagged = new ConcurrentSkipListSet<>();
  private final Map<ApplicationId, Reservation> reservations = new LinkedHashMap<>();
  private final Map<ContainerId, List<YarnGpu>> running = new HashMap<>();

  /** @param gpusChanged told when GPUs are taken or given back (the policy plans again) */
  MultiGpuContainers(GpuInventory inventory, ContainerPlacer placer, Runnable gpusChanged) {
    this.inventory = inventory;
    this.placer = placer;
    this.gpusChanged = gpusChanged;
  }

  /** Whether a container of {@code size} is one of these: more than one GPU. */
  static boolean isMultiGpu(Resource size) {
    return Gpus.of(size) > 1;
  }

  /** An allocate call updated the application's asks with {@code asks}. Any thread. */
  void asked(ApplicationId app, List<ResourceRequest> asks) {
    for (ResourceRequest r : asks) {
      if (isMultiGpu(r.getCapability())) {
        flagged.add(app);
        return;
      }
    }
  }

  /** The application may have multi-GPU asks now (an ask given back by YARN). Any thread. */
  void flag(ApplicationId app) {
    flagged.add(app);
  }

  /** GPUs withheld from the policy by reservations now. */
  int reservedGpus() {
    int n = 0;
    for (Reservation r : reservations.values()) {
      n += r.held.size();
    }
    return n;
  }

  /** Multi-GPU containers running now. */
  int runningCount() {
    return running.size();
  }

  /**
   * Places what can be placed and keeps reservations up to date; cheap when no application
   * has a multi-GPU ask. Nodes that are {@code silent} ({@link NodeLiveness}) get nothing.
   *
   * @return containers placed
   */
  List<RMContainer> place(Function<ApplicationId, HareAppAttempt> attempts,
      Function<NodeId, FiCaSchedulerNode> nodes, Predicate<NodeId> silent) {
    if (flagged.isEmpty() && reservations.isEmpty()) {
      return List.of();
    }
    List<RMContainer> out = new ArrayList<>();
    Set<ApplicationId> visit = new TreeSet<>(flagged); // application order: FIFO
    visit.addAll(reservations.keySet());
    for (ApplicationId id : visit) {
      flagged.remove(id);
      HareAppAttempt a = attempts.apply(id);
      SchedulerRequestKey key = a == null || a.isStopped() ? null : firstAsk(a);
      if (key == null) {
        cancel(id, "no multi-GPU ask left");
        continue;
      }
      RMContainer c = serve(a, key, n -> silent.test(n) ? null : nodes.apply(n));
      if (c != null) {
        out.add(c);
      }
      if (firstAsk(a) != null) {
        flagged.add(id);
      }
    }
    return out;
  }

  /** One step for the first multi-GPU ask of {@code a}: placed, reserved, or waiting on. */
  private RMContainer serve(HareAppAttempt a, SchedulerRequestKey key,
      Function<NodeId, FiCaSchedulerNode> nodes) {
    ApplicationId id = a.getApplicationId();
    Resource size = a.pending(key).getPerAllocationResource();
    long gpus = Gpus.of(size);
    Reservation r = reservations.get(id);
    if (r != null) {
      FiCaSchedulerNode node = nodes.apply(r.node);
      if (r.gpus != gpus || node == null || retired(r)
          || SchedulerAppUtils.isPlaceBlacklisted(a, node, LOG)) {
        cancel(id, "its ask or node changed");
        r = null;
      } else {
        topUp(r);
        return r.held.size() < gpus ? null : placeOn(a, key, node, r.held, r);
      }
    }
    Map<NodeId, List<YarnGpu>> free = freeByNode();
    NodeId best = null;
    for (Map.Entry<NodeId, List<YarnGpu>> e : free.entrySet()) {
      FiCaSchedulerNode node = nodes.apply(e.getKey());
      if (node == null || reservedNode(e.getKey()) || inventory.on(e.getKey()).size() < gpus
          || !Resources.fitsIn(size, node.getTotalResource())
          || SchedulerAppUtils.isPlaceBlacklisted(a, node, LOG)) {
        continue;
      }
      if (e.getValue().size() >= gpus) {
        RMContainer c = placeOn(a, key, node, e.getValue().subList(0, (int) gpus), null);
        if (c != null) {
          return c;
        }
      }
      if (best == null || e.getValue().size() > free.get(best).size()) {
        best = e.getKey();
      }
    }
    if (best != null) {
      r = new Reservation(id, best, gpus);
      reservations.put(id, r);
      topUp(r);
      LOG.info("{}: a container of {} GPUs waits for node {}; its GPUs are held for it as they"
          + " free ({} held now)", id, gpus, best, r.held.size());
    }
    return null;
  }

  /** The container on {@code gpus} of {@code node}, or null if it does not fit there now. */
  private RMContainer placeOn(HareAppAttempt a, SchedulerRequestKey key, FiCaSchedulerNode node,
      List<YarnGpu> gpus, Reservation r) {
    Set<String> tags = new HashSet<>();
    if (!inventory.isolated(node.getNodeID())) {
      for (YarnGpu g : gpus) {
        tags.add(GpuDevices.tag(g.index()));
      }
    }
    RMContainer c = placer.place(a, key, node, tags);
    if (c == null) {
      return null; // memory or vcores are short now; a reservation keeps its GPUs
    }
    List<YarnGpu> taken = new ArrayList<>(gpus);
    if (r == null) {
      taken.forEach(g -> inventory.start(g, a.getApplicationId().toString()));
      gpusChanged.run();
    } else {
      reservations.remove(r.app);
    }
    running.put(c.getContainerId(), taken);
    LOG.info("{}: container {} of {} GPUs on {}", a.getApplicationId(), c.getContainerId(),
        taken.size(), node.getNodeID());
    return c;
  }

  /** Takes the free GPUs of the reserved node into the reservation, up to its size. */
  private void topUp(Reservation r) {
    for (YarnGpu g : inventory.on(r.node)) {
      if (r.held.size() >= r.gpus) {
        return;
      }
      if (!g.taken()) {
        inventory.start(g, r.app.toString());
        r.held.add(g);
        gpusChanged.run();
      }
    }
  }

  private static boolean retired(Reservation r) {
    for (YarnGpu g : r.held) {
      if (g.retired()) {
        return true;
      }
    }
    return false;
  }

  private boolean reservedNode(NodeId node) {
    for (Reservation r : reservations.values()) {
      if (r.node.equals(node)) {
        return true;
      }
    }
    return false;
  }

  /** Ends the reservation of {@code app}, if any: its GPUs go back to the policy. */
  private void cancel(ApplicationId app, String why) {
    Reservation r = reservations.remove(app);
    if (r != null) {
      r.held.forEach(inventory::release);
      gpusChanged.run();
      LOG.info("{}: reservation of node {} ends ({}); {} GPUs go back", app, r.node, why,
          r.held.size());
    }
  }

  /** The free GPUs by node, nodes in the order their first free GPU is offered. */
  private Map<NodeId, List<YarnGpu>> freeByNode() {
    Map<NodeId, List<YarnGpu>> m = new LinkedHashMap<>();
    for (YarnGpu g : inventory.free()) {
      m.computeIfAbsent(g.nodeId(), n -> new ArrayList<>()).add(g);
    }
    return m;
  }

  /** The first multi-GPU ask of {@code a} with containers outstanding, or null. */
  private static SchedulerRequestKey firstAsk(HareAppAttempt a) {
    for (SchedulerRequestKey key : new ArrayList<>(a.getSchedulerKeys())) {
      PendingAsk ask = a.pending(key);
      if (ask.getCount() > 0 && isMultiGpu(ask.getPerAllocationResource())) {
        return key;
      }
    }
    return null;
  }

  /**
   * A container ended: if it is one of these, its GPUs go back to the policy.
   *
   * @return whether it was one of these
   */
  boolean completed(ContainerId id) {
    List<YarnGpu> gpus = running.remove(id);
    if (gpus == null) {
      return false;
    }
    gpus.forEach(inventory::release);
    gpusChanged.run();
    return true;
  }

  /**
   * After an RM restart: a live multi-GPU container a NodeManager reported running takes free
   * GPUs of its node (those of its device tags first), so the policy does not hand them out.
   *
   * @return whether it was one of these
   */
  boolean recovered(RMContainer c) {
    if (!isMultiGpu(c.getAllocatedResource()) || running.containsKey(c.getContainerId())) {
      return false;
    }
    long want = Gpus.of(c.getAllocatedResource());
    Set<Integer> devices = GpuDevices.all(c.getAllocationTags());
    List<YarnGpu> taken = new ArrayList<>();
    for (boolean tagged : new boolean[] {true, false}) {
      for (YarnGpu g : inventory.on(c.getAllocatedNode())) {
        if (taken.size() < want && !g.taken() && devices.contains(g.index()) == tagged) {
          inventory.start(g, c.getApplicationAttemptId().getApplicationId().toString());
          taken.add(g);
        }
      }
    }
    if (taken.size() < want) {
      LOG.warn("recovered container {} of {} GPUs on {}: only {} free there", c.getContainerId(),
          want, c.getAllocatedNode(), taken.size());
    }
    running.put(c.getContainerId(), taken);
    gpusChanged.run();
    return true;
  }
}
