#!/usr/bin/env python3
"""Operator mutation, sampled: bugs nobody wrote by hand.

scripts/mutate.py replays a catalogue of hand-written bugs; this script
draws its bugs at random. It parses the C++ of the lowerings with libclang,
lists every site where a classic mutation operator applies, samples sites
per area with a fixed seed, and runs the test suite against each mutant:

  relational   `<` <-> `<=`, `>` <-> `>=`, `==` <-> `!=` (C++ operators on
               scalars, `operator==` on MLIR values and types, and the
               CmpI/CmpF predicates of generated IR), `&&` <-> `||`
  off-by-one   an integer expression `e` becomes `e + 1` or `e - 1`
  constant     integer literals 0 <-> 1, n -> n + 1; float literals
               0 <-> 1; -inf -> 0 or lowest
  drop         an expression statement (a barrier, a wait, a store, an
               assignment such as a rescale) is not executed
  swap         the operands of a non-commutative operation (C++ `-`, `/`,
               `%`; arith sub/div/rem ops, cmp ops whose predicate is not
               symmetric; IndexMath's sub, divU, lt...)
  min-max      min <-> max, add <-> sub, floor <-> ceil division, in C++
               (`std::min`) and in the IR built (`arith::MinSIOp`, ...)

Mutants are compiled as schemata: every sampled site of a file becomes
`(fa_mutation::on(ID) ? MUTATED : ORIGINAL)` in one build, so the whole
sample costs one build instead of one build per mutant, and the mutant to
run is chosen by the environment (FA_MUTANT=ID). A site whose schema does
not compile is dropped (the compiler killed it) and the build retried.

Tests are chosen by coverage. One run of the unmutated schemata build, test
by test with FA_MUTANT_TRACE set, records which sites each test reaches. A
test that never reaches a site runs exactly as it would without the mutant,
so it cannot kill it: each mutant runs only the tests that reach its site,
fastest first, until two have failed. A survivor has passed every test
that could fail, which is the whole suite's verdict. That run is also the
proof that the schemata are inert: with no mutant active every test must
pass.

  scripts/mutate-operators.py --sites        # candidate sites per area
  scripts/mutate-operators.py                # sample, build, trace, run
  scripts/mutate-operators.py --count 320 --seed 31 --jobs 2
  scripts/mutate-operators.py --rerun 17,42  # those mutants again (after
                                             # a test was added)
  scripts/mutate-operators.py --resume       # the mutants a cut-short run
                                             # did not reach
  scripts/mutate-operators.py --list-sites F # the sites of one file
  scripts/mutate-operators.py --since 4d6e4b0 --count 300
                                             # only sites on lines added
                                             # or changed since a revision

Writes build-mutate/operators/mutants.tsv (one row per mutant: id, area, site,
operator, change, the tests that killed it) and report.md (kill
rate per area and the survivors). The private copy of the tree, its build,
lit and the libclang parse are scripts/mutation_harness.py's, shared with
scripts/mutate.py. Needs libclang's Python bindings (Debian:
python3-clang-22). Too slow for CI: about two hours on two cores
for 300 mutants; docs/Robustness.md keeps the latest sample's result and
docs/history/Robustness-runs.md every run's table.
"""
import argparse
import collections
import fnmatch
import hashlib
import itertools
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import mutation_harness as harness
from mutation_harness import ROOT

ci = harness.cindex(required_by="mutate-operators")

# The areas the issue names, each a set of files (globs from the root).
AREAS = [
    ("tiling", ["lib/Transforms/Tiling/*.cpp"]),
    ("tile selection", ["lib/Transforms/TileSelection/*.cpp",
                        "lib/Transforms/TileSelection/Model/*.cpp"]),
    ("index math and geometry", ["lib/Transforms/Common/IndexMath.h",
                                 "lib/Transforms/Common/AttentionGeometry.h",
                                 "lib/Transforms/Common/TensorBuilders.h",
                                 "lib/Transforms/Common/*.cpp"]),
    ("kernel builders", ["lib/Transforms/GPUKernel/*.cpp",
                         "lib/Transforms/GPUKernel/*.h"]),
    ("emulation", ["lib/Transforms/GPUEmulation/*.cpp",
                   "lib/Transforms/GPUEmulation/*.h"]),
    ("reference", ["lib/Transforms/Reference/*.cpp"]),
    ("recognizer", ["lib/Transforms/Recognition/*.cpp",
                    "lib/Transforms/Recognition/*.h"]),
    ("pipelines", ["lib/Pipelines/*.cpp"]),
]

RELATIONAL = {"<": "<=", "<=": "<", ">": ">=", ">=": ">", "==": "!=",
              "!=": "==", "&&": "||", "||": "&&"}
