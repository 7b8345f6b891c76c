#!/usr/bin/env python3
"""Compile time and output size of whole models, by depth.

Writes a model of L attention layers of one shape (Llama-style: B = 1,
Hq = 32, Hkv = 8, N = 2048, d = 128, f16, causal; each layer's output is
the next one's queries) and compiles it with
`fa-opt --fa-gpu-pipeline="chip=<chip> format=bin"`, for each L. Prints a
Markdown table: wall time, output bytes, the gpu.binary ops (kernels), the
gpu.launch_func ops (launch sites) and the calls of shared attention
functions in the output. Identical layers call one function
(fa-share-attention-functions) whose kernel is built once, so time and
size should follow the number of distinct attentions, not L.

  bench/compile/layers.py [--fa-opt build/bin/fa-opt] [--chip sm_90]
                          [--layers 1,8,32,128]
"""
import argparse
import os
import subprocess
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def model(layers):
    q = "tensor<1x32x2048x128xf16>"
    kv = "tensor<1x8x2048x128xf16>"
    lines = [f"func.func @forward(%q: {q}, %k: {kv}, %v: {kv}) -> {q} {{"]
    previous = "%q"
    for i in range(layers):
        lines.append(f"  %o{i} = fa.attention {previous}, %k, %v "
                     f"scale = 0.088388347648318433 causal = bottom_right : "
                     f"{q}, {kv}, {kv} -> {q}")
        previous = f"%o{i}"
    lines.append(f"  return {previous} : {q}\n}}\n")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fa-opt", default=os.path.join(ROOT, "build", "bin", "fa-opt"))
    parser.add_argument("--chip", default="sm_90")
    parser.add_argument("--layers", default="1,8,32,128")
    args = parser.parse_args()
    print("| layers | compile time (s) | output (bytes) | kernels | launch sites "
          "| calls of a shared attention |")
    print("|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for layers in [int(x) for x in args.layers.split(",")]:
            path = os.path.join(tmp, f"model{layers}.mlir")
            with open(path, "w") as f:
                f.write(model(layers))
            start = time.monotonic()
            out = subprocess.run(
                [args.fa_opt, path,
                 f"--fa-gpu-pipeline=chip={args.chip} format=bin"],
                check=True, capture_output=True, text=True).stdout
            seconds = time.monotonic() - start
            print(f"| {layers} | {seconds:.2f} | {len(out.encode())} | "
                  f"{out.count('gpu.binary @')} | "
                  f"{out.count('gpu.launch_func')} | "
                  f"{out.count('llvm.call @__fa_attention_')} |", flush=True)


if __name__ == "__main__":
    main()
