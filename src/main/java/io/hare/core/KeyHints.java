package io.hare.core;

import java.util.Collection;
import java.util.Optional;

/**
 * "Did you mean": the known name (a key, a policy) closest to a mistyped one by edit distance.
 */
public final class KeyHints {

  private KeyHints() {}

  /**
   * The key of {@code known} nearest to {@code typed} (Levenshtein distance; ties: the first in
   * iteration order), if it is near enough to be a plausible typo: at most a third of the typed
   * key's length, and at least 3 edits allowed.
   */
  public static Optional<String> closest(String typed, Collection<String> known) {
    return closest(typed, known, Math.max(3, typed.length() / 3));
  }

  /**
   * The name of {@code known} nearest to {@code typed}, if at most {@code allowed} edits away;
   * short names (policies, options) need a tighter bound than keys: "nope" is 3 from "hare".
   */
  public static Optional<String> closest(String typed, Collection<String> known, int allowed) {
    String best = null;
    int bestDist = Integer.MAX_VALUE;
    for (String k : known) {
      int d = distance(typed, k);
      if (d < bestDist) {
        best = k;
        bestDist = d;
      }
    }
    return best != null && bestDist <= allowed ? Optional.of(best) : Optional.empty();
  }

  /** Levenshtein distance with two rows. */
  public static int distance(String a, String b) {
    int[] prev = new int[b.length() + 1];
    int[] cur = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      prev[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      cur[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int subst = prev[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
        cur[j] = Math.min(subst, Math.min(prev[j] + 1, cur[j - 1] + 1));
      }
      int[] t = prev;
      prev = cur;
      cur = t;
    }
    return prev[b.length()];
  }
}
