"""Split-K (lower/split_k.py) on the CPU: which programs get the version,
its two kernels and their grids, and how a first launch races it."""
from __future__ import annotations

from conftest import BENCHMARKS, ROOT

from tiler.analyse import Options
from tiler.analyse.reductions import K_FEW_TILES_LENGTH, K_MIN_LENGTH, K_MOST_WORK, K_SHARE, MAX_BLOCKS_A_ROW
from tiler.pipeline import run_all
from tiler.report.versions import condition_text
from tiler.versions.records import FewTiles, leaves

XTY = ROOT / "corpus" / "c_xty_loop_f32.fut"


def module(path, options=None):
    return run_all(path.read_text(), path.name, options or Options())


def k_versions(values):
    return [v for v in values["verify"].versions if v.plan.build.k_split]


def test_a_product_of_few_outputs_gets_a_split_k_version_first():
    values = module(XTY)
    (v,) = k_versions(values)
    assert values["verify"].versions[0] is v and v.ahead and v.races_first
    block = v.plan.build.schedule.block  # tiles of 64 x 64 outputs (4 x 4 points a thread), not the plan's 128
    assert [block.points(d) for d in block.spans] == [64, 64] and "tiles of 64 x 64 outputs" in v.plan.why
    (stage,) = v.kernel.stages
    assert stage.tiled and stage.grid[2] == ("N", K_SHARE, MAX_BLOCKS_A_ROW)
    assert not any(p.role == "output" for p in stage.params)  # its points' partial results go to scratch
    assert {p.name for p in stage.params if p.role == "scratch"} == {s.name for s in v.kernel.scratch}
    assert "stage" not in v.kernel.name and v.kernel.name.endswith("_k")


def test_the_split_k_version_races_the_split_it_would_otherwise_be_first():
    m = module(XTY)["verify"]
    few = {"N": 32768, "p": 64, "q": 64}
    assert m.select(few, 132) is m.versions[0].kernel
    ahead = m.ahead(few, 132)
    assert ahead is not None and ahead is m.versions[1].kernel and "_k" not in ahead.name
    short = dict(few, N=K_MIN_LENGTH - 1)
    assert m.select(short, 132) is not m.versions[0].kernel and m.ahead(short, 132) is None
    many = {"N": 32768, "p": 1024, "q": 1024}  # more points: the tiled kernel, no split-K
    assert m.select(many, 132).name.endswith(("_tiled", "_tiled_scalar")) and m.ahead(many, 132) is None


def test_a_plan_whose_micro_tile_is_not_a_products_keeps_its_tiles_for_split_k():
    """(f64 X^T Y: its micro-tile is narrower than 8 x 8, so no smaller one is planned.)"""
    values = module(ROOT / "corpus" / "c_xty_tstream_f64.fut")
    (v,) = k_versions(values)
    plan = values["analyse"].plan
    assert plan.few_outputs is None and v.plan.build.schedule is (plan.k_schedule or plan.schedule)


def test_split_k_keeps_the_plan_without_the_units_an_f64_product_takes_by_default():
    """f64 X^T Y's tiled kernel runs on sm_90's units by default (they round as its loop does); its split-K
    stage computes on the FP64 pipe, from the tiles planned without them (Plan.k_schedule): laid out for the
    units, its stage ran 7% slower at large (H200, benchmarks/RESULTS.md)."""
    values = module(ROOT / "corpus" / "c_xty_tstream_f64.fut")
    plan = values["analyse"].plan
    assert plan.schedule.matrix_units.exact and plan.k_schedule is not None
    assert plan.k_schedule.matrix_units is None or not plan.k_schedule.matrix_units.used
    (v,) = k_versions(values)
    assert v.plan.build.schedule is plan.k_schedule
    assert k_versions(module(ROOT / "corpus" / "c_xty_tstream_f64.fut", Options(tensor_cores=True)))[0].plan.build \
        .schedule.matrix_units.used  # (under the flag, as before: the units' plan)


def test_the_launcher_races_a_split_k_version_against_the_next_version_first():
    cuda = module(XTY)["render"]
    assert "static const bool tiler_ahead[] = {1," in cuda
    assert cuda.index("tiler_ahead[tiler_version] && tiler_next >= 0") < cuda.index("tiler_few[tiler_version]")


def test_split_k_only_where_a_register_tiled_kernel_streams_the_one_reduction():
    for name in ("rowsum", "softmax", "matvec", "colsum"):
        assert not k_versions(module(BENCHMARKS / f"{name}.fut")), name
    assert not k_versions(module(XTY, Options(no_split=True)))


def test_a_block_folds_whole_chunks_so_that_none_is_left_without_iterations():
    """nbody's stage copies chunks of 256: its blocks a row are counted one
    each 256 iterations (K_SHARE rounded up to whole chunks), in both kernels."""
    (v,) = k_versions(module(BENCHMARKS / "nbody.fut"))
    (stage,) = v.kernel.stages
    assert stage.grid[2] == ("n", 256, MAX_BLOCKS_A_ROW)
    cuda = module(BENCHMARKS / "nbody.fut")["render"]
    last = cuda[cuda.index(f"\n{v.kernel.name}("):]
    assert "min((n + 255) / 256, 2048)" in last[:last.index("\n}\n")]


