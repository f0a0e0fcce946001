"""Shrinking a failing program: simplify its tree while it fails the same way."""
from __future__ import annotations

import dataclasses

from ..syntax import ast


def candidates(node):
    """Trees one step simpler than `node` (the whole tree: all places tried)."""
    yield from _at(node, lambda x: _simpler(x))


def _simpler(e):
    if isinstance(e, ast.Let):
        yield e.body
    if isinstance(e, ast.BinOp):
        yield e.lhs
        yield e.rhs
    if isinstance(e, ast.If):
        yield e.then
        yield e.else_
    if isinstance(e, ast.Call) and e.args:
        yield e.args[0]
    if isinstance(e, (ast.StreamSeq, ast.Loop, ast.If, ast.BinOp, ast.Call)):
        yield ast.FloatLit(1.0, "f32")


def _at(node, simpler):
    """Every tree with one subtree replaced by one of its simplifications."""
    yield from simpler(node)
    if not dataclasses.is_dataclass(node) or isinstance(node, (ast.TScalar, ast.TArray, ast.TTuple)):
        return
    for f in dataclasses.fields(node):
        value = getattr(node, f.name)
        if ast.is_node(value):
            for smaller in _at(value, simpler):
                yield dataclasses.replace(node, **{f.name: smaller})
        elif isinstance(value, tuple):
            for n, item in enumerate(value):
                if ast.is_node(item):
                    for smaller in _at(item, simpler):
                        yield dataclasses.replace(node, **{f.name: value[:n] + (smaller,) + value[n + 1:]})


def shrink(tree, fails, budget: int = 300):
    """The smallest tree found, within `budget` tries, for which `fails` holds."""
    tries = 0
    improved = True
    while improved and tries < budget:
        improved = False
        for smaller in candidates(tree):
            tries += 1
            if tries > budget:
                break
            if fails(smaller):
                tree, improved = smaller, True
                break
    return tree


__all__ = ["shrink"]
