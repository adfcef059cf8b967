package io.hare.yarn.app;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.security.token.Token;
import org.apache.hadoop.security.token.TokenIdentifier;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ApplicationReport;
import org.apache.hadoop.yarn.api.records.ApplicationSubmissionContext;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.ResourceInformation;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.security.client.RMDelegationTokenIdentifier;
import org.apache.hadoop.yarn.util.resource.ResourceUtils;

/**
 * A ResourceManager for the client's submission path: hands out one application id, keeps what
 * is submitted, and counts what it was asked; its RM delegation tokens name the renewer as their
 * identifier, as {@code TokenIssuingFileSystem}'s do. Reports and kills are not served.
 */
final class CapturingYarnApps implements YarnApps {

  private final String rmService;
  /** The last submission; null before one. */
  ApplicationSubmissionContext submitted;
  int created;
  int rmTokens;

  /** @param rmService the service its RM delegation tokens name */
  CapturingYarnApps(String rmService) {
    this.rmService = rmService;
  }

  @Override
  public NewApp create() {
    created++;
    return new NewApp(ApplicationId.newInstance(1, 1), Resource.newInstance(8192, 8,
        Map.of(ResourceInformation.GPU_URI, 1L)));
  }

  /**
   * Registers {@code yarn.io/gpu} as a resource type in this JVM, as a client with the cluster's
   * resource-types.xml has it: the largest container above has one GPU. Resource types are
   * JVM-wide, so a test class using this RM calls it before its tests.
   */
  static void registerGpus() {
    Configuration c = new Configuration(false);
    c.set(YarnConfiguration.RESOURCE_TYPES, ResourceInformation.GPU_URI);
    ResourceUtils.resetResourceTypes(c);
  }

  @Override
  public void submit(ApplicationSubmissionContext context) {
    submitted = context;
  }

  @Override
  public ApplicationReport report(ApplicationId id) {
    throw new UnsupportedOperationException();
  }

  @Override
  public void kill(ApplicationId id) {
    throw new UnsupportedOperationException();
  }

  @Override
  public Token<? extends TokenIdentifier> rmDelegationToken(String renewer) {
    rmTokens++;
    return new Token<>(renewer.getBytes(StandardCharsets.UTF_8),
        "rm-secret".getBytes(StandardCharsets.UTF_8), RMDelegationTokenIdentifier.KIND_NAME,
        new Text(rmService));
  }

  @Override
  public void close() {}
}
