"""Welford's running count, mean and M2, recognised by what its loop
computes (tiler/analyse/welford.py), and Chan's combine."""
from __future__ import annotations

import random
import statistics

import pytest

from tiler.analyse import Options
from tiler.analyse.folds import Operator, operators
from tiler.analyse.welford import Welford, combine, welford_of
from tiler.check import typed as T
from tiler.pipeline import run_to
from tiler.tree import descendants

ROW = """fun [f32, n] main([[f32, m], n] A) =
  map(fn f32 ([f32, m] r) =>
        let (c, mu, q) = loop (c = {zero}, mu = 0f32, q = 0f32) = for k < m do {body} in (c, mu, q)
        in mu + q / {count},
      A)
"""

RECOGNISED = {
    "the textbook update": ("0f32", "let x = r[k] in let c2 = c + 1f32 in let d = x - mu in let mu2 = mu + d / c2 in "
                                    "(c2, mu2, q + d * (x - mu2))"),
    "an int count": ("0", "let x = r[k] in let c2 = c + 1 in let d = x - mu in let mu2 = mu + d / f32(c2) in "
                          "(c2, mu2, q + d * (x - mu2))"),
    "M2 from the old mean only": ("0f32", "let d = r[k] - mu in (c + 1f32, mu + d / (c + 1f32), "
                                          "q + d * d * c / (c + 1f32))"),
}

REFUSED = {
    "a mean not divided by the count": ("0f32", "let d = r[k] - mu in (c + 1f32, mu + d, q + d * d)"),
    "M2 of the raw values": ("0f32", "let x = r[k] in (c + 1f32, mu + (x - mu) / (c + 1f32), q + x * x)"),
    "a count by two": ("0f32", "let x = r[k] in let c2 = c + 2f32 in let d = x - mu in let mu2 = mu + d / c2 in "
                               "(c2, mu2, q + d * (x - mu2))"),
    "two terms": ("0f32", "let x = r[k] in let y = r[0] in let c2 = c + 1f32 in let d = x - mu in "
                          "let mu2 = mu + d / c2 in (c2, mu2, q + d * (y - mu2))"),
    # c * c2 wraps around past 46,341 (the samples multiply without wrapping; found by a review)
    "an int count multiplied": ("0", "let x = r[k] in let c2 = c + 1 in let d = x - mu in let mu2 = mu + d / f32(c2) "
                                     "in (c2, mu2, q + d * d * f32(c * c2) / f32(c2 * c2))"),
    "a clamp": ("0f32", "let x = r[k] in let c2 = c + 1f32 in let d = x - mu in let mu2 = mu + d / c2 in "
                        "(c2, mu2, min(q + d * (x - mu2), 100f32))"),
}


def loop_of(zero: str, body: str) -> T.Loop:
    count = "f32(c)" if "f32" not in zero else "c"
    k = run_to("kernel", ROW.format(zero=zero, body=body, count=count), "t.fut", Options(keep_loops=True))
    (loop,) = [n for r in k.roots for n in descendants(r, T.is_exp) if isinstance(n, T.Loop)]
    return loop


@pytest.mark.parametrize("name", RECOGNISED)
def test_each_spelling_is_recognised_by_its_values(name):
    loop = loop_of(*RECOGNISED[name])
    assert welford_of(loop) == Welford(0, 1, 2)
    assert operators(loop) == (Operator.WELFORD_COUNT, Operator.WELFORD_MEAN, Operator.WELFORD_M2)


@pytest.mark.parametrize("name", REFUSED)
def test_a_different_formula_is_not(name):
    assert isinstance(welford_of(loop_of(*REFUSED[name])), str)


def test_the_carried_values_in_another_order_are_found():
    loop = loop_of("0f32", "let x = r[k] in let c2 = c + 1f32 in let d = x - mu in let mu2 = mu + d / c2 in "
                           "(c2, mu2, q + d * (x - mu2))")
    assert welford_of(loop) == Welford(0, 1, 2)
    text = ROW.replace("(c = {zero}, mu = 0f32, q = 0f32)", "(q = 0f32, c = {zero}, mu = 0f32)")
    text = text.replace("in (c, mu, q)", "in (c, mu, q)").format(
        zero="0f32", count="c", body="let x = r[k] in let c2 = c + 1f32 in let d = x - mu in let mu2 = mu + d / c2 "
                                     "in (q + d * (x - mu2), c2, mu2)")
    k = run_to("kernel", text, "t.fut", Options(keep_loops=True))
    (loop,) = [n for r in k.roots for n in descendants(r, T.is_exp) if isinstance(n, T.Loop)]
    assert welford_of(loop) == Welford(1, 2, 0)


def test_chan_combines_shares_in_any_split_as_the_whole_sequence():
    """Shares of a random split, combined in any grouping, give the whole
    sequence's count, mean and M2 (to rounding); (0, 0, 0) is the identity."""
    rng = random.Random(5)
    xs = [rng.gauss(100.0, 3.0) for _ in range(1000)]

    def share(part):
        k, mu, m2 = 0.0, 0.0, 0.0
        for x in part:
            k += 1
            d = x - mu
            mu += d / k
            m2 += d * (x - mu)
        return k, mu, m2
    cuts = sorted(rng.sample(range(1, len(xs)), 6))
    parts = [share(xs[a:b]) for a, b in zip([0] + cuts, cuts + [len(xs)])]
    left = parts[0]
    for p in parts[1:]:
        left = combine(left, p)
    right = parts[-1]
    for p in reversed(parts[:-1]):
        right = combine(p, right)
    k, mu, m2 = share(xs)
    for got in (left, right, combine((0.0, 0.0, 0.0), share(xs)), combine(share(xs), (0.0, 0.0, 0.0))):
        assert got[0] == k and got[1] == pytest.approx(mu, rel=1e-12) and got[2] == pytest.approx(m2, rel=1e-9)
    assert m2 / (k - 1) == pytest.approx(statistics.variance(xs), rel=1e-9)
    assert combine((0.0, 0.0, 0.0), (0.0, 0.0, 0.0)) == (0.0, 0.0, 0.0)
