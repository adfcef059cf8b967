package io.hare.yarn.app;

import java.io.Closeable;
import java.io.IOException;
import org.apache.hadoop.security.token.Token;
import org.apache.hadoop.security.token.TokenIdentifier;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ApplicationReport;
import org.apache.hadoop.yarn.api.records.ApplicationSubmissionContext;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.exceptions.YarnException;

/**
 * The client's port to the ResourceManager: the four {@code YarnClient} calls {@code hare
 * submit/status/kill} need. {@link YarnClientApps} is the real one; tests use an in-memory fake.
 * A report or kill of an unknown application throws
 * {@link org.apache.hadoop.yarn.exceptions.ApplicationNotFoundException}.
 */
public interface YarnApps extends Closeable {

  /** A new application id and the largest container the cluster grants. */
  record NewApp(ApplicationId id, Resource maxContainer) {}

  /** Opens a connection from a client configuration (yarn-site.xml and the job spec). */
  @FunctionalInterface
  interface Connector {
    YarnApps open(org.apache.hadoop.conf.Configuration conf) throws IOException;
  }

  NewApp create() throws IOException, YarnException;

  void submit(ApplicationSubmissionContext context) throws IOException, YarnException;

  ApplicationReport report(ApplicationId id) throws IOException, YarnException;

  void kill(ApplicationId id) throws IOException, YarnException;

  /**
   * A delegation token for the RM's client protocol that {@code renewer} renews, its service set
   * as a YARN client in a container looks it up (on a secure cluster the AM reads node
   * attributes with it: {@link JobCredentials}).
   */
  Token<? extends TokenIdentifier> rmDelegationToken(String renewer)
      throws IOException, YarnException;
}
