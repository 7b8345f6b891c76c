#!/usr/bin/env bash
# The main job on a bundled example: prints the IR after each stage of the
# compiler that exists today, then runs the result on the CPU and prints the
# numbers.
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

stage "fa-cpu-pipeline: LLVM dialect for mlir-runner"
lowered=$(mktemp --suffix=.mlir)
trap 'rm -f "$lowered"' EXIT
"$fa_opt" "$input" --fa-cpu-pipeline -o "$lowered"
cat "$lowered"

stage "mlir-runner: result"
"$llvm/bin/mlir-runner" "$lowered" -e main -entry-point-result=void \
  -shared-libs="$llvm/lib/libmlir_runner_utils.so,$llvm/lib/libmlir_c_runner_utils.so"
