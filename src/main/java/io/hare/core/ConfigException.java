package io.hare.core;

import java.util.List;

/**
 * A configuration is invalid. Carries every problem found, each naming the key, the bad value
 * and what is allowed, so an admin fixes them all in one pass.
 */
public class ConfigException extends Exception {

  private static final long serialVersionUID = 1L;

  private final List<String> problems;

  public ConfigException(List<String> problems) {
    super(format(problems));
    this.problems = List.copyOf(problems);
  }

  public List<String> problems() {
    return problems;
  }

  private static String format(List<String> problems) {
    StringBuilder sb = new StringBuilder("invalid configuration (")
        .append(problems.size()).append(problems.size() == 1 ? " problem" : " problems").append("):");
    for (String p : problems) {
      sb.append(System.lineSeparator()).append("  ").append(p);
    }
    return sb.toString();
  }
}
