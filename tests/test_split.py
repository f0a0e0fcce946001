"""Rows whose reductions are split among a warp's or a block's threads
(analyse/reductions.py, lower/split.py): what is recognised as a reduction
and why not, which versions a module holds and which the launch picks, and
the kernels' shape (their GPU results are tests/test_gpu.py's)."""
from __future__ import annotations

import json
import math

import pytest
from conftest import BENCHMARKS, PROGRAMS, ROOT, tiler

from tiler import kir
from tiler.analyse import DEFAULT, Options, reductions
from tiler.analyse.reductions import (
    BLOCK_SHARE,
    FEW_POINTS_AN_SM,
    MAX_BLOCKS_A_ROW,
    MIN_SPLIT_LENGTH,
    Operator,
    extreme,
    identity,
)
from tiler.errors import PlainError
from tiler.pipeline import run_to

ROW = "fun [f32, n] main([[f32, m], n] A) =\n  map(fn f32 ([f32, m] r) =>\n    {body}\n  , A)\n"


def split_of(text: str, options: Options = DEFAULT):
    return run_to("analyse", text, "t.fut", options).plan.split


@pytest.mark.parametrize("body, ops", [
    ("loop (acc = 0f32) = for k < m do acc + r[k] in acc", "+"),
    ("loop (acc = 1f32) = for k < m do r[k] * acc in acc", "*"),
    ("loop (acc = 0f32) = for k < m do min(r[k], acc) in acc", "min"),
    ("loop (a = 0f32, b = 0f32) = for k < m do let x = r[k] * 2f32 in (max(a, x), b + x) in a + b", "max,+"),
    ("loop (acc = 0f32) = for k < m do acc - r[k] in acc", "+"),  # adds -r[k]
    ("loop (c = 0) = for k < m do if r[k] < 0.5f32 then c + 1 else c in f32(c)", "+"),  # a count
    ("loop (c = 0, s = 0f32) = for k < m do let x = r[k] in if x > 0f32 then (c + 1, s + x) else "
     "if x < -1f32 then (c, min(s, x)) else (c, s) in f32(c) + s", None),  # + and min on s: not one operator
    ("loop (c = 0, s = 1f32) = for k < m do let x = r[k] in if x > 0f32 then (c + 1, s * x) else (c - 2, s) "
     "in f32(c) + s", "+,*"),
    # the same updates with an `if` for each value, not one for the tuple
    ("loop (a = 1f32, c = 0) = for k < m do let x = r[k] in (min(a, x), if x < 0.5f32 then c + 1 else c) "
     "in a + f32(c)", "min,+"),
    ("loop (c = 0, s = 0f32) = for k < m do let x = r[k] in (if x > 0f32 then c + 1 else if x < -1f32 then c - 2 "
     "else c, s + x) in f32(c) + s", "+,+"),
    ("loop (c = 0, s = 0f32) = for k < m do let x = r[k] in (c + 1, if x > 0f32 then s + x else min(s, x)) "
     "in f32(c) + s", None),
    ("loop (a = 1f32, c = 0f32) = for k < m do let x = r[k] in if x < 0f32 then (min(a, x), if x < -1f32 "
     "then c + 1f32 else c) else (a, c) in a + c", "min,+"),  # a value's `if` under the tuple's
])
def test_reductions_are_recognised_by_their_operators(body, ops):
    split = split_of(ROW.format(body=body))
    if ops is None:
        assert not split.reductions and "combined with + and min on different paths" in split.others[0].reason
        return
    (r,) = split.reductions
    assert r.split and ",".join(op.value for op in r.operators) == ops and r.length == "m"


