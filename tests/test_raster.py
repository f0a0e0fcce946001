"""The order a grid's blocks take their tiles in (analyse/raster.py,
lower/raster.py): groups of rows of tiles for products on the fast matrix
units, the launch's order elsewhere, and every tile taken by one block."""
from __future__ import annotations

import functools

import pytest
from conftest import BENCHMARKS

from tiler import kir, target
from tiler.analyse import Options, make_options
from tiler.analyse.raster import GROUP_ROWS
from tiler.errors import PlainError
from tiler.pipeline import run_all

TENSOR_CORES = Options(tensor_cores=True)


def block_of(path, options: Options | None = None):
    return run_all(path.read_text(), path.name, options or Options(), until="analyse")["analyse"].plan.schedule.block


@pytest.mark.parametrize("name, options", [("mm", TENSOR_CORES), ("aat", TENSOR_CORES), ("mm_rows", TENSOR_CORES),
                                           ("mm_bf16", Options())], ids=["mm", "aat", "mm_rows", "mm_bf16"])
def test_products_on_the_fast_units_take_their_tiles_in_groups_of_rows(name, options):
    block = block_of(BENCHMARKS / f"{name}.fut", options)
    assert block.group_rows == GROUP_ROWS and "panels" in block.group_rows_reason


@pytest.mark.parametrize("path, options, why", [
    (BENCHMARKS / "mm.fut", Options(), "CUDA cores"),  # the FP32 pipe: measured slower grouped
    (BENCHMARKS / "mm_f64.fut", Options(), "FP64 matrix units"),  # (on sm_90's units by default: exact)
    (BENCHMARKS / "mm_f64.fut", TENSOR_CORES, "FP64 matrix units"),
    (BENCHMARKS / "conv2d.fut", Options(), "launch's order"),  # a window: no panels
    (BENCHMARKS / "matvec.fut", Options(), "one dim"),
    (BENCHMARKS / "nbody.fut", Options(), "one dim"),
], ids=["mm", "mm_f64", "mm_f64 tensor cores", "conv2d", "matvec", "nbody"])
def test_other_grids_keep_the_launchs_order_and_say_why(path, options, why):
    block = block_of(path, options)
    assert block.group_rows == 0 and why in block.group_rows_reason


def test_the_option_overrides_the_plan_both_ways():
    assert block_of(BENCHMARKS / "mm.fut", Options(group_rows=3)).group_rows == 3
    off = block_of(BENCHMARKS / "mm_bf16.fut", Options(group_rows=0))
    assert off.group_rows == 0 and "--group-rows 0" in off.group_rows_reason
    with pytest.raises(PlainError, match="rows of tiles"):
        make_options(group_rows=-1)


def _value(e, env: dict, bx: int, by: int) -> int:
    """A renumbering declaration's value, as CUDA computes it (non-negative ints)."""
    if isinstance(e, kir.Const):
        return e.value
    if isinstance(e, kir.Ref):
        return env[e.name]
    if isinstance(e, kir.BlockIdx):
        return {"x": bx, "y": by}[e.axis]
    if isinstance(e, kir.Call) and e.fn == kir.CLAMP:
        return min(_value(a, env, bx, by) for a in e.args)
    a, b = _value(e.a, env, bx, by), _value(e.b, env, bx, by)
    ops = {"+": int.__add__, "-": int.__sub__, "*": int.__mul__, "/": int.__floordiv__, "%": int.__mod__}
    return ops[e.op](a, b)


def _renumbering(k: kir.Kernel) -> list:
    decls = []
    for s in k.body:
        if not (isinstance(s, kir.Decl) and s.name.startswith("tiler_")):
            break
        decls.append(s)
    return decls


@functools.cache
def _grouped_mm_bf16(rows: int | None) -> kir.Kernel:
    module = run_all((BENCHMARKS / "mm_bf16.fut").read_text(), "mm_bf16.fut", Options(group_rows=rows),
                     until="verify")["verify"]
    return next(k for k in module.kernels if _renumbering(k))


@pytest.mark.parametrize("rows", [None, 1024], ids=["default", "1024 rows"])  # (1024: taller than every grid here)
@pytest.mark.parametrize("m, q", [(4096, 4096), (1100, 300), (128, 1000), (8 * 128 + 1, 129), (3000, 130)])
def test_every_tile_of_the_grid_is_taken_by_one_block(m, q, rows):
    k = _grouped_mm_bf16(rows)
    decls = _renumbering(k)
    assert [d.name for d in decls][-2:] == ["tiler_tile_y", "tiler_tile_x"]
    (px, py) = (k.block[0] * 8, k.block[1] * 8)  # the micro-tile's 8 x 8 points a thread
    columns, lines = -(-q // px), min(-(-m // py), target.MAX_GRID["y"])
    sizes = {"m": m, "q": q, "n": 64}
    taken = []
    for by in range(lines):
        for bx in range(columns):
            env = dict(sizes)
            for d in decls:
                env[d.name] = _value(d.init, env, bx, by)
            assert env["tiler_group"] <= lines * columns  # (never past the grid's tiles: no int overflow)
            taken.append((env["tiler_tile_y"], env["tiler_tile_x"]))
    assert sorted(taken) == [(y, x) for y in range(lines) for x in range(columns)]
    if lines > GROUP_ROWS:  # consecutive blocks walk down a group's column first
        assert taken[:2] == [(0, 0), (1, 0)]


def test_a_grid_of_one_axis_keeps_the_launchs_order_whatever_is_given():
    block = block_of(BENCHMARKS / "nbody.fut", Options(group_rows=3))
    assert block.group_rows == 0 and "two axes" in block.group_rows_reason


def test_split_ks_stage_of_a_product_on_the_units_keeps_the_launchs_order():
    module = run_all((BENCHMARKS / "aat.fut").read_text(), "aat.fut", TENSOR_CORES, until="verify")["verify"]
    stages = [s for k in module.kernels for s in k.stages if s.name.endswith("_k_stage0")]
    assert stages and not any(_renumbering(k) for k in stages)
    assert any(_renumbering(k) for k in module.kernels if k.name == "tiler_aat_tiled")
