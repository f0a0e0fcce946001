"""Stage `render`: kernel IR -> CUDA text, and the launch description.

The Jinja templates in templates/ lay out the module (StrictUndefined: a
missing field is an error, not an empty string); a kernel's statements are
written by statements.py, one function per IR statement type, expressions
by cexpr.c, and every CUDA spelling comes from `tiler.target`.
`launch(module)` is the launch description as data, for the runtime and for
`--emit launch`: each version's kernel, block, grid and shared memory, and
the condition that selects it. The CUDA ends with a host launcher,
`tiler_<program>_launch(..., cudaStream_t)`, which makes the same choice in C
(`launcher(module)` decides what it says); `header(module)` is the C header
that declares it, for host code compiled apart.
"""
from __future__ import annotations

import re

import jinja2

from .. import __version__, kir, target
from ..lower import program_stem
from ..lower.values import rewrite
from ..resources import templates_dir
from .cexpr import c
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
    kernels = [{"k": k, "params": ", ".join(_param(p) for p in k.params), "grid": k.grid_formulas()}
               for k in m.functions]
    transposed = sorted({p.ctype for k in m.kernels for p in k.transposes})
    return environment().get_template("module.cu.j2").render(
        m=m, kernels=kernels, version=__version__, launcher=launcher(m), transposed_types=transposed,
        conditions=[None if v.condition is None else c(v.condition) for v in m.versions])


def header(m: kir.Module) -> str:
    """The C header declaring the module's host launcher."""
    return environment().get_template("header.h.j2").render(m=m, version=__version__, launcher=launcher(m))


def launcher_name(m: kir.Module) -> str:
    return f"tiler_{m.stem or program_stem(m.source)}_launch"


LAUNCHER_DEVICES = 64  # devices whose SM count the host launcher keeps once read


def launcher(m: kir.Module) -> dict:
    """What the host launcher does, decided here: its parameters, the sizes it
    refuses, and for each version the condition (with the pointer alignment a
    vector version needs), the grid and the shared memory."""
    host = m.params
    names = {p.source: p.name for p in host if p.role == "size"}
    arrays = {p.source: p.name for p in host if p.pointer}

    def in_params(e):  # conditions name sizes as the program does; the launcher's parameters may differ
        return rewrite(e, lambda x: kir.Ref(names.get(x.name, x.name)) if isinstance(x, kir.Ref) else None)

    versions = []
    for v in m.versions:
        k = v.kernel
        conds = [c(in_params(v.condition))] if v.condition is not None else []
        if k.divisible:  # 128-bit accesses: every array the caller gives must start 16-byte aligned too
            # (a launch's transposed copy is the launcher's own allocation, aligned already)
            pointers = " | ".join(f"(unsigned long long){_host_name(p, arrays)}" for p in k.params
                                  if p.pointer and not p.transposed)
            conds.append(f"(({pointers}) & 15) == 0")
        versions.append({"kernel": k.name, "condition": " && ".join(f"({x})" for x in conds) or None,
                         "grid": _grid_c(k, names), "block": list(k.block), "shared": k.dynamic_shared_bytes,
                         "args": ", ".join(_host_name(p, arrays) for p in k.params),
                         "scratch": [_scratch(p, arrays[p.source], names) for p in k.transposes] +
                         [_partials(s, in_params) for s in k.scratch],
                         "stages": [{"kernel": s.name, "grid": _grid_c(s, names)} for s in k.stages]})
    index = {v.kernel.name: i for i, v in enumerate(m.versions)}
    rivals = [index[v.rival] if v.rival else -1 for v in m.versions]
    return {"name": launcher_name(m), "params": ", ".join(_host_param(p) for p in host),
            "timed": m.timed, "rivals": rivals,
            "max_size": target.MAX_SIZE, "sizes": [p for p in host if p.role == "size"],
            "arrays": [p for p in host if p.pointer], "scalars": [p for p in host if p.role == "scalar"],
            "versions": versions, "multiprocessors": m.reads_multiprocessors, "devices": LAUNCHER_DEVICES}


