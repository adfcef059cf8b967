package io.hare.yarn.app;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.Text;
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

  public static YarnApps open(Configuration conf) {
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
