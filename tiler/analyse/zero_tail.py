"""Whether a stream's last chunk may run whole over the zeros past its end.

TMA writes zeros where a box runs past an array's end, so the last, partial
chunk's tiles hold zeros past the stream's end. A body that keeps its
accumulators as they are at such positions can run that chunk whole, as it
runs every other, and the loop's end can be rounded up to whole rounds of
the buffers (the form timed: lower/tma_pipeline.py); any other body must
run the last chunk's own length, a second copy of the loop.

Decided from the body's algebra, never its name: a loop over the chunk that
sets each accumulator to itself plus (or minus) a term that is exactly zero
where every chunk element read at the loop's index is zero, from a start
that is not -0 (-0 + +0 is +0; from any other start, under round-to-nearest,
a sum of such steps never reaches -0, and adding a zero to it changes no
bit). `acc + t * t` with `t = x[k] - y[k]` adds +0 there; `min(d, x[k] +
y[k])` would take 0, and `acc + w * x[k]` adds NaN for an infinite `w`, so
neither qualifies. Under `--fast-math` a product's factors may be regrouped
(transform/reassociate.py: `x[k] * 3e38 * 3e38` as `inf * x[k]`), so there
only a product of two zero terms counts.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..check import typed as T
from ..check.types import Scalar
from ..tree import descendants

# a builtin whose value is zero where its arguments all are
ZERO_AT_ZERO = frozenset({"f16", "bf16", "f32", "f64", "int", "i32", "i64", "abs", "sqrt", "min", "max"})
# a conversion whose value is finite for any integer (an f16 overflows past 65504)
FINITE_FROM_INTEGERS = frozenset({"f32", "f64", "bf16"})


@dataclass(frozen=True)
class ZeroTail:
    """Whether the last chunk runs whole (`whole`), and why or why not."""

    whole: bool
    reason: str


def zero_tail(stream: T.Stream, all_copied: bool, regrouped: bool = False) -> ZeroTail:
    """Whether `stream`'s body, on a chunk whose copied elements past the
    stream's end are zero, leaves its accumulators as they are there
    (`all_copied`: every input is copied, none read in place or computed;
    `regrouped`: products may be regrouped, --fast-math)."""
    if not all_copied:
        return ZeroTail(False, "an input is not copied (read in place or computed), and its elements past the "
                               "stream's end are no zeros")
    chunks = set(stream.chunk_params)
    if any(not (isinstance(n.array, T.Var) and n.array.binder in chunks)
           for n in descendants(stream.body, T.is_exp) if isinstance(n, T.Index)):
        return ZeroTail(False, "the body reads an array other than its chunks")
    loop = stream.body
    if not (isinstance(loop, T.Loop) and _is_var(loop.bound, stream.chunk) and
            len(loop.inits) == len(stream.acc_params) and
            all(_is_var(i, a) for i, a in zip(loop.inits, stream.acc_params)) and _returns(loop)):
        return ZeroTail(False, "the body is not one loop over the chunk from the accumulators to its results")
    updates = _updates(loop.body, len(loop.params), {})
    if updates is None:
        return ZeroTail(False, "the loop's body is not a tuple of the accumulators' new values")
    zero = _Zero(chunks, loop.index, regrouped)
    for param, init, (update, env) in zip(loop.params, stream.inits, updates):
        if not _adds(update, param, zero, env):
            return ZeroTail(False, f"{param.name}'s new value where the chunk's elements are zero is not provably "
                                   f"{param.name} plus zero")
        if _maybe_negative_zero(init):
            return ZeroTail(False, f"{param.name} starts at a value that may be -0, which adding +0 would make +0")
    return ZeroTail(True, "the zeros TMA writes past the arrays' ends add nothing to the sums")


def _is_var(e, binder) -> bool:
    return isinstance(e, T.Var) and e.binder == binder


def _returns(loop: T.Loop) -> bool:
    """Whether the loop's `rest` is its results as they are, in order."""
    items = loop.rest.items if isinstance(loop.rest, T.TupleE) else (loop.rest,)
    return len(items) == len(loop.results) and all(_is_var(i, r) for i, r in zip(items, loop.results))


