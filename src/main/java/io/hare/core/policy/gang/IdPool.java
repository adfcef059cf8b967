package io.hare.core.policy.gang;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * An unordered set of ids with O(1) add, remove and access by position (for random draws). The
 * order depends only on the sequence of changes, so draws are repeatable for a seed.
 */
final class IdPool {

  private final List<String> ids = new ArrayList<>();
  private final Map<String, Integer> pos = new HashMap<>();

  int size() {
    return ids.size();
  }

  String get(int i) {
    return ids.get(i);
  }

  void add(String id) {
    if (pos.putIfAbsent(id, ids.size()) == null) {
      ids.add(id);
    }
  }

  void remove(String id) {
    Integer i = pos.remove(id);
    if (i == null) {
      return;
    }
    String last = ids.remove(ids.size() - 1);
    if (i < ids.size()) {
      ids.set(i, last);
      pos.put(last, i);
    }
  }
}
