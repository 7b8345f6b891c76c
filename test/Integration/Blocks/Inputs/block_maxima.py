#!/usr/bin/env python3
"""Measures, for the corpus blocks' inputs, how many query rows find their
maximum score after the first key block of BLOCK_KV keys (issue 15: inputs
whose row maxima never move leave the online rescale untested).

For each block, the attention fa-raise-attention raised is given probes: Q
and K, in the op's own [B, H, N, D] layout, are printed before the op runs
(between two marker tensors), the module runs through fa-cpu-pipeline
(reference lowering) and mlir-runner, and the scores Q·Kᵀ (under the causal
diagonal when the op is causal; other masks left out) are computed here.
Rows that see a single key block are not counted.

Usage: block_maxima.py FA_OPT BLOCK_KV RUNTIME.mlir BLOCK.mlir...
(RUNTIME.mlir is appended to each corpus block; the examples/ programs
bring their own inputs.)
Prints one line per block and a total; exits 1 when the total fraction is
under 30% (MIN_MOVED).
"""
import math
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "Inputs"))
import compare_outputs  # noqa: E402

MIN_MOVED = 0.3
MARKER = 7777.0
LLVM = "/usr/lib/llvm-22"
RUNNER = [f"{LLVM}/bin/mlir-runner", "-e", "main", "-entry-point-result=void",
          f"-shared-libs={LLVM}/lib/libmlir_runner_utils.so,"
          f"{LLVM}/lib/libmlir_c_runner_utils.so"]
ATTENTION = re.compile(
    r"^(?P<indent>\s*)%\S+(?:, %\S+)? = fa\.attention (?P<q>%[\w.]+), (?P<k>%[\w.]+), "
    r"%[\w.]+ (?P<attrs>.*?) : (?P<qt>tensor<[^>]*>), (?P<kt>tensor<[^>]*>), ")


def probes(line, index):
    """IR that prints the marker, Q and K before the attention on `line`."""
    m = ATTENTION.match(line)
    indent = m.group("indent")
    out = [f'{indent}%probe_m{index} = arith.constant dense<{MARKER}> : tensor<1xf32>',
           f'{indent}%probe_mu{index} = tensor.cast %probe_m{index} : tensor<1xf32> to tensor<*xf32>',
           f'{indent}func.call @printMemrefF32(%probe_mu{index}) : (tensor<*xf32>) -> ()']
    for name, value, vtype in (("q", m.group("q"), m.group("qt")),
                               ("k", m.group("k"), m.group("kt"))):
        # A copy, so that printing does not hold the operand's buffer.
        out.append(f"{indent}%probe_{name}c{index} = bufferization.alloc_tensor() "
                   f"copy({value}) : {vtype}")
        value = f"%probe_{name}c{index}"
        wide = vtype
        if not vtype.endswith("xf32>"):
            wide = re.sub(r"x(f16|bf16)>$", "xf32>", vtype)
            out.append(f"{indent}%probe_{name}w{index} = arith.extf {value} : {vtype} to {wide}")
            value = f"%probe_{name}w{index}"
        out.append(f"{indent}%probe_{name}u{index} = tensor.cast {value} : {wide} to tensor<*xf32>")
        out.append(f"{indent}func.call @printMemrefF32(%probe_{name}u{index}) : (tensor<*xf32>) -> ()")
    causal = re.search(r"causal = (top_left|bottom_right)", m.group("attrs"))
    scale = float(re.search(r"scale = ([-+0-9.e]+)", m.group("attrs")).group(1))
    return out, (causal.group(1) if causal else None, scale)


def printed_tensors(output):
    """(sizes, values) of every printMemref in `output`, in order."""
    tensors = []
    for chunk in output.split("Unranked Memref")[1:]:
        sizes = [int(x) for x in re.search(r"sizes = \[([^\]]*)\]", chunk).group(1).split(", ")
                 if x]
        data = chunk[chunk.index("data ="):]
        values = [float(t) for t in compare_outputs.NUMBER.findall(data)]
        tensors.append((sizes, values))
    return tensors


def measure(q, k, kind, block_kv):
    """(rows whose maximum comes after key block 0, rows that see two key
    blocks or more, the largest rescale e^(m_new - m_old) of a running max)."""
    causal, scale = kind
    (b, h, nq, d), qv = q
    (_, hkv, nk, _), kv = k
    group = h // hkv
    moved = rows = 0
    largest = 1.0
    for bb in range(b):
        for hh in range(h):
            kh = hh // group
            keys = [kv[((bb * hkv + kh) * nk + j) * d:((bb * hkv + kh) * nk + j + 1) * d]
                    for j in range(nk)]
            for i in range(nq):
                row = qv[((bb * h + hh) * nq + i) * d:((bb * h + hh) * nq + i + 1) * d]
                last = nk
                if causal:
                    last = min(nk, i + (0 if causal == "top_left" else nk - nq) + 1)
                if last <= block_kv:
                    continue
                scores = [sum(x * y for x, y in zip(row, keys[j])) for j in range(last)]
                rows += 1
                moved += scores.index(max(scores)) >= block_kv
                running = max(scores[:block_kv])
                for j0 in range(block_kv, last, block_kv):
                    top = max(scores[j0:j0 + block_kv])
                    if top > running:
                        largest = max(largest, math.exp(scale * (top - running)))
                        running = top
    return moved, rows, largest


def main():
    fa_opt, block_kv, runtime, blocks = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4:]
    runtime_text = open(runtime).read()
    total_moved = total_rows = 0
    for path in blocks:
        text = open(path).read()
        if "call @input" in text and "func.func @input" not in text:  # a corpus block
            text += runtime_text
        raised = subprocess.run([fa_opt, "--fa-raise-attention"], input=text,
                                capture_output=True, text=True, check=True).stdout
        lines, kinds = [], []
        for line in raised.split("\n"):
            if ATTENTION.match(line):
                extra, causal = probes(line, len(kinds))
                lines += extra
                kinds.append(causal)
            lines.append(line)
        lowered = subprocess.run([fa_opt, "--fa-cpu-pipeline=raise=false reference=true"],
                                 input="\n".join(lines), capture_output=True, text=True,
                                 check=True).stdout
        output = subprocess.run(RUNNER, input=lowered, capture_output=True, text=True,
                                check=True).stdout
        tensors = printed_tensors(output)
        moved = rows = 0
        largest = 1.0
        n = 0
        for index, (sizes, values) in enumerate(tensors):
            if sizes == [1] and values == [MARKER] and index + 2 < len(tensors):
                m, r, f = measure(tensors[index + 1], tensors[index + 2],
                                  kinds[n % len(kinds)], block_kv)
                moved, rows, n, largest = moved + m, rows + r, n + 1, max(largest, f)
        name = os.path.basename(path)
        if rows:
            print(f"{name}: {moved} of {rows} rows that see more than one key block of "
                  f"{block_kv} find their maximum after key block 0; the largest "
                  f"rescale of a running max is {largest:.3g}")
        else:
            print(f"{name}: no row sees more than one key block of {block_kv}")
        total_moved += moved
        total_rows += rows
    share = total_moved / total_rows if total_rows else 0.0
    print(f"total: {total_moved} of {total_rows} rows ({share:.0%})")
    if share < MIN_MOVED:
        print(f"FAILED: fewer than {MIN_MOVED:.0%} of the rows find their maximum "
              "after key block 0")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
