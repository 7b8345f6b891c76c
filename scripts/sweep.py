#!/usr/bin/env python3
"""The sampled sweep over what users compile (issue 50).

Each seed draws one attention a user might write, directly as the fa op:
the op (forward, backward, linear), batch, heads and GQA group, Nq and Nk
(1, primes, non-multiples of every tile, 8192, or run-time sizes), d and dv
in {32, 64, 80, 96, 128, 192, 256}, f32, f16 or bf16, and its features
(causal either way, a window, an additive bias, a boolean mask, mask_fill,
score_mod, mask_mod, sinks, kv_lengths, the logsumexp), then checks it as a
user would see it:

  * `fa-cpu-pipeline` (the host) compiles it;
  * every GPU pipeline it draws (a chip preset; on sm_90a with and without
    the TMA producer; index-bitwidth 32) compiles it or refuses with an
    error at the op; never a crash or an error from elsewhere;
  * every kernel ptxas assembles spills nothing, keeps setmaxnreg (no
    C7507/C7508) and its wgmmas asynchronous (no C7513/C7519/C7520), fits
    255 registers, and uses the shared memory the tile report states;
  * small forward and linear draws run through mlir-runner: the host's
    tiles, and for f16/bf16 the kernel emulated on the CPU
    (`gpu-kernel=sm_80|sm_90|sm_90a`), against `reference=true`.

  scripts/sweep.py --seeds 1:200                  # a range of draws
  scripts/sweep.py --seeds 7 --show               # one draw's module
  scripts/sweep.py --seeds 1:2000 --jobs 2 --no-run   # compile checks only
  scripts/sweep.py --seeds 1:1500 --op backward --chip sm_90a --no-run
                                                  # only the draws of one op
                                                  # that one chip compiles

Prints one line per failing draw (seed, what was drawn, what failed) and a
summary `sweep: N draws, M failed (...)`; exits 1 if any failed. The seeds
give the same draws on every machine (random.Random(seed)).
"""
import argparse
import json
import os
import random
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "test", "Integration", "Inputs"))
import make_tiling_sweep as inputs  # noqa: E402  (@fill and its callers)

LLVM = "/usr/lib/llvm-22"
RUNNER_LIBS = ",".join(f"{LLVM}/lib/{name}" for name in
                       ("libmlir_runner_utils.so", "libmlir_c_runner_utils.so"))
CHIPS = ["sm_75", "sm_80", "sm_86", "sm_89", "sm_90", "sm_90a", "sm_100", "sm_120"]
HEAD_DIMS = [32, 64, 80, 96, 128, 192, 256]
LENGTHS = [1, 2, 7, 16, 37, 64, 100, 127, 128, 129, 176, 200, 257, 353,
           1000, 1024, 2048, 4095, 8192]
# f32 compares to the reference to rounding; f16/bf16 also round P.
TOLERANCE = {"f32": ("1e-4", "1e-5"), "f16": ("1e-2", "5e-3"),
             "bf16": ("3e-2", "2e-2")}
# fa-confirm-tiles-with-ptxas's remark where it retiled an op, and its
# warning where every tiling it tried spills (or the user's does).
RETILED = re.compile(r"remark: ptxas spills .*; retiled to ")
WARNED = re.compile(r"warning: (ptxas spills .*no lighter tiling is left|"
                    r"the tiling written on the op spills)")
CRASH = re.compile(r"Stack dump|Assertion|LLVM ERROR|UNREACHABLE|Segmentation|"
                   r"PLEASE submit a bug report")


