package io.hare.core;

/**
 * A file or value given by a user is malformed. The message names where (file, line, field),
 * what is wrong and what is allowed, and is meant to be shown to the user as is.
 */
public class BadInputException extends Exception {

  private static final long serialVersionUID = 1L;

  public BadInputException(String message) {
    super(message);
  }

  public BadInputException(String message, Throwable cause) {
    super(message, cause);
  }

  /** {@code FILE:LINE: field 'F': PROBLEM}. */
  public static BadInputException at(String file, long line, String field, String problem) {
    return new BadInputException(file + ":" + line + ": field '" + field + "': " + problem);
  }
}
