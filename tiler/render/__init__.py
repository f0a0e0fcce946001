"""Stage `render`: kernel IR -> CUDA text, and the launch description.

The Jinja templates in templates/ lay out what the IR says (StrictUndefined:
a missing field is an error, not an empty string); expressions are printed
by cexpr.c. `launch(kernel)` is the same launch description as data, for the
runtime and for `--emit launch`.
"""
from __future__ import annotations

import jinja2

from .. import __version__, kir
from ..resources import templates_dir
from .cexpr import c

__all__ = ["render", "launch", "rename", "c"]

_env = None


def environment() -> jinja2.Environment:
    global _env
    if _env is None:
        _env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(templates_dir())),
                                  undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True,
                                  keep_trailing_newline=True, autoescape=False)
        _env.filters["c"] = c
        _env.filters["cite"] = lambda span: f"{span.file.rsplit('/', 1)[-1]}:{span.line}"
    return _env


def render(k: kir.Kernel) -> str:
    params = ", ".join(_param(p) for p in k.params)
    return environment().get_template("kernel.cu.j2").render(
        k=k, version=__version__, params=params, grid=grid_formulas(k))


def rename(cuda: str, name: str, new: str) -> str:
    """The same CUDA with the kernel called `new`: many kernels can then share
    one translation unit, and one compilation (the tests, the fuzzer)."""
    return cuda.replace(f"\n{name}(", f"\n{new}(")


def _param(p: kir.Param) -> str:
    if p.role == "input":
        return f"const {p.ctype}* __restrict__ {p.name}"
    if p.role == "output":
        return f"{p.ctype}* __restrict__ {p.name}"
    return f"{p.ctype} {p.name}"


def grid_formulas(k: kir.Kernel) -> list[str]:
    out = []
    for axis in k.grid:
        if axis is None:
            out.append("1")
        else:
            size, threads = axis
            out.append(str(size) if threads == 1 else f"ceil({size} / {threads})")
    return out


def launch(k: kir.Kernel) -> dict:
    return {
        "kernel": k.name, "source": k.source, "tiled": k.tiled,
        "params": [{"name": p.name, "role": p.role, "ctype": p.ctype, "source": p.source,
                    "shape": list(p.shape)} for p in k.params],
        "block": list(k.block),
        "grid": [None if a is None else {"size": a[0], "threads": a[1]} for a in k.grid],
        "grid_formula": grid_formulas(k),
        "static_shared_bytes": 0 if k.dynamic_shared else k.shared_bytes,
        "dynamic_shared_bytes": k.shared_bytes if k.dynamic_shared else 0,
    }
