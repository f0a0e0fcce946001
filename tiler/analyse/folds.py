"""What makes a loop a reduction (the rows that split one are planned in
reductions.py).

A `loop` (a stream's loop over its chunk, or a plain one) whose every
carried value is combined with one associative, commutative operator
(`acc + t`, `acc * t`, `min(acc, t)`, `max(acc, t)`, where `t` reads no
carried value; `acc - t`, which adds `-t`; any of these under `if`s whose
conditions read no carried value, a path that keeps `acc` adding nothing)
is a reduction, and so are an online log-sum-exp (online.py), Welford's
count, mean and M2 (welford.py), and a streamRed's loop over its chunk,
combined as its program says (`combined`): `operators(loop)` names the operator of each
carried value, or says why the loop is not one. A pair of an extreme value
and its index is one too (`pick_of`). `identity` and `extreme` are the
values the threads sharing a reduction start from.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from .. import target
from ..check import typed as T
from ..check.types import FLOAT_KINDS, Scalar
from ..tree import descendants
from .online import Online, online_of
from .welford import Welford, welford_of


class Operator(Enum):
    ADD = "+"
    MUL = "*"
    MIN = "min"
    MAX = "max"
    ARGMIN = "argmin"  # a minimum and its index, carried as a pair (Pick)
    ARGMAX = "argmax"
    ONLINE_MAX = "online max"  # a running maximum and a sum of exponentials rescaled to it (online.Online)
    RESCALED_SUM = "sum of exp rescaled to it"
    WELFORD_COUNT = "Welford's count"  # a count, a mean and M2 by Welford's update (welford.Welford)
    WELFORD_MEAN = "mean"
    WELFORD_M2 = "M2"
    COMBINE = "the streamRed's combine"  # a streamRed's loop the operators above do not describe (stream.combine)


WELFORD = (Operator.WELFORD_COUNT, Operator.WELFORD_MEAN, Operator.WELFORD_M2)


def label(op: Operator) -> str:
    """An operator in words, as explain says it (Welford's three as one)."""
    return "Welford's count, mean and M2" if op in WELFORD else op.value


def described(ops) -> str:
    """A reduction's operators in words, each once (a pick's pair is one argmin)."""
    return ", ".join(dict.fromkeys(label(op) for op in ops))


@dataclass(frozen=True)
class Pick:
    """`if t < v then (i, t) else (ix, v)`: the pair of an extreme value and
    its index. Threads' shares are combined by value, ties by the iteration
    each came from, so the pair is the one the loop in order would keep."""

    value: int  # the carried value's position among the loop's parameters
    index: int  # the index's
    strict: bool  # `<` (or `>`): the first of equal values is kept; `<=`: the last
    smaller: bool  # a minimum (else a maximum)


def operators(loop: T.Loop) -> tuple[Operator, ...] | str:
    """The operator combining each carried value, or why the loop is not a reduction."""
    carried = frozenset(loop.params)
    online = online_of(loop) if len(loop.params) == 2 else None
    if isinstance(online, Online):
        out = [None, None]
        out[online.maximum], out[online.total] = Operator.ONLINE_MAX, Operator.RESCALED_SUM
        return tuple(out)
    welford = welford_of(loop) if len(loop.params) == 3 else None
    if isinstance(welford, Welford):
        out = [None, None, None]
        out[welford.count], out[welford.mean], out[welford.m2] = WELFORD
        return tuple(out)
    body = loop.body
    while isinstance(body, T.Let):
        if _reads(body.value, carried):
            return f"a `let` in its body reads the carried value `{_names(body.value, carried)}`"
        body = body.body
    if isinstance(body, T.If) and not _reads(body.cond, carried):
        ops = _conditional(loop, body, carried)
        # (a pair that is not such updates may be a pick gone wrong: its reason says more)
        pick = isinstance(ops, str) and not isinstance(ops, Mixed) and len(loop.params) == 2
        return pick_of(loop) if pick else ops
    if isinstance(body, T.If) and len(loop.params) != 2:
        return f"an `if` in its body tests the carried value `{_names(body.cond, carried)}`"
    if isinstance(body, T.If):
        pick = pick_of(loop)
        if isinstance(pick, str):
            return pick
        out = [None, None]
        out[pick.value] = Operator.ARGMIN if pick.smaller else Operator.ARGMAX
        out[pick.index] = out[pick.value]
        return tuple(out)
    return _conditional(loop, body, carried)  # (a body with no `if` around its tuple: one path)


class Mixed(str):
    """Why updates under ifs are no reduction: one carried value meets two
    operators (said as it is; other failures of a pair say a pick's reason)."""


def _values(body, loop: T.Loop) -> tuple | str:
    values = body.items if isinstance(body, T.TupleE) and len(loop.params) > 1 else (body,)
    return values if len(values) == len(loop.params) else "its body does not give one value for each carried value"


def _conditional(loop: T.Loop, body, carried: frozenset) -> tuple[Operator, ...] | str:
    """`if p then a + t else a` (conditions that read no carried value,
    nested, around the tuple or a value of it, each branch keeping a carried
    value or combining it; a body of no `if` is one path): a share
    folded from the identity under the same conditions is still combined by
    the one operator, as `a + (if p then t else 0)` would be."""
    leaves = _leaves(body, carried)
    if isinstance(leaves, str):
        return leaves
    rows = [_values(leaf, loop) for leaf in leaves]
    if any(isinstance(row, str) for row in rows):
        return next(row for row in rows if isinstance(row, str))
    out = []
    for i, param in enumerate(loop.params):
        items = [_leaves(row[i], carried) for row in rows]  # (each value's own `if`s, under the tuple's)
        bad = next((item for item in items if isinstance(item, str)), None)
        op = _operator(param, bad if bad is not None else [leaf for item in items for leaf in item], carried)
        if isinstance(op, str):
            return op
        out.append(op)
    return tuple(out)


def _operator(param, leaves, carried: frozenset) -> Operator | str:
    """The one operator by which `param` is combined on every path (`leaves`:
    its new value on each, or why they are not an if-tree's values), a path
    that keeps it as it is taking any: `if p then a + t else a`, whether the
    `if` gives the whole tuple or this value alone."""
    if isinstance(leaves, str):
        return leaves
    ops = set()
    for leaf in leaves:
        if isinstance(leaf, T.Var) and leaf.binder is param:
            continue  # kept as it is on this path
        op = _combine(param, leaf, carried)
        if isinstance(op, str):
            return op
        ops.add(op)
    if len(ops) > 1:
        return Mixed(f"`{param.name}` is combined with {' and '.join(sorted(o.value for o in ops))} on different "
                     "paths")
    if not isinstance(param.type, Scalar) or param.type.kind == "bool":
        return f"`{param.name}` is not a number"
    return ops.pop() if ops else Operator.ADD  # (never changed: any operator keeps it)


def _leaves(e, carried: frozenset) -> list | str:
    """The values an `if` tree gives, or why it is not one of conditions
    that read no carried value."""
    while isinstance(e, T.Let):
        if _reads(e.value, carried):
            return f"a `let` in its body reads the carried value `{_names(e.value, carried)}`"
        e = e.body
    if not isinstance(e, T.If):
        return [e]
    if _reads(e.cond, carried):
        return f"an `if` in its body tests the carried value `{_names(e.cond, carried)}`"
    then, else_ = _leaves(e.then, carried), _leaves(e.else_, carried)
    return then if isinstance(then, str) else else_ if isinstance(else_, str) else then + else_


FLIPPED = {"<": ">", "<=": ">=", ">": "<", ">=": "<="}


def pick_of(loop: T.Loop) -> Pick | str:
    """The loop as `if t < v then (i, t) else (ix, v)` (any comparison, either
    side), or why it is not."""
    carried = frozenset(loop.params)
    body = loop.body
    while isinstance(body, T.Let):
        body = body.body
    if not (isinstance(body, T.If) and isinstance(body.then, T.TupleE) and isinstance(body.else_, T.TupleE)):
        return "its body does not give one value for each carried value"
    kept = [e.binder if isinstance(e, T.Var) else None for e in body.else_.items]
    if kept != list(loop.params):
        return "its `else` does not keep the carried values as they are"
    c = body.cond
    if not (isinstance(c, T.BinOp) and c.op in FLIPPED):
        return "its `if` is not a comparison of a carried value"
    op, lhs, rhs = c.op, c.lhs, c.rhs
    if isinstance(lhs, T.Var) and lhs.binder in carried:  # `v > t` is `t < v`
        op, lhs, rhs = FLIPPED[op], rhs, lhs
    if not (isinstance(rhs, T.Var) and rhs.binder in carried) or _reads(lhs, carried):
        return "its `if` does not compare a term with one carried value"
    value = loop.params.index(rhs.binder)
    index = 1 - value
    then = body.then.items
    if then[value] != lhs or _reads(then[index], carried):
        return "its `then` does not take the compared term and an index that reads no carried value"
    if not isinstance(loop.params[value].type, Scalar) or loop.params[value].type.kind == "bool":
        return f"`{loop.params[value].name}` is not a number"
    if not isinstance(loop.params[index].type, Scalar):
        return f"`{loop.params[index].name}` is not a scalar"
    return Pick(value, index, op in ("<", ">"), op in ("<", "<="))


def _combine(param, value, carried) -> Operator | str:
    found = combined_with(param, value)
    if isinstance(found, str):
        return found
    op, other = found
    if _reads(other, carried):
        taken = "taken from" if op is Operator.ADD and isinstance(value, T.BinOp) and value.op == "-" else \
            "combined with"
        return f"the term {taken} `{param.name}` reads the carried value `{_names(other, carried)}`"
    return op


def combined_with(param, value) -> tuple[Operator, object] | str:
    """`value` as `param` combined with a term (`a + t`, `t * a`, `min(a,
    t)`, `a - t`, which adds -t): the operator and the term, or why it is
    not one."""
    if not isinstance(param.type, Scalar) or param.type.kind == "bool":
        return f"`{param.name}` is not a number"
    if isinstance(value, T.BinOp) and value.op in ("+", "*"):
        pair = (value.lhs, value.rhs)
        op = Operator(value.op)
    elif isinstance(value, T.BinOp) and value.op == "-" and isinstance(value.lhs, T.Var) and \
            value.lhs.binder is param:  # `a - t` adds -t: a share from 0 sums the terms taken away
        return Operator.ADD, value.rhs
    elif isinstance(value, T.Builtin) and value.name in ("min", "max"):
        pair = value.args
        op = Operator(value.name)
    else:
        return f"`{param.name}` is not combined with +, -, *, min or max"
    own = [a for a in pair if isinstance(a, T.Var) and a.binder is param]
    if len(own) != 1:
        return f"`{param.name}` is not one operand of its {op.value}"
    return op, pair[1] if pair[0] is own[0] else pair[0]


def _reads(e, binders: frozenset) -> bool:
    return any(isinstance(n, T.Var) and n.binder in binders for n in descendants(e, T.is_exp))


def _names(e, binders: frozenset) -> str:
    return next(n.binder.name for n in descendants(e, T.is_exp) if isinstance(n, T.Var) and n.binder in binders)


def identity(op: Operator, kind: str):
    """The operator's identity for a scalar kind: -0.0 for a float sum (so
    that a sum of -0.0 stays -0.0); for a float minimum or maximum NaN,
    which `fmin` and `fmax` pass over (so that a row of NaN stays NaN, as
    the loop in order leaves it); the largest int for an int minimum."""
    floating = kind in FLOAT_KINDS
    if op is Operator.ADD:
        return -0.0 if floating else 0
    if op is Operator.MUL:
        return 1.0 if floating else 1
    if floating:
        return float("nan")
    return extreme(op is Operator.MIN, kind)


def extreme(smaller: bool, kind: str):
    """The value every other one beats in a comparison (`<` for a minimum):
    +inf (-inf) for floats, the largest (smallest) int."""
    floating = kind in FLOAT_KINDS
    big = float("inf") if floating else {"i32": target.INT_MAX, "i64": 2**63 - 1}[kind]
    if smaller:
        return big
    return -big if floating else -big - 1


def combined(stream: T.Stream, loop: T.Loop) -> bool:
    """Whether `loop` is a streamRed's fold over its chunk, so that lanes
    may each fold a share from the stream's initial values and merge their
    partial results with its combine: the stream's whole body, carrying its
    accumulators in order over the chunk and giving them back."""
    if stream.combine is None or stream.body is not loop:
        return False
    carried = all(isinstance(i, T.Var) and i.binder is a for i, a in zip(loop.inits, stream.acc_params))
    rest = loop.rest.items if isinstance(loop.rest, T.TupleE) else (loop.rest,)
    returned = all(isinstance(r, T.Var) and r.binder is b for r, b in zip(rest, loop.results))
    over = isinstance(loop.bound, T.Var) and loop.bound.binder is stream.chunk
    return carried and returned and over and len(loop.inits) == len(stream.acc_params) == len(rest)
