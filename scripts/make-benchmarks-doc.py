#!/usr/bin/env python3
"""Keeps docs/Benchmarks.md tied to the results files it quotes.

Every table in docs/Benchmarks.md follows a marker line

    <!-- results: bench/results/NAME.md -->

and is that file's table, copied by this script. Three checks, so that the
page cannot drift from the data:

  * tables: each marked table equals its results file's (and every table on
    the page has a marker);
  * ratios: every ratio the prose states ("1.08–1.11×", "0.91×", "37–61×")
    is one that its section's tables hold: the quotient of two numbers in the
    same row or the same column, to the stated digits;
  * the Hopper kernel: the sentence after `<!-- kernel-plan: ARGS -->` is the
    kernel plan fa-select-tiles reports for that attention ("kernel_plan"),
    and no sentence of that section says the kernel lacks one of the plan's
    parts ("not the ping-pong", "no TMA", ...).

  scripts/make-benchmarks-doc.py            # rewrite the tables in place
  scripts/make-benchmarks-doc.py --check [--fa-opt build/bin/fa-opt]

A new GPU run: keep run.py's output under bench/results/ (one file per
section, its provenance in an HTML comment at the top), point the markers
at it, rerun this script, then rewrite the prose until --check passes.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOC = os.path.join(ROOT, "docs", "Benchmarks.md")
MARKER = re.compile(r"^<!-- results: (\S+) -->$")
PLAN = re.compile(r"^<!-- kernel-plan: (.+) -->$")
# "1.08–1.11×", "0.91×", "37–61×" (en dash or hyphen between the ends); not
# a tile's "32×64".
RATIO = re.compile(r"(\d+(?:\.\d+)?)(?:\s*[–-]\s*(\d+(?:\.\d+)?))?×(?!\s*\d)")
NUMBER = re.compile(r"^-?\d[\d,]*(?:\.\d+)?(?:e[-+]?\d+)?")


def table_of(path):
    """The table lines of a results file."""
    with open(os.path.join(ROOT, path)) as f:
        return [line.rstrip("\n") for line in f if line.startswith("|")]


def render(lines):
    """The page with every marked table replaced by its file's; errors."""
    out, errors, i = [], [], 0
    while i < len(lines):
        line = lines[i]
        out.append(line)
        i += 1
        marker = MARKER.match(line)
        if marker:
            path = marker.group(1)
            if not os.path.exists(os.path.join(ROOT, path)):
                errors.append(f"marker names {path}, which does not exist")
                continue
            while i < len(lines) and lines[i].startswith("|"):
                i += 1
            out.extend(table_of(path))
        elif line.startswith("|") and (i < 2 or not lines[i - 2].startswith("|")):
            above = lines[i - 2] if i >= 2 else ""
            if not MARKER.match(above):
                errors.append(f"line {i}: a table with no results marker above it")
            while i < len(lines) and lines[i].startswith("|"):
                out.append(lines[i])
                i += 1
    return out, errors


def cell_value(cell):
    """The number a cell starts with ("18.8 (111)" is 18.8), or None."""
    match = NUMBER.match(cell.strip())
    if not match:
        return None
    try:
        return float(match.group(0).replace(",", ""))
    except ValueError:
        return None


def section_ratios(table_lines):
    """Every quotient of two numbers in the same row or the same column."""
    rows = []
    for line in table_lines:
        cells = [c for c in line.strip().strip("|").split("|")]
        if all(set(c.strip()) <= set("-:") for c in cells):
            continue
        rows.append([cell_value(c) for c in cells])
    ratios = []
    for row in rows:
        values = [v for v in row if v]
        ratios += [a / b for a in values for b in values if a is not b and b]
    for column in range(max((len(r) for r in rows), default=0)):
        values = [r[column] for r in rows if column < len(r) and r[column]]
        ratios += [a / b for a in values for b in values if b]
    return ratios


def held(stated, ratios):
    """Whether `stated` (text, e.g. "0.91") is a ratio the tables hold, to
    its stated digits."""
    digits = len(stated.split(".")[1]) if "." in stated else 0
    tolerance = 0.51 * 10 ** -digits
    value = float(stated)
    return any(abs(r - value) <= tolerance for r in ratios)


