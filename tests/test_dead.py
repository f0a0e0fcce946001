"""Stage `kernel` removes the lets and loops nothing reads (kernel/dead.py):
a staged stream whose value no output uses would otherwise keep its copies
and barriers, which nvcc cannot drop."""
from __future__ import annotations

from conftest import kernels_of, tiler

from tiler.check import typed as T
from tiler.pipeline import run_all, run_to
from tiler.tree import descendants

DEAD = """
fun [f32, n] main([f32, n] xs, [f32, m] ys) =
  map(fn f32 (f32 x) =>
        let unused = streamSeq(fn f32 (int k0, [f32, c] yc, f32 acc) =>
                                 loop (acc) = for k < c do acc + yc[k] * x in acc,
                               ys, 0f32) in
        let alsounused = unused * 2f32 in
        let l = loop (s = 0f32) = for t < 3 do s + streamSeq(fn f32 (int k0, [f32, c] yc, f32 a) =>
                                                      loop (a) = for k < c do a + yc[k] in a, ys, 0f32)
                in s in
        x + 1f32,
      xs)
"""

LIVE = DEAD.replace("x + 1f32", "x + alsounused")


def streams(text: str) -> int:
    k = run_to("kernel", text, "d.fut")
    return sum(isinstance(e, T.Stream) for e in descendants(k.body, T.is_exp))


def test_a_let_nothing_reads_goes_with_the_lets_only_it_reads_and_a_dead_loop():
    assert streams(DEAD) == 0
    assert streams(LIVE) == 1  # `unused` is read through `alsounused`; the loop's result still is not


def test_the_removed_streams_are_listed_by_explain_and_nothing_is_staged():
    values = run_all(DEAD, "d.fut")
    assert [(s.line, s.col) for s in sorted(values["kernel"].unused, key=lambda s: s.line)] == [(4, 22), (8, 52)]
    kernels = kernels_of(values["render"])
    assert "__shared__" not in kernels and "__syncthreads" not in kernels



def test_explain_lists_the_removed_streams(tmp_path):
    path = tmp_path / "d.fut"
    path.write_text(DEAD)
    out = tiler("explain", str(path)).stdout
    assert "streamSeq at 4:22: removed: nothing reads its value" in out and "streamSeq at 8:52: removed" in out


def test_a_level_let_nothing_reads_is_removed():
    text = """
fun [[f32, m], n] main([f32, n] xs, [f32, m] ys) =
  map(fn [f32, m] (f32 x) =>
        let s = streamSeq(fn f32 (int k0, [f32, c] yc, f32 acc) =>
                            loop (acc) = for k < c do acc + yc[k] in acc, ys, 0f32) in
        map(fn f32 (f32 y) => x * y, ys),
      xs)
"""
    k = run_to("kernel", text, "d.fut")
    assert k.levels[0].lets == () and len(k.unused) == 1


def test_a_dead_loop_keeps_its_rest_and_explain_lists_only_what_went():
    text = """
fun [f32, n] main([f32, n] xs, [f32, m] ys) =
  map(fn f32 (f32 x) =>
        loop (s = 0f32) = for t < 3 do s + streamSeq(fn f32 (int k0, [f32, c] yc, f32 a) =>
                                                loop (a) = for k < c do a + yc[k] in a, ys, 0f32)
        in x + streamSeq(fn f32 (int k0, [f32, c] yc, f32 a) =>
                           loop (a) = for k < c do a + yc[k] * x in a, ys, 0f32),
      xs)
"""
    k = run_to("kernel", text, "d.fut")
    assert [(s.line, s.col) for s in k.unused] == [(4, 44)]
    assert streams(text) == 1
