"""The untyped syntax tree the parser returns (stage `parse`).

Frozen dataclasses and tuples, one class per form of LANGUAGE.md. Every node
carries a `span`; spans are left out of equality so that a program and its
pretty-printed, re-parsed self compare equal.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from ..source import NO_SPAN, Span
from ..tree import quick_constructors


def _span():
    return field(default=NO_SPAN, compare=False, repr=False)


# ---- types ---------------------------------------------------------------


@dataclass(frozen=True)
class TScalar:
    name: str  # f32 f64 int i32 i64 bool f16 bf16
    span: Span = _span()


@dataclass(frozen=True)
class TArray:
    elem: "TypeExp"
    size: str | int  # a size name or a literal; the outer size is written last
    span: Span = _span()


@dataclass(frozen=True)
class TTuple:
    items: tuple["TypeExp", ...]
    span: Span = _span()


TypeExp = TScalar | TArray | TTuple


# ---- expressions ---------------------------------------------------------


@dataclass(frozen=True)
class IntLit:
    value: int
    suffix: str = ""  # "", "i32", "i64"
    span: Span = _span()


@dataclass(frozen=True)
class FloatLit:
    value: float
    suffix: str = ""  # "", "f32", "f64", "f16", "bf16"
    span: Span = _span()


@dataclass(frozen=True)
class BoolLit:
    value: bool
    span: Span = _span()


@dataclass(frozen=True)
class Var:
    name: str
    span: Span = _span()


@dataclass(frozen=True)
class TupleExp:
    items: tuple["Exp", ...]
    span: Span = _span()


@dataclass(frozen=True)
class BinOp:
    op: str
    lhs: "Exp"
    rhs: "Exp"
    span: Span = _span()
    op_span: Span = _span()


@dataclass(frozen=True)
class UnOp:
    op: str  # "-" or "!"
    operand: "Exp"
    span: Span = _span()


@dataclass(frozen=True)
class Index:
    array: "Exp"
    indices: tuple["Exp", ...]
    span: Span = _span()


@dataclass(frozen=True)
class Call:
    func: str
    args: tuple["Exp", ...]
    span: Span = _span()
    func_span: Span = _span()


@dataclass(frozen=True)
class Let:
    names: tuple[str, ...]
    is_tuple: bool  # `let (a) = ...` keeps its parentheses
    value: "Exp"
    body: "Exp"
    span: Span = _span()
    name_spans: tuple[Span, ...] = field(default=(), compare=False, repr=False)


@dataclass(frozen=True)
class If:
    cond: "Exp"
    then: "Exp"
    else_: "Exp"
    span: Span = _span()


@dataclass(frozen=True)
class LoopParam:
    name: str
    init: "Exp | None"  # None: starts with the value of the same name in scope
    span: Span = _span()


@dataclass(frozen=True)
class Loop:
    params: tuple[LoopParam, ...]
    index: str
    bound: "Exp"
    body: "Exp"
    rest: "Exp"
    span: Span = _span()
    index_span: Span = _span()


@dataclass(frozen=True)
class Param:
    type: TypeExp
    name: str
    span: Span = _span()


@dataclass(frozen=True)
class Lambda:
    ret: TypeExp
    params: tuple[Param, ...]
    body: "Exp"
    span: Span = _span()


@dataclass(frozen=True)
class Map:
    lam: Lambda
    args: tuple["Exp", ...]
    span: Span = _span()


@dataclass(frozen=True)
class StreamSeq:
    """`streamSeq(lam, args)`, or with `combine`, `streamRed(combine, lam, args)`."""

    lam: Lambda
    args: tuple["Exp", ...]
    span: Span = _span()
    combine: Lambda | None = None


@dataclass(frozen=True)
class Zip:
    args: tuple["Exp", ...]
    span: Span = _span()


@dataclass(frozen=True)
class Iota:
    arg: "Exp"
    span: Span = _span()


@dataclass(frozen=True)
class Transpose:
    arg: "Exp"
    span: Span = _span()


Exp = (
    IntLit | FloatLit | BoolLit | Var | TupleExp | BinOp | UnOp | Index | Call | Let | If
    | Loop | Map | StreamSeq | Zip | Iota | Transpose
)


# ---- program ---------------------------------------------------------------


@dataclass(frozen=True)
class FunDef:
    ret: TypeExp
    name: str
    params: tuple[Param, ...]
    body: Exp
    span: Span = _span()
    name_span: Span = _span()
    # the sizes its type annotations name, which the parser notes as it goes (None: found by a walk)
    type_sizes: frozenset | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class Program:
    funs: tuple[FunDef, ...]
    file: str = field(default="<input>", compare=False)


def is_node(v) -> bool:
    """A node of a syntax tree (an expression, lambda, parameter, function), not a type."""
    return dataclasses.is_dataclass(v) and not isinstance(v, type) and type(v).__module__ == __name__ \
        and not isinstance(v, (TScalar, TArray, TTuple))


quick_constructors(globals())
