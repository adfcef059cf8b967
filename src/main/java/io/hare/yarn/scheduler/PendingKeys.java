package io.hare.yarn.scheduler;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Keys that any thread reports (an AM's RPC thread: asks changed, a warm container's next task)
 * and the scheduler thread takes at its next heartbeat: each key at most once per take, in the
 * order first reported. A take costs what it takes, never the most the set once held: a
 * {@link java.util.concurrent.ConcurrentHashMap} keeps the table of its peak size, so copying
 * one that 20,000 applications once filled walked every bucket at every heartbeat after.
 */
final class PendingKeys<K> {

  private Set<K> keys = new LinkedHashSet<>();

  /** Any thread. */
  synchronized void add(K key) {
    keys.add(key);
  }

  /** Any thread; whether {@code key} was pending. */
  synchronized boolean remove(K key) {
    return keys.remove(key);
  }

  synchronized boolean isEmpty() {
    return keys.isEmpty();
  }

  /**
   * The keys reported since the last take, oldest first, now no longer pending; a key reported
   * while the caller works through them is pending again for the next take.
   */
  synchronized List<K> take() {
    if (keys.isEmpty()) {
      return List.of();
    }
    List<K> out = new ArrayList<>(keys);
    keys = new LinkedHashSet<>(); // not clear(): that walks the table at its peak size
    return out;
  }
}