PREDICATES = {"slt": "sle", "sle": "slt", "sgt": "sge", "sge": "sgt",
              "ult": "ule", "ule": "ult", "ugt": "uge", "uge": "ugt",
              "eq": "ne", "ne": "eq", "OLT": "OLE", "OLE": "OLT",
              "OGT": "OGE", "OGE": "OGT", "OEQ": "ONE", "ONE": "OEQ",
              "ULT": "ULE", "ULE": "ULT", "UGT": "UGE", "UGE": "UGT"}
# Names whose swap changes meaning: C++ functions, arith ops, IndexMath
# methods, vector reduction kinds.
SWAPPED_NAMES = {
    "min": "max", "max": "min", "MinSIOp": "MaxSIOp", "MaxSIOp": "MinSIOp",
    "MinUIOp": "MaxUIOp", "MaxUIOp": "MinUIOp", "MinimumFOp": "MaximumFOp",
    "MaximumFOp": "MinimumFOp", "MinNumFOp": "MaxNumFOp", "MaxNumFOp": "MinNumFOp",
    "AddIOp": "SubIOp", "SubIOp": "AddIOp", "AddFOp": "SubFOp", "SubFOp": "AddFOp",
    "MulFOp": "DivFOp", "DivFOp": "MulFOp", "CeilDivSIOp": "FloorDivSIOp",
    "FloorDivSIOp": "CeilDivSIOp", "CeilDivUIOp": "DivUIOp",
    "add": "sub", "sub": "add", "floorDiv": "ceilDiv", "ceilDiv": "floorDiv",
    "lt": "le", "le": "lt", "MAXNUMF": "MINNUMF", "MINNUMF": "MAXNUMF",
    "MAXIMUMF": "MINIMUMF", "MINIMUMF": "MAXIMUMF", "MAXSI": "MINSI",
    "MINSI": "MAXSI",
}
# Names common enough that only a call ending in them is one of ours
# (`math.sub(x, y)`, `std::min(a, b)`).
GENERIC_NAMES = {"add", "sub", "lt", "le", "gt", "min", "max"}
# Calls whose first two value operands do not commute: (name, index of the
# first of them among the call's arguments).
NON_COMMUTATIVE = {
    "SubIOp": 2, "SubFOp": 2, "DivFOp": 2, "DivUIOp": 2, "DivSIOp": 2,
    "RemUIOp": 2, "RemSIOp": 2, "CeilDivUIOp": 2, "CeilDivSIOp": 2,
    "FloorDivSIOp": 2, "ShLIOp": 2, "ShRUIOp": 2, "CmpIOp": 3, "CmpFOp": 3,
    "sub": 0, "divU": 0, "remU": 0, "lt": 0, "le": 0, "gt": 0,
    "floorDiv": 0, "ceilDiv": 0, "divideCeil": 0,
}
SCALAR_KINDS = {"BOOL", "CHAR_S", "CHAR_U", "UCHAR", "USHORT", "UINT", "ULONG",
                "ULONGLONG", "SHORT", "INT", "LONG", "LONGLONG", "FLOAT",
                "DOUBLE", "ENUM", "POINTER"}
INTEGER_KINDS = {"CHAR_S", "CHAR_U", "UCHAR", "USHORT", "UINT", "ULONG",
                 "ULONGLONG", "SHORT", "INT", "LONG", "LONGLONG"}
# Code that only reports (debug output, assertions): mutants there are
# equivalent by construction, so no site is drawn inside it.
QUIET_CALLS = re.compile(rb"\b(LLVM_DEBUG|assert|DBGS|llvm_unreachable|emitRemark|"
                         rb"emitError|emitOpError|emitWarning|notifyMatchFailure)\s*\(")

SCHEMA_HEADER = b"""\
// Inserted by scripts/mutate-operators.py into its private copy only.
#ifndef FA_MUTATION_SCHEMATA
#define FA_MUTATION_SCHEMATA
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <set>
namespace fa_mutation {
/// True when mutant `id` is the one FA_MUTANT names. With FA_MUTANT_TRACE
/// set, the first time each site is reached it is appended to that file.
inline bool on(long id) {
  static const long active = [] {
    const char *value = std::getenv("FA_MUTANT");
    return value ? std::atol(value) : -1L;
  }();
  static const char *trace = std::getenv("FA_MUTANT_TRACE");
  if (trace) {
    static std::mutex lock;
    static std::set<long> seen;
    std::lock_guard<std::mutex> guard(lock);
    if (seen.insert(id).second)
      if (FILE *file = std::fopen(trace, "a")) {
        std::fprintf(file, "%ld\\n", id);
        std::fclose(file);
      }
  }
  return id == active;
}
} // namespace fa_mutation
#endif
"""


