package io.hare.cli;

import io.hare.core.BadInputException;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.exceptions.ApplicationNotFoundException;

/** Application ids from the command line, and the message for an unknown one. */
final class AppIds {

  private AppIds() {}

  static ApplicationId parse(String s) throws BadInputException {
    try {
      return ApplicationId.fromString(s.trim());
    } catch (IllegalArgumentException e) {
      throw new BadInputException("'" + s + "' is not an application id; expected"
          + " application_CLUSTERTIMESTAMP_NUMBER, e.g. application_1700000000000_0001");
    }
  }

  static BadInputException unknown(ApplicationId id, ApplicationNotFoundException e) {
    return new BadInputException("the ResourceManager knows no application " + id
        + " (finished long ago, or another cluster?)", e);
  }
}
