#!/usr/bin/env python3
"""Scores fa-raise-attention on a held-out set of attention blocks.

A held-out block is a frontend's attention written by someone who had not
read the recognizer (test/HeldOut/Blocks-*/; see test/HeldOut/README.md),
with a @main that feeds it the corpus inputs
(test/Integration/Blocks/Inputs/runtime.mlir) and prints every result.
The blocks are never edited to suit the recognizer: the set measures what
the recognizer does on IR it was not written for.

For each block:
  raised   at least one fa op, and no exponential that reaches a
           contraction is left (fa-raise-attention remarks on each one it
           does not raise, explain=true: no remark);
  partial  an fa op was made but an exp that reaches a contraction is left
           (one of two attentions);
  missed   no fa op; `silent` when fa-raise-attention said nothing either
           (the pass must remark on every exp that reaches a contraction);
  wrong    the CPU pipeline with raising and without print different
           numbers (compare_outputs.py, rtol 1e-5, or the f32 frontend for
           half-precision blocks): a raise that changed the meaning.

  scripts/held-out.py build/bin/fa-opt test/HeldOut/Blocks-2026-12
  scripts/held-out.py build/bin/fa-opt DIR --verbose   # remarks of misses
  scripts/held-out.py build/bin/fa-opt DIR \
      "--passes=--fa-raise-attention --fa-normalize-frontend"
                      # what the pipelines run before their last raise

Prints one line per block and a total line:
  total: R raised, P partial, M missed (S silent), W wrong of N
"""
import argparse
import glob
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RUNTIME = os.path.join(ROOT, "test", "Integration", "Blocks", "Inputs",
                       "runtime.mlir")
COMPARE = os.path.join(ROOT, "test", "Integration", "Inputs",
                       "compare_outputs.py")
LLVM = "/usr/lib/llvm-22"
RUNNER_LIBS = ",".join(
    os.path.join(LLVM, "lib", lib)
    for lib in ["libmlir_runner_utils.so", "libmlir_c_runner_utils.so"])
FA_OPS = re.compile(r"\bfa\.(attention|linear_attention)\b")
# The runtime's functions, which are not the block's (they hold no exp, but
# a block's @main may be long).
RUNTIME_FUNCS = ("@main", "@input2", "@input3", "@input4", "@wave",
                 "@printMemrefF32")


def block_functions(text):
    """The printed module's functions other than @main and the runtime's,
    as (name, body text)."""
    funcs = []
    starts = [m for m in re.finditer(r"^\s*func\.func\s+(?:private\s+)?(@[\w$.]+)",
                                     text, re.M)]
    for i, m in enumerate(starts):
        end = starts[i + 1].start() if i + 1 < len(starts) else len(text)
        if m.group(1) in RUNTIME_FUNCS:
            continue
        funcs.append((m.group(1), text[m.start():end]))
    return funcs


def widened(source):
    """The block computed in f32: every f16/bf16 type read as f32 and the
    casts that became f32-to-f32 replaced by an identity (max(x, x)). Its
    inputs are not rounded to the half type, so it is an alternative
    within the half type's tolerance, not an exact twin."""
    # Everywhere, names included (a consistent rename): tensor<4xbf16>
    # has no word boundary before its type.
    text = re.sub(r"b?f16", "f32", source)
    return re.sub(r"arith\.(?:extf|truncf) (%[\w.#]+) : (\S+) to \2\b",
                  r"arith.maximumf \1, \1 : \2", text)


def run(cmd, stdin):
    return subprocess.run(cmd, input=stdin, capture_output=True, text=True,
                          timeout=600)


def pipeline_numbers(fa_opt, source, options, passes=()):
    lowered = run([fa_opt] + list(passes) + ["--fa-cpu-pipeline" + options],
                  source)
    if lowered.returncode != 0:
        return None, lowered.stderr.strip().splitlines()[:3]
    ran = run([os.path.join(LLVM, "bin", "mlir-runner"), "-e", "main",
               "-entry-point-result=void", "-shared-libs=" + RUNNER_LIBS],
              lowered.stdout)
    if ran.returncode != 0:
        return None, ran.stderr.strip().splitlines()[:3]
    return ran.stdout, []


