"""The online log-sum-exp, recognised by what its loop computes.

A loop carrying a running maximum `m` and a sum `s` of exponentials taken
relative to it, which rescales the sum whenever the maximum grows,

    let nm = max(m, t) in (nm, s * exp(m - nm) + exp(t - nm))
    if t > m then (t, s * exp(m - t) + 1) else (m, s + exp(t - m))

folds `(m, s)` so that `s * exp(m)` is the sum of `exp(t)`: two shares
`(m1, s1)` and `(m2, s2)` combine as `(M, s1 * exp(m1 - M) + s2 * exp(m2 -
M))` with `M = max(m1, m2)`, an associative and commutative combine whose
identity is `(-inf, 0)`. A thread's share starts from the lowest finite
number instead (an identity for every finite maximum): from -inf, a share
of elements at -inf alone would meet `exp(-inf - -inf)`, NaN, where the
loop in order has a finite maximum by then. So its iterations can be split among a row's
threads like a sum's (lower/split.py writes the combine).

Spellings differ (a `let` of the new maximum, an `if` on which is larger,
`exp(0)` written 1), so the loop is recognised by its values, not its
text: its body, with every part that reads no carried value the same term
`t` (an element of the row), is evaluated at sample points of (m, s, t) and
compared with the update above. A body that matches at every sample is the
update up to rounding: the samples cover t below, at and above m, and
values of s and of the scale apart enough that a different formula (a
missing rescale, exp of the wrong difference, a sum not rescaled) differs.
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass

from ..check import typed as T
from ..check.types import Scalar
from ..tree import children, descendants

SAMPLES = 24
RTOL = 1e-9  # the body evaluated in double precision against the update: rounding apart, equal


@dataclass(frozen=True)
class Online:
    """The loop's carried values: which is the running maximum, which the rescaled sum."""

    maximum: int
    total: int


def online_of(loop: T.Loop) -> Online | str:
    """The loop as an online log-sum-exp, or why it is not one."""
    if len(loop.params) != 2 or not all(isinstance(p.type, Scalar) and p.type.kind in ("f32", "f64")
                                        for p in loop.params):
        return "it does not carry two floats"
    carried = frozenset(loop.params)
    body = loop.body
    while isinstance(body, T.Let) and not _reads(body.value, carried):
        body = body.body  # lets of the term's parts (they read no carried value)
    term = _term(body, carried)
    if term is None:
        return "the parts of its body that read no carried value are not one term"
    odd = _foreign(body, term)
    if odd:
        return f"its body uses {odd}, which the update of a running maximum and its sum does not"
    for order in ((0, 1), (1, 0)):
        taken: set = set()  # (an if, the branch) met at the samples: each if must go both ways
        if all(_matches(body, loop.params, order, term, point, taken) for point in _points()) and \
                all((id(n), b) in taken for n in descendants(body, T.is_exp) if isinstance(n, T.If) for b in (0, 1)):
            return Online(*order)
    return "its body is not a running maximum with a sum of exponentials rescaled to it"


def _foreign(body, term) -> str:
    """What the body uses, the term aside, beyond the update's own parts
    (exp, max, + - *, comparisons, the literals 0 and 1, lets and ifs), or
    "": a threshold or a clamp the samples might never reach would pass
    them unseen."""
    stack = [body]
    while stack:
        n = stack.pop()
        if n == term:
            continue
        stack.extend(children(n, T.is_exp))
        if isinstance(n, T.Lit) and (isinstance(n.value, bool) or n.value not in (0, 1)):
            return f"the constant {n.value}"
        if isinstance(n, T.Builtin) and n.name not in FUNCTIONS:
            return f"`{n.name}`"
        if isinstance(n, T.BinOp) and n.op not in OPERATORS:
            return f"`{n.op}`"
        if isinstance(n, T.UnOp) and n.op != "-" or isinstance(n, (T.Loop, T.Stream, T.Call)):
            return "a loop" if isinstance(n, (T.Loop, T.Stream)) else f"`{getattr(n, 'op', getattr(n, 'func', ''))}`"
    return ""


