#!/usr/bin/env bash
# Builds fa-opt with AddressSanitizer and UndefinedBehaviorSanitizer
# (clang-22 from Debian) into build-asan/ and runs the whole lit suite with
# it; any sanitizer report fails the test that triggered it. Ends with the
# line `N passed, M failed`. Installs clang-22 and its runtimes if missing.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${FA_ASAN_BUILD_DIR:-$root/build-asan}
llvm=/usr/lib/llvm-22

missing=()
for package in clang-22 libclang-rt-22-dev; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "ok installed" ||
    missing+=("$package")
done
if ((${#missing[@]})); then
  sudo=
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
    "${missing[@]}" >/dev/null
fi

# vptr checks need RTTI, which LLVM and MLIR are built without.
flags="-fsanitize=address,undefined -fno-sanitize=vptr -fno-sanitize-recover=all -fno-omit-frame-pointer"
if [ ! -f "$build/build.ninja" ]; then
  cmake -S "$root" -B "$build" -G Ninja \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_C_COMPILER="$llvm/bin/clang" -DCMAKE_CXX_COMPILER="$llvm/bin/clang++" \
    -DCMAKE_C_FLAGS="$flags" -DCMAKE_CXX_FLAGS="$flags" \
    -DCMAKE_EXE_LINKER_FLAGS="$flags" -DCMAKE_SHARED_LINKER_FLAGS="$flags" \
    -DCMAKE_MODULE_LINKER_FLAGS="$flags" \
    -DMLIR_DIR="$llvm/lib/cmake/mlir" -DLLVM_EXTERNAL_LIT="$llvm/bin/lit"
fi
cmake --build "$build"
# Libraries the sanitized tools load but were not built with it (libMLIR)
# are fine; the plugin is skipped: loading an ASan-built library into
# Debian's uninstrumented mlir-opt needs the runtime preloaded.
# allow_user_poisoning=0: LLVM's BumpPtrAllocator poisons slabs in our
# instrumented code, and libMLIR (not instrumented) allocates from them
# without unpoisoning: false reports, not bugs.
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:allow_user_poisoning=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# The random backward-kernel programs, the random programs through
# sm_90a's Hopper kernels, and the sampled sweeps (Sweep/, the Hopper
# lengths: the same pipelines over many shapes) are left to the plain run
# (CI's time): under the sanitizers the same passes run on the hand-made
# kernel cases and the Hopper sweeps.
# The sanitized tools run slower: a longer per-test time
# limit (test/time_limit.py) than the plain run's 600 s.
export FA_TEST_TIMEOUT=${FA_TEST_TIMEOUT:-1200}
FA_BUILD_DIR="$build" FA_LIT_FILTER_OUT='Plugin|downstream-package|random-backward-kernel|random-backward-hopper|random-programs-hopper|Sweep/|hopper-lengths' \
  exec "$root/scripts/test.sh"