def score(fa_opt, path, verbose, passes):
    with open(path) as f:
        source = f.read()
    with open(RUNTIME) as f:
        source += "\n" + f.read()
    raised = run([fa_opt] + passes + ["--fa-raise-attention=explain=true"],
                 source)
    if raised.returncode != 0:
        return "error", raised.stderr.strip().splitlines()[:3]
    remarks = [l for l in raised.stderr.splitlines() if "remark:" in l]
    funcs = block_functions(raised.stdout)
    has_fa = any(FA_OPS.search(body) for _, body in funcs)
    # An exponential left is a miss only where it reaches a contraction:
    # the pass remarks on every such exp it does not raise (no silent
    # misses), and an exp elsewhere (a learned temperature exp(t)) is not
    # attention.
    has_exp = any("attention not raised" in r for r in remarks)
    if has_fa and not has_exp:
        verdict = "raised"
    elif has_fa:
        verdict = "partial"
    else:
        verdict = "missed" if remarks else "silent"
    notes = remarks if verbose or verdict in ("partial", "silent") else []
    if has_fa:
        with_raise, err1 = pipeline_numbers(fa_opt, source, "", passes)
        without, err2 = pipeline_numbers(fa_opt, source, "=raise=false")
        if with_raise is None or without is None:
            return "error", err1 + err2
        paths = []
        for name, text in (("raised", with_raise), ("frontend", without)):
            p = "/tmp/held-out-%d-%s.txt" % (os.getpid(), name)
            with open(p, "w") as f:
                f.write(text)
            paths.append(p)
        # The differential generator's tolerances (random_attention.py's
        # TOLERANCE) by the narrowest type the block uses; for half types
        # the block computed in f32 also counts as right, as there: the
        # op keeps half-precision scores and sums in f32 where the
        # frontend rounds them.
        tolerance = ["--rtol", "1e-5", "--atol", "1e-6"]
        alternative = []
        if re.search(r"\bbf16\b", source):
            tolerance = ["--rtol", "3e-2", "--atol", "1.5e-2"]
        elif re.search(r"\bf16\b", source):
            tolerance = ["--rtol", "1e-2", "--atol", "5e-3"]
        if tolerance[1] != "1e-5":
            wide, _ = pipeline_numbers(fa_opt, widened(source), "=raise=false")
            if wide is not None:
                p = "/tmp/held-out-%d-wide.txt" % os.getpid()
                with open(p, "w") as f:
                    f.write(wide)
                paths.append(p)
                alternative = ["--alternative", p]
        cmp = run([sys.executable, COMPARE, paths[0], paths[1]] + tolerance +
                  alternative, "")
        for p in paths:
            os.remove(p)
        if cmp.returncode != 0:
            return "wrong", cmp.stdout.strip().splitlines()[:3]
    return verdict, notes


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("fa_opt")
    parser.add_argument("folder")
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument("--passes", default="",
                        help="fa-opt flags run before fa-raise-attention "
                        "(and before the raised run's CPU pipeline), "
                        "space-separated: to try a normalization")
    parser.add_argument("--min-raised", type=int, default=0,
                        help="fail when fewer blocks are raised (the suite "
                        "keeps what the recognizer reached)")
    args = parser.parse_args()
    counts = {k: 0 for k in ("raised", "partial", "missed", "silent",
                             "wrong", "error")}
    blocks = sorted(glob.glob(os.path.join(args.folder, "*.mlir")))
    for path in blocks:
        verdict, notes = score(args.fa_opt, path, args.verbose,
                               args.passes.split())
        counts[verdict] += 1
        print("%-8s %s" % (verdict, os.path.basename(path)))
        for n in notes:
            print("         " + n.strip()[:300])
    print("total: %d raised, %d partial, %d missed (%d silent), %d wrong, "
          "%d errors of %d" % (counts["raised"], counts["partial"],
                               counts["missed"] + counts["silent"],
                               counts["silent"], counts["wrong"],
                               counts["error"], len(blocks)))
    if counts["raised"] < args.min_raised:
        print("FAILED: %d raised, fewer than %d" % (counts["raised"],
                                                  args.min_raised))
        return 1
    return 1 if counts["wrong"] or counts["error"] else 0


if __name__ == "__main__":
    sys.exit(main())
