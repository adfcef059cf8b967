package io.hare.yarn.app;

import io.hare.yarn.app.tokens.TokenRefresher;
import java.io.File;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.function.IntConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the sync command as a local process in the AM's container ({@code bash -c COMMAND}, in
 * the container's working directory, so it sees the same localized files as the tasks), with
 * the {@link TaskEnv} variables of the round and stdout and stderr in
 * {@code LOGDIR/sync-round-R.log}. The process runs on the given executor; a process that cannot
 * start exits with {@link #START_FAILED}.
 *
 * <p>Why in the AM rather than in a container: the sync step is short, CPU-only and gates the
 * next round; asking the scheduler for one more container would add an allocation round trip to
 * every barrier, and a GPU container would take a GPU from other jobs for CPU work.
 */
public final class ProcessSyncStep implements SyncStep {

  static final int START_FAILED = -1;
  private static final Logger LOG = LoggerFactory.getLogger(ProcessSyncStep.class);

  private final HareJobSpec spec;
  private final String jobId;
  private final String workDir;
  private final File logDir;
  private final ExecutorService executor;
  private final TokenRefresher tokens;

  public ProcessSyncStep(HareJobSpec spec, String jobId, String workDir, File logDir,
      ExecutorService executor) {
    this(spec, jobId, workDir, logDir, executor, TokenRefresher.NONE);
  }

  /** @param tokens the AM's refreshed tokens, which each process is pointed at */
  public ProcessSyncStep(HareJobSpec spec, String jobId, String workDir, File logDir,
      ExecutorService executor, TokenRefresher tokens) {
    this.tokens = tokens;
    this.spec = spec;
    this.jobId = jobId;
    this.workDir = workDir;
    this.logDir = logDir;
    this.executor = executor;
  }

  @Override
  public void start(int round, IntConsumer onExit) {
    executor.execute(() -> onExit.accept(run(round)));
  }

  @Override
  public String logLocation(int round) {
    return log(round).getPath();
  }

  private File log(int round) {
    return new File(logDir, "sync-round-" + round + ".log");
  }

  private int run(int round) {
    ProcessBuilder pb = new ProcessBuilder(List.of("bash", "-c", spec.syncCommand()));
    pb.environment().putAll(TaskEnv.forSync(spec, jobId, workDir, round));
    pb.environment().putAll(tokens.childEnv()); // the container's token file may have expired
    pb.redirectErrorStream(true);
    pb.redirectOutput(log(round));
    try {
      int code = pb.start().waitFor();
      LOG.info("{}: sync step of round {} exited with {}", jobId, round, code);
      return code;
    } catch (IOException e) {
      LOG.error("{}: sync step of round {} could not start", jobId, round, e);
      return START_FAILED;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return START_FAILED;
    }
  }
}