@pytest.mark.parametrize("body, why", [
    ("loop (acc = 0f32) = for k < m do r[k] - acc in acc", "not combined with +, -, *, min or max"),
    ("loop (acc = 0f32) = for k < m do if acc > 1f32 then acc else acc + r[k] in acc", "tests the carried value"),
    ("loop (acc = 0f32) = for k < m do acc + acc * r[k] in acc", "reads the carried value `acc`"),
    ("loop (acc = 0f32) = for k < m do let t = acc * 2f32 in t + r[k] in acc", "a `let` in its body reads"),
    ("loop (a = 0f32, b = 0f32) = for k < m do (a + r[k], a) in b", "`b` is not combined"),
    ("loop (acc = 0f32) = for k < m do acc + acc in acc", "`acc` is not one operand"),
    ("loop (a = 0f32, b = 0f32) = for k < m do (a + r[k], if a > 1f32 then b + r[k] else b) in b",
     "tests the carried value `a`"),
    ("loop (a = 0f32, b = 0f32) = for k < m do (a + r[k], if r[k] > 1f32 then b + r[k] else a) in b",
     "`b` is not combined"),
])
def test_a_loop_that_is_not_a_reduction_says_why(body, why):
    split = split_of(ROW.format(body=body))
    assert not split.active and split.reductions == ()
    (o,) = split.others
    assert why in o.reason, o.reason


def test_a_short_loop_is_not_split_and_shared_inputs_only_for_few_points():
    few = split_of(ROW.format(body="loop (acc = 0f32) = for k < 16 do acc + r[k % m] in acc"))
    assert not few.active and "too few" in few.reductions[0].reason
    mm = module_of("mm")
    assert mm.select({"m": 4096, "n": 4096, "q": 4096}, 132).tiled and not mm.select(
        {"m": 4096, "n": 4096, "q": 4096}, 132).lanes  # many points: the tiled kernel shares the inputs
    assert mm.select({"m": 64, "n": 32768, "q": 64}, 132).lanes  # 4,096 points, fewer than 64 an SM
    assert not mm.select({"m": 64, "n": 32768, "q": 64 * 132}, 132).lanes
    assert "fewer than 64 an SM" in run_to("analyse", (BENCHMARKS / "mm.fut").read_text(), "mm.fut").plan.split.reason


def test_identities_leave_every_start_value_alone():
    """-0.0 for a float sum; NaN for a float minimum or maximum (fmin and fmax
    pass over it, so a row of NaN stays NaN, as the loop in order leaves it);
    the int limits; a pair's comparisons start from infinity."""
    assert str(identity(Operator.ADD, "f32")) == "-0.0" and identity(Operator.MUL, "i32") == 1
    assert math.isnan(identity(Operator.MIN, "f64")) and math.isnan(identity(Operator.MAX, "f32"))
    assert identity(Operator.MAX, "i32") == -2**31 and identity(Operator.MIN, "i64") == 2**63 - 1
    assert identity(Operator.MAX, "i64") == -2**63
    assert extreme(True, "f32") == float("inf") and extreme(False, "i32") == -2**31


def module_of(name: str, options: Options = DEFAULT) -> kir.Module:
    path = BENCHMARKS / f"{name}.fut"
    return run_to("verify", path.read_text(), path.name, options)


@pytest.mark.parametrize("sizes, lanes", [
    ({"n": 65536, "m": 512}, 32), ({"n": 8192, "m": 8192}, 256), ({"n": 1024, "m": 65536}, 1024),
    ({"n": 64, "m": 4096}, 1024), ({"n": 1000, "m": 4000}, 256),
])
def test_the_launch_picks_the_lanes_by_the_rows_count_and_length(sizes, lanes):
    assert module_of("softmax").select(sizes, 132).lanes == lanes


def test_short_rows_with_nothing_per_point_run_the_tiled_kernel():
    module = module_of("rowsum")
    assert module.select({"n": 262144, "m": MIN_SPLIT_LENGTH - 1}, 132).lanes == 0
    assert module.select({"n": 262144, "m": MIN_SPLIT_LENGTH}, 132).lanes == 32
    assert module.select({"n": 262144, "m": 64}, 132).tiled  # the tiled kernel's versions follow


def test_split_versions_are_raced_against_the_untiled_kernel_with_the_same_offsets():
    module = module_of("softmax")
    for v in module.versions:
        if v.kernel.lanes:
            assert module.rival(v.kernel).name == f"tiler_softmax_untiled{'_wide' if v.kernel.wide else ''}"


