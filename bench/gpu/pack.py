#!/usr/bin/env python3
"""Builds the GPU benchmark pack on the build machine (no GPU needed).

For every configuration of the sweep (N from 512 to 16k, d = 64, 128 and 256,
causal and not, f16; B * N = 16k tokens and H * d = 2048 as in the
FlashAttention papers), compiles one attention with
`fa-opt --fa-gpu-pipeline="chip=<chip> format=bin"` in each variant (the
register-resident kernel, and `register-fragments=false`, the earlier
kernel whose S and P pass through shared memory, suffix `_smem`), extracts
the cubin from the gpu.binary, and records the launch in manifest.json:
grid and block from the tile report, dynamic shared memory as the
pipeline's own gpu.launch_func states it (0 for kernels whose tiles are
static shared memory).

Decode steps (one query token; Hq = 32 over Hkv = 4 key/value heads, a
group of 8; d = 128; B = 1 and 8; Nk from 1k to 128k; kv_lengths) compile
to more than one kernel (the split kernel and the merge kernel): their
manifest entries list every launch, in order, with its cubin, grid, block,
shared memory and arguments, and every buffer the arguments name with its
role (q, k, v, lengths, output, or workspace) and shape, as the pipeline's
outlined host code states them. Backward steps (fa.attention_backward, the
same sweep's shapes at N = 1k, 4k and 8k) compile to three kernels
(D = rowsum(dO O), dK/dV, dQ) and are recorded the same way, with the
roles q, k, v, o, do, lse, dq, dk, dv and workspace. Compiles the launcher
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
    for d in (64, 128, 256):
        for causal in (False, True):
            for n in (512, 1024, 2048, 4096, 8192, 16384):
                yield {"batch": TOKENS // n, "heads": HIDDEN // d, "n": n,
                       "d": d, "causal": causal, "dtype": "f16"}


def source(c, tiling=None):
    t = f"tensor<{c['batch']}x{c['heads']}x{c['n']}x{c['d']}x{c['dtype']}>"
    mask = " causal = top_left" if c["causal"] else ""
    if tiling:
        bq, bkv, warps, stages = tiling
        mask += (f" tiling = <block_q = {bq}, block_kv = {bkv}, warps = {warps}, "
                 f"stages = {stages}>")
    return (f"func.func @attention(%q: {t}, %k: {t}, %v: {t}) -> {t} {{\n"
            f"  %o = fa.attention %q, %k, %v scale = {c['d'] ** -0.5!r}{mask}"
            f" : {t}, {t}, {t} -> {t}\n  return %o : {t}\n}}\n")


def parse_tilings(text):
    """'128x128x8x2,...' (block_q x block_kv x warps x stages) as tuples."""
    tilings = []
    for item in filter(None, text.split(",")):
        parts = item.split("x")
        if len(parts) != 4 or not all(p.isdigit() for p in parts):
            sys.exit(f"bad tiling {item!r}: want BQxBKVxWARPSxSTAGES")
        tilings.append(tuple(int(p) for p in parts))
    return tilings


def backward_configs():
    for d in (64, 128):
        for causal in (False, True):
            for n in (1024, 4096, 8192):
                yield {"kind": "backward", "batch": TOKENS // n,
                       "heads": HIDDEN // d, "n": n, "d": d, "causal": causal,
                       "dtype": "f16"}


def backward_source(c):
    t = f"tensor<{c['batch']}x{c['heads']}x{c['n']}x{c['d']}x{c['dtype']}>"
    lse = f"tensor<{c['batch']}x{c['heads']}x{c['n']}xf32>"
    mask = " causal = top_left" if c["causal"] else ""
    return (f"func.func @attention(%q: {t}, %k: {t}, %v: {t}, %o: {t}, %do: {t}, "
            f"%lse: {lse}) -> ({t}, {t}, {t}) {{\n"
            f"  %dq, %dk, %dv = fa.attention_backward %q, %k, %v, %o, %do, %lse "
            f"scale = {c['d'] ** -0.5!r}{mask} : {t}, {t}, {t}, {t}, {t}, {lse} "
            f"-> {t}, {t}, {t}\n"
            f"  return %dq, %dk, %dv : {t}, {t}, {t}\n}}\n")


DECODE_HEADS, DECODE_KV_HEADS, DECODE_D = 32, 4, 128


def decode_configs():
    for batch in (1, 8):
        for nk in (1024, 4096, 16384, 32768, 131072):
            yield {"kind": "decode", "batch": batch, "heads": DECODE_HEADS,
                   "kv_heads": DECODE_KV_HEADS, "nq": 1, "nk": nk, "d": DECODE_D,
                   "dtype": "f16"}


def decode_source(c):
    q = f"tensor<{c['batch']}x{c['heads']}x1x{c['d']}x{c['dtype']}>"
    kv = f"tensor<{c['batch']}x{c['kv_heads']}x{c['nk']}x{c['d']}x{c['dtype']}>"
    lengths = f"tensor<{c['batch']}xi32>"
    return (f"func.func @attention(%q: {q}, %k: {kv}, %v: {kv}, %len: {lengths}) -> {q} {{\n"
            f"  %o = fa.attention %q, %k, %v kv_lengths(%len : {lengths}) "
            f"scale = {c['d'] ** -0.5!r} : {q}, {kv}, {kv} -> {q}\n  return %o : {q}\n}}\n")


def decode_launches(outlined, roles, outputs=("output",)):
    """(buffers, launches) from the host function after gpu-kernel-outlining:
    every buffer a launch names, traced through memref views to a function
    argument (its role from `roles`) or an allocation (the returned ones
    take the roles `outputs` in the order they are returned, the others are
    workspace), and each launch's kernel, grid, block, dynamic shared memory
    and arguments."""
    host = outlined[outlined.index("func.func @attention("):]
    host = host[:host.index("\n  }\n")]
    constants = {m.group(1): int(m.group(2)) for m in re.finditer(
        r"(%\w+) = arith\.constant (\d+) : (?:index|i32|i64)", host)}
    root = {}
    for m in re.finditer(r"(%\w+) = memref\.(?:expand_shape|collapse_shape|cast) (%\w+)", host):
        root[m.group(1)] = m.group(2)

    def origin(name):
        while name in root:
            name = root[name]
        return name
    returned = [origin(x.strip()) for x in
                re.search(r"return ([^:]*) :", host).group(1).split(",")]
    # Device allocations (fa-allocate-device-buffers), or host ones where
    # host code also uses a buffer.
    allocs = {m.group(1): m.group(2) for m in re.finditer(
        r"(%\w+)(?:, %\w+)? = (?:memref\.alloc\(\)|gpu\.alloc(?: async \[[^\]]*\])?\s*\(\))"
        r" : memref<([^>]*)>", host)}
    arguments = re.findall(r"(%arg\d+): memref<([^>]*)>", host[:host.index("\n")])
    buffers, launches = {}, []

    def describe(name):
        parts = allocs.get(name) or dict(arguments)[name]
        *dims, dtype = parts.split("x")
        if name in allocs:
            role = (outputs[returned.index(name)] if name in returned
                    else "workspace")
        else:
            role = roles[[a for a, _ in arguments].index(name)]
        return {"role": role, "shape": [int(d) for d in dims], "dtype": dtype}
    # TMA tensor maps the host builds of a buffer (the backward's dK/dV
    # kernel with a producer warpgroup): its box, outermost first, and
    # swizzle.
    maps = {m.group(1): (origin(m.group(2)), m.group(3), m.group(4))
            for m in re.finditer(
                r"(%\w+) = nvgpu\.tma\.create\.descriptor (%\w+) box\[([^\]]*)\]"
                r"[^\n]*?swizzle = (\w+)", host)}
    for m in re.finditer(r"gpu\.launch_func\s+@(\w+)::@(\w+) blocks in \(([^)]*)\) "
                         r"threads in \(([^)]*)\)([^\n]*)", host):
        grid = [constants[x.strip()] for x in m.group(3).split(",")]
        block = [constants[x.strip()] for x in m.group(4).split(",")]
        dynamic = re.search(r"dynamic_shared_memory_size (%\w+)", m.group(5))
        args = []
        for arg in re.findall(r"(%\w+) : (?:memref|!nvgpu\.tensormap)", m.group(5)):
            if arg in maps:
                source, box, swizzle = maps[arg]
                buffers.setdefault(source[1:], describe(source))
                args.append({"map_of": source[1:],
                             "box": [constants[x.strip()] for x in box.split(",")],
                             "swizzle_128b": swizzle == "swizzle_128b"})
                continue
            name = origin(arg)
            buffers.setdefault(name[1:], describe(name))
            args.append(name[1:])
        launches.append({"module": m.group(1), "kernel": m.group(2), "grid": grid,
                         "block": block[0], "args": args,
                         "shared_bytes": constants[dynamic.group(1)] if dynamic else 0})
    return buffers, launches


def binaries_of(module_text):
    """{gpu.binary name: cubin bytes}."""
    return {m.group(1): unescape(m.group(2)) for m in re.finditer(
        r'gpu\.binary @(\w+)[^\n]*?bin = "((?:[^"\\]|\\.)*)"', module_text, re.S)}


def cubin_of(module_text):
    match = re.search(r'bin = "((?:[^"\\]|\\.)*)"', module_text, re.S)
    if not match:
        sys.exit("no cubin in the pipeline's output")
    return unescape(match.group(1))


def unescape(raw):
    out, i = bytearray(), 0
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
# name: (suffix, pipeline options). On sm_90a "registers" is the TMA
# producer kernel (fa-gpu-pipeline's default there) and "cp-async" the
# wgmma kernel that loads with cp.async; "overlap-off" and "pingpong-off"
# are the TMA producer kernel with one of its two schedules off (P V a
# block late; the compute warpgroups' turns), the A/B switches whose
# worth only a GPU measures.
VARIANTS = {"registers": ("", ""), "smem": ("_smem", " register-fragments=false"),
            "cp-async": ("_cpasync", " tma-producer=false"),
            "overlap-off": ("_overlapoff", " overlap-softmax=false"),
            "pingpong-off": ("_pingpongoff", " ping-pong=false")}


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


def write_and_select(args, name, text, option=""):
    """Writes <out>/<name>.mlir; its path and the tile report's decision
    (for the variant's pipeline `option`, where the report has it)."""
    mlir = os.path.join(args.out, name + ".mlir")
    with open(mlir, "w") as f:
        f.write(text)
    choice = option if "tma-producer" in option else ""
    report = subprocess.run(
        [args.fa_opt, mlir, f"--fa-select-tiles=target={args.chip} report=-{choice}"],
        check=True, capture_output=True, text=True).stdout
    return mlir, json.loads(report.splitlines()[0])


def build_launches(args, name, text, roles, outputs=("output",)):
    """Compiles a function of several kernels: writes each cubin as
    <name>_<module>.cubin and returns (the tile report's decision, buffers,
    launches), or None (said) when it does not build."""
    mlir, tile = write_and_select(args, name, text)
    built = subprocess.run(
        [args.fa_opt, mlir, f"--fa-gpu-pipeline=chip={args.chip} format=bin "
         f"cuda-toolkit={args.cuda}", "--mlir-print-ir-after=gpu-kernel-outlining"],
        capture_output=True, text=True)
    if built.returncode != 0:
        print(f"{name}: not built: {built.stderr.strip().splitlines()[-1]}", flush=True)
        return None
    buffers, launches = decode_launches(built.stderr, roles, outputs)
    for module, cubin in binaries_of(built.stdout).items():
        with open(os.path.join(args.out, f"{name}_{module}.cubin"), "wb") as f:
            f.write(cubin)
    for launch in launches:
        launch["cubin"] = f"{name}_{launch.pop('module')}.cubin"
    return tile, buffers, launches


def pack_decode(args, c, only, manifest):
    """One decode step: every kernel's cubin, and the launches in order."""
    name = f"decode_b{c['batch']}_nk{c['nk']}"
    if only and name not in only:
        return
    built = build_launches(args, name, decode_source(c), ["q", "k", "v", "lengths"])
    if not built:
        return
    tile, buffers, launches = built
    manifest["decode"].append(dict(
        c, name=name, buffers=buffers, launches=launches,
        tiling=[tile["block_q"], tile["block_kv"], tile["warps"], tile["stages"]],
        kv_splits=tile["kv_splits"], pack_gqa=tile["pack_gqa"],
        gpu_kernel=tile["gpu_kernel"],
        hbm_bytes_tiled_est=tile["hbm_bytes_tiled_est"]))
    print(f"{name}: tile {tile['block_q']}x{tile['block_kv']}, {tile['kv_splits']} key "
          f"splits, pack_gqa {str(tile['pack_gqa']).lower()}, {len(launches)} launches: "
          + ", ".join(f"{l['grid']} x {l['block']}" for l in launches), flush=True)


def pack_backward(args, c, only, manifest):
    """One backward step: its three kernels' cubins, and the launches."""
    name = f"backward_n{c['n']}_d{c['d']}{'_causal' if c['causal'] else ''}"
    if only and name not in only:
        return
    built = build_launches(args, name, backward_source(c),
                           ["q", "k", "v", "o", "do", "lse"], ("dq", "dk", "dv"))
    if not built:
        return
    tile, buffers, launches = built
    manifest["backward"].append(dict(
        c, name=name, buffers=buffers, launches=launches,
        tiling=[tile["block_q"], tile["block_kv"], tile["warps"], tile["stages"]]))
    print(f"{name}: tile {tile['block_q']}x{tile['block_kv']}, {tile['warps']} warps, "
          f"{tile['stages']} stage(s), {len(launches)} launches: "
          + ", ".join(f"{l['grid']} x {l['block']} ({l['shared_bytes']} B)"
                      for l in launches), flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chip", default="sm_90")
    parser.add_argument("--out", default=os.path.join(ROOT, "build", "fa-bench"))
    parser.add_argument("--fa-opt", default=os.path.join(ROOT, "build", "bin", "fa-opt"))
    parser.add_argument("--cuda", default=os.environ.get("CUDA_HOME", "/usr/local/cuda"))
    parser.add_argument("--only", default="",
                        help="comma-separated kernel names (e.g. n512_d64), for a quick pack")
    parser.add_argument("--tilings", default="",
                        help="also build the default kernel with these tilings "
                             "written on the op (BQxBKVxWARPSxSTAGES, comma-"
                             "separated; names end in _tBQxBKVwWsS), e.g. "
                             "128x128x8x2 for sm_90a's wgmma kernel at d = 64")
    parser.add_argument("--dims", default="",
                        help="only the sweep configurations of these head dims")
    parser.add_argument("--variants", default="registers,smem,decode,backward",
                        help="which kernels to build: registers (the default "
                             "kernel), smem (register-fragments=false), "
                             "cp-async (tma-producer=false: sm_90a's wgmma "
                             "kernel without TMA), overlap-off and pingpong-off "
                             "(sm_90a's TMA kernel with one of its "
                             "schedules off), decode "
                             "(the decode steps), backward (the backward steps)")
    args = parser.parse_args()
    variants = [v for v in args.variants.split(",") if v]
    for v in variants:
        if v not in VARIANTS and v not in ("decode", "backward"):
            sys.exit(f"unknown variant {v!r}; known: {', '.join(VARIANTS)}")

    shutil.rmtree(args.out, ignore_errors=True)
    os.makedirs(args.out)
    manifest = {"chip": args.chip, "kernels": [], "decode": [], "backward": []}
    only = set(filter(None, args.only.split(",")))
    for c in configs():
        if not set(variants) & set(VARIANTS):
            break
        base = f"n{c['n']}_d{c['d']}{'_causal' if c['causal'] else ''}"
        if only and base not in only:
            continue
        if args.dims and str(c["d"]) not in args.dims.split(","):
            continue
        builds = [(variant, None) for variant in variants if variant in VARIANTS]
        builds += [("registers", tiling) for tiling in parse_tilings(args.tilings)]
        for variant, tiling in builds:
            suffix, option = VARIANTS[variant]
            name = base + suffix
            if tiling:
                name += "_t{}x{}w{}s{}".format(*tiling)
            mlir, tile = write_and_select(args, name, source(c, tiling), option)
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
                        tile["stages"]],
                # The TMA producer kernel takes tensor maps of Q, K and V
                # (boxes of these many rows) in their place.
                tensor_maps=({"q": tile["block_q"], "k": tile["block_kv"],
                              "v": tile["block_kv"]}
                             if gpu_kernel == "wgmma-tma-ws" else None)))
            print(f"{name}: tile {tile['block_q']}x{tile['block_kv']}, "
                  f"{tile['warps']} warps, {tile['stages']} stage(s), "
                  f"{dynamic} bytes dynamic shared memory, {gpu_kernel}",
                  flush=True)
    if "decode" in variants:
        for c in decode_configs():
            pack_decode(args, c, only, manifest)
    if "backward" in variants:
        for c in backward_configs():
            pack_backward(args, c, only, manifest)
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