def area_files():
    """(area, path) for every file of every area, paths from the root."""
    out = []
    for area, globs in AREAS:
        for pattern in globs:
            folder = os.path.join(ROOT, os.path.dirname(pattern))
            for name in sorted(os.listdir(folder)):
                if fnmatch.fnmatch(name, os.path.basename(pattern)):
                    out.append((area, os.path.join(os.path.dirname(pattern), name)))
    return out


def quiet_spans(text):
    """Byte ranges of reporting-only calls, parentheses matched."""
    spans = []
    for match in QUIET_CALLS.finditer(text):
        depth, i = 0, match.end() - 1
        while i < len(text):
            depth += {ord("("): 1, ord(")"): -1}.get(text[i], 0)
            if depth == 0:
                break
            i += 1
        spans.append((match.start(), i + 1))
    return spans


def sites_in(area, path):
    """Every candidate mutation in one file: dicts with the byte range of
    the expression rewritten, its mutated text and a description."""
    full = os.path.join(ROOT, path)
    text = open(full, "rb").read()
    unit = harness.parse(path)
    quiet = quiet_spans(text)
    found = []

    def inside_quiet(start, end):
        return any(a <= start and end <= b for a, b in quiet)

    def add(cursor, start, end, mutated, operator, change, drop=False,
            as_value=False):
        if inside_quiet(start, end) or start >= end:
            return
        found.append({"area": area, "path": path, "start": start, "end": end,
                      "line": text[:start].count(b"\n") + 1,
                      "operator": operator, "change": change,
                      "mutated": mutated.decode(), "drop": drop,
                      "as_value": as_value})

    def extent(cursor):
        return cursor.extent.start.offset, cursor.extent.end.offset

    def names_before_paren(start, end):
        """The identifiers of a call's callee: (name, offset) before its
        first `(`, read from the text (tokenizing whole calls is slow)."""
        stop = text.find(b"(", start, end)
        head = text[start:stop if stop >= 0 else end]
        return [(m.group(0).decode(), start + m.start())
                for m in re.finditer(rb"[A-Za-z_]\w*", head)]

    def replace(start, end, at, old, new):
        """The text of [start, end) with the token [at, at + len(old))
        replaced."""
        return text[start:at] + new.encode() + text[at + len(old):end]

    def in_file(cursor):
        ext = cursor.extent
        return (ext.start.file is not None and ext.end.file is not None and
                ext.start.file.name == full and ext.end.file.name == full)

    def walk(cursor, in_body, parent_kind):
        kind = cursor.kind
        if kind in (ci.CursorKind.STATIC_ASSERT, ci.CursorKind.TEMPLATE_REF,
                    ci.CursorKind.ENUM_DECL):
            return
        body = in_body or kind == ci.CursorKind.COMPOUND_STMT
        if body and in_file(cursor):
            visit(cursor, parent_kind)
        children = list(cursor.get_children())
        if kind == ci.CursorKind.CASE_STMT:  # the label is no site
            children = children[1:]
        for child in children:
            walk(child, body, kind)

    def visit(cursor, parent_kind):
        kind = cursor.kind
        start, end = extent(cursor)
        source = text[start:end]
        children = list(cursor.get_children())
        if kind == ci.CursorKind.BINARY_OPERATOR and len(children) == 2:
            op = cursor.binary_operator.name
            lhs, rhs = children
            lhs_end, rhs_start = lhs.extent.end.offset, rhs.extent.start.offset
            lhs_kind = lhs.type.get_canonical().kind.name
            sym = text[lhs_end:rhs_start].strip().decode(errors="replace")
            if sym in RELATIONAL and lhs_kind in SCALAR_KINDS:
                at = start + source.index(sym.encode(), lhs_end - start)
                add(cursor, start, end, replace(start, end, at, sym, RELATIONAL[sym]),
                    "relational", f"{sym} -> {RELATIONAL[sym]}")
            result_kind = cursor.type.get_canonical().kind.name
            if sym in ("+", "-", "*", "/", "%") and result_kind in INTEGER_KINDS:
                for delta in ("+ 1", "- 1"):
                    add(cursor, start, end, b"((" + source + b") " + delta.encode() + b")",
                        "off-by-one", f"({source.decode()}) {delta}")
                if sym in ("-", "/", "%"):
                    add(cursor, start, end,
                        b"(" + text[rhs_start:end] + b") " + sym.encode() + b" (" +
                        text[start:lhs_end] + b")", "swap", f"operands of {sym}")
            if sym == "=" and parent_kind == ci.CursorKind.COMPOUND_STMT:
                add(cursor, start, end, b"", "drop", f"skip `{first_line(source)}`",
                    drop=True)
            return
        if kind == ci.CursorKind.COMPOUND_ASSIGNMENT_OPERATOR and \
                parent_kind == ci.CursorKind.COMPOUND_STMT:
            add(cursor, start, end, b"", "drop", f"skip `{first_line(source)}`",
                drop=True)
            return
        if kind == ci.CursorKind.CALL_EXPR:
            spelling = cursor.spelling
            if spelling in ("operator==", "operator!="):
                sym = spelling[len("operator"):]
                operands = list(cursor.get_arguments())
                if len(operands) == 2:
                    lhs_end = operands[0].extent.end.offset
                    rhs_start = operands[1].extent.start.offset
                    between = text[lhs_end:rhs_start]
                    if between.strip() == sym.encode():
                        at = lhs_end + between.index(sym.encode())
                        add(cursor, start, end,
                            replace(start, end, at, sym, RELATIONAL[sym]),
                            "relational", f"{sym} -> {RELATIONAL[sym]}")
                return
            if spelling in ("operator=", "operator+=", "operator*=") and \
                    parent_kind == ci.CursorKind.COMPOUND_STMT:
                add(cursor, start, end, b"", "drop", f"skip `{first_line(source)}`",
                    drop=True)
                return
            if b"(" not in source:  # an implicit conversion, not a call
                return
            callee = names_before_paren(start, end)
            names = [n for n, _ in callee]
            for name, s in callee:
                if name in SWAPPED_NAMES and (name not in GENERIC_NAMES
                                              or names[-1] == name):
                    mutated = replace(start, end, s, name, SWAPPED_NAMES[name])
                    # Different op classes: both sides as Values.
                    as_value = name.endswith("Op")
                    if as_value:
                        mutated = b"::mlir::Value(" + mutated + b")"
                    add(cursor, start, end, mutated, "min-max",
                        f"{name} -> {SWAPPED_NAMES[name]}", as_value=as_value)
                    break
            for name in names:
                first = NON_COMMUTATIVE.get(name)
                if first is None or (name in GENERIC_NAMES and names[-1] != name):
                    continue
                arguments = list(cursor.get_arguments())
                if len(arguments) < first + 2:
                    break
                # A comparison whose predicate is symmetric (eq, ne, oeq,
                # ...) means the same with its operands swapped: no mutant.
                if name in ("CmpIOp", "CmpFOp"):
                    predicate = arguments[first - 1].extent
                    predicate_text = text[predicate.start.offset:predicate.end.offset]
                    if re.search(rb"::(eq|ne|OEQ|ONE|UEQ|UNE|ORD|UNO)\b", predicate_text):
                        break
                a, b = arguments[first], arguments[first + 1]
                a0, a1 = a.extent.start.offset, a.extent.end.offset
                b0, b1 = b.extent.start.offset, b.extent.end.offset
                if not (start <= a0 < a1 <= b0 < b1 <= end):
                    break
                mutated = (text[start:a0] + text[b0:b1] + text[a1:b0] + text[a0:a1] +
                           text[b1:end])
                add(cursor, start, end, mutated, "swap", f"operands of {name}")
                break
            if parent_kind == ci.CursorKind.COMPOUND_STMT and cursor.type.kind.name == "VOID" \
                    or (parent_kind == ci.CursorKind.COMPOUND_STMT and
                        any(n.endswith("Op") for n in names) and "create" in names):
                add(cursor, start, end, b"", "drop", f"skip `{first_line(source)}`",
                    drop=True)
            return
        if kind == ci.CursorKind.DECL_REF_EXPR:
            qualified = re.fullmatch(rb"[\w:]*(CmpIPredicate|CmpFPredicate|CombiningKind)::(\w+)",
                                     source)
            if qualified:
                table = SWAPPED_NAMES if qualified.group(1) == b"CombiningKind" else PREDICATES
                name = qualified.group(2).decode()
                if name in table:
                    what = "min-max" if table is SWAPPED_NAMES else "relational"
                    add(cursor, start, end,
                        replace(start, end, start + qualified.start(2), name, table[name]),
                        what, f"{name} -> {table[name]}")
            return
        if kind == ci.CursorKind.INTEGER_LITERAL:
            # Not a template argument (`SmallVector<Value, 4>`: capacity).
            if re.match(rb"\s*>", text[end:end + 8]) or not source.isdigit():
                return
            value = int(source)
            new = {0: 1, 1: 0}.get(value, value + 1)
            add(cursor, start, end, str(new).encode(), "constant", f"{value} -> {new}")
            return
        if kind == ci.CursorKind.FLOATING_LITERAL:
            try:
                value = float(source.decode().rstrip("fF"))
            except ValueError:
                return
            new = "1.0" if value == 0 else "0.0"
            add(cursor, start, end, new.encode(), "constant", f"{source.decode()} -> {new}")
            return
        if kind == ci.CursorKind.UNARY_OPERATOR and source.startswith(b"-") and \
                b"infinity()" in source and b"numeric_limits<" in source:
            kind_text = re.search(rb"numeric_limits<(\w+)>", source).group(1)
            for new, change in ((b"0.0", "-inf -> 0"),
                                (b"std::numeric_limits<" + kind_text + b">::lowest()",
                                 "-inf -> lowest")):
                add(cursor, start, end, b"static_cast<" + kind_text + b">(" + new + b")",
                    "constant", change)
            return

    walk(unit.cursor, False, None)
    return found


