"""Loops that walk arrays whole along their index, read as streams (stage
`kernel`, tiler/kernel/loops.py), or, under --keep-loops, listed for explain."""
from __future__ import annotations

import dataclasses
import json

import pytest
from conftest import BENCHMARKS, PROGRAMS, tiler

from tiler.analyse import Options
from tiler.check import check
from tiler.check import typed as T
from tiler.fuzz.properties import CHUNKINGS, _kernel_stage
from tiler.interp import run
from tiler.kernel import kernel_of
from tiler.pipeline import run_all, run_to
from tiler.syntax import parse
from tiler.tree import descendants
from tiler.workload import make_inputs

LOOPS = Options()
KEPT = Options(keep_loops=True)

MATVEC_LOOP = """fun [f32, n] main([[f32, m], n] A, [f32, m] x) =
  map(fn f32 ([f32, m] a) =>
        loop (acc = 0f32) = for k < m do acc + a[k] * x[k] in acc,
      A)
"""

# two accumulators, the index in the arithmetic, a literal bound, a loop
# around the one that walks the row, and one to m - 1 that cannot be a stream
SHAPES = {
    "two accumulators": """fun [f32, n] main([[f32, m], n] A, [f32, m] x) =
  map(fn f32 ([f32, m] row) =>
        loop (s = 0f32, t = 1f32) = for k < m do (s + row[k] * x[k] * f32(k), max(t, row[k])) in s + t,
      A)
""",
    "literal bound": """fun [f32, n] main([[f32, 3], n] P, [f32, 3] w) =
  map(fn f32 ([f32, 3] p) => loop (s = 0f32) = for k < 3 do s + p[k] * w[k] in s, P)
""",
    "inside a loop": """fun [f32, n] main([[f32, m], n] A, [f32, m] x) =
  map(fn f32 ([f32, m] row) =>
        loop (s = 0f32) = for t < 3 do
          loop (acc = s) = for k < m do acc + row[k] * x[k] * f32(t + 1) in acc
        in s,
      A)
""",
    "to m - 1": """fun [f32, n] main([[f32, m], n] A) =
  map(fn f32 ([f32, m] r) => loop (acc = 0f32) = for k < m - 1 do acc + abs(r[k + 1] - r[k]) in acc, A)
""",
}


def streams(k: T.Kernel) -> list[T.Stream]:
    return [s for s in descendants(k.body, T.is_exp) if isinstance(s, T.Stream)]


def test_a_loop_over_whole_rows_is_read_as_a_stream_of_them():
    k = run_to("kernel", MATVEC_LOOP, "mv.fut", LOOPS)
    (s,) = streams(k)
    assert s.loop and [b.name for b in s.chunk_params] == ["a_c", "x_c"]
    assert {(p.array, p.param) for p in k.promoted} == {("a", "a_c"), ("x", "x_c")}
    assert all("with the loop" in p.reason for p in k.promoted)


def test_with_keep_loops_the_loop_stays_and_explain_names_it():
    k = run_to("kernel", MATVEC_LOOP, "mv.fut", KEPT)
    assert not streams(k) and not k.promoted
    (x,) = k.streamable
    assert (x.span.line, x.span.col, x.arrays) == (3, 9, ("a", "x"))


def test_the_loop_gets_the_plan_of_its_streamseq_spelling():
    """The mat-vec written with a loop and with streamSeq (benchmarks/matvec): one plan."""
    def plan(text, options):
        data = json.loads(tiler_explain_json(text, options))
        return data["block"]["threads"], [[(i["staged"], i["level"], i["tile"], i["copy"]) for i in s["inputs"]]
                                          for s in data["streams"]]

    spelled = (BENCHMARKS / "matvec.fut").read_text()
    assert plan(MATVEC_LOOP, LOOPS) == plan(spelled, LOOPS)


def tiler_explain_json(text: str, options: Options) -> str:
    from tiler.report.explain import explain_data
    from tiler.source import Source

    values = run_all(text, "p.fut", options)
    return json.dumps(explain_data(values["analyse"], Source(text, "p.fut"), versions=values["versions"]))


def test_a_loop_none_of_whose_reads_can_be_an_input_is_listed_with_why():
    """`b[q, j, 0]` of a map's element of B walks b's first index of three:
    no row of it, nor of a view with its last two axes swapped, is the loop's
    chunk, so the loop stays, and explain says where to look."""
    text = """fun [[f32, m], n] main([[f32, m], n] A, [[[[f32, 2], m], p], n] B) =
  map(fn [f32, m] ([[[f32, 2], m], p] b) =>
        map(fn f32 (int j) => loop (s = 0f32) = for q < p do s + b[q, j, 0] in s, iota(m)),
      B)
"""
    for options in (LOOPS, KEPT):
        (x,) = run_to("kernel", text, "b.fut", options).streamable
        assert "none of its reads at its index can be a stream input" in x.stays


def test_a_loop_inside_a_stream_stays_a_loop():
    """k-means' loop over a centre's features walks a row of the chunk: it
    stays as written, and the CUDA is the CUDA under --keep-loops (without
    the fissioned versions: their pairs' kernel, a program tiler writes,
    streams that loop only where loops are read as streams)."""
    text = (BENCHMARKS / "kmeans.fut").read_text()
    loops, kept = (dataclasses.replace(o, no_fission=True) for o in (LOOPS, KEPT))
    assert run_all(text, "kmeans.fut", loops)["render"] == run_all(text, "kmeans.fut", kept)["render"]


def test_a_loop_that_stops_short_stays_a_loop_and_explain_says_why():
    for options in (LOOPS, KEPT):
        k = run_to("kernel", SHAPES["to m - 1"], "steps.fut", options)
        (x,) = k.streamable
        assert not streams(k) and x.stays.startswith("its bound is not a size or a literal") and not x.arrays


