package io.hare.yarn.app;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import io.hare.core.BadInputException;
import io.hare.core.ConfigException;
import io.hare.yarn.app.tokens.TokenRefreshSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.Credentials;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ContainerLaunchContext;
import org.apache.hadoop.yarn.api.records.LocalResource;
import org.apache.hadoop.yarn.api.records.LocalResourceVisibility;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.junit.Before;
import org.junit.BeforeClass;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * {@code yarn.app.hare.am.principal} and {@code .am.keytab} at submission: both or neither, a
 * readable keytab, a Kerberos cluster and a keytab that logs in as the principal, each refused
 * with the key, the value and what is needed, and nothing staged; accepted, the keytab is staged
 * in the work directory owner-only and localized into the AM's container alone, its path and
 * bytes in no environment or command.
 */
public class AmKeytabSubmitTest {

  @BeforeClass
  public static void gpus() {
    TestingAm.declareGpus();
  }

  private static final String PRINCIPAL = "alice@EXAMPLE.COM";
  private static final String SECRET = "keytab-bytes-not-to-leak";

  @Rule
  public final TemporaryFolder tmp = new TemporaryFolder();

  private Path keytab;
  private Path staging;
  private final CapturingYarnApps rm = new CapturingYarnApps("127.0.0.1:8032");
  private final List<String> logins = new ArrayList<>();

  @Before
  public void files() throws Exception {
    keytab = tmp.newFile("alice.keytab").toPath();
    Files.writeString(keytab, SECRET);
    staging = tmp.newFolder("staging").toPath();
  }

  private Map<String, String> spec() throws Exception {
    Map<String, String> m = JobSpecValidatorTest.valid();
    Path jar = tmp.getRoot().toPath().resolve("hare-yarn.jar");
    if (!Files.exists(jar)) {
      Files.write(jar, new byte[] {'P', 'K'});
    }
    m.put(AppKeys.AM_JAR, jar.toString());
    m.put(AppKeys.JOB_STAGING_DIR, staging.toString());
    m.put(AppKeys.AM_PRINCIPAL, PRINCIPAL);
    m.put(AppKeys.AM_KEYTAB, keytab.toString());
    return m;
  }

  private static Configuration client() {
    Configuration c = new Configuration();
    c.set("fs.defaultFS", "file:///");
    c.set(YarnConfiguration.RM_PRINCIPAL, "rm/rm1.example.com@EXAMPLE.COM");
    c.set(YarnConfiguration.RM_ADDRESS, "127.0.0.1:8032");
    return c;
  }

  private static String problems(Map<String, String> m) {
    try {
      JobSpecValidator.read(JobSpecValidatorTest.conf(m));
      throw new AssertionError("accepted: " + m);
    } catch (ConfigException e) {
      return e.getMessage();
    }
  }

  @Test(timeout = 60_000)
  public void theSpecNeedsBothKeysAReadableKeytabAndSaneTimings() throws Exception {
    Map<String, String> m = spec();
    m.remove(AppKeys.AM_KEYTAB);
    assertTrue(problems(m), problems(m).contains(AppKeys.AM_PRINCIPAL + ": '" + PRINCIPAL
        + "' needs " + AppKeys.AM_KEYTAB));
    m = spec();
    m.remove(AppKeys.AM_PRINCIPAL);
    assertTrue(problems(m), problems(m).contains(AppKeys.AM_KEYTAB + ": '" + keytab
        + "' needs " + AppKeys.AM_PRINCIPAL));
    m = spec();
    m.put(AppKeys.AM_KEYTAB, tmp.getRoot() + "/missing.keytab");
    assertTrue(problems(m), problems(m).contains(AppKeys.AM_KEYTAB + ": '" + tmp.getRoot()
        + "/missing.keytab' is not allowed; must be the local path of a readable keytab file"));
    m.put(AppKeys.AM_KEYTAB, tmp.getRoot().toString()); // a directory
    assertTrue(problems(m), problems(m).contains("readable keytab file"));
    m = spec();
    m.put(AppKeys.AM_TOKEN_REFRESH_RATIO, "1.5");
    m.put(AppKeys.AM_TOKEN_REFRESH_MIN_INTERVAL_MS, "10");
    m.put(AppKeys.AM_TOKEN_REFRESH_RETRY_INTERVAL_MS, "soon");
    String p = problems(m);
    assertTrue(p, p.contains(AppKeys.AM_TOKEN_REFRESH_RATIO + ": '1.5' is not allowed; must be a"
        + " number from 0.1 to 0.95"));
    assertTrue(p, p.contains(AppKeys.AM_TOKEN_REFRESH_MIN_INTERVAL_MS + ": '10' is not allowed;"
        + " must be a whole number of milliseconds from 1000 to 86400000"));
    assertTrue(p, p.contains(AppKeys.AM_TOKEN_REFRESH_RETRY_INTERVAL_MS + ": 'soon'"));

    HareJobSpec ok = JobSpecValidator.read(JobSpecValidatorTest.conf(spec()));
    assertEquals(new TokenRefreshSpec(PRINCIPAL, keytab.toString(), 0.75, 60_000, 60_000),
        ok.tokenRefresh());
    assertEquals("a spec without them refreshes nothing", false, JobSpecValidator.read(
        JobSpecValidatorTest.conf(JobSpecValidatorTest.valid())).tokenRefresh().enabled());
  }