def first_line(source):
    line = source.decode(errors="replace").split("\n")[0].strip()
    return line if len(line) < 60 else line[:57] + "..."


# Bump when sites_in() changes: the cache of parsed files is keyed by it.
SITES_VERSION = 2


def source_digest(path):
    return hashlib.sha1(open(os.path.join(ROOT, path), "rb").read()).hexdigest()


def all_sites(workdir):
    """Candidate sites of every area, cached by file content."""
    cache_path = os.path.join(workdir, "sites.json")
    cache = json.load(open(cache_path)) if os.path.exists(cache_path) else {}
    sites = []
    for area, path in area_files():
        digest = hashlib.sha1(open(os.path.join(ROOT, path), "rb").read()).hexdigest()
        key = f"{path}:{digest}:{SITES_VERSION}"
        if key not in cache:
            print(f"  parsing {path}", flush=True)
            cache[key] = sites_in(area, path)
            os.makedirs(workdir, exist_ok=True)
            json.dump(cache, open(cache_path, "w"))
        sites.extend(cache[key])
    return sites


# Each area's share of the sample. Not in proportion to the sites: the
# recognizer has 40 % of them (mostly `==` on values and types) but the
# issue is about the lowerings, and the kernel builders are what the GPU
# runs.
SHARES = {"tiling": 50, "tile selection": 40, "index math and geometry": 30,
          "kernel builders": 80, "emulation": 30, "reference": 30,
          "recognizer": 60, "pipelines": 20}


