"""A point's body where the point lies inside every edge by a window's extent.

A stencil guards its reads at the array's edges (`if y - r >= 0 then
u[z, y - r, x] else 0`, `u[min(y + r, n - 1)]`). For a point at least
`low[d]` from the start of dimension d and `high[d]` from its end, with the
offsets the windows read, those tests have one answer: this module rewrites
a body so that every comparison, `&&`, `||`, `if`, `min` and `max` the facts
decide is its answer, and leaves every other one as it is. The march
(lower/march.py) runs this body for the steps whose points all lie inside,
where a kernel would otherwise test every read.

An integer expression is understood as an affine form over the points'
indices, the dimensions' sizes and the indices of loops of known counts
(through `let`s); a comparison is decided where the form's smallest and
largest values under the facts are numbers (each size cancels out) on one
side of 0. Integer arithmetic wraps (docs/language.md): a comparison,
`min` or `max` is decided only where each operand's value stays within its
type for every point the facts allow and every size an `int` can hold (its
wrapped value is then its value, whatever its parts did), so `z + r < n`
is decided and `z + 2147483647 > 0` is not.
"""
from __future__ import annotations

import dataclasses

from ..check import typed as T
from ..check.types import I64, Binder
from ..tree import map_children

COMPARISONS = ("<", "<=", ">", ">=", "==", "!=")
SIZE_MOST = 2**31 - 1  # a size is an int


@dataclasses.dataclass(frozen=True)
class Facts:
    """Each point index's dimension (`dims`: binder -> dim), each
    dimension's size binder (or number) and its margins: the point lies in
    [low[d], size[d] - 1 - high[d]]."""

    dims: dict
    sizes: dict
    low: dict
    high: dict


def inside(e, facts: Facts):
    """`e` with what `facts` decide decided."""
    return _Simplifier(facts).exp(e, {})


