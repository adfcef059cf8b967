package io.hare.cli;

import io.hare.core.ConfigException;
import io.hare.core.SchedulerKeys;
import io.hare.core.policy.PolicyConfig;
import io.hare.core.queues.QueueShares;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The queues of a set of scheduler settings, read as the ResourceManager reads them, for the
 * commands that run the policy without it ({@code simulate}, the {@code demo}'s prediction).
 */
public final class QueueKeys {

  private QueueKeys() {}

  /**
   * The queues that the queue keys of {@code settings} configure ({@code default} alone without
   * any); other keys are left out.
   *
   * @throws ConfigException listing every problem of the queue keys
   */
  public static QueueShares read(Map<String, String> settings) throws ConfigException {
    Map<String, String> keys = new LinkedHashMap<>();
    settings.forEach((k, v) -> {
      if (k.equals(SchedulerKeys.QUEUES) || k.startsWith(SchedulerKeys.QUEUE_PREFIX)) {
        keys.put(k, v);
      }
    });
    PolicyConfig c = new PolicyConfig(keys, 0);
    QueueShares q = QueueShares.read(c);
    c.check();
    return q;
  }
}