def test_a_loop_around_it_keeps_its_stream_inside():
    k = run_to("kernel", SHAPES["inside a loop"], "in.fut", LOOPS)
    (s,) = streams(k)
    assert s.loop and s.span.line == 4
    assert isinstance(k.body, T.Loop)  # the loop over t, unchanged around it


@pytest.mark.parametrize("name", SHAPES)
def test_the_kernel_stage_computes_what_the_source_does(name):
    """Bit for bit: the interpreter runs the kernel stage's program too."""
    prog = check(parse(SHAPES[name], f"{name}.fut"))
    sizes = {s.name: 37 for s in prog.kernel.sizes}
    inputs = make_inputs(prog, sizes, None, seed=4)
    want = run(prog, inputs)
    for chunking in CHUNKINGS:  # chunks that start past 0 too: the index is the chunk's offset plus its step
        got = run(dataclasses.replace(prog, kernel=kernel_of(prog, loops=True)), inputs, chunking)
        assert all(g.tobytes() == w.tobytes() for g, w in zip(got, want)), chunking


@pytest.mark.parametrize("path", sorted((PROGRAMS / "analysis").glob("loop_*.fut")) +
                         [BENCHMARKS / "rownorm.fut", BENCHMARKS / "rowsum3d.fut"], ids=lambda p: p.stem)
def test_the_fuzzers_kernel_stage_property_holds(path):
    prog = check(parse(path.read_text(), path.name))
    sizes = {s.name: 21 for s in prog.kernel.sizes}
    inputs = make_inputs(prog, sizes, None, seed=2)
    results = [run(prog, inputs, c, 2) for c in CHUNKINGS]  # (the source's, as the check has them)
    assert _kernel_stage(prog, inputs, results, 2, path.read_text()) == []


def test_explain_says_how_each_stream_was_written(tmp_path):
    path = tmp_path / "mv.fut"
    path.write_text(MATVEC_LOOP)
    done = tiler("explain", str(path), "--json", "--keep-loops")
    assert json.loads(done.stdout)["streamable_loops"] == [{"line": 3, "column": 9, "arrays": ["a", "x"],
                                                            "stays": None}]
    done = tiler("explain", str(path), "--json")
    data = json.loads(done.stdout)
    assert [s["written"] for s in data["streams"]] == ["loop"] and data["streamable_loops"] == []
    text = tiler("explain", str(path)).stdout
    assert "loop at 3:9 (read as a streamSeq over the arrays it walks): tiled" in text
    assert "it stays a loop under --keep-loops" in tiler("explain", str(path), "--keep-loops").stdout


def test_no_promote_keeps_loops_too():
    k = run_to("kernel", MATVEC_LOOP, "mv.fut", Options(no_promote=True))
    assert not streams(k) and not k.promoted


def test_the_untiled_kernel_keeps_its_loops_and_the_drawing_shows_the_stream(tmp_path):
    """The untiled kernel is the program as written (its loops loops, none
    listed); --show-transformed draws a loop read as a stream as that
    stream, its reads the stream's inputs, and as a loop under --keep-loops."""
    k = run_to("kernel", MATVEC_LOOP, "mv.fut", Options(no_tile=True))
    assert not streams(k) and not k.streamable
    path = tmp_path / "mv.fut"
    path.write_text(MATVEC_LOOP)
    done = tiler("explain", str(path), "--show-transformed")
    assert done.returncode == 0, done.stderr
    assert "fn f32 (int kk, [f32, chunk] a_c, [f32, chunk] x_c, f32 acc) =>" in done.stdout
    assert "loop (acc) = for k < chunk do" in done.stdout and "iota" not in done.stdout
    assert "a, x, 0.0f32)" in done.stdout
    kept = tiler("explain", str(path), "--show-transformed", "--keep-loops")
    assert kept.returncode == 0 and "streamSeq" not in kept.stdout and "for k < m do" in kept.stdout


def test_a_loop_inside_a_loop_read_as_a_stream_is_said_to_be_its_body():
    text = """fun [f32, n] main([[f32, m], n] A, [f32, m] x) =
  map(fn f32 ([f32, m] row) =>
    loop (acc = 0f32) = for k < m do
      loop (acc) = for j < m do acc + row[j] * x[k] in acc
    in acc, A)
"""
    for options, verb in ((LOOPS, "is"), (KEPT, "would be")):
        (inner,) = [x for x in run_to("kernel", text, "n.fut", options).streamable if x.span.line == 4]
        assert inner.stays == f"it is inside the loop at 3:5, which {verb} read as a stream: it is part of that " \
                              "stream's body"


def test_the_drawing_names_nothing_the_source_names_and_substitutes_what_a_rebinding_loop_reads(tmp_path):
    """The stream's offset is new to the source (a helper's size `kk` stays
    the size), and an inner loop that rebinds the index reads the outer one
    in its start value."""
    path = tmp_path / "d.fut"
    path.write_text("""fun f32 dot([f32, kk] a, [f32, kk] b) =
  loop (acc = 0f32) = for k < kk do
    let t = a[k] * b[k] * f32(kk - k) in
    loop (s = acc + t * f32(k)) = for k < 2 do s + 1f32 in s
  in acc
fun [f32, n] main([[f32, m], n] A, [f32, m] x) =
  map(fn f32 ([f32, m] row) => dot(row, x), A)
""")
    out = tiler("explain", str(path), "--show-transformed").stdout
    assert "fn f32 (int kk1, " in out and "f32(kk - (kk1 + k))" in out
    assert "loop (s = acc + t * f32(kk1 + k)) = for k < 2 do" in out