class Draw:
    """One attention and the pipelines to compile it with."""

    def __init__(self, seed):
        r = random.Random(seed)
        self.seed = seed
        self.op = r.choices(["forward", "backward", "linear"], [6, 2, 2])[0]
        self.dtype = r.choice(["f32", "f16", "bf16"])
        self.batch = r.choice([1, 1, 2])
        self.kv_heads = r.choice([1, 2, 4])
        self.group = r.choice([1, 1, 2, 4])
        self.heads = self.kv_heads * self.group
        self.d = r.choice(HEAD_DIMS)
        self.dv = self.d if r.random() < 0.8 else r.choice(
            [x for x in HEAD_DIMS if x <= self.d])
        self.nk = r.choice(LENGTHS)
        self.nq = r.choice([1, self.nk, self.nk, r.choice(LENGTHS)])
        if self.op == "linear":
            self.nq = self.nk
        self.dynamic = r.random() < 0.2
        self.causal = r.choice([None, None, "top_left", "bottom_right"])
        if self.causal == "top_left" and self.nq > self.nk:
            self.causal = "bottom_right"
        # What the verifier rejects is not drawn (its errors are tested in
        # test/Dialect/FA): a window aligned as the causal mask is, with no
        # keys right of the diagonal under it, and mask_fill only where no
        # band or length skips hidden keys.
        self.window = None
        self.mask = None  # ("bias" | "bool", broadcast shape)
        self.mask_fill = False
        self.score_mod = self.mask_mod = self.sinks = False
        self.kv_lengths = self.lse = False
        if self.op != "linear":
            if r.random() < 0.15:
                self.window = (r.choice([0, 3, 64, 200]),
                               0 if self.causal else r.choice([0, 5]),
                               self.causal or r.choice(["top_left", "bottom_right"]))
            if r.random() < 0.25:
                kind = r.choice(["bias", "bool"])
                self.mask = (kind, (r.choice([1, self.batch]),
                                    r.choice([1, self.heads]), self.nq, self.nk))
                self.mask_fill = (kind == "bool" and r.random() < 0.5 and
                                  not self.causal and not self.window)
            self.score_mod = r.random() < 0.15
            self.mask_mod = r.random() < 0.1
            self.sinks = r.random() < 0.1
            self.lse = self.op == "forward" and r.random() < 0.3
            self.kv_lengths = (self.op == "forward" and not self.mask and
                               r.random() < 0.1)
            if self.kv_lengths:
                self.mask_fill = False
        self.normalize = self.op == "linear" and r.random() < 0.5
        # Pipelines beside the host's: one or two GPU chips and options.
        self.gpu = []
        for chip in r.sample(CHIPS, 2):
            options = []
            if chip == "sm_90a" and r.random() < 0.3:
                options.append("tma-producer=false")
            if r.random() < 0.15:
                options.append("index-bitwidth=32")
            self.gpu.append((chip, options))
        self.emulate = r.choice(["sm_80", "sm_90", "sm_90a"])

    force_run = False
    # A mask_mod's body (the ops before and including fa.yield) in place of
    # the fixed one; random_mask_mod() draws them.
    mask_mod_body = None

    @classmethod
    def fixed(cls, op, dtype, batch, heads, kv_heads, nq, nk, d, dv, **features):
        """A draw written out, for tests that pin a case: no features but
        `features` (name=value), no GPU pipeline, always run."""
        draw = cls(0)
        draw.op, draw.dtype, draw.batch = op, dtype, batch
        draw.heads, draw.kv_heads, draw.group = heads, kv_heads, heads // kv_heads
        draw.nq, draw.nk, draw.d, draw.dv = nq, nk, d, dv
        draw.dynamic = False
        draw.causal = draw.window = draw.mask = None
        draw.mask_fill = draw.score_mod = draw.mask_mod = draw.sinks = False
        draw.kv_lengths = draw.lse = draw.normalize = False
        draw.gpu, draw.emulate, draw.force_run = [], None, True
        for name, value in features.items():
            setattr(draw, name, value)
        return draw

    def small(self):
        """Whether mlir-runner can run it within a second or two."""
        if self.force_run:
            return True
        work = self.batch * self.heads * self.nq * self.nk * (self.d + self.dv)
        return self.op != "backward" and work <= 4e6 and not self.dynamic

    def describe(self):
        parts = [self.op, self.dtype, f"B={self.batch}",
                 f"H={self.heads}/{self.kv_heads}", f"Nq={self.nq}",
                 f"Nk={self.nk}", f"d={self.d}", f"dv={self.dv}"]
        for name in ("causal", "window", "mask", "mask_fill", "score_mod",
                     "mask_mod", "sinks", "kv_lengths", "lse", "normalize",
                     "dynamic"):
            value = getattr(self, name)
            if value:
                parts.append(name if value is True else f"{name}={value}")
        return " ".join(parts)

    # -- the module ---------------------------------------------------------

    def tensor(self, dims, dtype=None):
        dtype = dtype or self.dtype
        shape = "x".join("?" if self.dynamic and i == 2 and len(dims) == 4 else str(x)
                         for i, x in enumerate(dims))
        return f"tensor<{shape}x{dtype}>"

    def types(self):
        q = self.tensor([self.batch, self.heads, self.nq, self.d])
        k = self.tensor([self.batch, self.kv_heads, self.nk, self.d])
        v = self.tensor([self.batch, self.kv_heads, self.nk, self.dv])
        o = self.tensor([self.batch, self.heads, self.nq, self.dv])
        lse = (f"tensor<{self.batch}x{self.heads}x"
               f"{'?' if self.dynamic else self.nq}xf32>")
        return q, k, v, o, lse

    def mask_type(self):
        kind, shape = self.mask
        dtype = "i1" if kind == "bool" else self.dtype
        return self.tensor(list(shape), dtype)

    def attributes(self):
        text = f"scale = {0.125 if self.score_mod else 0.3}"
        if self.mask_fill:
            text += " mask_fill = -1.0e+04"
        if self.causal:
            text += f" causal = {self.causal}"
        if self.window:
            left, right, align = self.window
            text += f" window = <left = {left}, right = {right}, align = {align}>"
        if self.score_mod:
            text += (" score_mod {\n  ^bb0(%s: f32, %b: index, %h: index, %i: index, %j: index):\n"
                     "    %cap = arith.constant 2.5 : f32\n"
                     "    %x = arith.divf %s, %cap : f32\n"
                     "    %t = math.tanh %x : f32\n"
                     "    %y = arith.mulf %t, %cap : f32\n"
                     "    fa.yield %y : f32\n  }")
        if self.mask_mod:
            body = self.mask_mod_body or (
                "    %c3 = arith.constant 3 : index\n"
                "    %r = arith.remui %j, %c3 : index\n"
                "    %c0 = arith.constant 0 : index\n"
                "    %keep = arith.cmpi ne, %r, %c0 : index\n"
                "    fa.yield %keep : i1\n")
            text += (" mask_mod {\n  ^bb0(%b: index, %h: index, %i: index, %j: index):\n"
                     + body + "  }")
        return text

    def function(self):
        """func.func @attention with the op, its operands as arguments."""
        q, k, v, o, lse = self.types()
        args = [f"%q: {q}", f"%k: {k}", f"%v: {v}"]
        operands = ""
        if self.op == "linear":
            attrs = "scale = 0.3" + (" causal" if self.causal else "") + (
                " normalize(eps = 1.0e-06)" if self.normalize else "")
            return (f"func.func @attention({', '.join(args)}) -> {o} {{\n"
                    f"  %o = fa.linear_attention %q, %k, %v {attrs} : {q}, {k}, {v} -> {o}\n"
                    f"  return %o : {o}\n}}\n")
        if self.op == "backward":
            args += [f"%o: {o}", f"%do: {o}", f"%lse: {lse}"]
        if self.mask:
            args.append(f"%mask: {self.mask_type()}")
            operands += f" mask(%mask : {self.mask_type()})"
        if self.kv_lengths:
            args.append(f"%len: tensor<{self.batch}xi32>")
            operands += f" kv_lengths(%len : tensor<{self.batch}xi32>)"
        if self.sinks:
            args.append(f"%sinks: tensor<{self.heads}xf32>")
            operands += f" sinks(%sinks : tensor<{self.heads}xf32>)"
        if self.op == "backward":
            results = [q, k, v]
            body = (f"  %dq, %dk, %dv = fa.attention_backward %q, %k, %v, %o, %do, %lse{operands} "
                    f"{self.attributes()} : {q}, {k}, {v}, {o}, {o}, {lse} -> {q}, {k}, {v}"
                    + (f" grad_sinks(tensor<{self.heads}xf32>)" if False else "") + "\n"
                    f"  return %dq, %dk, %dv : {q}, {k}, {v}\n")
            return (f"func.func @attention({', '.join(args)}) -> ({', '.join(results)}) {{\n"
                    f"{body}}}\n")
        results = [o] + ([lse] if self.lse else [])
        names = "%out, %l" if self.lse else "%out"
        ret = ", ".join(results)
        return (f"func.func @attention({', '.join(args)}) -> ({ret}) {{\n"
                f"  {names} = fa.attention %q, %k, %v{operands} {self.attributes()} : "
                f"{q}, {k}, {v} -> {ret}\n"
                f"  return {names} : {ret}\n}}\n")

    def main(self):
        """@main: inputs from @fill, the call, the output (and logsumexp)
        printed as f32."""
        dims = {self.batch, self.heads, self.kv_heads, self.nq, self.nk, self.d, self.dv}
        text = "func.func @main() {\n"
        for x in sorted(dims):
            text += f"  %c{x} = arith.constant {x} : index\n"
        values = []
        for seed, shape in ((1, [self.batch, self.heads, self.nq, self.d]),
                            (2, [self.batch, self.kv_heads, self.nk, self.d]),
                            (3, [self.batch, self.kv_heads, self.nk, self.dv])):
            code, value = inputs.make_input(shape, seed, self.dtype)
            text += code
            values.append(value)
        q, k, v, o, lse = self.types()
        if self.mask:
            code, value, _ = inputs.make_mask_input(self.mask, self.dtype)
            text += code
            values.append(value)
        if self.kv_lengths:
            lengths = ", ".join(str(max(0, self.nk - 3 * b)) for b in range(self.batch))
            text += f"  %len = arith.constant dense<[{lengths}]> : tensor<{self.batch}xi32>\n"
            values.append("%len")
        if self.sinks:
            sinks = ", ".join(f"{0.5 - 0.25 * h:.2f}" for h in range(self.heads))
            text += f"  %sinks = arith.constant dense<[{sinks}]> : tensor<{self.heads}xf32>\n"
            values.append("%sinks")
        arg_types = [q, k, v] + ([self.mask_type()] if self.mask else []) + (
            [f"tensor<{self.batch}xi32>"] if self.kv_lengths else []) + (
            [f"tensor<{self.heads}xf32>"] if self.sinks else [])
        results = [o] + ([lse] if self.lse else [])
        names = ["%r0"] + (["%r1"] if self.lse else [])
        text += (f"  {', '.join(names)} = call @attention({', '.join(values)}) : "
                 f"({', '.join(arg_types)}) -> ({', '.join(results)})\n")
        out = "%r0"
        if self.dtype != "f32":
            text += f"  %r0f = arith.extf %r0 : {o} to {self.tensor([self.batch, self.heads, self.nq, self.dv], 'f32')}\n"
            out = "%r0f"
        text += (f"  %p0 = tensor.cast {out} : {self.tensor([self.batch, self.heads, self.nq, self.dv], 'f32')} to tensor<*xf32>\n"
                 "  call @printMemrefF32(%p0) : (tensor<*xf32>) -> ()\n")
        if self.lse:
            text += (f"  %p1 = tensor.cast %r1 : {lse} to tensor<*xf32>\n"
                     "  call @printMemrefF32(%p1) : (tensor<*xf32>) -> ()\n")
        text += "  return\n}\n"
        return text

    def module(self, runnable):
        text = self.function()
        if runnable:
            text = ("func.func private @printMemrefF32(tensor<*xf32>)\n\n" + text +
                    "\n" + inputs.INPUT_FUNCTIONS + self.main())
        return text


