package io.hare.yarn.app;

import java.io.IOException;
import java.util.AbstractMap.SimpleEntry;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.api.ApplicationMasterProtocol;
import org.apache.hadoop.yarn.api.protocolrecords.AllocateResponse;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.ContainerUpdateType;
import org.apache.hadoop.yarn.api.records.FinalApplicationStatus;
import org.apache.hadoop.yarn.api.records.UpdateContainerRequest;
import org.apache.hadoop.yarn.client.api.AMRMClient.ContainerRequest;
import org.apache.hadoop.yarn.client.api.async.AMRMClientAsync;
import org.apache.hadoop.yarn.client.api.async.impl.AMRMClientAsyncImpl;
import org.apache.hadoop.yarn.client.api.impl.AMRMClientImpl;
import org.apache.hadoop.yarn.exceptions.YarnException;
import org.apache.hadoop.yarn.util.resource.Resources;

/**
 * The ApplicationMaster's AMRMClient, whose heartbeat can be hurried. {@code AMRMClientAsync}
 * sleeps its whole interval between two allocate calls and cannot be woken, so a report the
 * scheduler should see at once (a container parked: its GPU idles until the scheduler hears of
 * it) would wait up to an interval. So the async client runs with a 1 ms interval around this
 * client, which waits the real interval before each allocate call but the first, or less once
 * {@link #hurry} is called or the interval is shortened.
 *
 * <p>Container updates are the Hare AM's task boundaries, and the scheduler counts each one
 * (a warm container's next task, a parking). {@code AMRMClientImpl} keeps one unsent update per
 * container, so a second boundary of the same container before the next call would replace the
 * first and the scheduler would count a task too few. Such an update is held back for a later
 * call, which is hurried.
 *
 * <p>An allocate call the ResourceManager fails while it goes down for a restart is tried again
 * ({@link RmRetries}) rather than ending the ApplicationMaster.
 *
 * <p>Thread-safe: the async client's heartbeat thread calls {@link #allocate}; any thread may
 * hurry or change the interval.
 */
final class HurriableAmrmClient extends AMRMClientImpl<ContainerRequest> {

  private final Object lock = new Object();
  private volatile long intervalMs;
  private boolean hurried;
  private boolean sentOne;
  private volatile RmRetries retries = RmRetries.from(new Configuration(false));
  /** Updates held back behind an unsent one of the same container, oldest first; this monitor. */
  private final Map<ContainerId, ArrayDeque<SimpleEntry<Container, UpdateContainerRequest>>>
      held = new LinkedHashMap<>();
  /** {@link #updatesSent} futures of containers with updates still to send; this monitor. */
  private final Map<ContainerId, CompletableFuture<Void>> sentWaits = new HashMap<>();

  HurriableAmrmClient(long intervalMs) {
    this.intervalMs = intervalMs;
  }

  /** A client that talks to {@code rm} (normally made when the client starts). */
  HurriableAmrmClient(long intervalMs, ApplicationMasterProtocol rm) {
    this(intervalMs);
    this.rmClient = rm;
  }

  /**
   * The async client around this one: its heartbeat interval is this client's, and it hurries
   * its last heartbeat when unregistering (which waits for a heartbeat in progress).
   */
  AMRMClientAsync<ContainerRequest> async(AMRMClientAsync.AbstractCallbackHandler handler) {
    return new AMRMClientAsyncImpl<>(this, 1, handler) {
      @Override
      public void setHeartbeatInterval(int interval) {
        setIntervalMs(interval);
      }

      @Override
      public void unregisterApplicationMaster(FinalApplicationStatus status, String message,
          String trackingUrl) throws YarnException, IOException {
        hurry();
        super.unregisterApplicationMaster(status, message, trackingUrl);
      }
    };
  }

  /** The time between two heartbeats from now on, the one being waited for included. */
  void setIntervalMs(long ms) {
    synchronized (lock) {
      intervalMs = ms;
      lock.notifyAll();
    }
  }

  /** Sends the next heartbeat now (or, if one is in flight, right after it). */
  void hurry() {
    synchronized (lock) {
      hurried = true;
      lock.notifyAll();
    }
  }

  @Override
  protected void serviceInit(Configuration conf) throws Exception {
    retries = RmRetries.from(conf);
    super.serviceInit(conf);
  }

  @Override
  public AllocateResponse allocate(float progressIndicator) throws YarnException, IOException {
    awaitTurn();
    AllocateResponse r = retries.call("the allocate call", () -> super.allocate(progressIndicator));
    afterCall();
    return r;
  }

