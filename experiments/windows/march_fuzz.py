"""The fuzzer's marched stars at sizes where blocks lie inside every edge.

`tiler fuzz --gpu` draws sizes below 70, so a march's block is never wholly
inside along x (64 columns and the halo past the first block): the body
without the program's edge tests (lower/inside.py) never runs there. This
runs each given seed's march versions against the interpreter with the
marched axis, the plane's rows and its columns given 20, 36 and 150 points
(inside blocks along every axis where the halo is at most 4, ragged ones at
the ends), every other size as the fuzzer draws it, with the fuzzer's own
options, tolerance and reference noise (--drawn: every size as the fuzzer
draws it, blocks at the edges only).
Run on a GPU host from the repository root:
    python3 experiments/windows/march_fuzz.py [--drawn] SEED...
"""
from __future__ import annotations

import sys

from tiler.analyse import Options
from tiler.fuzz.generate import generate
from tiler.fuzz.properties import Compiled, mismatch, reference, sizes_for, tolerance, variants
from tiler.pipeline import run_all
from tiler.runtime import Gpu
from tiler.syntax import pretty
from tiler.workload import make_inputs, resolve_sizes

AXES = (20, 36, 150)  # marched, rows, columns


def case(seed: int, drawn: bool = False):
    """(Compiled with its check's sizes, [(variant, march kernel, cuda)]) for one seed: compiled with the
    fuzzer's options for it, or the defaults where those make no march version (launch timing off)."""
    text = pretty(generate(seed))
    values = run_all(text, f"fuzz{seed}.fut", variants(seed)["tiled"])
    if not any(v.kernel.name.endswith("_march") for v in values["verify"].versions):
        values = run_all(text, f"fuzz{seed}.fut", Options())
    prog, march = values["check"], values["analyse"].plan.march
    if march is None or march.march is None:
        return None, []
    given = sizes_for(prog, seed)
    for dim, n in zip(march.march.dims, () if drawn else AXES):
        size = prog.kernel.levels[dim].size
        if not isinstance(size, int):
            given[size.name] = n
    sizes = resolve_sizes(prog, given, None)
    inputs = make_inputs(prog, sizes, None, seed)
    c = Compiled(seed, text, prog, {}, expected=(sizes, inputs, *reference(prog, inputs, seed)))
    cuda = values["render"]
    return c, [("tiled", v.kernel, cuda) for v in values["verify"].versions if v.kernel.name.endswith("_march")]


def main() -> None:
    drawn = "--drawn" in sys.argv
    seeds = [int(s) for s in sys.argv[1:] if s != "--drawn"]
    runs = [case(s, drawn) for s in seeds]
    for s, (_, marches) in zip(seeds, runs):
        if not marches:
            print(f"seed {s}: no march version")
    runs = [(c, m) for c, m in runs if m]
    gpu = Gpu.get()
    gpu.prepare(list({cuda for _, marches in runs for _, _, cuda in marches}))
    bad = 0
    for c, marches in runs:
        for variant, kernel, cuda in marches:
            why = mismatch(gpu, kernel, cuda, c, tolerance(c.seed, variant))
            bad += bool(why)
            print(f"seed {c.seed} {kernel.name} at {c.expected[0]}: {why or 'ok'}")
    print(f"{sum(len(m) for _, m in runs)} march kernels of {len(runs)} programs, {bad} wrong")


if __name__ == "__main__":
    main()