  @Test(timeout = 60_000)
  public void aClusterWithoutKerberosIsRefusedBeforeAnythingIsStaged() throws Exception {
    HareJobSpec spec = JobSpecValidator.read(JobSpecValidatorTest.conf(spec()));
    try {
      new JobSubmitter(rm, client(), credentials(false)).submit(spec);
      fail("a keytab on a cluster without Kerberos");
    } catch (BadInputException e) {
      assertTrue(e.getMessage(), e.getMessage().startsWith(AppKeys.AM_KEYTAB + ": '" + keytab
          + "' is not allowed on this cluster: it does not use Kerberos"
          + " (hadoop.security.authentication=simple)"));
    }
    assertNothingStaged();
    assertEquals("no login tried", List.of(), logins);
  }

  @Test(timeout = 60_000)
  public void aKeytabThatCannotLogInIsRefusedBeforeAnythingIsStaged() throws Exception {
    HareJobSpec spec = JobSpecValidator.read(JobSpecValidatorTest.conf(spec()));
    JobCredentials refusing = new JobCredentials(client(), true, new Credentials(),
        (principal, file) -> {
          throw new java.io.IOException("Login failure for " + principal + " from keytab " + file
              + ": Checksum failed");
        });
    try {
      new JobSubmitter(rm, client(), refusing).submit(spec);
      fail("a keytab that cannot log in");
    } catch (BadInputException e) {
      assertTrue(e.getMessage(), e.getMessage().startsWith(AppKeys.AM_PRINCIPAL + ": '"
          + PRINCIPAL + "' cannot log in from " + AppKeys.AM_KEYTAB + " '" + keytab + "'"));
      assertTrue(e.getMessage(), e.getMessage().contains("Checksum failed"));
    }
    assertNothingStaged();
  }

  @Test(timeout = 60_000)
  public void theKeytabIsStagedOwnerOnlyAndLocalizedIntoTheAmAlone() throws Exception {
    HareJobSpec spec = JobSpecValidator.read(JobSpecValidatorTest.conf(spec()));
    ApplicationId id = new JobSubmitter(rm, client(), credentials(true)).submit(spec);
    assertEquals("one login to check the keytab", List.of(PRINCIPAL + " " + keytab), logins);

    Path work = staging.resolve(id.toString());
    Path staged = work.resolve(TokenRefreshSpec.KEYTAB_LINK);
    assertEquals(SECRET, Files.readString(staged));
    assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(staged)));
    ContainerLaunchContext am = rm.submitted.getAMContainerSpec();
    LocalResource r = am.getLocalResources().get(TokenRefreshSpec.KEYTAB_LINK);
    assertEquals(LocalResourceVisibility.APPLICATION, r.getVisibility());
    assertTrue(r.getResource().getFile().endsWith(id + "/" + TokenRefreshSpec.KEYTAB_LINK));

    // the AM reads the staged spec in its working directory, where the keytab has its link name
    Configuration forAm = new Configuration(false);
    forAm.addResource(new org.apache.hadoop.fs.Path(work.resolve(HareApplicationMaster.SPEC_FILE)
        .toUri()));
    assertEquals(TokenRefreshSpec.KEYTAB_LINK, forAm.get(AppKeys.AM_KEYTAB));
    assertEquals(PRINCIPAL, forAm.get(AppKeys.AM_PRINCIPAL));
    assertFalse("the tasks' files do not name it", forAm.get(AppKeys.FILES)
        .contains(TokenRefreshSpec.KEYTAB_LINK));
    String launch = am.getEnvironment() + " " + am.getCommands();
    for (String leak : List.of(TokenRefreshSpec.KEYTAB_LINK, keytab.getFileName().toString(),
        SECRET)) {
      assertFalse(leak + " in " + launch, launch.contains(leak));
    }
  }

  @Test(timeout = 60_000)
  public void aJobFileCannotTakeTheKeytabsName() throws Exception {
    Map<String, String> m = spec();
    Path clash = tmp.newFolder("data").toPath().resolve(TokenRefreshSpec.KEYTAB_LINK);
    Files.writeString(clash, "data");
    m.put(AppKeys.FILES, clash.toString());
    try {
      new JobSubmitter(rm, client(), credentials(true))
          .submit(JobSpecValidator.read(JobSpecValidatorTest.conf(m)));
      fail("a file named as the keytab");
    } catch (BadInputException e) {
      assertTrue(e.getMessage(), e.getMessage().startsWith(AppKeys.FILES + ": "
          + TokenRefreshSpec.KEYTAB_LINK));
    }
  }

  private JobCredentials credentials(boolean secure) {
    return new JobCredentials(client(), secure, new Credentials(),
        (principal, file) -> logins.add(principal + " " + file));
  }

  private void assertNothingStaged() throws Exception {
    assertEquals("no application created", 0, rm.created);
    try (var s = Files.list(staging)) {
      assertEquals(List.of(), s.toList());
    }
    assertNull(rm.submitted);
  }
}
