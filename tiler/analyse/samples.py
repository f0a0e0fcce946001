"""A loop's body evaluated at sample points, for the reductions recognised
by what they compute rather than how they are spelled (online.py: the
online log-sum-exp; welford.py: Welford's running mean and M2).

The parts of the body that read no carried value must all be one term `t`
(an element of the row: `term`); the body is then a function of the
carried values and `t`, evaluated in double precision (`value`) over a
small vocabulary (`Vocabulary`): anything else (`foreign`) is refused, as
a threshold or a clamp the samples never reach would pass them unseen.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from ..check import typed as T
from ..tree import children, descendants

ERRORS = (ValueError, TypeError, ZeroDivisionError, OverflowError, KeyError)  # a sample the body cannot take


@dataclass(frozen=True)
class Vocabulary:
    """What a body may use besides the term, lets, ifs and negation: its
    functions and operators (each with how it is evaluated) and constants."""

    functions: dict
    operators: dict
    constants: tuple = (0, 1)


def prepared(loop: T.Loop, words: Vocabulary, update: str):
    """(the body past the lets of its term's parts, the term), or why the
    loop cannot be `update` (in words: "Welford's update")."""
    carried = frozenset(loop.params)
    body = loop.body
    while isinstance(body, T.Let) and not reads(body.value, carried):
        body = body.body  # lets of the term's parts (they read no carried value)
    one = term(body, carried)
    if one is None:
        return "the parts of its body that read no carried value are not one term"
    odd = foreign(body, one, words)
    return f"its body uses {odd}, which {update} does not" if odd else (body, one)


RTOL = 1e-9  # the body evaluated in double precision against the update: rounding apart, equal


def gives(body, env: dict, one, t: float, taken: set, words: Vocabulary, want: tuple, at: tuple,
          floor: float) -> bool:
    """Whether the body, with the carried values `env` and the term `t`,
    gives a tuple whose values at positions `at` are `want`, rounding apart
    (absolute slack `floor` times 1 + the value)."""
    try:
        got = value(body, env, one, t, taken, words)
    except ERRORS:
        return False
    if not isinstance(got, tuple) or len(got) != len(want):
        return False
    return all(isinstance(got[i], float) and math.isclose(got[i], w, rel_tol=RTOL, abs_tol=floor * (1 + abs(w)))
               for i, w in zip(at, want))


def everywhere(body, points, matches) -> bool:
    """`matches(point, taken)` at every sample point, and every `if` of the
    body gone both ways (`taken` collects the branches)."""
    taken: set = set()
    return all(matches(point, taken) for point in points) and both_ways(body, taken)


def term(body, carried: frozenset):
    """The one expression every part of `body` that reads no carried value
    (nor a `let` of one) is, literals aside; or None."""
    derived = set(carried)
    for n in descendants(body, T.is_exp):  # (a let's value comes before its uses: one pass in order suffices)
        if isinstance(n, T.Let) and reads(n.value, frozenset(derived)):
            derived.update(n.binders)
    derived = frozenset(derived)
    parts: list = []
    stack = [body]
    while stack:
        e = stack.pop()
        if isinstance(e, T.Lit):
            continue
        if not reads(e, derived) and not isinstance(e, T.Let):
            parts.append(e)
            continue
        stack.extend(children(e, T.is_exp))
    return parts[0] if parts and all(p == parts[0] for p in parts) else None


def foreign(body, term, words: Vocabulary) -> str:
    """What the body uses, the term aside, beyond `words` (and lets, ifs
    and negation), or ""."""
    stack = [body]
    while stack:
        n = stack.pop()
        if n == term:
            continue
        stack.extend(children(n, T.is_exp))
        if isinstance(n, T.Lit) and (isinstance(n.value, bool) or n.value not in words.constants):
            return f"the constant {n.value}"
        if isinstance(n, T.Builtin) and n.name not in words.functions:
            return f"`{n.name}`"
        if isinstance(n, T.BinOp) and n.op not in words.operators:
            return f"`{n.op}`"
        if isinstance(n, T.UnOp) and n.op != "-" or isinstance(n, (T.Loop, T.Stream, T.Call)):
            return "a loop" if isinstance(n, (T.Loop, T.Stream)) else f"`{getattr(n, 'op', getattr(n, 'func', ''))}`"
    return ""


def value(e, env: dict, term, t: float, taken: set, words: Vocabulary):
    """`e` in double precision, with `term` standing for `t` (what `foreign`
    lets through; anything else raises); `taken` collects the ifs' branches."""
    def at(x, scope=env):
        return value(x, scope, term, t, taken, words)
    if e == term:
        return t
    if isinstance(e, T.Lit):
        return float(e.value) if not isinstance(e.value, bool) else e.value
    if isinstance(e, T.Var):
        return env[e.binder]
    if isinstance(e, T.TupleE):
        return tuple(at(i) for i in e.items)
    if isinstance(e, T.BinOp):
        return words.operators[e.op](at(e.lhs), at(e.rhs))
    if isinstance(e, T.UnOp) and e.op == "-":
        return -at(e.operand)
    if isinstance(e, T.Builtin) and e.name in words.functions:
        return float(words.functions[e.name](*(at(a) for a in e.args)))
    if isinstance(e, T.If):
        branch = 0 if at(e.cond) else 1
        taken.add((id(e), branch))
        return at(e.then if branch == 0 else e.else_)
    if isinstance(e, T.Let):
        got = at(e.value)
        values = got if len(e.binders) > 1 else (got,)
        return at(e.body, {**env, **dict(zip(e.binders, values))})
    raise TypeError(type(e).__name__)


def both_ways(body, taken: set) -> bool:
    """Every `if` of the body went both ways at the samples."""
    return all((id(n), b) in taken for n in descendants(body, T.is_exp) if isinstance(n, T.If) for b in (0, 1))


def reads(e, binders: frozenset) -> bool:
    return any(isinstance(n, T.Var) and n.binder in binders for n in descendants(e, T.is_exp))
