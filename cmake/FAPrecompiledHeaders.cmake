# Precompiled MLIR headers for every fa library.
#
# Why: almost every source includes fa/Transforms/Passes.h, which pulls in a
# dozen dialects' generated op classes. Parsing those headers is most of a
# compile (a 79-line pass: 29 s of g++'s 45 s on two cores), and CI builds the
# project twice (plain and sanitized) on a fresh clone. Each library compiles
# the headers below once and every source of it reuses them.
#
# Only external (LLVM/MLIR) headers go in: they never change during
# development, so a precompiled header never forces a rebuild that the
# sources' own includes would not. Sources still include what they use;
# turn this off (-DFA_PRECOMPILED_HEADERS=OFF) to check that they do.
option(FA_PRECOMPILED_HEADERS "Precompile the MLIR headers fa's libraries share" ON)

set(FA_PRECOMPILED_HEADER_LIST
  <llvm/ADT/DenseMap.h>
  <llvm/ADT/STLExtras.h>
  <llvm/ADT/SmallVector.h>
  <llvm/ADT/TypeSwitch.h>
  <llvm/Support/FormatVariadic.h>
  <llvm/Support/raw_ostream.h>
  <mlir/Dialect/Affine/IR/AffineOps.h>
  <mlir/Dialect/Arith/IR/Arith.h>
  <mlir/Dialect/Bufferization/IR/Bufferization.h>
  <mlir/Dialect/DLTI/DLTI.h>
  <mlir/Dialect/Func/IR/FuncOps.h>
  <mlir/Dialect/GPU/IR/GPUDialect.h>
  <mlir/Dialect/LLVMIR/LLVMDialect.h>
  <mlir/Dialect/LLVMIR/NVVMDialect.h>
  <mlir/Dialect/Linalg/IR/Linalg.h>
  <mlir/Dialect/Math/IR/Math.h>
  <mlir/Dialect/MemRef/IR/MemRef.h>
  <mlir/Dialect/NVGPU/IR/NVGPUDialect.h>
  <mlir/Dialect/SCF/IR/SCF.h>
  <mlir/Dialect/Tensor/IR/Tensor.h>
  <mlir/Dialect/Tosa/IR/TosaOps.h>
  <mlir/Dialect/Vector/IR/VectorOps.h>
  <mlir/IR/Builders.h>
  <mlir/IR/BuiltinOps.h>
  <mlir/IR/Matchers.h>
  <mlir/IR/PatternMatch.h>
  <mlir/Pass/Pass.h>
  <mlir/Transforms/DialectConversion.h>
  <mlir/Transforms/GreedyPatternRewriteDriver.h>
  )

# One precompiled header serves all libraries: GCC writes it as a 1.5 GB
# image of its parse, and compiling it takes about two minutes, so each
# library compiling its own would cost as much as it saves. The host is an
# object library of one empty source with the flags that add_mlir_library
# gives its obj.<name> libraries (the same for all of them); a library whose
# flags differed would get g++'s -Winvalid-pch warning and parse the headers
# as before.
function(fa_add_precompiled_header_host)
  if(NOT FA_PRECOMPILED_HEADERS)
    return()
  endif()
  add_library(FAPrecompiledHeaders OBJECT
    ${PROJECT_SOURCE_DIR}/cmake/PrecompiledHeaders.cpp)
  llvm_update_compile_flags(FAPrecompiledHeaders)
  target_precompile_headers(FAPrecompiledHeaders PRIVATE
    ${FA_PRECOMPILED_HEADER_LIST})
endfunction()

# Gives every object library (add_mlir_library's obj.<name>) under `dir` the
# precompiled headers.
function(fa_precompile_headers_under dir)
  if(NOT FA_PRECOMPILED_HEADERS)
    return()
  endif()
  get_property(targets DIRECTORY ${dir} PROPERTY BUILDSYSTEM_TARGETS)
  foreach(target IN LISTS targets)
    if(target MATCHES "^obj\\.")
      target_precompile_headers(${target} REUSE_FROM FAPrecompiledHeaders)
    endif()
  endforeach()
  get_property(subdirs DIRECTORY ${dir} PROPERTY SUBDIRECTORIES)
  foreach(subdir IN LISTS subdirs)
    fa_precompile_headers_under(${subdir})
  endforeach()
endfunction()