def _updates(body, count: int, env: dict) -> list | None:
    """Each parameter's new value with the lets it sees (zero or not), through the body's lets."""
    if isinstance(body, T.Let):
        if len(body.binders) != 1:
            return None
        return _updates(body.body, count, {**env, body.binders[0]: body.value})
    items = body.items if isinstance(body, T.TupleE) else (body,)
    return [(item, env) for item in items] if len(items) == count else None


def _adds(update, param, zero: _Zero, env: dict) -> bool:
    """Whether `update` is `param + z`, `z + param` or `param - z` with z zero at zeros."""
    if not (isinstance(update, T.BinOp) and update.op in "+-"):
        return False
    sides = ((update.lhs, update.rhs),) if update.op == "-" else ((update.lhs, update.rhs), (update.rhs, update.lhs))
    return any(_is_var(mine, param) and zero(term, env) for mine, term in sides)


def _maybe_negative_zero(init) -> bool:
    """Whether a start may be -0: a float that is not a literal, or the literal -0."""
    if isinstance(init.type, Scalar) and init.type.is_int:
        return False
    return not isinstance(init, T.Lit) or init.value == 0 and math.copysign(1.0, init.value) < 0


class _Zero:
    """Whether an expression is exactly zero where every chunk element read at the loop's index is (each let's
    answer kept: a chain of lets that each use the last twice is asked once a let)."""

    def __init__(self, chunks: set, index, regrouped: bool) -> None:
        self.chunks, self.index, self.regrouped, self.known = chunks, index, regrouped, {}

    def __call__(self, e, env: dict) -> bool:
        if isinstance(e, T.Lit):
            return not isinstance(e.value, bool) and e.value == 0
        if isinstance(e, T.Var):
            if e.binder not in self.known:
                self.known[e.binder] = e.binder in env and self(env[e.binder], env)
            return self.known[e.binder]
        if isinstance(e, T.Index):
            return e.array.binder in self.chunks and len(e.indices) == 1 and _is_var(e.indices[0], self.index)
        if isinstance(e, T.Let):
            return len(e.binders) == 1 and self(e.body, {**env, e.binders[0]: e.value})
        if isinstance(e, T.UnOp):
            return e.op == "-" and self(e.operand, env)
        if isinstance(e, T.If):
            return self(e.then, env) and self(e.else_, env)
        if isinstance(e, T.Builtin):
            return e.name in ZERO_AT_ZERO and all(self(a, env) for a in e.args)
        if isinstance(e, T.BinOp):
            return self._binop(e, env)
        return False

    def _binop(self, e: T.BinOp, env: dict) -> bool:
        if e.op in ("+", "-"):
            return self(e.lhs, env) and self(e.rhs, env)
        if e.op == "*":  # zero times a finite value: not an array's element, which may be infinite
            if self.regrouped:
                return self(e.lhs, env) and self(e.rhs, env)
            return any(self(a, env) and (self(b, env) or _finite(b, env)) for a, b in ((e.lhs, e.rhs), (e.rhs, e.lhs)))
        if e.op == "/":  # (a literal's value in its type: 1e-50f32 is 0)
            return not self.regrouped and self(e.lhs, env) and isinstance(e.rhs, T.Lit) and _in_type(e.rhs) != 0
        return False


def _finite(e, env: dict) -> bool:
    """Whether `e` is surely finite: a finite literal, an integer, or a float converted from one."""
    while isinstance(e, T.Var) and e.binder in env:
        e = env[e.binder]
    if isinstance(e, T.Lit):
        return not isinstance(e.value, float) or abs(e.value) != float("inf")
    if _integer(e):
        return True
    return isinstance(e, T.Builtin) and e.name in FINITE_FROM_INTEGERS and len(e.args) == 1 and _integer(e.args[0])


def _in_type(lit: T.Lit) -> float:
    """A float literal's value as its type holds it (f16 and bf16 literals are rounded already: check/arithmetic)."""
    return float(np.float32(lit.value)) if lit.type.kind == "f32" else lit.value


def _integer(e) -> bool:
    return isinstance(e.type, Scalar) and e.type.is_int
