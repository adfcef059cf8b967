package io.hare.yarn.app;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.PrivilegedExceptionAction;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.io.DataInputByteBuffer;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.security.Credentials;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.token.Token;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.ContainerLaunchContext;
import org.apache.hadoop.yarn.security.AMRMTokenIdentifier;
import org.apache.hadoop.yarn.security.client.RMDelegationTokenIdentifier;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * A task container carries the AM's tokens of its launch: one launched after a refresh the new
 * ones, never the AMRM token or the RM delegation token.
 */
public class TaskTokensTest {

  private static final Text HDFS = new Text("HDFS_DELEGATION_TOKEN");

  @BeforeClass
  public static void gpus() {
    TestingAm.declareGpus();
  }

  private static Token<?> token(Text kind, String service, String password) {
    return new Token<>(new byte[0], password.getBytes(StandardCharsets.UTF_8), kind,
        new Text(service));
  }

  /** The passwords of the tokens in serialized credentials, by kind. */
  private static Map<String, String> passwords(ByteBuffer serialized) throws IOException {
    Credentials c = new Credentials();
    DataInputByteBuffer in = new DataInputByteBuffer();
    in.reset(serialized.duplicate());
    c.readTokenStorageStream(in);
    Map<String, String> out = new TreeMap<>();
    for (Token<?> t : c.getAllTokens()) {
      out.put(t.getKind().toString(), new String(t.getPassword(), StandardCharsets.UTF_8));
    }
    return out;
  }

  @Test(timeout = 60_000)
  public void aContainerLaunchedAfterARefreshCarriesTheNewTokensWithoutTheAmsOwn()
      throws Exception {
    UserGroupInformation am = UserGroupInformation.createRemoteUser("alice");
    Credentials start = new Credentials();
    start.addToken(new Text("nn:8020"), token(HDFS, "nn:8020", "old"));
    start.addToken(new Text("amrm"), token(AMRMTokenIdentifier.KIND_NAME, "rm:8030", "amrm"));
    start.addToken(new Text("rm:8032"),
        token(RMDelegationTokenIdentifier.KIND_NAME, "rm:8032", "rm-old"));
    am.addCredentials(start);
    HareJobSpec spec = RoundProtocolTest.spec(2, 2, 1, true);
    TaskLaunch.Channel channel = new TaskLaunch.Channel("am", 1, new ChannelKeys());
    TaskLaunch launch = new TaskLaunch(spec, Map.of(), AmTokens.forTasks(), "", channel);
    ContainerId c1 = TestingAm.id(1);
    ContainerId c2 = TestingAm.id(2);

    List<ByteBuffer> launched = am.doAs((PrivilegedExceptionAction<List<ByteBuffer>>) () -> {
      ByteBuffer before = launch.withChannelKey(c1, launch.context(Map.of())).getTokens();
      // the refresher installs new tokens by service, as UgiTokenInstaller does
      Credentials fresh = new Credentials();
      fresh.addToken(new Text("nn:8020"), token(HDFS, "nn:8020", "new"));
      fresh.addToken(new Text("rm:8032"),
          token(RMDelegationTokenIdentifier.KIND_NAME, "rm:8032", "rm-new"));
      UserGroupInformation.getCurrentUser().addCredentials(fresh);
      ByteBuffer after = launch.withChannelKey(c2, launch.context(Map.of())).getTokens();
      return List.of(before, after);
    });
    assertEquals(Map.of(HDFS.toString(), "old"), passwords(launched.get(0)));
    assertEquals(Map.of(HDFS.toString(), "new"), passwords(launched.get(1)));
  }

  @Test(timeout = 60_000)
  public void theChannelKeyIsAddedToTheTokensTheContextWasMadeWith() throws Exception {
    AtomicReference<ByteBuffer> current = new AtomicReference<>(serialized("one"));
    HareJobSpec spec = RoundProtocolTest.spec(2, 2, 1, true);
    TaskLaunch launch = new TaskLaunch(spec, Map.of(), current::get, "",
        new TaskLaunch.Channel("am", 1, new ChannelKeys()));
    ContainerLaunchContext made = launch.context(Map.of());
    current.set(serialized("two")); // a refresh between making the context and starting it
    ByteBuffer started = launch.withChannelKey(TestingAm.id(1), made).getTokens();
    assertEquals("one launch, one generation", Map.of(HDFS.toString(), "one"),
        passwords(started));
    assertEquals(Map.of(HDFS.toString(), "two"), passwords(launch.context(Map.of())
        .getTokens()));
    assertNull("no tokens without security", new TaskLaunch(spec, Map.of(), () -> null)
        .context(Map.of()).getTokens());
  }

  private static ByteBuffer serialized(String password) throws IOException {
    Credentials c = new Credentials();
    c.addToken(new Text("nn:8020"), token(HDFS, "nn:8020", password));
    return JobCredentials.serialized(c);
  }
}
