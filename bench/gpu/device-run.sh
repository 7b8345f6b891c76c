#!/usr/bin/env bash
# Runs a benchmark pack (bench/gpu/pack.py) on a GPU machine in one go, each
# section in its own process under its own time limit, so that a kernel that
# faults (a sticky CUDA error ends the process's context) or hangs costs only
# its own section. Writes every log to OUT (default: the current folder).
#
#   bench/gpu/device-run.sh PACK [OUT]
#
# PACK is pack.py's output folder; the launcher is rebuilt there from
# bench/gpu/fa_launch.c when the one built with the pack does not load.
set -u
PACK=$1
OUT=${2:-.}
HERE=$(cd "$(dirname "$0")" && pwd)
export PYTHONUNBUFFERED=1
mkdir -p "$OUT"
{
  date -u
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,memory.total --format=csv
  python3 -c "import torch; print('torch', torch.__version__, torch.version.cuda)"
} 2>&1 | tee "$OUT/machine.txt"

if ! python3 -c "import ctypes, sys; ctypes.CDLL(sys.argv[1])" "$PACK/libfa_launch.so" 2>/dev/null; then
  echo "rebuilding the launcher on this machine" | tee -a "$OUT/machine.txt"
  CUDA=${CUDA:-/usr/local/cuda}
  cc -O2 -shared -fPIC -I"$CUDA/include" "$HERE/fa_launch.c" -o "$PACK/libfa_launch.so" \
    -L"$CUDA/lib64/stubs" -lcuda 2>&1 | tee -a "$OUT/machine.txt"
fi

names() {
  python3 - "$PACK/manifest.json" "$1" <<'PY'
import json, sys
manifest = json.load(open(sys.argv[1]))
section, pattern = sys.argv[2].split(":")
print(",".join(c["name"] for c in manifest.get(section, [])
               if (pattern == "smem") == c["name"].endswith("_smem")))
PY
}

status=0
run_section() {  # name, seconds, manifest section:kind
  local only
  only=$(names "$3")
  [ -n "$only" ] || return 0
  echo "== $1 ($only)"
  timeout "$2" python3 "$PACK/run.py" --only "$only" 2>&1 | tee "$OUT/$1.md"
  local rc=${PIPESTATUS[0]}
  echo "== $1: exit $rc" | tee -a "$OUT/$1.md"
  [ "$rc" = 0 ] || status=1
}
run_section forward 240 kernels:registers
run_section decode 60 decode:any
run_section backward 120 backward:any
run_section forward-smem 90 kernels:smem
exit $status
