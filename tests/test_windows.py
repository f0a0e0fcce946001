"""Sliding windows found from the index (analyse/windows.py): which arrays'
reads move with the points, along which axes, how far, and how the program
keeps them inside the array; explain lists them."""
from __future__ import annotations

import pytest
from conftest import BENCHMARKS, ROOT, tiler

from tiler.analyse import Options
from tiler.analyse.windows import CLAMP, GUARD, NONE, WRAP, windows
from tiler.pipeline import run_all

CORPUS = ROOT / "corpus"


def found(text: str, name: str = "w.fut"):
    return {w.array: w for w in windows(run_all(text, name, Options())["analyse"].kernel)}


def axes(w) -> list[tuple]:
    return [(a.axis, a.dim, a.low, a.high, a.edges) for a in w.axes]


def test_a_five_point_stencil_is_one_window_of_its_four_neighbours():
    (w,) = found((CORPUS / "a_jacobi5_f32.fut").read_text()).values()
    assert w.array == "U" and len(w.reads) == 4
    assert axes(w) == [(0, 0, -1, 1, (CLAMP,)), (1, 1, -1, 1, (CLAMP,))]
    assert [a.halo for a in w.axes] == [2, 2]


def test_a_box_filter_guarded_at_the_edges_and_a_clamp_through_a_helper():
    (box,) = found((CORPUS / "a_box3d_w27_f32.fut").read_text()).values()
    assert axes(box) == [(d, d, -1, 1, (GUARD,)) for d in range(3)]
    (lap,) = found((CORPUS / "a_laplace3d_f64.fut").read_text()).values()
    assert axes(lap) == [(d, d, -1, 1, (CLAMP,)) for d in range(3)]  # cl(z - 1, nz), inlined


def test_a_convolution_by_a_loop_and_a_stream_over_the_filter():
    (img,) = found((BENCHMARKS / "conv2d.fut").read_text()).values()
    assert axes(img) == [(0, 0, 0, 4, (CLAMP,)), (1, 1, 0, 4, (CLAMP,))]  # r < 5, and kk + k over a row of 5
    (flt,) = found((CORPUS / "a_conv2d_filter_f32.fut").read_text()).values()
    assert [a.halo for a in flt.axes] == [None, None]  # a filter's size known at launch
    assert set(flt.axes[0].bounds) >= {"kh"} and set(flt.axes[1].bounds) >= {"kw"}


WRAPPED = """
fun [f32, n] main([f32, n] x) =
  map(fn f32 (int i) =>
        loop (s = 0f32) = for t < 3 do s + x[(i + t + n - 1) % n] in s,
      iota(n))
"""
PADDED = """
fun [f32, n] main([f32, n] x, [f32, 7] h) =
  map(fn f32 (int i) =>
        loop (s = 0f32) = for t < 7 do
          let j = i - 3 + t in
          if j >= 0 && j < n then s + h[t] * x[j] else s
        in s,
      iota(n))
"""
RAW = """
fun [f32, n] main(int w, [f32, m] x, [f32, n] y) =
  map(fn f32 (int i) =>
        loop (s = y[i]) = for k < w do s + x[i + 2 * k] in s,
      iota(n))
"""


@pytest.mark.parametrize("text, low, high, edges", [(WRAPPED, -1, 1, (WRAP,)), (PADDED, -3, 3, (GUARD,)),
                                                    (RAW, 0, None, (NONE,))], ids=["wrap", "padding", "raw"])
def test_the_edges_and_offsets_of_a_1d_window(text, low, high, edges):
    (x,) = (w for name, w in found(text).items() if name == "x")
    assert axes(x) == [(0, 0, low, high, edges)]


NOT_WINDOWS = """
fun [[f32, m], n] main([[f32, m], n] A, [f32, m] v, [int, n] idx) =
  map(fn [f32, m] (int i) =>
        map(fn f32 (int j) =>
              loop (s = A[i, j]) = for k < m do s + A[idx[i], k] * v[k] + A[j, i] in s,
            iota(m)),
      iota(n))
"""


def test_a_points_own_element_a_gather_and_a_product_are_no_windows():
    assert found(NOT_WINDOWS) == {}
    for name in ("mm", "matvec", "nbody", "softmax", "kmeans"):
        assert found((BENCHMARKS / f"{name}.fut").read_text(), f"{name}.fut") == {}, name


def test_explain_lists_each_window_and_why_it_stays_a_read():
    out = tiler("explain", CORPUS / "a_jacobi5_f32.fut").stdout
    line = " ".join(out.split())
    assert "window: U[ym, x] at 11:26 and 3 more read(s) of it: axis 0 follows dimension 0, -1 to +1" in line
    assert "a halo of 2" in line and "in a version raced first" in line
    assert "window, 8 points a thread, consecutive: when every array has fewer than 2^31 elements" in line
    assert "raced against the next version whose condition holds, then the winner against the untiled kernel" \
        in line


