#!/usr/bin/env python3
"""Mutation harness: does the test suite catch semantic bugs in the
lowerings and the recognizer?

Each entry of the catalogue is one plausible bug, written as a text
substitution, and the named lit tests expected to catch it. The catalogue
lives in scripts/mutations/, one file per stage of the compiler (a folder
of lib/ or lib/Transforms/; the fields are described in
scripts/mutations/__init__.py). An entry names the function that holds its
text, not a file: the text is looked up in that function only, which is
found by name in any file of the stage, with any run of whitespace
matching any other, and must occur there exactly once. Moving a function
between the files of a stage, reordering or re-indenting code leaves the
catalogue intact; a refactor that rewrites a mutated line, moves it to
another function or moves the function to another stage fails `--check`,
which the test suite runs (test/Tools/mutation-catalogue.test), with the
change to make (`--fix-stages` makes it when the function moved stage).
For each mutation the harness copies the pristine file into a private copy
of the tree, applies the substitution, rebuilds fa-opt (and the unit tests)
incrementally, runs the named tests, and restores the file. A mutation is
caught when at least one named test fails; the table lists which did.

  scripts/mutate.py                  # every mutation; the first run builds
  scripts/mutate.py --only no-rescale,missing-barrier
  scripts/mutate.py --check          # only that every substitution applies
                                     # once and every named test exists
  scripts/mutate.py --by-stage       # the number of entries per stage
  scripts/mutate.py --fix-stages     # move the entries whose function is
                                     # now in another stage to its file,
                                     # then check

The copy lives in build-mutate/ (src/ and build/), never in the working
tree, so an interrupted run leaves the tree as it was. Too slow for CI on
two cores (about a minute per mutation once built); docs/Robustness.md
keeps the latest table. Exit status 1 when a mutation survives. Finding
the functions needs libclang's Python bindings (python3-clang-22); without
them an entry's text must be unique in its stage.
"""
import argparse
import collections
import os
import sys
import time

import mutation_harness as harness
import mutations
# Other scripts reach the shared parts through this one.
from mutation_harness import ROOT, failures_by_cause, prepare, run  # noqa: F401


# Where an entry's text occurs: verbatim or with whitespace relaxed, the
# span to replace, and that of its first to last non-blank.
Place = collections.namedtuple("Place", ["exact", "path", "start", "end", "first", "last"])
# What is wrong with an entry, and for --fix-stages the (entry, stage,
# function) it should have, where it only needs to move.
Problem = collections.namedtuple("Problem", ["message", "fix"])


class Sources:
    """The sources under lib/ and include/, and which function holds a
    place in them: the answer of the cheapest libclang parse that sees one
    there (mutation_harness.DEPTHS)."""

    def __init__(self):
        self.texts = {path: open(os.path.join(ROOT, path)).read()
                      for path in harness.source_files()}
        self.by_stage = {}
        for path in self.texts:
            self.by_stage.setdefault(mutations.stage_of(path), []).append(path)
        self.clang = harness.cindex() is not None
        self.parsed = {}

    def functions(self, path, depth):
        if not self.clang or not path.endswith((".cpp", ".h")):
            return []
        if (path, depth) not in self.parsed:
            self.parsed[path, depth] = harness.function_extents(path, depth)
        return self.parsed[path, depth]

    def holder(self, place):
        """The function whose text holds `place`, or None."""
        for depth in range(harness.DEPTHS):
            for name, start, end in self.functions(place.path, depth):
                if start <= place.first and place.last <= end:
                    return name
        return None

    def places(self, old, paths):
        """Every Place of `old` in `paths`."""
        lead, trail = len(old) - len(old.lstrip()), len(old) - len(old.rstrip())
        found = []
        for path in paths:
            exact, relaxed = harness.find_text(old, self.texts[path])
            found += [Place(True, path, s, e, s + lead, e - trail) for s, e in exact]
            found += [Place(False, path, s, e, s, e) for s, e in relaxed]
        return found


def one_place(places):
    """The places to choose from: the verbatim ones when there are any."""
    exact = [place for place in places if place.exact]
    return exact or places


def where(sources, place):
    line = sources.texts[place.path][:place.start].count("\n") + 1
    return f"{sources.holder(place) or 'outside any function'} ({place.path}:{line})"


