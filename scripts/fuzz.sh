#!/usr/bin/env bash
# Fuzzes fa-opt's passes with libFuzzer (clang-22, -fsanitize=fuzzer,address):
#   scripts/fuzz.sh [seconds]    (default 600)
# Builds build-fuzz/, seeds a corpus from every .mlir test (split at
# "// -----"), runs the harness tools/fa-fuzz for the given time on both
# cores, and prints the executions and the crashes found (saved as
# build-fuzz/crash-*).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=$root/build-fuzz
llvm=/usr/lib/llvm-22
seconds=${1:-600}


flags="-fsanitize=fuzzer-no-link,address -fno-omit-frame-pointer"
if [ ! -f "$build/build.ninja" ]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_C_COMPILER="$llvm/bin/clang" -DCMAKE_CXX_COMPILER="$llvm/bin/clang++" \
    -DCMAKE_C_FLAGS="$flags" -DCMAKE_CXX_FLAGS="$flags" \
    -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address" \
    -DCMAKE_SHARED_LINKER_FLAGS="-fsanitize=address" \
    -DCMAKE_MODULE_LINKER_FLAGS="-fsanitize=address" \
    -DFA_ENABLE_FUZZER=ON \
    -DMLIR_DIR="$llvm/lib/cmake/mlir" -DLLVM_EXTERNAL_LIT="$llvm/bin/lit" >/dev/null
fi
cmake --build "$build" --target fa-fuzz

corpus=$build/corpus
rm -rf "$corpus" && mkdir -p "$corpus"
n=0
# Expected failures (XFAIL) are known upstream crashes: as seeds they would
# stop every job at startup.
while IFS= read -r file; do
  python3 - "$file" "$corpus" "$n" <<'PY'
import sys
path, corpus, base = sys.argv[1], sys.argv[2], int(sys.argv[3])
parts = open(path).read().split("// -----")
for i, part in enumerate(parts):
    if len(part) <= 16384:
        open(f"{corpus}/{base:04d}-{i:02d}.mlir", "w").write(part)
PY
  n=$((n + 1))
done < <(find "$root/test" "$root/examples" -name '*.mlir' -not -path '*/Inputs/*' \
           -exec grep -L '^// XFAIL:' {} +)

cd "$build"
rm -f crash-* timeout-* oom-* fuzz-*.log
# allow_user_poisoning=0: see scripts/sanitize.sh.
ASAN_OPTIONS=detect_leaks=0:allow_user_poisoning=0 ./bin/fa-fuzz "$corpus" -max_total_time="$seconds" \
  -max_len=16384 -timeout=20 -rss_limit_mb=4096 -jobs=2 -workers=2 \
  -print_final_stats=1 > fuzz.log 2>&1 || true
# fuzz.log repeats the per-job logs, so only those are counted.
executed=$(grep -ho 'stat::number_of_executed_units: *[0-9]*' fuzz-*.log 2>/dev/null |
  awk '{ n += $2 } END { print n + 0 }')
# find, not ls: with no crash at all, ls fails and pipefail would stop here.
crashes=$(find . -maxdepth 1 \( -name 'crash-*' -o -name 'timeout-*' -o -name 'oom-*' \) | wc -l)
echo "fuzzed $seconds s on 2 workers: $executed executions, $crashes crashes/timeouts/ooms"
