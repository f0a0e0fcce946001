"""Floating-point sums and products reordered, under `--fast-math` only.

IEEE arithmetic is not associative, so by default tiler computes every
expression in the program's order. With `--fast-math` the order is free, and
two reorderings pay in inner loops:

- In a sum, the terms computed in outer loops come first (so that nvcc hoists
  their part out of the loop), then the plain terms, then the products, so
  that each product fuses with the running sum into one multiply-add:
  `dx*dx + dy*dy + eps` is a multiply and three adds in the program's order,
  `eps + dx*dx + dy*dy` two multiply-adds. A loop's carried value goes last,
  so its chain of dependent additions is never longer than the program's.
- In a product, the factors computed in outer loops come first, and a chain
  is grouped from the left: `q * (s * dx)` and `q * (s * dy)` become
  `(q * s) * dx` and `(q * s) * dy`, whose common part nvcc computes once.

The rewrite never crosses a `let`: a named value stays one value. The level
of a name is the depth of the loops whose iterations it changes with (0:
the same for the whole thread), from `loop_levels(kernel)`.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..check import typed as T
from ..check.types import Binder, Scalar
from ..tree import children

NAME = "reassociate"
SUM = ("+", "-")


@dataclass(frozen=True)
class Level:
    depth: int  # loops (and streams) around the binding whose iterations it changes with
    carried: bool = False  # a loop's or a stream's accumulator, inside its body


def loop_levels(kernel: T.Kernel) -> dict[Binder, Level]:
    """The level of every name the kernel's sequential body binds; names
    bound outside it (main's parameters, sizes, the map parameters and
    lets) are constant for a thread, level 0."""
    out: dict[Binder, Level] = {}
    _bind(kernel.body, 0, out)
    return out


def _bind(e, depth: int, out: dict) -> None:
    if isinstance(e, T.Let):
        _bind(e.value, depth, out)  # first: a let inside the value has its level when the value is measured
        inner = depth if _has_loop(e.value) else min(depth, depth_of(e.value, out))
        for b in e.binders:
            out[b] = Level(inner)
        _bind(e.body, depth, out)
    elif isinstance(e, T.Loop):
        for x in e.inits + (e.bound,):
            _bind(x, depth, out)
        out[e.index] = Level(depth + 1)
        out.update({p: Level(depth + 1, carried=True) for p in e.params})
        _bind(e.body, depth + 1, out)
        out.update({r: Level(depth) for r in e.results})
        _bind(e.rest, depth, out)
    elif isinstance(e, T.Stream):
        for x in e.arrays + e.inits:
            _bind(x, depth, out)
        out.update({b: Level(depth + 1) for b in (e.offset, e.chunk) + e.chunk_params})
        out.update({p: Level(depth + 1, carried=True) for p in e.acc_params})
        _bind(e.body, depth + 1, out)
    else:
        for c in children(e, T.is_exp):
            _bind(c, depth, out)


def _has_loop(e) -> bool:
    return isinstance(e, (T.Loop, T.Stream)) or any(_has_loop(c) for c in children(e, T.is_exp))


def depth_of(e, out: dict) -> int:
    """The deepest level among the names `e` reads."""
    if isinstance(e, T.Var):
        return out[e.binder].depth if e.binder in out else 0
    return max((depth_of(c, out) for c in children(e, T.is_exp)), default=0)


def _carried(e, out: dict) -> bool:
    return isinstance(e, T.Var) and e.binder in out and out[e.binder].carried


def is_float_arithmetic(e) -> bool:
    """A float +, -, * or negation: a node of a chain this module reorders
    (not of f16 or bf16, each of whose operations rounds in its own
    conversions: lower/narrow.py)."""
    if not (isinstance(e.type, Scalar) and e.type.is_float and not e.type.is_narrow):
        return False
    return (isinstance(e, T.BinOp) and e.op in SUM + ("*",)) or (isinstance(e, T.UnOp) and e.op == "-")


def reassociate(e, out: dict):
    """`e` with its chains of float sums and products reordered (see above);
    nodes that are not float arithmetic are returned as they are."""
    if not is_float_arithmetic(e):
        return e
    if isinstance(e, T.BinOp) and e.op == "*":
        sign, factors = _negated_constant(*_factors(e, 1, out))
        return _signed(sign, _product(factors, e, out), e)
    return _sum(_terms(e, 1, out), e, out)


def _terms(e, sign: int, out: dict) -> list[tuple[int, object]]:
    """A sum flattened into signed terms, each term already reordered."""
    if is_float_arithmetic(e) and isinstance(e, T.BinOp) and e.op in SUM:
        return _terms(e.lhs, sign, out) + _terms(e.rhs, sign if e.op == "+" else -sign, out)
    if is_float_arithmetic(e) and isinstance(e, T.UnOp):
        return _terms(e.operand, -sign, out)
    if is_float_arithmetic(e):  # a product: its sign joins the term's
        s, factors = _factors(e, sign, out)
        return [(s, _product(factors, e, out))]
    return [(sign, e)]


def _factors(e, sign: int, out: dict) -> tuple[int, list]:
    if is_float_arithmetic(e) and isinstance(e, T.BinOp) and e.op == "*":
        sign, left = _factors(e.lhs, sign, out)
        sign, right = _factors(e.rhs, sign, out)
        return sign, left + right
    if is_float_arithmetic(e) and isinstance(e, T.UnOp):
        return _factors(e.operand, -sign, out)
    return sign, [reassociate(e, out)]


def _negated_constant(sign: int, factors: list) -> tuple[int, list]:
    """A negative product with a constant factor negates the constant instead."""
    lits = [i for i, f in enumerate(factors) if isinstance(f, T.Lit)]
    if sign > 0 or not lits:
        return sign, factors
    i = lits[0]
    return 1, factors[:i] + [T.Lit(-factors[i].value, factors[i].type, factors[i].span)] + factors[i + 1:]


def _product(factors: list, like, out: dict):
    ordered = sorted(factors, key=lambda f: (_carried(f, out), depth_of(f, out)))
    acc = ordered[0]
    for f in ordered[1:]:
        acc = T.BinOp("*", acc, f, like.type, like.span)
    return acc


def _sum(terms: list, like, out: dict):
    def key(term):
        node = term[1]
        return (_carried(node, out), depth_of(node, out), isinstance(node, T.BinOp) and node.op == "*")
    ordered = sorted(terms, key=key)
    sign, acc = ordered[0]
    acc = _signed(sign, acc, like)
    for sign, node in ordered[1:]:
        acc = T.BinOp("+" if sign > 0 else "-", acc, node, like.type, like.span)
    return acc


def _signed(sign: int, e, like):
    return e if sign > 0 else T.UnOp("-", e, like.type, like.span)
