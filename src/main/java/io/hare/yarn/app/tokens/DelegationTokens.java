package io.hare.yarn.app.tokens;

import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.security.Credentials;
import org.apache.hadoop.security.token.Token;
import org.apache.hadoop.security.token.TokenIdentifier;
import org.apache.hadoop.security.token.delegation.AbstractDelegationTokenIdentifier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the client ({@code JobCredentials}) and the AM's refresher ({@link KeytabTokenSource})
 * both do with delegation tokens: get one per file system, learn when tokens expire, serialize
 * them for a container. Only kinds and services are logged, never a token's secret.
 */
public final class DelegationTokens {

  private static final Logger LOG = LoggerFactory.getLogger(DelegationTokens.class);

  private DelegationTokens() {}

  /**
   * Adds to {@code creds} a delegation token of each of {@code fileSystems} that issues them (a
   * file system already holding one in {@code creds} keeps it), renewable by {@code renewer}.
   *
   * @return the tokens added
   * @throws IOException a file system refused a token; the message names it and the renewer
   */
  public static List<Token<?>> addFileSystemTokens(Configuration conf, String renewer,
      Collection<URI> fileSystems, Credentials creds) throws IOException {
    List<Token<?>> added = new ArrayList<>();
    for (URI uri : new LinkedHashSet<>(fileSystems)) {
      FileSystem fs = FileSystem.get(uri, conf);
      Token<?>[] got;
      try {
        got = fs.addDelegationTokens(renewer, creds);
      } catch (IOException e) {
        throw new IOException("cannot get a delegation token for " + fs.getUri() + " (renewer "
            + renewer + "); is there a Kerberos ticket (klist)? " + e.getMessage(), e);
      }
      for (Token<?> t : got == null ? new Token<?>[0] : got) {
        LOG.info("Delegation token for {}: {} for service {}", fs.getUri(), t.getKind(),
            t.getService());
        added.add(t);
      }
    }
    return added;
  }

  /**
   * The earliest maximum date (end of the maximum lifetime, epoch ms) of the delegation tokens in
   * {@code creds} whose identifiers say it (HDFS's, the RM's); 0 when none does.
   */
  public static long earliestMaxDate(Credentials creds) {
    long earliest = Long.MAX_VALUE;
    for (Token<? extends TokenIdentifier> t : creds.getAllTokens()) {
      long max = maxDate(t);
      if (max > 0) {
        earliest = Math.min(earliest, max);
      }
    }
    return earliest == Long.MAX_VALUE ? 0 : earliest;
  }

  /** The token's maximum date from its identifier, 0 if it has none or cannot be decoded. */
  static long maxDate(Token<? extends TokenIdentifier> t) {
    try {
      TokenIdentifier id = t.decodeIdentifier();
      if (id instanceof AbstractDelegationTokenIdentifier d && d.getMaxDate() > 0) {
        return d.getMaxDate();
      }
    } catch (IOException | RuntimeException e) {
      // a kind without a decoder on this class path: its expiry is unknown
    }
    return 0;
  }

  /**
   * {@code creds} without its tokens of the kinds {@code leftOut} (which it loses), serialized
   * as a {@code ContainerLaunchContext} (or a token file) takes them.
   */
  public static ByteBuffer serialized(Credentials creds, Text... leftOut) throws IOException {
    Set<Text> kinds = Set.of(leftOut);
    creds.getAllTokens().removeIf(t -> kinds.contains(t.getKind())); // a view of the map
    DataOutputBuffer out = new DataOutputBuffer();
    creds.writeTokenStorageToStream(out);
    return ByteBuffer.wrap(out.getData(), 0, out.getLength());
  }

  /** The tokens' kinds and services, for a log line. */
  static String describe(Credentials creds) {
    return creds.getAllTokens().stream().map(t -> t.getKind() + " for " + t.getService())
        .collect(Collectors.joining(", "));
  }
}
