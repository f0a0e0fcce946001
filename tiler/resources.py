"""Files that ship with tiler: the Jinja templates.

`templates_dir()` is `templates/` of the checkout (through the link
`tiler/templates`) or the copy an installed wheel carries inside the package.
"""
from __future__ import annotations

from importlib import resources
from pathlib import Path


def templates_dir() -> Path:
    path = Path(str(resources.files("tiler").joinpath("templates")))
    if not path.is_dir():
        raise FileNotFoundError(f"tiler's templates are missing: looked in {path}")
    return path
