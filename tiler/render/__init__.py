"""Stage `render`: kernel IR -> CUDA text, and the launch description.

The Jinja templates in templates/ lay out the module (StrictUndefined: a
missing field is an error, not an empty string); a kernel's statements are
written by statements.py, one function per IR statement type, expressions
by cexpr.c, and every CUDA spelling comes from `tiler.target`.
`launch(module)` is the launch description as data, for the runtime and for
`--emit launch`: each version's kernel, block, grid and shared memory, and
the condition that selects it. The CUDA ends with a host launcher,
`tiler_<program>_launch(..., cudaStream_t)`, which makes the same choice in C
(`launcher(module)` decides what it says, launcher.py writes it); `header(module)`
is the C header that declares it, for host code compiled apart.
"""
from __future__ import annotations

import re

import jinja2

from .. import kir, target, tma
from ..resources import templates_dir
from ..version import __version__
from .cexpr import c
from .launcher import body, launcher, launcher_name, param, transpose_kernel
from .statements import statements

__all__ = ["render", "launch", "rename", "rename_module", "c", "header", "launcher_name"]

_env = None


def environment() -> jinja2.Environment:
    global _env
    if _env is None:
        _env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(templates_dir())),
                                  undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True,
                                  keep_trailing_newline=True, autoescape=False)
        _env.filters["c"] = c
        _env.globals["t"] = target
        _env.globals["stmts"] = statements
    return _env


def render(m: kir.Module) -> str:
    kernels = [{"k": k, "params": ", ".join(param(p) for p in k.params), "grid": k.grid_formulas()}
               for k in m.functions]
    transposes = [transpose_kernel(t) for t in sorted({p.ctype for k in m.kernels for p in k.transposes})]
    host = launcher(m)
    return environment().get_template("module.cu.j2").render(
        m=m, kernels=kernels, version=__version__, launcher=host, launcher_body=body(host), transposes=transposes,
        conditions=[None if v.condition is None else c(v.condition) for v in m.versions], headers=_headers(m),
        tma=any(p.role == kir.TENSOR_MAP for k in m.functions for p in k.params))  # (tma.cuh's helpers)


def _headers(m: kir.Module) -> list[str]:
    """The headers of the 16-bit float types the module's kernels hold or
    convert to (none for a program without them)."""
    ctypes = set()
    for k in m.functions:
        ctypes |= {p.ctype for p in k.params} | {a.ctype for a in k.shared}
        for node in kir.walk(k.body):
            ctypes.add(target.NARROW_FUNCTIONS.get(node.fn) if isinstance(node, kir.Call) else getattr(node, "ctype", None))
    return target.headers(ctypes)


def header(m: kir.Module) -> str:
    """The C header declaring the module's host launcher."""
    return environment().get_template("header.h.j2").render(m=m, version=__version__, launcher=launcher(m))


def rename(cuda: str, name: str, new: str) -> str:
    """The same CUDA with the kernel (or launcher) called `new`: many modules
    can then share one translation unit, and one compilation (the tests, the
    fuzzer)."""
    return re.sub(rf"\b{re.escape(name)}\b", new, cuda)


def rename_module(cuda: str, m: kir.Module, prefix: str) -> tuple[str, tuple[kir.Kernel, ...]]:
    """The module's CUDA with every kernel and the launcher named after
    `prefix`, so that several modules share one translation unit; and the
    versions' kernels so renamed (their stages too), in the module's order."""
    def new(name: str) -> str:
        return f"{prefix}_{name.removeprefix('tiler_')}"
    names = {k.name: new(k.name) for k in m.functions} | {launcher_name(m): f"{prefix}_launch"}
    # one pass over the text for every name (a pass a name was most of the fuzzer's batching)
    cuda = re.sub(rf"\b(?:{'|'.join(map(re.escape, sorted(names, key=len, reverse=True)))})\b",
                  lambda hit: names[hit.group(0)], cuda)
    return cuda, tuple(k.renamed_by(new) for k in m.kernels)


def launch(m: kir.Module) -> dict:
    return {
        "source": m.source,
        "params": [{"name": p.name, "role": p.role, "ctype": p.ctype, "source": p.source,
                    "shape": list(p.shape)} for p in m.params],
        "selection": "launch the first version whose condition holds (sizes by name); where it names a rival, "
                     "race the two at the first launch of each set of sizes and keep the faster",
        "race": {"rounds": target.TIMED_ROUNDS, "margin": target.TIMED_MARGIN,
                 "rule": "a warm-up launch each, then rounds launches each, alternating; the fastest launch of "
                         "each counts; the rival wins where its time times margin is below the version's"},
        "max_size": target.MAX_SIZE,  # each size indexes with an int: refuse larger ones before launching
        "versions": [_version(v) for v in m.versions],
    }


def _axis(a) -> dict | None:
    """A grid axis in the launch description: blocks = ceil(size / threads), at most `at_most`."""
    if a is None:
        return None
    return {"size": a[0], "threads": a[1]} | ({"at_most": a[2]} if len(a) > 2 else {})


def _version(v: kir.Version) -> dict:
    k = v.kernel
    return {
        "kernel": k.name, "tiled": k.tiled,
        "condition": None if v.condition is None else c(v.condition), "why": v.why, "rival": v.rival or None,
        "block": list(k.block),
        "grid": [_axis(a) for a in k.grid],
        "grid_formula": k.grid_formulas(),
        "static_shared_bytes": k.static_shared_bytes,
        "dynamic_shared_bytes": k.dynamic_shared_bytes,
        # where the launch sizes some of it (a halo tile of a window known only then): its bytes over the sizes
        "dynamic_shared_formula": c(k.launch_shared()) if k.sized_at_launch else None,
        "transposed": [{"param": p.name, "array": p.source, "kernel": target.transpose_kernel(p.ctype),
                        "shape": list(p.shape)} for p in k.transposes],
        # the TMA maps it takes first, by value: cuTensorMapEncodeTiled over the array (rank 2, extents innermost
        # first: the shape reversed), its rows' pitch in bytes, this box, its swizzle (128-byte or none), zeros past
        # the edges
        "tensor_maps": [{"param": p.name, "array": p.array, "shape": list(p.shape), "box": list(p.box),
                         "data_type": tma.DATA_TYPES[p.ctype], "swizzle": tma.swizzle(p.swizzled)}
                        for p in k.params if p.role == kir.TENSOR_MAP],
        # kernels launched before this one, each with its own block, dynamic shared memory and arguments
        # (a split reduction's stages: the kernel's; a fissioned fold's pairs: their own)
        "stages": [{"kernel": s.name, "grid": [_axis(a) for a in s.grid], "grid_formula": s.grid_formulas(),
                    "block": list(s.block), "dynamic_shared_bytes": s.dynamic_shared_bytes,
                    "args": [p.name for p in s.params]} for s in k.stages],
        "scratch": [{"param": s.name, "ctype": s.ctype, "elements": c(s.count), "why": s.why} for s in k.scratch],
    }
