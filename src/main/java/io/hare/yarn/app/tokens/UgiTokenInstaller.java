package io.hare.yarn.app.tokens;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.security.Credentials;
import org.apache.hadoop.security.UserGroupInformation;

/**
 * Installs refreshed tokens in the AM's JVM and for its processes. The AM's clients (its file
 * system, the RM client reading node attributes) look their token up in the current user's
 * credentials whenever they open a connection, so adding the new ones there, by the same
 * services, is all they need. A process the AM starts (the sync step) reads its tokens from
 * {@code HADOOP_TOKEN_FILE_LOCATION}, which YARN points at the container's token file of the
 * launch: so the current tokens are also written to {@code file} (owner only, replaced
 * atomically so that a process starting meanwhile never reads half of one), without the AMRM
 * token and the kinds left out, and {@link #childEnv} names it.
 */
public final class UgiTokenInstaller implements KeytabTokenRefresher.Installer {

  /** The variable Hadoop's UGI reads a process's tokens from. */
  public static final String TOKEN_FILE_ENV = UserGroupInformation.HADOOP_TOKEN_FILE_LOCATION;

  private final Path file;
  private final Text[] leftOut;

  /** @param leftOut token kinds the processes do not get (the AMRM and RM tokens) */
  public UgiTokenInstaller(Path file, Text... leftOut) {
    this.file = file.toAbsolutePath();
    this.leftOut = leftOut.clone();
  }

  @Override
  public void install(Credentials fresh) throws IOException {
    UserGroupInformation user = UserGroupInformation.getCurrentUser();
    user.addCredentials(fresh);
    ByteBuffer bytes = DelegationTokens.serialized(user.getCredentials(), leftOut);
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    Files.deleteIfExists(tmp);
    try (FileChannel out = FileChannel.open(tmp, java.util.Set.of(StandardOpenOption.CREATE_NEW,
        StandardOpenOption.WRITE), PosixFilePermissions.asFileAttribute(
            PosixFilePermissions.fromString("rw-------")))) {
      while (bytes.hasRemaining()) {
        out.write(bytes);
      }
    }
    Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  @Override
  public Map<String, String> childEnv() {
    return Map.of(TOKEN_FILE_ENV, file.toString());
  }
}
