"""Stage `render`: kernel IR -> CUDA text, and the launch description.

The Jinja templates in templates/ lay out what the IR says (StrictUndefined:
a missing field is an error, not an empty string); expressions are printed
by cexpr.c, and every CUDA spelling comes from `tiler.target`.
`launch(module)` is the launch description as data, for the runtime and for
`--emit launch`: each version's kernel, block, grid and shared memory, and
the condition that selects it.
"""
from __future__ import annotations

import jinja2

from .. import __version__, kir, target
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
        _env.globals["t"] = target
        _env.globals["vector_type"] = target.vector_type
        _env.globals["make_vector"] = target.make_vector
    return _env


def render(m: kir.Module) -> str:
    kernels = [{"k": k, "params": ", ".join(_param(p) for p in k.params), "grid": k.grid_formulas()}
               for k in m.kernels]
    return environment().get_template("module.cu.j2").render(
        m=m, kernels=kernels, version=__version__,
        conditions=[None if v.condition is None else c(v.condition) for v in m.versions])


def rename(cuda: str, name: str, new: str) -> str:
    """The same CUDA with the kernel called `new`: many kernels can then share
    one translation unit, and one compilation (the tests, the fuzzer)."""
    return cuda.replace(f"\n{name}(", f"\n{new}(")


def _param(p: kir.Param) -> str:
    if p.role == "input":
        return f"const {p.ctype}* {target.RESTRICT} {p.name}"
    if p.role == "output":
        return f"{p.ctype}* {target.RESTRICT} {p.name}"
    return f"{p.ctype} {p.name}"


def launch(m: kir.Module) -> dict:
    main = m.main
    return {
        "source": m.source,
        "params": [{"name": p.name, "role": p.role, "ctype": p.ctype, "source": p.source,
                    "shape": list(p.shape)} for p in main.params],
        "selection": "launch the first version whose condition holds (sizes by name)",
        "max_size": target.MAX_SIZE,  # each size indexes with an int: refuse larger ones before launching
        "versions": [_version(v) for v in m.versions],
    }


def _version(v: kir.Version) -> dict:
    k = v.kernel
    return {
        "kernel": k.name, "tiled": k.tiled,
        "condition": None if v.condition is None else c(v.condition), "why": v.why,
        "block": list(k.block),
        "grid": [None if a is None else {"size": a[0], "threads": a[1]} for a in k.grid],
        "grid_formula": k.grid_formulas(),
        "static_shared_bytes": k.static_shared_bytes,
        "dynamic_shared_bytes": k.dynamic_shared_bytes,
    }
