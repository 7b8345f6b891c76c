"""What scripts/mutate.py (the hand-written catalogue) and
scripts/mutate-operators.py (sampled operator mutants) share: the private
copy of the tree they mutate, its build, lit and its failures, and the
libclang parse that finds sites and the functions that hold them.

The copy lives in build-mutate/ (src/ and build/), never in the working
tree, so an interrupted run leaves the tree as it was.
"""
import contextlib
import os
import re
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LLVM = "/usr/lib/llvm-22"
LIT = f"{LLVM}/bin/lit"


def run(cmd, **kwargs):
    return subprocess.run(cmd, capture_output=True, text=True, **kwargs)


# --- The sources --------------------------------------------------------

def source_files():
    """Every tracked C++ and TableGen source under lib/ and include/."""
    listed = run(["git", "-C", ROOT, "ls-files", "-z", "--cached", "--others",
                  "--exclude-standard", "lib", "include"])
    if listed.returncode == 0:
        paths = listed.stdout.split("\0")
    else:  # not a git checkout (an unpacked archive): every file there
        paths = [os.path.relpath(os.path.join(folder, name), ROOT)
                 for top in ("lib", "include")
                 for folder, _, names in os.walk(os.path.join(ROOT, top))
                 for name in names]
    return sorted(path for path in set(paths)
                  if path.endswith((".cpp", ".h", ".td"))
                  and os.path.isfile(os.path.join(ROOT, path)))


def site_pattern(old):
    """`old` as a regular expression in which any run of whitespace matches
    any other (one or more characters)."""
    parts = re.split(r"\s+", old.strip())
    return re.compile(r"\s+".join(re.escape(part) for part in parts))


def find_text(old, text):
    """Where `old` occurs in `text`: the (start, end) of its verbatim copies
    (their indentation may tell two copies apart), and of its copies with
    whitespace relaxed, which start and end at a non-blank."""
    return ([(m.start(), m.end()) for m in re.finditer(re.escape(old), text)],
            [(m.start(), m.end()) for m in site_pattern(old).finditer(text)])


# --- The private copy ---------------------------------------------------

def prepare(workdir):
    """A private copy of the tracked tree and a build of it."""
    src, build = os.path.join(workdir, "src"), os.path.join(workdir, "build")
    files = run(["git", "-C", ROOT, "ls-files", "-z"]).stdout.split("\0")
    for path in files:
        if not path:
            continue
        source, target = os.path.join(ROOT, path), os.path.join(src, path)
        if not os.path.isfile(source):
            continue
        os.makedirs(os.path.dirname(target), exist_ok=True)
        if (not os.path.exists(target) or
                open(source, "rb").read() != open(target, "rb").read()):
            # A fresh mtime: ninja must see the copy as newer than its
            # objects (copy2 would keep the source's older one).
            shutil.copy(source, target)
    # Files the tree no longer has (moved or deleted since the copy was
    # made) go too: LLVM's CMake rejects a source file that no target lists.
    tracked = {os.path.normpath(path) for path in files if path}
    for folder, _, names in os.walk(src):
        for name in names:
            path = os.path.relpath(os.path.join(folder, name), src)
            if os.path.normpath(path) not in tracked:
                os.remove(os.path.join(folder, name))
    if not os.path.exists(os.path.join(build, "build.ninja")):
        configure = run(["cmake", "-S", src, "-B", build, "-G", "Ninja",
                         "-DCMAKE_BUILD_TYPE=Release",
                         f"-DMLIR_DIR={LLVM}/lib/cmake/mlir",
                         f"-DLLVM_EXTERNAL_LIT={LIT}"])
        if configure.returncode:
            sys.exit("mutate: cmake failed\n" + configure.stdout + configure.stderr)
    return src, build