def locate(entry, sources):
    """(path, start, end) of the entry's site, or a Problem."""
    in_stage = sources.places(entry.old, sources.by_stage.get(entry.stage, []))
    if entry.function is None or not sources.clang:
        chosen = one_place(in_stage)
        if len(chosen) == 1:
            return chosen[0].path, chosen[0].start, chosen[0].end
        if chosen:
            why = ("it must occur once" if entry.function is None else "without "
                   "libclang, which tells functions apart, it must occur once")
            return Problem(f"{entry.name}: the text to replace occurs {len(chosen)} "
                           f"times in the files of stage {entry.stage} ({why})", None)
        return moved(entry, sources)
    chosen = one_place([place for place in in_stage
                        if sources.holder(place) == entry.function])
    if len(chosen) == 1:
        return chosen[0].path, chosen[0].start, chosen[0].end
    if chosen:
        return Problem(f"{entry.name}: the text to replace occurs {len(chosen)} times "
                       f"in {entry.function} (it must occur once)", None)
    return moved(entry, sources)


def moved(entry, sources):
    """The Problem of an entry whose text is not where it says: its
    function (or its text, outside any function) moved to another stage,
    was qualified anew by a move, or the text moved elsewhere."""
    anywhere = sources.places(entry.old, sources.texts)
    anchor = entry.function or "outside any function"
    if not anywhere:
        return Problem(f"{entry.name}: the text to replace occurs 0 times under "
                       f"lib/ and include/ (it must occur once, in {anchor})", None)
    if entry.function is None:
        found = one_place(anywhere)
    else:
        found = one_place([place for place in anywhere
                           if sources.holder(place) == entry.function])
        if len(found) != 1:  # the same name, qualified anew?
            name = entry.function.split("::")[-1]
            found = one_place([place for place in anywhere
                               if (sources.holder(place) or "").split("::")[-1] == name])
    if len(found) == 1:
        path = found[0].path
        stage = mutations.stage_of(path)
        function = entry.function and sources.holder(found[0])
        renamed = f" (now {function})" if function != entry.function else ""
        if stage and stage != entry.stage:
            what = (f"function {entry.function}" if entry.function
                    else "its text (outside any function)")
            return Problem(f"{entry.name}: {what} is in stage {stage} ({path}){renamed}, "
                           f"not {entry.stage}: move it to {mutations.stage_file(stage)}",
                           (stage, function))
        if stage and renamed:
            return Problem(f"{entry.name}: function {entry.function} is now "
                           f'{function} ({path}), set function="{function}"',
                           (stage, function))
    others = one_place(anywhere)
    return Problem(f"{entry.name}: the text to replace is not in {anchor} but in "
                   + ", ".join(where(sources, place) for place in others[:4])
                   + (f" and {len(others) - 4} more places" if len(others) > 4 else ""),
                   None)


def check(chosen, catalogue, sources):
    """The site of each chosen entry by name, and the Problems of the
    catalogue."""
    sites, problems = {}, []
    seen = set()
    for entry in catalogue:
        if entry.name in seen:
            problems.append(Problem(f"{entry.name}: two entries have this name (one "
                                    f"in {mutations.stage_file(entry.stage)})", None))
        seen.add(entry.name)
    for entry in chosen:
        site = locate(entry, sources)
        if isinstance(site, Problem):
            problems.append(site._replace(fix=site.fix and (entry,) + site.fix))
        else:
            sites[entry.name] = site
        for test in entry.tests:
            if test != "unittests" and not os.path.exists(os.path.join(ROOT, test)):
                problems.append(Problem(f"{entry.name}: no test {test}", None))
    named = set(mutations.MUST_FAIL_ALL) | set(mutations.KNOWN_GAPS)
    for name in sorted(named - seen):
        problems.append(Problem(f"{name}: in MUST_FAIL_ALL or KNOWN_GAPS, not in "
                                "the catalogue", None))
    return sites, problems


def by_stage(catalogue, sources):
    """A table of the entries per stage."""
    counts = {}
    for entry in catalogue:
        counts[entry.stage] = counts.get(entry.stage, 0) + 1
    print("| stage | entries | folders |")
    print("|---|---|---|")
    for stage in sorted(set(counts) | {s for s in sources.by_stage if s}):
        folders = mutations.stage_folders(stage, sources.texts)
        print(f"| {stage} | {counts.get(stage, 0)} | {', '.join(folders) or '-'} |")
    print(f"| **all** | {len(catalogue)} | |")


