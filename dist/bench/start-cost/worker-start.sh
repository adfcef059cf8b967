#!/usr/bin/env bash
# What a resident Java worker's start costs (docs/performance.md, section 3): CPU seconds
# (user + sys, getrusage of the child) of `SgdJob worker` running the one task of its
# environment without a task channel, with a container's classpath (the Hare jar, picocli, a
# conf directory, then the other jars of target/lib). Variants are interleaved; prints medians.
#   dist/bench/start-cost/worker-start.sh REPS 'LABEL|JAR|JVM OPTIONS' ...
# e.g. worker-start.sh 9 "now|target/hare-yarn.jar|-XX:TieredStopAtLevel=1 -XX:-UsePerfData"
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
reps=$1; shift
tmp=$(mktemp -d)
mkdir -p "$tmp/conf"
echo "log4j.rootLogger=WARN" > "$tmp/conf/log4j.properties"
picocli=$(ls "$root"/target/lib/picocli-*.jar)
rest=$(ls "$root"/target/lib/*.jar | grep -v picocli | tr '\n' ':')
java -cp "$root/target/hare-yarn.jar:$picocli" io.hare.example.SgdJob init --work-dir "$tmp/work" >/dev/null
python3 - "$reps" "$tmp" "$picocli" "$rest" "$@" <<'PY'
import os, resource, statistics, subprocess, sys
reps, tmp, picocli, rest = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
variants = [v.split("|", 2) for v in sys.argv[5:]]
env = {"PATH": os.environ["PATH"], "HARE_JOB_ID": "application_1_0001", "HARE_ROUND": "0",
       "HARE_TASK_INDEX": "0", "HARE_TASKS_PER_ROUND": "2", "HARE_WORK_DIR": tmp + "/work",
       "HARE_GPU_TYPE": "v100"}
cpu = {label: [] for label, _, _ in variants}
for _ in range(reps):
    for label, jar, opts in variants:
        cmd = ["java", "-Xmx128m"] + opts.split() + [
            "-cp", ":".join([jar, picocli, tmp + "/conf", rest]),
            "io.hare.example.SgdJob", "worker", "--work-dir", tmp + "/work", "--gpu-ms", "0"]
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       check=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu[label].append(round(after.ru_utime - before.ru_utime
                                + after.ru_stime - before.ru_stime, 3))
for label, v in cpu.items():
    print(label, "median", statistics.median(v), sorted(v))
PY
rm -rf "$tmp"