@contextlib.contextmanager
def unchanged_mtimes(copies):
    """Files of the copy that the caller rewrites right after prepare()
    (which restores them with a fresh mtime): those that end up as they
    were get their old mtime back, so that ninja rebuilds nothing."""
    before = {}
    for copy in copies:
        if os.path.exists(copy):
            before[copy] = (open(copy, "rb").read(), os.stat(copy).st_mtime_ns)
    yield
    for copy, (text, mtime) in before.items():
        if os.path.exists(copy) and open(copy, "rb").read() == text:
            os.utime(copy, ns=(mtime, mtime))


@contextlib.contextmanager
def substituted(target, pristine, mutated):
    """The file `target` of the copy holds `mutated` until the block ends,
    then `pristine` again, whatever happened."""
    open(target, "w").write(mutated)
    try:
        yield
    finally:
        open(target, "w").write(pristine)


def build(build_dir, targets=(), keep_going=False):
    return run(["ninja", "-C", build_dir, *(["-k", "0"] if keep_going else []),
                *targets])


# --- lit ----------------------------------------------------------------

def lit_failures(build_dir, tests):
    """Runs the named tests (paths from the root, or "unittests") in the
    copy's build; returns failures_by_cause() of the run, or
    ["(lit failed)"] when lit failed without a failing test."""
    paths = [os.path.join(build_dir, "unittests") if t == "unittests"
             else os.path.join(build_dir, t) for t in tests]
    result = run([LIT, "-v", *paths])
    failed = failures_by_cause(result.stdout + result.stderr)
    if not failed and result.returncode:
        failed = ["(lit failed)"]
    return failed


def failures_by_cause(output):
    """The failing tests in `lit -v` output, each marked "(numbers)" when a
    numeric check failed in it (compare_outputs.py or the oracle printed a
    mismatch), else "(FileCheck)"."""
    failed = []
    blocks = re.split(r"\n(?=(?:FAIL|PASS|XFAIL|UNSUPPORTED): )", output)
    for block in blocks:
        found = re.match(r"FAIL: FA(?:-Unit)? :: (\S+)", block)
        if not found:
            continue
        numeric = re.search(r"MISMATCH|^value \d+: |different number of values|FAILED",
                            block, re.MULTILINE)
        failed.append(f"{found.group(1)} ({'numbers' if numeric else 'FileCheck'})")
    return sorted(set(failed))


# --- libclang -----------------------------------------------------------

def cindex(required_by=None):
    """libclang's Python bindings, or None when they are missing (exits
    instead when `required_by` names the script that cannot do without)."""
    try:
        import clang.cindex as ci
    except ImportError:  # Debian installs the bindings for its own python3
        sys.path.append("/usr/lib/python3/dist-packages")
        try:
            import clang.cindex as ci
        except ImportError:
            if required_by:
                sys.exit(f"{required_by}: needs libclang's Python bindings "
                         "(apt-get install python3-clang-22)")
            return None
    return ci


def clang_args(path):
    """The flags of a full parse: the project's and LLVM's headers, as the
    build sees them (types are needed to tell scalars from values)."""
    return ["-x", "c++-header" if path.endswith(".h") else "c++", "-std=c++17",
            "-I" + os.path.join(ROOT, "include"),
            "-I" + os.path.join(ROOT, "build", "include"),
            "-I" + os.path.join(ROOT, os.path.dirname(path)),
            "-I" + os.path.join(ROOT, "lib", "Transforms"),
            "-I" + os.path.join(LLVM, "include")]


