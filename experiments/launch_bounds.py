"""__launch_bounds__' blocks an SM (none, 1-4) rewritten into the generated
kernel's text, for several plans of each benchmark (median of 10):

    python experiments/launch_bounds.py nbody3d,mriq,nbody,lavamd_rodinia,mm

What made the plan ask for one block a 1-D shared-tile kernel
(tiler/analyse/occupancy.py); RESULTS.md, "Blocks an SM".
"""
import sys, re, statistics
sys.path.insert(0, ".")
from dataclasses import replace
from tiler.analyse import Options
from tiler.check import check
from tiler.pipeline import run_all
from tiler.runtime import Gpu
from tiler.syntax import parse
from tiler.workload import load_spec, make_inputs, resolve_sizes
from tiler.resources import benchmarks_dir

CASES = {
    "nbody3d": [("default", Options()), ("interior", Options(interior=True)),
                ("fm512u8", Options(fast_math=True, tile=(512,), unroll=8)),
                ("fm512u8 interior", Options(fast_math=True, tile=(512,), unroll=8, interior=True)),
                ("fm256u8", Options(fast_math=True, unroll=8)),
                ("fm", Options(fast_math=True))],
    "mriq": [("default", Options()), ("interior", Options(interior=True)), ("fm", Options(fast_math=True))],
    "nbody": [("default", Options()), ("rt2", Options(register_tile=(2,)))],
    "lavamd_rodinia": [("default", Options()), ("fm", Options(fast_math=True))],
    "mm": [("default", Options()), ("interior", Options(interior=True))],
}
names = sys.argv[1].split(",")
mins = [None, 1, 2, 3, 4]
gpu = Gpu.get()
for name in names:
    path = benchmarks_dir() / f"{name}.fut"
    text = path.read_text()
    prog = check(parse(text, path.name))
    spec = load_spec(path)
    size_set = sys.argv[2] if len(sys.argv) > 2 else "full"
    sizes = resolve_sizes(prog, {}, spec, size_set)
    hints = tuple(sorted(sizes.items()))
    inputs = make_inputs(prog, sizes, spec, seed=1)
    device = gpu.upload(inputs)
    ref = None
    for label, opt in CASES[name]:
        v = run_all(text, path.name, replace(opt, sizes=hints), device=gpu.described)
        mod = v["verify"]; cuda = v["render"]
        k = mod.select(sizes)
        for mb in mins:
            # rewrite the launch bounds of the launched kernel only
            pat = re.compile(r"__launch_bounds__\((\d+)(?:, \d+)?\)(\s*\n?\s*%s\()" % re.escape(k.name))
            if not pat.search(cuda):
                print(name, label, "no launch bounds found for", k.name); break
            new = pat.sub(lambda m: f"__launch_bounds__({m.group(1)}{'' if mb is None else f', {mb}'}){m.group(2)}", cuda)
            try:
                outs, times = gpu.run(k, new, inputs, sizes, repeat=10, device=device)
            except Exception as e:
                print(name, label, mb, "failed", str(e)[:200], flush=True); continue
            import numpy as np
            if ref is None: ref = outs
            err = max(float(np.abs(o.astype(np.float64) - r).max() / max(1, np.abs(r).max())) for o, r in zip(outs, ref))
            print(f"{name:15s} {label:20s} min_blocks={mb}  {statistics.median(times):9.4f} ms  err {err:.1e}", flush=True)
    device.free()
