"""The online log-sum-exp, recognised by what its loop computes
(tiler/analyse/online.py), and its combine."""
from __future__ import annotations

import math
import random

import pytest

from tiler.analyse import Options
from tiler.analyse.folds import Operator, operators
from tiler.analyse.online import Online, combine, online_of
from tiler.check import typed as T
from tiler.pipeline import run_to
from tiler.tree import descendants

ROW = """fun [f32, n] main([[f32, m], n] A) =
  map(fn f32 ([f32, m] r) =>
        let (a, b) = loop (a = -1e30f32, b = 0f32) = for k < m do {body} in (a, b) in a + log(b),
      A)
"""

RECOGNISED = {
    "a let of the new maximum": "let t = r[k] in let nm = max(a, t) in (nm, b * exp(a - nm) + exp(t - nm))",
    "an if, exp(0) written 1": "let t = r[k] in if t > a then (t, b * exp(a - t) + 1f32) else (a, b + exp(t - a))",
    "the term unnamed": "(max(a, r[k]), b * exp(a - max(a, r[k])) + exp(r[k] - max(a, r[k])))",
    "the comparison turned": "let t = r[k] in if a >= t then (a, b + exp(t - a)) else (t, b * exp(a - t) + 1f32)",
}

REFUSED = {
    "the sum not rescaled": "let t = r[k] in let nm = max(a, t) in (nm, b + exp(t - nm))",
    "the rescale the wrong way": "let t = r[k] in let nm = max(a, t) in (nm, b * exp(nm - a) + exp(t - nm))",
    "a plain sum beside a maximum's pair": "let t = r[k] in (max(a, t), b + t)",
    "two terms": "let t = r[k] in let u = r[0] in let nm = max(a, t) in (nm, b * exp(a - nm) + exp(u - nm))",
    # a clamp or a threshold that samples of moderate sums would never reach (found by a review: both split wrong)
    "a clamp": "let t = r[k] in let nm = max(a, t) in (nm, min(b * exp(a - nm) + exp(t - nm), 20f32))",
    # the sum clamped at 0: the same for sums of 0 and more, not for a start below 0 (found by a review)
    "a clamp at 0": "let t = r[k] in let nm = max(a, t) in (nm, max(b, 0f32) * exp(a - nm) + exp(t - nm))",
    "a threshold": "let t = r[k] in if b > 20f32 then (a, b) else let nm = max(a, t) in "
                   "(nm, b * exp(a - nm) + exp(t - nm))",
    "an if that always goes one way": "let t = r[k] in let nm = max(a, t) in "
                                      "if nm >= nm then (nm, b * exp(a - nm) + exp(t - nm)) else (a, b)",
}


def loop_of(body: str) -> T.Loop:
    k = run_to("kernel", ROW.format(body=body), "t.fut", Options(keep_loops=True))
    (loop,) = [n for r in k.roots for n in descendants(r, T.is_exp) if isinstance(n, T.Loop)]
    return loop


@pytest.mark.parametrize("name", RECOGNISED)
def test_each_spelling_is_recognised_by_its_values(name):
    loop = loop_of(RECOGNISED[name])
    assert online_of(loop) == Online(0, 1)
    assert operators(loop) == (Operator.ONLINE_MAX, Operator.RESCALED_SUM)


@pytest.mark.parametrize("name", REFUSED)
def test_a_different_formula_is_not(name):
    loop = loop_of(REFUSED[name])
    assert isinstance(online_of(loop), str)
    if name == "a plain sum beside a maximum's pair":  # that one is two reductions, max and +
        assert operators(loop) == (Operator.MAX, Operator.ADD)


def test_a_threads_share_starts_from_the_lowest_finite_number():
    """From -inf (a start maximum of log(0), as masked attention writes),
    a thread whose share holds only elements at -inf would compute exp(-inf
    - -inf), NaN, where the loop in order, its maximum already finite, does
    not (a review's finding): each share starts from -FLT_MAX instead."""
    text = ROW.replace("a = -1e30f32", "a = log(0f32)").format(body=RECOGNISED["a let of the new maximum"])
    cuda = run_to("render", text, "t.fut", Options())
    assert "float a_part = -3.4028234663852886e+38f;" in cuda and "a_part = logf" not in cuda
    k = run_to("kernel", text, "t.fut", Options(keep_loops=True))
    (loop,) = [n for r in k.roots for n in descendants(r, T.is_exp) if isinstance(n, T.Loop)]
    assert online_of(loop) == Online(0, 1)
    # the combine with a share that took no element, or only elements at -inf: the other share, unchanged
    lowest = -3.4028234663852886e38
    assert combine(lowest, 0.0, 1.5, 2.0) == (1.5, 2.0) and combine(-math.inf, 0.0, lowest, 0.0) == (lowest, 0.0)


def test_the_carried_values_in_the_other_order():
    text = """fun [f32, n] main([[f32, m], n] A) =
  map(fn f32 ([f32, m] r) =>
        let (b, a) = loop (b = 0f32, a = -1e30f32) = for k < m do
          let t = r[k] in let nm = max(a, t) in (b * exp(a - nm) + exp(t - nm), nm) in (b, a) in a + log(b),
      A)
"""
    k = run_to("kernel", text, "t.fut", Options(keep_loops=True))
    (loop,) = [n for r in k.roots for n in descendants(r, T.is_exp) if isinstance(n, T.Loop)]
    assert online_of(loop) == Online(1, 0)


def test_the_combine_is_associative_and_gives_the_log_sum_exp():
    rng = random.Random(3)
    for _ in range(200):
        xs = [rng.uniform(-30, 30) for _ in range(rng.randint(1, 40))]
        cut = sorted(rng.sample(range(len(xs) + 1), 2))
        parts = [xs[:cut[0]], xs[cut[0]:cut[1]], xs[cut[1]:]]

        def fold(values, start=(-math.inf, 0.0)):
            m, s = start
            for t in values:
                big = max(m, t)
                m, s = big, s * math.exp(m - big) + math.exp(t - big)
            return m, s
        a, b, c = (fold(p) for p in parts)
        left, right = combine(*combine(*a, *b), *c), combine(*a, *combine(*b, *c))
        want = math.log(sum(math.exp(x) for x in xs))
        for m, s in (left, right):
            assert math.isclose(m + math.log(s), want, rel_tol=1e-12, abs_tol=1e-12)
    assert combine(-math.inf, 0.0, -math.inf, 0.0) == (-math.inf, 0.0)  # two empty shares: no nan
