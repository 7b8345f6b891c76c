#!/usr/bin/env bash
# Writes what fa-opt emits for the examples, the realistic blocks and the
# backward kernels' inputs through each pipeline (IR, PTX, diagnostics and exit
# status) into one folder, so that a refactor can be checked byte for byte:
#   scripts/output-snapshot.sh /tmp/before      (on the old commit)
#   scripts/output-snapshot.sh /tmp/after       (on the new one)
#   diff -r /tmp/before /tmp/after
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${FA_BUILD_DIR:-$root/build}
out=${1:?usage: output-snapshot.sh OUTPUT_FOLDER}
mkdir -p "$out"

pipelines=(
  "raise|--fa-raise-attention=explain=true"
  "tiles|--fa-raise-attention --fa-select-tiles=target=sm_80 --fa-tile-attention"
  "cpu|--fa-cpu-pipeline"
  "cpu-kernel-sm80|--fa-cpu-pipeline=gpu-kernel=sm_80"
  "distribute-sm90|--fa-raise-attention --fa-select-tiles=target=sm_90 --fa-distribute-attention --fa-distribute-attention-backward"
  "ptx-sm80|'--fa-gpu-pipeline=chip=sm_80 format=isa'"
  "ptx-sm90|'--fa-gpu-pipeline=chip=sm_90 format=isa'"
)

inputs=("$root"/examples/*.mlir "$root"/test/Integration/Blocks/*.mlir
        "$root"/test/Integration/Backward/gpu-kernel-*.mlir "$root"/test/GPU/backward.mlir)

jobs=()
for input in "${inputs[@]}"; do
  for entry in "${pipelines[@]}"; do
    jobs+=("$input|$entry")
  done
done

run_one() {
  local input=${1%%|*} rest=${1#*|}
  local name=${rest%%|*} flags=${rest#*|}
  local base
  base=$(basename "$input" .mlir).$name
  # The realistic blocks call input generators kept in one shared file.
  local source=$input
  if [[ $input == */Blocks/* ]]; then
    source=$(mktemp --suffix=.mlir)
    cat "$input" "$(dirname "$input")/Inputs/runtime.mlir" >"$source"
  fi
  eval "\"\$build/bin/fa-opt\" \"\$source\" $flags" >"$out/$base.out" 2>"$out/$base.err"
  echo "exit $?" >>"$out/$base.err"
  # The serializer records how long LLVM took; that is not output.
  sed -i -E 's/LLVMIRToISATimeInMs = [0-9]+/LLVMIRToISATimeInMs = N/g' "$out/$base.out"
  if [[ $source != "$input" ]]; then
    sed -i "s|$source|$input|g" "$out/$base.out" "$out/$base.err"
    rm -f "$source"
  fi
}
export -f run_one
export build out
printf '%s\n' "${jobs[@]}" | xargs -d '\n' -P "$(nproc)" -I{} bash -c 'run_one "$@"' _ {}
echo "$(ls "$out" | wc -l) files in $out"
