"""A generated kernel as one standalone .cu file with a host harness.

    python tests/standalone.py PROGRAM.fut --seed S [--version tiled] [-o out.cu] [tiler options...]

The file holds the module tiler writes, the inputs of `tiler fuzz`'s sizes and
values for seed S (or `--size name=value`), the interpreter's outputs, and a
`main` that launches one version on NaN-poisoned outputs and compares. Build
and run it with nothing but nvcc (`nvcc -arch=sm_90 out.cu -lcuda && ./a.out
[module.cubin|module.ptx]`): exit
0 when every output matches, 1 with the first differences printed. It is how
a wrong result is shown apart from pycuda and Python, and how a suspected
ptxas defect is bisected over `-Xptxas -O0..3`.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tiler.analyse import Options  # noqa: E402
from tiler.check import check  # noqa: E402
from tiler.fuzz.properties import sizes_for  # noqa: E402
from tiler.interp import run  # noqa: E402
from tiler.pipeline import run_all  # noqa: E402
from tiler.syntax import parse  # noqa: E402
from tiler.workload import make_inputs, resolve_sizes  # noqa: E402


def _array(name: str, ctype: str, values) -> str:
    flat = np.asarray(values).ravel()
    if ctype == "float":
        # hex literals keep every bit of the value
        body = ", ".join(f"(float){float(v).hex()}" for v in flat.astype(np.float32))
    elif ctype == "double":
        body = ", ".join(float(v).hex() for v in flat)
    else:
        body = ", ".join(str(int(v)) for v in flat)
    return f"static const {ctype} h_{name}[{max(flat.size, 1)}] = {{{body or '0'}}};"


def _count(p, sizes: dict) -> int:
    """Elements of an output parameter at these sizes."""
    return int(np.prod([sizes[s] if isinstance(s, str) else s for s in p.shape]))


def harness(path: Path, seed: int, version: str, options: Options, sizes: dict | None = None) -> str:
    text = path.read_text()
    prog = check(parse(text, path.name))
    sizes = resolve_sizes(prog, sizes, None) if sizes else sizes_for(prog, seed)
    inputs = make_inputs(prog, sizes, None, seed)
    want = run(prog, inputs)
    values = run_all(text, path.name, options)
    module, cuda = values["verify"], values["render"]
    kernel = next(v.kernel for v in module.versions if v.kernel.name.endswith("_" + version))
    lines = [cuda, "", "// ---- host harness (tests/standalone.py) ----", "#include <cstdio>", "#include <cmath>", "#include <cuda.h>",
             f"// sizes: {sizes}"]
    outputs = [p for p in kernel.params if p.role == "output"]
    for p in kernel.params:
        if p.role == "input":
            lines.append(_array(p.name, p.ctype, inputs[p.source]))
    for p, w in zip(outputs, want):
        lines.append(_array(p.name + "_want", p.ctype, w))
    lines += ["", "int main(int argc, char** argv) {"]
    args = []
    for p in kernel.params:
        if p.role == "input":
            lines += [f"  {p.ctype}* d_{p.name}; cudaMalloc(&d_{p.name}, sizeof(h_{p.name}));",
                      f"  cudaMemcpy(d_{p.name}, h_{p.name}, sizeof(h_{p.name}), cudaMemcpyHostToDevice);"]
            args.append(f"d_{p.name}")
        elif p.role == "output":
            lines += [f"  const int n_{p.name} = {_count(p, sizes)};",
                      f"  {p.ctype}* d_{p.name}; cudaMalloc(&d_{p.name}, sizeof({p.ctype}) * (n_{p.name} + 1));",
                      f"  cudaMemset(d_{p.name}, 0xff, sizeof({p.ctype}) * (n_{p.name} + 1));  // NaN poison"]
            args.append(f"d_{p.name}")
        elif p.role == "size":
            args.append(str(int(sizes[p.source])))
        else:
            args.append(f"({p.ctype}){float(inputs[p.source]).hex() if p.ctype in ('float', 'double') else int(inputs[p.source])}")
    grid = ", ".join(str(g) for g in kernel.grid_dims(sizes))
    block = ", ".join(str(b) for b in kernel.block)
    shared = kernel.shared_at(kernel.launch_values(sizes, inputs))
    # Launch the linked kernel, or with a module file argument (a cubin from
    # another ptxas, or PTX for the driver's JIT) the same kernel from it.
    lines += [f"  {p.ctype + ('*' if p.role in ('input', 'output') else '')} a_{p.name} = {a};"
              for p, a in zip(kernel.params, args)]
    lines += [f"  void* params[] = {{{', '.join('&a_' + p.name for p in kernel.params)}}};",
              "  if (argc > 1) {",
              "    CUmodule mod; CUfunction fn;",
              '    if (cuModuleLoad(&mod, argv[1]) != CUDA_SUCCESS) { printf("cannot load %s\\n", argv[1]); return 2; }',
              f'    cuModuleGetFunction(&fn, mod, "{kernel.name}");',
              f"    cuFuncSetAttribute(fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, {shared});",
              f"    cuLaunchKernel(fn, {grid}, {block}, {shared}, 0, params, 0);",
              "  } else {",
              f"    cudaFuncSetAttribute({kernel.name}, cudaFuncAttributeMaxDynamicSharedMemorySize, {shared});",
              f"    cudaLaunchKernel((const void*){kernel.name}, dim3({grid}), dim3({block}), params, {shared}, 0);",
              "  }",
              "  cudaError_t err = cudaDeviceSynchronize();",
              '  if (err != cudaSuccess) { printf("launch: %s\\n", cudaGetErrorString(err)); return 2; }',
              "  int bad = 0;"]
    for p in outputs:
        lines += ["  {",
                  f"    static {p.ctype} got[{max(1, _count(p, sizes))}];",
                  f"    cudaMemcpy(got, d_{p.name}, sizeof({p.ctype}) * n_{p.name}, cudaMemcpyDeviceToHost);",
                  f"    double scale = 1.0; for (int i = 0; i < n_{p.name}; i++) scale = fmax(scale, fabs((double)h_{p.name}_want[i]));",
                  f"    for (int i = 0; i < n_{p.name}; i++) {{",
                  f"      double d = fabs((double)got[i] - (double)h_{p.name}_want[i]);",
                  "      if (!(d <= 1e-3 * scale)) {",
                  f'        if (bad < 10) printf("{p.name}[%d]: got %g, want %g\\n", i, (double)got[i], (double)h_{p.name}_want[i]);',
                  "        bad++;",
                  "      }",
                  "    }",
                  "  }"]
    lines += ['  printf("%s: %d wrong\\n", bad ? "WRONG" : "OK", bad);', "  return bad ? 1 : 0;", "}", ""]
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("program", type=Path)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--version", default="tiled", help="the kernel whose name ends in _VERSION")
    ap.add_argument("--size", action="append", default=[], help="name=value (else the fuzzer's sizes for SEED)")
    ap.add_argument("-o", "--out", type=Path)
    args = ap.parse_args()
    sizes = {k: int(v) for k, v in (s.split("=", 1) for s in args.size)} or None
    text = harness(args.program, args.seed, args.version, Options(), sizes)
    if args.out:
        args.out.write_text(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
