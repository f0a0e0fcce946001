"""Stage `check`: `ast.Program` -> `typed.Program` (names, types, sizes, kernel shape).

`check(program, source)` returns the typed program or raises `UserError`
with every mistake found, in source order.
"""
from __future__ import annotations

from ..errors import UserError
from ..source import Source
from ..syntax import ast
from . import typed
from .program import check_program

__all__ = ["check", "typed"]


def check(program: ast.Program, source: Source | None = None) -> typed.Program:
    checked, errors = check_program(program, source)
    if errors:
        raise UserError(errors, source)
    return checked