# -- the checks --------------------------------------------------------------

def random_mask_mod(rng, depth=3):
    """The body of a random mask_mod over (b, h, i, j): integer arithmetic
    on positions (add, sub, mul by constants of both signs, min, max,
    select), signed comparisons of every kind, and, or, not, xor and select
    of those, and now and then an op the interval analysis does not bound
    (remui, xor of two unknowns), so that both its exact rules and its
    "unknown" fall-back are drawn."""
    lines = []

    def fresh(text, kind):
        name = f"%v{len(lines)}"
        lines.append(f"    {name} = {text}" + (f" : {kind}" if kind else ""))
        return name

    def constant(value):
        return fresh(f"arith.constant {value}", "index")

    def integer(level):
        if level == 0 or rng.random() < 0.25:
            pick = rng.random()
            if pick < 0.3:  # a relative position, as causal and window masks use
                a, b = rng.choice([("%i", "%j"), ("%j", "%i")])
                return fresh(f"arith.subi {a}, {b}", "index")
            if pick < 0.8:
                return rng.choice(["%i", "%j", "%i", "%j", "%b", "%h"])
            return constant(rng.randint(-7, 7))
        kind = rng.choice(["add", "sub", "mul", "min", "max", "select", "rem"])
        if kind == "mul":
            factor = constant(rng.choice([-3, -2, -1, 2, 3]))
            return fresh(f"arith.muli {integer(level - 1)}, {factor}", "index")
        if kind == "rem":
            divisor = constant(rng.randint(2, 5))
            return fresh(f"arith.remui {integer(level - 1)}, {divisor}", "index")
        if kind == "select":
            cond = boolean(level - 1)
            a, b = integer(level - 1), integer(level - 1)
            return fresh(f"arith.select {cond}, {a}, {b}", "index")
        op = {"add": "addi", "sub": "subi", "min": "minsi", "max": "maxsi"}[kind]
        a, b = integer(level - 1), integer(level - 1)
        return fresh(f"arith.{op} {a}, {b}", "index")

    def boolean(level):
        if level > 0 and rng.random() < 0.4:
            op = rng.choice(["andi", "ori", "xori", "not", "select"])
            if op == "not":  # xor with true, which the analysis negates
                a, true = boolean(level - 1), fresh("arith.constant true", None)
                return fresh(f"arith.xori {a}, {true}", "i1")
            if op == "select":
                c, a, b = boolean(level - 1), boolean(level - 1), boolean(level - 1)
                return fresh(f"arith.select {c}, {a}, {b}", "i1")
            a, b = boolean(level - 1), boolean(level - 1)
            return fresh(f"arith.{op} {a}, {b}", "i1")
        predicate = rng.choice(["slt", "sle", "sgt", "sge", "eq", "ne"])
        a, b = integer(level), integer(level)
        name = f"%v{len(lines)}"
        lines.append(f"    {name} = arith.cmpi {predicate}, {a}, {b} : index")
        return name

    keep = boolean(depth)
    return "\n".join(lines) + f"\n    fa.yield {keep} : i1\n"


