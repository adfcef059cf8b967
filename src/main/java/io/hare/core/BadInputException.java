package io.hare.core;

import java.util.List;

/**
 * A file or value given by a user is malformed. The message names where (file, line, field),
 * what is wrong and what is allowed, and is meant to be shown to the user as is.
 */
public class BadInputException extends Exception {

  private static final long serialVersionUID = 1L;

  private final List<String> problems;

  public BadInputException(String message) {
    super(message);
    this.problems = List.of(message);
  }

  public BadInputException(String message, Throwable cause) {
    super(message, cause);
    this.problems = List.of(message);
  }

  /** Several problems found at once; the message lists them, one a line. */
  public BadInputException(List<String> problems) {
    super(String.join("\n", problems));
    this.problems = List.copyOf(problems);
  }

  /** Each problem on its own (one, unless made from several). */
  public List<String> problems() {
    return problems;
  }

  /** {@code FILE:LINE: field 'F': PROBLEM}. */
  public static BadInputException at(String file, long line, String field, String problem) {
    return new BadInputException(file + ":" + line + ": field '" + field + "': " + problem);
  }
}
