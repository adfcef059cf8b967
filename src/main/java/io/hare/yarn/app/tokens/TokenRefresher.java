package io.hare.yarn.app.tokens;

import java.util.Map;

/**
 * Keeps an ApplicationMaster's delegation tokens alive past their maximum lifetime by getting new
 * ones before the old ones expire ({@link KeytabTokenRefresher}, when the job gives a principal
 * and keytab). Each refresh starts a new <em>generation</em> of tokens: containers launched
 * before it carry the old ones, which die at their own expiry, so the AM gives such a container
 * no further task ({@code RoundProtocol} retires it at its task boundary).
 *
 * <p>{@link #NONE}, for jobs without a keytab, never refreshes: generation 0 for ever, the
 * tokens the client got and the ResourceManager renews until their maximum lifetime.
 */
public interface TokenRefresher extends AutoCloseable {

  /** Refreshes nothing: the job lives with the client's tokens. */
  TokenRefresher NONE = new TokenRefresher() {
    @Override
    public void start(Runnable afterRefresh) {}

    @Override
    public long generation() {
      return 0;
    }

    @Override
    public Map<String, String> childEnv() {
      return Map.of();
    }

    @Override
    public void close() {}
  };

  /**
   * Starts refreshing on the refresher's own thread; {@code afterRefresh} runs there after each
   * refresh whose tokens are installed. Called once.
   */
  void start(Runnable afterRefresh);

  /** 0 as the AM started; one more after each refresh. Read from any thread. */
  long generation();

  /**
   * The environment that points a process the AM starts (the sync step) at the current tokens: a
   * token file's path, as YARN does for a container, never a secret. Empty while the tokens the
   * AM started with are current (the process inherits the container's own file).
   */
  Map<String, String> childEnv();

  /** Stops refreshing; a refresh under way may finish. */
  @Override
  void close();
}
