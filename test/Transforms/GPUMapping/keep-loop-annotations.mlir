// fa-keep-loop-annotations: convert-scf-to-cf leaves an scf.for's
// llvm.loop_annotation on the loop's back edge as a discardable attribute,
// which the translation to LLVM IR does not read; the pass makes it the
// branch's own loop_annotation (the !llvm.loop the NVPTX backend turns into
// `.pragma "nounroll"`: test/GPU/tma-producer.test). Branches without one
// are left alone.
// RUN: fa-opt %s --pass-pipeline="builtin.module(gpu.module(fa-keep-loop-annotations))" | FileCheck %s

// CHECK: #[[UNROLL:.*]] = #llvm.loop_unroll<disable = true>
// CHECK: #[[ROLLED:.*]] = #llvm.loop_annotation<unroll = #[[UNROLL]]>
// CHECK-LABEL: llvm.func @boxes
// CHECK: llvm.br ^bb1(%{{.*}} : i64){{$}}
// CHECK: llvm.br ^bb1(%{{.*}} : i64) {loop_annotation = #[[ROLLED]]}
// CHECK-NOT: llvm.loop_annotation
#rolled = #llvm.loop_annotation<unroll = <disable = true>>
gpu.module @kernels {
  llvm.func @boxes(%n: i64, %p: !llvm.ptr) {
    %c0 = llvm.mlir.constant(0 : i64) : i64
    %c1 = llvm.mlir.constant(1 : i64) : i64
    %x = llvm.mlir.constant(2 : i32) : i32
    llvm.br ^bb1(%c0 : i64)
  ^bb1(%i: i64):
    %more = llvm.icmp "slt" %i, %n : i64
    llvm.cond_br %more, ^bb2, ^bb3
  ^bb2:
    %at = llvm.getelementptr %p[%i] : (!llvm.ptr, i64) -> !llvm.ptr, i32
    llvm.store %x, %at : i32, !llvm.ptr
    %next = llvm.add %i, %c1 : i64
    llvm.br ^bb1(%next : i64) {llvm.loop_annotation = #rolled}
  ^bb3:
    llvm.return
  }
}
