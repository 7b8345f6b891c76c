# lit configuration of the fa-opt tests.
import os
import sys

import lit.formats
from lit.llvm import llvm_config

config.name = "FA"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.excludes = ["CMakeLists.txt", "README.md", "lit.cfg.py", "lit.site.cfg.py", "Inputs",
                   "time_limit.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.fa_obj_root, "test")

# A hanging test fails with its name after FA_TEST_TIMEOUT seconds.
sys.path.insert(0, config.test_source_root)
sys.dont_write_bytecode, kept = True, sys.dont_write_bytecode
from time_limit import apply_time_limit
sys.dont_write_bytecode = kept
sys.path.pop(0)
apply_time_limit(lit_config)

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])
# scripts/mutate-operators.py chooses the mutant and traces coverage
# through these (they do nothing in a normal build).
llvm_config.with_system_environment(["FA_MUTANT", "FA_MUTANT_TRACE"])
llvm_config.use_default_substitutions()

# Runtime libraries that mlir-runner loads for printMemref* and friends.
runner_libs = ",".join(
    os.path.join(config.llvm_lib_dir, lib)
    for lib in ["libmlir_runner_utils.so", "libmlir_c_runner_utils.so"]
)
config.substitutions.append(
    ("%mlir-run",
     "mlir-runner -e main -entry-point-result=void -shared-libs=" + runner_libs)
)

# The same with the entry point left to the RUN line: %run-entry <function>.
config.substitutions.append(
    ("%run-entry",
     "mlir-runner -entry-point-result=void -shared-libs=" + runner_libs + " -e")
)

config.substitutions.append(("%python", sys.executable))
# lit itself, for the tests of the suite's own configuration.
config.substitutions.append(
    ("%lit", sys.executable + " " + os.path.abspath(sys.argv[0])))
config.substitutions.append(
    ("%compare", sys.executable + " " +
     os.path.join(config.test_source_root, "Integration", "Inputs",
                  "compare_outputs.py")))
config.substitutions.append(
    ("%fa_mismatched_plugin",
     os.path.join(config.fa_obj_root, "lib", "libFAMismatchedPlugin.so")))
config.substitutions.append(
    ("%fa_plugin", os.path.join(config.fa_obj_root, "lib", "libFAPlugin.so")))
config.substitutions.append(("%fa_src_root", config.fa_src_root))
config.substitutions.append(("%fa_obj_root", config.fa_obj_root))

# FileCheck, not and friends live beside Debian's LLVM tools.
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

tool_dirs = [config.fa_tools_dir, config.llvm_tools_dir]
tools = ["fa-opt", "mlir-opt", "mlir-runner"]
llvm_config.add_tool_substitutions(tools, tool_dirs)

# GPU code: PTX needs LLVM's NVPTX backend; cubin and the resource checks
# need CUDA's ptxas (in /usr/local/cuda/bin, or on PATH). Tests that need
# them say REQUIRES: nvptx or REQUIRES: ptxas.
import shutil
import subprocess
try:
    targets = subprocess.run([os.path.join(config.llvm_tools_dir, "llc"), "--version"],
                             capture_output=True, text=True).stdout
except OSError:
    targets = ""
if "nvptx64" in targets:
    config.available_features.add("nvptx")
ptxas = shutil.which("ptxas", path="/usr/local/cuda/bin:" + os.environ.get("PATH", ""))
if ptxas:
    config.available_features.add("ptxas")
    llvm_config.with_environment("PATH", os.path.dirname(ptxas), append_path=True)
    config.substitutions.append(("%ptxas", ptxas))
# nvcc, for the CUDA C++ probe of Hopper's layouts (bench/gpu/hopper-probe.cu),
# which only compiles here: running it needs an sm_90 GPU.
nvcc = shutil.which("nvcc", path="/usr/local/cuda/bin:" + os.environ.get("PATH", ""))
if nvcc:
    config.available_features.add("nvcc")
    config.substitutions.append(("%nvcc", nvcc))

# libclang's Python bindings (Debian: python3-clang-22), which
# scripts/mutate-operators.py parses C++ with.
try:
    sys.path.append("/usr/lib/python3/dist-packages")
    import clang.cindex
    clang.cindex.Index.create()
    config.available_features.add("libclang-python")
except Exception:
    pass
finally:
    sys.path.remove("/usr/lib/python3/dist-packages")
