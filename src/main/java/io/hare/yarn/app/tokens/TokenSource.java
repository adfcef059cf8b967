package io.hare.yarn.app.tokens;

import org.apache.hadoop.security.Credentials;

/** Where a {@link KeytabTokenRefresher} gets new delegation tokens ({@link KeytabTokenSource}). */
@FunctionalInterface
public interface TokenSource {

  /**
   * New tokens and when the first of them expires.
   *
   * @param expiresAtMs the earliest expiry of {@code credentials}' tokens (epoch ms);
   *     {@link Long#MAX_VALUE} when none is known
   */
  record Fresh(Credentials credentials, long expiresAtMs) {}

  /**
   * @throws Exception the tokens could not be got (KDC, file system or RM unreachable, keytab
   *     refused); the refresher logs it and tries again later
   */
  Fresh obtain() throws Exception;
}
