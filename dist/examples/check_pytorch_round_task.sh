#!/usr/bin/env bash
# Smoke test of pytorch_round_task.py on one GPU machine with PyTorch (not run in CI; about a
# minute on an H200): init, 4 rounds of 3 tasks (out of order) and a sync each, the loss log, a
# retried task compared with its first run, two refused inputs (exit 2), and one ResNet-18 round
# when torchvision is there. Usage: dist/examples/check_pytorch_round_task.sh
nvidia-smi -L
OUT=${OUT:-$(mktemp -d)}
PY=python3
$PY -c "import torch; print('torch', torch.__version__, 'cuda', torch.cuda.is_available())" || {
  for c in python python3.10 python3.11 python3.12 /opt/conda/bin/python; do
    command -v $c >/dev/null && $c -c "import torch" 2>/dev/null && { PY=$c; break; }; done
  $PY -c "import torch" || { echo "NO TORCH"; pip list 2>/dev/null | head -50; exit 3; }
}
P="$(dirname "$0")/pytorch_round_task.py"
W=$(mktemp -d)/w
t0=$(date +%s)
$PY $P --init --work-dir $W || exit 1
for r in 0 1 2 3; do
  for i in 2 0 1; do
    HARE_ROUND=$r HARE_TASK_INDEX=$i HARE_TASKS_PER_ROUND=3 HARE_WORK_DIR=$W HARE_GPU_TYPE=h200 \
      $PY $P --deterministic || exit 1
  done
  HARE_ROUND=$r HARE_TASKS_PER_ROUND=3 HARE_WORK_DIR=$W $PY $P --sync --deterministic || exit 1
done
echo "elapsed $(( $(date +%s) - t0 )) s"; cat $W/loss.tsv; cp $W/loss.tsv $OUT/
cp $W/grad-r3-t1.pt $W/before.pt
HARE_ROUND=3 HARE_TASK_INDEX=1 HARE_TASKS_PER_ROUND=3 HARE_WORK_DIR=$W $PY $P --deterministic
$PY - "$W" <<'PYEOF'
import sys, torch
a = torch.load(sys.argv[1] + "/before.pt"); b = torch.load(sys.argv[1] + "/grad-r3-t1.pt")
print("retry identical:", all(torch.equal(x, y) for x, y in zip(a["grads"], b["grads"])), a["loss"] == b["loss"])
PYEOF
cmp $W/before.pt $W/grad-r3-t1.pt && echo "retry bytes identical"
echo "--- bad env:"; HARE_ROUND=0 HARE_TASK_INDEX=3 HARE_TASKS_PER_ROUND=3 HARE_WORK_DIR=$W $PY $P; echo "rc=$?"
rm $W/grad-r3-t2.pt; HARE_ROUND=3 HARE_TASKS_PER_ROUND=3 HARE_WORK_DIR=$W $PY $P --sync; echo "rc=$?"
if $PY -c "import torchvision" 2>/dev/null; then
  W2=$(mktemp -d)/w; $PY $P --init --work-dir $W2 --model resnet18 &&
  HARE_ROUND=0 HARE_TASK_INDEX=0 HARE_TASKS_PER_ROUND=2 HARE_WORK_DIR=$W2 $PY $P --model resnet18 &&
  HARE_ROUND=0 HARE_TASK_INDEX=1 HARE_TASKS_PER_ROUND=2 HARE_WORK_DIR=$W2 $PY $P --model resnet18 &&
  HARE_ROUND=0 HARE_TASKS_PER_ROUND=2 HARE_WORK_DIR=$W2 $PY $P --model resnet18 --sync; echo "resnet rc=$?"
else echo "no torchvision"; fi