def lines_added_since(revision, path):
    """Lines of `path` (1-based, as it is now) added or changed since
    `revision`, from `git diff -U0`."""
    diff = subprocess.run(["git", "diff", "-U0", revision, "--", path],
                          cwd=ROOT, capture_output=True, text=True, check=True)
    lines = set()
    for match in re.finditer(r"^@@ -\S+ \+(\d+)(?:,(\d+))? @@", diff.stdout, re.M):
        start, length = int(match.group(1)), int(match.group(2) or 1)
        lines.update(range(start, start + length))
    return lines


def sites_since(sites, revision):
    """The sites on lines added or changed since `revision`: the code the
    last sample did not see."""
    added = {}
    return [site for site in sites
            if site["line"] in added.setdefault(
                site["path"], lines_added_since(revision, site["path"]))]


def sample(sites, count, seed):
    """`count` sites, spread over the areas by SHARES, no two overlapping
    in one file."""
    rng = random.Random(seed)
    by_area = {}
    for site in sites:
        by_area.setdefault(site["area"], []).append(site)
    chosen, taken = [], {}
    for area, _ in AREAS:
        # The operators take turns, so that literals (the most numerous
        # sites) do not crowd out the rest.
        by_operator = {}
        for site in sorted(by_area.get(area, []),
                           key=lambda s: (s["path"], s["start"], s["change"])):
            by_operator.setdefault(site["operator"], []).append(site)
        for sites_of_operator in by_operator.values():
            rng.shuffle(sites_of_operator)
        pool = [site for turn in itertools.zip_longest(*by_operator.values())
                for site in turn if site is not None]
        want = round(count * SHARES[area] / sum(SHARES.values()))
        for site in pool:
            if want == 0:
                break
            spans = taken.setdefault(site["path"], [])
            if any(site["start"] < e and s < site["end"] for s, e in spans):
                continue
            spans.append((site["start"], site["end"]))
            chosen.append(site)
            want -= 1
    for number, site in enumerate(chosen, 1):
        site["id"] = number
    return chosen


