#!/usr/bin/env bash
# Runs the randomized differential test over many seeds (20 programs each):
#   scripts/differential.sh 1:1001     (20000 programs)
#   scripts/differential.sh 1:101 sm_80,sm_90   (also the GPU kernels,
#                                   threads emulated on the CPU; by seed)
# Key tiles are capped at 4, 8 or 16 keys by seed (FA_MAX_BLOCK_KV=""
# selects tiles uncapped), so that most programs cross 3 key blocks.
#   scripts/differential.sh --backward 1:201   (200 backward programs, one
#                                   per seed: tiled vs reference and oracle)
#   scripts/differential.sh --backward-kernel 1:201   (200 backward programs
#                                   for the GPU kernels, one per seed: emulated
#                                   threads forward and in reverse vs
#                                   reference and oracle)
#   scripts/differential.sh --backward-hopper 1:501   (500 backward programs
#                                   for sm_90a's wgmma dK/dV kernel, one per
#                                   seed: emulated threads forward and in
#                                   reverse vs reference and oracle; misses
#                                   that the mma.sync kernels share are
#                                   reported as tolerance edges)
#   scripts/differential.sh --hopper 1:91      (1800 programs, head dims 64
#                                   and 128, through sm_90a's wgmma kernels:
#                                   TMA producer and cp.async; threads
#                                   forward and reversed)
#   scripts/differential.sh --joint 1:501      (500 joint forward + backward
#                                   graphs, one per seed: raised or refused as
#                                   drawn, raised vs as written)
# Prints one line per failing seed and a summary; see docs/Robustness.md.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${FA_BUILD_DIR:-$root/build}
if [ "${1:-}" = "--hopper" ]; then
  # sm_90a's wgmma kernels: head dims 64 and 128, f16/bf16, whole 64-row
  # warpgroups, threads forward and in reverse (docs/Robustness.md).
  exec python3 "$root/test/Differential/Inputs/random_attention.py" run \
    --seeds "${2:-1:91}" --count 20 --fa-opt "$build/bin/fa-opt" \
    --gpu-kernel sm_90a --head-dims 64,128 --warpgroup-tiles \
    --reversed-threads --max-block-kv 16
fi
if [ "${1:-}" = "--joint" ]; then
  exec python3 "$root/test/Differential/Inputs/random_joint_graph.py" run \
    --seeds "${2:-1:101}" --fa-opt "$build/bin/fa-opt"
fi
if [ "${1:-}" = "--backward-kernel" ]; then
  exec python3 "$root/test/Differential/Inputs/random_backward.py" run \
    --gpu-kernel --seeds "${2:-1:101}" --fa-opt "$build/bin/fa-opt"
fi
if [ "${1:-}" = "--backward-hopper" ]; then
  exec python3 "$root/test/Differential/Inputs/random_backward.py" run \
    --hopper --seeds "${2:-1:101}" --fa-opt "$build/bin/fa-opt"
fi
if [ "${1:-}" = "--backward" ]; then
  exec python3 "$root/test/Differential/Inputs/random_backward.py" run \
    --seeds "${2:-1:101}" --fa-opt "$build/bin/fa-opt"
fi
exec python3 "$root/test/Differential/Inputs/random_attention.py" run \
  --seeds "${1:-1:101}" --count 20 --fa-opt "$build/bin/fa-opt" \
  --classes --max-block-kv "${FA_MAX_BLOCK_KV-4,8,16}" ${2:+--gpu-kernel "$2"}
