#!/usr/bin/env python3
"""The include graph follows the stages: every `#include "fa/..."` under
include/fa/ and lib/ goes from a stage to one it may depend on.

The stages, from the floor up (docs/Design.md, "Layout"):
  Target        the target descriptions; depends on nothing of ours
  Kernel        the kernel model (plan, footprint, layouts); Target only
  Dialect       the fa dialect; Kernel and Target
  Transforms    the pass declarations (include/fa/Transforms/Passes.h)
  Common        what several stages share; the floors and Transforms
  the pipeline stages, in pipeline order: Recognition, Reference,
                TileSelection, Tiling, GPUKernel, GPUEmulation, GPUMapping,
                CPU; each may use the floors, Common and a stage before it,
                except TileSelection, the search, which no stage below the
                pipelines reads (the kernels follow the kernel model, not
                the search that chose their tiling)
  Pipelines, Init   compose everything

  scripts/check-layering.py              # the tree
  scripts/check-layering.py --root DIR   # another tree (tests)

Prints one line per upward edge and exits 1 when there is one.
"""
import argparse
import os
import re
import sys

FLOORS = ["Target", "Kernel", "Dialect", "Transforms", "Common"]
PIPELINE = ["Recognition", "Reference", "TileSelection", "Tiling", "GPUKernel",
            "GPUEmulation", "GPUMapping", "CPU"]
# The search: only the composition layers may read it.
SEARCH = "TileSelection"


def allowed(stage):
    """The stages `stage` may include from."""
    if stage in FLOORS:
        return set(FLOORS[:FLOORS.index(stage) + 1]) - (
            {"Transforms"} if stage in ("Target", "Kernel", "Dialect") else set())
    if stage in PIPELINE:
        earlier = PIPELINE[:PIPELINE.index(stage) + 1]
        return set(FLOORS) | {s for s in earlier if s != SEARCH or s == stage}
    return set(FLOORS) | set(PIPELINE) | {"Pipelines", "Init"}


def stage_of(path):
    """The stage of a path under include/fa/ or lib/ (or of an include
    spelled "fa/...")."""
    parts = path.split("/")
    if parts[0] == "include":
        parts = parts[1:]
    parts = parts[1:]  # below fa/ or lib/
    if parts[0] == "Transforms" and len(parts) > 2:
        return parts[1]
    if parts[0] == "InitFA.h":
        return "Init"
    return parts[0]


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
                    found = re.match(r'\s*#\s*include\s+"(fa/[^"]+)"', line)
                    if not found:
                        continue
                    target = stage_of(found.group(1))
                    if target != stage and target not in allowed(stage):
                        problems.append(f"{path}:{number}: {stage} includes "
                                        f"{found.group(1)} ({target})")
    for problem in problems:
        print(problem)
    print(f"layering: {files} files, {len(problems)} upward includes")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
