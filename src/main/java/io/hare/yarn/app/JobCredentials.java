package io.hare.yarn.app;

import io.hare.core.BadInputException;
import io.hare.yarn.app.tokens.DelegationTokens;
import io.hare.yarn.app.tokens.TokenRefreshSpec;
import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
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
  private final KeytabLogin login;

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
    this(conf, secure, held, (principal, keytab) ->
        UserGroupInformation.loginUserFromKeytabAndReturnUGI(principal, keytab));
  }

  /** @param login logs in from a keytab, for {@link #checkKeytab} */
  public JobCredentials(Configuration conf, boolean secure, Credentials held, KeytabLogin login) {
    this.conf = conf;
    this.secure = secure;
    this.held = new Credentials(held);
    this.login = login;
  }

  /** A Kerberos login from a keytab ({@code UserGroupInformation}'s, or a test's). */
  @FunctionalInterface
  public interface KeytabLogin {
    void login(String principal, String keytab) throws IOException;
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
    DelegationTokens.addFileSystemTokens(conf, renewer, fileSystems, creds);
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
    return DelegationTokens.serialized(creds, leftOut);
  }

  /**
   * The file systems a staged job uses, for its tokens: the work directory's, those of its staged
   * files and archives (the Hare jar's among them) and {@link AppKeys#JOB_FILE_SYSTEMS}. The
   * client gets tokens for these, and so does the AM when it refreshes them.
   */
  public static List<URI> fileSystemsOf(HareJobSpec staged, Path work) {
    List<URI> out = new ArrayList<>();
    out.add(work.toUri());
    for (String used : staged.files()) {
      out.add(new Path(used).toUri());
    }
    for (String used : staged.archives()) {
      out.add(new Path(used).toUri());
    }
    for (String used : staged.fileSystems()) {
      out.add(URI.create(used));
    }
    return out;
  }

  /**
   * Checks, before anything is staged, that the AM can refresh its tokens from the spec's keytab:
   * the cluster uses Kerberos and the keytab logs in as the principal (one login, as Spark's
   * client does). Nothing to check without a keytab.
   *
   * @throws BadInputException naming the key, the value and what is needed
   */
  public void checkKeytab(TokenRefreshSpec refresh) throws BadInputException {
    if (!refresh.enabled()) {
      return;
    }
    if (!secure) {
      throw new BadInputException(AppKeys.AM_KEYTAB + ": '" + refresh.keytab() + "' is not"
          + " allowed on this cluster: it does not use Kerberos (hadoop.security.authentication="
          + conf.get("hadoop.security.authentication", "simple") + "), so there are no"
          + " delegation tokens to refresh; unset " + AppKeys.AM_PRINCIPAL + " and "
          + AppKeys.AM_KEYTAB + ", or submit with the cluster's core-site.xml");
    }
    try {
      login.login(refresh.principal(), refresh.keytab());
    } catch (IOException | RuntimeException e) {
      throw new BadInputException(AppKeys.AM_PRINCIPAL + ": '" + refresh.principal()
          + "' cannot log in from " + AppKeys.AM_KEYTAB + " '" + refresh.keytab() + "' ("
          + e.getMessage() + "); the keytab must hold a key of that principal (klist -kt)");
    }
  }
}
