#!/usr/bin/env python3
"""Runs fa.warpgroup_mma as fa-opt compiles it (inline wgmma PTX) on an sm_90 GPU.

The CPU model of the sm_90a kernel's matmuls is checked by
test/Transforms/GPUEmulation/emulate-warpgroup-mma.mlir; bench/gpu/hopper-probe.cu
checked the layouts that model rests on against the hardware. This script
closes the loop: it compiles that same test's kernel (S = Q Kᵀ by four SS
wgmmas from 128-byte-swizzled shared memory, O = P V by four RS wgmmas with
P from S's registers and V M/N-major) with `fa-gpu-pipeline chip=sm_90a
format=bin`, and on the GPU runs it on integer-valued f16 tiles and compares
S and O with PyTorch (exact: every product and sum is an integer below
2^24).

  build machine: bench/gpu/warpgroup-check.py --build OUT [--fa-opt build/bin/fa-opt]
  GPU machine:   python3 OUT/warpgroup-check.py   (beside libfa_launch.so)
"""
import argparse
import ctypes
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
KERNEL = "test/Transforms/GPUEmulation/emulate-warpgroup-mma.mlir"


def build(args):
    sys.path.insert(0, HERE)
    import pack  # noqa: E402  (the cubin extraction of the benchmark pack)
    os.makedirs(args.build, exist_ok=True)
    text = subprocess.run(
        [args.fa_opt, os.path.join(ROOT, KERNEL),
         "--fa-gpu-pipeline=chip=sm_90a format=bin"],
        check=True, capture_output=True, text=True).stdout
    binaries = pack.binaries_of(text)
    with open(os.path.join(args.build, "warpgroup.cubin"), "wb") as f:
        f.write(binaries["block_kernel"])
    shutil.copy(os.path.abspath(__file__), args.build)
    subprocess.run(["cc", "-O2", "-shared", "-fPIC",
                    "-I/usr/local/cuda/include",
                    os.path.join(HERE, "fa_launch.c"), "-o",
                    os.path.join(args.build, "libfa_launch.so"),
                    "-L/usr/local/cuda/lib64/stubs", "-lcuda"], check=True)
    print(f"wrote {args.build}/warpgroup.cubin")


def pattern(x, y, m):
    import torch
    i = torch.arange(64).view(64, 1)
    j = torch.arange(64).view(1, 64)
    return ((i * x + j * y) % m - m // 2).to(torch.float16).cuda()


def run():
    import torch
    lib = ctypes.CDLL(os.path.join(HERE, "libfa_launch.so"))
    lib.fa_load.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_uint,
                            ctypes.POINTER(ctypes.c_void_p)]
    lib.fa_launch.argtypes = [ctypes.c_void_p] + [ctypes.c_uint] * 5 + [
        ctypes.c_void_p, ctypes.POINTER(ctypes.c_uint64), ctypes.c_int]
    torch.zeros(1, device="cuda")
    function = ctypes.c_void_p()
    if lib.fa_load(os.path.join(HERE, "warpgroup.cubin").encode(),
                   b"block_kernel", 0, ctypes.byref(function)):
        sys.exit("could not load the kernel")
    q, k, v = pattern(7, 3, 5), pattern(3, 5, 7), pattern(5, 7, 3)
    s = torch.full((64, 64), float("nan"), device="cuda")
    o = torch.full((64, 64), float("nan"), device="cuda")
    pointers = (ctypes.c_uint64 * 5)(*(x.data_ptr() for x in (q, k, v, s, o)))
    if lib.fa_launch(function, 1, 1, 1, 128, 0,
                     torch.cuda.current_stream().cuda_stream, pointers, 5):
        sys.exit("launch failed")
    torch.cuda.synchronize()
    want_s = q.float() @ k.float().T
    want_o = want_s.half().float() @ v.float()
    ds = (s - want_s).abs().max().item()
    do = (o - want_o).abs().max().item()
    print(f"{torch.cuda.get_device_name()}: S = Q Kᵀ (4 SS wgmma, 128B swizzle): "
          f"max |difference| {ds}; O = P V (4 RS wgmma, V M/N-major): {do}")
    for name, got, want in (("S", s, want_s), ("O", o, want_o)):
        wrong = ((got - want).abs() > 0).nonzero()
        for row, col in wrong[:8].tolist():
            print(f"  {name}[{row}][{col}]: got {got[row, col].item()}, "
                  f"want {want[row, col].item()}")
        if len(wrong):
            print(f"  {name}: {len(wrong)} of 4096 elements differ")
    return 0 if ds == 0 and do == 0 else 1


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build")
    parser.add_argument("--fa-opt", default=os.path.join(ROOT, "build/bin/fa-opt"))
    args = parser.parse_args()
    if args.build:
        build(args)
        return 0
    return run()


if __name__ == "__main__":
    sys.exit(main())
