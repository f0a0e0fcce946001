"""A thread's own row read by index becomes a row of its map (stage
`kernel`, tiler/kernel/rows.py), so the analysis stages it as it stages a
map's row; rows that are not the thread's alone stay reads."""
from __future__ import annotations

import pytest
from conftest import PROGRAMS

from tiler.analyse import DEFAULT, Options
from tiler.pipeline import run_to

ROW_SUM = """
fun [f32, n] main([[f32, 34], {rows}] A, [int, n] ids, [f32, k] w) =
  map(fn f32 (int i) =>
        streamSeq(fn f32 (int kk, [f32, c] wc, f32 acc) =>
                    loop (acc) = for j < c do
                      let s = loop (s = 0f32) = for f < 34 do s + {read} in s
                      in acc + s * wc[j]
                    in acc
                 , w, 0f32)
     , iota(n))
"""


def kernel(read: str, rows: str = "n", options=DEFAULT):
    return run_to("kernel", ROW_SUM.format(read=read, rows=rows), "t.fut", options)


def row_params(k) -> list[str]:
    return [p.name for p in k.levels[0].params if p.name != "i"]


def test_reads_of_the_threads_own_row_become_a_row_of_the_map():
    k = kernel("A[i, f] * A[i, 33 - f]")
    assert row_params(k) == ["A[i]"]
    (level,) = k.levels
    assert [type(a).__name__ for a in level.args] == ["Iota", "Var"] and level.args[1].binder.name == "A"


@pytest.mark.parametrize("read, why", [
    ("A[i, f] * A[i + 1, f]", "another thread's row"),
    ("A[0, f]", "a row every thread reads"),
    ("A[i, f] * A[i, f]", None)])
def test_only_rows_the_thread_reads_alone_are_rewritten(read, why):
    assert row_params(kernel(read)) == ([] if why else ["A[i]"]), why


STREAMED = """
fun [f32, n] main([[f32, m], n] A) =
  map(fn f32 (int i) =>
        streamSeq(fn f32 (int kk, [f32, c] ac, f32 acc) =>
                    loop (acc) = for k < c do acc + ac[k] in acc
                 , A[i], 0f32){extra}
     , iota(n))
"""


@pytest.mark.parametrize("extra, rewritten", [(" * A[i, 0]", True), ("", False)])
def test_a_row_also_passed_whole_is_rewritten_whole_and_a_row_only_passed_whole_is_left(extra, rewritten):
    k = run_to("kernel", STREAMED.format(extra=extra), "t.fut", DEFAULT)
    assert row_params(k) == (["A[i]"] if rewritten else [])


def test_rows_that_are_not_the_maps_are_left():
    """A has m rows where the map has n: A[i] is not the map's i-th row."""
    assert row_params(kernel("A[i, f]", rows="m")) == []


def test_the_rewritten_row_is_staged_as_a_maps_row_is():
    path = PROGRAMS / "analysis" / "own_row_by_index.fut"
    a = run_to("analyse", path.read_text(), path.name, Options())
    (slab,) = a.schedule.slabs
    assert slab.name == "points[i]" and slab.staged and slab.run and slab.pitch == 34
    off = run_to("analyse", path.read_text(), path.name, Options(no_coalesce=True))
    assert not off.schedule.slabs[0].staged


def test_a_matrix_also_transposed_in_the_prelude_is_left():
    text = ROW_SUM.format(read="A[i, f] + At[f, 0]", rows="n").replace(
        "  map(fn f32 (int i) =>", "  let At = transpose(A) in\n  map(fn f32 (int i) =>", 1)
    k = run_to("kernel", text, "t.fut", DEFAULT)
    assert row_params(k) == []


LET_ROW = """
fun [f32, n] main([[f32, 34], n] A, [f32, k] w) =
  map(fn f32 (int i) =>
        {level}streamSeq(fn f32 (int kk, [f32, c] wc, f32 acc) =>
                    loop (acc) = for j < c do
                      {inner}let s = loop (s = 0f32) = for f < 34 do s + row[f] * row[33 - f] in s
                      in acc + s * wc[j]
                    in acc
                 , w, 0f32)
     , iota(n))
"""


@pytest.mark.parametrize("level, inner", [("let row = A[i] in\n        ", ""), ("", "let row = A[i] in ")])
def test_a_row_named_by_a_let_is_read_where_the_let_is_used(level, inner):
    """Found on an unseen program: `let row = X[i] in ... row[f]` kept its
    reads in place (a row apart, uncoalesced) where `X[i, f]` was staged."""
    text = LET_ROW.format(level=level, inner=inner)
    assert row_params(run_to("kernel", text, "t.fut", DEFAULT)) == ["A[i]"]
    a = run_to("analyse", text, "t.fut", Options())
    spelled = run_to("analyse", LET_ROW.format(level="", inner="").replace("row[", "A[i, "), "t.fut", Options())
    assert [(s.name, s.staged, s.pitch) for s in a.schedule.slabs] == \
        [(s.name, s.staged, s.pitch) for s in spelled.schedule.slabs] == [("A[i]", True, 34)]