def write_schemata(src, chosen):
    """Each mutated file of the copy, with its sites as schemata."""
    by_path = {}
    for site in chosen:
        by_path.setdefault(site["path"], []).append(site)
    for path, sites in by_path.items():
        text = open(os.path.join(ROOT, path), "rb").read()
        for site in sorted(sites, key=lambda s: -s["start"]):
            original = text[site["start"]:site["end"]]
            if site["drop"]:
                schema = (b"(fa_mutation::on(%d) ? (void)0 : (void)(" % site["id"] +
                          original + b"))")
            else:
                mutated = site["mutated"].encode()
                if site.get("as_value"):
                    original = b"::mlir::Value(" + original + b")"
                schema = (b"(fa_mutation::on(%d) ? (" % site["id"] + mutated +
                          b") : (" + original + b"))")
            text = text[:site["start"]] + schema + text[site["end"]:]
        target = os.path.join(src, path)
        if open(target, "rb").read() != SCHEMA_HEADER + text:
            open(target, "wb").write(SCHEMA_HEADER + text)
    # Files no longer mutated go back to the pristine text.
    for _, path in area_files():
        if path not in by_path:
            pristine = open(os.path.join(ROOT, path), "rb").read()
            target = os.path.join(src, path)
            if open(target, "rb").read() != pristine:
                open(target, "wb").write(pristine)


def build_schemata(src, build, chosen):
    """Builds the schemata, dropping sites whose schema does not compile;
    returns the sites left and the number dropped."""
    dropped = 0
    while True:
        write_schemata(src, chosen)
        # Every target: the plugin, the package and the docs have tests too.
        built = harness.build(build, keep_going=True)
        if built.returncode == 0:
            return chosen, dropped
        bad = set()
        for match in re.finditer(r"^(/[^:\n]+):(\d+):\d+: error:", built.stdout, re.M):
            bad.add((os.path.relpath(match.group(1), src), int(match.group(2))))
        if not bad:
            sys.exit("mutate-operators: the build failed for another reason\n" +
                     built.stdout[-4000:])
        # Lines in the schemata file: map them back to sites by id.
        keep = []
        for site in chosen:
            path = site["path"]
            lines = [line for p, line in bad if p == path]
            if lines and schema_lines(src, site) & set(lines):
                dropped += 1
                continue
            keep.append(site)
        if len(keep) == len(chosen):
            sys.exit("mutate-operators: a build error no site explains\n" +
                     built.stdout[-4000:])
        print(f"  {len(chosen) - len(keep)} site(s) do not compile; dropped", flush=True)
        chosen = keep


def schema_lines(src, site):
    """The lines of the copy on which the schema of `site` lies."""
    text = open(os.path.join(src, site["path"]), "rb").read()
    marker = b"fa_mutation::on(%d)" % site["id"]
    at = text.find(marker)
    if at < 0:
        return set()
    first = text[:at].count(b"\n") + 1
    span = len(site["mutated"].encode()) * 2 + (site["end"] - site["start"]) + 200
    last = first + text[at:at + span].count(b"\n")
    return set(range(first - 1, last + 2))


# Tests that read the sources themselves, which hold the schemata here.
SOURCE_TESTS = {"Tools/mutation-catalogue.test"}  # mutate.py --check


def lit_tests(build):
    listed = harness.run([harness.LIT, "--show-tests", os.path.join(build, "test")])
    return sorted(set(re.findall(r"^\s*FA :: (\S+)", listed.stdout, re.M)) - SOURCE_TESTS)


def run_test(build, test, env, timeout):
    """True when `test` passes; the unit tests are one test."""
    if test == "unittests":
        command = [os.path.join(build, "unittests", "FAUnitTests")]
    else:
        command = [harness.LIT, "-q", os.path.join(build, "test", test)]
    process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, start_new_session=True)
    try:
        process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
        return False
    return process.returncode == 0


def trace(build, workdir, tests, jobs):
    """Which sites each test reaches, and how long it takes, with no mutant
    active; every test must pass."""
    folder = os.path.join(workdir, "trace")
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)

    def one(test):
        path = os.path.join(folder, test.replace("/", "__"))
        env = dict(os.environ, FA_MUTANT_TRACE=path)
        env.pop("FA_MUTANT", None)
        start = time.time()
        passed = run_test(build, test, env, 1800)
        seconds = time.time() - start
        reached = set()
        if os.path.exists(path):
            reached = {int(line) for line in open(path) if line.strip()}
        return test, passed, seconds, reached

    with ThreadPoolExecutor(jobs) as pool:
        results = list(pool.map(one, tests))
    failed = [test for test, passed, _, _ in results if not passed]
    if failed:
        sys.exit("mutate-operators: with no mutant active these fail: " + ", ".join(failed))
    return {test: (seconds, sorted(reached)) for test, _, seconds, reached in results}