def test_a_warp_a_row_shuffles_and_a_block_a_row_meets_at_barriers():
    module = module_of("softmax")
    by_lanes = {k.lanes: k for k in module.kernels if k.lanes and not k.wide}
    warp, block = by_lanes[32], by_lanes[256]
    assert warp.block == (32, 8, 1) and block.block == (256, 1, 1)
    assert not warp.shared and not any(isinstance(s, kir.Barrier) for s in kir.statements(warp.body))
    assert sum(isinstance(s, kir.Barrier) for s in kir.statements(block.body)) == 4  # two a reduction
    assert [a.elems for a in block.shared] == [8, 8]  # one partial result a warp, each reduction
    shuffles = [n for n in kir.walk(warp.body) if isinstance(n, kir.Call) and n.fn == "shuffle_xor"]
    assert len(shuffles) == 10  # 5 butterfly steps, each reduction


def test_lanes_fix_the_threads_a_row_and_steering_options_keep_the_tiled_kernel():
    (k, *_) = module_of("softmax", Options(lanes=64)).kernels
    assert k.lanes == 64 and k.block == (64, 1, 1)
    tiled = module_of("softmax", Options(tile=(64,)))
    assert not any(k.lanes for k in tiled.kernels)
    assert not any(k.lanes for k in module_of("softmax", Options(no_split=True)).kernels)


@pytest.mark.parametrize("flag, message", [("--lanes=100", "threads a row are whole warps"),
                                           ("--lanes=2048", "threads a row are whole warps")])
def test_a_bad_lane_count_is_a_user_error(flag, message):
    r = tiler("explain", BENCHMARKS / "softmax.fut", flag)
    assert r.returncode == 1 and message in r.stderr and "Traceback" not in r.stderr


def test_lanes_and_no_split_contradict():
    from tiler.analyse import make_options

    with pytest.raises(PlainError, match="contradict"):
        make_options(no_split=True, lanes=64)


def test_explain_lists_the_reductions_and_the_split_versions():
    r = tiler("explain", PROGRAMS / "analysis" / "reduce_int.fut", "--json")
    data = json.loads(r.stdout)["reductions"]
    assert data["rows"] == 1 and [lp["operators"] for lp in data["loops"]] == [["+", "max"]]
    assert "reads the carried value `h`" in data["not_reductions"][0]["reason"]
    text = tiler("explain", BENCHMARKS / "softmax.fut").stdout
    assert "loop at 9:30: a reduction by max; split among a row's threads" in text
    assert "split, 32 threads a row: when" in text
    shown = tiler("explain", BENCHMARKS / "softmax.fut", "--show-transformed").stdout
    assert "split by max: thread t of the row folds iterations t, t + T" in shown


def test_tune_tries_the_threads_a_row_and_one_thread_a_point():
    from tiler.tune.autotune import _same_family, families

    analysis = run_to("analyse", (BENCHMARKS / "softmax.fut").read_text(), "softmax.fut")
    name, values = families(analysis)[0]
    assert name == "split" and {"lanes": 32} in values and {"lanes": 1024} in values and values[-1] == {"no_split": True}
    assert {"several_blocks": True} in values
    assert _same_family("lanes", "split") and _same_family("no_split", "split")
    assert _same_family("several_blocks", "split")
    mm = run_to("analyse", (BENCHMARKS / "mm.fut").read_text(), "mm.fut")
    assert dict(families(mm))["split"][-1] == {"no_split": True}  # a product's few points split


@pytest.mark.parametrize("body, op", [
    ("let (i, v) = loop (i = 0, v = 1e30f32) = for k < m do if r[k] < v then (k, r[k]) else (i, v) in (i, v) "
     "in f32(i) + v", "argmin"),
    ("let (v, i) = loop (v = 0f32, i = 0) = for k < m do if v <= r[k] then (r[k], k) else (v, i) in (v, i) "
     "in f32(i) + v", "argmax"),
])
def test_a_pair_of_an_extreme_and_its_index_is_a_reduction(body, op):
    (r,) = split_of(ROW.format(body=body)).reductions
    assert r.split and {o.value for o in r.operators} == {op}


