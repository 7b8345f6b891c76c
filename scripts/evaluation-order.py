#!/usr/bin/env python3
"""Lists the calls in lib/ whose result depends on the order in which C++
evaluates function arguments, which the standard leaves unspecified (GCC
goes right to left, Clang left to right): calls with two or more arguments
that each build IR (a call returning an mlir::Value, an op or a vector of
values, or taking an OpBuilder or IndexMath), as in

    scf::ForOp::create(b, loc, math.constant(0), math.constant(n), ...)

A compiler then decides the order of the ops in the output, so a Clang
build and a GCC build print different (equivalent) IR. Hoist such
arguments into named locals, in the order the output should have.

  /usr/bin/python3 scripts/evaluation-order.py [paths...]   (needs python3-clang-22)
Exits 1 when it finds any.
"""
import multiprocessing
import os
import sys

import mutation_harness as harness

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LLVM = "/usr/lib/llvm-22"

ci = harness.cindex(required_by="evaluation-order")
ci.Config.set_library_file(os.path.join(LLVM, "lib", "libclang.so.1")) \
    if os.path.exists(os.path.join(LLVM, "lib", "libclang.so.1")) else None

BUILDER_TYPES = ("OpBuilder", "RewriterBase", "PatternRewriter",
                 "ImplicitLocOpBuilder", "IndexMath")


def has_builder_field(record):
    """Whether a class holds a builder (its methods then build IR)."""
    if record is None:
        return False
    for child in record.get_children():
        if child.kind == ci.CursorKind.CXX_BASE_SPECIFIER:
            if has_builder_field(child.referenced):
                return True
        if child.kind == ci.CursorKind.FIELD_DECL and \
                any(t in child.type.spelling for t in BUILDER_TYPES):
            return True
    return False


_builder_classes = {}


def call_builds_ir(node):
    """Whether this call itself may create an op."""
    callee = node.referenced
    if callee is None or callee.kind in (ci.CursorKind.CONSTRUCTOR,
                                         ci.CursorKind.CONVERSION_FUNCTION):
        return False
    if node.spelling == "create":
        return True
    if any(any(t in arg.type.spelling for t in BUILDER_TYPES)
           for arg in node.get_arguments()):
        return True
    if callee.kind == ci.CursorKind.CXX_METHOD:
        parent = callee.semantic_parent
        key = parent.get_usr() if parent else None
        if key not in _builder_classes:
            _builder_classes[key] = has_builder_field(parent)
        return _builder_classes[key]
    return False


def builds_ir(cursor):
    """Whether evaluating `cursor` may create an op (a lambda's body runs
    later, not when the argument is evaluated)."""
    if cursor.kind == ci.CursorKind.LAMBDA_EXPR:
        return False
    if cursor.kind == ci.CursorKind.CALL_EXPR and call_builds_ir(cursor):
        return True
    return any(builds_ir(child) for child in cursor.get_children())


def sites(path):
    index = ci.Index.create()
    unit = index.parse(os.path.join(ROOT, path), args=harness.clang_args(path))
    found = set()
    for node in unit.cursor.walk_preorder():
        if node.kind != ci.CursorKind.CALL_EXPR:
            continue
        if not node.location.file or \
                os.path.abspath(node.location.file.name) != os.path.join(ROOT, path):
            continue
        # A braced list ({a, b}) is evaluated left to right.
        tokens = node.get_tokens()
        first = next(tokens, None)
        if first is not None and first.spelling == "{":
            continue
        arguments = list(node.get_arguments())
        building = [a for a in arguments if builds_ir(a)]
        if len(building) >= 2:
            found.add((node.location.line, node.spelling))
    return sorted(found)


def main():
    paths = sys.argv[1:] or sorted(
        os.path.relpath(os.path.join(folder, name), ROOT)
        for top in ("lib", "include")
        for folder, _, names in os.walk(os.path.join(ROOT, top))
        for name in names if name.endswith((".cpp", ".h")))
    count = 0
    relative = [os.path.relpath(os.path.abspath(path), ROOT) for path in paths]
    with multiprocessing.Pool(os.cpu_count()) as pool:
        for path, found in zip(relative, pool.map(sites, relative)):
            for line, name in found:
                print(f"{path}:{line}: {name}(...) builds IR in two or more "
                      "arguments", flush=True)
                count += 1
    print(f"{count} calls")
    return 1 if count else 0


if __name__ == "__main__":
    sys.exit(main())