def load_results(log):
    """The results of the mutants run so far, by id (the latest row wins)."""
    results = {}
    if os.path.exists(log):
        for line in open(log):
            row = json.loads(line)
            results[row["id"]] = row
    return results


def test_changed_since(test, when):
    """Whether the test's source (for the unit tests, any of their sources)
    is newer than `when`: what it reaches may have changed."""
    if test == "unittests":
        folder = os.path.join(ROOT, "unittests")
        paths = [os.path.join(folder, name) for name in os.listdir(folder)]
    else:
        paths = [os.path.join(ROOT, "test", test)]
    return any(os.path.exists(path) and os.stat(path).st_mtime > when
               for path in paths)


def run_mutants(build, chosen, coverage, jobs, log):
    reaching = {}
    for test, (seconds, reached) in coverage.items():
        for site in reached:
            reaching.setdefault(site, []).append((seconds, test))

    def one(site):
        start = time.time()
        candidates = sorted(reaching.get(site["id"], []))
        env = dict(os.environ, FA_MUTANT=str(site["id"]))
        env.pop("FA_MUTANT_TRACE", None)
        killed = []
        for seconds, test in candidates:
            if not run_test(build, test, env, max(60, 10 * seconds)):
                killed.append(test)
                if len(killed) == 2:
                    break
        site["reached_by"] = len(candidates)
        site["killed_by"] = killed
        site["seconds"] = round(time.time() - start)
        verdict = ("killed by " + ", ".join(killed) if killed else
                   "not reached by any test" if not candidates else "SURVIVED")
        line = (f"  #{site['id']} {site['area']}: {site['path']}:{site['line']} "
                f"{site['operator']} {site['change']}: {verdict} ({site['seconds']} s)")
        print(line, flush=True)
        with open(log, "a") as out:
            out.write(json.dumps(site) + "\n")
        return site

    with ThreadPoolExecutor(jobs) as pool:
        return list(pool.map(one, chosen))


