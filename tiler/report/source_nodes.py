"""Finding the plan's places in the program's syntax, for drawings on it."""
from __future__ import annotations

import dataclasses

from ..syntax import ast
from ..tree import children


def main_of(program: ast.Program) -> ast.FunDef:
    return next((f for f in program.funs if f.name == "main"), program.funs[-1])


def span_key(e) -> tuple:
    """A syntax node's (line, column), by which the plan's streams are found in the source."""
    return (e.span.line, e.span.col)


def kernel_maps(program: ast.Program, rank: int) -> list:
    """The maps of the kernel's dimensions, outermost first (lets between them skipped)."""
    e, maps = main_of(program).body, []
    while len(maps) < rank:
        while isinstance(e, ast.Let):
            e = e.body
        if not isinstance(e, ast.Map):
            break
        maps.append(e)
        e = e.lam.body
    return maps


def names_in(e) -> set:
    """Every name `e` reads (bound inside it or not)."""
    if isinstance(e, ast.Var):
        return {e.name}
    if isinstance(e, tuple):
        return set().union(set(), *(names_in(c) for c in e))
    return set().union(set(), *(names_in(c) for c in children(e, ast.is_node))) if dataclasses.is_dataclass(e) else set()
