"""Seed 640373: the 64-bit-offset version built at each ptxas optimisation level and with a few source
changes, run on the fuzzer's inputs (tests/FUZZ.md, Findings); the log of its run is in that entry. On a
GPU host: python experiments/wide_ptxas_640373.py"""
import re

from pycuda.compiler import SourceModule

from tiler.check import check
from tiler.fuzz.generate import generate
from tiler.fuzz.properties import sizes_for, variants
from tiler.pipeline import run_all
from tiler.runtime import Gpu
from tiler.syntax import parse, pretty
from tiler.workload import make_inputs

seed = 640373
text = pretty(generate(seed))
prog = check(parse(text, "f.fut"))
sizes = sizes_for(prog, seed)
inputs = make_inputs(prog, sizes, None, seed)
v = run_all(text, "f.fut", variants(seed)["tiled"])
m, cuda = v["verify"], v["render"]
wide = next(k for k in m.kernels if k.name.endswith("_tiled_wide"))
gpu = Gpu.get()
def go(label, src, options=()):
    with gpu.active():
        gpu._modules[gpu._key(src)] = SourceModule(src, arch=gpu.arch, no_extern_c=True, options=list(options))
    out, _ = gpu.run(wide, src, inputs, sizes)
    print(f"{label:40s} {out[0][28:31]}", flush=True)
go("default (-O3)", cuda)
go("-Xptxas -O0", cuda, ("-Xptxas", "-O0"))
go("-Xptxas -O1", cuda, ("-Xptxas", "-O1"))
go("-Xptxas -O2", cuda, ("-Xptxas", "-O2"))
go("--fmad=false", cuda, ("--fmad=false",))
go("copy loops #pragma unroll 1", re.sub(r"(\n\s*)(for \(int c_ = 0; c_ < 64; c_ \+= 1\))", r"\1#pragma unroll 1\1\2", cuda))
go("no launch bounds min blocks", cuda.replace("__launch_bounds__(16, 1)", "__launch_bounds__(16)"))
go("32-bit offsets in the wide", cuda.replace("* (long long)34", "* 34"))