def report(workdir, results):
    rows = ["| area | mutants | killed | by ≥ 2 tests | survived | not reached | kill rate |",
            "|---|---|---|---|---|---|---|"]
    totals = [0, 0, 0, 0, 0]
    for area, _ in AREAS:
        mine = [r for r in results if r["area"] == area]
        killed = sum(1 for r in mine if r["killed_by"])
        twice = sum(1 for r in mine if len(r["killed_by"]) >= 2)
        unreached = sum(1 for r in mine if not r["reached_by"])
        survived = len(mine) - killed - unreached
        for i, n in enumerate((len(mine), killed, twice, survived, unreached)):
            totals[i] += n
        rate = f"{100 * killed / len(mine):.0f} %" if mine else "-"
        rows.append(f"| {area} | {len(mine)} | {killed} | {twice} | {survived} | "
                    f"{unreached} | {rate} |")
    n, killed, twice, survived, unreached = totals
    rows.append(f"| **all** | {n} | {killed} | {twice} | {survived} | {unreached} | "
                f"{100 * killed / max(n, 1):.0f} % |")
    lines = rows + ["", "Survivors and unreached sites:", ""]
    for r in results:
        if not r["killed_by"]:
            lines.append(f"- #{r['id']} {r['path']}:{r['line']} {r['operator']} "
                         f"`{r['change']}` ({'reached by ' + str(r['reached_by']) + ' tests' if r['reached_by'] else 'not reached'})")
    open(os.path.join(workdir, "report.md"), "w").write("\n".join(lines) + "\n")
    with open(os.path.join(workdir, "mutants.tsv"), "w") as out:
        out.write("id\tarea\tsite\toperator\tchange\tkilled by\n")
        for r in results:
            out.write(f"{r['id']}\t{r['area']}\t{r['path']}:{r['line']}\t{r['operator']}\t"
                      f"{r['change']}\t{', '.join(r['killed_by']) or '-'}\n")
    print("\n".join(lines))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--workdir", default=os.path.join(ROOT, "build-mutate"),
                        help="the private copy, shared with scripts/mutate.py")
    parser.add_argument("--count", type=int, default=320)
    parser.add_argument("--seed", type=int, default=31)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--sites", action="store_true",
                        help="only list the candidate sites per area")
    parser.add_argument("--list-sites", metavar="FILE",
                        help="print the sites of one C++ file (tests the finder)")
    parser.add_argument("--report", action="store_true",
                        help="only write the report of the results so far")
    parser.add_argument("--resume", action="store_true",
                        help="run the mutants of the last sample not run yet")
    parser.add_argument("--since", metavar="REVISION",
                        help="sample only sites on lines added or changed since "
                             "this git revision (the code a previous run did "
                             "not see)")
    parser.add_argument("--rerun", default="",
                        help="comma-separated mutant ids of the last sample")
    parser.add_argument("--area", default="",
                        help="with --resume or --rerun: only the mutants of "
                             "this area (a sample's mutants of one area are a "
                             "sample of that area's sites)")
    args = parser.parse_args()

    if args.list_sites:
        path = os.path.relpath(os.path.abspath(args.list_sites), ROOT)
        for site in sorted(sites_in("-", path), key=lambda s: (s["start"], s["change"])):
            print(f"{site['line']}: {site['operator']}: {site['change']} => {site['mutated']}")
        return 0

    # The copy (src/, build/) is mutate.py's; this script's files go to
    # operators/ beside it.
    files = os.path.join(args.workdir, "operators")
    os.makedirs(files, exist_ok=True)
    sites = all_sites(files)
    if args.since:
        sites = sites_since(sites, args.since)
    if args.sites:
        for area, _ in AREAS:
            mine = [s for s in sites if s["area"] == area]
            kinds = {}
            for s in mine:
                kinds[s["operator"]] = kinds.get(s["operator"], 0) + 1
            print(f"{area}: {len(mine)} sites ({', '.join(f'{k} {v}' for k, v in sorted(kinds.items()))})")
        return 0

    chosen_path = os.path.join(files, "chosen.json")
    log = os.path.join(files, "results.jsonl")
    if args.report:
        chosen = json.load(open(chosen_path))
        results = load_results(log)
        report(files, [results[s["id"]] for s in chosen if s["id"] in results])
        print(f"{len(results)} of {len(chosen)} mutants run")
        return 0
    digests_path = os.path.join(files, "chosen-sources.json")
    if args.rerun or args.resume:
        chosen = json.load(open(chosen_path))
        # The sites are byte offsets into the sources sampled from.
        changed = [path for path, digest in json.load(open(digests_path)).items()
                   if source_digest(path) != digest]
        if changed:
            sys.exit("mutate-operators: sources changed since the sample (" +
                     ", ".join(changed) + "); draw a new one")
        if args.rerun:
            wanted = {int(i) for i in args.rerun.split(",")}
        else:
            wanted = {site["id"] for site in chosen} - set(load_results(log))
        if args.area:
            wanted = {site["id"] for site in chosen
                      if site["id"] in wanted and site["area"] == args.area}
    else:
        chosen = sample(sites, args.count, args.seed)
        json.dump({path: source_digest(path) for path in {site["path"] for site in chosen}},
                  open(digests_path, "w"))
        wanted = None
    # prepare() restores every file of the copy that differs from the tree,
    # schemata included, with a fresh mtime: writing the same schemata back
    # must rebuild nothing.
    with harness.unchanged_mtimes([os.path.join(args.workdir, "src", path)
                                   for _, path in area_files()]):
        src, build = harness.prepare(args.workdir)
        write_schemata(src, chosen)
    print(f"mutate-operators: {len(chosen)} mutants; building the schemata in {build}",
          flush=True)
    chosen, dropped = build_schemata(src, build, chosen)
    json.dump(chosen, open(chosen_path, "w"))
    print(f"  {len(chosen)} mutants compile ({dropped} dropped)", flush=True)

    tests = lit_tests(build) + ["unittests"]
    coverage_path = os.path.join(files, "coverage.json")
    if (args.rerun or args.resume) and os.path.exists(coverage_path):
        coverage = json.load(open(coverage_path))
        traced = os.stat(coverage_path).st_mtime
        for test in tests:  # tests added or edited since: trace them again
            if test not in coverage or test_changed_since(test, traced):
                coverage.update(trace(build, files, [test], 1))
    else:
        print(f"  tracing {len(tests)} tests with no mutant active", flush=True)
        coverage = trace(build, files, tests, args.jobs)
    json.dump(coverage, open(coverage_path, "w"))

    previous = load_results(log)
    todo = [s for s in chosen if wanted is None or s["id"] in wanted]
    # The areas take turns, so that a run cut short has sampled them all.
    rank, taken = {}, collections.Counter()
    for site in sorted(todo, key=lambda site: site["id"]):
        rank[site["id"]] = taken[site["area"]]
        taken[site["area"]] += 1
    todo.sort(key=lambda site: (rank[site["id"]], site["id"]))
    if wanted is None:
        open(log, "w").close()
        previous = {}
    results = run_mutants(build, todo, coverage, args.jobs, log)
    merged = {**previous, **{r["id"]: r for r in results}}
    report(files, [merged[s["id"]] for s in chosen if s["id"] in merged])
    return 1 if any(not r["killed_by"] for r in merged.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
