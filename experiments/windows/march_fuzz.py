"""The fuzzer's marched stars at sizes where blocks lie inside every edge.

`tiler fuzz --gpu` draws sizes below 70, so a march's block is never wholly
inside along x (64 columns and the halo past the first block): the body
without the program's edge tests (analyse/inside.py) never runs there. This
runs each given seed's march versions against the interpreter with the
march's axes given the fuzzer's INSIDE_SIZES (`tiler fuzz --gpu` checks
them so too since e64b00a; this script also takes seeds whose fuzz options
make no march version), every other size as the fuzzer draws it, with the fuzzer's own
options, tolerance and reference noise (--drawn: every size as the fuzzer
draws it, blocks at the edges only).
Run on a GPU host from the repository root:
    python3 experiments/windows/march_fuzz.py [--drawn] SEED...
"""
from __future__ import annotations

import dataclasses
import sys

from tiler.analyse import Options
from tiler.fuzz.generate import generate
from tiler.fuzz.properties import Compiled, expected, inside_expected, mismatch, tolerance, variants
from tiler.pipeline import run_all
from tiler.runtime import Gpu
from tiler.syntax import pretty


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
    c = Compiled(seed, text, prog, {}, marched=march.march.dims)
    c = dataclasses.replace(c, expected=expected(c) if drawn else inside_expected(c))
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
