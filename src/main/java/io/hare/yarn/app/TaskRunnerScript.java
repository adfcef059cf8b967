package io.hare.yarn.app;

import io.hare.worker.ResidentWorker;

/**
 * The command of a warm task container: bash that runs the job's task command, then, if the
 * container knows its ApplicationMaster's task channel ({@code HARE_RUNNER_HOST},
 * {@code HARE_RUNNER_PORT}) and holds its key, reports each task's exit code to it and runs the
 * next task it is given ({@code HARE_ROUND} and {@code HARE_TASK_INDEX} change, and
 * {@code HARE_GPU_DEVICE} and {@code CUDA_VISIBLE_DEVICES} when the AM names a device; everything
 * else is the container's), until told to exit. So consecutive tasks of one job on one GPU cost a line
 * over a socket instead of a container launch. Protocol: {@link RunnerServer} and
 * {@code docs/task-channel.md}.
 *
 * <p>The runner connects when its container starts, while the container's first task runs, so
 * that the handshake costs the GPU no time. The key is the container's own ({@link
 * ChannelKeys}): the runner finds it in the container's credentials file
 * ({@code HADOOP_TOKEN_FILE_LOCATION}, made readable by its owner only) and keeps it in a local
 * shell variable, so no environment, command line or log holds it. It answers the server's
 * challenge with HMAC-SHA256 computed in bash over {@code sha256sum} (coreutils), so that the
 * key is never an argument of another process.
 *
 * <p>A standby container ({@value #STANDBY} set and not empty: the scheduler pre-launched it,
 * without its GPU, for the job next in line for one) runs no first task: it connects at once,
 * says {@code ready} instead of {@code done}, and waits for the AM to hand it a task once the
 * scheduler has given it the GPU. Its tasks do not see {@value #STANDBY}. A runner told
 * {@code park} after a task becomes such a standby: it says {@code ready} and waits.
 *
 * <p>Exit status: the first task's own when the channel cannot be used (no address, no key, no
 * connection, or the AM refused the handshake: the AM then reads the container's end as the
 * task's result, as for a one-task container; the reason is on stderr); for a standby, 0 then
 * (it ran nothing); when the AM said exit, the status of the last task it ran (0 for a standby
 * that ran none): the AM has every result, but the scheduler reads a container that ends with
 * 0 as a computed task, so a runner whose last task failed must not end with 0, or the scheduler
 * would count that task and again its retry; {@value #LOST} when, after
 * the handshake, the connection broke or the AM refused a report (the AM then counts the task
 * it gave last as failed and runs it again).
 */
final class TaskRunnerScript {

  /** Exit status of a runner that lost its AM with a result or a task not delivered. */
  static final int LOST = ResidentWorker.LOST;
  /** The variable that makes a runner a standby. */
  static final String STANDBY = ResidentWorker.STANDBY;
  /** How long the runner waits for the server's greeting and its answer to hello. */
  static final int HANDSHAKE_READ_S = 60;

  private TaskRunnerScript() {}

  /** The bash script running {@code taskCommand} (a shell command line) as described above. */
  static String of(String taskCommand) {
    // a task gets no descriptor of the channel: it cannot speak for the runner, nor keep the
    // connection open after the runner ends
    String task = "bash -c " + TaskLaunch.quote(taskCommand) + " 3>&-";
    String tokens = "\"$HADOOP_TOKEN_FILE_LOCATION\"";
    String refused = "echo \"hare task runner: the task channel refused this container ($a);"
        + " it runs no further task\" >&2; return 1";
    // "say" is the runner's next line: "ready" for a standby, else the last task's "done ..."
    return "task() { " + task + "; }; "
        + hmac()
        + channel(tokens, refused)
        + "if [ -n \"${" + STANDBY + ":-}\" ]; then unset " + STANDBY + "; channel || exit 0; "
        + "say=ready; rc=0; "
        // the first task runs while the runner proves its container: the handshake costs no
        // GPU time
        + "else task & t=$!; channel; c=$?; wait $t; rc=$?; [ $c = 0 ] || exit $rc; "
        + "say=\"done ${HARE_ROUND:-} ${HARE_TASK_INDEX:-} $rc\"; fi; "
        + "while printf '%s\\n' \"$say\" >&3; do "
        + "IFS=' ' read -r verb round index device rest <&3 || exit " + LOST + "; "
        // told to exit, it ends with its last task's status: YARN's scheduler counts a container
        // that ends with 0 as a task computed
        + "case \"$verb\" in park) say=ready; continue;; exit) exit \"$rc\";; run) ;; *) "
        + "echo \"hare task runner: the task channel said: $verb $round $index $device $rest\" >&2; "
        + "exit " + LOST + ";; esac; "
        + "case \"$round\" in ''|*[!0-9]*) exit " + LOST + ";; esac; "
        + "case \"$index\" in ''|*[!0-9]*) exit " + LOST + ";; esac; "
        + "export HARE_ROUND=\"$round\" HARE_TASK_INDEX=\"$index\"; "
        + "case \"$device\" in '') ;; *[!0-9]*) exit " + LOST + ";; *) export HARE_GPU_DEVICE="
        + "\"$device\" CUDA_VISIBLE_DEVICES=\"$device\";; esac; "
        + "task; rc=$?; say=\"done $round $index $rc\"; "
        + "done; exit " + LOST;
  }

