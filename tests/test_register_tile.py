"""Register tiling as three rewrites of a lowered kernel (tiler/transform/register_tile.py):
each does its own step, in order, and the kernel records them."""
from __future__ import annotations

import dataclasses
import re

import pytest
from conftest import BENCHMARKS

from tiler import kir
from tiler.analyse import Options
from tiler.pipeline import run_all
from tiler.transform import register_tile as rt


def _nodes(body, cls) -> list:
    return [n for n in kir.walk(tuple(body)) if isinstance(n, cls)]


def _refs(body, names: set) -> set:
    return {n.name for n in _nodes(body, kir.Ref) if n.name in names}


def test_the_three_steps_each_do_their_own_part_in_order(monkeypatch):
    seen = []

    def recorded(r):
        def run(body, *rest):
            out = r.run(body, *rest)
            seen.append((r.name, body, out))
            return out
        return dataclasses.replace(r, run=run)

    monkeypatch.setattr(rt, "REGISTER_TILING", tuple(recorded(r) for r in rt.REGISTER_TILING))
    module = run_all((BENCHMARKS / "mm.fut").read_text(), "mm.fut")["verify"]
    tiled = next(k for k in module.kernels if k.name == "tiler_mm_tiled")
    assert tiled.rewrites == ("strip-mine", "interchange", "sequentialise")
    assert next(k for k in module.kernels if k.name.endswith("_one_point")).rewrites == ()
    points, groups = {rt.POINT.format(d) for d in range(2)}, {rt.GROUP.format(d) for d in range(2)}
    # the last kernel register-tiled is the 64-bit scalar one; each step's input is the last one's output
    steps = seen[-3:]
    assert [name for name, _, _ in steps] == ["strip-mine", "interchange", "sequentialise"]
    assert steps[1][1] == steps[0][2] and steps[2][1] == steps[1][2]
    (_, one_point, strip_mined), (_, _, interchanged), (_, _, sequential) = steps
    # strip-mine: the one point a thread becomes the micro-tile's current point (its group along each dim)
    assert _refs(one_point, points) == points and not _refs(one_point, groups)
    assert not _refs(strip_mined, points) and _refs(strip_mined, groups) == groups
    # interchange: the copies and barriers stay once a thread, outside the maps over the points
    maps = _nodes(interchanged, kir.PointMap)
    assert maps and not any(_nodes(m.stmts, kir.Barrier) for m in maps)
    assert len(_nodes(interchanged, kir.Barrier)) == len(_nodes(one_point, kir.Barrier)) > 0
    assert {m.dims for m in maps} >= {frozenset({0}), frozenset({1}), frozenset({0, 1})}  # a row, a column, a point
    assert not _nodes(interchanged, kir.ArrayDecl)
    # sequentialise: each map as fully unrolled loops over its points, its variables in per-point arrays
    assert not _nodes(sequential, kir.PointMap) and _nodes(sequential, kir.ArrayDecl)
    loops = [f for f in _nodes(sequential, kir.For) if f.var in groups]
    assert loops and all(f.unroll == kir.FULL for f in loops)


def test_explain_names_the_rewrites_of_each_version():
    from click.testing import CliRunner

    from tiler.cli import main

    out = CliRunner().invoke(main, ["explain", str(BENCHMARKS / "mm.fut")]).output
    assert "rewritten by: strip-mine, interchange, sequentialise" in out


DRAWN = sorted(BENCHMARKS.glob("*.fut")) + sorted((BENCHMARKS.parent / "tests/programs/analysis").glob("*.fut"))


def _shared_loads(body, dims=frozenset()) -> list:
    """(load, dims of the map over points around it: none outside every map) of each shared load."""
    out = []
    for s in body:
        if isinstance(s, kir.PointMap):
            out += _shared_loads(s.stmts, s.dims)
        elif isinstance(s, (kir.For, kir.If)):
            out += _shared_loads(getattr(s, "body", ()) + getattr(s, "then", ()) + getattr(s, "else_", ()), dims)
        else:
            out += [(n, dims) for n in kir.walk(s) if isinstance(n, kir.Load) and n.space == kir.SHARED]
    return out


