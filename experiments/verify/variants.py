"""Time one program compiled with several option sets, in one process on
one GPU (the tree it runs from: `cd TREE && python3 PATH/variants.py ...`):
every module built first, nvcc side by side, then each timed as `tiler
bench` times a variant (poisoned outputs, warm-up, CUDA events, median),
its outputs checked against the first variant's, with the launched
version's registers and local (spill) bytes; then the library's product at
the precision asked (`--torch f32|tf32|f64|bf16`).

    python3 variants.py PROG.fut m=4096,n=4096,q=4096 --repeat 10 \
        default:tensor_cores=1 wide:tensor_cores=1,register_tile=16x8
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
from dataclasses import dataclass

sys.path.insert(0, os.getcwd())

import numpy as np  # noqa: E402

from tiler.analyse import make_options  # noqa: E402
from tiler.pipeline import run_all  # noqa: E402
from tiler.runtime import Gpu  # noqa: E402
from tiler.workload.spec import load_spec, make_inputs  # noqa: E402


@dataclass(frozen=True)
class Built:
    module: object
    cuda: str
    program: object


def options(text: str) -> dict:
    out = {}
    for item in filter(None, text.split(",")):
        key, value = item.split("=")
        if "x" in value:
            out[key] = tuple(int(v) for v in value.split("x"))
        elif value.lstrip("-").isdigit():
            out[key] = int(value)
        else:
            out[key] = value
        if key in ("tensor_cores", "fast_math", "no_tile", "transpose") or key.startswith("no_"):
            out[key] = bool(out[key])
    return out


def torch_ms(inputs: dict, names: list[str], precision: str, repeat: int) -> float:
    import torch

    torch.backends.cuda.matmul.allow_tf32 = precision == "tf32"
    dtype = {"f32": torch.float32, "tf32": torch.float32, "f64": torch.float64, "bf16": torch.bfloat16}[precision]
    a, b = (torch.rand(np.shape(inputs[n]), device="cuda").to(dtype) for n in names)  # (times only)
    for _ in range(3):
        torch.matmul(a, b)
    times = []
    for _ in range(repeat):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record()
        torch.matmul(a, b)
        e.record()
        e.synchronize()
        times.append(s.elapsed_time(e))
    return statistics.median(times)


def time_built(gpu, built: list, sizes: dict, spec, repeat: int) -> dict:
    """Each (label, Built) timed on the same inputs, its outputs against the
    first's, with the launched version's registers and local bytes; the
    inputs."""
    first = built[0][1]
    inputs = make_inputs(first.program, sizes, spec, seed=1)
    device = gpu.upload(inputs, first.program)
    reference = None
    try:
        for label, k in built:
            outs, times = gpu.run(k.module, k.cuda, inputs, sizes, repeat=repeat, device=device)
            reference = outs if reference is None else reference
            err = max(float(np.nanmax(np.abs(o.astype(np.float64) - r.astype(np.float64))) /
                            max(float(np.abs(r.astype(np.float64)).max()), 1e-30)) for o, r in zip(outs, reference))
            ran = gpu.ran(k.module, k.cuda, sizes, inputs)
            f = gpu.function(k.cuda, ran.name)
            regs = f.get_attribute(gpu.drv.function_attribute.NUM_REGS)
            local = f.get_attribute(gpu.drv.function_attribute.LOCAL_SIZE_BYTES)
            print(f"{label:24s} {statistics.median(times):9.4f} ms  min {min(times):9.4f}  err {err:.2e}  "
                  f"{ran.name} regs {regs} local {local}", flush=True)
    finally:
        device.free()
    return inputs


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("program")
    ap.add_argument("sizes")
    ap.add_argument("variants", nargs="+")
    ap.add_argument("--repeat", type=int, default=10)
    ap.add_argument("--torch", default="")
    ap.add_argument("--operands", default="")
    args = ap.parse_args()
    sizes = {k: int(v) for k, v in (s.split("=") for s in args.sizes.split(","))}
    gpu = Gpu.get()
    source = open(args.program).read()
    built = []
    for spec in args.variants:
        label, _, given = spec.partition(":")
        opts = options(given)
        try:
            hinted = opts.pop("hint", 1)  # hint=0: compiled with no sizes known, as `tiler compile` without -s
            values = run_all(source, args.program, make_options(sizes=sizes if hinted else {}, **opts),
                             device=gpu.described)
            k = Built(values["verify"], values["render"], values["check"])
        except Exception as exc:  # noqa: BLE001
            print(f"{label}: compile failed: {exc}", flush=True)
            continue
        built.append((label, k))
    gpu.prepare([k.cuda for _, k in built])
    inputs = time_built(gpu, built, sizes, load_spec(args.program), args.repeat)
    if args.torch:
        names = args.operands.split(",")
        print(f"{'torch ' + args.torch:24s} {torch_ms(inputs, names, args.torch, args.repeat):9.4f} ms", flush=True)


if __name__ == "__main__":
    main()
