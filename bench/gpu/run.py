#!/usr/bin/env python3
"""Runs the fa-opt FlashAttention cubins on an NVIDIA GPU next to PyTorch.

For every kernel in manifest.json (built by bench/gpu/pack.py): checks the
output against torch.nn.functional.scaled_dot_product_attention (math
backend in f32 on the same f16 inputs), then times our kernel, PyTorch's
flash backend and its cuDNN backend in the same run with CUDA events, and
prints TFLOP/s (4 * N^2 * d * heads * batch FLOPs, halved for causal) as a
Markdown table. Needs PyTorch with CUDA and the driver, nothing else.

  python3 run.py [--iters 20] [--warmup 5] [--only n4096_d64]
"""
import argparse
import ctypes
import json
import os
import sys

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

HERE = os.path.dirname(os.path.abspath(__file__))


def tflops(c, ms):
    flops = 4 * c["n"] ** 2 * c["d"] * c["heads"] * c["batch"]
    if c["causal"]:
        flops //= 2
    return flops / (ms * 1e-3) / 1e12


def timed(fn, warmup, iters):
    for _ in range(warmup):
        fn()
    start = torch.cuda.Event(enable_timing=True)
    end = torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(iters):
        fn()
    end.record()
    torch.cuda.synchronize()
    return start.elapsed_time(end) / iters


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iters", type=int, default=20)
    parser.add_argument("--warmup", type=int, default=5)
    parser.add_argument("--only", default="")
    args = parser.parse_args()

    with open(os.path.join(HERE, "manifest.json")) as f:
        manifest = json.load(f)
    torch.cuda.init()
    torch.zeros(1, device="cuda")  # PyTorch's context is current from here
    lib = ctypes.CDLL(os.path.join(HERE, "libfa_launch.so"))
    lib.fa_load.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_uint,
                            ctypes.POINTER(ctypes.c_void_p)]
    lib.fa_launch.argtypes = [ctypes.c_void_p] + [ctypes.c_uint] * 5 + [
        ctypes.c_void_p, ctypes.POINTER(ctypes.c_uint64), ctypes.c_int]

    print(f"{torch.cuda.get_device_name()}, torch {torch.__version__}, "
          f"kernels for {manifest['chip']}; TFLOP/s, mean of {args.iters} runs\n")
    print("| N | d | causal | B x H | tile | fa-opt | max error | flash | cuDNN |")
    print("|---|---|---|---|---|---|---|---|---|")
    failed = 0
    # SDPA's timings per configuration, shared by its kernel variants.
    sdpa = {}
    for c in manifest["kernels"]:
        if args.only and c["name"] != args.only:
            continue
        shape = (c["batch"], c["heads"], c["n"], c["d"])
        q, k, v = (torch.randn(shape, device="cuda", dtype=torch.float16)
                   for _ in range(3))
        out = torch.empty_like(q)
        function = ctypes.c_void_p()
        if lib.fa_load(os.path.join(HERE, c["cubin"]).encode(),
                       c["kernel"].encode(), c["shared_bytes"],
                       ctypes.byref(function)):
            sys.exit(f"{c['name']}: could not load the kernel")
        pointers = (ctypes.c_uint64 * 4)(q.data_ptr(), k.data_ptr(),
                                         v.data_ptr(), out.data_ptr())

        def ours():
            stream = torch.cuda.current_stream().cuda_stream
            if lib.fa_launch(function, *c["grid"], c["block"], c["shared_bytes"],
                             stream, pointers, 4):
                sys.exit(f"{c['name']}: launch failed")

        ours()
        torch.cuda.synchronize()
        with sdpa_kernel(SDPBackend.MATH):
            reference = F.scaled_dot_product_attention(
                q.float(), k.float(), v.float(), is_causal=c["causal"])
        error = (out.float() - reference).abs().max().item()
        ok = error <= 2e-2
        failed += not ok

        def backend(kind):
            try:
                with sdpa_kernel(kind):
                    ms = timed(lambda: F.scaled_dot_product_attention(
                        q, k, v, is_causal=c["causal"]), args.warmup, args.iters)
                return f"{tflops(c, ms):.1f}"
            except RuntimeError as e:  # backend not available for this shape
                return "n/a"

        mine = tflops(c, timed(ours, args.warmup, args.iters))
        key = (c["n"], c["d"], c["causal"])
        if key not in sdpa:
            sdpa[key] = (backend(SDPBackend.FLASH_ATTENTION),
                         backend(SDPBackend.CUDNN_ATTENTION))
        print(f"| {c['n']} | {c['d']} | {'yes' if c['causal'] else 'no'} | "
              f"{c['batch']} x {c['heads']} | {c['tiling'][0]}x{c['tiling'][1]}, "
              f"{c['tiling'][2]}w, {c.get('gpu_kernel', '?')} | {mine:.1f} | {error:.1e}{'' if ok else ' FAIL'} | "
              f"{sdpa[key][0]} | {sdpa[key][1]} |", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
