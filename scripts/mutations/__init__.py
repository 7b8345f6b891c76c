"""The catalogue of scripts/mutate.py: hand-written bugs, one file per stage
of the compiler, so that a change to one stage touches that stage's file.

A stage is a folder of lib/ (of lib/Transforms/ for the transforms) with
its headers at the same place under include/fa/: lib/Transforms/GPUKernel
and include/fa/Transforms/GPUKernel are the stage GPUKernel, and
scripts/mutations/GPUKernel.py holds the entries whose text lies there.
tests.py holds the lists of tests that several entries name.

An entry is a Mutation:

  name         unique over the catalogue (--only names it)
  function     the function whose text holds the site, qualified as
               libclang spells it without anonymous namespaces
               ("mlir::fa::Class::method"; a lambda's site belongs to the
               function around it). The site is looked up in that function
               only, found by name in any file of the stage, so moving the
               function between the stage's files needs no change here.
               None for text outside any function (TableGen, a top-level
               constant): anywhere in the stage's files.
  old          the text replaced; it must occur exactly once in that
               function, verbatim or else with any run of whitespace
               matching any other
  new          its replacement
  tests        the lit tests (paths from the root; "unittests" for the
               unit tests) expected to catch it
  description  what the bug breaks
"""
import collections
import importlib
import os

FOLDER = os.path.dirname(os.path.abspath(__file__))

Mutation = collections.namedtuple(
    "Mutation", ["name", "function", "old", "new", "tests", "description", "stage"],
    defaults=[None])  # the stage is the file the entry is in

# Mutations the tests are known not to catch yet, and why; the harness
# reports them without failing. None at present: the last one,
# missing-barrier-after-pv (a race between the lanes of one warp, which the
# emulation once ran in full in every thread), has been caught by nine
# sweeps by their numbers since the lane-exact model of issue 16.
KNOWN_GAPS = {}

# Mutations every one of whose named tests must fail: removing the online
# rescale must break every case that crosses key blocks (issue 15).
MUST_FAIL_ALL = {"no-rescale", "kernel-no-rescale", "kernel-mma-no-rescale",
                 "fragment-no-rescale",
                 # issue 31: each held by two tests
                 "merge-max-starts-at-zero", "pack-gqa-top-left-single-row",
                 # issue 35: caught by the output guards in both
                 "fragment-epilogue-row-past-end",
                 # issue 31: caught by the cp.async source check in both
                 "whole-key-blocks-ignores-tail"}


def stage_of(path):
    """The stage of a source file (a path from the root), or None for one
    outside every stage (lib/CMakeLists.txt, include/fa/InitFA.h)."""
    parts = path.split("/")
    if parts[:2] == ["include", "fa"]:
        parts = parts[2:]
    elif parts[0] == "lib":
        parts = parts[1:]
    else:
        return None
    if parts[0] == "Transforms" and len(parts) > 2:
        parts = parts[1:]
    return parts[0] if len(parts) > 1 else None


def stage_file(stage):
    """The catalogue file of a stage, from the root."""
    return f"scripts/mutations/{stage}.py"


def stages():
    """The stages that have a catalogue file."""
    return sorted(name[:-3] for name in os.listdir(FOLDER)
                  if name.endswith(".py") and name not in ("__init__.py", "tests.py"))


def load():
    """Every entry, stage by stage in the order of their names, each stage's
    in the order of its file."""
    entries = []
    for stage in stages():
        module = importlib.import_module(f"{__name__}.{stage}")
        entries += [entry._replace(stage=stage) for entry in module.MUTATIONS]
    return entries


def stage_folders(stage, paths):
    """The folders of `stage` among `paths` (source files from the root):
    lib/Transforms/GPUKernel, include/fa/Transforms/GPUKernel."""
    folders = set()
    for path in paths:
        if stage_of(path) == stage:
            parts = path.split("/")
            folders.add("/".join(parts[:parts.index(stage) + 1]))
    return sorted(folders)
