"""Welford's running count, mean and M2, recognised by what its loop computes.

A loop carrying a count `k`, a mean `mu` and a sum of squared deviations
`M2`, updated for each element `t` as

    let k2 = k + 1 in let d = t - mu in let mu2 = mu + d / k2 in (k2, mu2, M2 + d * (t - mu2))

(or M2 + d * d * k / k2, or any other spelling of the same values), is a
reduction: two shares (ka, ma, Ma) and (kb, mb, Mb) combine by Chan et
al.'s formula, with k = ka + kb, d = mb - ma and w = kb / k (0 for two
empty shares),

    (k, ma + d * w, Ma + Mb + d * d * ka * w)

an associative and commutative combine whose identity is (0, 0, 0). So its
iterations can be split among a row's threads like a sum's, each share
from (0, 0, 0), the loop's start values combined first (lower/split.py
writes the combine).

As with the online log-sum-exp, the body is evaluated at sample points of
(k, mu, M2, t) (samples.py) and compared with the update above, for each
way of naming the three carried values: counts from 0 to 10^6, means and
elements apart by up to 50 standard units, M2 over nine orders of
magnitude.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from itertools import permutations

from ..check import typed as T
from ..check.types import Scalar
from ..tree import descendants
from .samples import Vocabulary, everywhere, gives, prepared

SAMPLES = 24


@dataclass(frozen=True)
class Welford:
    """Which carried value is the count, which the mean, which M2."""

    count: int
    mean: int
    m2: int


def welford_of(loop: T.Loop) -> Welford | str:
    """The loop as Welford's update, or why it is not one."""
    kinds = [p.type.kind if isinstance(p.type, Scalar) else None for p in loop.params]
    if len(kinds) != 3 or sum(k in ("f32", "f64") for k in kinds) < 2 or None in kinds:
        return "it does not carry a count and two floats"
    found = prepared(loop, WORDS, "Welford's update")
    if isinstance(found, str):
        return found
    body, one = found
    if _ints_by(body, ("/", "*")):  # (the samples divide in floats, and multiply without wrapping around)
        return "its body divides or multiplies integers, which Welford's update does not"
    for order in permutations(range(3)):
        roles = Welford(*order)
        if kinds[roles.mean] in ("f32", "f64") and kinds[roles.m2] in ("f32", "f64") and everywhere(
                body, _points(), lambda point, taken, roles=roles: _matches(body, loop.params, roles, one, point, taken)):
            return roles
    return "its body is not Welford's update of a count, a mean and a sum of squared deviations"


def combine(a: tuple, b: tuple) -> tuple:
    """Two (count, mean, M2) shares combined (what lower/split.py writes)."""
    (ka, ma, sa), (kb, mb, sb) = a, b
    k = ka + kb
    w = kb / k if k else 0.0
    d = mb - ma
    return k, ma + d * w, sa + sb + d * d * ka * w


def _ints_by(body, ops: tuple) -> bool:
    return any(isinstance(n, T.BinOp) and n.op in ops and not (isinstance(n.type, Scalar) and n.type.kind in
                                                              ("f32", "f64")) for n in descendants(body, T.is_exp))


def _points():
    rng = random.Random(0x3e1f)
    for n in range(SAMPLES):
        k = float(n % 3) if n < 6 else float(int(10 ** rng.uniform(0, 6)))
        mu = rng.uniform(-50, 50)
        yield k, mu, 10 ** rng.uniform(-3, 6), mu + rng.uniform(-50, 50)


def _matches(body, params, roles: Welford, one, point, taken: set) -> bool:
    k, mu, m2, t = point
    at = (roles.count, roles.mean, roles.m2)
    d = t - mu
    mean = mu + d / (k + 1)
    return gives(body, dict(zip((params[i] for i in at), (k, mu, m2))), one, t, taken, WORDS,
                 (k + 1, mean, m2 + d * (t - mean)), at, 1e-12)


# the update's vocabulary: + - * /, a count's conversion to a float, the constants 0 and 1
WORDS = Vocabulary({"f32": float, "f64": float},
                   {"+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b,
                    "/": lambda a, b: a / b})