def combine(m1: float, s1: float, m2: float, s2: float) -> tuple[float, float]:
    """Two shares combined (what lower/split.py writes): the larger maximum,
    each sum rescaled to it (a share at the maximum kept as it is, so that
    two at -inf or at inf give no nan)."""
    big = max(m1, m2)
    return big, (s1 if m1 == big else s1 * math.exp(m1 - big)) + (s2 if m2 == big else s2 * math.exp(m2 - big))


def _points():
    """(m, s, t) samples: t at m, and below and above it by up to 20 (exp
    of the difference from 2e-9 to 5e8); s over nine orders of magnitude."""
    rng = random.Random(0x0571)
    for n in range(SAMPLES):
        m = rng.uniform(-30, 30)
        t = m if n % 4 == 0 else m + rng.uniform(-20, 20)
        yield m, 10 ** rng.uniform(-3, 6), t


def _matches(body, params, order, term, point, taken: set) -> bool:
    m, s, t = point
    env = {params[order[0]]: m, params[order[1]]: s}
    try:
        got = _value(body, env, term, t, taken)
    except (ValueError, TypeError, ZeroDivisionError, OverflowError, KeyError):
        return False
    if not isinstance(got, tuple) or len(got) != 2:
        return False
    big = max(m, t)
    want = (big, s * math.exp(m - big) + math.exp(t - big))
    got = (got[order[0]], got[order[1]])
    return all(isinstance(g, float) and math.isclose(g, w, rel_tol=RTOL, abs_tol=1e-300) for g, w in zip(got, want))


def _term(body, carried: frozenset):
    """The one expression every part of `body` that reads no carried value
    (nor a `let` of one) is, literals aside; or None."""
    derived = set(carried)
    for n in descendants(body, T.is_exp):  # (a let's value comes before its uses: one pass in order suffices)
        if isinstance(n, T.Let) and _reads(n.value, frozenset(derived)):
            derived.update(n.binders)
    derived = frozenset(derived)
    parts: list = []
    stack = [body]
    while stack:
        e = stack.pop()
        if isinstance(e, T.Lit):
            continue
        if not _reads(e, derived) and not isinstance(e, T.Let):
            parts.append(e)
            continue
        stack.extend(children(e, T.is_exp))
    return parts[0] if parts and all(p == parts[0] for p in parts) else None


# what a body may use besides the term, lets, ifs, negation and the constants 0 and 1 (_foreign), and how
# each is evaluated at the samples
FUNCTIONS = {"exp": math.exp, "max": max}
OPERATORS = {"+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b,
             "<": lambda a, b: a < b, "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b}


def _value(e, env: dict, term, t: float, taken: set):
    """`e` in double precision, with `term` standing for `t` (what _foreign
    lets through; anything else raises); `taken` collects the ifs' branches."""
    if e == term:
        return t
    if isinstance(e, T.Lit):
        return float(e.value) if not isinstance(e.value, bool) else e.value
    if isinstance(e, T.Var):
        return env[e.binder]
    if isinstance(e, T.TupleE):
        return tuple(_value(i, env, term, t, taken) for i in e.items)
    if isinstance(e, T.BinOp):
        return OPERATORS[e.op](_value(e.lhs, env, term, t, taken), _value(e.rhs, env, term, t, taken))
    if isinstance(e, T.UnOp) and e.op == "-":
        return -_value(e.operand, env, term, t, taken)
    if isinstance(e, T.Builtin) and e.name in FUNCTIONS:
        return float(FUNCTIONS[e.name](*(_value(a, env, term, t, taken) for a in e.args)))
    if isinstance(e, T.If):
        branch = 0 if _value(e.cond, env, term, t, taken) else 1
        taken.add((id(e), branch))
        return _value(e.then if branch == 0 else e.else_, env, term, t, taken)
    if isinstance(e, T.Let):
        value = _value(e.value, env, term, t, taken)
        values = value if len(e.binders) > 1 else (value,)
        return _value(e.body, {**env, **dict(zip(e.binders, values))}, term, t, taken)
    raise TypeError(type(e).__name__)


def _reads(e, binders: frozenset) -> bool:
    return any(isinstance(n, T.Var) and n.binder in binders for n in descendants(e, T.is_exp))
