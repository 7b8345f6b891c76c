#!/usr/bin/env python3
"""Runs the fa-opt FlashAttention cubins on an NVIDIA GPU next to PyTorch.

For every kernel in manifest.json (built by bench/gpu/pack.py): checks the
output against torch.nn.functional.scaled_dot_product_attention (math
backend in f32 on the same f16 inputs), then times our kernel, PyTorch's
flash backend and its cuDNN backend in the same run with CUDA events, and
prints TFLOP/s (4 * N^2 * d * heads * batch FLOPs, halved for causal) as a
Markdown table. Needs PyTorch with CUDA and the driver, nothing else.

Then every decode step (manifest "decode": one query token against Nk
keys, GQA, kv_lengths; a split kernel and a merge kernel): its launches run
in order on buffers allocated by role, the output is checked against SDPA's
math backend in f32, and it is timed next to SDPA (enable_gqa) and, when
the flash-attn package is installed, flash_attn_with_kvcache; the table
gives microseconds per step and the K/V bandwidth (bytes of K and V read
once, over the time), the number that bounds decode. Beside ours, the tile
report's bound: the bytes it estimates the step moves (hbm_bytes_tiled_est,
from the manifest) over this device's peak DRAM bandwidth (memory clock x
bus width x 2, from the driver), and the measured time over that bound.

Then every backward step (manifest "backward": fa.attention_backward's
three kernels, D = rowsum(dO O), dK/dV and dQ): O and the logsumexp come
from PyTorch's flash forward on the same inputs, the gradients of the first
batch entry's first heads are checked against autograd through SDPA's math
backend in f32, and the step is timed next to the backward of SDPA's flash
and cuDNN backends (torch.autograd.grad on their forward); TFLOP/s count
2.5 times the forward's FLOPs, FlashAttention-2's convention.

  python3 run.py [--iters 20] [--warmup 5] [--only n4096_d64,decode_b1_nk4096]
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


DTYPES = {"f16": torch.float16, "bf16": torch.bfloat16, "f32": torch.float32,
          "i32": torch.int32}


# Above this many f32 scores the forward is checked on the first and the last
# heads of the first and the last batch entry only: the math backend holds
# several B x H x N x N f32 tensors at once (about 100 GB at N = 16k).
FULL_CHECK_SCORES = 1 << 31


def checked_parts(c, q, k, v):
    """(index, reference) pairs: the parts of the forward's output that are
    compared with SDPA's math backend in f32, and that backend's result on
    them."""
    if c["batch"] * c["heads"] * c["n"] ** 2 <= FULL_CHECK_SCORES:
        parts = [(slice(None), slice(None))]
    else:
        parts = [(slice(0, 1), slice(0, 4)), (slice(-1, None), slice(-4, None))]
    for part in parts:
        with sdpa_kernel(SDPBackend.MATH):
            reference = F.scaled_dot_product_attention(
                q[part].float(), k[part].float(), v[part].float(),
                is_causal=c["causal"])
        yield part, reference


# fa_tensor_map_box's element types.
MAP_DTYPES = {torch.float16: 0, torch.bfloat16: 1, torch.float32: 2}


def tensor_map(c, lib, tensor, arg):
    """The device address of a TMA tensor map of `tensor` that a launch
    takes in its place (pack.py's {"map_of", "box", "swizzle_128b"})."""
    address = ctypes.c_uint64()
    dims = (ctypes.c_ulonglong * 4)(*tensor.shape)
    box = (ctypes.c_uint * 4)(*arg["box"])
    if lib.fa_tensor_map_box(tensor.data_ptr(), dims, box,
                             MAP_DTYPES[tensor.dtype], int(arg["swizzle_128b"]),
                             ctypes.byref(address)):
        sys.exit(f"{c['name']}: could not encode a tensor map of {arg['map_of']}")
    return address.value


def load_launches(c, lib, buffers):
    """A callable that runs the entry's launches in order on `buffers`."""
    launches = []
    for launch in c["launches"]:
        function = ctypes.c_void_p()
        if lib.fa_load(os.path.join(HERE, launch["cubin"]).encode(),
                       launch["kernel"].encode(), launch["shared_bytes"],
                       ctypes.byref(function)):
            sys.exit(f"{c['name']}: could not load {launch['cubin']}")
        pointers = (ctypes.c_uint64 * len(launch["args"]))(
            *(tensor_map(c, lib, buffers[a["map_of"]], a) if isinstance(a, dict)
              else buffers[a].data_ptr() for a in launch["args"]))
        launches.append((function, launch, pointers))

    def ours():
        stream = torch.cuda.current_stream().cuda_stream
        for function, launch, pointers in launches:
            if lib.fa_launch(function, *launch["grid"], launch["block"],
                             launch["shared_bytes"], stream, pointers,
                             len(launch["args"])):
                sys.exit(f"{c['name']}: launch failed")
    return ours


def buffers_by_role(c, by_role):
    """The entry's buffers: the tensors of `by_role` where a buffer has that
    role, new ones (outputs, workspace) otherwise."""
    buffers = {}
    for name, buffer in c["buffers"].items():
        tensor = by_role.get(buffer["role"])
        if tensor is None:
            tensor = torch.empty(buffer["shape"], device="cuda",
                                 dtype=DTYPES[buffer["dtype"]])
        elif list(tensor.shape) != buffer["shape"]:
            sys.exit(f"{c['name']}: {buffer['role']} is {list(tensor.shape)}, "
                     f"the kernel expects {buffer['shape']}")
        buffers[name] = tensor
    return buffers


# Heads of the first batch entry whose gradients are checked against the
# f32 math backend (its N x N scores for every head would not fit).
CHECKED_HEADS = 4


def run_backward(c, lib, args):
    """One backward entry; returns 1 when its gradients are wrong."""
    b, h, n, d, causal = c["batch"], c["heads"], c["n"], c["d"], c["causal"]
    scale = d ** -0.5
    q, k, v, do = (torch.randn(b, h, n, d, device="cuda", dtype=torch.float16)
                   for _ in range(4))
    out, lse = torch.ops.aten._scaled_dot_product_flash_attention(
        q, k, v, 0.0, causal, False, scale=scale)[:2]
    # The flash forward's output may be strided, its logsumexp padded.
    buffers = buffers_by_role(c, {"q": q, "k": k, "v": v,
                                  "o": out.contiguous(), "do": do,
                                  "lse": lse[..., :n].float().contiguous()})
    grads = {}
    for name, buffer in c["buffers"].items():
        if buffer["role"] in ("dq", "dk", "dv"):
            grads[buffer["role"]] = buffers[name]
    ours = load_launches(c, lib, buffers)
    ours()
    torch.cuda.synchronize()
    part = [x[:1, :CHECKED_HEADS].float().requires_grad_() for x in (q, k, v)]
    with sdpa_kernel(SDPBackend.MATH):
        reference = F.scaled_dot_product_attention(*part, is_causal=causal,
                                                   scale=scale)
    expected = torch.autograd.grad(reference, part,
                                   do[:1, :CHECKED_HEADS].float())
    error = max((grads[role][:1, :CHECKED_HEADS].float() - want).abs().max().item()
                / max(1.0, want.abs().max().item())
                for role, want in zip(("dq", "dk", "dv"), expected))
    ok = error <= 3e-2
    flops = 2.5 * 4 * n * n * d * h * b / (2 if causal else 1)

    def rate(fn):
        try:
            ms = timed(fn, args.warmup, args.iters)
        except RuntimeError:  # not available for this shape
            return "n/a"
        return f"{flops / (ms * 1e-3) / 1e12:.1f}"

    def sdpa_backward(kind):
        try:
            leaves = [x.detach().requires_grad_() for x in (q, k, v)]
            with sdpa_kernel(kind):
                result = F.scaled_dot_product_attention(*leaves, is_causal=causal)
            return rate(lambda: torch.autograd.grad(result, leaves, do,
                                                    retain_graph=True))
        except RuntimeError:
            return "n/a"
    print(f"| {n} | {d} | {'yes' if causal else 'no'} | {b} x {h} | "
          f"{c['tiling'][0]}x{c['tiling'][1]}, {c['tiling'][2]}w, "
          f"{c['tiling'][3]} stages | {rate(ours)} | {error:.1e}{'' if ok else ' FAIL'} | "
          f"{sdpa_backward(SDPBackend.FLASH_ATTENTION)} | "
          f"{sdpa_backward(SDPBackend.CUDNN_ATTENTION)} |", flush=True)
    return 0 if ok else 1


def peak_dram_bytes_per_second():
    """This device's peak DRAM bandwidth from the driver: its memory clock
    (kHz) times its bus width (bits) / 8, twice per clock (DDR); None where
    the driver does not say."""
    try:
        cuda = ctypes.CDLL("libcuda.so.1")
        device = torch.cuda.current_device()
        values = []
        for attribute in (36, 37):  # MEMORY_CLOCK_RATE, GLOBAL_MEMORY_BUS_WIDTH
            value = ctypes.c_int()
            if cuda.cuDeviceGetAttribute(ctypes.byref(value), attribute, device):
                return None
            values.append(value.value)
    except OSError:
        return None
    clock_khz, bus_bits = values
    return 2 * clock_khz * 1e3 * bus_bits / 8 if clock_khz and bus_bits else None


def run_decode(c, lib, args, peak):
    """One decode entry; returns 1 when its output is wrong."""
    b, hq, hkv, nk, d = c["batch"], c["heads"], c["kv_heads"], c["nk"], c["d"]
    dtype = DTYPES[c["dtype"]]
    by_role = {
        "q": torch.randn(b, hq, 1, d, device="cuda", dtype=dtype),
        "k": torch.randn(b, hkv, nk, d, device="cuda", dtype=dtype),
        "v": torch.randn(b, hkv, nk, d, device="cuda", dtype=dtype),
        "lengths": torch.full((b,), nk, device="cuda", dtype=torch.int32)}
    buffers = buffers_by_role(c, by_role)
    output = next(buffers[n] for n, x in c["buffers"].items()
                  if x["role"] == "output").view(b, hq, 1, d)
    ours = load_launches(c, lib, buffers)

    ours()
    torch.cuda.synchronize()
    q, k, v = by_role["q"], by_role["k"], by_role["v"]
    group = hq // hkv
    with sdpa_kernel(SDPBackend.MATH):
        reference = F.scaled_dot_product_attention(
            q.float(), k.float().repeat_interleave(group, 1),
            v.float().repeat_interleave(group, 1))
    error = (output.float() - reference).abs().max().item()
    ok = error <= 2e-2
    kv_bytes = 2 * k.numel() * k.element_size()

    def cell(fn):
        try:
            ms = timed(fn, args.warmup, args.iters)
        except (RuntimeError, TypeError):  # not available for this shape
            return "n/a"
        return f"{ms * 1e3:.1f} ({kv_bytes / (ms * 1e-3) / 1e9:.0f})"
    ms = timed(ours, args.warmup, args.iters)
    mine = f"{ms * 1e3:.1f} ({kv_bytes / (ms * 1e-3) / 1e9:.0f})"
    bound = "n/a"
    if peak and c.get("hbm_bytes_tiled_est"):
        seconds = c["hbm_bytes_tiled_est"] / peak
        bound = f"{seconds * 1e6:.1f} ({ms * 1e-3 / seconds:.2f}x)"
    sdpa = cell(lambda: F.scaled_dot_product_attention(q, k, v, enable_gqa=True))
    try:
        from flash_attn import flash_attn_with_kvcache
        qb, kb, vb = (x.transpose(1, 2).contiguous() for x in (q, k, v))
        flash = cell(lambda: flash_attn_with_kvcache(
            qb, kb, vb, cache_seqlens=by_role["lengths"]))
    except ImportError:
        flash = "not installed"
    print(f"| {b} | {nk} | {hq}/{hkv} | {c['tiling'][0]}x{c['tiling'][1]}, "
          f"{c['kv_splits']} splits{', packed' if c['pack_gqa'] else ''} | "
          f"{mine} | {bound} | {error:.1e}{'' if ok else ' FAIL'} | {sdpa} | {flash} |",
          flush=True)
    return 0 if ok else 1


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
    lib.fa_tensor_map.argtypes = [ctypes.c_uint64] + [ctypes.c_ulonglong] * 4 + [
        ctypes.c_uint, ctypes.c_int, ctypes.POINTER(ctypes.c_uint64)]
    lib.fa_tensor_map_box.argtypes = [
        ctypes.c_uint64, ctypes.POINTER(ctypes.c_ulonglong),
        ctypes.POINTER(ctypes.c_uint), ctypes.c_int, ctypes.c_int,
        ctypes.POINTER(ctypes.c_uint64)]
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
        if args.only and c["name"] not in args.only.split(","):
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
        operands = [q.data_ptr(), k.data_ptr(), v.data_ptr()]
        if c.get("tensor_maps"):
            # The TMA producer kernel: the addresses of Q's, K's and V's
            # tensor maps in their place.
            operands = []
            for tensor, role in ((q, "q"), (k, "k"), (v, "v")):
                address = ctypes.c_uint64()
                if lib.fa_tensor_map(tensor.data_ptr(), *tensor.shape,
                                     c["tensor_maps"][role], 0,
                                     ctypes.byref(address)):
                    sys.exit(f"{c['name']}: could not encode a tensor map")
                operands.append(address.value)
        pointers = (ctypes.c_uint64 * 4)(*operands, out.data_ptr())

        def ours():
            stream = torch.cuda.current_stream().cuda_stream
            if lib.fa_launch(function, *c["grid"], c["block"], c["shared_bytes"],
                             stream, pointers, 4):
                sys.exit(f"{c['name']}: launch failed")

        ours()
        torch.cuda.synchronize()
        error = max((out[part].float() - reference).abs().max().item()
                    for part, reference in checked_parts(c, q, k, v))
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
    decode = [c for c in manifest.get("decode", [])
              if not args.only or c["name"] in args.only.split(",")]
    if decode:
        print("\nDecode steps (one query token, d = 128, f16, kv_lengths): "
              "microseconds per step (K/V bandwidth, GB/s)\n")
        print("| B | Nk | Hq/Hkv | tile | fa-opt | report's bound (measured ÷ bound) "
              "| max error | SDPA | flash_attn_with_kvcache |")
        print("|---|---|---|---|---|---|---|---|---|")
        peak = peak_dram_bytes_per_second()
        for c in decode:
            failed += run_decode(c, lib, args, peak)
    backward = [c for c in manifest.get("backward", [])
                if not args.only or c["name"] in args.only.split(",")]
    if backward:
        print("\nBackward steps (fa.attention_backward, f16; O and the "
              "logsumexp from SDPA's flash forward): TFLOP/s of the backward "
              "(2.5 x the forward's FLOPs); max error of dQ, dK, dV over "
              f"{CHECKED_HEADS} heads vs autograd in f32, relative to their "
              "largest magnitude\n")
        print("| N | d | causal | B x H | tile | fa-opt | max error | flash backward | cuDNN backward |")
        print("|---|---|---|---|---|---|---|---|---|")
        for c in backward:
            failed += run_backward(c, lib, args)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
