"""A loop's index used as a count, carried as one (kernel/counts.py): where
that makes the loop a reduction, the kernel stage's program computes what
the source does and the loop is split; elsewhere the loop stays."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import tiler

from tiler.check import check
from tiler.check import typed as T
from tiler.fuzz.properties import CHUNKINGS, _kernel_stage
from tiler.interp import run
from tiler.kernel import kernel_of
from tiler.syntax import parse
from tiler.tree import descendants
from tiler.workload import make_inputs

ROOT = Path(__file__).resolve().parent.parent
PROGRAMS = ROOT / "tests" / "programs" / "analysis"

WEIGHTED = """
fun [f32, n] main([[f32, m], n] A) =
  map(fn f32 ([f32, m] a) =>
        loop (w = 0f32) = for i < m do w * 0.5f32 + a[i] * f32(i) in w,
      A)
"""
ALREADY = """
fun [f32, n] main([[f32, m], n] A) =
  map(fn f32 ([f32, m] a) =>
        loop (w = 0f32) = for i < m do w + a[i] * f32(i) in w,
      A)
"""
SHIFTED = """
fun [f64, m] main([[f64, m], n] X) =
  map(fn f64 (int j) =>
        let (mu, q) = loop (mu = 0f64, q = 0f64) = for i < n do
          let x = X[i, j] in
          let d = x - mu in
          let mu2 = mu + d / f64(i + 2) in
          (mu2, q + d * (x - mu2))
        in (mu, q)
        in mu + q,
      iota(m))
"""


def _kernel(text: str) -> T.Kernel:
    return kernel_of(check(parse(text, "p.fut")))


def _loops(k: T.Kernel) -> list:
    return [n for n in descendants(k.body, T.is_exp) if isinstance(n, T.Loop)]


@pytest.mark.parametrize("name", ["col_welford_index", "row_mean_index"])
def test_the_counted_loop_computes_what_the_source_does(name):
    text = (PROGRAMS / f"{name}.fut").read_text()
    prog = check(parse(text, f"{name}.fut"))
    for seed in (1, 2):
        sizes = {s.name: 11 + 6 * seed for s in prog.kernel.sizes}
        inputs = make_inputs(prog, sizes, None, seed=seed)
        results = [run(prog, inputs, c, seed) for c in CHUNKINGS]
        assert _kernel_stage(prog, inputs, results, seed, text) == []


def test_welfords_count_from_the_index_is_carried():
    k = _kernel((PROGRAMS / "col_welford_index.fut").read_text())
    assert [(c.index, c.count) for c in k.counted] == [("i", "i_count")]
    streams = [n for n in descendants(k.body, T.is_exp) if isinstance(n, T.Stream)]
    # (the loop down the column is read as a stream, the count carried with it, first)
    assert [p.name.startswith("i_count") for s in streams for p in s.acc_params] == [True, False, False]


@pytest.mark.parametrize("text", [WEIGHTED, ALREADY, SHIFTED], ids=["not-a-reduction", "a-sum-already", "not-a-count"])
def test_a_loop_that_carrying_its_count_does_not_make_a_reduction_stays(text):
    """A weight by the index (carried or not, no reduction), a sum that is a
    reduction as written, and a count off by one (`i + 2`: not Welford's)."""
    k = _kernel(text)
    assert k.counted == () and all(len(lp.params) in (1, 2) for lp in _loops(k))


def test_explain_says_the_count_is_carried():
    path = PROGRAMS / "col_welford_index.fut"
    said = " ".join(tiler("explain", str(path)).stdout.split())
    assert "loop at 10:23: its index `i` also counts the elements folded so far: that count is carried (`i_count`" \
        in said and "loop at 10:23: a reduction by Welford's count, mean and M2; split among a row's threads" in said
    data = json.loads(tiler("explain", str(path), "--json").stdout)
    assert data["counted"] == [{"line": 10, "column": 23, "index": "i", "count": "i_count"}]