def sections(lines):
    """(heading, first line, end line) of each section; a '### ' section
    belongs to its own range, not its parent's."""
    starts = [i for i, l in enumerate(lines) if l.startswith("## ") or l.startswith("### ")]
    return [(lines[s], s, starts[k + 1] if k + 1 < len(starts) else len(lines))
            for k, s in enumerate(starts)]


def check_ratios(lines):
    errors = []
    for heading, start, end in sections(lines):
        body = lines[start:end]
        ratios = section_ratios([l for l in body if l.startswith("|")])
        in_code = False
        for offset, line in enumerate(body):
            if line.startswith("```"):
                in_code = not in_code
            if in_code or line.startswith("|") or line.startswith("<!--"):
                continue
            for match in RATIO.finditer(line):
                for stated in filter(None, match.groups()):
                    if not held(stated, ratios):
                        errors.append(
                            f"line {start + offset + 1} ({heading.strip('# ')}): "
                            f"the ratio {stated}× is in no table of its section")
    return errors


def kernel_plan(fa_opt, arguments):
    """The kernel plan fa-select-tiles reports for `arguments`
    ("sm_90a f16 d=128 n=4096 causal")."""
    words = arguments.split()
    chip, dtype = words[0], words[1]
    options = dict(w.split("=") for w in words[2:] if "=" in w)
    d, n = options["d"], options["n"]
    band = " causal = bottom_right" if "causal" in words else ""
    t = f"tensor<1x8x{n}x{d}x{dtype}>"
    source = (f"func.func @a(%q: {t}) -> {t} {{\n  %o = fa.attention %q, %q, %q "
              f"scale = 0.1{band} : {t}, {t}, {t} -> {t}\n  return %o : {t}\n}}\n")
    with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as f:
        f.write(source)
    try:
        report = subprocess.run(
            [fa_opt, f.name, f"--fa-select-tiles=target={chip} report=-", "-o", os.devnull],
            capture_output=True, text=True, check=True).stdout
    finally:
        os.unlink(f.name)
    return json.loads(report.splitlines()[0])["kernel_plan"]


# What a sentence may not say of a part the plan names.
PLAN_PARTS = {
    "ping-pong": r"ping-?pong",
    "P V overlapping the next softmax": r"(?:intra-warpgroup )?overlap",
    "TMA producer warpgroup": r"\bTMA\b|warp speciali[sz]ation",
    "wgmma": r"\bwgmma\b",
}
DENIAL = r"\b(?:not|no|lacks?|without|missing|yet to)\b"


def check_plan(lines, fa_opt):
    errors = []
    for heading, start, end in sections(lines):
        body = lines[start:end]
        for offset, line in enumerate(body):
            marker = PLAN.match(line)
            if not marker:
                continue
            plan = kernel_plan(fa_opt, marker.group(1))
            if plan not in " ".join(body[offset + 1:]):
                errors.append(f"line {start + offset + 1}: the text after the marker must "
                              f"quote the kernel plan `{plan}`")
            prose = " ".join(l for l in body if not l.startswith("<!--"))
            for sentence in re.split(r"(?<=[.;:])\s+", prose):
                for part, pattern in PLAN_PARTS.items():
                    # A denial at most four words before the part's name.
                    denied = DENIAL + r"\W+(?:[\w`'-]+\W+){0,4}?(?:" + pattern + ")"
                    if part in plan and re.search(denied, sentence, re.IGNORECASE):
                        errors.append(f"{heading.strip('# ')}: \"{sentence.strip()[:120]}\" "
                                      f"denies a part of the kernel plan ({part})")
    return errors


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--doc", default=DOC)
    parser.add_argument("--fa-opt", default=os.path.join(ROOT, "build", "bin", "fa-opt"))
    args = parser.parse_args()
    with open(args.doc) as f:
        lines = f.read().split("\n")
    rendered, errors = render(lines)
    if args.check:
        if rendered != lines:
            errors.append("a marked table differs from its results file "
                          "(run scripts/make-benchmarks-doc.py)")
        errors += check_ratios(lines)
        errors += check_plan(lines, args.fa_opt)
        for error in errors:
            print(f"{os.path.relpath(args.doc, ROOT)}: {error}")
        print(f"make-benchmarks-doc: {len(errors)} problems")
        return 1 if errors else 0
    for error in errors:
        print(error, file=sys.stderr)
    with open(args.doc, "w") as f:
        f.write("\n".join(rendered))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
