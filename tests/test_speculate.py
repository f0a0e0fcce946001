"""Speculation (kernel/speculate.py): a stream under an `if` whose test
varies with the points runs at every point, before the `if`, where its
reads are in range at every point; the kernel stage computes what the
source does."""
from __future__ import annotations

import pytest
from conftest import tiler

from tiler.analyse import DEFAULT
from tiler.check import check
from tiler.check import typed as T
from tiler.fuzz.properties import CHUNKINGS, _kernel_stage
from tiler.interp import run
from tiler.pipeline import run_to
from tiler.syntax import parse
from tiler.workload import make_inputs

MASKED = """
fun [[f32, t], s] main([[f32, 64], s] Q, [[f32, 64], t] K{extra}) =
  map(fn [f32, t] (int i) =>
        map(fn f32 (int j) =>
              if {test} then {other}
              else
                let q = {qread} in
                let k = K[j] in
                let d = streamSeq(fn f32 (int e0, [f32, c] qc, [f32, c] kc, f32 acc) =>
                                    loop (acc) = for e < c do acc + qc[e] * kc[e] in acc,
                                  q, k, 0f32)
                in d * 0.125f32,
            iota(t)),
      iota(s))
"""


def masked(test="j > i", other="-1e30f32", qread="Q[i]", extra=""):
    return MASKED.format(test=test, other=other, qread=qread, extra=extra)


def kernel(text: str):
    return run_to("kernel", text, "t.fut", DEFAULT)


def test_a_masked_dot_product_runs_at_every_point_before_its_if():
    k = kernel(masked())
    (r,) = k.speculated
    assert r.names == ("q", "k", "d") and r.dims == (0, 1) and (r.branch.line, r.stream.line) == (5, 9)
    body = k.body
    while isinstance(body, T.Let):
        body = body.body
    assert isinstance(body, T.If) and not any(isinstance(n, T.Stream) for n in _nodes(body))


@pytest.mark.parametrize("sizes", [{"s": 5, "t": 7}, {"s": 9, "t": 3}, {"s": 1, "t": 1}])
def test_the_kernel_stage_computes_what_the_source_does_at_masked_points_too(sizes):
    text = masked(test="j > i + 1", other="f32(j) - 2.5f32")
    prog = check(parse(text, "t.fut"))
    inputs = make_inputs(prog, sizes, None, seed=3)
    results = [run(prog, inputs, c, 3) for c in CHUNKINGS]
    assert kernel(text).speculated and _kernel_stage(prog, inputs, results, 3, text) == []


@pytest.mark.parametrize("case, text", [
    ("a uniform test: every point of a block takes the same branch", masked(test="s > 4")),
    ("a row picked by data: out of range at a masked point", masked(qread="Q[p[j]]", extra=", [int, t] p")),
    ("an integer division in the moved work", masked(qread="Q[i / (j - i)]")),
    ("the other branch is work of its own", masked(other="loop (a = 0f32) = for u < 3 do a + f32(u) in a")),
])
def test_what_may_not_run_at_every_point_stays_under_its_if(case, text):
    assert not kernel(text).speculated, case


def test_the_masked_product_is_tiled_in_two_dims_and_explain_says_why(tmp_path):
    a = run_to("analyse", masked(), "t.fut", DEFAULT)
    assert sorted(a.schedule.block.spans) == [0, 1]
    (tmp_path / "t.fut").write_text(masked())
    r = tiler("explain", str(tmp_path / "t.fut"))
    assert r.returncode == 0, r.stderr
    text = " ".join(r.stdout.split())
    assert "speculated: the stream at 9:25 (with `q`, `k`, `d`), under the `if` at 5:15, runs at every point" in text
    assert "the test varies with dimensions 0, 1" in text


def _nodes(e):
    from tiler.tree import descendants

    return [e, *descendants(e, T.is_exp)]


def test_the_launch_falls_back_to_and_races_the_untiled_kernel_as_written():
    """Where few points take the stream's branch, computing it everywhere
    can cost more than tiling saves: the untiled kernel the tiled versions
    race keeps the stream under its `if`, as --no-tile does."""
    from tiler.pipeline import run_all

    cuda = run_all(masked(), "t.fut", DEFAULT)["render"]
    untiled = cuda[cuda.index("tiler_t_untiled(const"):]
    untiled = untiled[:untiled.index("\n}\n")]
    assert untiled.index("if (") < untiled.index("for (int e ")  # the branch first, then the stream's loop
    tiled = cuda[cuda.index("tiler_t_tiled(const"):]
    tiled = tiled[:tiled.index("\n}\n")]
    assert "__syncthreads()" in tiled and "rival: tiler_t_untiled" in cuda
    assert "--no-speculate" in tiler("compile", "--help").stdout
