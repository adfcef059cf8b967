#!/usr/bin/env bash
# Prints this node's GPU model, and whether YARN isolates its GPUs per container, as YARN node
# attributes, for a NodeManager's attribute script:
#
#   NODE_ATTRIBUTE:gpu-model,STRING,v100
#   NODE_ATTRIBUTE:gpu-isolation,STRING,false
#
# Use it with YARN's own script provider (yarn-site.xml on the NodeManager):
#   yarn.nodemanager.node-attributes.provider                = script
#   yarn.nodemanager.node-attributes.provider.script.path    = /opt/hare/sbin/hare-gpu-model.sh
# or with Hare's provider io.hare.yarn.nodes.GpuModelAttributesProvider
# (yarn.nodemanager.hare.gpu-model.script-path). The RM sees it as nm.yarn.io/gpu-model.
#
# It asks `nvidia-smi --query-gpu=name --format=csv,noheader` (one line per GPU) and normalises
# each name to a short model:
#   1. lower-case; drop the brand words nvidia, tesla, geforce, quadro;
#   2. keep the words up to and including the first that contains a digit, and cut that word at
#      its first '-' (board and memory suffixes such as -SXM2-16GB or -PCIE-40GB go);
#   3. join the kept words with '-'; keep only a-z, 0-9, '-' and '_'.
#   "Tesla V100-SXM2-16GB" -> v100, "NVIDIA A100-SXM4-40GB" -> a100, "Tesla T4" -> t4,
#   "NVIDIA H100 80GB HBM3" -> h100, "NVIDIA GeForce RTX 3090" -> rtx-3090,
#   "NVIDIA RTX A6000" -> rtx-a6000.
# A node with several models reports the most common one (ties: alphabetically first) and warns
# on stderr. A node without nvidia-smi, or where it fails or lists no GPU, prints nothing and
# exits 1 (YARN then keeps the node's attributes as they were and logs the error).
#
# gpu-isolation is true when this NodeManager's yarn-site.xml lists yarn.io/gpu in
# yarn.nodemanager.resource-plugins and runs containers under the LinuxContainerExecutor (YARN's
# GPU plugin then assigns each container its devices at launch); false otherwise, and Hare assigns
# each GPU container a device (CUDA_VISIBLE_DEVICES). Standby and parked containers are used only
# on nodes where it is false.
#
# Environment: HARE_GPU_ATTRIBUTE  attribute name (default gpu-model; must match the RM's
#                                  yarn.scheduler.hare.gpu-type.attribute)
#              NVIDIA_SMI          the nvidia-smi to run (default: nvidia-smi on the PATH)
#              HARE_GPU_ISOLATION  true or false: gpu-isolation as given, yarn-site.xml unread
#              HADOOP_CONF_DIR     where yarn-site.xml is (default $HADOOP_HOME/etc/hadoop)
set -uo pipefail
set -f # GPU names are words, never globs

attribute="${HARE_GPU_ATTRIBUTE:-gpu-model}"
smi="${NVIDIA_SMI:-nvidia-smi}"

normalise() {
  local name word out="" found=""
  name="$(printf '%s' "$1" | tr '[:upper:]' '[:lower:]')"
  for word in $name; do
    case "$word" in
      nvidia|tesla|geforce|quadro) continue ;;
    esac
    if [[ "$word" == *[0-9]* ]]; then
      word="${word%%-*}"
      found=1
    fi
    out="${out:+$out-}$word"
    [ -n "$found" ] && break
  done
  printf '%s' "$out" | tr -cd 'a-z0-9_-'
}

if ! names="$("$smi" --query-gpu=name --format=csv,noheader 2>/dev/null)"; then
  echo "hare-gpu-model: '$smi --query-gpu=name --format=csv,noheader' failed or is missing" >&2
  exit 1
fi

models=""
while IFS= read -r line; do
  [ -z "${line//[[:space:]]/}" ] && continue
  m="$(normalise "$line")"
  [ -n "$m" ] && models+="$m"$'\n'
done <<< "$names"

if [ -z "$models" ]; then
  echo "hare-gpu-model: nvidia-smi listed no GPU" >&2
  exit 1
fi

counts="$(printf '%s' "$models" | sort | uniq -c | sort -k1,1nr -k2,2)"
model="$(printf '%s\n' "$counts" | head -n 1 | awk '{print $2}')"
if [ "$(printf '%s\n' "$counts" | wc -l)" -gt 1 ]; then
  echo "hare-gpu-model: mixed GPU models on this node ($(printf '%s\n' "$counts" \
    | awk '{printf "%s%s x%s", sep, $2, $1; sep=", "}')); reporting the most common, $model" >&2
fi
echo "NODE_ATTRIBUTE:${attribute},STRING,${model}"

# the value of property $1 in yarn-site.xml $2 (empty if unset): enough XML for Hadoop's own files
property() {
  tr -d '\n\r' < "$2" | grep -o "<name>[[:space:]]*$1[[:space:]]*</name>[[:space:]]*<value>[^<]*" \
    | head -n 1 | sed 's/.*<value>//'
}

isolation="${HARE_GPU_ISOLATION:-}"
if [ -n "$isolation" ] && [ "$isolation" != true ] && [ "$isolation" != false ]; then
  echo "hare-gpu-model: HARE_GPU_ISOLATION must be true or false, got '$isolation'" >&2
  exit 1
elif [ -z "$isolation" ]; then
  isolation=false
  site="${HADOOP_CONF_DIR:-${HADOOP_HOME:-/nonexistent}/etc/hadoop}/yarn-site.xml"
  plugins="$(property 'yarn\.nodemanager\.resource-plugins' "$site" 2>/dev/null | tr -d ' ')"
  if [ -r "$site" ] && [[ ",$plugins," == *,yarn.io/gpu,* ]] \
      && [[ "$(property 'yarn\.nodemanager\.container-executor\.class' "$site" | tr -d ' ')" \
        == *.LinuxContainerExecutor ]]; then
    isolation=true
  fi
fi
echo "NODE_ATTRIBUTE:gpu-isolation,STRING,${isolation}"
