"""Files that ship with tiler: the Jinja templates and the benchmarks.

`templates_dir()` is `templates/` of the checkout (through the link
`tiler/templates`) or the copy an installed wheel carries inside the package;
`benchmarks_dir()` the same for `benchmarks/` (programs and their `.toml`).
"""
from __future__ import annotations

from importlib import resources
from pathlib import Path


def templates_dir() -> Path:
    return _shipped("templates")


def benchmarks_dir() -> Path:
    return _shipped("benchmarks")


def _shipped(name: str) -> Path:
    path = Path(str(resources.files("tiler").joinpath(name)))
    if not path.is_dir():
        raise FileNotFoundError(f"tiler's {name} are missing: looked in {path}")
    return path
