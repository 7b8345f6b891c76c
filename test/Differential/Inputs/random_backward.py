#!/usr/bin/env python3
"""Randomized differential test of the backward pass: random
fa.attention + fa.attention_backward programs (sizes that rarely divide a
tile, D != Dv, f32/f16/bf16, GQA and MQA, additive and boolean masks with
random broadcast dims, causal in both alignments, windows with and without
causal, random tiles; half of the additive biases ask for their gradient), each
run through fa-cpu-pipeline tiled
(fa-tile-attention-backward) and with reference=true, every gradient
compared at the dtype's tolerance (make_backward_sweep.TOLERANCE), and the
tiled run checked against the float64 oracle (backward_oracle.check) where
it is small enough for pure Python.

The programs are make_backward_sweep.py's cases, drawn from a seed, so a
failing seed reproduces with:

  random_backward.py show --seed S          # the case and its module
  random_backward.py run --seeds A:B --fa-opt build/bin/fa-opt

With --gpu-kernel the programs are drawn for the GPU kernels
(fa-distribute-attention-backward: f16/bf16, D and Dv multiples of 16,
tiles of whole 16-row fragment tiles, one or two stages) and run through
fa-cpu-pipeline=gpu-kernel=sm_80 with the threads forward and in reverse
(the blocks too), besides the reference and the oracle. A third of the
programs ask for `deterministic` (dQ in a kernel of its own), whose two
orders must agree bit for bit; the others add dQ with atomics, whose sums
may round differently in the two orders: those are held to the reference
at its tolerance.

With --hopper the programs are drawn for sm_90a's dK/dV kernel on wgmma
(D 64, 128 or 256, Dv D or smaller, 64 keys per warpgroup, one or two
warpgroups of keys, two per 64 keys at D = 256, block_q 16 to 64; a third
`deterministic` where the mma.sync dQ kernel fits) and run the same way
through
fa-cpu-pipeline=gpu-kernel=sm_90a; each must compile to that kernel
(fa.warpgroup_mma with transpose_a where dQ is added with atomics).

Frontend joint graphs (autodiff of unfused attention, which
fa-raise-attention turns into these ops) are drawn by random_joint_graph.py.
"""
import argparse
import os
import random
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
INPUTS = os.path.join(HERE, "..", "..", "Integration", "Inputs")
sys.path.insert(0, INPUTS)
import backward_oracle  # noqa: E402
import compare_outputs  # noqa: E402
import make_backward_sweep as sweep  # noqa: E402

LLVM = "/usr/lib/llvm-22"
# Multiply-adds the pure-Python oracle may spend on one program.
ORACLE_BUDGET = 3e6


def draw_masks(rng, b, hq, nq, nk):
    """(mask, causal, window): a boolean or additive mask with random
    broadcast dims (or none), causal in either alignment (or none), a
    window (or none)."""
    mask = None
    kind = rng.random()
    if kind < 0.2:
        shape = tuple(size if rng.random() < 0.6 else 1 for size in (b, hq, nq, nk))
        mask = ("bool", shape)
    elif kind < 0.4:
        shape = tuple(size if rng.random() < 0.6 else 1 for size in (b, hq, nq, nk))
        mask = ("bias", shape)
    causal = rng.choice([None, None, "top_left", "bottom_right"])
    window = None
    if rng.random() < 0.25:
        align = causal or rng.choice(["top_left", "bottom_right"])
        right = 0 if causal else rng.randint(0, 6)
        window = (rng.randint(0, 12), right, align)
    return mask, causal, window