def _grid_c(k: kir.Kernel, names: dict) -> list[str]:
    """The kernel's grid in C, over the launcher's parameters."""
    def blocks(a):
        n = str(-(-a[0] // a[1])) if isinstance(a[0], int) else names.get(a[0], a[0]) if a[1] == 1 else \
            f"({names.get(a[0], a[0])} + {a[1] - 1}) / {a[1]}"
        return f"({n} < {a[2]} ? {n} : {a[2]})" if len(a) > 2 else n
    return ["1" if a is None else blocks(a) for a in k.grid]


def _partials(s: kir.Scratch, in_params) -> dict:
    """Scratch memory for a kernel's partial results, in the launcher."""
    return {"name": s.name, "ctype": s.ctype, "why": s.why, "bytes": f"sizeof({s.ctype}) * ({c(in_params(s.count))})",
            "transpose": False}


def _host_name(p: kir.Param, arrays: dict) -> str:
    """What the launcher passes for a kernel parameter: its own array for an
    input, else the kernel's name (an output, a size, a transposed copy)."""
    return p.name if p.transposed or p.role != "input" else arrays[p.source]


def _scratch(p: kir.Param, source: str, names: dict) -> dict:
    """A transposed input in the launcher: its scratch array, bytes, and the
    transposition's extents and grid, in C over the launcher's parameters."""
    def size(s):
        return str(s) if isinstance(s, int) else names.get(s, s)

    *lead, rows, cols = [size(s) for s in p.source_shape]
    batch = " * ".join(f"({x})" for x in lead) or "1"
    count = " * ".join([f"({target.INDEX}){rows}", cols] + [f"({x})" for x in lead])
    grid = target.transpose_grid_c(rows, cols, batch if lead else None)
    return {"name": p.name, "source": source, "ctype": p.ctype, "rows": rows, "cols": cols, "batch": batch,
            "bytes": f"sizeof({p.ctype}) * {count}", "grid": grid, "transpose": True,
            "why": f"`{source}` with its last two axes swapped"}


def rename(cuda: str, name: str, new: str) -> str:
    """The same CUDA with the kernel (or launcher) called `new`: many modules
    can then share one translation unit, and one compilation (the tests, the
    fuzzer)."""
    return re.sub(rf"\b{re.escape(name)}\b", new, cuda)


def rename_module(cuda: str, m: kir.Module, prefix: str) -> tuple[str, tuple[str, ...]]:
    """The module's CUDA with every kernel and the launcher named after
    `prefix`, so that several modules share one translation unit; and the
    kernels' new names, in the module's order."""
    names = tuple(f"{prefix}_{k.name.removeprefix('tiler_')}" for k in m.kernels)
    for k, new in zip(m.kernels, names):
        for i, stage in enumerate(k.stages):
            cuda = rename(cuda, stage.name, kir.stage_name(new, i))
        cuda = rename(cuda, k.name, new)
    return rename(cuda, launcher_name(m), f"{prefix}_launch"), names


def _host_param(p: kir.Param) -> str:
    return _param(p, restrict="")


def _param(p: kir.Param, restrict: str = target.RESTRICT + " ") -> str:
    """A kernel's parameter (arrays `__restrict__`); the host launcher's drop it."""
    if p.role == "input":
        return f"const {p.ctype}* {restrict}{p.name}"
    if p.role in ("output", kir.SCRATCH):
        return f"{p.ctype}* {restrict}{p.name}"
    return f"{p.ctype} {p.name}"


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
        "transposed": [{"param": p.name, "array": p.source, "kernel": target.transpose_kernel(p.ctype),
                        "shape": list(p.shape)} for p in k.transposes],
        # kernels launched before this one, on the same block, with the same arguments
        "stages": [{"kernel": s.name, "grid": [_axis(a) for a in s.grid],
                    "grid_formula": s.grid_formulas()} for s in k.stages],
        "scratch": [{"param": s.name, "ctype": s.ctype, "elements": c(s.count), "why": s.why} for s in k.scratch],
    }
