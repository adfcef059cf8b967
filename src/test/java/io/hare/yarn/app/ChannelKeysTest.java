package io.hare.yarn.app;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.security.Credentials;
import org.apache.hadoop.security.token.Token;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.junit.Test;

/** Keys per container, how they travel in the container's tokens, and the proof. */
public class ChannelKeysTest {

  /** docs/task-channel.md's test vector. */
  static final String VECTOR_KEY =
      "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";
  static final String VECTOR_GREETING = "hare-channel 1 " + "ab".repeat(32);
  static final String VECTOR_CONTAINER = "container_1700000000000_0007_01_000004";
  static final String VECTOR_PROOF =
      "6d558218cc99035cdda200e4534213bc60e6c77818b79d3ab0b1e76945f983dc";

  private static final ContainerId A = ContainerId.fromString(VECTOR_CONTAINER);
  private static final ContainerId B =
      ContainerId.fromString("container_1700000000000_0007_01_000005");

  @Test(timeout = 60_000)
  public void theProofIsHmacSha256OfTheGreetingAndContainerAsDocumented() {
    assertEquals(VECTOR_PROOF, ChannelKeys.proof(HexFormat.of().parseHex(VECTOR_KEY),
        VECTOR_GREETING, VECTOR_CONTAINER));
  }

  @Test(timeout = 60_000)
  public void eachContainerHasItsOwnKeyAndOnlyItsProofVerifies() {
    ChannelKeys keys = new ChannelKeys();
    assertEquals(32, keys.keyOf(A).length);
    assertFalse(HexFormat.of().formatHex(keys.keyOf(A))
        .equals(HexFormat.of().formatHex(keys.keyOf(B))));
    assertArrayEquals("derived, not stored", keys.keyOf(A), keys.keyOf(A));
    String proof = ChannelKeys.proof(keys.keyOf(A), VECTOR_GREETING, A.toString());
    assertTrue(keys.verify(VECTOR_GREETING, A, proof));
    assertFalse("A's proof is not B's", keys.verify(VECTOR_GREETING, B, proof));
    assertFalse("another greeting", keys.verify(VECTOR_GREETING + "0", A, proof));
    assertFalse("another AM", new ChannelKeys().verify(VECTOR_GREETING, A, proof));
    assertFalse(keys.verify(VECTOR_GREETING, A, ""));
    assertFalse(keys.verify(VECTOR_GREETING, A, proof.toUpperCase()));
  }

  @Test(timeout = 60_000)
  public void theKeyIsAddedToTheContainersTokensBesideTheJobsOwn() throws IOException {
    Credentials base = new Credentials();
    Token<?> hdfs = new Token<>(new byte[] {1}, new byte[] {2}, new Text("HDFS_DELEGATION_TOKEN"),
        new Text("nn:8020"));
    base.addToken(new Text("nn"), hdfs);
    DataOutputBuffer out = new DataOutputBuffer();
    base.writeTokenStorageToStream(out);
    ChannelKeys keys = new ChannelKeys();

    Credentials got = read(keys.tokens(A, ByteBuffer.wrap(out.getData(), 0, out.getLength())));
    assertEquals(hdfs, got.getToken(new Text("nn")));
    byte[] value = got.getSecretKey(new Text(ChannelKeys.ALIAS));
    assertNotNull(value);
    assertEquals(ChannelKeys.VALUE_PREFIX + HexFormat.of().formatHex(keys.keyOf(A)),
        new String(value, StandardCharsets.US_ASCII));
    assertEquals("no base tokens: the key alone", 1,
        read(keys.tokens(B, null)).numberOfSecretKeys());
  }

  @Test(timeout = 60_000)
  public void aShortSecretIsRefused() {
    try {
      new ChannelKeys(new byte[16]);
    } catch (IllegalArgumentException e) {
      assertEquals("a channel secret needs at least 32 bytes, got 16", e.getMessage());
      return;
    }
    throw new AssertionError("a 16-byte secret was accepted");
  }

  private static Credentials read(ByteBuffer b) throws IOException {
    byte[] bytes = new byte[b.remaining()];
    b.duplicate().get(bytes);
    Credentials c = new Credentials();
    c.readTokenStorageStream(new DataInputStream(new ByteArrayInputStream(bytes)));
    return c;
  }
}