  @Override
  public synchronized void requestContainerUpdate(Container container,
      UpdateContainerRequest update) {
    ContainerId id = container.getId();
    if (change.containsKey(id) || held.containsKey(id)) {
      held.computeIfAbsent(id, x -> new ArrayDeque<>()).add(new SimpleEntry<>(container, update));
      hurry();
      return;
    }
    super.requestContainerUpdate(container, update);
  }

  /**
   * After a call: the task boundaries it sent are done with, held updates move up
   * ({@link #releaseHeld}), and {@link #updatesSent} completes for each container with nothing
   * left to send.
   */
  void afterCall() {
    List<CompletableFuture<Void>> sent = new ArrayList<>();
    synchronized (this) {
      releaseHeld();
      for (Iterator<Map.Entry<ContainerId, CompletableFuture<Void>>> it =
          sentWaits.entrySet().iterator(); it.hasNext(); ) {
        Map.Entry<ContainerId, CompletableFuture<Void>> e = it.next();
        if (!unsent(e.getKey())) {
          sent.add(e.getValue());
          it.remove();
        }
      }
    }
    sent.forEach(f -> f.complete(null)); // outside the lock: a waiter may act at once
  }

  /**
   * The next held update of each container whose last one was sent goes with the next call,
   * which is hurried while any are held.
   */
  private void releaseHeld() {
    // a same-size decrease ("the next task started") is never answered: kept as pending, it
    // would be sent again after a ResourceManager restart and counted as a task again
    pendingChange.entrySet().removeIf(e -> !change.containsKey(e.getKey())
        && sameSize(e.getValue().getKey(), e.getValue().getValue()));
    if (held.isEmpty()) {
      return;
    }
    for (Iterator<Map.Entry<ContainerId, ArrayDeque<SimpleEntry<Container,
        UpdateContainerRequest>>>> it = held.entrySet().iterator(); it.hasNext(); ) {
      Map.Entry<ContainerId, ArrayDeque<SimpleEntry<Container, UpdateContainerRequest>>> e =
          it.next();
      if (change.containsKey(e.getKey())) {
        continue; // the call failed before it sent the last one: it goes with the next call
      }
      SimpleEntry<Container, UpdateContainerRequest> next = e.getValue().poll();
      super.requestContainerUpdate(next.getKey(), next.getValue());
      if (e.getValue().isEmpty()) {
        it.remove();
      }
    }
    hurry();
  }

  private static boolean sameSize(Container c, UpdateContainerRequest u) {
    return u.getContainerUpdateType() == ContainerUpdateType.DECREASE_RESOURCE
        && u.getCapability() != null && Resources.equals(u.getCapability(), c.getResource());
  }

  /**
   * Completes once every update of container {@code id} asked for so far has gone out with an
   * allocate call that returned, so the scheduler has counted it: at once when none waits, else
   * after a hurried call (two, when one was held back). The AM lets a warm container's runner
   * exit only then: YARN refuses an update of a container whose end the NodeManager has
   * reported, and the task boundary it carried would never be counted.
   */
  CompletableFuture<Void> updatesSent(ContainerId id) {
    synchronized (this) {
      if (unsent(id)) {
        hurry();
        return sentWaits.computeIfAbsent(id, x -> new CompletableFuture<>());
      }
    }
    return CompletableFuture.completedFuture(null);
  }

  private boolean unsent(ContainerId id) {
    return change.containsKey(id) || held.containsKey(id);
  }

  /** Whether an update of {@code id} was sent and waits for the ResourceManager's answer. */
  synchronized boolean awaitsAnswer(ContainerId id) {
    return pendingChange.containsKey(id) && !change.containsKey(id);
  }

  /** The update of {@code id} that the next call sends, if any. */
  synchronized UpdateContainerRequest unsentUpdate(ContainerId id) {
    SimpleEntry<Container, UpdateContainerRequest> e = change.get(id);
    return e == null ? null : e.getValue();
  }

  /** Waits for this heartbeat's turn: none for the first, else the interval or a hurry. */
  void awaitTurn() {
    long start = System.nanoTime();
    synchronized (lock) {
      try {
        while (sentOne && !hurried) {
          long left = intervalMs - (System.nanoTime() - start) / 1_000_000;
          if (left <= 0) {
            break;
          }
          lock.wait(left);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt(); // the client is stopping: go on and let it end
      }
      hurried = false;
      sentOne = true;
    }
  }
}
