"""How far to unroll the loop over a staged chunk in a 1-D block whose
threads all read every staged element (n-body, MRI-Q, lavaMD): nvcc's own
choice (4, no --unroll) against --unroll 8, 16 and 32, with IEEE math and
with --fast-math, as variants of one `tiler bench` run each (checked first,
median of 20):

    python experiments/unroll_1d.py nbody3d nbody3d:n=65536 nbody mriq lavamd lavamd_rodinia

RESULTS.md, "Sums and products reordered".
"""
import sys

sys.path.insert(0, ".")
from tiler.analyse import Options  # noqa: E402
from tiler.bench import Variant, bench_one  # noqa: E402

UNROLLS = (None, 8, 16, 32)
for arg in sys.argv[1:]:
    name, _, given = arg.partition(":")
    sizes = {k: int(v) for k, v in (p.split("=") for p in given.split(",") if p)}
    vs = [Variant(f"{'fast math' if fast else 'IEEE'}, unroll {u or 'nvcc'}", Options(unroll=u, fast_math=fast))
          for fast in (False, True) for u in UNROLLS]
    res = bench_one(name, "full", sizes, 20, vs)
    print(f"== {name} {res['sizes']} {res['device']}")
    for r in res["rows"]:
        print(f"  {r.variant:28s} {r.block:8s} {r.ms:9.4f} ms", flush=True)
