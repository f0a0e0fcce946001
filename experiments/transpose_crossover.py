"""Where the launch's transposition pays: rownorm (and the guarded row sums
of tests/programs/analysis) compiled with --no-transpose and --transpose,
timed at row lengths m and row counts n with 2^total elements in all, on
one GPU: python experiments/transpose_crossover.py [M ...].
The transposed time includes the transposition; both outputs are compared
before the ratio is printed. The log beside it is the H200 run that set
tiler/analyse/transposes.py's bounds.
"""
import sys

import numpy as np

from tiler.analyse import Options
from tiler.pipeline import run_all
from tiler.runtime import Gpu

PROGRAMS = ["benchmarks/rownorm.fut", "tests/programs/analysis/guarded_row.fut"]
LENGTHS = [int(m) for m in sys.argv[1:]] or [16, 34, 100, 512, 1000, 2048, 3000, 4096, 10000, 16384, 65536]

gpu = Gpu.get()
rng = np.random.default_rng(0)
for prog in PROGRAMS:
    text = open(prog).read()
    compiled = {label: run_all(text, prog, opt) for label, opt in
                [("in place", Options(transpose=False)), ("transposed", Options(transpose=True))]}
    for total in (24, 26, 28):
        for m in LENGTHS:
            n = (1 << total) // m
            if n < 1024:
                continue
            sizes = {"n": n, "m": m}
            inputs = {"A": rng.random((n, m), dtype=np.float32) * 2 - 1, "w": np.ones(n, np.float32)}
            dev = gpu.upload(inputs)
            times, outs = {}, {}
            for label, values in compiled.items():
                k = values["verify"].select(sizes)
                got, ts = gpu.run(k, values["render"], inputs, sizes, repeat=10, device=dev)
                outs[label], times[label] = got[0], float(np.median(ts))
            dev.free()
            ok = np.allclose(outs["in place"], outs["transposed"], rtol=1e-4, atol=1e-3)
            a, b = times["in place"], times["transposed"]
            print(f"{prog.split('/')[-1]:16s} 2^{total} m={m:6d} n={n:9d}: in place {a:.4f} ms, transposed {b:.4f} ms "
                  f"({a / b:.2f}x) {'ok' if ok else 'MISMATCH'}", flush=True)
