package io.hare.yarn.app.tokens;

/**
 * A job's settings for refreshing its AM's delegation tokens from a keytab; each field means
 * what its key in {@code AppKeys} says ({@code yarn.app.hare.am.principal}, {@code .am.keytab},
 * {@code .am.token-refresh.*}).
 *
 * @param principal the Kerberos principal the keytab logs in as; empty: no refresh
 * @param keytab the keytab's local path: on the submitting machine in the job spec, the link name
 *     {@link #KEYTAB_LINK} (in the AM's working directory) in the staged spec
 * @param ratio a refresh comes at this share of the time to the new tokens' earliest expiry
 * @param minIntervalMs the least time between two refreshes
 * @param retryIntervalMs the wait after a failed refresh, doubled after each further failure
 */
public record TokenRefreshSpec(String principal, String keytab, double ratio,
    long minIntervalMs, long retryIntervalMs) {

  /** The keytab's name in the job's work directory and in the AM's container. */
  public static final String KEYTAB_LINK = "hare-am.keytab";

  /** Whether the job gave a principal and keytab. */
  public boolean enabled() {
    return !principal.isEmpty();
  }

  /** The same settings with the keytab at {@code path}. */
  public TokenRefreshSpec withKeytab(String path) {
    return new TokenRefreshSpec(principal, path, ratio, minIntervalMs, retryIntervalMs);
  }
}
