package io.hare.yarn.scheduler.web;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.UndeclaredThrowableException;
import java.net.HttpURLConnection;
import java.net.URL;
import java.security.GeneralSecurityException;
import java.security.PrivilegedExceptionAction;
import java.util.OptionalLong;
import javax.net.ssl.HttpsURLConnection;
import javax.net.ssl.SSLException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.authentication.client.AuthenticatedURL;
import org.apache.hadoop.security.authentication.client.ConnectionConfigurator;
import org.apache.hadoop.security.authentication.client.KerberosAuthenticator;
import org.apache.hadoop.security.ssl.SSLFactory;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.webapp.util.WebAppUtils;

/**
 * A job's predicted completion as the ResourceManager's Hare scheduler answers it on
 * {@value HareWebFilter#REST_PATH} ({@code hare status}).
 *
 * @param atMs when the scheduler took it, on its clock
 * @param completionMs the prediction; empty when the forecast has none for the job
 * @param basis what the prediction is, or why there is none, in the scheduler's words
 */
public record Prediction(long atMs, OptionalLong completionMs, String basis) {

  private static final int TIMEOUT_MS = 10_000;

  /**
   * Reads it from the RM named in {@code conf} (its web address, plain HTTP or HTTPS); with RM
   * high availability, from the active one, found as YARN's own clients find it (each RM's
   * {@code HAServiceProtocol}).
   */
  public static Prediction fetch(Configuration conf, ApplicationId app) throws IOException {
    try {
      return WebAppUtils.execOnActiveRM(conf, (url, id) -> fetchFrom(conf, url, id), app);
    } catch (IOException e) {
      throw e;
    } catch (Exception e) { // finding the active RM: shown as the reason, not a stack trace
      throw new IOException("cannot read the scheduler's answer: " + e, e);
    }
  }

  private static Prediction fetchFrom(Configuration conf, String rmWebApp, ApplicationId app)
      throws IOException {
    String url = rmWebApp + HareWebFilter.REST_PATH;
    SSLFactory ssl = url.startsWith("https:") ? clientSsl(conf, url) : null;
    try {
      return read(open(new URL(url), connections(ssl)), app, url);
    } finally {
      if (ssl != null) {
        ssl.destroy(); // its trust store reloader thread
      }
    }
  }

  /**
   * Hadoop's client TLS settings, as YARN's own clients take them: {@code ssl-client.xml} on the
   * classpath (the cluster's configuration directory; {@code hadoop.ssl.client.conf} names
   * another), else the same keys in {@code conf}. Its trust store holds the CA an admin's RM
   * certificate is signed by, which the JVM's default one seldom does; without one configured
   * the JVM's default is used.
   */
  private static SSLFactory clientSsl(Configuration conf, String url) throws IOException {
    SSLFactory ssl = new SSLFactory(SSLFactory.Mode.CLIENT, conf);
    try {
      ssl.init();
      return ssl;
    } catch (GeneralSecurityException | IOException e) {
      ssl.destroy();
      throw new IOException("cannot read Hadoop's client TLS settings (" + conf.get(
          SSLFactory.SSL_CLIENT_CONF_KEY, "ssl-client.xml") + ") to reach " + url + ": "
          + e.getMessage(), e);
    }
  }

  /** Timeouts for every connection; on HTTPS, Hadoop's trust store and host name check. */
  private static ConnectionConfigurator connections(SSLFactory ssl) {
    return conn -> {
      conn.setConnectTimeout(TIMEOUT_MS);
      conn.setReadTimeout(TIMEOUT_MS);
      if (ssl != null && conn instanceof HttpsURLConnection https) {
        try {
          https.setSSLSocketFactory(ssl.createSSLSocketFactory());
        } catch (GeneralSecurityException e) {
          throw new IOException("cannot set up TLS for " + conn.getURL() + ": " + e, e);
        }
        https.setHostnameVerifier(ssl.getHostnameVerifier());
      }
      return conn;
    };
  }

  private static Prediction read(HttpURLConnection c, ApplicationId app, String url)
      throws IOException {
    c.setRequestProperty("Accept", "application/json");
    try {
      int status;
      try {
        status = c.getResponseCode();
      } catch (SSLException e) {
        throw tlsFailed(url, e);
      }
      if (status != HttpURLConnection.HTTP_OK) {
        throw new IOException(url + " answered HTTP " + status
            + (status == HttpURLConnection.HTTP_NOT_FOUND ? " (is the RM's scheduler Hare?)" : ""));
      }
      try (InputStream in = c.getInputStream()) {
        return parse(new ObjectMapper().readTree(in), app, url);
      }
    } finally {
      c.disconnect();
    }
  }

  /**
   * A connection to {@code url}; on a secure cluster one that has answered the RM's SPNEGO
   * challenge (the RM's web app under {@code hadoop.http.authentication.type=kerberos}) with the
   * user's Kerberos ticket, as YARN's own web clients do; where the RM asks for none, the same
   * request as without security.
   */
  private static HttpURLConnection open(URL url, ConnectionConfigurator connections)
      throws IOException {
    if (!UserGroupInformation.isSecurityEnabled()) {
      return connections.configure((HttpURLConnection) url.openConnection());
    }
    try {
      return UserGroupInformation.getCurrentUser().doAs(
          (PrivilegedExceptionAction<HttpURLConnection>) () -> new AuthenticatedURL(
              new KerberosAuthenticator(), connections).openConnection(url,
              new AuthenticatedURL.Token()));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while authenticating to " + url, e);
    } catch (UndeclaredThrowableException | IOException e) {
      Throwable cause = e instanceof UndeclaredThrowableException ? e.getCause() : e;
      if (cause instanceof SSLException tls) {
        throw tlsFailed(url.toString(), tls);
      }
      throw new IOException("cannot authenticate to " + url + " with Kerberos (SPNEGO); is"
          + " there a ticket (klist)? " + cause.getMessage(), cause);
    }
  }

  private static IOException tlsFailed(String url, SSLException e) {
    return new IOException("TLS with " + url + " failed (" + e.getMessage() + "); the client"
        + " trusts the RM's certificate through ssl.client.truststore.location in Hadoop's"
        + " ssl-client.xml, as YARN's own clients do", e);
  }

  static Prediction parse(JsonNode root, ApplicationId app, String from) throws IOException {
    JsonNode s = root == null ? null : root.get("hareScheduler");
    if (s == null || !s.has("jobs")) {
      throw new IOException(from + " is not a Hare scheduler answer");
    }
    long at = s.path("atMs").asLong();
    String basis = s.path("forecast").path("basis").asText("");
    for (JsonNode j : s.get("jobs")) {
      if (app.toString().equals(j.path("id").asText())) {
        JsonNode c = j.get("predictedCompletionMs");
        return new Prediction(at, c == null || c.isNull() ? OptionalLong.empty()
            : OptionalLong.of(c.asLong()), basis);
      }
    }
    return new Prediction(at, OptionalLong.empty(), "the scheduler does not list " + app
        + " (not admitted yet, or ended)");
  }

  /** E.g. {@code 2026-12-02T09:00:00Z (in 4m 0s)}, or {@code none (why)}. */
  public String describe() {
    return completionMs.isPresent() ? SchedulerHtml.when(completionMs.getAsLong(), atMs)
        : "none (" + basis + ")";
  }
}
