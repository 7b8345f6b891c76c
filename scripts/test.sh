#!/usr/bin/env bash
# Runs the whole test suite (lit: FileCheck, -verify-diagnostics,
# mlir-runner numerics, and the GoogleTest unit tests) on an existing build and ends with the line
# `N passed, M failed` that CI reads.
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${FA_BUILD_DIR:-$root/build}
lit=/usr/lib/llvm-22/bin/lit

log=$(mktemp)
trap 'rm -f "$log"' EXIT
filter=()
if [ -n "${FA_LIT_FILTER_OUT:-}" ]; then
  filter=(--filter-out "$FA_LIT_FILTER_OUT")
fi
# --time-tests: the log ends with the slowest tests, which the per-test time
# limit (test/time_limit.py, FA_TEST_TIMEOUT) must stay well above.
"$lit" -sv --time-tests "${filter[@]}" "$build/test" "$build/unittests" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}

# lit prints "Passed: N" / "Failed: N" (and other outcomes) in its summary.
count() {
  sed -nE "s/^ *($1) *: *([0-9]+).*/\2/p" "$log" | awk '{ n += $1 } END { print n + 0 }'
}
passed=$(count "Passed")
failed=$(count "Failed|Unresolved|Timed Out|Unexpectedly Passed")
if [ "$status" -ne 0 ] && [ "$failed" -eq 0 ]; then
  failed=1 # lit itself failed (no tests found, bad config, ...)
fi
echo "${passed:-0} passed, $failed failed"
[ "$failed" -eq 0 ]
