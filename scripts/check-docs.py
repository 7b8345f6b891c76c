#!/usr/bin/env python3
"""Checks that the reference docs read as reference, not as a work log.

README.md and docs/**/*.md say how fa-opt works and how to check it; what
happened when, and what is left to do, belong elsewhere: dated run logs and
work narratives in docs/history/, what is not built yet in the "Roadmap"
section of docs/Design.md. Four rules, each a reason in the output:

  work-log reference  the word "session" in any form ("session 12", "this
                      session", "(session 30)", "sessions 18 and 19"): the
                      project has no other use for it.
  issue in heading    a Markdown heading (outside code blocks) that names an
                      issue: "issue 32", "Issue 50", "#50". Say what the
                      section is about; the issue is history.
  dated run log       a calendar date: 2026-12-06, 2026-12, "Dec 6",
                      "6 December". Not a date inside a file or path name
                      (bench/results/h200-2026-12-04-decode.md), and not a
                      line that cites a paper or a release (it holds
                      "arXiv", "doi", a URL or the word "release").
  status phrasing     "TODO", "FIXME", "not yet", "not done", "still
                      missing", "yet to be", "work in progress", "so far":
                      a statement of what is, or an entry in the Roadmap.

  scripts/check-docs.py                     # README.md and docs/
  scripts/check-docs.py FILE_OR_DIR ...     # only these (e.g. a fixture)
  scripts/check-docs.py --root DIR          # another tree's README and docs

Without paths it checks README.md and every .md under docs/ except
docs/history/ (the log itself) and docs/reference/ (generated from the ODS
files by scripts/update-docs.sh; its text is written in include/). Prints
one line per finding, FILE:LINE: REASON: TEXT, then "docs: N files checked,
M findings"; exits 1 when there is any finding.
"""
import argparse
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SKIPPED_DIRS = ("history", "reference")

SESSION = re.compile(r"\bsessions?\b", re.IGNORECASE)
HEADING = re.compile(r"^ {0,3}#{1,6}\s")
ISSUE = re.compile(r"\bissues?\s+#?\d+|(?<![\w&])#\d+\b", re.IGNORECASE)
MONTH = (r"(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|"
         r"July?|Aug(?:ust)?|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|"
         r"Dec(?:ember)?)")
# A date not inside a name: no word character, '/', '.' or '-' glued to it.
DATE = re.compile(
    r"(?<![\w/.-])20\d\d-(?:0[1-9]|1[0-2])(?:-[0-3]\d)?(?![\w-])"
    r"|\b" + MONTH + r"\.? [0-3]?\d(?:st|nd|rd|th)?\b"
    r"|\b[0-3]?\d " + MONTH + r"\b")
CITATION = re.compile(r"arXiv|\bdoi\b|https?://|\breleased?\b", re.IGNORECASE)
STATUS = re.compile(
    r"\bTODO\b|\bFIXME\b|\bnot yet\b|\bnot done\b|\bstill missing\b"
    r"|\byet to be\b|\bwork in progress\b|\bso far\b", re.IGNORECASE)
FENCE = re.compile(r"^ {0,3}(```|~~~)")


def findings_in(text):
    """(line number, reason, line) for every rule a line breaks."""
    found, in_code = [], False
    for number, line in enumerate(text.splitlines(), 1):
        if FENCE.match(line):
            in_code = not in_code
            continue
        if SESSION.search(line):
            found.append((number, "work-log reference", line))
        if not in_code and HEADING.match(line) and ISSUE.search(line):
            found.append((number, "issue in heading", line))
        if DATE.search(line) and not CITATION.search(line):
            found.append((number, "dated run log", line))
        if STATUS.search(line):
            found.append((number, "status phrasing", line))
    return found


def default_files(root):
    files = [os.path.join(root, "README.md")]
    docs = os.path.join(root, "docs")
    for folder, dirs, names in os.walk(docs):
        if os.path.samefile(folder, docs):
            dirs[:] = [d for d in dirs if d not in SKIPPED_DIRS]
        dirs.sort()
        files += [os.path.join(folder, n) for n in sorted(names) if n.endswith(".md")]
    return [f for f in files if os.path.isfile(f)]


def named_files(paths):
    files = []
    for path in paths:
        if os.path.isdir(path):
            for folder, dirs, names in os.walk(path):
                dirs.sort()
                files += [os.path.join(folder, n) for n in sorted(names)
                          if n.endswith(".md")]
        else:
            files.append(path)
    return files


def shown(path, root):
    relative = os.path.relpath(os.path.abspath(path), root)
    return path if relative.startswith("..") else relative


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("paths", nargs="*",
                        help="files or folders to check (default: README.md and docs/)")
    parser.add_argument("--root", default=ROOT,
                        help="the tree whose README.md and docs/ are checked")
    args = parser.parse_args()
    root = os.path.abspath(args.root)
    files = named_files(args.paths) if args.paths else default_files(root)
    count = 0
    for path in files:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for number, reason, line in findings_in(text):
            count += 1
            excerpt = line.strip()
            if len(excerpt) > 120:
                excerpt = excerpt[:117] + "..."
            print(f"{shown(path, root)}:{number}: {reason}: {excerpt}")
    print(f"docs: {len(files)} files checked, {count} findings")
    return 1 if count else 0


if __name__ == "__main__":
    sys.exit(main())
