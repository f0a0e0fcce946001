"""A loop's rows streamed end to end (--join-rows) against one stream a row
(--no-join-rows), with IEEE math and --fast-math, at chunks of 128 (the
block's), 256 and 512 and with the chunk loop unrolled, as variants of one
`tiler bench` run a problem (checked first, median of 20):

    python experiments/join_rows.py lavamd_rodinia:boxes1d=10 lavamd_rodinia lavamd

RESULTS.md, "A loop's rows streamed end to end".
"""
import sys

sys.path.insert(0, ".")
from tiler.analyse import Options  # noqa: E402
from tiler.bench import Variant, bench_one  # noqa: E402

SHAPES = {"apart": dict(join_rows=False), "joined": dict(join_rows=True),
          "joined, chunk 256": dict(join_rows=True, chunk=256), "joined, chunk 512": dict(join_rows=True, chunk=512),
          "joined, unroll 8": dict(join_rows=True, unroll=8), "joined, chunk 256, unroll 16": dict(
              join_rows=True, chunk=256, unroll=16), "apart, unroll 8": dict(join_rows=False, unroll=8)}
for arg in sys.argv[1:]:
    name, _, given = arg.partition(":")
    sizes = {k: int(v) for k, v in (p.split("=") for p in given.split(",") if p)}
    vs = [Variant(f"{'fast math' if fast else 'IEEE'}, {label}", Options(fast_math=fast, **shape))
          for fast in (False, True) for label, shape in SHAPES.items()]
    res = bench_one(name, "full", sizes, 20, vs)
    print(f"== {name} {res['sizes']} {res['device']}")
    for r in res["rows"]:
        print(f"  {r.variant:40s} {r.block:8s} {r.ms:9.4f} ms", flush=True)