@pytest.mark.parametrize("body, why", [
    ("let (i, v) = loop (i = 0f32, v = 1e30f32) = for k < m do if r[k] < v then (f32(k), r[k]) else (v, i) "
     "in (i, v) in i + v", "does not keep the carried values"),
    ("let (i, v) = loop (i = 0, v = 1e30f32) = for k < m do if r[k] < v then (i + k, r[k]) else (i, v) in (i, v) "
     "in f32(i) + v", "an index that reads no carried value"),
    ("let (i, v) = loop (i = 0, v = 1e30f32) = for k < m do if r[k] < 0.5f32 then (k, r[k]) else (i, v) in (i, v) "
     "in f32(i) + v", "does not compare a term with one carried value"),
])
def test_a_pick_that_is_not_one_says_why(body, why):
    split = split_of(ROW.format(body=body))
    (o,) = split.others
    assert why in o.reason, o.reason


def test_a_reduction_over_a_chunk_has_no_length_the_launch_could_test():
    """Its length is the chunk's, a name inside the kernel only: the launch
    tests no length (and the module compiles; nvcc refused `c >= 256`)."""
    text = """fun [f32, n] main([[f32, m], n] A) =
  map(fn f32 ([f32, m] r) =>
        streamSeq(fn f32 (int kk, [f32, c] xc, f32 acc) =>
                    loop (acc) = for t < 2 do
                      acc * 0.5f32 + streamSeq(fn f32 (int k2, [f32, c2] yc, f32 b) =>
                                                 loop (b) = for k < c2 do b + yc[k] in b, xc, 0f32)
                    in acc
                 , r, 0f32)
     , A)
"""
    split = split_of(text)
    assert split.active and [r.length for r in split.reductions if r.split] == [None] and not split.gate
    module = run_to("verify", text, "t.fut")
    names = {n.name for v in module.versions for n in kir.walk(v.condition) if isinstance(n, kir.Ref)}
    assert names <= {"n", "m", "tiler_multiprocessors"}, names


def test_outer_rows_stay_within_grid_y_and_the_untiled_kernel_takes_more():
    """Found by a review: 100,000 matrices would need 100,000 blocks along
    grid y, one a row; the launch then runs the untiled kernel."""
    module = module_of("rowsum3d")
    assert module.select({"b": 100000, "n": 2, "m": 256}, 132).lanes == 0
    assert module.select({"b": 65535, "n": 2, "m": 256}, 132).lanes
    literal = split_of("""fun [[f32, n], 70000] main([[[f32, m], n], 70000] X) =
  map(fn [f32, n] ([[f32, m], n] mat) =>
        map(fn f32 ([f32, m] row) => loop (acc = 0f32) = for k < m do acc + row[k] in acc, mat), X)
""")
    assert not literal.active and "70,000 blocks along grid y" in literal.reason


def test_a_tiled_stream_inside_the_row_keeps_the_tiled_kernel():
    """Found by a review: a product divided by its row's norm; splitting the
    rows would read the product's staged inputs from global memory."""
    text = """fun [[f32, p], n] main([[f32, m], n] A, [[f32, p], m] B) =
  let Bt = transpose(B) in
  map(fn [f32, p] ([f32, m] a) =>
        let s = loop (acc = 0f32) = for k < m do acc + a[k] * a[k] in acc in
        map(fn f32 ([f32, m] b) =>
              streamSeq(fn f32 (int kk, [f32, c] ac, [f32, c] bc, f32 acc) =>
                          loop (acc) = for k < c do acc + ac[k] * bc[k] in acc, a, b, 0f32) / s, Bt), A)
"""
    split = split_of(text)
    assert split.few and reductions.Test("rows", "<", FEW_POINTS_AN_SM, True) in split.gate  # else the tiled kernel
    assert split_of(text, Options(lanes=128)).active


def test_gated_split_versions_race_the_untiled_kernel_in_place():
    """Found by a review: not the version that transposes its input first."""
    path = PROGRAMS / "analysis" / "reduce_pick.fut"
    module = run_to("verify", path.read_text(), path.name)
    rivals = {module.rival(v.kernel).name for v in module.versions if v.kernel.lanes}
    assert rivals == {"tiler_reduce_pick_untiled", "tiler_reduce_pick_untiled_wide"}


def test_a_file_named_tiled_keeps_its_name_in_the_split_kernels():
    module = run_to("verify", (BENCHMARKS / "softmax.fut").read_text(), "x_tiled.fut")
    assert "tiler_x_tiled_split32" in {k.name for k in module.kernels}