  /**
   * A bash function {@code channel}: connects to the task channel on descriptor 3 and proves the
   * container; fails, having said why on stderr, if the channel cannot be used.
   */
  private static String channel(String tokens, String refused) {
    return "channel() { local k a p; [ -n \"${HARE_RUNNER_PORT:-}\" ] || return 1; "
        // the credentials file holds other tokens too: the key is the one value of its pattern
        + "k=; if [ -r " + tokens + " ]; then chmod 600 " + tokens + " 2>/dev/null; "
        + "k=$(LC_ALL=C grep -aoE '" + ChannelKeys.VALUE_PREFIX + "[0-9a-f]{64}' " + tokens
        + " 2>/dev/null); fi; "
        + "k=${k%%$'\\n'*}; k=${k#" + ChannelKeys.VALUE_PREFIX + "}; "
        + "[ ${#k} = 64 ] || { echo 'hare task runner: no task channel key in the container"
        + " credentials; it runs no further task' >&2; return 1; }; "
        // the group keeps the shell's own stderr (the tasks') once the connection is open
        + "{ exec 3<>\"/dev/tcp/${HARE_RUNNER_HOST}/${HARE_RUNNER_PORT}\"; } 2>/dev/null "
        + "|| return 1; "
        + "a=; IFS= read -r -t " + HANDSHAKE_READ_S + " a <&3 || return 1; "
        + "case \"$a\" in '" + RunnerServer.MAGIC + " " + RunnerServer.VERSION + " '*) ;; *) "
        + refused + ";; esac; "
        + "p=$(hmac \"$k\" \"$a $CONTAINER_ID\") || return 1; "
        + "printf 'hello " + RunnerServer.VERSION + " %s %s\\n' \"$CONTAINER_ID\" \"$p\" >&3 "
        + "|| return 1; "
        + "a=; IFS= read -r -t " + HANDSHAKE_READ_S + " a <&3 || return 1; "
        + "[ \"$a\" = ok ] || { " + refused + "; }; }; ";
  }

  /**
   * A bash function {@code hmac KEY_HEX MESSAGE} printing hex HMAC-SHA256 (RFC 2104, a 64-byte
   * block) of MESSAGE under the 32 bytes KEY_HEX encodes. The padded keys are built with
   * bash's printf and piped to {@code sha256sum}: the key is no process's argument.
   */
  static String hmac() {
    return "hmac() { local i b x ip= op= h; "
        + "for ((i = 0; i < 128; i += 2)); do "
        + "if ((i < 64)); then b=$((16#${1:i:2})); else b=0; fi; "
        + "printf -v x '\\\\x%02x' $((b ^ 0x36)); ip+=$x; "
        + "printf -v x '\\\\x%02x' $((b ^ 0x5c)); op+=$x; done; "
        + "h=$({ printf \"$ip\"; printf '%s' \"$2\"; } | sha256sum) || return 1; h=${h%% *}; "
        + "[ ${#h} = 64 ] || return 1; x=; "
        + "for ((i = 0; i < 64; i += 2)); do x+=\"\\\\x${h:i:2}\"; done; "
        + "h=$({ printf \"$op\"; printf \"$x\"; } | sha256sum) || return 1; "
        + "printf '%s' \"${h%% *}\"; }; ";
  }
}