class _Simplifier:
    def __init__(self, facts: Facts):
        self.facts = facts
        self.size_binders = {s for s in facts.sizes.values() if isinstance(s, Binder)}
        # each size's least value: a dimension of it holds a point inside, its margins either side
        self.least: dict = {}
        for d, size in facts.sizes.items():
            if isinstance(size, Binder):
                self.least[size] = max(self.least.get(size, 1), facts.low[d] + facts.high[d] + 1)

    def exp(self, e, scope: dict):
        """`scope`: a let's or loop index's binder -> its form (None: not affine)."""
        if isinstance(e, T.Let):
            value = self.exp(e.value, scope)
            inner = dict(scope)
            if len(e.binders) == 1:
                inner[e.binders[0]] = self.form(value, scope)
            return dataclasses.replace(e, value=value, body=self.exp(e.body, inner))
        if isinstance(e, T.Loop):
            inits = tuple(self.exp(i, scope) for i in e.inits)
            count = e.bound.value if isinstance(e.bound, T.Lit) and isinstance(e.bound.value, int) else None
            inner = {**scope, **{p: None for p in e.params}}
            if count is not None and count > 0:  # (an index of a loop of unknown count is no affine term)
                inner[e.index], inner[("count", e.index)] = ({("t", e.index): 1}, 0), count
            else:
                inner[e.index] = None
            body = self.exp(e.body, inner)
            rest = self.exp(e.rest, {**scope, **{b: None for b in e.results}})
            return dataclasses.replace(e, inits=inits, body=body, rest=rest)
        if isinstance(e, T.If):
            cond = self.exp(e.cond, scope)
            if isinstance(cond, T.Lit) and isinstance(cond.value, bool):
                return self.exp(e.then if cond.value else e.else_, scope)
            return dataclasses.replace(e, cond=cond, then=self.exp(e.then, scope), else_=self.exp(e.else_, scope))
        if isinstance(e, T.BinOp) and e.op in COMPARISONS:
            answer = self.decided(e, scope)
            if answer is not None:
                return T.Lit(answer, e.type, e.span)
        if isinstance(e, T.BinOp) and e.op in ("&&", "||"):
            lhs, rhs = self.exp(e.lhs, scope), self.exp(e.rhs, scope)
            short = e.op == "||"  # the value that decides the whole
            for a, b in ((lhs, rhs), (rhs, lhs)):
                if isinstance(a, T.Lit) and isinstance(a.value, bool):
                    return T.Lit(short, e.type, e.span) if a.value == short else b
            return dataclasses.replace(e, lhs=lhs, rhs=rhs)
        if isinstance(e, T.Builtin) and e.name in ("min", "max") and len(e.args) == 2:
            a, b = (self.exp(x, scope) for x in e.args)
            low, high = self.bounds(self.difference(a, b, scope), scope)  # of a - b; None: unknown
            a_first = high is not None and high <= 0  # a <= b
            b_first = low is not None and low >= 0  # b <= a
            if (e.name == "min" and a_first) or (e.name == "max" and b_first):
                return a
            if (e.name == "min" and b_first) or (e.name == "max" and a_first):
                return b
            return dataclasses.replace(e, args=(a, b))
        return map_children(e, lambda c: self.exp(c, scope), T.is_exp)

    def decided(self, e: T.BinOp, scope: dict) -> bool | None:
        """A comparison's answer for every point the facts allow, or None."""
        low, high = self.bounds(self.difference(e.lhs, e.rhs, scope), scope)  # of lhs - rhs; None: unknown
        above, below = low is not None and low > 0, high is not None and high < 0
        at_least, at_most = low is not None and low >= 0, high is not None and high <= 0
        always = {"<": below, "<=": at_most, ">": above, ">=": at_least, "==": at_least and at_most,
                  "!=": above or below}[e.op]
        never = {"<": at_least, "<=": above, ">": at_most, ">=": below, "==": above or below,
                 "!=": at_least and at_most}[e.op]
        return True if always else False if never else None

    def difference(self, a, b, scope: dict):
        """The form of `a - b`, or None where either is no form or may wrap."""
        fa, fb = self.form(a, scope), self.form(b, scope)
        if fa is None or fb is None or not (self.fits(fa, a.type, scope) and self.fits(fb, b.type, scope)):
            return None
        return _combine(fa, fb, -1)

    def fits(self, f, type_, scope: dict) -> bool:
        """Whether form `f` stays within its type's values for every point and size."""
        most = 2**63 - 1 if type_ == I64 else 2**31 - 1
        ends = []
        for side in (1, -1):
            value, sizes = self.reach(f, scope, side)
            for size, c in sizes.items():  # each size where it takes the form furthest
                value += c * (self.least[size] if c * side > 0 else SIZE_MOST)
            ends.append(value)
        return -most - 1 <= ends[0] and ends[1] <= most

    def form(self, e, scope: dict):
        """(coefficients by term, constant), or None where `e` is not affine in what the facts know."""
        if isinstance(e, T.Lit):
            return ({}, e.value) if isinstance(e.value, int) and not isinstance(e.value, bool) else None
        if isinstance(e, T.Var):
            b = e.binder
            if b in scope:
                return scope[b]
            if b in self.facts.dims:
                return {("p", self.facts.dims[b]): 1}, 0
            if b in self.size_binders:
                return {("n", b): 1}, 0
            return None
        if isinstance(e, T.BinOp) and e.op in ("+", "-"):
            a, b = self.form(e.lhs, scope), self.form(e.rhs, scope)
            return None if a is None or b is None else _combine(a, b, 1 if e.op == "+" else -1)
        if isinstance(e, T.BinOp) and e.op == "*":
            a, b = self.form(e.lhs, scope), self.form(e.rhs, scope)
            if a is None or b is None:
                return None
            for x, y in ((a, b), (b, a)):
                if not x[0]:
                    return {k: c * x[1] for k, c in y[0].items()}, y[1] * x[1]
            return None
        if isinstance(e, T.UnOp) and e.op == "-":
            a = self.form(e.operand, scope)
            return None if a is None else ({k: -c for k, c in a[0].items()}, -a[1])
        return None

    def bounds(self, f, scope: dict) -> tuple[int | None, int | None]:
        """The smallest and largest values of form `f` for every point the facts allow (None: not a number)."""
        if f is None:
            return None, None
        return self.end(f, scope, 1), self.end(f, scope, -1)

    def end(self, f, scope: dict, side: int) -> int | None:
        """The form's least value (`side` 1) or greatest (-1), where each size cancels out."""
        value, sizes = self.reach(f, scope, side)
        return None if sizes else value

    def reach(self, f, scope: dict, side: int) -> tuple[int, dict]:
        """The form's least (`side` 1) or greatest (-1) value over the points
        and loop indices: a number plus a multiple of each size binder."""
        terms, value = f
        sizes: dict = {}
        for (kind, key), c in terms.items():
            if kind == "t":  # a loop's index in [0, count - 1]
                value += 0 if c * side > 0 else c * (scope[("count", key)] - 1)
                continue
            if kind == "p" and c * side > 0:  # the point in [low, size - 1 - high]
                value += c * self.facts.low[key]
                continue
            if kind == "p":  # the point at its largest: its size less 1 and its margin
                value += c * (-1 - self.facts.high[key])
                key = self.facts.sizes[key]
            if isinstance(key, int):  # a literal size
                value += c * key
            else:
                sizes[key] = sizes.get(key, 0) + c
        return value, {k: c for k, c in sizes.items() if c}


def _combine(a, b, sign: int):
    terms = dict(a[0])
    for k, c in b[0].items():
        terms[k] = terms.get(k, 0) + sign * c
    return {k: c for k, c in terms.items() if c}, a[1] + sign * b[1]
