#!/usr/bin/env bash
# Sets up a fresh Debian 12 machine for fa-opt and builds it: installs the
# packages it needs from Debian's registry when they are missing, then
# configures and builds into build/. Safe to run again: it only does what is
# missing and rebuilds incrementally.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${FA_BUILD_DIR:-$root/build}
llvm=/usr/lib/llvm-22

# python3-psutil: lit needs it to enforce the per-test time limit
# (test/time_limit.py).
packages=(cmake ninja-build g++ python3 python3-psutil libgtest-dev
          llvm-22-dev llvm-22-tools libmlir-22-dev mlir-22-tools)
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "ok installed" ||
    missing+=("$package")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  sudo=
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
    "${missing[@]}" >/dev/null
fi

if [ ! -f "$build/build.ninja" ]; then
  cmake -S "$root" -B "$build" -G Ninja \
    -DCMAKE_BUILD_TYPE=Release \
    -DMLIR_DIR="$llvm/lib/cmake/mlir" \
    -DLLVM_EXTERNAL_LIT="$llvm/bin/lit"
fi
cmake --build "$build"