def draw(seed):
    """One backward case (a make_backward_sweep.CASES tuple) from `seed`."""
    rng = random.Random(seed)
    b = rng.choice([1, 1, 2])
    hkv = rng.choice([1, 2])
    hq = hkv * rng.choice([1, 1, 2, 4])
    nq = rng.randint(1, 70)
    nk = rng.randint(1, 70)
    d = rng.choice([4, 8, 16, 32, 64])
    dv = rng.choice([d, d, 8, 16])
    dtype = rng.choice(["f32", "f32", "f16", "bf16"])
    mask, causal, window = draw_masks(rng, b, hq, nq, nk)
    tile = (rng.choice([4, 8, 16, 32]), rng.choice([4, 8, 16, 32]))
    # Half of the additive biases ask for their gradient.
    grad_mask = bool(mask) and mask[0] == "bias" and rng.random() < 0.5
    cost = b * hq * nq * nk * (d + dv)
    return (f"seed{seed}", b, hq, hkv, nq, nk, d, dv, dtype, mask, causal,
            window, tile, grad_mask, cost <= ORACLE_BUDGET,
            f"random backward program of seed {seed}")


def fragment_registers(d, dv, bq, bkv, warps, mask=False):
    """The backward tile model's registers (KernelModel.h,
    backwardRegistersPerThread) for the GPU kernels with `deterministic`
    (the tiling fa-select-tiles accepts for sm_80 takes them where the
    atomic dQ's do not fit), with a mask operand's 24."""
    def kernel_warps(rows):
        w = warps
        while w > 1 and rows % (16 * w):
            w -= 1
        return w
    key_tiles = max(1, bkv // (16 * kernel_warps(bkv)))
    query_tiles = max(1, bq // (16 * kernel_warps(bq)))
    return max(key_tiles * (d / 2 + dv / 2 + 1.5 * bq),
               query_tiles * max(d / 2 + 1.25 * bkv, 1.5 * bkv)) + 60 + (
                   24 if mask else 0)


def draw_heads_and_lengths(rng, longest):
    """(B, Hq, Hkv, Nq, Nk): GQA and MQA groups, lengths up to `longest`."""
    b = rng.choice([1, 1, 2])
    hkv = rng.choice([1, 2])
    hq = hkv * rng.choice([1, 1, 2, 4])
    nq = rng.randint(1, longest)
    nk = rng.randint(1, longest)
    return b, hq, hkv, nq, nk


def finish_gpu_case(rng, seed, sizes, mask, causal, window, tile, what):
    """A GPU_CASES tuple from the drawn sizes (B, Hq, Hkv, Nq, Nk, D, Dv,
    dtype), masks and tile (block_q, block_kv, warps): the stages drawn
    last, and half of the biases asking for their gradient, which the
    kernels compute for biases not broadcast over rows or keys (those dims
    are full then)."""
    b, hq, hkv, nq, nk, d, dv, dtype = sizes
    stages = rng.choice([1, 2])
    grad_mask = bool(mask) and mask[0] == "bias" and rng.random() < 0.5
    if grad_mask:
        mask = ("bias", mask[1][:2] + (nq, nk))
    return (f"seed{seed}", b, hq, hkv, nq, nk, d, dv, dtype, mask, causal,
            window, tile + (stages,), what, grad_mask)


def draw_gpu(seed):
    """One backward case (a make_backward_sweep.GPU_CASES tuple) for the GPU
    kernels, from `seed`."""
    rng = random.Random(seed)
    b, hq, hkv, nq, nk = draw_heads_and_lengths(rng, 90)
    d = rng.choice([16, 32, 64])
    dv = rng.choice([d, d, 16, 32])
    dtype = rng.choice(["f16", "bf16"])
    mask, causal, window = draw_masks(rng, b, hq, nq, nk)
    while True:
        bq, bkv = rng.choice([16, 32, 64]), rng.choice([16, 32, 64])
        warps = rng.choice([1, 2, 4])
        if fragment_registers(d, dv, bq, bkv, warps, bool(mask)) <= 255:
            break
    return finish_gpu_case(rng, seed, (b, hq, hkv, nq, nk, d, dv, dtype),
                           mask, causal, window, (bq, bkv, warps),
                           f"random backward program of seed {seed} for the "
                           "GPU kernels")


def column_split(d, dv):
    """Warpgroups per 64 keys (warpgroupBackwardColumnSplit): 2 where D or
    Dv is above 128, each with half of dK's and dV's columns."""
    return 2 if max(d, dv) > 128 else 1


def warpgroup_registers(d, dv, bq, bkv, band, mask=False):
    """The wgmma dK/dV kernel's registers (backwardRegistersPerThread on
    sm_90a): (D/2 + Dv/2) / split + 2 block_q + 22 + block_kv/8, block_q as
    the next power of two, + 16 + block_q/2 under a causal band or window,
    + a mask operand's 24."""
    queries = 1 << (bq - 1).bit_length()
    return ((d / 2 + dv / 2) / column_split(d, dv) + 2 * queries + 22 +
            bkv / 8 + (16 + queries / 2 if band else 0) + (24 if mask else 0))


def bias_gradient_registers(bq, bkv, warps):
    """The mma.sync bias-gradient kernel's registers, which the backward
    model counts beside the dK/dV kernel wherever a mask operand is
    (backwardRegistersPerThread): 3 block_kv / 2 per 16-row fragment tile
    of the block's query rows, + 60, + the mask's 24."""
    w = warps
    while w > 1 and bq % (16 * w):
        w -= 1
    return max(1, bq // (16 * w)) * 1.5 * bkv + 60 + 24


def draw_hopper(seed):
    """One backward case (a GPU_CASES tuple) for sm_90a's wgmma dK/dV
    kernel, from `seed`."""
    rng = random.Random(seed)
    # Up to two 64-key blocks or one of 128 and a tail; 130 keys keep the
    # keys' ramp (make_tiling_sweep's K[j, 0] += 0.08 j) where f16's
    # tolerance holds the reference's own rounding.
    b, hq, hkv, nq, nk = draw_heads_and_lengths(rng, 130)
    d = rng.choice([64, 128, 256])
    # D = 256 splits dK and dV by columns: Dv's half a whole 64-column
    # block.
    dv = rng.choice([d, d, 64 if d <= 128 else 128])
    dtype = rng.choice(["f16", "bf16"])
    mask, causal, window = draw_masks(rng, b, hq, nq, nk)
    band = bool(causal or window)
    split = column_split(d, dv)
    while True:
        bq, bkv = rng.choice([16, 32, 64]), rng.choice([64, 128])
        warps = bkv // 16 * split
        registers = warpgroup_registers(d, dv, bq, bkv, band, bool(mask))
        if (warps <= 16 and registers * warps * 32 <= 65536 and
                registers <= 255 and
                (not mask or bias_gradient_registers(bq, bkv, warps) <= 255)):
            break
    return finish_gpu_case(rng, seed, (b, hq, hkv, nq, nk, d, dv, dtype),
                           mask, causal, window, (bq, bkv, warps),
                           f"random backward program of seed {seed} for "
                           "sm_90a's wgmma kernel")


def as_case(gpu_case):
    """A GPU_CASES tuple as the CASES tuple the oracle takes."""
    return gpu_case[:12] + (gpu_case[12][:2], gpu_case[14],
                            gpu_case[1] * gpu_case[2] * gpu_case[4] * gpu_case[5] *
                            (gpu_case[6] + gpu_case[7]) <= ORACLE_BUDGET,
                            gpu_case[13])


def run_pipeline(fa_opt, path, options, out):
    libs = ",".join(os.path.join(LLVM, "lib", lib) for lib in
                    ("libmlir_runner_utils.so", "libmlir_c_runner_utils.so"))
    compiled = subprocess.run([fa_opt, path, "--fa-cpu-pipeline=" + options],
                              capture_output=True, text=True)
    if compiled.returncode:
        return "fa-opt failed: " + compiled.stderr.strip().splitlines()[0]
    ran = subprocess.run([os.path.join(LLVM, "bin", "mlir-runner"), "-e", "main",
                          "-entry-point-result=void", "-shared-libs=" + libs],
                         input=compiled.stdout, capture_output=True, text=True)
    if ran.returncode:
        return "mlir-runner failed: " + ran.stderr.strip()[:200]
    with open(out, "w") as f:
        f.write(ran.stdout)
    return None


def data_lines(path):
    """The printed values, without the buffers' addresses."""
    return [line for line in open(path) if "base@" not in line]


def run_seed(seed, fa_opt, workdir, gpu_kernel=False, hopper=False):
    """Returns a list of problems (empty when the seed passes) and whether
    the oracle checked it."""
    path = os.path.join(workdir, f"seed{seed}.mlir")
    deterministic = False
    chip = "sm_90a" if hopper else "sm_80"
    gpu_kernel = gpu_kernel or hopper
    if gpu_kernel:
        gpu_case = draw_hopper(seed) if hopper else draw_gpu(seed)
        case = as_case(gpu_case)
        text = sweep.module_text(gpu_case, gpu=True, chip=chip)
        # Drawn apart, so that the seeds' programs stay what they were;
        # for sm_90a only where the mma.sync dQ kernel fits the tiling too.
        deterministic = random.Random(7919 * seed + 1).random() < 1 / 3
        if hopper:
            d, dv, (bq, bkv, warps, _) = gpu_case[6], gpu_case[7], gpu_case[12]
            deterministic = deterministic and fragment_registers(
                d, dv, bq, bkv, warps, bool(gpu_case[9])) <= 255
        if deterministic:
            text = text.replace(" tiling = <block_q",
                                " deterministic tiling = <block_q")
        runs = (f"gpu-kernel={chip}", "reference=true",
                f"gpu-kernel={chip} thread-order=reverse")
    else:
        case = draw(seed)
        text = sweep.module_text(case)
        runs = ("", "reference=true")
    with open(path, "w") as f:
        f.write(text)
    tiled, reference = path + ".tiled", path + ".reference"
    outputs = [tiled, reference, path + ".reverse"]
    problems = []
    for options, out in zip(runs, outputs):
        problem = run_pipeline(fa_opt, path, options, out)
        if problem:
            problems.append(problem)
    if problems:
        return problems, False, False
    if gpu_kernel:
        # The kernels took the op (the CPU pipeline would otherwise have
        # run it tiled).
        kernel = subprocess.run(
            [fa_opt, path, f"--fa-select-tiles=target={chip}",
             "--fa-distribute-attention-backward" +
             ("=warpgroup-mma=true" if hopper else "")],
            capture_output=True, text=True)
        if kernel.returncode:
            problems.append("no kernel: " + kernel.stderr.strip()[:300])
        elif hopper and ("fa.warpgroup_mma" not in kernel.stdout or
                         (not deterministic and
                          "transpose_a" not in kernel.stdout)):
            problems.append("the dK/dV kernel is not on wgmma")
    if gpu_kernel and deterministic and data_lines(outputs[2]) != data_lines(tiled):
        problems.append("the kernel's threads in reverse give other numbers")
    rtol, atol = sweep.TOLERANCE[case[8]]
    if gpu_kernel and not deterministic:
        reversed_run = subprocess.run(
            [sys.executable, os.path.join(INPUTS, "compare_outputs.py"),
             outputs[2], reference, "--rtol", rtol, "--atol", atol],
            capture_output=True, text=True)
        if reversed_run.returncode:
            problems.append("kernel in reverse vs reference: " +
                            reversed_run.stdout.strip()[:300])
    compared = subprocess.run(
        [sys.executable, os.path.join(INPUTS, "compare_outputs.py"), tiled,
         reference, "--rtol", rtol, "--atol", atol],
        capture_output=True, text=True)
    if compared.returncode:
        problems.append(("kernel" if gpu_kernel else "tiled") + " vs reference: " +
                        compared.stdout.strip()[:300])
    if case[14]:
        from io import StringIO
        saved, sys.stdout = sys.stdout, StringIO()
        try:
            off = backward_oracle.check(case, [tiled])
            report = sys.stdout.getvalue()
        finally:
            sys.stdout = saved
        if off:
            problems.append("oracle: " + report.strip()[:300])
    if hopper and problems and all(
            p.startswith(TOLERANCE_PROBLEMS) for p in problems):
        # The wgmma kernel missed the unfused reference (or the oracle) at
        # the dtype's tolerance. Where the mma.sync backward kernels, which
        # round P and dS to the input type at the same points (and are
        # checked against the reference and the oracle on their own), give
        # the kernel's numbers after the same forward kernel, that is the
        # rounding's edge, not the kernel's: a seed at the edge, reported
        # apart.
        host = path + ".mma"
        mma_sync = subprocess.run(
            [fa_opt, path, "--fa-distribute-attention-backward", "-o",
             path + ".mma.mlir"], capture_output=True, text=True)
        problem = mma_sync.returncode or run_pipeline(
            fa_opt, path + ".mma.mlir", f"gpu-kernel={chip}", host)
        same = not problem and all(
            subprocess.run(
                [sys.executable, os.path.join(INPUTS, "compare_outputs.py"),
                 out, host, "--rtol", EDGE_RTOL, "--atol", EDGE_ATOL],
                capture_output=True, text=True).returncode == 0
            for out in ([tiled, outputs[2]]))
        if same:
            return [], case[14], True
    return problems, case[14], False


# Problems that only say the numbers missed a tolerance.
TOLERANCE_PROBLEMS = ("kernel vs reference", "kernel in reverse vs reference",
                      "oracle:")
# The wgmma kernel against the mma.sync kernels at a tolerance edge: the
# same rounding of P and dS, f32 sums in another order, the gradients
# rounded to the input type (a unit in the last place apart at most).
EDGE_RTOL, EDGE_ATOL = "1e-2", "1e-3"


def main():
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="command", required=True)
    show = sub.add_parser("show")
    show.add_argument("--seed", type=int, required=True)
    run = sub.add_parser("run")
    run.add_argument("--seeds", required=True, help="A:B, B excluded")
    run.add_argument("--fa-opt", required=True)
    for command in (show, run):
        command.add_argument("--gpu-kernel", action="store_true",
                             help="programs for the GPU kernels, run with "
                                  "emulated threads (sm_80)")
        command.add_argument("--hopper", action="store_true",
                             help="programs for sm_90a's wgmma dK/dV kernel, "
                                  "run with emulated threads")
    args = parser.parse_args()

    def drawn_case(seed):
        if args.hopper:
            return draw_hopper(seed)
        return draw_gpu(seed) if args.gpu_kernel else draw(seed)

    gpu = args.gpu_kernel or args.hopper
    if args.command == "show":
        case = drawn_case(args.seed)
        print("// " + repr(case))
        print(sweep.module_text(case, gpu=gpu,
                                chip="sm_90a" if args.hopper else "sm_80"))
        return 0
    first, last = (int(x) for x in args.seeds.split(":"))
    failing, edges, oracle_checked = [], [], 0
    bias_gradients = sum(drawn_case(seed)[14 if gpu else 13]
                         for seed in range(first, last))
    with tempfile.TemporaryDirectory() as workdir:
        for seed in range(first, last):
            problems, checked, edge = run_seed(seed, args.fa_opt, workdir,
                                               args.gpu_kernel, args.hopper)
            oracle_checked += checked
            if edge:
                edges.append(seed)
            if problems:
                failing.append(seed)
                drawn = drawn_case(seed)
                print(f"seed {seed} FAILED: {drawn}")
                for problem in problems:
                    print("  " + problem)
    print(f"oracle checked {oracle_checked} of {last - first} programs, "
          f"{bias_gradients} with the bias gradient")
    if edges:
        print(f"{len(edges)} at the tolerance's edge "
              f"({', '.join(map(str, edges))}): the kernel missed the "
              "reference or the oracle where the mma.sync backward kernels, "
              "rounding P and dS alike, give its numbers")
    kind = ("backward programs for sm_90a's wgmma kernel" if args.hopper
            else "backward programs for the GPU kernels" if args.gpu_kernel
            else "backward programs")
    print(f"seeds {first}..{last - 1}: {last - first} {kind}, "
          f"{len(failing)} failing seeds" +
          (f" ({', '.join(map(str, failing))})" if failing else ""))
    return 1 if failing else 0


if __name__ == "__main__":
    sys.exit(main())
