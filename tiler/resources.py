"""Files that ship with tiler: the Jinja templates, the benchmarks and the docs.

`templates_dir()` is `templates/` of the checkout (through the link
`tiler/templates`) or the copy an installed wheel carries inside the package;
`benchmarks_dir()` the same for `benchmarks/` (programs and their `.toml`),
and `shipped_program(name)` one of them by name, for every command and the
Python API outside a checkout.
"""
from __future__ import annotations

from importlib import resources
from pathlib import Path


def templates_dir() -> Path:
    return _shipped("templates")


def benchmarks_dir() -> Path:
    return _shipped("benchmarks")


def docs_dir() -> Path:
    """`docs/` (the language reference and the guides), as `tiler docs` shows them."""
    return _shipped("docs")


def shipped_program(path: str) -> Path | None:
    """The shipped benchmark a path names where no such file exists (`mm`,
    `mm.fut` or `benchmarks/mm.fut`, as the docs write it), else None: a
    file that exists always wins."""
    if "\n" in path or len(path) > 255:  # program text, not a name
        return None
    given = Path(path)
    try:
        if given.exists() or str(given.parent) not in (".", "benchmarks"):
            return None
    except (OSError, ValueError):  # a path the system refuses to look at names no benchmark
        return None
    stem = given.name[:-4] if given.name.endswith(".fut") else given.name
    if not stem.isidentifier():
        return None
    try:
        program = benchmarks_dir() / f"{stem}.fut"
    except FileNotFoundError:
        return None
    return program if program.is_file() else None


def _shipped(name: str) -> Path:
    path = Path(str(resources.files("tiler").joinpath(name)))
    if not path.is_dir():
        raise FileNotFoundError(f"tiler's {name} are missing: looked in {path}")
    return path
