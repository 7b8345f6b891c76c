// A plugin built for another MLIR plugin API (libFAMismatchedPlugin.so, a
// test-only stand-in for libFAPlugin.so from another LLVM) is refused by
// upstream mlir-opt with one line naming the file, and the fa IR or pass
// that needed it then fails: a non-zero exit, never a crash or a silent run.
// RUN: not mlir-opt %s --load-dialect-plugin=%fa_plugin --load-pass-plugin=%fa_mismatched_plugin \
// RUN:   --pass-pipeline="builtin.module(fa-select-tiles)" 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: not mlir-opt %s --load-dialect-plugin=%fa_mismatched_plugin 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DIALECT

// PASS: Failed to load passes from '{{.*}}libFAMismatchedPlugin.so'. Request ignored.
// PASS: 'fa-select-tiles' does not refer to a registered pass or pass pipeline
// DIALECT: Failed to load dialect plugin from '{{.*}}libFAMismatchedPlugin.so'. Request ignored.
// DIALECT: error: Dialect `fa' not found for custom op 'fa.attention'

func.func @attention(%q: tensor<1x1x4x2xf32>) -> tensor<1x1x4x2xf32> {
  %o = fa.attention %q, %q, %q scale = 0.5
      : tensor<1x1x4x2xf32>, tensor<1x1x4x2xf32>, tensor<1x1x4x2xf32>
      -> tensor<1x1x4x2xf32>
  return %o : tensor<1x1x4x2xf32>
}
