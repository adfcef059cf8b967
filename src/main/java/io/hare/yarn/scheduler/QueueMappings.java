package io.hare.yarn.scheduler;

import io.hare.core.SchedulerKeys;
import io.hare.core.policy.PolicyConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * User and group to queue mappings in CapacityScheduler's {@code queue-mappings} syntax, from
 * {@code yarn.scheduler.hare.queue-mappings}: comma-separated rules, the first that matches wins,
 * applied to applications submitted to {@code default} (or naming no queue), as CapacityScheduler
 * does without its override switch. A rule is {@code u:USER:QUEUE}, {@code g:GROUP:QUEUE},
 * {@code u:%user:QUEUE} (every user), {@code u:%user:%user} (the queue named as the user) or
 * {@code u:%user:%primary_group} (the queue named as the user's first group). A rule whose named
 * queue is not configured is a configuration error; a {@code %user} or {@code %primary_group}
 * queue that does not exist skips the rule. Immutable.
 */
final class QueueMappings {

  static final String USER = "%user";
  static final String PRIMARY_GROUP = "%primary_group";

  record Rule(boolean group, String who, String queue) {}

  private final List<Rule> rules;

  QueueMappings(List<Rule> rules) {
    this.rules = List.copyOf(rules);
  }

  static final QueueMappings NONE = new QueueMappings(List.of());

  List<Rule> rules() {
    return rules;
  }

  /** Reads and checks the rules against the configured {@code queues}; problems go to {@code t}. */
  static QueueMappings read(PolicyConfig t, Set<String> queues) {
    String key = SchedulerKeys.QUEUE_MAPPINGS;
    String value = t.getString(key, SchedulerKeys.DEFAULT_QUEUE_MAPPINGS);
    List<Rule> out = new ArrayList<>();
    if (value.isBlank()) {
      return NONE;
    }
    for (String raw : value.split(",")) {
      String r = raw.strip();
      if (r.isEmpty()) {
        continue;
      }
      String[] p = r.split(":", -1);
      if (p.length != 3 || !(p[0].equals("u") || p[0].equals("g")) || p[1].isBlank()
          || p[2].isBlank()) {
        t.addProblem(key + ": rule '" + r + "' must be u:USER:QUEUE or g:GROUP:QUEUE (USER may be"
            + " %user; QUEUE may be %user or %primary_group with u:%user)");
        continue;
      }
      boolean group = p[0].equals("g");
      String who = p[1].strip();
      String queue = p[2].strip();
      boolean dynamic = queue.equals(USER) || queue.equals(PRIMARY_GROUP);
      if (dynamic && (group || !who.equals(USER))) {
        t.addProblem(key + ": rule '" + r + "': a queue of " + queue + " needs u:%user as its"
            + " first two fields");
        continue;
      }
      if (group && who.equals(USER)) {
        t.addProblem(key + ": rule '" + r + "': %user names users; write u:%user:QUEUE");
        continue;
      }
      if (!dynamic && !queues.contains(queue)) {
        t.addProblem(key + ": rule '" + r + "' names queue '" + queue + "', which is not in "
            + SchedulerKeys.QUEUES + " " + queues);
        continue;
      }
      out.add(new Rule(group, who, queue));
    }
    return new QueueMappings(out);
  }

  /**
   * The queue the first matching rule gives {@code user}, if any; {@code groups} is asked only
   * when a group rule or {@code %primary_group} needs it.
   */
  Optional<String> map(String user, Function<String, List<String>> groups, Set<String> queues) {
    List<String> g = null;
    for (Rule rule : rules) {
      if (rule.group()) {
        g = g == null ? groups.apply(user) : g;
        if (!g.contains(rule.who())) {
          continue;
        }
      } else if (!rule.who().equals(USER) && !rule.who().equals(user)) {
        continue;
      }
      String q = rule.queue();
      if (q.equals(USER)) {
        q = user;
      } else if (q.equals(PRIMARY_GROUP)) {
        g = g == null ? groups.apply(user) : g;
        q = g.isEmpty() ? null : g.get(0);
      }
      if (q != null && queues.contains(q)) {
        return Optional.of(q);
      }
    }
    return Optional.empty();
  }
}
