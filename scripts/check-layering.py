#!/usr/bin/env python3
"""The include graph follows the stages: every `#include "fa/..."` (a
public header) and every `#include "<Stage>/..."` (a private header under
lib/Transforms, such as Common's) under include/fa/ and lib/ goes from a
stage to one it may depend on.

The stages, from the floor up (docs/Design.md, "Layout"):
  Target        the target descriptions; depends on nothing of ours
  Kernel        the kernel model (plan, footprint, layouts); Target only
  Dialect       the fa dialect; Kernel and Target
  Common        what several stages share (private, lib/Transforms/Common);
                the floors
  the pipeline stages, in pipeline order: Recognition, Reference,
                TileSelection, Tiling, GPUKernel, GPUEmulation, GPUMapping,
                CPU, each with one public header
                (include/fa/Transforms/<Stage>/<Stage>.h: its passes and
                entry points); each may use the floors, Common and a stage
                before it, except TileSelection, the search, which no stage
                below the pipelines reads (the kernels follow the kernel
                model, not the search that chose their tiling)
  Passes        include/fa/Transforms/Passes.h, every stage's header and
                the registration of all passes: no stage includes it
  Pipelines, Init   compose everything

  scripts/check-layering.py              # the tree
  scripts/check-layering.py --root DIR   # another tree (tests)

Prints one line per upward edge and exits 1 when there is one.
"""
import argparse
import os
import re
import sys

FLOORS = ["Target", "Kernel", "Dialect", "Common"]
PIPELINE = ["Recognition", "Reference", "TileSelection", "Tiling", "GPUKernel",
            "GPUEmulation", "GPUMapping", "CPU"]
# The search: only the composition layers may read it.
SEARCH = "TileSelection"


def allowed(stage):
    """The stages `stage` may include from."""
    if stage in FLOORS:
        return set(FLOORS[:FLOORS.index(stage) + 1])
    if stage in PIPELINE:
        earlier = PIPELINE[:PIPELINE.index(stage) + 1]
        return set(FLOORS) | {s for s in earlier if s != SEARCH or s == stage}
    return set(FLOORS) | set(PIPELINE) | {"Passes", "Pipelines", "Init"}


def stage_of(path):
    """The stage of a path under include/fa/ or lib/ (or of an include
    spelled "fa/...")."""
    parts = path.split("/")
    if parts[0] == "include":
        parts = parts[1:]
    parts = parts[1:]  # below fa/ or lib/
    if parts[0] == "Transforms" and len(parts) > 2:
        return parts[1]
    if parts[0] == "Transforms" and len(parts) == 2:
        return "Passes"  # Passes.h, Passes.td and their generated header
    if parts[0] == "InitFA.h":
        return "Init"
    return parts[0]


def included_stage(spelling):
    """The stage an include reaches: a public header ("fa/..."), a private
    header of a stage folder under lib/Transforms ("Common/...",
    "GPUKernel/..."), or None (one beside the includer, or not ours)."""
    if spelling.startswith("fa/"):
        return stage_of(spelling)
    first = spelling.split("/")[0]
    if "/" in spelling and first in FLOORS + PIPELINE:
        return first
    return None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--root", default=os.path.dirname(
        os.path.dirname(os.path.abspath(__file__))))
    args = parser.parse_args()
    problems, files = [], 0
    for top in ("include/fa", "lib"):
        for folder, _, names in os.walk(os.path.join(args.root, top)):
            for name in sorted(names):
                if not name.endswith((".h", ".cpp", ".td", ".inc")):
                    continue
                path = os.path.relpath(os.path.join(folder, name), args.root)
                files += 1
                stage = stage_of(path)
                text = open(os.path.join(args.root, path)).read()
                for number, line in enumerate(text.splitlines(), 1):
                    found = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
                    target = found and included_stage(found.group(1))
                    if not target:
                        continue
                    if target != stage and target not in allowed(stage):
                        problems.append(f"{path}:{number}: {stage} includes "
                                        f"{found.group(1)} ({target})")
    for problem in problems:
        print(problem)
    print(f"layering: {files} files, {len(problems)} upward includes")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
