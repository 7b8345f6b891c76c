#!/usr/bin/env bash
# The main job on a bundled example: prints the IR after each stage of the
# compiler, the GPU kernel and its PTX for sm_90 (with ptxas's resources when
# ptxas is there), then runs the CPU lowering and prints the numbers.
#   scripts/run-example.sh [input.mlir]   (default: examples/llama-causal-gqa-tosa.mlir)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${FA_BUILD_DIR:-$root/build}
llvm=/usr/lib/llvm-22
input=${1:-$root/examples/llama-causal-gqa-tosa.mlir}
fa_opt=$build/bin/fa-opt

stage() { printf '\n==== %s ====\n' "$1"; }

stage "input: $(realpath --relative-to="$PWD" "$input")"
cat "$input"

stage "fa-raise-attention: attention found and rewritten to fa.attention"
"$fa_opt" "$input" --fa-raise-attention=explain=true

stage "fa-select-tiles (host): tile sizes from this machine's cache, with the report"
"$fa_opt" "$input" --fa-raise-attention --fa-select-tiles="target=host report=-"

stage "fa-tile-attention: the fused loop nest with online softmax"
"$fa_opt" "$input" --fa-raise-attention --fa-select-tiles=target=host \
  --fa-tile-attention --canonicalize

stage "fa-distribute-attention (sm_90 tiles): the GPU kernel, blocks and threads as scf.forall"
"$fa_opt" "$input" --fa-raise-attention --fa-select-tiles=target=sm_90 \
  --fa-distribute-attention --canonicalize

stage "fa-gpu-pipeline: PTX for sm_90 (the kernel's entry), and ptxas's resources"
ptx=$(mktemp --suffix=.ptx)
compiled=$(mktemp --suffix=.mlir)
trap 'rm -f "$ptx" "$compiled"' EXIT
"$fa_opt" "$input" --fa-gpu-pipeline="chip=sm_90 format=isa" -o "$compiled"
grep -o 'gpu.launch_func.*' "$compiled"
python3 - "$compiled" "$ptx" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
match = re.search(r'#gpu\.object<#nvvm\.target<[^>]*>[^"]*"((?:[^"\\]|\\.)*)"', text, re.S)
ptx = re.sub(r"\\([0-9A-Fa-f]{2})", lambda m: chr(int(m.group(1), 16)), match.group(1))
open(sys.argv[2], "w").write(ptx)
entry = ptx[ptx.find(".visible .entry"):]
print("\n".join(entry.splitlines()[:10]))
PY
ptxas=$(command -v ptxas || echo /usr/local/cuda/bin/ptxas)
if [ -x "$ptxas" ]; then
  "$ptxas" -v -arch=sm_90 "$ptx" -o /dev/null 2>&1 | grep -E 'registers|spill'
else
  echo "(ptxas not found: no resource check)"
fi

stage "fa-cpu-pipeline: LLVM dialect for mlir-runner"
lowered=$(mktemp --suffix=.mlir)
trap 'rm -f "$lowered" "$ptx" "$compiled"' EXIT
"$fa_opt" "$input" --fa-cpu-pipeline -o "$lowered"
cat "$lowered"

stage "mlir-runner: result"
"$llvm/bin/mlir-runner" "$lowered" -e main -entry-point-result=void \
  -shared-libs="$llvm/lib/libmlir_runner_utils.so,$llvm/lib/libmlir_c_runner_utils.so"
