"""The GPU fuzz (with --perf) on the generated programs that read rows
gathered through an index table (`Q[idx[...]]`, clamped or wrapped, and
products of such rows): the first N such seeds below 3,000, and the SEEDs
given. On a GPU host:
    python3 experiments/verify/gathered_fuzz.py [N [SEED ...]]
"""
import re
import sys

from tiler.fuzz import fuzz
from tiler.fuzz.generate import generate
from tiler.syntax.printer import pretty

GATHERED = re.compile(r"Q\d+\[(min\(max\(|\()?idx\d+\[")

if __name__ == "__main__":
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 90
    seeds = [s for s in range(3000) if GATHERED.search(pretty(generate(s)))][:n]
    seeds += [int(x) for x in sys.argv[2:] if int(x) not in seeds]
    print("seeds", seeds, flush=True)
    timings = []
    found = fuzz(len(seeds), seeds=seeds, gpu=True, mutations=0, nvcc=False, perf=timings.append,
                 say=lambda line: print(line, flush=True))
    slower = [t for t in timings if t.speedup < 0.95]
    print(f"{len(seeds)} programs, {len(found)} failures; {len(timings)} timed, "
          f"{len(slower)} more than 5% slower than untiled: "
          + ", ".join(f"{t.seed} x{t.speedup:.2f}" for t in slower))
