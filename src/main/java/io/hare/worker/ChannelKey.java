package io.hare.worker;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.HexFormat;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds a container's task channel key in its credentials file ({@code HADOOP_TOKEN_FILE_LOCATION},
 * written by the NodeManager from the launch context's tokens): the one value of the form
 * {@value #PREFIX} and 64 lower-case hex digits. Reading it by that pattern needs no Hadoop on
 * the worker's classpath; Hadoop writes the value's bytes as they are in both of its credentials
 * formats.
 */
public final class ChannelKey {

  /** What the key's value starts with in the credentials, before its 64 hex digits. */
  public static final String PREFIX = "hare-channel-key:";
  private static final Pattern VALUE = Pattern.compile(Pattern.quote(PREFIX) + "([0-9a-f]{64})");

  private ChannelKey() {}

  /**
   * The 32-byte key in {@code credentials}, or empty when the file holds none. Makes the file
   * readable by its owner only first (where the file system allows), as the bash runner does.
   *
   * @throws IOException if the file cannot be read
   */
  public static Optional<byte[]> read(Path credentials) throws IOException {
    try {
      Files.setPosixFilePermissions(credentials,
          Set.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE));
    } catch (UnsupportedOperationException | IOException e) {
      // not ours to change (another owner, a file system without POSIX modes): read it as it is
    }
    // ISO-8859-1 maps each byte to one char, so the pattern sees the file's bytes unchanged
    Matcher m = VALUE.matcher(new String(Files.readAllBytes(credentials),
        StandardCharsets.ISO_8859_1));
    return m.find() ? Optional.of(HexFormat.of().parseHex(m.group(1))) : Optional.empty();
  }
}