def run(cmd, timeout=300, **kwargs):
    try:
        return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, **kwargs)
    except subprocess.TimeoutExpired:
        return subprocess.CompletedProcess(cmd, 124, "", f"timed out after {timeout} s")


def op_line(module):
    for number, line in enumerate(module.split("\n"), 1):
        if re.search(r"= fa\.(attention|attention_backward|linear_attention) ", line):
            return number
    return None


def refusal_problem(result, source, module):
    """None if `result` compiled or refused properly, else what is wrong."""
    if result.returncode == 0:
        return None
    if result.returncode == 124:
        return "timed out"
    if result.returncode < 0 or CRASH.search(result.stderr):
        return "crashed: " + result.stderr.strip().splitlines()[-1][:200]
    line = op_line(module)
    first = next((l for l in result.stderr.splitlines() if "error:" in l), "")
    # The pipeline refusing a combination of its own options says so.
    if re.search(r"error: fa-(gpu|cpu)-pipeline: ", first):
        return None
    if not re.match(rf"{re.escape(source)}:{line}:\d+: error: ", first):
        return "an error not at the op: " + (first or result.stderr.strip()[:200])[:240]
    return None


def ptx_objects(text):
    return [re.sub(r"\\([0-9A-Fa-f]{2})", lambda m: chr(int(m.group(1), 16)), match)
            for match in re.findall(r'#gpu\.object<#nvvm\.target<[^>]*>[^"]*"((?:[^"\\]|\\.)*)"',
                                    text, re.S)]