@pytest.mark.parametrize("name, sizes, kernels", [
    ("softmax", {"n": 8, "m": 1 << 18}, 3), ("layernorm", {"n": 100, "m": 1 << 20}, 3),
    ("rownorm", {"n": 64, "m": 1 << 20}, 2), ("rowsum", {"n": 1, "m": 1 << 26}, 2),
])
def test_few_long_rows_run_several_blocks_a_row_a_kernel_each_reduction(name, sizes, kernels):
    """Fewer rows than SMs: a block a row would leave SMs idle. Each stage
    folds one reduction, a block each BLOCK_SHARE iterations, and leaves one
    partial result a block in scratch memory; the last kernel combines them."""
    k = module_of(name).select(sizes, 132)
    assert len(k.launches) == kernels and k.lanes == 256
    blocks = min(-(-sizes["m"] // BLOCK_SHARE), MAX_BLOCKS_A_ROW)  # 2^26: 8,192 shares, 2,048 blocks
    assert all(s.grid_dims(sizes) == (blocks, sizes["n"], 1) for s in k.stages)
    assert k.grid_dims(sizes) == ((blocks if kernels == 3 else 1), sizes["n"], 1)  # softmax's points, or one store
    assert [kir.evaluate(s.count, sizes) for s in k.scratch] == [sizes["n"] * blocks] * (kernels - 1)
    assert [p.name for p in k.params] == [p.name for p in k.stages[0].params]  # one argument list for the launch
    stores = [s for s in kir.statements(k.stages[-1].body) if isinstance(s, kir.Store) and s.buffer.startswith("partials")]
    assert stores and not any(isinstance(s, kir.Store) and s.buffer.startswith("out") for s in kir.statements(k.stages[0].body))


@pytest.mark.parametrize("sizes", [{"n": 132, "m": 1 << 20}, {"n": 8, "m": (1 << 20) - 1}, {"n": 8, "m": 65536}])
def test_rows_as_many_as_the_sms_or_short_keep_a_block_a_row(sizes):
    assert not module_of("rownorm").select(sizes, 132).stages


def test_a_reduction_in_a_branch_keeps_a_block_a_row():
    """A kernel of several blocks ends right after its reduction: one the row reaches only in an `if` cannot."""
    split = split_of(ROW.format(body="if r[0] > 0f32 then loop (acc = 0f32) = for k < m do acc + r[k] in acc "
                                     "else 0f32"))
    assert split.active and not split.several
    assert not any(c.several for c in split.choices)


def test_the_host_launcher_takes_scratch_and_launches_the_stages_in_order():
    cuda = run_to("render", (BENCHMARKS / "softmax.fut").read_text(), "softmax.fut")
    case = cuda[cuda.index("case 1: {"):cuda.index("case 2: {")]
    alloc, stage0, stage1 = (case.index(s) for s in ("cudaMallocAsync((void**)&partials,", "_stage0<<<", "_stage1<<<"))
    main, free = case.index("tiler_softmax_split256_blocks<<<"), case.index("cudaFreeAsync(partials")
    assert alloc < stage0 < stage1 < main < free
    assert case.count("if (tiler_err == cudaSuccess)") == 6  # two allocations, the launches, each stage, the last


def test_explain_names_the_kernels_of_several_blocks_a_row():
    done = tiler("explain", str(BENCHMARKS / "softmax.fut"))
    assert "min(ceil(m / 8192), 2048) blocks of 256 threads a row in 3 kernels: when" in \
        done.stdout.replace("\n", " ")
    assert "rows < the GPU's SM count" in done.stdout.replace("\n", " ")


@pytest.mark.parametrize("sizes", [{"n": 8192, "m": 8192}, {"n": 64, "m": 1 << 20}])
def test_sizes_given_when_compiling_keep_an_untiled_rival_in_place(sizes):
    """Found by `tiler bench`: with the sizes given, every version of the
    tiled kernel's reads A transposed, and the split versions had no rival."""
    path = BENCHMARKS / "rownorm.fut"
    module = run_to("verify", path.read_text(), path.name, Options(sizes=tuple(sorted(sizes.items()))))
    rivals = {module.rival(v.kernel) for v in module.versions if v.kernel.lanes}
    assert {(k.name, k.transposes) for k in rivals} == {("tiler_rownorm_untiled", ()), ("tiler_rownorm_untiled_wide", ())}


def test_several_blocks_are_forced_by_an_option_where_they_can_run():
    """`--several-blocks` (a tuner's choice too): the one split version, of
    --lanes threads a block (256 by default); a row that cannot stop after a
    reduction keeps a block a row."""
    (k, *_) = module_of("softmax", Options(several_blocks=True)).kernels
    assert len(k.stages) == 2 and k.lanes == 256
    (k, *_) = module_of("rowsum", Options(several_blocks=True, lanes=1024)).kernels
    assert len(k.stages) == 1 and k.block == (1024, 1, 1)
    branch = split_of(ROW.format(body="if r[0] > 0f32 then loop (acc = 0f32) = for k < m do acc + r[k] in acc "
                                      "else 0f32"), Options(several_blocks=True))
    assert [(c.lanes, c.several) for c in branch.choices] == [(256, False)]
    for flags in (("--several-blocks", "--no-split"), ("--several-blocks", "--no-tile")):
        r = tiler("explain", BENCHMARKS / "softmax.fut", *flags)
        assert r.returncode == 1 and "contradict each other" in r.stderr


@pytest.mark.parametrize("sizes, several", [({"n": 70000, "m": 1 << 20}, False), ({"n": 4, "m": 0}, False),
                                            ({"n": 65535, "m": 1}, True)])
def test_forced_several_blocks_stay_within_the_grid_and_need_iterations(sizes, several):
    """Found by a review: with --several-blocks the rows sit on grid y (at
    most 65,535), and a row of no iterations has no blocks to fold it; past
    either, a block a row runs."""
    k = module_of("softmax", Options(several_blocks=True)).select(sizes, 132)
    assert bool(k.stages) == several and k.lanes == 256


def test_forced_several_blocks_show_transformed_and_say_why_not():
    shown = tiler("explain", BENCHMARKS / "softmax.fut", "--several-blocks", "--show-transformed")
    assert shown.returncode == 0 and "several blocks of 256 threads" in shown.stdout
    branch = split_of(ROW.format(body="if r[0] > 0f32 then loop (acc = 0f32) = for k < m do acc + r[k] in acc "
                                      "else 0f32"), Options(several_blocks=True))
    assert "--several-blocks: a reduction lies in an `if`'s branch" in branch.reason


def test_a_stage_says_which_reduction_it_folds_of_how_many():
    (k, *_) = module_of("softmax", Options(several_blocks=True)).kernels
    assert ["folds reduction 1 of 2" in s.summary[0] for s in k.stages] == [True, False]
    assert "folds reduction 2 of 2" in k.stages[1].summary[0]


def analysis_module(name: str, options: Options = DEFAULT) -> kir.Module:
    path = PROGRAMS / "analysis" / f"{name}.fut"
    return run_to("verify", path.read_text(), path.name, options)


@pytest.mark.parametrize("sizes, kernel", [
    ({"n": 65536, "m": 1024}, "tiler_col_stats_split32_cols_blocks"),  # 32 blocks of columns: several blocks each
    ({"n": 8192, "m": 8192}, "tiler_col_stats_split32_cols"),  # more blocks of columns than SMs
    ({"n": 4000, "m": 100}, "tiler_col_stats_split32_cols"),  # too short for two shares
    ({"n": MIN_SPLIT_LENGTH - 1, "m": 100000}, "tiler_col_stats_untiled"),
])
def test_columns_run_side_by_side_and_several_blocks_each_when_few(sizes, kernel):
    assert analysis_module("col_stats").select(sizes, 132).name == kernel


def test_rows_side_by_side_meet_in_shared_memory_in_lane_order():
    """A block of 32 columns, each column's 32 threads down the block: every
    lane writes its share, and after a barrier merges the column's shares in
    lane order (no shuffles: a column's lanes lie in different warps)."""
    module = analysis_module("col_stats")
    k = next(k for k in module.kernels if k.name == "tiler_col_stats_split32_cols")
    assert k.block == (32, 32, 1) and k.grid[0] == ("m", 32)
    assert [a.elems for a in k.shared] == [1024, 1024]  # a share a thread, each reduction
    assert sum(isinstance(s, kir.Barrier) for s in kir.statements(k.body)) == 4
    assert not [n for n in kir.walk(k.body) if isinstance(n, kir.Call) and n.fn == "shuffle_xor"]
    several = next(k for k in module.kernels if k.name == "tiler_col_stats_split32_cols_blocks")
    assert len(several.stages) == 2 and several.grid[1] == ("m", 32)
    assert not any("_cols" in k.name for k in analysis_module("row_sums_not_columns").kernels)
    assert not any("_cols" in k.name for k in analysis_module("col_stats", Options(lanes=64)).kernels)


def test_a_few_points_split_runs_where_the_points_cannot_fill_the_gpu():
    """X^T Y of 64 x 64 outputs: a split for its 4,096 points, 32 side by
    side a block (X's element one read for the warp, Y's a run); given sizes
    of many points, none; its 64-bit versions keep blocks of 256 threads
    (lavaMD's body at 1,024 threads a block, 64 registers each, spilled)."""
    few = analysis_module("xty_few")
    # (split-K first, raced against this split: tests/test_split_k.py)
    assert few.select({"n": 32768, "p": 64, "q": 64}, 132).name == "tiler_xty_few_split32_cols_blocks_k"
    assert few.ahead({"n": 32768, "p": 64, "q": 64}, 132).name == "tiler_xty_few_split32_cols_blocks"
    assert not few.select({"n": 32768, "p": 64, "q": 64 * 132}, 132).lanes
    assert few.main.name == "tiler_xty_few_tiled"  # the plan's own versions follow the few points' splits
    sized = analysis_module("xty_few", Options(sizes=(("p", 64), ("q", 4096))))
    assert not any(k.lanes for k in sized.kernels)
    assert not [k for k in module_of("lavamd_rodinia").kernels if k.wide and k.lanes == 1024]


def test_welford_lanes_merge_the_lower_lanes_share_first():
    """Chan's combine rounds differently with its operands swapped: both
    lanes of a butterfly pair put the lower lane's share first, so every
    lane of the row ends with the same mean (a branch on it then goes one
    way for the whole warp; found by a review)."""
    k = next(k for k in analysis_module("row_welford_int").kernels if k.name == "tiler_row_welford_int_split32")
    ordered = [n for n in kir.walk(k.body) if isinstance(n, kir.Select) and getattr(n.cond, "name", "").endswith("up")]
    assert len(ordered) >= 6 * 5  # each of the 3 values, both operands, at each of the 5 steps


def test_rows_side_by_side_need_every_reduction_reached_alike_and_shared_memory_to_fit():
    """32 columns a block meet at barriers: a reduction only some columns
    reach (an `if` on the column) keeps a column a warp; so do shares past
    the static shared memory a block has (7 sums of f64: 56 KiB)."""
    assert not analysis_module("col_if_column").kernels[0].name.endswith("_cols") and not any(
        "_cols" in k.name for k in analysis_module("col_if_column").kernels)
    def sums(count):
        lets = "".join(f"let s{i} = loop (s{i} = 0f64) = for i < n do s{i} + X[i, j] * {i}f64 in s{i} in "
                       for i in range(count))
        total = " + ".join(f"s{i}" for i in range(count))  # (each one used: a dead one is removed)
        return split_of(f"fun [f64, m] main([[f64, m], n] X) =\n  map(fn f64 (int j) => {lets}{total}, iota(m))\n")
    assert sums(5).columns  # 40 KiB
    assert sums(7).active and not sums(7).columns


def test_a_few_points_split_has_no_warp_a_row_but_for_its_own_rows():
    """A warp a row wants 32 rows an SM and more; the few-points split runs
    only below that: none of its lane choices is a warp. Only where each
    point streams its own row (a mat-vec's) does a warp a row run, as a
    version of its own for any number of points, raced ahead of the rest."""
    module = module_of("matvec")
    split = run_to("analyse", (BENCHMARKS / "matvec.fut").read_text(), "matvec.fut").plan.split
    assert split.few and split.own_warp and not any(c.lanes == 32 for c in split.choices)
    warps = [v for v in module.versions if v.kernel.lanes == 32 and "_cols" not in v.kernel.name]
    assert len(warps) == 2 and all(v.ahead and v.few for v in warps)  # (with 32- and 64-bit offsets)


def test_a_version_that_could_never_run_is_left_out():
    """An all-pairs fold whose rows are as many as they are long (n rows of
    n): several blocks a row want 2^20 elements a row and at most 65,535
    rows, which one size cannot both be."""
    from tiler.analyse.reductions import Test
    from tiler.versions.split import possible

    several = (Test("rows", "<", 1, True), Test("length", ">=", 1048576), Test("n", "<=", 65535))
    assert not possible(several, ("n",), "n") and possible(several, ("n",), "m")
    assert not possible((Test("length", ">=", 256),), ("n",), 100) and possible((Test("rows", "<", 64, True),), (), 9)
    from tiler.versions import versions_of

    text = (ROOT / "corpus" / "b_radius_count3d.fut").read_text()
    names = [v.build.name for v in versions_of(run_to("analyse", text, "r.fut")).versions]
    assert not any(v.endswith("_blocks") for v in names) and any("split256" in v for v in names), names


def test_a_heavy_body_splits_for_few_points_up_to_more_points_an_sm():
    """A reduction every point runs over the same vector, splitting for few
    points: a body of a multiply and an add up to 64 points an SM; one
    with an f64 exp a step (priced 40 f32 adds) up to 256, where one thread
    a point would still leave an SM's issue slots idle."""
    text = """fun [f64, n] main([f64, n] k, [f64, m] z) =
  map(fn f64 (f64 kk) =>
        streamSeq(fn f64 (int p0, [f64, c] zc, f64 acc) =>
                    loop (acc) = for p < c do acc + {body} in acc, z, 0f64), k)
"""
    light, heavy = split_of(text.format(body="kk * zc[p]")), split_of(text.format(body="exp(kk * zc[p])"))
    assert light.few and light.few_rows == FEW_POINTS_AN_SM == 64
    assert reductions.Test("rows", "<", 64, True) in light.gate and "fewer than 64 an SM" in light.reason
    assert heavy.few and heavy.few_rows == reductions.HEAVY_FEW_POINTS_AN_SM == 256
    assert reductions.Test("rows", "<", 256, True) in heavy.gate
    assert "fewer than 256 an SM" in heavy.reason and \
        f"each step costing {reductions.HEAVY_BODY} f32 adds or more" in heavy.reason
    # sizes given when compiling: 200 an SM (of 132) is few for the heavy body alone
    sized = Options(sizes=(("n", 200 * 132), ("m", 100000)))
    assert not split_of(text.format(body="kk * zc[p]"), sized).active
    assert split_of(text.format(body="exp(kk * zc[p])"), sized).active


def test_a_square_root_and_a_division_a_step_make_a_body_heavy():
    """A 2-D n-body's step (a square root, a division and ten adds and
    multiplies, priced 29): split for few points up to 256 an SM, where its
    tiled kernel, one body a thread, ran 2.3x slower at 182 (H200)."""
    path = ROOT / "corpus" / "b_nbody2d_helper_f32.fut"
    split = run_to("analyse", path.read_text(), path.name).plan.split
    assert split.few and split.few_rows == reductions.HEAVY_FEW_POINTS_AN_SM


def test_a_kernel_whose_stage_has_bounded_tiles_does_not_run_past_them():
    """mlp's split-K: its stage's tiles hold rows of at most 64 (d <= 64);
    the kernel with that stage may not be launched at d = 100 (a test
    harness running every version would otherwise read past the tiles)."""
    from tiler.pipeline import run_all

    path = PROGRAMS / "analysis" / "mlp_bias_inside.fut"
    module = run_all(path.read_text(), path.name, Options())["verify"]
    staged = [k for k in module.kernels if any(s.bounds for s in k.stages)]
    assert staged
    assert not any(k.runs_at({"d": 100, "h": 100, "n": 100}) for k in staged)
    assert all(k.runs_at({"d": 37, "h": 100, "n": 100}) for k in staged)
