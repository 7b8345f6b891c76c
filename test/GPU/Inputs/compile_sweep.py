"""Compiles every test/Integration/Tiling/sweep-*.mlir with fa-gpu-pipeline.

A case whose GPU kernel the tile model refuses (a `// REFUSED:` line: the
FMA kernel cannot hold a wide f32 row in registers) must be refused with
that error at the op, and counts as handled."""
import glob
import os
import re
import subprocess
import sys

fa_opt, sweep = sys.argv[1], sys.argv[2]
files = sorted(glob.glob(os.path.join(sweep, "sweep-*.mlir")))
compiled = 0
for path in files:
    dynamic = "dynamic" in os.path.basename(path)
    # The tile model's own choice (fa-confirm-tiles-with-ptxas would retile
    # what spills; these files test that the model needs no retiling).
    options = ("chip=sm_90 format=bin confirm-tiles=false" +
               (" bare-pointers=false" if dynamic else ""))
    result = subprocess.run([fa_opt, path, f"--fa-gpu-pipeline={options}", "-o", os.devnull],
                            capture_output=True, text=True)
    with open(path) as f:
        refused = re.search(r"^// REFUSED: (.*)$", f.read(), re.M)
    if refused:
        expected = refused.group(1).replace("error: ", "")
        if result.returncode and expected in result.stderr:
            compiled += 1
        else:
            print(f"{os.path.basename(path)}: not refused with `{expected}`\n"
                  f"{result.stderr[:2000]}")
    elif result.returncode:
        print(f"{os.path.basename(path)}: FAILED\n{result.stderr[:2000]}")
    else:
        compiled += 1
print(f"{compiled} of {len(files)} sweep cases compiled")
