package io.hare.demo;

import io.hare.core.BadInputException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The faults {@code hare demo --inject} knows, by their command-line names. {@link FaultPlan}
 * injects them from outside the scheduler and the ApplicationMaster.
 */
public enum Fault {
  RM_RESTART("rm-restart"),
  RM_FAILOVER("rm-failover"),
  AM_FAILURE("am-failure"),
  NODE_LOSS("node-loss"),
  TASK_FAILURE("task-failure");

  private final String label;

  Fault(String label) {
    this.label = label;
  }

  /** Why {@code faults} cannot be injected into one run, or null if they can. */
  static String clash(Set<Fault> faults) {
    return faults.contains(RM_RESTART) && faults.contains(RM_FAILOVER)
        ? "'rm-restart' and 'rm-failover' do not go together (with a standby RM, a restart of"
            + " the active one is a failover)" : null;
  }

  /** The command-line and JSON name. */
  public String label() {
    return label;
  }

  /** Every name, comma-separated, in this order. */
  public static String names() {
    List<String> n = new ArrayList<>();
    for (Fault f : values()) {
      n.add(f.label);
    }
    return String.join(",", n);
  }

  /**
   * The faults of a comma-separated list of names (case and spaces ignored, each at most once).
   *
   * @throws BadInputException naming every unknown or repeated name and the known ones
   */
  public static Set<Fault> parse(String list) throws BadInputException {
    Set<Fault> out = EnumSet.noneOf(Fault.class);
    List<String> problems = new ArrayList<>();
    for (String item : list.split(",", -1)) {
      String name = item.strip().toLowerCase(Locale.ROOT);
      Fault f = null;
      for (Fault k : values()) {
        if (k.label.equals(name)) {
          f = k;
        }
      }
      if (f == null) {
        problems.add(name.isEmpty() ? "an empty name" : "unknown fault '" + item.strip() + "'");
      } else if (!out.add(f)) {
        problems.add("'" + name + "' is given twice");
      }
    }
    String clash = clash(out);
    if (clash != null) {
      problems.add(clash);
    }
    if (!problems.isEmpty()) {
      throw new BadInputException("--inject: " + String.join("; ", problems) + "; known: "
          + names().replace(",", ", "));
    }
    return out;
  }
}
