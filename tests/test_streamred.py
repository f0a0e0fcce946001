"""`streamRed`: a stream with the combine of its partial results, parsed,
checked, run by the interpreter under splits merged in any order, and split
among a row's threads by that combine where tiler's own algebra does not
describe its loop."""
from __future__ import annotations

import numpy as np
import pytest
from conftest import PROGRAMS

from tiler.analyse import Options
from tiler.analyse.folds import Operator
from tiler.check import check
from tiler.check import typed as T
from tiler.interp import run, run_splits
from tiler.interp.values import Chunking
from tiler.pipeline import run_to
from tiler.syntax import parse
from tiler.syntax.printer import pretty
from tiler.tree import descendants

ROW = """fun [{out}, n] main([[f32, m], n] A) =
  map(fn {out} ([f32, m] r) =>
        streamRed(fn {out} ({out} a, {out} b) => {combine},
                  fn {out} (int kk, [f32, c] xs, {out} acc) =>
                    loop (acc) = for k < c do {step} in acc,
                  r, {ne}),
      A)
"""
FIRST = dict(out="int", combine="min(a, b)", step="if acc == 2147483647 && xs[k] > 0.5f32 then kk + k else acc",
             ne="2147483647")
SUM = dict(out="f32", combine="a + b", step="acc + xs[k]", ne="0f32")


def program(**parts) -> str:
    return ROW.format(**parts)


def analysed(text: str, options: Options | None = None):
    return run_to("analyse", text, "t.fut", options or Options())


def test_printed_and_parsed_again_it_is_the_same_tree():
    tree = parse(program(**FIRST), "t.fut")
    assert parse(pretty(tree), "t.fut") == tree
    assert "streamRed(" in pretty(tree)


@pytest.mark.parametrize("chunking", ["whole", "1", "7", "random:3"])
def test_the_interpreter_gives_the_first_position_under_any_split(chunking):
    prog = check(parse(program(**FIRST), "t.fut"))
    a = np.random.default_rng(1).random((5, 40), dtype=np.float32)
    a[3] = 0.0  # no element past the threshold: the initial value
    (got,) = run(prog, {"A": a}, Chunking.parse(chunking), seed=2)
    want = [int(np.argmax(row > 0.5)) if (row > 0.5).any() else 2**31 - 1 for row in a]
    assert got.tolist() == want


@pytest.mark.parametrize("combine, ne", [("a + b + 1f32", "0f32"),  # not associative with its identity
                                         ("a + b", "1f32"),  # the initial value is not the combine's identity
                                         ("a - b", "0f32")])  # neither associative nor commutative
def test_check_splits_catches_a_combine_that_breaks_the_contract(combine, ne):
    prog = check(parse(program(**dict(SUM, combine=combine, ne=ne)), "t.fut"))
    a = np.random.default_rng(1).random((4, 50), dtype=np.float32)
    _, disagreement = run_splits(prog, {"A": a})
    assert disagreement is not None


ADJACENT = """fun [int, n] main([[f32, m], n] A) =
  map(fn int ([f32, m] r) =>
        let (f, l, cnt) = streamRed(
          fn (int, int, int) (int f1, int l1, int c1, int f2, int l2, int c2) =>
            if f1 < 0 then (f2, l2, c2) else if f2 < 0 then (f1, l1, c1)
            else if f1 < f2 then (f1, l2, c1 + c2 + (if l1 + 1 == f2 then 1 else 0))
            else (f2, l1, c1 + c2 + (if l2 + 1 == f1 then 1 else 0)),
          fn (int, int, int) (int kk, [f32, c] xs, int f, int l, int cnt) =>
            loop (f, l, cnt) = for k < c do
              if xs[k] <= 0.2f32 then (f, l, cnt)
              else if f < 0 then (kk + k, kk + k, 0)
              else (f, kk + k, cnt + (if l + 1 == kk + k then 1 else 0))
            in (f, l, cnt),
          r, -1, -1, 0)
        in cnt,
      A)
"""


def test_check_splits_catches_a_fold_that_needs_its_neighbours():
    """A count of adjacent matches merges consecutive runs right, but a
    thread's share is every T-th element: the interpreter folds such shares
    too, and the split's result would differ (found by a review)."""
    prog = check(parse(ADJACENT, "t.fut"))
    _, disagreement = run_splits(prog, {"A": np.random.default_rng(0).random((6, 100), dtype=np.float32)})
    assert disagreement is not None


