"""Compiles every test/Integration/Tiling/sweep-*.mlir with fa-gpu-pipeline."""
import glob
import os
import subprocess
import sys

fa_opt, sweep = sys.argv[1], sys.argv[2]
files = sorted(glob.glob(os.path.join(sweep, "sweep-*.mlir")))
compiled = 0
for path in files:
    dynamic = "dynamic" in os.path.basename(path)
    options = "chip=sm_90 format=bin" + (" bare-pointers=false" if dynamic else "")
    result = subprocess.run([fa_opt, path, f"--fa-gpu-pipeline={options}", "-o", os.devnull],
                            capture_output=True, text=True)
    if result.returncode:
        print(f"{os.path.basename(path)}: FAILED\n{result.stderr[:2000]}")
    else:
        compiled += 1
print(f"{compiled} of {len(files)} sweep cases compiled")