# Parses from cheap to thorough. Depth 0 reads no header at all (a
# fiftieth of the time of a full parse): all it needs to see function
# definitions for what they are is that the namespaces exist and that the
# templates in signatures are templates. Depth 1 adds the project's
# headers (not LLVM's), where the classes are whose methods a file defines.
# Depth 2 is the full parse. A cheaper parse misses the odd definition,
# never invents one: where it sees a function, that is the function.
DEPTHS = 3
PRELUDE_PATH = "/fa-mutation-prelude.h"
PRELUDE = """\
typedef long int64_t;
typedef unsigned long uint64_t;
typedef int int32_t;
typedef unsigned uint32_t;
typedef __SIZE_TYPE__ size_t;
namespace std {
template <typename T> class optional;
template <typename A, typename B> struct pair;
template <typename... T> class tuple;
template <typename T> class function;
template <typename T, typename... R> class vector;
template <typename T, typename... R> class unique_ptr;
template <typename T, size_t N> struct array;
}
namespace llvm {
template <typename T, unsigned N = 0> class SmallVector;
template <typename T> class SmallVectorImpl;
template <typename K, typename V = void, typename... R> class DenseMap;
template <typename T, typename... R> class DenseSet;
template <typename T, typename... R> class SetVector;
template <typename T, unsigned N = 0> class SmallSetVector;
template <typename T, unsigned N = 0> class SmallPtrSet;
template <typename K, typename V, typename... R> class MapVector;
template <typename V, typename... R> class StringMap;
template <typename T> class ArrayRef;
template <typename T> class MutableArrayRef;
template <typename F> class function_ref;
template <typename T> class FailureOr;
template <typename T> class iterator_range;
class StringRef;
}
namespace mlir {
using namespace llvm;
class Operation; class Value; class Type; class Attribute; class Block;
class Region; class Location; class OpBuilder; class AffineMap;
class BlockArgument; class OpOperand; class ValueRange; class TypeRange;
using ReassociationIndices = SmallVector<int64_t, 2>;
namespace fa {}
}
"""
KEEP_GOING = 0x200  # CXTranslationUnit_KeepGoing: on past a missing header

_index = None


def parse(path, depth=DEPTHS - 1):
    """libclang's translation unit of `path` (from the root), by a parse of
    that depth."""
    global _index
    if _index is None:
        _index = cindex(required_by="mutation_harness").Index.create()
    full = os.path.join(ROOT, path)
    if depth == DEPTHS - 1:
        return _index.parse(full, args=clang_args(path))
    args = ["-x", "c++-header" if path.endswith(".h") else "c++", "-std=c++17",
            "-include", PRELUDE_PATH]
    if depth == 1:
        args += ["-I" + os.path.join(ROOT, "include"),
                 "-I" + os.path.join(ROOT, os.path.dirname(path)),
                 "-I" + os.path.join(ROOT, "lib", "Transforms")]
    return _index.parse(full, args=args, options=KEEP_GOING,
                        unsaved_files=[(PRELUDE_PATH, PRELUDE)])


def qualified_name(cursor):
    """`ns::Class::method` as libclang's semantic parents spell it, without
    anonymous namespaces (which say nothing about where a function is)."""
    parts = [cursor.spelling]
    parent = cursor.semantic_parent
    while parent is not None and parent.kind.name != "TRANSLATION_UNIT":
        if parent.spelling:
            parts.append(parent.spelling)
        parent = parent.semantic_parent
    return "::".join(reversed(parts))


FUNCTION_KINDS = {"FUNCTION_DECL", "CXX_METHOD", "CONSTRUCTOR", "DESTRUCTOR",
                  "FUNCTION_TEMPLATE", "CONVERSION_FUNCTION"}


def function_extents(path, depth=DEPTHS - 1):
    """(qualified name, start, end) of every function defined in `path`
    outside another one, as character offsets into its text: a lambda or a
    local class belongs to the function around it."""
    full = os.path.join(ROOT, path)
    data = open(full, "rb").read()
    unit = parse(path, depth)
    found = []

    def walk(cursor):
        for child in cursor.get_children():
            where = child.location.file
            if where is None or where.name != full:
                continue
            if child.kind.name in FUNCTION_KINDS and child.is_definition():
                found.append((qualified_name(child), child.extent.start.offset,
                              child.extent.end.offset))
            else:
                walk(child)

    walk(unit.cursor)
    if data.isascii():
        return found
    # Byte offsets to the character offsets of the text as Python reads it.
    def chars(offset):
        return len(data[:offset].decode(errors="replace"))
    return [(name, chars(start), chars(end)) for name, start, end in found]