SHIFTED = """
fun [f32, n] main([f32, m] x, [f32, n] y) =
  map(fn f32 (int i) => y[i] * x[i + 1] + x[i + 2], iota(n))
"""
CORNER = """
fun [[f32, m], n] main([[f32, m], n] U) =
  map(fn [f32, m] (int i) => map(fn f32 (int j) => U[i + 1, j] + U[i, j + 1], iota(m)), iota(n))
"""


def test_a_window_spans_what_its_reads_take_and_no_more():
    (x,) = (w for name, w in found(SHIFTED).items() if name == "x")
    assert axes(x) == [(0, 0, 1, 2, (NONE,))]  # x[i + 1] and x[i + 2]: no halo below the point
    (u,) = found(CORNER).values()
    assert axes(u) == [(0, 0, 0, 1, (NONE,)), (1, 1, 0, 1, (NONE,))]  # each read stays on the other axis


def one_d(body: str, params: str = "") -> dict:
    """The windows of `map(fn f32 (int i) => BODY, iota(n))` over x of n elements (and PARAMS)."""
    return found(f"fun [f32, n] main([f32, n] x{params}) =\n  map(fn f32 (int i) => {body}, iota(n))\n")


def test_a_forward_difference_keeps_the_points_own_read():
    assert axes(one_d("x[min(i + 1, n - 1)] - x[i]")["x"]) == [(0, 0, 0, 1, (CLAMP,))]


@pytest.mark.parametrize("body, params", [
    ("x[min(i + 1, n - 1)] + x[0]", ""),  # a constant along the axis
    ("x[min(i + 1, t)]", ", int t"),  # (a clamp against a scalar fixed for the launch: a window, below)
    ("x[max(i - 1, idx[i])]", ", [int, n] idx"),  # the clamp's other side varies
    ("x[(i + 1) % (idx[i] + 1)]", ", [int, n] idx"),  # so does the modulus
    ("loop (s = 0f32) = for t < idx[i] do s + x[min(i + t, n - 1)] in s", ", [int, n] idx"),  # a varying bound
], ids=["constant", "fixed-clamp", "varying-clamp", "varying-modulus", "varying-bound"])
def test_a_read_the_records_cannot_bound_leaves_the_array_without_a_window(body, params):
    got = one_d(body, params)
    if "int t" in params:  # a clamp against a scalar fixed for the launch is one
        assert axes(got["x"]) == [(0, 0, 1, 1, (CLAMP,))]
    else:
        assert "x" not in got


HELPERS = """
fun f32 get([f32, n] a, int i) = a[min(i + 1, n - 1)]
fun f32 geta([f32, n] z, int i) = z[max(i - 5, 0)]
fun [f32, n] main([f32, n] a, [f32, n] x) =
  map(fn f32 (int i) => geta(a, i) + get(x, i), iota(n))
"""


def test_reads_through_a_helper_are_the_arrays_passed_to_it():
    got = found(HELPERS)
    assert axes(got["a"]) == [(0, 0, -5, -5, (CLAMP,))] and axes(got["x"]) == [(0, 0, 1, 1, (CLAMP,))]


def test_two_indices_of_one_chunk_and_an_index_twice_are_counted_each():
    got = one_d("loop (s = 0f32) = for t < 5 do s + x[min(i + t + t, n - 1)] in s")
    assert axes(got["x"]) == [(0, 0, 0, 8, (CLAMP,))]
    assert axes(one_d("x[i + (0 - 3) / 2 + 2]")["x"]) == [(0, 0, 1, 1, (NONE,))]  # -3 / 2 is -1, toward zero


def test_a_guard_through_a_let_or_an_and_is_seen():
    assert axes(one_d("let k = i + 1 in if k < n then x[k] else 0f32")["x"]) == [(0, 0, 1, 1, (GUARD,))]
    assert axes(one_d("if i + 1 < n && x[i + 1] > 0f32 then 1f32 else 0f32")["x"]) == [(0, 0, 1, 1, (GUARD,))]


ROWS = """
fun [[f32, l], c] main([[f32, l], c] X) =
  map(fn [f32, l] ([f32, l] row) =>
        map(fn f32 (int i) => row[min(i + 1, l - 1)] - row[i], iota(l)),
      X)
"""


def test_a_row_of_a_map_over_an_arrays_rows_is_that_array_read_at_the_rows_index():
    (x,) = found(ROWS).values()
    assert x.array == "X" and axes(x) == [(0, 0, 0, 0, (NONE,)), (1, 1, 0, 1, (CLAMP,))]
    assert x.axes[0].text() == "axis 0 follows dimension 0, the point's own index"
