"""Rows joined as a rewrite of the kernel program (tiler/transform/join_rows.py):
the loop a schedule joins becomes one stream over `JoinRows` inputs, the
schedule's plans follow it, the interpreter runs the rewritten program (its
chunks crossing rows) to the source's result, and the kernels record it."""
from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from conftest import BENCHMARKS, PROGRAMS

from tiler.analyse import Options
from tiler.check import typed as T
from tiler.compare import compare
from tiler.interp import Chunking, run
from tiler.pipeline import run_all
from tiler.report.explain import explain_data
from tiler.report.explain_text import render_text
from tiler.source import Source
from tiler.transform.join_rows import NAME, join_rows
from tiler.tree import descendants
from tiler.workload import load_spec, make_inputs, resolve_sizes

JOINED = [PROGRAMS / "analysis" / "joined_rows.fut", BENCHMARKS / "lavamd.fut", BENCHMARKS / "lavamd_rodinia.fut"]
# each group streams the rows its table picks, as many as its own count says (lanes pick different counts)
UNEQUAL = """
fun [[f32, p], g] main([[int, q], g] nb, [int, g] cnt, [[f32, m], r] Q, [[f32, p], g] X) =
  map(fn [f32, p] (int gi, [f32, p] xs) =>
        map(fn f32 (f32 x) =>
              loop (s = 0f32) = for k < min(cnt[gi], q) do
                let at = min(max(nb[gi, k], 0), r - 1) in
                streamSeq(fn f32 (int kk, [f32, c] qs, f32 s) =>
                            loop (s) = for j < c do s + qs[j] * x in s
                         , Q[at], s)
              in s
           , xs)
     , zip(iota(g), X))
"""
# a joined loop in the start value of another (a cold review found the inner one left out of the rewrite)
IN_START = """
fun [[f32, p], g] main([[int, q], g] nb, [[f32, m], r] Q, [[f32, m], r] W, [[f32, p], g] X) =
  map(fn [f32, p] (int gi, [f32, p] xs) =>
        map(fn f32 (f32 x) =>
              loop (t = loop (s = 0f32) = for k < q do
                          let at = min(max(nb[gi, k], 0), r - 1) in
                          streamSeq(fn f32 (int kk, [f32, c] qs, f32 s) =>
                                      loop (s) = for j < c do s + qs[j] * x in s
                                   , Q[at], s)
                        in s) = for k < q do
                let bt = min(max(nb[gi, k], 0), r - 1) in
                streamSeq(fn f32 (int kk, [f32, c] ws, f32 t) =>
                            loop (t) = for j < c do max(t, ws[j] - x) in t
                         , W[bt], t)
              in t
           , xs)
     , zip(iota(g), X))
"""
CROSSING = (Chunking("fixed", size=3), Chunking("random", seed=5), Chunking("fixed", size=1000))


def _analysed(path, options: Options | None = None):
    values = run_all(path.read_text(), path.name, options or Options(), until="analyse")
    return values["check"], values["analyse"]


def _nodes(kernel: T.Kernel, cls) -> list:
    return [n for r in kernel.roots for n in descendants(r, T.is_exp) if isinstance(n, cls)]


def _inputs(prog, size: int, path=None, seed: int = 1) -> dict:
    """Every size `size`; or, for a benchmark, its own inputs at its test
    sizes (lavaMD's tables of neighbours), drawn from `seed`."""
    spec = load_spec(path) if path is not None else None
    given = {} if spec is not None else {s.name: size for s in prog.kernel.sizes}
    return make_inputs(prog, resolve_sizes(prog, given, spec), spec, seed)


@pytest.mark.parametrize("path", JOINED, ids=lambda p: p.stem)
def test_the_joined_loop_becomes_one_stream_over_joined_rows(path):
    _, a = _analysed(path)
    joined = [s for s in a.streams if s.join is not None and s.join.joined]
    assert joined
    kernel, schedule, rewrites = join_rows(a.kernel, a.schedule)
    assert rewrites == (NAME,)
    loops = {id(n) for n in _nodes(kernel, T.Loop)}
    assert not any(id(s.join.loop) in loops for s in joined)  # the loops are gone
    streams = {id(n): n for n in _nodes(kernel, T.Stream)}
    for plan in schedule.streams:  # every plan names a stream of the rewritten kernel
        assert id(plan.site.stream) in streams
        rows = [isinstance(x, T.JoinRows) for x in plan.site.stream.arrays]
        assert all(rows) if plan.join is not None and plan.join.joined else not any(rows)
    for plan, before in zip(schedule.streams, a.streams):  # and the loop's start values are the stream's
        if plan.join is not None and plan.join.joined:
            assert plan.site.stream.inits == before.join.loop.inits


@pytest.mark.parametrize("path, size", [(JOINED[0], 5), (JOINED[0], 13), (JOINED[0], 40), (JOINED[1], 0),
                                        (JOINED[2], 0)], ids=lambda x: getattr(x, "stem", str(x)))
def test_the_rewritten_program_computes_the_sources_result(path, size):
    prog, a = _analysed(path)
    kernel, _, _ = join_rows(a.kernel, a.schedule)
    inputs = _inputs(prog, size, None if size else path)
    want = run(prog, inputs, Chunking("whole"), 1)
    rewritten = dataclasses.replace(prog, kernel=kernel)
    for chunking in CROSSING:
        assert compare(run(rewritten, inputs, chunking, 1), want, 1e-4).message == ""


