"""Whether a TMA-copied product's last chunk runs whole over the zeros past
the arrays' ends (analyse/zero_tail.py): decided from the body's algebra."""
from __future__ import annotations

import time

import pytest
from conftest import BENCHMARKS, PROGRAMS, tiler

from tiler.analyse.zero_tail import zero_tail
from tiler.pipeline import run_to

PAIRS = """fun [[f32, m], n] main([[f32, d], n] X, [[f32, d], m] Y) =
  map(fn [f32, m] ([f32, d] x) =>
        let s = x[0] in
        map(fn f32 ([f32, d] y) =>
              streamSeq(fn f32 (int k0, [f32, c] xc, [f32, c] yc, f32 acc) =>
                          loop (acc) = for k < c do {body} in acc,
                        x, y, {init}),
            Y),
      X)
"""

BODIES = [  # (the loop's body, whether the zeros past the end leave `acc` as it is)
    ("acc + xc[k] * yc[k]", True),
    ("let t = xc[k] - yc[k] in acc + t * t", True),
    ("acc - 2f32 * xc[k] * yc[k]", True),
    ("acc + f32(k0 + k) * xc[k] * yc[k]", True),  # (a position is finite: times zero, zero)
    ("acc + abs(xc[k] - yc[k])", True),
    ("acc + xc[k] / 2f32", True),
    ("acc + (xc[k] - yc[k]) / 1e-50f32", False),  # (0 in f32: 0 / 0 is NaN)
    ("min(acc, xc[k] + yc[k])", False),  # (would take 0)
    ("acc + xc[k] * yc[k] + 1f32", False),
    ("acc + s * xc[k]", False),  # (an infinite s times zero is NaN)
    ("acc + xc[k] * yc[0]", False),  # (yc[0] is the chunk's first element, not a zero)
    ("acc + exp(xc[k])", False),
    ("xc[k] * yc[k] + acc * 1f32", False),
]


def stream_of(text: str, tmp_path):
    path = tmp_path / "pairs.fut"
    path.write_text(text)
    (s,) = run_to("analyse", text, path.name).streams
    return s.site.stream


@pytest.mark.parametrize("body, whole", BODIES)
def test_the_last_chunk_runs_whole_where_the_body_adds_zero_for_zeros(body, whole, tmp_path):
    tail = zero_tail(stream_of(PAIRS.format(body=body, init="0f32"), tmp_path), all_copied=True)
    assert tail.whole is whole, tail.reason
    assert ("plus zero" in tail.reason) is not whole


@pytest.mark.parametrize("init, whole", [("0f32", True), ("1.5f32", True), ("-0f32", False), ("-0.0f32", False),
                                         ("x[0]", False)])
def test_a_sum_that_may_start_at_negative_zero_runs_to_the_end(init, whole, tmp_path):
    """-0 + +0 is +0: from a start that may be -0 the zeros would change the sign of an all -0 sum."""
    tail = zero_tail(stream_of(PAIRS.format(body="acc + xc[k] * yc[k]", init=init), tmp_path), all_copied=True)
    assert tail.whole is whole, tail.reason


def test_under_fast_math_only_products_of_zeros_count():
    """--fast-math may regroup `x[k] * 3e38 * 3e38` as `inf * x[k]` (transform/reassociate.py)."""
    text = PAIRS.format(body="acc + xc[k] * yc[k] * 3e38f32 * 3e38f32", init="0f32")
    (s,) = run_to("analyse", text, "pairs.fut").streams
    assert zero_tail(s.site.stream, True).whole and not zero_tail(s.site.stream, True, regrouped=True).whole
    (s,) = run_to("analyse", PAIRS.format(body="acc + xc[k] * yc[k]", init="0f32"), "pairs.fut").streams
    assert zero_tail(s.site.stream, True, regrouped=True).whole


def test_a_chain_of_lets_is_asked_once_a_let(tmp_path):
    """Each let used twice by the next: 2^40 visits without each let's answer kept."""
    lets = "let t0 = xc[k] - yc[k] in " + " ".join(f"let t{i + 1} = t{i} + t{i} in" for i in range(40))
    started = time.perf_counter()
    tail = zero_tail(stream_of(PAIRS.format(body=f"{lets} acc + t40 * t40", init="0f32"), tmp_path), True)
    assert tail.whole and time.perf_counter() - started < 5


def test_an_input_read_in_place_or_another_array_read_keeps_the_last_chunk_apart(tmp_path):
    stream = stream_of(PAIRS.format(body="acc + xc[k] * yc[k]", init="0f32"), tmp_path)
    assert "not copied" in zero_tail(stream, all_copied=False).reason
    rows = (PROGRAMS / "analysis" / "rows_by_loop_index.fut")
    (s,) = run_to("analyse", rows.read_text(), rows.name).streams
    assert not zero_tail(s.site.stream, all(p.copied for p in s.inputs)).whole


def test_the_plan_records_it_and_explain_says_it():
    mm = run_to("analyse", (BENCHMARKS / "mm.fut").read_text(), "mm.fut").schedule.tma
    minplus = PROGRAMS / "analysis" / "minplus_few.fut"
    few = run_to("analyse", minplus.read_text(), minplus.name).schedule.tma
    assert mm.used and mm.whole_chunks and few.used and not few.whole_chunks
    assert "last chunk: run to the stream's end: d's new value" in " ".join(tiler("explain", str(minplus)).stdout.split())
    assert "last chunk: run whole: the zeros" in " ".join(tiler("explain", str(BENCHMARKS / "mm.fut")).stdout.split())
