"""Program points: every stream and loop of a built kernel has its own
number, and later stages name them by it (never by a node's identity)."""
from __future__ import annotations

from conftest import BENCHMARKS

from tiler.analyse import Options
from tiler.check import typed as T
from tiler.pipeline import run_all, run_to
from tiler.tree import descendants

PRELUDE_LOOP = """
fun [f32, n] main([f32, n] xs, [f32, m] w) =
  let t = loop (s = 0f32) = for j < m do s + w[j] in s in
  map(fn f32 (f32 x) => x * t, xs)
"""


def _points(k: T.Kernel) -> list[int]:
    roots = [pl.value for pl in k.prelude if T.is_exp(pl.value)] + list(k.roots)
    return [n.point for r in roots for n in descendants(r, T.is_exp) if isinstance(n, (T.Stream, T.Loop))]


def test_every_stream_and_loop_has_a_point_of_its_own():
    for name in ("lavamd", "kmeans", "softmax", "mm_rows"):
        points = _points(run_to("kernel", (BENCHMARKS / f"{name}.fut").read_text(), f"{name}.fut"))
        assert points and 0 not in points and len(set(points)) == len(points), (name, points)


def test_a_loop_in_the_host_prelude_has_one_too():
    k = run_to("kernel", PRELUDE_LOOP, "p.fut")  # (the loop is computed once a launch, by a kernel of its own)
    assert not _points(k) and k.launched is not None
    points = _points(k.launched)  # (there read as a stream, chunk by chunk: the stream and its chunk's loop)
    assert points and 0 not in points and len(set(points)) == len(points), points
    (point,) = _points(run_to("kernel", PRELUDE_LOOP, "p.fut", Options(no_hoist=True)))  # (where it was written)
    assert point > 0
    assert run_all(PRELUDE_LOOP, "p.fut")["render"]  # (the analysis names it by its point)


def test_the_schedule_names_the_streams_the_kernel_has():
    values = run_all((BENCHMARKS / "mm.fut").read_text(), "mm.fut", until="analyse")
    planned = {T.point(s.site.stream) for s in values["analyse"].streams}
    assert planned and planned <= set(_points(values["kernel"]))