@pytest.mark.parametrize("path", DRAWN, ids=lambda p: p.stem)
def test_an_input_the_points_of_a_dim_share_is_read_once_for_them(path, monkeypatch):
    """Each staged input invariant to a register-tiled dim d (the analysis's
    reuse: "a_c[k] is read once for the T1 points of dimension 1") must have
    its shared loads, after interchange, free of d's point variables and, in a
    2-D micro-tile, in a map of their own without d."""
    after = []

    def kept(body, *rest):
        out = rt.interchange(body, *rest)
        after.append(out)
        return out

    monkeypatch.setattr(rt, "REGISTER_TILING", tuple(dataclasses.replace(r, run=kept) if r.name == "interchange"
                                                     else r for r in rt.REGISTER_TILING))
    values = run_all(path.read_text(), str(path), Options(no_hoist=True))  # (lavaMD's tiled kernel: its work as written)
    a = values["analyse"]
    dims = {d for d in a.block.spans if a.block.micro(d) > 1} if a.block.register is not None else set()
    said = {(p.name, str(d)) for st in a.streams if st.tiled for p in st.inputs if p.staged
            for d in p.invariant_to & dims}
    if not said:
        pytest.skip("no register tile, or nothing read once for several points")
    loads = [x for body in after for x in _shared_loads(body)]
    held = {p.name: p.staging.pack.array if p.staging.pack else p.shares or p.name  # (shared arrays' names)
            for st in values["analyse"].streams for p in st.inputs if p.staged}
    for name, d in said:
        mine = [(load, dims) for load, dims in loads if load.buffer.startswith(f"sh_{held[name]}")]
        point = {rt.GROUP.format(d), rt.LANE.format(d)}
        assert mine, (name, sorted({load.buffer for load, _ in loads}))
        for load, dims in mine:
            # the same for every point along d (its index has none of d's point variables) and, in a 2-D
            # micro-tile, read in a map of its own without d (a 1-D one keeps it in the points' map: nvcc
            # reads it once for the unrolled points)
            assert not _refs((load.index,), point) and not (int(d) in dims and len(dims) > 1), (name, d, load, dims)


def test_show_rewrites_prints_what_each_rewrite_produced():
    """explain --show-rewrites: the body for one point a thread, then after
    each rewrite; the last is the kernel's own body in the .cu, line for line."""
    from click.testing import CliRunner

    from tiler.cli import main

    runner = CliRunner()
    out = runner.invoke(main, ["explain", str(BENCHMARKS / "mm.fut"), "--show-rewrites"]).output
    parts = out.split("\n// ==== ")
    assert [p.split(":")[0] for p in parts[1:]] == ["as lower writes it", "after strip-mine", "after interchange",
                                                    "after sequentialise"]
    one_point, strip_mined, interchanged, sequential = parts[1:]
    assert "P0_" in one_point and "P0_" not in strip_mined and "G0_" in strip_mined
    assert "for (int point_01 = 0; point_01 < 64; point_01 += 1)" in interchanged and "point_" not in sequential
    cuda = runner.invoke(main, ["compile", str(BENCHMARKS / "mm.fut")]).output
    # (the plan's first kernel: its tiles TMA copies from A's transposed copy, core_tma.py)
    kernel = cuda.split("tiler_mm_tiled_transposed(", 1)[1].split("\n}\n", 1)[0]
    missing = [line for line in sequential.splitlines()[1:] if line.strip() not in kernel]
    # (only what prune drops after: per-point values nothing reads, named nowhere in the kernel)
    names = [re.match(r" *(?:int )?(\w+)", line)[1] for line in missing]
    assert missing and not any(re.search(rf"\b{n}\b", kernel) for n in names), missing
    plain = runner.invoke(main, ["explain", str(BENCHMARKS / "softmax.fut"), "--show-rewrites"])
    assert plain.exit_code == 0 and plain.output.startswith("no register tile in this plan")
    # the kernel shown is one of the module's, by name: a fissioned fold's pairs, a plan reading transposed copies
    pairs = "the fissioned pairs' kernel: "
    for path, args, name in (("benchmarks/kmeans.fut", [], pairs + "tiler_kmeans_pairs_tiled"),
                             ("tests/programs/analysis/promoted_row.fut", ["--transpose"],
                              "tiler_promoted_row_tiled_transposed")):
        shown = runner.invoke(main, ["explain", str(BENCHMARKS.parent / path), "--show-rewrites", *args]).output
        assert shown.startswith(f"// {name}:"), shown[:200]
        name = name.removeprefix(pairs)
        assert f"{name}(" in runner.invoke(main, ["compile", str(BENCHMARKS.parent / path), *args]).output
    both = runner.invoke(main, ["explain", str(BENCHMARKS / "mm.fut"), "--show-rewrites", "--json"])
    assert both.exit_code == 1 and "cannot be used together" in both.output
