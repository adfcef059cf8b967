package io.hare.yarn.app;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.token.Token;
import org.apache.hadoop.security.token.TokenIdentifier;
import org.apache.hadoop.yarn.api.protocolrecords.GetNewApplicationResponse;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ApplicationReport;
import org.apache.hadoop.yarn.api.records.ApplicationSubmissionContext;
import org.apache.hadoop.yarn.client.ClientRMProxy;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.exceptions.YarnException;
import org.apache.hadoop.yarn.util.ConverterUtils;

/** {@link YarnApps} over a started {@link YarnClient}; {@link #close} stops it. */
public final class YarnClientApps implements YarnApps {

  private final YarnClient client;
  private final Configuration conf;

  private YarnClientApps(YarnClient client, Configuration conf) {
    this.client = client;
    this.conf = conf;
  }

  /**
   * @throws IOException on a secure cluster, the user has neither a Kerberos ticket nor tokens:
   *     YARN's client would retry its refused connections for minutes before failing with a
   *     SASL error, so this names the cause and the fix at once
   */
  public static YarnApps open(Configuration conf) throws IOException {
    if (UserGroupInformation.isSecurityEnabled()) {
      UserGroupInformation user = UserGroupInformation.getCurrentUser();
      UserGroupInformation login = user.getRealUser() != null ? user.getRealUser() : user;
      if (!login.hasKerberosCredentials() && user.getCredentials().numberOfTokens() == 0) {
        throw new IOException("no Kerberos ticket for " + user.getUserName() + ": this cluster"
            + " uses Kerberos (hadoop.security.authentication=kerberos); run kinit first");
      }
    }
    YarnConfiguration yarn = new YarnConfiguration(conf);
    YarnClient c = YarnClient.createYarnClient();
    c.init(yarn);
    c.start();
    return new YarnClientApps(c, yarn);
  }

  @Override
  public NewApp create() throws IOException, YarnException {
    GetNewApplicationResponse r = client.createApplication().getNewApplicationResponse();
    return new NewApp(r.getApplicationId(), r.getMaximumResourceCapability());
  }

  @Override
  public void submit(ApplicationSubmissionContext context) throws IOException, YarnException {
    client.submitApplication(context);
  }

  @Override
  public ApplicationReport report(ApplicationId id) throws IOException, YarnException {
    return client.getApplicationReport(id);
  }

  @Override
  public void kill(ApplicationId id) throws IOException, YarnException {
    client.killApplication(id);
  }

  @Override
  public Token<? extends TokenIdentifier> rmDelegationToken(String renewer)
      throws IOException, YarnException {
    // the service the RM's client proxy selects tokens by (every RM of an HA pair)
    return ConverterUtils.convertFromYarn(client.getRMDelegationToken(new Text(renewer)),
        ClientRMProxy.getRMDelegationTokenService(conf));
  }

  @Override
  public void close() throws IOException {
    client.stop();
  }
}