@pytest.mark.parametrize("text", [UNEQUAL, IN_START], ids=["unequal_counts", "in_start"])
def test_written_programs_join_and_compute_the_sources_result(text, tmp_path):
    path = tmp_path / "joined.fut"
    path.write_text(text)
    prog, a = _analysed(path)
    kernel, schedule, rewrites = join_rows(a.kernel, a.schedule)
    joined = [s for s in schedule.streams if s.join is not None and s.join.joined]
    assert rewrites == (NAME,) and len(joined) == text.count("streamSeq")
    assert not _nodes(kernel, T.Loop) or all(not isinstance(n.body, T.Stream) for n in _nodes(kernel, T.Loop))
    rewritten = dataclasses.replace(prog, kernel=kernel)
    for size in (3, 11):
        inputs = _inputs(prog, size)
        if "cnt" in inputs:  # counts from 0 to q, so that lanes pick different counts
            inputs["cnt"] = np.arange(len(inputs["cnt"]), dtype=inputs["cnt"].dtype) % (size + 1)
        want = run(prog, inputs, Chunking("whole"), 1)
        for chunking in CROSSING:
            assert compare(run(rewritten, inputs, chunking, 1), want, 1e-4).message == ""
    assert run_all(text, "joined.fut")["verify"] is not None  # lowered, every version


def test_lanes_picking_different_counts_run_row_after_row(monkeypatch, tmp_path):
    """The interpreter's other path: where lanes pick different counts of rows,
    each row is its own stream, a lane's past its count masked."""
    from tiler.interp import evaluate

    seen = []
    picked = evaluate.Evaluator._picked
    monkeypatch.setattr(evaluate.Evaluator, "_picked", lambda self, j, k: seen.append(k) or picked(self, j, k))
    path = tmp_path / "unequal.fut"
    path.write_text(UNEQUAL)
    prog, a = _analysed(path)
    kernel, _, _ = join_rows(a.kernel, a.schedule)
    inputs = _inputs(prog, 6)
    inputs["cnt"] = np.arange(6, dtype=inputs["cnt"].dtype)
    want = run(prog, inputs, Chunking("whole"), 1)
    assert compare(run(dataclasses.replace(prog, kernel=kernel), inputs, Chunking("fixed", size=3), 1),
                   want, 1e-4).message == ""
    assert seen == list(range(5))  # rows 0..4, one at a time: the longest count is 5


def test_chunks_cross_the_rows_borders_in_the_interpreter():
    """The stream folds the rows laid end to end: a chunk of 3 over rows of 5
    holds the end of one row and the start of the next."""
    prog, a = _analysed(JOINED[0])
    kernel, _, _ = join_rows(a.kernel, a.schedule)
    seen = []
    from tiler.interp import evaluate

    over = evaluate.Evaluator._over

    def recorded(self, e, arrays, accs):
        seen.append(arrays[0].shape[self.B])
        return over(self, e, arrays, accs)

    evaluate.Evaluator._over = recorded
    try:
        run(dataclasses.replace(prog, kernel=kernel), _inputs(prog, 5), Chunking("fixed", size=3), 1)
    finally:
        evaluate.Evaluator._over = over
    assert seen == [25]  # q = 5 rows of m = 5: one stream of 25 elements, not five of 5


def test_an_unsound_join_is_caught_by_the_interpreter():
    """The check can fail: a stream whose body weighs each element by its
    position (`kk + j`) is kept apart by the analysis; joined by force, the
    positions run over all the rows and the result changes."""
    prog, a = _analysed(PROGRAMS / "analysis" / "rows_apart.fut")
    plan = next(s for s in a.streams if s.join is not None)
    assert not plan.join.joined
    forced = dataclasses.replace(plan, join=dataclasses.replace(plan.join, joined=True))
    schedule = dataclasses.replace(a.schedule, streams=tuple(forced if s is plan else s for s in a.streams))
    kernel, _, rewrites = join_rows(a.kernel, schedule)
    assert rewrites == (NAME,)
    inputs = _inputs(prog, 9)
    want = run(prog, inputs, Chunking("whole"), 1)
    assert compare(run(dataclasses.replace(prog, kernel=kernel), inputs, Chunking("whole"), 1), want, 1e-4).message


def test_a_schedule_that_joins_nothing_leaves_the_program_as_it_is():
    _, a = _analysed(JOINED[0], Options(join_rows=False))
    kernel, schedule, rewrites = join_rows(a.kernel, a.schedule)
    assert (kernel, schedule, rewrites) == (a.kernel, a.schedule, ())
    _, a = _analysed(JOINED[0])
    assert join_rows(a.kernel, a.plan.untiled)[2] == ()


def test_the_joined_kernels_record_the_rewrite_and_explain_names_it():
    path = JOINED[0]
    values = run_all(path.read_text(), path.name)
    kernels = values["verify"].kernels
    assert any(k.rewrites[:1] == (NAME,) for k in kernels if k.tiled)
    assert all(NAME not in k.rewrites for k in kernels if not k.tiled)
    apart = run_all(path.read_text(), path.name, Options(join_rows=False))["verify"].kernels
    assert all(NAME not in k.rewrites for k in apart)
    data = explain_data(values["analyse"], Source(path.read_text(), path.name), values["verify"])
    assert f"rewritten by: {NAME}" in render_text(data)
