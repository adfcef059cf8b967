package io.hare.example;

import java.util.Map;

/**
 * The process environment as the example job sees it: the port tests replace with a map, so a
 * task or sync step runs in-process with any environment.
 */
@FunctionalInterface
public interface Env {

  /** The real environment of this process. */
  Env SYSTEM = System::getenv;

  /** The value of {@code name}, or null when it is not set. */
  String get(String name);

  /** An environment holding exactly {@code vars}. */
  static Env of(Map<String, String> vars) {
    return vars::get;
  }
}
