"""The GPU fuzz of programs whose tiled variant fissions a fold over rows
(found on the CPU: `python experiments/fuzz_fissioned.py find A B`
lists the seeds from A to B; the generator makes one in about 500): every
version of each, the fissioned ones included, against the interpreter on the
GPU, as `tiler fuzz --gpu` checks them:

    python experiments/fuzz_fissioned.py run SEED...
"""
import sys

from tiler.versions.fission import FissionPlan
from tiler.fuzz import fuzz, summary
from tiler.fuzz.generate import generate
from tiler.fuzz.properties import variants
from tiler.pipeline import run_all
from tiler.syntax import pretty


def fissioned(seed: int) -> bool:
    try:
        a = run_all(pretty(generate(seed)), "f.fut", variants(seed)["tiled"], until="analyse")["analyse"]
    except Exception:  # noqa: BLE001 - the fuzzer reports these; here only the shape is wanted
        return False
    return isinstance(a.fission, FissionPlan)


if __name__ == "__main__":  # (the fuzzer's pool of processes imports this module again)
    if sys.argv[1] == "find":
        print(" ".join(str(s) for s in range(int(sys.argv[2]), int(sys.argv[3])) if fissioned(s)), flush=True)
    else:
        seeds = [int(s) for s in sys.argv[2:]]
        failures = fuzz(len(seeds), seeds=seeds, gpu=True, mutations=0, nvcc=True, say=print)
        print(summary(len(seeds), failures), flush=True)
