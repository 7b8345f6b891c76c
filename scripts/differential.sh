#!/usr/bin/env bash
# Runs the randomized differential test over many seeds (20 programs each):
#   scripts/differential.sh 1:1001     (20000 programs)
#   scripts/differential.sh 1:101 sm_90   (also the GPU kernel, threads
#                                           emulated on the CPU)
# Prints one line per failing seed and a summary; see docs/Robustness.md.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${FA_BUILD_DIR:-$root/build}
exec python3 "$root/test/Differential/Inputs/random_attention.py" run \
  --seeds "${1:-1:101}" --count 20 --fa-opt "$build/bin/fa-opt" \
  --classes ${2:+--gpu-kernel "$2"}
