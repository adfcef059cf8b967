package io.hare.yarn.app;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.security.token.Token;
import org.apache.hadoop.security.token.TokenIdentifier;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ApplicationReport;
import org.apache.hadoop.yarn.api.records.ApplicationSubmissionContext;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.ResourceInformation;
import org.apache.hadoop.yarn.security.client.RMDelegationTokenIdentifier;

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
    // one GPU: its users declare yarn.io/gpu first (TestingAm.declareGpus), as a client with
    // the cluster's resource-types.xml has it
    return new NewApp(ApplicationId.newInstance(1, 1), Resource.newInstance(8192, 8,
        Map.of(ResourceInformation.GPU_URI, 1L)));
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
