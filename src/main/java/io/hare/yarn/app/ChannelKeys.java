package io.hare.yarn.app;

import io.hare.worker.ChannelKey;
import io.hare.worker.ChannelProof;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.HexFormat;
import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.security.Credentials;
import org.apache.hadoop.yarn.api.records.ContainerId;

/**
 * The task channel's credentials ({@code docs/task-channel.md}): one key per container, derived
 * from a random secret that never leaves this ApplicationMaster, so the server keeps no table
 * of keys and a container can compute no other container's key.
 *
 * <p>A container's key travels in its launch context's tokens, as a Hadoop credentials secret key
 * ({@value #ALIAS}): the NodeManager writes it to the container's private tokens file
 * ({@code HADOOP_TOKEN_FILE_LOCATION}), never to its environment, launch script or logs. Its
 * value is ASCII, {@value #VALUE_PREFIX} and 64 lower-case hex digits, so a reader without
 * Hadoop's credentials format (the bash runner) finds it by that pattern.
 *
 * <p>Thread-safe.
 */
final class ChannelKeys {

  /** The secret key's alias in the container's credentials. */
  static final String ALIAS = "hare.channel.key";
  /** What the secret key's value starts with, before the key's 64 hex digits. */
  static final String VALUE_PREFIX = ChannelKey.PREFIX;
  static final int KEY_BYTES = 32;
  private static final HexFormat HEX = HexFormat.of();

  private final byte[] secret;

  /** Keys derived from a fresh random secret. */
  ChannelKeys() {
    this(random(KEY_BYTES));
  }

  /** Keys derived from {@code secret}; at least 32 bytes. */
  ChannelKeys(byte[] secret) {
    if (secret.length < KEY_BYTES) {
      throw new IllegalArgumentException("a channel secret needs at least " + KEY_BYTES
          + " bytes, got " + secret.length);
    }
    this.secret = secret.clone();
  }

  /** {@code n} bytes from a {@link SecureRandom}. */
  static byte[] random(int n) {
    byte[] b = new byte[n];
    new SecureRandom().nextBytes(b);
    return b;
  }

  /** The key of {@code container}: HMAC-SHA256 of its id under the AM's secret. */
  byte[] keyOf(ContainerId container) {
    return ChannelProof.hmac(secret, "hare-channel-key " + container);
  }

  /**
   * {@code base} (serialized credentials; null: none) with {@code container}'s key added, for
   * its launch context.
   */
  ByteBuffer tokens(ContainerId container, ByteBuffer base) {
    try {
      Credentials creds = new Credentials();
      if (base != null && base.remaining() > 0) {
        ByteBuffer b = base.duplicate();
        byte[] bytes = new byte[b.remaining()];
        b.get(bytes);
        creds.readTokenStorageStream(new DataInputStream(new ByteArrayInputStream(bytes)));
      }
      creds.addSecretKey(new Text(ALIAS), (VALUE_PREFIX + HEX.formatHex(keyOf(container)))
          .getBytes(StandardCharsets.US_ASCII));
      DataOutputBuffer out = new DataOutputBuffer();
      creds.writeTokenStorageToStream(out);
      return ByteBuffer.wrap(out.getData(), 0, out.getLength());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot add the task channel key to the container's"
          + " credentials", e);
    }
  }

  /**
   * The proof a runner of {@code container} sends for the server's {@code greeting} line (no
   * newline): hex HMAC-SHA256, under the container's key, of {@code GREETING CONTAINER_ID}.
   */
  static String proof(byte[] key, String greeting, String container) {
    return ChannelProof.proof(key, greeting, container);
  }

  /**
   * Whether {@code proof} (as received: any text) is {@code container}'s proof for
   * {@code greeting}. Compares in time independent of where the proofs differ.
   */
  boolean verify(String greeting, ContainerId container, String proof) {
    byte[] expected = proof(keyOf(container), greeting, container.toString())
        .getBytes(StandardCharsets.US_ASCII);
    return MessageDigest.isEqual(expected, proof.getBytes(StandardCharsets.US_ASCII));
  }

}
