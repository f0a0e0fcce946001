"""The 1-D block's width for kernels whose threads all read every staged
element (n-body, MRI-Q, lavaMD): the default (256, or the plan's fit to a
known size) against --tile 512 and 1024, with IEEE math and --fast-math, as
variants of one `tiler bench` run each (checked first, median of 20):

    python experiments/tile_1d.py nbody3d nbody3d:n=65536 nbody mriq

RESULTS.md, "A loop's rows streamed end to end" (the 1-D block's width).
"""
import sys

sys.path.insert(0, ".")
from tiler.analyse import Options  # noqa: E402
from tiler.bench import Variant, bench_one  # noqa: E402

WIDTHS = (None, 512, 1024)
for arg in sys.argv[1:]:
    name, _, given = arg.partition(":")
    sizes = {k: int(v) for k, v in (p.split("=") for p in given.split(",") if p)}
    vs = [Variant(f"{'fast math' if fast else 'IEEE'}, tile {w or 'default'}",
                  Options(tile=(w,) if w else (), fast_math=fast)) for fast in (False, True) for w in WIDTHS]
    res = bench_one(name, "full", sizes, 20, vs)
    print(f"== {name} {res['sizes']} {res['device']}")
    for r in res["rows"]:
        print(f"  {r.variant:28s} {r.block:8s} {r.ms:9.4f} ms", flush=True)
