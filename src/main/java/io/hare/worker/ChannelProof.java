package io.hare.worker;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The task channel's HMAC-SHA256 ({@code docs/task-channel.md}): how a container's key is
 * derived from the ApplicationMaster's secret, and how a worker proves its container in answer
 * to a greeting. Both ends of the channel use these, so they cannot drift apart.
 */
public final class ChannelProof {

  private static final String HMAC = "HmacSHA256";
  private static final HexFormat HEX = HexFormat.of();

  private ChannelProof() {}

  /**
   * The proof for {@code greeting} (the line as received, without its newline) from
   * {@code container}: 64 lower-case hex digits of HMAC-SHA256, under the container's key, of
   * {@code GREETING CONTAINER_ID}.
   */
  public static String proof(byte[] key, String greeting, String container) {
    return HEX.formatHex(hmac(key, greeting + " " + container));
  }

  /** HMAC-SHA256 of the ASCII {@code message} under {@code key}. */
  public static byte[] hmac(byte[] key, String message) {
    try {
      Mac mac = Mac.getInstance(HMAC);
      mac.init(new SecretKeySpec(key, HMAC));
      return mac.doFinal(message.getBytes(StandardCharsets.US_ASCII));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("the JVM lacks " + HMAC, e);
    }
  }
}