def test_the_blocks_of_a_row_share_its_iterations_whole_and_once():
    """KStage's arithmetic, evaluated as the kernels compute it: the blocks
    along z (as many as the grid has and the last kernel counts) each take
    whole chunks from block z times the share on, together every iteration
    once; none is left without iterations below the cap of blocks a row,
    and past it (longer shares) the blocks with none are fewer than a share's
    worth of chunks."""
    from types import SimpleNamespace

    from tiler import kir
    from tiler.kir.walkers import evaluate
    from tiler.lower.k_stage import KStage

    for chunk in (16, 32, 256):
        per = -(-K_SHARE // chunk) * chunk
        stage = KStage(1, SimpleNamespace(name="N"), chunk, (), (), (), per, MAX_BLOCKS_A_ROW, True)
        grid = kir.Kernel("k", (), (), (), (1, 1, 1), stage.grid((None, None, None)), True, "k.fut", ())
        n = kir.Ref("N")
        lengths = [1, chunk - 1, chunk, per + 1, 4096, 4099, 20000, per * MAX_BLOCKS_A_ROW,
                   per * MAX_BLOCKS_A_ROW + 1, 262145, 3_000_001]
        for length in lengths:
            blocks, share = evaluate(stage.blocks(n), {"N": length}), evaluate(stage.share(n), {"N": length})
            assert grid.grid_dims({"N": length})[2] == blocks and share % chunk == 0
            firsts = [z * share for z in range(blocks)]
            taken = [max(0, min(length - f, share)) for f in firsts]
            assert sum(taken) == length and all(f % chunk == 0 for f in firsts), (chunk, length)
            idle = sum(t == 0 for t in taken)
            assert idle == 0 if blocks < MAX_BLOCKS_A_ROW else idle * share < length, (chunk, length, idle)


def test_a_product_whose_tiles_leave_sms_idle_gets_split_k_whatever_its_points():
    """200 x 150 outputs of 2,000 iterations: 30,000 points (227 an SM on 132
    SMs, not few) in 4 tiles of 128 x 128, too few for the tiled kernel's
    grid (a block for 1 in 4 SMs): the split-K version runs, raced against
    the version that would otherwise run. Not where the tiles give 1 in 4
    SMs a block, nor for rows shorter than K_FEW_TILES_LENGTH, nor (that
    rule) for few points (X^T Y: K_MIN_LENGTH)."""
    m = module(ROOT / "corpus" / "a_matmul_stream_f32.fut")["verify"]
    wide = {"n": 150, "m": 200, "p": 2000}
    assert m.select(wide, 132).name.endswith("_k") and m.ahead(wide, 132) is not None
    assert not m.select(dict(wide, p=K_FEW_TILES_LENGTH - 1), 132).name.endswith("_k")
    edge = {"n": 128 * 3, "m": 128 * 11, "p": 2000}  # 33 tiles: 1 in 4 of 132 SMs
    assert not m.select(edge, 132).name.endswith("_k") and m.select(edge, 133).name.endswith("_k")
    x = module(XTY)["verify"]
    assert not x.select({"N": K_MIN_LENGTH - 1, "p": 64, "q": 64}, 132).name.endswith("_k")
    words = condition_text(m.versions[0].plan.condition)
    assert "tiles of 128 x 128 outputs (ceil(n / 128) * ceil(m / 128)) are fewer than 1 in 4 of the GPU's SMs" in words


def test_a_heavy_body_one_point_a_thread_gets_split_k_within_its_tiles_bounds():
    """An f64 Matern kernel regression (a step priced 152, one point a
    thread, X's rows staged in tiles of at most 64 features): split-K for
    few points from K_FEW_TILES_LENGTH iterations, only where the rows fit
    the tiles; a light body one point a thread gets none (mat-vec)."""
    values = module(ROOT / "corpus" / "b_gp_matern_f64.fut")
    (v,) = k_versions(values)
    assert v.plan.build.schedule.block.register is None and v.plan.build.schedule.bounds == {"d": 64}
    m = values["verify"]
    medium = {"m": 8000, "n": 4000, "d": 16, "ell": 1}
    assert m.select(medium, 132) is v.kernel and m.ahead(medium, 132).lanes
    assert m.select(dict(medium, d=65), 132) is not v.kernel
    assert m.select(dict(medium, n=K_FEW_TILES_LENGTH - 1), 132) is not v.kernel
    assert "d <= 64" in condition_text(v.plan.condition)
    assert not k_versions(module(BENCHMARKS / "matvec.fut"))


def test_the_few_tiles_rule_bounds_its_scratch_and_needs_a_one_point_version():
    """Split-K for few tiles keeps its partial results as few as few points'
    can be (rows x length at most K_MOST_WORK: 640 x 640 outputs over 2^18
    iterations would want 3.4 GB); it is an alternative only where the plan
    has a one-point version for grids too small for its micro-tile (nbody3d's
    tiled kernel is one point a thread: its tiles never leave SMs idle while
    its points are not few); and a split-K version that won its race against
    the next version is not raced against that same version again."""
    m = module(ROOT / "corpus" / "a_matmul_stream_f32.fut")
    wide = {"n": 640, "m": 640, "p": 2000}
    assert m["verify"].select(wide, 132).name.endswith("_k")
    assert not m["verify"].select(dict(wide, p=2 ** 18), 132).name.endswith("_k")
    assert 640 * 640 * 2 ** 18 > K_MOST_WORK >= 640 * 640 * 2000
    (v,) = k_versions(module(BENCHMARKS / "nbody3d.fut"))
    assert not any(isinstance(t, FewTiles) for t in leaves(v.plan.condition))
    assert any(isinstance(t, FewTiles) for t in leaves(k_versions(m)[0].plan.condition))
    cuda = m["render"]  # (the launcher: each race skipped where the last one timed the same two versions)
    ahead, few = cuda.index("tiler_ahead[tiler_version] && tiler_next >= 0"), cuda.index("tiler_few[tiler_version]")
    assert "tiler_raced = tiler_version == tiler_before ? tiler_against : tiler_before;" in cuda[ahead:few]
    assert "const int tiler_against = tiler_plain, tiler_before = tiler_version;\n    if (tiler_against != " \
        "tiler_raced) {" in cuda[few:]