def fix_stages(problems, sources):
    """Makes the fixes of `problems`; returns the problems left."""
    for problem in problems:
        if not problem.fix:
            continue
        entry, stage, function = problem.fix
        mutations.move_entry(entry.name, entry.stage, stage, function,
                             mutations.stage_folders(stage, sources.texts))
        where = (f"{mutations.stage_file(entry.stage)} -> {mutations.stage_file(stage)}"
                 if stage != entry.stage else mutations.stage_file(stage))
        print(f"{entry.name}: {where}" +
              (f", function {function}" if function != entry.function else ""))
    return [problem for problem in problems if not problem.fix]


# What a mutation rebuilds: the tool and the unit tests.
TARGETS = ["fa-opt", "FAUnitTests"]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--workdir", default=os.path.join(ROOT, "build-mutate"))
    parser.add_argument("--only", default="", help="comma-separated names")
    parser.add_argument("--check", action="store_true",
                        help="only check that every substitution applies once")
    parser.add_argument("--by-stage", action="store_true",
                        help="only print the number of entries per stage")
    parser.add_argument("--fix-stages", action="store_true",
                        help="move each entry whose function is now in another "
                             "stage to that stage's file (with the function's "
                             "new qualification, if the move changed it), then "
                             "check")
    args = parser.parse_args()
    catalogue = mutations.load()
    sources = Sources()
    if args.by_stage:
        by_stage(catalogue, sources)
        return 0
    # In catalogue order, or in the order --only names them.
    chosen = catalogue
    if args.only:
        by_name = {m.name: m for m in catalogue}
        unknown = [n for n in args.only.split(",") if n not in by_name]
        if unknown:
            sys.exit("mutate: no mutation " + ", ".join(unknown))
        chosen = [by_name[n] for n in args.only.split(",")]

    sites, problems = check(chosen, catalogue, sources)
    if args.fix_stages:
        problems = fix_stages(problems, sources)
    if problems:
        sys.exit("mutate: " + "\n  ".join(problem.message for problem in problems))
    if args.check or args.fix_stages:
        print(f"{len(chosen)} mutations apply, each at one place")
        return 0

    src, build = prepare(args.workdir)
    print(f"mutate: building the unmutated copy in {build} ...", flush=True)
    if harness.build(build, TARGETS).returncode:
        sys.exit("mutate: the unmutated copy does not build")
    rows, survived = [], 0
    for entry in chosen:
        name, tests = entry.name, entry.tests
        start = time.time()
        path, begin, end = sites[name]
        pristine = sources.texts[path]
        with harness.substituted(os.path.join(src, path), pristine,
                                 pristine[:begin] + entry.new + pristine[end:]):
            if harness.build(build, TARGETS).returncode:
                caught = ["(does not build)"]
            else:
                caught = harness.lit_failures(build, tests)
                if name in mutations.MUST_FAIL_ALL and len(caught) < len(tests):
                    missed = [t for t in tests
                              if not any(t.endswith(c.split(" ")[0]) for c in caught)]
                    caught = []  # survived where it had to fail everywhere
                    print(f"  {name}: these still pass: {', '.join(missed)}")
        seconds = time.time() - start
        survived += not caught and name not in mutations.KNOWN_GAPS
        rows.append((name, entry.description, caught, seconds))
        print(f"  {name}: {'caught by ' + ', '.join(caught) if caught else 'SURVIVED'}"
              f" ({seconds:.0f} s)", flush=True)
    harness.build(build, TARGETS)  # leave the copy unmutated

    print("\n| mutation | what it breaks | tests that failed | time |")
    print("|---|---|---|---|")
    for name, what, caught, seconds in rows:
        if caught and name in mutations.MUST_FAIL_ALL:
            shown = f"all {len(caught)} named: " + ", ".join(caught)
        elif not caught and name in mutations.KNOWN_GAPS:
            shown = "none: a known gap (" + mutations.KNOWN_GAPS[name] + ")"
        else:
            shown = ", ".join(caught) if caught else "**none: survived**"
        print(f"| `{name}` | {what} | {shown} | {seconds:.0f} s |")
    gaps = sum(1 for name, _, caught, _ in rows
               if not caught and name in mutations.KNOWN_GAPS)
    print(f"\n{len(rows) - survived - gaps} of {len(rows)} mutations caught"
          + (f", {gaps} known gap(s)" if gaps else ""))
    return 1 if survived else 0


if __name__ == "__main__":
    sys.exit(main())
