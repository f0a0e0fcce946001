"""Shorthands for the syntax trees the fuzzer writes (`arr`, `v`, `f`,
`i`, `call`, `binop`), and the `Scope` of names a generated body draws from.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..syntax import ast

F32, INT = ast.TScalar("f32"), ast.TScalar("int")
F16, BF16 = ast.TScalar("f16"), ast.TScalar("bf16")


def arr(elem, *sizes):
    """[[elem, s_last], ..., s0]: sizes outermost first."""
    t = elem
    for s in reversed(sizes):
        t = ast.TArray(t, s)
    return t


def v(name):
    return ast.Var(name)


def f(x: float):
    return ast.FloatLit(float(x), "f32")


def i(x: int):
    return ast.IntLit(int(x))


def call(fn, *args):
    return ast.Call(fn, tuple(args))


def binop(op, a, b):
    return ast.BinOp(op, a, b)


@dataclass
class Scope:
    floats: list = field(default_factory=list)  # f32 scalars in scope
    ints: list = field(default_factory=list)  # int scalars in scope (small, >= 0)
    thread_ints: list = field(default_factory=list)  # ints that differ between threads
    rows: list = field(default_factory=list)  # (name, size name or literal): [f32, size] arrays in scope

    def copy(self) -> "Scope":
        return Scope(list(self.floats), list(self.ints), list(self.thread_ints), list(self.rows))