def test_a_combine_with_a_loop_or_a_helper_compiles():
    helper = "fun int smaller(int a, int b) = loop (s = a) = for k < 1 do min(s, b) in s\n"
    for text in (program(**dict(FIRST, combine="loop (s = a) = for k < 2 do min(s, b) in s")),
                 helper + program(**dict(FIRST, combine="smaller(a, b)"))):
        from tiler.pipeline import run_all

        module = run_all(text, "t.fut", Options())["verify"]
        assert any(k.lanes for k in module.kernels)


def test_a_lawful_combine_passes_check_splits():
    prog = check(parse(program(**SUM), "t.fut"))
    _, disagreement = run_splits(prog, {"A": np.random.default_rng(1).random((4, 50), dtype=np.float32)})
    assert disagreement is None


def reduction(text: str):
    split = analysed(text).plan.split
    (r,) = split.reductions
    return r


def test_a_loop_no_operator_describes_is_split_by_the_combine():
    r = reduction(program(**FIRST))
    assert r.split and r.operators == (Operator.COMBINE,) and r.combine is not None


def test_a_loop_the_algebra_knows_keeps_its_operator():
    r = reduction(program(**SUM))
    assert r.split and r.operators == (Operator.ADD,)


def test_a_fold_that_is_not_one_loop_over_its_chunk_is_not_split():
    text = program(**FIRST).replace("in acc,\n", "in min(acc, 2147483647),\n")
    split = analysed(text).plan.split
    assert not any(r.split for r in split.reductions)
    assert "tests the carried value" in split.others[0].reason and "one loop over the chunk" in split.others[0].reason


def test_the_split_kernel_merges_shares_with_the_combine():
    from tiler.pipeline import run_all

    module = run_all(program(**FIRST), "t.fut", Options())["verify"]
    split = next(k for k in module.kernels if k.lanes == 32)
    text = repr(split.body)
    assert "min" in text and "shuffle_xor" in text


def test_a_streamred_in_each_element_moves_to_its_row():
    text = """fun [[f32, m], n] main([[f32, m], n] A) =
  map(fn [f32, m] ([f32, m] row) =>
        map(fn f32 (f32 x) =>
              x - streamRed(fn f32 (f32 a, f32 b) => if a < b then b else a,
                            fn f32 (int kk, [f32, c] xs, f32 h) =>
                              loop (h) = for k < c do if xs[k] > h then xs[k] else h in h,
                            row, -3.4028235e38f32),
            row),
      A)
"""
    k = run_to("kernel", text, "t.fut", Options())
    assert [(h.written, h.runs) for h in k.hoisted if h.moved] == [(1, 0)]
    r = reduction(text)
    assert r.split and r.operators == (Operator.COMBINE,)


def test_a_streamred_in_a_helper_called_twice_keeps_a_combine_each():
    text = """fun f32 top([f32, m] row) =
  streamRed(fn f32 (f32 a, f32 b) => big(a, b),
            fn f32 (int kk, [f32, c] xs, f32 h) => loop (h) = for k < c do big(h, xs[k]) in h,
            row, -3.4028235e38f32)

fun f32 big(f32 a, f32 b) = if a < b then b else a

fun [f32, n] main([[f32, m], n] A) = map(fn f32 ([f32, m] row) => top(row) - top(row), A)
"""
    k = run_to("kernel", text, "t.fut", Options())
    streams = [n for r in k.roots for n in descendants(r, T.is_exp) if isinstance(n, T.Stream)]
    assert len(streams) == 2 and all(s.combine is not None for s in streams)
    assert not any(isinstance(n, T.Call) for s in streams for n in descendants(s.combine.body, T.is_exp))
    assert streams[0].combine.params[0] is not streams[1].combine.params[0]  # each copy binds its own
    assert all(r.operators == (Operator.COMBINE,) for r in analysed(text).plan.split.reductions)


def test_the_analysis_programs_run_alike_under_every_split():
    for name in ("streamred_first_above", "streamred_absmax", "streamred_colrange"):
        path = PROGRAMS / "analysis" / f"{name}.fut"
        prog = check(parse(path.read_text(), path.name))
        rng = np.random.default_rng(3)
        a = (rng.integers(-8, 8, (6, 70)) / 4).astype(np.float32)  # equal magnitudes: the ties are tested
        inputs = {"A": a, "t": np.float32(1.0)} if "first" in name else {"A" if "absmax" in name else "X": a}
        _, disagreement = run_splits(prog, inputs)
        assert disagreement is None, name