def block_shared_bytes(static, ptx_text, dynamic):
    """The shared memory one block of the kernel `ptx_text` uses, from
    ptxas's static count and its launch's dynamic size: with dynamic shared
    memory, the launch's size past the static globals, which are upstream's
    1-byte base symbol alone or, in the TMA kernel, its mbarriers, after
    which the 1024-aligned base of a wgmma kernel's tiles starts a 1024-byte
    slot later (KernelModel.h, kTmaBarrierSlotBytes)."""
    if "__dynamic_shmem__" not in ptx_text:
        return static
    extra = static if static > 16 else 0
    return -(-extra // 1024) * 1024 + dynamic


def check_kernels(args, tmp, draw, chip, compiled, report):
    """ptxas on every kernel: problems found."""
    problems = []
    dynamic = [int(x) for x in re.findall(r"dynamic_shared_memory_size %c(\d+)_i32",
                                          compiled.stderr)]
    shared_sizes = []
    dynamic_kernels = 0  # launches with dynamic shared memory, in order
    for index, ptx_text in enumerate(ptx_objects(compiled.stdout)):
        path = os.path.join(tmp, f"k{index}.ptx")
        with open(path, "w") as f:
            f.write(ptx_text)
        assembled = run([args.ptxas, "-v", f"-arch={chip}", path, "-o", os.devnull])
        info = assembled.stderr
        if assembled.returncode:
            problems.append(f"{chip} kernel {index}: ptxas failed: {info.strip()[:200]}")
            continue
        spills = sum(int(x) for x in re.findall(r"(\d+) bytes spill stores", info))
        registers = int(re.search(r"Used (\d+) registers", info).group(1))
        static = re.search(r"(\d+) bytes smem", info)
        shared = static and int(static.group(1)) or 0
        if "__dynamic_shmem__" in ptx_text:
            shared = block_shared_bytes(
                shared, ptx_text, dynamic[dynamic_kernels]
                if dynamic_kernels < len(dynamic) else 0)
            dynamic_kernels += 1
        shared_sizes.append(shared)
        if spills:
            problems.append(f"{chip} kernel {index}: {spills} bytes of spill stores")
        if registers > 255:
            problems.append(f"{chip} kernel {index}: {registers} registers")
        if re.search(r"C750[78]", info):
            problems.append(f"{chip} kernel {index}: ptxas ignored setmaxnreg")
        if re.search(r"C75(13|19|20)", info):
            problems.append(f"{chip} kernel {index}: ptxas serialized a wgmma")
    if report and shared_sizes and report.get("smem_bytes") is not None:
        expected = report["smem_bytes"]
        got = max(shared_sizes) if draw.op == "backward" else shared_sizes[0]
        if got != expected:
            problems.append(f"{chip}: kernels use {got} bytes of shared memory, "
                            f"the report says {expected}")
    return problems


def printed(args, source, options):
    """What mlir-runner prints for `source` through fa-cpu-pipeline."""
    lowered = run([args.fa_opt, source, f"--fa-cpu-pipeline={options}".rstrip("=")])
    if lowered.returncode:
        return None, lowered
    ran = run([f"{LLVM}/bin/mlir-runner", "-e", "main", "-entry-point-result=void",
               f"-shared-libs={RUNNER_LIBS}"], input=lowered.stdout)
    return ran.stdout if ran.returncode == 0 else None, ran


def compare(args, tmp, dtype, got, expected, what):
    a, b = os.path.join(tmp, "got.txt"), os.path.join(tmp, "expected.txt")
    with open(a, "w") as f:
        f.write(got)
    with open(b, "w") as f:
        f.write(expected)
    rtol, atol = TOLERANCE[dtype]
    result = run([sys.executable, os.path.join(ROOT, "test", "Integration", "Inputs",
                                               "compare_outputs.py"),
                  a, b, "--rtol", rtol, "--atol", atol])
    if result.returncode:
        return [f"{what} differs from the reference: "
                f"{(result.stdout + result.stderr).strip().splitlines()[-1][:200]}"]
    return []


def check_draw(args, seed):
    return check(args, Draw(seed))


def failing(problems):
    return [p for p in problems if not p.startswith("warned at the op: ")]


def check(args, draw):
    """(draw, problems, whether it ran, chips retiled, chips warned)."""
    problems = []
    retiled, warned = [], []
    with tempfile.TemporaryDirectory() as tmp:
        runnable = not args.no_run and draw.small()
        module = draw.module(runnable)
        source = os.path.join(tmp, "draw.mlir")
        with open(source, "w") as f:
            f.write(module)
        # The host: never refuses.
        host_options = (f"--fa-cpu-pipeline=host-cache-bytes={args.host_cache_bytes}"
                        if args.host_cache_bytes else "--fa-cpu-pipeline")
        host = run([args.fa_opt, source, host_options, "-o", os.devnull])
        if host.returncode:
            problem = refusal_problem(host, source, module) or (
                "the host refused: " +
                next((l for l in host.stderr.splitlines() if "error" in l), "")[:200])
            problems.append(problem)
        # The GPU pipelines: compiled and clean, or a refusal at the op.
        for chip, options in draw.gpu:
            shared = options + (["bare-pointers=false"] if draw.dynamic else [])
            opts = " ".join([f"chip={chip}", "format=isa"] + shared +
                            (["confirm-tiles=false"] if args.model else []))
            compiled = run([args.fa_opt, source, f"--fa-gpu-pipeline={opts}",
                            "--mlir-print-ir-after=fa-lower-to-gpu"])
            problem = refusal_problem(compiled, source, module)
            if problem:
                problems.append(f"{chip} {' '.join(options)}: {problem}")
                continue
            if compiled.returncode:
                continue  # refused at the op, with its reason
            choice = [o for o in options if o.startswith("tma-producer")]
            select = f"--fa-select-tiles=target={chip} " + " ".join(choice)
            # Where ptxas retiled the op, the report is of the final tiling:
            # fa-select-tiles checks and reports the tiling on the op.
            confirmed = []
            if RETILED.search(compiled.stderr) or WARNED.search(compiled.stderr):
                retiled.append(chip)
                confirmed = [select, "--fa-confirm-tiles-with-ptxas=" +
                             " ".join([f"chip={chip}"] + shared)]
            if WARNED.search(compiled.stderr):
                warned.append(chip)
            report = run([args.fa_opt, source] + confirmed +
                         [select + " report=-", "-o", os.devnull])
            decision = None
            if report.returncode == 0 and report.stdout.strip():
                decision = json.loads(report.stdout.splitlines()[0])
            problems += check_kernels(args, tmp, draw, chip, compiled, decision)
        # Small draws: numbers against the reference.
        if runnable and not failing(problems):
            expected, result = printed(args, source, "reference=true")
            if expected is None:
                problems.append("the reference did not run: " + result.stderr.strip()[:200])
            else:
                got, result = printed(args, source,
                                      f"host-cache-bytes={args.host_cache_bytes}"
                                      if args.host_cache_bytes else "")
                if got is None:
                    problems.append("the host's tiles did not run: " + result.stderr.strip()[:200])
                else:
                    problems += compare(args, tmp, draw.dtype, got, expected, "host")
                if draw.dtype != "f32" and draw.emulate:
                    got, result = printed(args, source, f"gpu-kernel={draw.emulate}")
                    if got is None:
                        problems.append(f"the {draw.emulate} kernel did not run: "
                                        + result.stderr.strip()[:200])
                    else:
                        problems += compare(args, tmp, draw.dtype, got, expected,
                                            f"the emulated {draw.emulate} kernel")
        if args.show:
            print(module)
    # A kernel that spills after a warning at the op is what the user was
    # told: counted apart from the failures.
    if warned:
        problems = [p if "spill" not in p else "warned at the op: " + p
                    for p in problems]
    return draw, problems, runnable, retiled, warned


def seeds_of(text):
    if ":" in text:
        a, b = text.split(":")
        return list(range(int(a), int(b)))
    return [int(x) for x in text.split(",")]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", default="1:50")
    parser.add_argument("--fa-opt", default=os.path.join(ROOT, "build", "bin", "fa-opt"))
    parser.add_argument("--ptxas", default="/usr/local/cuda/bin/ptxas")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--host-cache-bytes", type=int, default=0,
                        help="the host's cache for its tiles (0: this machine's)")
    parser.add_argument("--no-run", action="store_true",
                        help="compile and assemble only, run nothing")
    parser.add_argument("--show", action="store_true", help="print each module")
    parser.add_argument("--model", action="store_true",
                        help="compile with confirm-tiles=false: check the tile "
                             "model's own choices, with no retiling by ptxas")
    parser.add_argument("--verbose", action="store_true", help="a line per draw")
    parser.add_argument("--op", choices=["forward", "backward", "linear"],
                        help="only the draws of this op (the others are skipped)")
    parser.add_argument("--chip", choices=CHIPS,
                        help="only the draws whose GPU pipelines include this chip")
    parser.add_argument("--progress", type=int, default=0,
                        help="a progress line every this many draws")
    args = parser.parse_args()
    seeds = seeds_of(args.seeds)
    if args.op or args.chip:
        def wanted(draw):
            return ((not args.op or draw.op == args.op) and
                    (not args.chip or any(chip == args.chip for chip, _ in draw.gpu)))
        seeds = [seed for seed in seeds if wanted(Draw(seed))]
    failed = ran = retiles = warnings = 0
    counts = {}
    with ThreadPoolExecutor(args.jobs) as pool:
        for draw, problems, runnable, retiled, warned in pool.map(
                lambda s: check_draw(args, s), seeds):
            counts[draw.op] = counts.get(draw.op, 0) + 1
            ran += runnable
            retiles += bool(retiled)
            warnings += bool(warned)
            failed += bool(failing(problems))
            if problems or (retiled and args.verbose):
                print(f"seed {draw.seed}: {draw.describe()}")
                for chip in retiled:
                    print(f"  {chip}: retiled by ptxas" +
                          (" (still spills; warned at the op)" if chip in warned else ""))
                for problem in problems:
                    print(f"  {problem}")
            elif args.verbose:
                print(f"seed {draw.seed}: ok: {draw.describe()}")
            done = sum(counts.values())
            if args.progress and done % args.progress == 0:
                print(f"progress: {done} draws, {failed} failed, {retiles} retiled, "
                      f"{warnings} warned, {ran} run")
            sys.stdout.flush()
    kinds = ", ".join(f"{n} {op}" for op, n in sorted(counts.items()))
    print(f"sweep: {len(seeds)} draws, {failed} failed ({kinds}; {ran} run); "
          f"ptxas retiled {retiles}, {warnings} of them still spilling with a "
          f"warning at the op")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
