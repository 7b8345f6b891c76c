#!/usr/bin/env python3
"""Builds the GPU benchmark pack on the build machine (no GPU needed).

For every configuration of the sweep (N from 512 to 16k, d = 64 and 128,
causal and not, f16; B * N = 16k tokens and H * d = 2048 as in the
FlashAttention papers), compiles one attention with
`fa-opt --fa-gpu-pipeline="chip=<chip> format=bin"` in each variant (the
register-resident kernel, and `register-fragments=false`, the earlier
kernel whose S and P pass through shared memory, suffix `_smem`), extracts
the cubin from the gpu.binary, and records the launch in manifest.json:
grid and block from the tile report, dynamic shared memory as the
pipeline's own gpu.launch_func states it (0 for kernels whose tiles are
static shared memory). Compiles the launcher
(fa_launch.c -> libfa_launch.so) and writes everything, with run.py, into
<out>/ and <out>.tar.gz. On the GPU machine:

  tar xzf fa-bench.tar.gz && python3 fa-bench/run.py

  bench/gpu/pack.py [--chip sm_90] [--out build/fa-bench] [--fa-opt build/bin/fa-opt]
                    [--only n512_d64,n1024_d128_causal] [--variants registers,smem]
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
TOKENS, HIDDEN = 16384, 2048


def configs():
    for d in (64, 128):
        for causal in (False, True):
            for n in (512, 1024, 2048, 4096, 8192, 16384):
                yield {"batch": TOKENS // n, "heads": HIDDEN // d, "n": n,
                       "d": d, "causal": causal, "dtype": "f16"}


def source(c):
    t = f"tensor<{c['batch']}x{c['heads']}x{c['n']}x{c['d']}x{c['dtype']}>"
    mask = " causal = top_left" if c["causal"] else ""
    return (f"func.func @attention(%q: {t}, %k: {t}, %v: {t}) -> {t} {{\n"
            f"  %o = fa.attention %q, %k, %v scale = {c['d'] ** -0.5!r}{mask}"
            f" : {t}, {t}, {t} -> {t}\n  return %o : {t}\n}}\n")


def cubin_of(module_text):
    match = re.search(r'bin = "((?:[^"\\]|\\.)*)"', module_text, re.S)
    if not match:
        sys.exit("no cubin in the pipeline's output")
    raw, out, i = match.group(1), bytearray(), 0
    while i < len(raw):
        if raw[i] == "\\":
            if raw[i + 1] in '"\\':
                out.append(ord(raw[i + 1]))
                i += 2
            else:
                out.append(int(raw[i + 1:i + 3], 16))
                i += 3
        else:
            out += raw[i].encode("latin-1")
            i += 1
    return bytes(out)


# Variant name, its suffix in kernel names, the pipeline option it adds.
VARIANTS = {"registers": ("", ""), "smem": ("_smem", " register-fragments=false")}


def launch_of(module_text):
    """Dynamic shared memory bytes and block size of the host's
    gpu.launch_func (after the pipeline, operands are llvm constants)."""
    launch = re.search(r"gpu\.launch_func .* threads in \((%\w+),[^\n]*", module_text)
    if not launch:
        sys.exit("no gpu.launch_func in the pipeline's output")
    dynamic = re.search(r"dynamic_shared_memory_size (%\w+)", launch.group(0))

    def constant(name):
        value = re.search(re.escape(name) + r" = llvm\.mlir\.constant\((\d+) :",
                          module_text)
        if not value:
            sys.exit(f"the launch's {name} is not a constant")
        return int(value.group(1))
    return (constant(dynamic.group(1)) if dynamic else 0,
            constant(launch.group(1)))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chip", default="sm_90")
    parser.add_argument("--out", default=os.path.join(ROOT, "build", "fa-bench"))
    parser.add_argument("--fa-opt", default=os.path.join(ROOT, "build", "bin", "fa-opt"))
    parser.add_argument("--cuda", default=os.environ.get("CUDA_HOME", "/usr/local/cuda"))
    parser.add_argument("--only", default="",
                        help="comma-separated kernel names (e.g. n512_d64), for a quick pack")
    parser.add_argument("--variants", default="registers,smem",
                        help="which kernels to build: registers (the default "
                             "kernel), smem (register-fragments=false)")
    args = parser.parse_args()
    variants = [v for v in args.variants.split(",") if v]
    for v in variants:
        if v not in VARIANTS:
            sys.exit(f"unknown variant {v!r}; known: {', '.join(VARIANTS)}")

    shutil.rmtree(args.out, ignore_errors=True)
    os.makedirs(args.out)
    manifest = {"chip": args.chip, "kernels": []}
    only = set(filter(None, args.only.split(",")))
    for c in configs():
        base = f"n{c['n']}_d{c['d']}{'_causal' if c['causal'] else ''}"
        if only and base not in only:
            continue
        mlir = os.path.join(args.out, base + ".mlir")
        with open(mlir, "w") as f:
            f.write(source(c))
        report = subprocess.run(
            [args.fa_opt, mlir, f"--fa-select-tiles=target={args.chip} report=-"],
            check=True, capture_output=True, text=True).stdout
        tile = json.loads(report.splitlines()[0])
        for variant in variants:
            suffix, option = VARIANTS[variant]
            name = base + suffix
            built = subprocess.run(
                [args.fa_opt, mlir,
                 f"--fa-gpu-pipeline=chip={args.chip} format=bin "
                 f"cuda-toolkit={args.cuda}{option}"],
                capture_output=True, text=True)
            if built.returncode != 0:
                print(f"{name}: not built: {built.stderr.strip().splitlines()[-1]}",
                      flush=True)
                continue
            dynamic, threads = launch_of(built.stdout)
            with open(os.path.join(args.out, name + ".cubin"), "wb") as f:
                f.write(cubin_of(built.stdout))
            gpu_kernel = tile["gpu_kernel"]
            if variant == "smem" and gpu_kernel == "mma.sync-registers":
                gpu_kernel = "mma.sync-shared"
            manifest["kernels"].append(dict(
                c, name=name, variant=variant, cubin=name + ".cubin",
                kernel="attention_kernel",
                grid=[-(-c["n"] // tile["block_q"]), c["heads"], c["batch"]],
                block=threads, shared_bytes=dynamic, gpu_kernel=gpu_kernel,
                tiling=[tile["block_q"], tile["block_kv"], tile["warps"],
                        tile["stages"]]))
            print(f"{name}: tile {tile['block_q']}x{tile['block_kv']}, "
                  f"{tile['warps']} warps, {tile['stages']} stage(s), "
                  f"{dynamic} bytes dynamic shared memory, {gpu_kernel}",
                  flush=True)
    with open(os.path.join(args.out, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
    subprocess.run(["cc", "-O2", "-shared", "-fPIC", f"-I{args.cuda}/include",
                    os.path.join(HERE, "fa_launch.c"), "-o",
                    os.path.join(args.out, "libfa_launch.so"),
                    f"-L{args.cuda}/lib64/stubs", "-lcuda"], check=True)
    shutil.copy(os.path.join(HERE, "run.py"), args.out)
    with tarfile.open(args.out + ".tar.gz", "w:gz") as tar:
        tar.add(args.out, arcname="fa-bench")
    print(f"packed {args.out}.tar.gz")


if __name__ == "__main__":
    main()
