package io.hare.yarn.app;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.DataInputByteBuffer;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.security.Credentials;
import org.apache.hadoop.security.token.Token;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.security.AMRMTokenIdentifier;
import org.apache.hadoop.yarn.security.client.RMDelegationTokenIdentifier;
import org.junit.BeforeClass;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * On a secure cluster the AM container carries the submitting user's delegation tokens for
 * each file system of the job, renewable by the ResourceManager; without security it carries
 * none. The file systems are {@link TokenIssuingFileSystem}s, which issue tokens as a secure
 * HDFS does, and the RM double issues its own.
 */
public class JobCredentialsTest {

  @BeforeClass
  public static void gpus() {
    TestingAm.declareGpus();
  }

  private static final String RM = "rm/rm1.example.com@EXAMPLE.COM";
  /** The RM's client address, as the token service YARN's client looks its token up by. */
  private static final String RM_SERVICE = "127.0.0.1:8032";

  private final CapturingYarnApps rm = new CapturingYarnApps(RM_SERVICE);

  @Rule
  public final TemporaryFolder tmp = new TemporaryFolder();

  private static Configuration conf() {
    Configuration c = TokenIssuingFileSystem.register(new Configuration());
    c.set(YarnConfiguration.RM_PRINCIPAL, RM);
    c.set(YarnConfiguration.RM_ADDRESS, RM_SERVICE);
    return c;
  }

  /** The tokens in a serialized {@code Credentials}, by service. */
  private static Map<String, Token<?>> tokens(ByteBuffer serialized) throws IOException {
    Credentials c = new Credentials();
    DataInputByteBuffer in = new DataInputByteBuffer();
    in.reset(serialized.duplicate());
    c.readTokenStorageStream(in);
    Map<String, Token<?>> out = new TreeMap<>();
    for (Token<?> t : c.getAllTokens()) {
      out.put(t.getService().toString(), t);
    }
    return out;
  }

  private static String identifier(Token<?> t) {
    return new String(t.getIdentifier(), StandardCharsets.UTF_8);
  }

  @Test(timeout = 60_000)
  public void oneTokenPerFileSystemWithTheRmAsRenewer() throws Exception {
    ByteBuffer b = new JobCredentials(conf(), true, new Credentials()).forAm(rm, List.of(
        URI.create("tokfs://nn1/user/alice/.hare/jobs/app_1"),
        URI.create("tokfs://nn1/user/alice/.hare/jobs/hare-yarn.jar"),
        URI.create("tokfs://data-ns/datasets/imagenet"),
        URI.create("file:///tmp/local")));
    Map<String, Token<?>> t = tokens(b);
    assertEquals("one token for each file system that issues them and the RM's: " + t,
        List.of(RM_SERVICE, "data-ns", "nn1"), List.copyOf(t.keySet()));
    assertEquals(TokenIssuingFileSystem.KIND, t.get("nn1").getKind());
    assertEquals(TokenIssuingFileSystem.KIND, t.get("data-ns").getKind());
    assertEquals(RMDelegationTokenIdentifier.KIND_NAME, t.get(RM_SERVICE).getKind());
    for (Token<?> token : t.values()) {
      assertEquals("the RM renews the job's tokens", RM, identifier(token));
    }
  }

