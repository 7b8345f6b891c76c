#!/usr/bin/env bash
# Regenerates the dialect and pass reference pages in docs/reference/ from the
# ODS definitions (add_mlir_doc), so that they never drift from the code. The
# test suite fails while they differ (test/docs-up-to-date.test).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${FA_BUILD_DIR:-$root/build}
cmake --build "$build" --target mlir-doc
cp "$build/docs/Dialects/FADialect.md" "$root/docs/reference/FADialect.md"
cp "$build/docs/FAPasses.md" "$root/docs/reference/FAPasses.md"
cp "$build/docs/FAPipelinePasses.md" "$root/docs/reference/FAPipelinePasses.md"
echo "updated docs/reference/"
