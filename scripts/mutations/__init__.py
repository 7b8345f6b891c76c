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
import ast
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


# --- Editing the catalogue files (mutate.py --fix-stages) ---------------

def _source(stage):
    path = os.path.join(FOLDER, stage + ".py")
    return open(path).read() if os.path.exists(path) else None


def _entries(source):
    """The MUTATIONS list of a catalogue file and its entries by name."""
    tree = ast.parse(source)
    listed = next(node.value for node in tree.body if isinstance(node, ast.Assign)
                  and getattr(node.targets[0], "id", None) == "MUTATIONS")
    by_name = {}
    for call in listed.elts:
        name = next(k.value for k in call.keywords if k.arg == "name")
        by_name[ast.literal_eval(name)] = call
    return tree, listed, by_name


def _with_imports(source):
    """`source` with its import from tests.py naming the lists it uses."""
    import textwrap
    from . import tests
    shared = {name for name in vars(tests) if name.isupper() or name == "multi_block_sweep"}
    tree, listed, _ = _entries(source)
    used = sorted({node.id for node in ast.walk(listed)
                   if isinstance(node, ast.Name) and node.id in shared})
    lines = source.split("\n")
    old = next((node for node in tree.body if isinstance(node, ast.ImportFrom)
                and node.module == "tests" and node.level == 1), None)
    if old:
        at = old.lineno - 1
        del lines[at:old.end_lineno]
    else:
        after = next(node for node in tree.body if isinstance(node, ast.ImportFrom))
        at = after.end_lineno
    if used:
        text = f"from .tests import {', '.join(used)}"
        if len(text) > 79:
            body = textwrap.fill(", ".join(used), 75, initial_indent="    ",
                                 subsequent_indent="    ")
            text = f"from .tests import (\n{body})"
        lines[at:at] = text.split("\n")
    return "\n".join(lines)


def move_entry(name, stage, to_stage, function, folders):
    """Moves entry `name` from the catalogue file of `stage` to the end of
    that of `to_stage` (made, with `folders` in its docstring, if there is
    none), its function set to `function`. A file left empty goes."""
    source = _source(stage)
    _, _, by_name = _entries(source)
    call = by_name[name]
    lines = source.split("\n")
    block = lines[call.lineno - 1:call.end_lineno]
    field = next(k for k in call.keywords if k.arg == "function")
    row = field.value.lineno - call.lineno
    line = block[row]
    block[row] = (line[:field.value.col_offset] +
                  (f'"{function}"' if function else "None") +
                  line[field.value.end_col_offset:])
    del lines[call.lineno - 1:call.end_lineno]
    source = "\n".join(lines)
    if to_stage == stage:
        lines[call.lineno - 1:call.lineno - 1] = block
        open(os.path.join(FOLDER, stage + ".py"), "w").write("\n".join(lines))
        return
    if _entries(source)[2]:
        open(os.path.join(FOLDER, stage + ".py"), "w").write(_with_imports(source))
    else:
        os.remove(os.path.join(FOLDER, stage + ".py"))
    target = _source(to_stage) or (
        f'"""The mutations of the stage {to_stage} ({", ".join(folders)}).\n'
        'The fields of an entry: scripts/mutations/__init__.py."""\n'
        "from . import Mutation\n\nMUTATIONS = [\n]\n")
    _, listed, _ = _entries(target)
    lines = target.split("\n")
    lines[listed.end_lineno - 1:listed.end_lineno - 1] = block
    open(os.path.join(FOLDER, to_stage + ".py"), "w").write(
        _with_imports("\n".join(lines)))
