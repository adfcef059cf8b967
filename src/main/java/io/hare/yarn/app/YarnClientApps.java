package io.hare.yarn.app;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.api.protocolrecords.GetNewApplicationResponse;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ApplicationReport;
import org.apache.hadoop.yarn.api.records.ApplicationSubmissionContext;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.exceptions.YarnException;

/** {@link YarnApps} over a started {@link YarnClient}; {@link #close} stops it. */
public final class YarnClientApps implements YarnApps {

  private final YarnClient client;

  private YarnClientApps(YarnClient client) {
    this.client = client;
  }

  public static YarnApps open(Configuration conf) {
    YarnClient c = YarnClient.createYarnClient();
    c.init(new YarnConfiguration(conf));
    c.start();
    return new YarnClientApps(c);
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
  public void close() throws IOException {
    client.stop();
  }
}
