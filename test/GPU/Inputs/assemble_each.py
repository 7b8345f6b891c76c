"""Assembles every PTX object in an fa-gpu-pipeline output (format=isa) with
`ptxas -v` and prints one line per object: its registers, its spill bytes,
whether it holds wgmma and TMA, whether ptxas ignored a setmaxnreg
(C7507/C7508), and whether it serialized wgmmas or injected a wait
(C7512, C7513, C7517, C7519, C7520; named, not counted as a spill); then
`N objects, M spilled`.

  assemble_each.py OUTPUT.mlir PTXAS CHIP
"""
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "..", "scripts"))
import sweep  # noqa: E402  (ptx_objects)


def main():
    output, ptxas, chip = sys.argv[1:4]
    with open(output) as f:
        objects = sweep.ptx_objects(f.read())
    spilled = 0
    with tempfile.TemporaryDirectory() as tmp:
        for i, ptx in enumerate(objects):
            path = os.path.join(tmp, f"k{i}.ptx")
            with open(path, "w") as f:
                f.write(ptx)
            info = subprocess.run([ptxas, "-v", f"-arch={chip}", path, "-o",
                                   os.devnull], capture_output=True, text=True).stderr
            spills = sum(int(x) for x in re.findall(r"(\d+) bytes spill stores", info))
            registers = max((int(x) for x in re.findall(r"Used (\d+) registers", info)),
                            default=0)
            ignored = bool(re.search(r"C750[78]", info))
            serialized = sorted(set(re.findall(r"C75(?:12|13|17|19|20)", info)))
            spilled += bool(spills or ignored)
            print(f"object {i}: {registers} registers, {spills} bytes spilled"
                  f"{', wgmma' if 'wgmma.mma_async' in ptx else ''}"
                  f"{', TMA' if 'cp.async.bulk.tensor' in ptx else ''}"
                  f"{', setmaxnreg ignored' if ignored else ''}"
                  f"{', wgmma serialized ' + '/'.join(serialized) if serialized else ''}")
    print(f"{len(objects)} objects, {spilled} spilled")
    return 1 if spilled else 0


if __name__ == "__main__":
    sys.exit(main())
