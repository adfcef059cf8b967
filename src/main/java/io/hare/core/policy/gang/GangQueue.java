package io.hare.core.policy.gang;

import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.PriorityQueue;
import java.util.TreeMap;

/**
 * The jobs of a gang policy that hold no lease, in the policy's priority order, kept in buckets
 * of jobs that fit or do not fit together: same width k and same model (the task times, hence
 * the types a job can use, are per model). A {@link Scan} visits all jobs in priority order and
 * can drop the rest of a bucket once one of its jobs did not fit: during a pass GPUs only get
 * taken, so the others will not fit either. A pass then costs O((placed + buckets) log buckets)
 * instead of a visit to every waiting job. Changes cost O(log n).
 *
 * @param <K> the policy's sort key; keys must be distinct (end them with the job id)
 */
final class GangQueue<K> {

  private record Bucket(int width, String model) {}

  private final Comparator<K> comparator;
  private final Map<Bucket, TreeMap<K, String>> buckets = new LinkedHashMap<>();
  private final Map<String, K> keys = new HashMap<>();
  private final Map<String, Bucket> bucketOf = new HashMap<>();

  GangQueue(Comparator<K> comparator) {
    this.comparator = comparator;
  }

  void add(String jobId, K key, int width, String model) {
    remove(jobId);
    Bucket b = new Bucket(width, model);
    if (buckets.computeIfAbsent(b, x -> new TreeMap<>(comparator)).put(key, jobId) != null) {
      throw new IllegalStateException("duplicate queue key " + key);
    }
    keys.put(jobId, key);
    bucketOf.put(jobId, b);
  }

  boolean remove(String jobId) {
    K key = keys.remove(jobId);
    if (key == null) {
      return false;
    }
    Bucket b = bucketOf.remove(jobId);
    TreeMap<K, String> m = buckets.get(b);
    m.remove(key);
    if (m.isEmpty()) {
      buckets.remove(b);
    }
    return true;
  }

  boolean contains(String jobId) {
    return keys.containsKey(jobId);
  }

  K key(String jobId) {
    return keys.get(jobId);
  }

  int size() {
    return keys.size();
  }

  /** A visit in priority order; do not change the queue until it is over. */
  Scan scan() {
    return new Scan();
  }

  /** Job ids in priority order, merged across buckets. */
  final class Scan implements Iterator<String> {
    private final PriorityQueue<Cursor> heads =
        new PriorityQueue<>((a, b) -> comparator.compare(a.key, b.key));
    private Cursor last;
    private boolean dropLast;

    private Scan() {
      for (TreeMap<K, String> m : buckets.values()) {
        Cursor c = new Cursor(m.entrySet().iterator());
        if (c.advance()) {
          heads.add(c);
        }
      }
    }

    private void settle() {
      if (last != null && !dropLast && last.advance()) {
        heads.add(last);
      }
      last = null;
      dropLast = false;
    }

    @Override
    public boolean hasNext() {
      settle();
      return !heads.isEmpty();
    }

    @Override
    public String next() {
      settle();
      if (heads.isEmpty()) {
        throw new NoSuchElementException();
      }
      last = heads.poll();
      return last.id;
    }

    /** Skips the rest of the bucket of the job returned last: it did not fit, nor will they. */
    void dropBucketOfLast() {
      dropLast = true;
    }
  }

  private final class Cursor {
    private final Iterator<Map.Entry<K, String>> it;
    private K key;
    private String id;

    Cursor(Iterator<Map.Entry<K, String>> it) {
      this.it = it;
    }

    boolean advance() {
      if (!it.hasNext()) {
        return false;
      }
      Map.Entry<K, String> e = it.next();
      key = e.getKey();
      id = e.getValue();
      return true;
    }
  }
}
