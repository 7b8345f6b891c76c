#!/usr/bin/env python3
"""Lists the functions of lib/ longer than a limit (default 100 lines),
longest first: a definition starts at a line that opens a body at column 0
or 2 (free functions, and methods in a class body) and ends at the brace
that closes it at the same indentation.

  scripts/long-functions.py [--limit N] [paths...]
"""
import argparse
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
START = re.compile(r"^( {0,2})[A-Za-z_~].*\)\s*(const\s*)?(override\s*)?\{\s*$|"
                   r"^( {0,2})[A-Za-z_~].*[^;]\s*\{\s*$")


def functions(path):
    lines = open(path).read().split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        opens_body = line.rstrip().endswith("{") and \
            not re.search(r"(\w|=\s*)\{\s*$", line)  # not `name{`, `= {`
        if not opens_body or line.lstrip().startswith(("//", "#")):
            i += 1
            continue
        # The signature may start a few lines up.
        first = i
        while first > 0 and lines[first - 1].strip() and \
                not lines[first - 1].rstrip().endswith((";", "}", "{", ":")) and \
                not lines[first - 1].lstrip().startswith(("//", "#")):
            first -= 1
        head = lines[first]
        indent = len(head) - len(head.lstrip())
        signature = " ".join(l.strip() for l in lines[first:i + 1])
        if indent > 2 or not START.match(head.rstrip() + " {") and \
                not re.match(r"^ {0,2}[A-Za-z_~]", head) or \
                "(" not in signature or re.match(
                    r"^\s*(namespace|struct|class|enum|union|if|for|while|"
                    r"switch|else|do|return)\b", head):
            i += 1
            continue
        closing = " " * indent + "}"
        j = i + 1
        while j < len(lines) and not (lines[j].startswith(closing) and
                                      (len(lines[j]) == len(closing) or
                                       lines[j][len(closing)] in ";) ")):
            j += 1
        name = re.search(r"([A-Za-z_~][A-Za-z0-9_:~]*)\s*\(", signature)
        yield (j - first + 1, name.group(1) if name else head.strip(),
               first + 1)
        i = j + 1


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--limit", type=int, default=100)
    parser.add_argument("paths", nargs="*")
    args = parser.parse_args()
    paths = args.paths or [os.path.join(folder, name)
                           for folder, _, names in os.walk(os.path.join(ROOT, "lib"))
                           for name in names if name.endswith((".cpp", ".h"))]
    found = []
    for path in paths:
        for length, name, line in functions(path):
            if length > args.limit:
                found.append((length, os.path.relpath(path, ROOT), line, name))
    for length, path, line, name in sorted(found, reverse=True):
        print(f"{length:5d}  {path}:{line}  {name}")
    print(f"{len(found)} functions over {args.limit} lines")


if __name__ == "__main__":
    sys.exit(main())
