"""Time many (program, sizes, option set) jobs in one process on one GPU,
every module built first in one batch (nvcc on every core), then each job
timed as variants.py times it (poisoned outputs, warm-up, CUDA events,
median; outputs checked against the job's first variant) beside the
library's product at the precision asked. A jobs file has one job a line:

    PROGRAM SIZES [--torch tf32 --operands A,B0] LABEL:OPTIONS LABEL:OPTIONS ...

`--set module.NAME=VALUE` sets a module constant before anything is planned
(a rule's threshold moved to see both sides of it)."""
from __future__ import annotations

import argparse
import ast
import importlib
import os
import shlex
import sys

sys.path.insert(0, os.getcwd())
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from variants import Built, options, time_built, torch_ms  # noqa: E402

from tiler.analyse import make_options  # noqa: E402
from tiler.pipeline import run_all  # noqa: E402
from tiler.runtime import Gpu  # noqa: E402
from tiler.workload.spec import load_spec  # noqa: E402


def job(line: str):
    ap = argparse.ArgumentParser()
    ap.add_argument("program")
    ap.add_argument("sizes")
    ap.add_argument("variants", nargs="+")
    ap.add_argument("--torch", default="")
    ap.add_argument("--operands", default="")
    return ap.parse_args(shlex.split(line))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("jobs")
    ap.add_argument("--repeat", type=int, default=10)
    ap.add_argument("--set", action="append", default=[])
    args = ap.parse_args()
    for item in args.set:
        name, value = item.split("=")
        module, _, attr = name.rpartition(".")
        setattr(importlib.import_module(module), attr, ast.literal_eval(value))
    gpu = Gpu.get()
    jobs = []
    for line in open(args.jobs):
        if not line.strip() or line.startswith("#"):
            continue
        j = job(line)
        sizes = {k: int(v) for k, v in (s.split("=") for s in j.sizes.split(","))}
        source = open(j.program).read()
        built = []
        for spec in j.variants:
            label, _, given = spec.partition(":")
            try:
                values = run_all(source, j.program, make_options(sizes=sizes, **options(given)), device=gpu.described)
                built.append((label, Built(values["verify"], values["render"], values["check"])))
            except Exception as exc:  # noqa: BLE001
                print(f"{j.program} {j.sizes} {label}: compile failed: {exc}", flush=True)
        jobs.append((j, sizes, built))
    gpu.prepare([k.cuda for _, _, built in jobs for _, k in built])
    for j, sizes, built in jobs:
        if not built:
            continue
        print(f"== {os.path.basename(j.program)} {j.sizes}", flush=True)
        inputs = time_built(gpu, built, sizes, load_spec(j.program), args.repeat)
        if j.torch:
            ms = torch_ms(inputs, j.operands.split(","), j.torch, args.repeat)
            print(f"{'torch ' + j.torch:24s} {ms:9.4f} ms", flush=True)


if __name__ == "__main__":
    main()
