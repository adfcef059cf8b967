package io.hare.yarn.app;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.security.token.Token;

/**
 * A file system ({@code tokfs://AUTHORITY}) that issues a delegation token as a secure HDFS
 * does: of kind {@link #KIND}, for the service named by its authority, with the renewer asked
 * for as its identifier. Only its tokens work; its files are the local ones.
 */
public final class TokenIssuingFileSystem extends RawLocalFileSystem {

  public static final String SCHEME = "tokfs";
  public static final Text KIND = new Text("TESTING_DELEGATION_TOKEN");

  private URI uri;

  /** Registers the scheme in {@code conf}, uncached so each test gets its own instances. */
  public static Configuration register(Configuration conf) {
    conf.setClass("fs." + SCHEME + ".impl", TokenIssuingFileSystem.class,
        org.apache.hadoop.fs.FileSystem.class);
    conf.setBoolean("fs." + SCHEME + ".impl.disable.cache", true);
    return conf;
  }

  @Override
  public void initialize(URI name, Configuration conf) throws IOException {
    super.initialize(name, conf);
    uri = URI.create(SCHEME + "://" + name.getAuthority());
  }

  @Override
  public URI getUri() {
    // RawLocalFileSystem's constructor asks before this class's fields are set
    return uri != null ? uri : URI.create(SCHEME + ":///");
  }

  @Override
  public String getScheme() {
    return SCHEME;
  }

  @Override
  public String getCanonicalServiceName() {
    return uri.getAuthority();
  }

  @Override
  public Token<?> getDelegationToken(String renewer) {
    return new Token<>(renewer.getBytes(StandardCharsets.UTF_8),
        "password".getBytes(StandardCharsets.UTF_8), KIND, new Text(uri.getAuthority()));
  }
}
