package io.hare.yarn.scheduler.web;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.File;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.http.HttpConfig;
import org.apache.hadoop.security.ssl.FileBasedKeyStoresFactory;
import org.apache.hadoop.security.ssl.KeyStoreTestUtil;
import org.apache.hadoop.security.ssl.SSLFactory;
import org.apache.hadoop.test.GenericTestUtils;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;

/**
 * {@code hare status} reads the prediction from an RM whose web app is HTTPS only, with a
 * certificate signed by no CA the JVM knows (an admin's own), through Hadoop's client TLS
 * settings as YARN's clients do.
 */
public class PredictionHttpsTest {

  private static final String PASSWORD = "hare-test";
  private static final ApplicationId APP = ApplicationId.newInstance(7, 3);

  private File dir;
  private File trustStore;
  private HttpsServer rm;

  @Before
  public void startRm() throws Exception {
    dir = GenericTestUtils.getRandomizedTestDir();
    assertTrue(dir.mkdirs());
    KeyPair pair = KeyStoreTestUtil.generateKeyPair("RSA");
    X509Certificate cert = KeyStoreTestUtil.generateCertificate("CN=localhost", pair, 30,
        "SHA256withRSA");
    File keyStore = new File(dir, "rm-keystore.jks");
    KeyStoreTestUtil.createKeyStore(keyStore.getPath(), PASSWORD, "rm", pair.getPrivate(), cert);
    trustStore = new File(dir, "truststore.jks");
    KeyStoreTestUtil.createTrustStore(trustStore.getPath(), PASSWORD, "rm", cert);

    KeyStore ks = KeyStore.getInstance("JKS");
    try (InputStream in = new FileInputStream(keyStore)) {
      ks.load(in, PASSWORD.toCharArray());
    }
    KeyManagerFactory keys = KeyManagerFactory.getInstance(
        KeyManagerFactory.getDefaultAlgorithm());
    keys.init(ks, PASSWORD.toCharArray());
    SSLContext tls = SSLContext.getInstance("TLS");
    tls.init(keys.getKeyManagers(), null, null);

    rm = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    rm.setHttpsConfigurator(new HttpsConfigurator(tls));
    rm.createContext(HareWebFilter.REST_PATH, exchange -> {
      byte[] body = ("{\"hareScheduler\":{\"atMs\":1000,\"forecast\":{\"basis\":\"b\"},"
          + "\"jobs\":[{\"id\":\"" + APP + "\",\"predictedCompletionMs\":61000}]}}")
          .getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().set("Content-Type", "application/json");
      exchange.sendResponseHeaders(200, body.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
    });
    rm.start();
  }

  @After
  public void stopRm() {
    if (rm != null) {
      rm.stop(0);
    }
    FileUtil.fullyDelete(dir);
  }

  /** A client of an HTTPS-only RM at {@code host}, with no TLS settings of its own. */
  private Configuration client(String host) {
    Configuration conf = new YarnConfiguration();
    conf.set(YarnConfiguration.YARN_HTTP_POLICY_KEY, HttpConfig.Policy.HTTPS_ONLY.name());
    conf.set(YarnConfiguration.RM_WEBAPP_HTTPS_ADDRESS, host + ":" + rm.getAddress().getPort());
    // no ssl-client.xml on the test classpath: Hadoop takes the keys from the configuration
    conf.set(SSLFactory.SSL_CLIENT_CONF_KEY, "hare-test-no-such-ssl-client.xml");
    return conf;
  }

  private void trustTheRm(Configuration conf) {
    conf.set(FileBasedKeyStoresFactory.resolvePropertyName(SSLFactory.Mode.CLIENT,
        FileBasedKeyStoresFactory.SSL_TRUSTSTORE_LOCATION_TPL_KEY), trustStore.getPath());
    conf.set(FileBasedKeyStoresFactory.resolvePropertyName(SSLFactory.Mode.CLIENT,
        FileBasedKeyStoresFactory.SSL_TRUSTSTORE_PASSWORD_TPL_KEY), PASSWORD);
  }

  @Test(timeout = 60_000)
  public void theRmsCertificateIsTrustedThroughHadoopsClientSettings() throws IOException {
    Configuration conf = client("localhost");
    trustTheRm(conf);
    Prediction p = Prediction.fetch(conf, APP);
    assertEquals(61_000, p.completionMs().getAsLong());
  }

  @Test(timeout = 60_000)
  public void withoutThemTheUserIsToldWhereTheTrustStoreGoes() {
    try {
      Prediction.fetch(client("localhost"), APP);
      fail("the JVM's own trust store does not know the RM's certificate");
    } catch (IOException e) {
      assertTrue(e.getMessage(), e.getMessage().startsWith("TLS with https://localhost:"));
      assertTrue(e.getMessage(), e.getMessage().contains("ssl.client.truststore.location"));
    }
  }

  @Test(timeout = 60_000)
  public void aCertificateForAnotherHostIsRefused() {
    Configuration conf = client("127.0.0.1"); // the certificate names localhost only
    trustTheRm(conf);
    try {
      Prediction.fetch(conf, APP);
      fail("Hadoop's host name check lets a certificate for another host through");
    } catch (IOException e) {
      assertTrue(e.getMessage(), e.getMessage().contains("127.0.0.1"));
    }
  }
}
