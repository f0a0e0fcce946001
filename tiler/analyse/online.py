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
from .samples import Vocabulary, everywhere, gives, prepared

SAMPLES = 24


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
    found = prepared(loop, WORDS, "the update of a running maximum and its sum")
    if isinstance(found, str):
        return found
    body, one = found
    for order in ((0, 1), (1, 0)):
        if everywhere(body, _points(), lambda point, taken, order=order: _matches(body, loop.params, order, one, point, taken)):
            return Online(*order)
    return "its body is not a running maximum with a sum of exponentials rescaled to it"


def combine(m1: float, s1: float, m2: float, s2: float) -> tuple[float, float]:
    """Two shares combined (what lower/split.py writes): the larger maximum,
    each sum rescaled to it (a share at the maximum kept as it is, so that
    two at -inf or at inf give no nan)."""
    big = max(m1, m2)
    return big, (s1 if m1 == big else s1 * math.exp(m1 - big)) + (s2 if m2 == big else s2 * math.exp(m2 - big))


def _points():
    """(m, s, t) samples: t at m, and below and above it by up to 20 (exp
    of the difference from 2e-9 to 5e8); s over nine orders of magnitude,
    either sign (the update is linear in s: a start sum below zero stays)."""
    rng = random.Random(0x0571)
    for n in range(SAMPLES):
        m = rng.uniform(-30, 30)
        t = m if n % 4 == 0 else m + rng.uniform(-20, 20)
        yield m, (-1) ** n * 10 ** rng.uniform(-3, 6), t  # negative sums too: `max(s, 0)` is not the update


def _matches(body, params, order, one, point, taken: set) -> bool:
    m, s, t = point
    big = max(m, t)
    return gives(body, {params[order[0]]: m, params[order[1]]: s}, one, t, taken, WORDS,
                 (big, s * math.exp(m - big) + math.exp(t - big)), order, 1e-300)


# what a body may use besides the term, lets, ifs, negation and the constants 0 and 1, and how each is
# evaluated at the samples
WORDS = Vocabulary({"exp": math.exp, "max": max},
                   {"+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b,
                    "<": lambda a, b: a < b, "<=": lambda a, b: a <= b, ">": lambda a, b: a > b,
                    ">=": lambda a, b: a >= b})
