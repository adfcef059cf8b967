package io.hare.yarn.app;

import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.security.Credentials;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.token.Token;
import org.apache.hadoop.security.token.TokenIdentifier;
import org.apache.hadoop.yarn.client.ClientRMProxy;
import org.apache.hadoop.yarn.client.util.YarnClientUtils;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.exceptions.YarnException;
import org.apache.hadoop.yarn.security.AMRMTokenIdentifier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The credentials a job's AM container starts with. On a secure (Kerberos) cluster nothing in
 * a container can authenticate to HDFS by itself: the NodeManager localizes the AM's files, and
 * the AM and its tasks read and write the work directory, with the submitting user's delegation
 * tokens. So the client gets one for each file system the job uses (the staging directory's,
 * those of files and archives named by URI, and {@link AppKeys#JOB_FILE_SYSTEMS}) with the
 * ResourceManager as renewer: the RM renews them while the job runs and cancels them when it
 * ends. The AM also gets one for the ResourceManager's client protocol, renewed the same way:
 * it reads the GPU type of each container's node from the RM's node attributes, and nothing in
 * a container has a Kerberos ticket. Tokens the user already holds (a workflow launcher's, read
 * from {@code HADOOP_TOKEN_FILE_LOCATION}) go along, but never an AM's AMRM token. The AM hands
 * its file system tokens on to its task containers, not the RM's.
 *
 * <p>Without security there are no tokens to get and the AM container carries none, as
 * DistributedShell's does. Only the tokens' kinds and services are logged, never their secrets.
 */
public final class JobCredentials {

  private static final Logger LOG = LoggerFactory.getLogger(JobCredentials.class);

  private final Configuration conf;
  private final boolean secure;
  private final Credentials held;

  /** The current user's: secure when Hadoop's security is Kerberos; its tokens held. */
  public static JobCredentials ofCurrentUser(Configuration conf) throws IOException {
    return new JobCredentials(conf, UserGroupInformation.isSecurityEnabled(),
        UserGroupInformation.getCurrentUser().getCredentials());
  }

  /**
   * @param secure whether the cluster authenticates with Kerberos, so tokens are needed
   * @param held tokens the user holds already (a copy is taken, the argument is not changed)
   */
  public JobCredentials(Configuration conf, boolean secure, Credentials held) {
    this.conf = conf;
    this.secure = secure;
    this.held = new Credentials(held);
  }

  /**
   * The AM container's tokens for a job on {@code fileSystems}, serialized as a
   * {@code ContainerLaunchContext} takes them; null when the cluster is not secure.
   *
   * @param rm the ResourceManager, for its own token
   * @throws IOException the RM's principal ({@code yarn.resourcemanager.principal}) is not in
   *     the client's configuration, or a file system refused a token (the cause says why: no
   *     Kerberos ticket, most often)
   * @throws YarnException the RM refused its token
   */
  public ByteBuffer forAm(YarnApps rm, Collection<URI> fileSystems)
      throws IOException, YarnException {
    if (!secure) {
      return null;
    }
    String renewer = YarnClientUtils.getRmPrincipal(conf);
    if (renewer == null || renewer.isEmpty()) {
      throw new IOException(YarnConfiguration.RM_PRINCIPAL + " is not set in the client's"
          + " configuration: on a secure cluster the ResourceManager renews a job's delegation"
          + " tokens, so the client must name its principal (copy the cluster's yarn-site.xml)");
    }
    Credentials creds = new Credentials(held);
    Set<URI> distinct = new LinkedHashSet<>(fileSystems);
    for (URI uri : distinct) {
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
      }
    }
    // one held already (a launcher's) serves; a second would live on in the RM, never cancelled
    if (creds.getToken(ClientRMProxy.getRMDelegationTokenService(conf)) == null) {
      Token<? extends TokenIdentifier> rmToken = rm.rmDelegationToken(renewer);
      creds.addToken(rmToken.getService(), rmToken);
      LOG.info("Delegation token for the ResourceManager: {} for service {}", rmToken.getKind(),
          rmToken.getService());
    }
    return serialized(creds, AMRMTokenIdentifier.KIND_NAME);
  }

  /**
   * {@code creds} without its tokens of the kinds {@code leftOut} (which it loses), serialized
   * as a {@code ContainerLaunchContext} takes them.
   */
  static ByteBuffer serialized(Credentials creds, Text... leftOut) throws IOException {
    Set<Text> kinds = Set.of(leftOut);
    creds.getAllTokens().removeIf(t -> kinds.contains(t.getKind())); // a view of the map
    DataOutputBuffer out = new DataOutputBuffer();
    creds.writeTokenStorageToStream(out);
    return ByteBuffer.wrap(out.getData(), 0, out.getLength());
  }
}