  @Test(timeout = 60_000)
  public void heldTokensGoAlongButNeitherAnAmrmTokenNorASecondTokenForAService()
      throws Exception {
    Credentials held = new Credentials();
    Token<?> hive = new Token<>("hive-id".getBytes(StandardCharsets.UTF_8),
        "hive-secret".getBytes(StandardCharsets.UTF_8), new Text("HIVE_DELEGATION_TOKEN"),
        new Text("hs2"));
    Token<?> nn1 = new Token<>("launcher's".getBytes(StandardCharsets.UTF_8),
        "nn1-secret".getBytes(StandardCharsets.UTF_8), TokenIssuingFileSystem.KIND,
        new Text("nn1"));
    Token<?> amrm = new Token<>("amrm-id".getBytes(StandardCharsets.UTF_8),
        "amrm-secret".getBytes(StandardCharsets.UTF_8), AMRMTokenIdentifier.KIND_NAME,
        new Text("rm:8030"));
    Token<?> rmHeld = new Token<>("launcher's".getBytes(StandardCharsets.UTF_8),
        "rm-secret".getBytes(StandardCharsets.UTF_8), RMDelegationTokenIdentifier.KIND_NAME,
        new Text(RM_SERVICE));
    held.addToken(hive.getService(), hive);
    held.addToken(nn1.getService(), nn1);
    held.addToken(amrm.getService(), amrm);
    held.addToken(rmHeld.getService(), rmHeld);

    Map<String, Token<?>> t = tokens(new JobCredentials(conf(), true, held)
        .forAm(rm, List.of(URI.create("tokfs://nn1/jobs"))));
    assertEquals(List.of(RM_SERVICE, "hs2", "nn1"), List.copyOf(t.keySet()));
    assertEquals("the token held for nn1 is kept, not fetched again", "launcher's",
        identifier(t.get("nn1")));
    assertEquals("the RM token held is kept", "launcher's", identifier(t.get(RM_SERVICE)));
    assertEquals("no RM token asked for", 0, rm.rmTokens);
    assertEquals("the caller's credentials are left as they were", 4, held.numberOfTokens());
  }

  @Test(timeout = 60_000)
  public void withoutSecurityTheAmContainerCarriesNoTokens() throws Exception {
    Credentials held = new Credentials();
    held.addToken(new Text("hs2"), new Token<>());
    assertNull(new JobCredentials(conf(), false, held)
        .forAm(rm, List.of(URI.create("tokfs://nn1/jobs"))));
  }

  @Test(timeout = 60_000)
  public void aClientThatDoesNotKnowTheRmPrincipalIsToldWhichKeyToSet() throws Exception {
    Configuration c = conf();
    c.unset(YarnConfiguration.RM_PRINCIPAL);
    try {
      new JobCredentials(c, true, new Credentials()).forAm(rm, List.of(URI.create("tokfs://nn1/")));
      fail("tokens without a renewer");
    } catch (IOException e) {
      assertTrue(e.getMessage(), e.getMessage().startsWith(YarnConfiguration.RM_PRINCIPAL
          + " is not set in the client's configuration"));
    }
  }

  /**
   * Through the client: a job staged on the local file system whose spec names another file
   * system; the AM container gets that file system's token (the local one issues none).
   */
  @Test(timeout = 60_000)
  public void theSubmittedAmContainerCarriesTheJobsTokens() throws Exception {
    Configuration client = conf();
    client.set("fs.defaultFS", "file:///");
    Map<String, String> m = JobSpecValidatorTest.valid();
    Path jar = tmp.newFile("hare-yarn.jar").toPath();
    Files.write(jar, new byte[] {'P', 'K'});
    m.put(AppKeys.AM_JAR, jar.toString());
    m.put(AppKeys.JOB_STAGING_DIR, tmp.newFolder("staging").getAbsolutePath());
    m.put(AppKeys.JOB_FILE_SYSTEMS, "tokfs://data-ns");
    HareJobSpec spec = JobSpecValidator.read(JobSpecValidatorTest.conf(m));

    new JobSubmitter(rm, client, new JobCredentials(client, true, new Credentials()))
        .submit(spec);
    Map<String, Token<?>> t = tokens(rm.submitted.getAMContainerSpec().getTokens());
    assertEquals(List.of(RM_SERVICE, "data-ns"), List.copyOf(t.keySet()));
    assertEquals(RM, identifier(t.get("data-ns")));

    CapturingYarnApps plain = new CapturingYarnApps(RM_SERVICE);
    new JobSubmitter(plain, client, new JobCredentials(client, false, new Credentials()))
        .submit(spec);
    assertNull(plain.submitted.getAMContainerSpec().getTokens());
  }
}
