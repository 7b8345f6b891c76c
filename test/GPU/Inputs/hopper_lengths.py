"""sm_90a's default kernel (the TMA producer kernel, or what the tile
selection picks) for f16 attention, B = 1, H = 8, over head dims, sequence
lengths (static and run-time) and causal or not: compiled with
fa-gpu-pipeline and assembled by ptxas, every kernel must spill nothing,
keep setmaxnreg (no C7507/C7508) and use wgmma. Issue 50: the kernel
spilled at every N but the one the resource table used. --features adds
per-sequence key lengths (kv_lengths), packed sequences (two sequences;
cu_seqlens) and a paged cache (pages of --page-size slots, 128 unless
given, a page table and kv_lengths), which must load with TMA too (issue
53; pages smaller than a key block load a box per run of rows within a
page), and a sliding
window (with causal, 1000 keys to the left; without, a two-sided window of
256 keys each way), whose walk splits into masked edge blocks and an
unmasked middle. With --chip, another chip's default kernel (the
mma.sync kernel before sm_90a): spills only.

  hopper_lengths.py FA_OPT PTXAS [--dims 64,128,256] [--lengths 512,...,?]
                    [--features plain,kv_lengths,packed,paged,window]
                    [--chip sm_90a] [--confirm-tiles] [--page-size 128]

Without --confirm-tiles the kernel is the tile model's own choice; with it,
the pipeline's default, which retiles what ptxas finds spilling.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "..", "scripts"))
import sweep  # noqa: E402  (ptx_objects)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("fa_opt")
    parser.add_argument("ptxas")
    parser.add_argument("--dims", default="64,128,256")
    parser.add_argument("--lengths", default="512,1000,1024,2048,8192,?")
    parser.add_argument("--dtype", default="f16")
    parser.add_argument("--features", default="plain")
    parser.add_argument("--chip", default="sm_90a")
    parser.add_argument("--confirm-tiles", action="store_true")
    parser.add_argument("--page-size", type=int, default=128)
    args = parser.parse_args()
    failed = cases = 0
    with tempfile.TemporaryDirectory() as tmp:
        for feature in args.features.split(","):
          for d in args.dims.split(","):
            for n in args.lengths.split(","):
                for causal in ("", " causal = bottom_right"):
                    cases += 1
                    t = f"tensor<1x8x{n}x{d}x{args.dtype}>"
                    extra_args, extra_operands, window = "", "", ""
                    if feature == "kv_lengths":
                        extra_args = ", %n: tensor<1xi32>"
                        extra_operands = " kv_lengths(%n : tensor<1xi32>)"
                    elif feature == "paged":
                        # A cache of page-size slots, one table row, kv_lengths.
                        slots = args.page_size
                        pages = "?" if n == "?" else str(-(-int(n) // slots))
                        c = f"tensor<{pages}x{slots}x8x{d}x{args.dtype}>"
                        table = f"tensor<1x{pages}xi32>"
                        extra_args = (f", %c: {c}, %w: {c}, %t: {table}"
                                      ", %n: tensor<1xi32>")
                        extra_operands = (f" kv_lengths(%n : tensor<1xi32>)"
                                          f" page_table(%t : {table})")
                    elif feature == "window":
                        window = (
                            " window = <left = 1000, right = 0, align = bottom_right>"
                            if causal else
                            " window = <left = 256, right = 256, align = top_left>")
                    elif feature == "packed":
                        extra_args = ", %cq: tensor<3xi32>, %ck: tensor<3xi32>"
                        extra_operands = (" cu_seqlens_q(%cq : tensor<3xi32>)"
                                          " cu_seqlens_k(%ck : tensor<3xi32>)")
                    source = os.path.join(tmp, "a.mlir")
                    with open(source, "w") as f:
                        kv = c if feature == "paged" else t
                        k, v = ("%c", "%w") if feature == "paged" else ("%k", "%v")
                        f.write(f"func.func @a(%q: {t}, %k: {t}, %v: {t}{extra_args}) -> {t} {{\n"
                                f"  %o = fa.attention %q, {k}, {v}{extra_operands} scale = 0.1{causal}{window} : "
                                f"{t}, {kv}, {kv} -> {t}\n  return %o : {t}\n}}\n")
                    # The tile model's own choice: ptxas retiling nothing.
                    options = (f"chip={args.chip} format=isa" +
                               ("" if args.confirm_tiles else " confirm-tiles=false") +
                               (" bare-pointers=false" if n == "?" else ""))
                    built = subprocess.run([args.fa_opt, source, f"--fa-gpu-pipeline={options}"],
                                           capture_output=True, text=True)
                    label = (f"{feature + ' ' if feature != 'plain' else ''}"
                             f"d={d} N={n}{' causal' if causal else ''}")
                    if built.returncode:
                        print(f"FAIL {label}: {built.stderr.strip()[:300]}")
                        failed += 1
                        continue
                    problems, notes = [], []
                    for i, ptx in enumerate(sweep.ptx_objects(built.stdout)):
                        path = os.path.join(tmp, f"k{i}.ptx")
                        with open(path, "w") as f:
                            f.write(ptx)
                        info = subprocess.run([args.ptxas, "-v", f"-arch={args.chip}", path,
                                               "-o", os.devnull],
                                              capture_output=True, text=True).stderr
                        spills = sum(int(x) for x in re.findall(r"(\d+) bytes spill stores", info))
                        registers = re.search(r"Used (\d+) registers", info)
                        notes.append(f"{registers.group(1) if registers else '?'} registers")
                        if spills:
                            problems.append(f"kernel {i} spills {spills} bytes")
                        if re.search(r"C750[78]", info):
                            problems.append(f"kernel {i}: setmaxnreg ignored")
                        if args.chip != "sm_90a":
                            continue
                        if i == 0 and "wgmma.mma_async" not in ptx:
                            problems.append("no wgmma")
                        if i == 0 and "cp.async.bulk.tensor" not in ptx:
                            problems.append("no TMA")
                    failed += bool(problems)
                    print(f"{'FAIL' if problems else 'ok'} {label}: {', '.join(notes)}"
                          + "".join(f"; {p}" for p in problems))
    print(f"hopper-lengths: {cases} cases, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
