"""On a GPU (marked `gpu`, skipped without one): every program, tiled and
untiled, against the reference interpreter on random inputs, at sizes the
tiles divide and sizes they do not, with outputs poisoned before launch."""
from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest
from conftest import BENCHMARKS, PROGRAMS, ROOT, header_options, tiler

from tiler.analyse import Options
from tiler.check import check
from tiler.errors import PlainError
from tiler.interp import run
from tiler.pipeline import run_all
from tiler.runtime import Gpu, check_launch, gpu_unavailable
from tiler.syntax import parse
from tiler.workload import load_spec, make_inputs, resolve_sizes

if gpu_unavailable() is not None:  # one line for the module, not one a test
    pytest.skip(f"no GPU: {gpu_unavailable()}", allow_module_level=True)
pytestmark = pytest.mark.gpu

PROGRAM_FILES = sorted(BENCHMARKS.glob("*.fut")) + sorted((PROGRAMS / "analysis").glob("*.fut"))
# odd: not a multiple of any tile; aligned: a multiple of 4 (vector copies) but of no tile
SCALES = {"test": None, "odd": 37, "tiny": 3, "aligned": 68}


def sizes_for(prog, spec, scale):
    """The spec's test sizes, or every program size set to `scale` (sizes the
    spec derives by a formula, like Rodinia's box count, stay derived)."""
    if scale is None:
        return resolve_sizes(prog, {}, spec, "test")
    if isinstance(scale, dict):  # the sizes themselves
        return resolve_sizes(prog, scale, spec, "test")
    derived = {n for n, f in (spec.size_set("test").items() if spec else ()) if isinstance(f, str)}
    given = {s.name: scale for s in prog.kernel.sizes if s.name not in derived}
    return resolve_sizes(prog, given, spec, "test")


@pytest.mark.parametrize("scale", SCALES)
@pytest.mark.parametrize("variant", ["untiled", "tiled"])
@pytest.mark.parametrize("path", PROGRAM_FILES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_gpu_matches_the_interpreter(path, variant, scale):
    """The tiled variant with the options the program's header gives."""
    matches_the_interpreter(path, Options(no_tile=True) if variant == "untiled" else header_options(path), scale,
                            seed=11)


def written_and_close(got, want, name: str, sizes: dict) -> None:
    """Every output element written (no NaN left by the poison) and within 1e-3 of the interpreter's, relative
    to the output's largest magnitude (at least 1)."""
    for g, w in zip(got, want):
        assert not np.isnan(g).any(), "an output element was never written"
        err = float(np.abs(g.astype(np.float64) - w.astype(np.float64)).max(initial=0))
        assert err <= 1e-3 * max(1.0, float(np.abs(w).max(initial=0))), (name, sizes, err)


def may_launch(module, kernel, sizes: dict) -> bool:
    """Whether a test may launch `kernel` at these sizes: its vector accesses
    stay aligned, and where its launch condition does not hold (a version
    gated on few points keeps its rows on grid y and z, uncapped), CUDA can
    launch its grid; where the condition holds, a grid past CUDA's limits is
    the kernel's fault and the launch's error fails the test."""
    if not kernel.runs_at(sizes):
        return False
    version = next(v for v in module.versions if v.kernel is kernel)
    if module.holds(version, sizes):
        return True
    try:
        check_launch(kernel, sizes)
    except PlainError:
        return False
    return True


def matches_the_interpreter(path, options: Options, scale: str, seed: int, tolerance: float = 1e-3,
                            device=None) -> None:
    """Every version of the module, whichever the launch would pick at these sizes (`device`: planned for
    it, the GPU's own architecture included; else for the default sm_90)."""
    text = path.read_text()
    prog = check(parse(text, path.name))
    spec = load_spec(path)
    sizes = sizes_for(prog, spec, SCALES.get(scale, scale) if isinstance(scale, (str, int)) else scale)
    inputs = make_inputs(prog, sizes, spec, seed=seed)
    want = run(prog, inputs)
    values = run_all(text, path.name, options) if device is None else run_all(text, path.name, options, device=device)
    for kernel in values["verify"].kernels:
        if not may_launch(values["verify"], kernel, sizes):
            continue
        got, _ = Gpu.get().run(kernel, values["render"], inputs, sizes)
        assert len(got) == len(want)
        for g, w in zip(got, want):
            assert g.shape == w.shape
            assert not np.isnan(g).any(), "an output element was never written"
            scale_ = max(1.0, float(np.abs(w).max(initial=0)))
            err = float(np.abs(g.astype(np.float64) - w.astype(np.float64)).max(initial=0))
            assert err <= tolerance * scale_, (path.name, kernel.name, sizes, err)


@pytest.mark.parametrize("length", [1, 63, 64, 65])
@pytest.mark.parametrize("name", ["launch_rows", "launch_rows_chunk"])
def test_rows_of_a_bounded_length_match_the_interpreter(name, length):
    """Every version at the edges of the row-length bound (plan.ROW_BOUND:
    64; at 65 the plan without the bound runs), other sizes odd."""
    path = PROGRAMS / "analysis" / f"{name}.fut"
    prog = check(parse(path.read_text(), path.name))
    matches_the_interpreter(path, Options(), {s.name: (length if s.name == "d" else 41) for s in prog.kernel.sizes},
                            seed=3)


# the programs whose loops are read as streams: every version, the loops read so and kept (--keep-loops),
# against the interpreter
LOOP_PROGRAMS = [ROOT / "corpus" / f"{n}.fut" for n in (
    "a_batched_matmul_f32", "a_col_welford_f64", "a_gram_rows32_f32", "a_matmul_loop_f32", "a_matvec_colindex_f64",
    "a_pdist_manhattan_int", "b_kde2d_grid_f64", "b_mri_fhd", "b_nbody1d_f64", "b_nbody3d_pot_f64")] + \
    [BENCHMARKS / "rownorm.fut", BENCHMARKS / "rowsum3d.fut"]


@pytest.mark.parametrize("kept", [False, True], ids=["streams", "kept"])
@pytest.mark.parametrize("scale", ["test", "odd", "aligned"])
@pytest.mark.parametrize("path", LOOP_PROGRAMS, ids=lambda p: p.stem)
def test_loops_read_as_streams_match_the_interpreter(path, scale, kept):
    assert any(s.loop for s in _streams(run_all(path.read_text(), path.name)["kernel"])), "no loop read as a stream"
    matches_the_interpreter(path, Options(keep_loops=kept), scale, seed=29)


def _streams(kernel):
    from tiler.check import typed as T
    from tiler.tree import descendants

    return [s for s in descendants(kernel.body, T.is_exp) if isinstance(s, T.Stream)]


def test_more_blocks_than_grid_y_holds_match_the_interpreter():
    """8,388,645 rows: the tiled kernel's 128 rows a block need 65,537 blocks
    along grid y, past CUDA's 65,535; every version loops over them."""
    matches_the_interpreter(PROGRAMS / "analysis" / "tall_grid.fut", Options(), {"c": 65536 * 128 + 37, "m": 2, "k": 3},
                            seed=4)


@pytest.mark.parametrize("path, sizes, given", [
    (PROGRAMS / "analysis" / "tall_grid.fut", {"c": 65535 * 8 + 29, "m": 5, "k": 3}, (("c", 1000), ("m", 5))),
    (BENCHMARKS / "mm.fut", {"m": 65535 * 128 + 3, "n": 2, "q": 3}, (("m", 4096), ("n", 4096), ("q", 4096))),
], ids=["untiled past grid y", "mm past grid y"])
def test_sizes_given_when_compiled_past_the_grid_run_the_looped_fallback(path, sizes, given):
    """A module compiled knowing sizes drops the loop over grid y's blocks
    from its versions; launched at sizes whose grid passes 65,535 blocks
    there, it runs its last version, which keeps the loop."""
    options = Options(sizes=given)
    matches_the_interpreter(path, options, sizes, seed=31)
    module = run_all(path.read_text(), path.name, options)["verify"]
    assert module.select(sizes).name.endswith("_looped")


# tiles taken in groups of rows (analyse/raster.py): a last group of fewer rows, a group height that divides
# nothing, and a grid past grid y's 65,535 blocks whose loop starts at the renumbered row
@pytest.mark.parametrize("path, options, sizes", [
    (BENCHMARKS / "mm_bf16.fut", Options(), {"m": 1100, "n": 100, "q": 300}),
    (BENCHMARKS / "mm.fut", Options(tensor_cores=True), {"m": 1300, "n": 70, "q": 390}),
    (BENCHMARKS / "mm.fut", Options(group_rows=3), {"m": 1000, "n": 37, "q": 300}),
    (PROGRAMS / "analysis" / "tall_grid.fut", Options(group_rows=4, tile=(8, 8), no_register_tile=True),
     {"c": 65535 * 8 + 29, "m": 12, "k": 3}),
], ids=["bf16 last group of 1", "tf32 last group of 3", "groups of 3", "past grid y"])
def test_tiles_taken_in_groups_of_rows_match_the_interpreter(path, options, sizes):
    from tiler.analyse.tensor_cores import MATRIX_TOLERANCE

    tolerance = MATRIX_TOLERANCE if options.tensor_cores or "bf16" in path.stem else 1e-3
    matches_the_interpreter(path, options, sizes, seed=23, tolerance=tolerance)


# --tensor-cores: the products the matrix units take (and two 16-bit ones they decline), every version at sizes
# no tile divides (1 and 3: no full chunk, the register tile alone; 37 and 130: full chunks and a partial one)
# and at aligned ones, within the tolerance the option's results get (TF32 inputs, the units' order)
TENSOR_CORE_PROGRAMS = [BENCHMARKS / "mm.fut", BENCHMARKS / "mm_rows.fut", BENCHMARKS / "aat.fut",
                        PROGRAMS / "float16" / "mm_f16.fut", PROGRAMS / "float16" / "mm_mixed.fut"] + \
    sorted((PROGRAMS / "tensor_cores").glob("*.fut"))


@pytest.mark.parametrize("scale", [1, 3, 37, 130, "aligned", 256, 512])
@pytest.mark.parametrize("path", TENSOR_CORE_PROGRAMS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_tensor_cores_match_the_interpreter(path, scale):
    from tiler.analyse.tensor_cores import MATRIX_TOLERANCE

    matches_the_interpreter(path, Options(tensor_cores=True), scale, seed=17, tolerance=MATRIX_TOLERANCE)


# the same planned for the GPU's own architecture (sm_90a on an H100 or H200: the warp groups' wgmma, TF32 products
# with B's tile in registers), where the test above plans for sm_90 (mma.sync)
@pytest.mark.parametrize("scale", [3, 37, 130, 512])
@pytest.mark.parametrize("path", TENSOR_CORE_PROGRAMS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_tensor_cores_on_the_gpus_own_architecture_match_the_interpreter(path, scale):
    from tiler.analyse.tensor_cores import MATRIX_TOLERANCE
    from tiler.runtime import Gpu

    matches_the_interpreter(path, Options(tensor_cores=True), scale, seed=17, tolerance=MATRIX_TOLERANCE,
                            device=Gpu.get().described)


# f64 products on sm_90 in chunks of one instruction (target.MATRIX_CHUNKS_SM90), as `tiler bench` compiles them
# with the sizes known (no loop over grid y): full chunks and a partial one, a single chunk, sizes no tile divides
@pytest.mark.parametrize("path, sizes", [
    (PROGRAMS / "tensor_cores" / "mm_f64.fut", {"m": 300, "n": 301, "q": 261}),
    (PROGRAMS / "tensor_cores" / "mm_f64.fut", {"m": 300, "n": 8, "q": 261}),
    (PROGRAMS / "tensor_cores" / "mm_atbt_f64.fut", {"k": 131, "m": 300, "n": 261})], ids=["301", "8", "atbt"])
def test_f64_products_in_chunks_of_one_instruction_match_the_interpreter(path, sizes):
    from tiler.analyse.tensor_cores import MATRIX_TOLERANCE

    options = Options(tensor_cores=True, sizes=tuple(sorted(sizes.items())))
    schedule = run_all(path.read_text(), path.name, options, until="analyse")["analyse"].plan.schedule
    assert schedule.streams[0].chunk == 8 and schedule.matrix_units.used
    matches_the_interpreter(path, options, sizes, seed=29, tolerance=MATRIX_TOLERANCE)


# f64 products on sm_90's units by default (target.MATRIX_EXACT): every tiled version's outputs are the untiled
# kernel's bit for bit, sizes known (chunks of one instruction) or not, full chunks and a partial one, one chunk
# (the split versions add a sum's shares in another order by design, as they do for every product)
@pytest.mark.parametrize("path, sizes, known", [
    (BENCHMARKS / "mm_f64.fut", {"m": 300, "n": 301, "q": 261}, True),
    (BENCHMARKS / "mm_f64.fut", {"m": 300, "n": 301, "q": 261}, False),
    (BENCHMARKS / "mm_f64.fut", {"m": 256, "n": 8, "q": 520}, True),
    (PROGRAMS / "tensor_cores" / "mm_atbt_f64.fut", {"k": 131, "m": 300, "n": 261}, False)],
    ids=["301-known", "301", "8-known", "atbt"])
def test_f64_products_on_the_units_by_default_give_the_untiled_kernels_bits(path, sizes, known):
    if not Gpu.get().arch.startswith("sm_9"):
        pytest.skip("the f64 units round as the loop does from sm_90 on (target.MATRIX_EXACT)")
    text, prog = path.read_text(), check(parse(path.read_text(), path.name))
    inputs = make_inputs(prog, sizes, load_spec(path), seed=31)
    options = Options(sizes=tuple(sorted(sizes.items()))) if known else Options()
    module = run_all(text, path.name, options)
    assert module["analyse"].plan.schedule.matrix_units.exact
    untiled = run_all(text, path.name, Options(no_tile=True))
    first = next(k for k in untiled["verify"].kernels if may_launch(untiled["verify"], k, sizes))
    want, _ = Gpu.get().run(first, untiled["render"], inputs, sizes)
    ran = 0
    for kernel in module["verify"].kernels:
        if "_tiled" not in kernel.name or not may_launch(module["verify"], kernel, sizes):
            continue
        got, _ = Gpu.get().run(kernel, module["render"], inputs, sizes)
        ran += 1
        for g, w in zip(got, want):
            assert g.tobytes() == w.tobytes(), (kernel.name, int((g != w).sum()))
    assert ran


# products whose tiles TMA copies (lower/tma_pipeline.py), compiled knowing sizes as `tiler bench` compiles them
# (a kernel in a grid loop keeps cp.async): K-major tiles (A Btᵀ, A Aᵀ), MN-major ones (16-bit A B, Aᵀ Bᵀ, Aᵀ B),
# at sizes whose rows TMA can read (multiples of 8) and no tile divides: one chunk and no full one (8), a full chunk
# and a partial one (40), several rounds of the buffers with zero chunks past the end (264), aligned (512). A TF32
# A B reads B from the launch's transposed copy (analyse/operand_transposes.py), Aᵀ B copies of both, Xᵀ X one copy
# of X for both tiles, also at sizes TMA cannot read (37, 130: the cp.async versions read the copies too); launches
# below 2,048 rows select the versions reading the operands in place (Plan.in_place), and every version that may
# launch is run; compiled knowing 8192, products take 128 x 256 tiles (plan._wider)
TMA_CASES = [(PROGRAMS / "tensor_cores" / "mm_abt_f32.fut", size, 2048) for size in (8, 40, 264, 512)] + \
    [(BENCHMARKS / "mm_bf16.fut", size, 2048) for size in (8, 40, 264, 512)] + \
    [(PROGRAMS / "tensor_cores" / f"{name}.fut", 264, 2048) for name in ("mm_abt_bf16", "mm_atbt_bf16", "mm_atb_f16",
                                                                          "mm_bf16_f32")] + \
    [(BENCHMARKS / "aat.fut", 264, 2048)] + \
    [(BENCHMARKS / "mm.fut", size, 2048) for size in (8, 37, 40, 130, 264, 512)] + \
    [(PROGRAMS / "tensor_cores" / f"{name}.fut", size, 2048) for name in ("mm_atb_f32", "mm_ata_f32")
     for size in (8, 37, 264)] + \
    [(path, size, 8192) for path in (BENCHMARKS / "mm_bf16.fut", BENCHMARKS / "mm.fut",
                                     PROGRAMS / "tensor_cores" / "mm_abt_f32.fut",
                                     PROGRAMS / "tensor_cores" / "mm_atb_f32.fut") for size in (40, 264)]


@pytest.mark.parametrize("path, size, known", TMA_CASES,
                         ids=lambda x: str(x) if isinstance(x, int) else x.stem)
def test_products_copied_by_tma_match_the_interpreter(path, size, known):
    from tiler.analyse.tensor_cores import MATRIX_TOLERANCE
    from tiler.runtime import Gpu

    if Gpu.get().arch != "sm_90a":
        pytest.skip("TMA copies are made for sm_90a")
    prog = check(parse(path.read_text(), path.name))
    sizes = {s.name: size for s in prog.kernel.sizes}
    # (compiled knowing larger sizes, as a module built once runs at any: small ones plan other tiles)
    options = Options(tensor_cores=True, sizes=tuple(sorted((s.name, known) for s in prog.kernel.sizes)))
    device = Gpu.get().described
    module = run_all(path.read_text(), path.name, options, device=device)["verify"]
    tma = [k for k in module.kernels if any(p.role == "tensor map" for p in k.params)]
    if size % 8 == 0:
        assert any(k.runs_at(sizes) for k in tma), "no kernel copying by TMA runs at these sizes"
    matches_the_interpreter(path, options, sizes, seed=37, tolerance=MATRIX_TOLERANCE, device=device)


# f32 products on the CUDA cores whose tiles TMA copies (analyse/core_tma.py), compiled knowing 2,048 (A's copy
# transposed by the launch where its tile runs along its rows; Xᵀ Y's tiles boxes as they lie), at sizes no tile
# divides: one chunk and no full one (8), partial rounds of the buffers and zero chunks past the end (37, 40,
# 264), aligned (512); every version that may launch is run, the TMA ones where the rows' pitch allows
CORE_TMA_CASES = [(BENCHMARKS / f"{name}.fut", size) for name in ("mm", "aat", "mm_rows") for size in (8, 37, 264, 512)] + \
    [(ROOT / "corpus" / f"{name}.fut", size) for name in ("a_matmul_loop_f32", "a_pdist_euclid_f32", "a_cosine_sim_f32",
                                                          "c_xty_loop_f32", "a_gram_rows32_f32") for size in (8, 40, 264)] + \
    [(PROGRAMS / "analysis" / f"{name}.fut", size) for name in ("minplus_few", "rows_by_loop_index")  # (a last chunk
     for size in (8, 40, 264)] + \
    [(PROGRAMS / "analysis" / "sq_dist_by_position.fut", size) for size in (8, 40, 264)]
# (minplus_few and rows_by_loop_index run a last chunk of its own length: a min-plus body takes zeros, a row is read in
# place past its end; sq_dist_by_position runs it whole: a position times zero adds nothing, zero_tail.py)


@pytest.mark.parametrize("path, size", CORE_TMA_CASES, ids=lambda x: str(x) if isinstance(x, int) else x.stem)
def test_core_products_copied_by_tma_match_the_interpreter(path, size):
    from tiler.runtime import Gpu

    if Gpu.get().arch not in ("sm_90", "sm_90a"):
        pytest.skip("TMA copies are made for sm_90")
    prog = check(parse(path.read_text(), path.name))
    sizes = {s.name: size for s in prog.kernel.sizes}
    options = Options(sizes=tuple(sorted((s.name, 2048) for s in prog.kernel.sizes)))
    module = run_all(path.read_text(), path.name, options, device=Gpu.get().described)["verify"]
    tma = [k for k in module.kernels if any(p.role == "tensor map" for p in k.params)]
    assert tma, "no kernel copies by TMA"
    if size % 8 == 0:
        assert any(k.runs_at(sizes) for k in tma), "no kernel copying by TMA runs at these sizes"
    matches_the_interpreter(path, options, sizes, seed=43, device=Gpu.get().described)


# 128 x 256 tiles asked for with no sizes given (a grid loop: cp.async copies, no TMA), on the GPU's own sm_90a:
# the warp groups' 64 x 256 instructions, B's tile MN-major (bf16) and K-major (TF32 A Bᵀ)
@pytest.mark.parametrize("size", [130, 264])
@pytest.mark.parametrize("path", [BENCHMARKS / "mm_bf16.fut", PROGRAMS / "tensor_cores" / "mm_abt_f32.fut"],
                         ids=lambda p: p.stem)
def test_wide_tiles_copied_by_cp_async_match_the_interpreter(path, size):
    from tiler.analyse.tensor_cores import MATRIX_TOLERANCE
    from tiler.runtime import Gpu

    if Gpu.get().arch != "sm_90a":
        pytest.skip("the 64 x 256 instructions are sm_90a's")
    matches_the_interpreter(path, Options(tensor_cores=True, register_tile=(8, 16)), size, seed=41,
                            tolerance=MATRIX_TOLERANCE, device=Gpu.get().described)


REGISTER_VARIANTS = {"double-buffered": Options(double_buffer=True), "4x2": Options(register_tile=(4, 2)),
                     "scalar": Options(no_vector=True), "2x8": Options(register_tile=(2, 8), double_buffer=True),
                     "registers": Options(no_async=True), "one buffer": Options(single_buffer=True)}


@pytest.mark.parametrize("scale", ["aligned", "odd", "tiny"])
@pytest.mark.parametrize("variant", REGISTER_VARIANTS)
@pytest.mark.parametrize("name", ["mm", "aat", "mm_rows"])
def test_register_tiled_variants_match_the_interpreter(name, variant, scale):
    matches_the_interpreter(BENCHMARKS / f"{name}.fut", REGISTER_VARIANTS[variant], scale, seed=5)


# the stream's length against a register tile's 3-stage cp.async loop (chunk 16): 300 is 6 steps and a
# tail, 40 a step that skips its third stage, 48 one whole step; 68 keeps the vector copies' version
@pytest.mark.parametrize("length", [300, 40, 48])
@pytest.mark.parametrize("variant", ["default", "scalar"])
@pytest.mark.parametrize("name", ["mm", "aat", "mm_rows"])
def test_register_tiles_copied_by_cp_async_match_the_interpreter(name, variant, length):
    sizes = {"n": 68, "d": length} if name == "aat" else {"m": 37, "n": length, "q": 68}
    options = Options(no_vector=variant == "scalar")
    matches_the_interpreter(BENCHMARKS / f"{name}.fut", options, sizes, seed=9)


# "edges": each strip-mined dimension two blocks and a part long, so that one launch has blocks inside every
# dimension (the copy without clamps) and blocks at the edges; the other sizes as the spec's tests give them
@pytest.mark.parametrize("scale", ["edges", "odd", "aligned"])
@pytest.mark.parametrize("path", PROGRAM_FILES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_interior_blocks_match_the_interpreter(path, scale):
    options = Options(interior=True)
    values = run_all(path.read_text(), path.name, options)
    if not any(k.interior for k in values["verify"].kernels):
        pytest.skip("the plan keeps one body")
    if scale == "edges":
        analysis = values["analyse"]
        block = analysis.block
        scale = {lv.size.name: 2 * block.points(lv.dim) + 37 for lv in analysis.kernel.levels
                 if block.points(lv.dim) > 1 and not isinstance(lv.size, int)}
    matches_the_interpreter(path, options, scale, seed=19)


COALESCE_VARIANTS = {"default": Options(), "wide block": Options(tile=(256,)), "chunk 32": Options(chunk=32),
                     "single buffer": Options(single_buffer=True), "scalar": Options(no_vector=True),
                     "registers": Options(no_async=True), "in place": Options(no_coalesce=True)}


# 300: every stage of the cp.async loop (and both halves of the register pipeline); 520: a last step that
# skips its third stage
@pytest.mark.parametrize("scale", ["aligned", "odd", "tiny", 300, 301, 520])
@pytest.mark.parametrize("variant", COALESCE_VARIANTS)
@pytest.mark.parametrize("path", [BENCHMARKS / "matvec.fut", BENCHMARKS / "rowsum.fut",
                                  PROGRAMS / "analysis" / "nested.fut", PROGRAMS / "analysis" / "rows_by_data.fut",
                                  PROGRAMS / "analysis" / "gather_rows.fut",
                                  PROGRAMS / "analysis" / "own_row_by_index.fut",
                                  PROGRAMS / "analysis" / "own_row_by_let.fut",
                                  PROGRAMS / "analysis" / "own_row_by_helper.fut"],
                         ids=lambda p: p.stem)
def test_rows_staged_to_coalesce_match_the_interpreter(path, variant, scale):
    matches_the_interpreter(path, COALESCE_VARIANTS[variant], scale, seed=7)


COARSE_VARIANTS = {"default": Options(), "2 a thread": Options(register_tile=(2,)),
                   "4 a thread": Options(register_tile=(4,)), "packed": Options(pack=True),
                   "packed, 4 a thread, single buffer": Options(pack=True, register_tile=(4,), single_buffer=True),
                   "fast math": Options(fast_math=True)}


@pytest.mark.parametrize("scale", ["odd", "tiny", "aligned", 300])  # 300: both halves of the double-buffered loop
@pytest.mark.parametrize("variant", COARSE_VARIANTS)
@pytest.mark.parametrize("path", [BENCHMARKS / "nbody3d.fut", BENCHMARKS / "nbody.fut", BENCHMARKS / "mriq.fut",
                                  BENCHMARKS / "lavamd.fut", BENCHMARKS / "lavamd_rodinia.fut",
                                  PROGRAMS / "analysis" / "int_size.fut"], ids=lambda p: p.stem)
def test_coarsened_and_packed_variants_match_the_interpreter(path, variant, scale):
    from tiler.workload.checks import FAST_MATH_TOLERANCE

    options = COARSE_VARIANTS[variant]
    matches_the_interpreter(path, options, scale, seed=13, tolerance=FAST_MATH_TOLERANCE if options.fast_math else 1e-3)


# --fast-math reorders every float sum and product (tiler/lower/reassociate.py) besides its approximations
@pytest.mark.parametrize("variant", ["tiled", "untiled"])
@pytest.mark.parametrize("scale", ["odd", "aligned"])
@pytest.mark.parametrize("path", PROGRAM_FILES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_fast_math_matches_the_interpreter(path, scale, variant):
    from tiler.workload.checks import FAST_MATH_TOLERANCE

    options = Options(fast_math=True, no_tile=variant == "untiled")
    matches_the_interpreter(path, options, scale, seed=17, tolerance=FAST_MATH_TOLERANCE)


JOIN_VARIANTS = {"joined": Options(join_rows=True), "apart": Options(join_rows=False),
                 "joined, chunk 32": Options(join_rows=True, chunk=32),
                 "joined, 2 a thread": Options(join_rows=True, register_tile=(2,)),
                 "joined, packed": Options(join_rows=True, pack=True),
                 "joined, 64-bit offsets": Options(join_rows=True, sizes=(("p", 100),)),
                 "joined, fast math": Options(join_rows=True, fast_math=True)}


# a loop's rows streamed end to end (analyse/joins.py): rows shorter and longer than a chunk, a chunk
# ending inside a row; 300: both halves of the double-buffered loop
@pytest.mark.parametrize("scale", ["odd", "tiny", "aligned", 300])
@pytest.mark.parametrize("variant", JOIN_VARIANTS)
@pytest.mark.parametrize("path", [BENCHMARKS / "lavamd.fut", BENCHMARKS / "lavamd_rodinia.fut",
                                  PROGRAMS / "analysis" / "joined_rows.fut"], ids=lambda p: p.stem)
def test_joined_rows_match_the_interpreter(path, variant, scale):
    from tiler.workload.checks import FAST_MATH_TOLERANCE

    options = JOIN_VARIANTS[variant]
    values = run_all(path.read_text(), path.name, options)
    assert any(s.join is not None and s.join.joined == options.join_rows for s in values["analyse"].streams)
    matches_the_interpreter(path, options, scale, seed=23, tolerance=FAST_MATH_TOLERANCE if options.fast_math else 1e-3)


ROW_VARIANTS = {"default": Options(), "one a thread": Options(no_register_tile=True),
                "4 a thread": Options(register_tile=(4,)), "chunk 8": Options(chunk=8), "tile 64": Options(tile=(64,)),
                "rows in place": Options(no_coalesce=True), "run through registers": Options(no_async=True),
                "run element by element": Options(no_vector=True),
                "fast math": Options(fast_math=True)}


@pytest.mark.parametrize("sizes", [{"n": 1000, "k": 21, "d": 34}, {"n": 37, "k": 3, "d": 34}, {"n": 1, "k": 1, "d": 34},
                                   {"n": 300, "k": 16, "d": 8}, {"n": 37, "k": 37, "d": 5},
                                   {"n": 1024, "k": 16, "d": 34},  # every block copies its rows as one run
                                   {"n": 1000, "k": 21, "d": 35}],  # d not the compiled one: the untiled kernel
                         ids=lambda s: "-".join(f"{k}{v}" for k, v in s.items()))
@pytest.mark.parametrize("variant", ROW_VARIANTS)
def test_chunks_of_rows_and_rows_read_whole_match_the_interpreter(variant, sizes):
    """k-means compiled for rows of d = 34 (8 and 5 for their own sizes):
    its centres staged as 2-D tiles, its points' rows copied to shared memory."""
    compiled_d = 34 if sizes["d"] == 35 else sizes["d"]
    options = dataclasses.replace(ROW_VARIANTS[variant], sizes=(("d", compiled_d),))
    values = run_all((BENCHMARKS / "kmeans.fut").read_text(), "kmeans.fut", options)
    if sizes["n"] >= 37:  # (fewer points: the thresholds pick the untiled kernel)
        assert values["verify"].select(sizes).tiled == (sizes["d"] == compiled_d)
    from tiler.workload.checks import FAST_MATH_TOLERANCE

    matches_the_interpreter(BENCHMARKS / "kmeans.fut", options, sizes, seed=17,
                            tolerance=FAST_MATH_TOLERANCE if options.fast_math else 1e-3)


# a fold in a kernel of several levels fissioned (attention's scores once for all of a query's output features):
# every version, the fissioned ones from 128 keys, at key counts no tile divides
@pytest.mark.parametrize("sizes", [{"h": 2, "s": 37, "t": 130}, {"h": 3, "s": 130, "t": 300}, {"h": 1, "s": 5, "t": 19}],
                         ids=lambda s: "-".join(f"{k}{v}" for k, v in s.items()))
@pytest.mark.parametrize("path", [ROOT / "corpus" / "a_attn_online_softmax_f32.fut", BENCHMARKS / "attention_bf16.fut"],
                         ids=lambda p: p.stem)
def test_folds_fissioned_across_levels_match_the_interpreter(path, sizes):
    from tiler.analyse.tensor_cores import MATRIX_TOLERANCE

    values = run_all(path.read_text(), path.name, Options())
    assert any(v.fissioned and v.kernel.stages for v in values["verify"].versions)
    matches_the_interpreter(path, Options(), sizes, seed=31, tolerance=MATRIX_TOLERANCE if "bf16" in path.stem else 1e-3)


@pytest.mark.parametrize("scale", ["odd", "tiny"])
@pytest.mark.parametrize("unroll", [1, 3, 8])  # 3: no chunk's multiple, so the unrolled loop keeps a remainder
@pytest.mark.parametrize("name", ["mriq", "nbody", "lavamd", "matvec"])
def test_unrolled_chunk_loops_match_the_interpreter(name, unroll, scale):
    matches_the_interpreter(BENCHMARKS / f"{name}.fut", Options(unroll=unroll), scale, seed=9)


def test_a_kernel_with_dynamic_shared_memory_over_48_kib():
    path = PROGRAMS / "analysis" / "many_inputs.fut"
    text = path.read_text()
    prog = check(parse(text, path.name))
    sizes = {"m": 3000, "n": 1500}
    inputs = make_inputs(prog, sizes, None, seed=3)
    # one point a thread: 14 single-buffered tiles of 1024 floats, 56 KiB
    values = run_all(text, path.name, Options(tile=(1024,), max_shared=100_000, no_register_tile=True))
    assert values["verify"].main.dynamic_shared
    (got,), _ = Gpu.get().run(values["verify"], values["render"], inputs, sizes)
    (want,) = run(prog, inputs)
    assert np.abs(got - want).max() <= 1e-3 * max(1.0, float(np.abs(want).max()))


REGRESSIONS = sorted((PROGRAMS / "regress").glob("fuzz*.fut"))


@pytest.mark.parametrize("path", REGRESSIONS, ids=lambda p: p.stem)
def test_fuzz_regression(path):
    """A program the fuzzer found wrong on the GPU, at the fuzzer's sizes and
    inputs for its seed (the file name), every version of tiled and untiled."""
    from tiler.fuzz.properties import VARIANTS, close, reference, sizes_for

    seed = int(path.stem.removeprefix("fuzz"))
    text = path.read_text()
    prog = check(parse(text, path.name))
    sizes = sizes_for(prog, seed)
    inputs = make_inputs(prog, sizes, None, seed)
    want, noise = reference(prog, inputs, seed)
    for variant, options in VARIANTS.items():
        values = run_all(text, path.name, options)
        module = values["verify"]
        # a split version shares a row's sum among threads in another order than the interpreter's runs take:
        # at a row its launch would not split (below its gate), a sin of a large sum (seed 130072) strays past
        # the reference's noise, so a split version is checked where its condition holds
        admitted = {v.kernel.name for v in module.versions if module.holds(v, sizes)}
        for kernel in module.kernels:
            if kernel.runs_at(sizes) and (not kernel.lanes or kernel.name in admitted):
                got, _ = Gpu.get().run(kernel, values["render"], inputs, sizes)
                assert close(got, want, slack=noise) == "", f"{variant}: {kernel.name}"


def test_ptxas_defect_is_avoided(tmp_path):
    """tests/ptxas/min.cu, its clamp spelled as tiler spells the clamps it
    adds, runs right (plain `min` there shows a ptxas defect; see
    tests/ptxas/README.md)."""
    import subprocess

    from tiler.runtime.nvcc import nvcc_path

    source = PROGRAMS.parent / "ptxas" / "min.cu"
    exe = tmp_path / "min"
    subprocess.run([nvcc_path(), "-arch=sm_90", "-DHELPER", str(source), "-o", str(exe)], check=True)
    for sizes in (["13", "36", "49"], ["7", "20", "30"], ["100", "300", "77"]):
        done = subprocess.run([str(exe), *sizes], capture_output=True, text=True)
        assert done.returncode == 0, done.stdout


@pytest.mark.parametrize("name, sizes", [
    ("analysis/matvec", {"n": 65536, "m": 32771}),  # A has 2^31 + 196,608 elements: a tiled input past 2^31
    ("analysis/matvec", {"n": 65536, "m": 32772}),  # the same, its rows 16-byte aligned: 128-bit copies
    ("../../benchmarks/mm", {"m": 65536, "n": 1, "q": 32771}),  # the output has as many: register-tiled stores
])
def test_arrays_past_2_31_elements(name, sizes):
    """Flat offsets are 64-bit: a kernel reads and writes arrays of more than
    2^31 elements (8 GiB of f32) right, checked at rows near both ends."""
    path = (PROGRAMS / f"{name}.fut").resolve()
    text = path.read_text()
    prog = check(parse(text, path.name))
    inputs = {}
    for p in prog.kernel.params:  # cheap, exactly representable values: no 8 GiB random draw
        shape = tuple(sizes[s.name] for s in p.type.shape)
        a = np.empty(shape, np.float32)
        a[...] = (np.arange(shape[-1]) % 7 - 3).astype(np.float32)
        if len(shape) > 1:
            a += (np.arange(shape[0]) % 5).astype(np.float32)[:, None]
        inputs[p.name] = a
    values = run_all(text, path.name, Options())
    module = values["verify"]
    assert module.select(sizes).wide  # the launch picks 64-bit offsets
    rows = [0, 1, sizes[next(iter(sizes))] // 2, sizes[next(iter(sizes))] - 1]
    (want,) = run(prog, inputs, rows=rows)
    # what the launch picks, and each tiled kernel that may run here even where that is the untiled one (mm
    # at n = 1): with 128-bit copies where the rows are aligned, and with scalar ones
    tiled = [k for k in module.kernels if k.tiled and k.wide and may_launch(module, k, sizes)]
    assert tiled
    for kernel in dict.fromkeys((module.select(sizes), *tiled)):
        (got,), _ = Gpu.get().run(kernel, values["render"], inputs, sizes)
        assert np.array_equal(got[rows], want), kernel.name
        assert not np.isnan(got).any(), kernel.name


def test_sizes_past_the_index_limit_are_refused():

    path = BENCHMARKS / "nbody.fut"
    values = run_all(path.read_text(), path.name, Options())
    with pytest.raises(PlainError, match="each size is at most"):
        Gpu.get().run(values["verify"], values["render"], {}, {"n": 2**31 - 1})


@pytest.mark.parametrize("scale", ["test", "odd"])
def test_a_chunk_shrunk_to_fit_shared_memory(scale):
    """14 tiles of 1024 floats do not fit 48 KiB: the plan halves the chunk,
    and each thread of the 1024 copies at most one element of a tile."""
    matches_the_interpreter(PROGRAMS / "analysis" / "many_inputs.fut", Options(tile=(1024,)), scale, seed=5)


@pytest.mark.parametrize("sizes", [("1000", "700", "513"), ("256", "128", "64")])  # scalar and vector versions
def test_the_host_example_runs(tmp_path, sizes):
    """docs/examples/mm_host.cu: the generated header and launcher, called from C++."""
    import subprocess

    from test_codegen import build_host_example

    done = subprocess.run([str(build_host_example(tmp_path)), *sizes], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0 and done.stdout.startswith("OK"), done.stdout


def test_floats_past_an_integer_types_range_convert_as_the_interpreter_says():
    """Past the range to its nearest end, NaN to 0 or the smallest value by
    the types, whatever the kernel's variant (tests/test_interp.py holds the
    interpreter's side)."""
    from test_interp import CONVERSIONS, CONVERTED

    import tiler

    for options in ({}, {"no_tile": True}):
        k = tiler.compile(CONVERSIONS, file="conversions.fut", **options)
        got, want = k.run(x=CONVERTED), k.reference(x=CONVERTED)
        assert all(g.tolist() == w.tolist() for g, w in zip(got, want)), (got, want)


def test_the_python_api_runs_on_the_gpu():
    import tiler

    a = np.random.default_rng(0).random((70, 37), dtype=np.float32)
    b = np.random.default_rng(1).random((37, 68), dtype=np.float32)
    k = tiler.compile(BENCHMARKS / "mm.fut")
    (got,), (want,) = k.run(A=a, B0=b), k.reference(A=a, B0=b)
    assert np.abs(got - want).max() <= 1e-3 * np.abs(want).max()


class _DLPackOnly:
    """An array that exports CUDA memory through DLPack alone (as JAX's do)."""

    def __init__(self, array):
        self.array = array

    def __dlpack__(self, **kwargs):
        return self.array.__dlpack__(**kwargs)

    def __dlpack_device__(self):
        return self.array.__dlpack_device__()


@pytest.mark.parametrize("library", ["cupy", "torch", "dlpack"])
def test_the_python_api_reads_device_arrays_in_place(library):
    """CuPy arrays, PyTorch tensors and DLPack exporters are read where they
    are (the kernel gets their pointers) and the outputs come back as the
    caller's library's arrays, at sizes no tile divides, mixed with a NumPy
    input and a scalar given as a 0-d device array."""
    import tiler

    cupy = pytest.importorskip("cupy")
    a = np.random.default_rng(0).random((70, 37), dtype=np.float32)
    b = np.random.default_rng(1).random((37, 68), dtype=np.float32)
    k = tiler.compile(BENCHMARKS / "mm.fut")
    (want,) = k.reference(A=a, B0=b)
    if library == "torch":
        torch = pytest.importorskip("torch")
        da = torch.from_numpy(a).cuda()
    else:
        da = cupy.asarray(a)
    (got,) = k.run(A=_DLPackOnly(da) if library == "dlpack" else da, B0=b)
    assert type(got).__module__.split(".")[0] == ("cupy" if library == "dlpack" else library)
    host = got.cpu().numpy() if library == "torch" else got.get()
    assert host.shape == (70, 68) and np.abs(host - want).max() <= 1e-3 * np.abs(want).max()
    (again,) = k.reference(A=da, B0=b)  # the interpreter reads a device array's copy
    assert np.array_equal(again, want)

    scaled = tiler.compile("fun [f32, n] main(f32 s, [f32, n] xs) = map(fn f32 (f32 x) => x * s, xs)")
    xs = cupy.arange(5, dtype=cupy.float32)
    (out,) = scaled.run(s=cupy.asarray(np.float32(3)), xs=xs)
    assert isinstance(out, cupy.ndarray) and out.get().tolist() == [0, 3, 6, 9, 12]


def test_device_arrays_the_kernel_cannot_read_in_place_are_refused():
    import tiler

    cupy = pytest.importorskip("cupy")
    k = tiler.compile(BENCHMARKS / "mm.fut")
    b = cupy.ones((37, 8), cupy.float32)
    with pytest.raises(tiler.PlainError, match="not C-contiguous"):
        k.run(A=cupy.ones((16, 37), cupy.float32)[::2], B0=b)
    with pytest.raises(tiler.PlainError, match="holds float32, not float64"):
        k.run(A=cupy.ones((16, 37), cupy.float64), B0=b)
    with pytest.raises(tiler.PlainError, match="size `n` is 36 by `A` but 37 by `B0`"):
        k.run(A=cupy.ones((16, 36), cupy.float32), B0=b)


def test_bench_times_any_program_on_given_inputs(tmp_path):
    """`tiler bench PROG.fut -i NAME=FILE.npy`: a program with no .toml, its
    sizes set by the array given, checked before it is timed."""
    import json

    np.save(tmp_path / "A.npy", np.random.default_rng(0).random((300, 70), dtype=np.float32))
    done = tiler("bench", PROGRAMS / "analysis" / "own_row.fut", "-i", f"A={tmp_path / 'A.npy'}", "--repeat", "3",
                 "--json", tmp_path / "out.json", timeout=300)
    assert done.returncode == 0, done.stderr
    (result,) = json.loads((tmp_path / "out.json").read_text())["results"]
    assert result["sizes"] == {"n": 300, "m": 70} and [v["variant"] for v in result["variants"]] == ["untiled", "tiled"]
    assert all(len(v["times_ms"]) == 3 and v["check"].startswith("ok") for v in result["variants"])


def test_tune_writes_a_tuning_that_explain_reads(tmp_path):
    """`tiler tune` on a copy of the mat-vec: every trial checked, the best
    kept in matvec.tuning, which explain then applies for this GPU."""
    import json
    import shutil

    for suffix in (".fut", ".toml"):
        shutil.copy(BENCHMARKS / f"matvec{suffix}", tmp_path / f"matvec{suffix}")
    done = tiler("tune", tmp_path / "matvec.fut", "-s", "n=3000", "-s", "m=2000", "--budget", "40", "--repeat", "3",
                 "--json", tmp_path / "trials.json", timeout=300)
    assert done.returncode == 0, done.stderr
    trials = json.loads((tmp_path / "trials.json").read_text())["trials"]
    assert trials[0]["parameters"] == {} and len(trials) > 3
    assert all(t["ms"] is not None or t["verdict"].startswith(("discarded", "not compiled")) for t in trials)
    data = json.loads(tiler("explain", tmp_path / "matvec.fut", "--json", "--size", "n=3000", "--size", "m=2000").stdout)
    assert data["tuning"]["device"] == Gpu.get().name and "at the sizes given" in data["tuning"]["note"]


TRANSPOSE_VARIANTS = {"default": Options(), "transposed": Options(transpose=True),
                      "transposed, one a thread": Options(transpose=True, no_register_tile=True),
                      "transposed, scalar": Options(transpose=True, no_vector=True)}


@pytest.mark.parametrize("scale", ["aligned", "odd", "tiny", 1, {"n": 40, "m": 2100, "b": 2}])
@pytest.mark.parametrize("variant", TRANSPOSE_VARIANTS)
@pytest.mark.parametrize("path", [BENCHMARKS / "rownorm.fut", BENCHMARKS / "matvec.fut", BENCHMARKS / "rowsum.fut",
                                  PROGRAMS / "analysis" / "nested.fut", PROGRAMS / "analysis" / "guarded_row.fut",
                                  PROGRAMS / "analysis" / "rows_3d.fut", PROGRAMS / "analysis" / "row_steps.fut"],
                         ids=lambda p: p.stem)
def test_rows_transposed_by_the_launch_match_the_interpreter(path, variant, scale):
    """Every version, the transposed ones included (each runs the launch's
    transposition first), whatever the launch would pick (the last sizes:
    long rows and few, where the default transposes too)."""
    if isinstance(scale, dict):
        prog = check(parse(path.read_text(), path.name))
        scale = {s.name: scale.get(s.name, 40) for s in prog.kernel.sizes}
    values = run_all(path.read_text(), path.name, TRANSPOSE_VARIANTS[variant])
    if variant != "default":
        assert any(k.transposes for k in values["verify"].kernels), "nothing was transposed"
    matches_the_interpreter(path, TRANSPOSE_VARIANTS[variant], scale, seed=19)


@pytest.mark.parametrize("sizes", [{"n": 300, "k": 16, "d": 34}, {"n": 37, "k": 3, "d": 5}, {"n": 1, "k": 1, "d": 1}],
                         ids=lambda s: "-".join(f"{k}{v}" for k, v in s.items()))
def test_kmeans_with_its_points_transposed_matches_the_interpreter(sizes):
    options = Options(transpose=True)
    values = run_all((BENCHMARKS / "kmeans.fut").read_text(), "kmeans.fut", options)
    assert [p.source for k in values["verify"].kernels for p in k.transposes][:1] == ["points"]
    matches_the_interpreter(BENCHMARKS / "kmeans.fut", options, sizes, seed=23)


@pytest.mark.parametrize("shape", [(3, 65535 * 32 + 40), (70000, 2, 3), (37, 1), (1, 37), (5, 33, 65)],
                         ids=lambda s: "x".join(map(str, s)))
def test_the_transposition_kernel(shape):
    """The launch's transposition (last two axes), where the column tiles or
    the batch pass what one grid dimension holds."""
    from tiler import target

    values = run_all((BENCHMARKS / "rownorm.fut").read_text(), "rownorm.fut", Options(transpose=True))
    gpu = Gpu.get()
    fn = gpu.function(values["render"], target.transpose_kernel("float"))
    a = np.random.default_rng(3).random(shape, dtype=np.float32)
    *lead, rows, cols = shape
    batch = int(np.prod(lead, dtype=np.int64))
    with gpu.active():
        src, dst = gpu.drv.to_device(a), gpu.drv.mem_alloc(a.nbytes)
        fn(src, dst, np.int32(rows), np.int32(cols), np.int32(batch),
           block=(target.TRANSPOSE_TILE, target.TRANSPOSE_ROWS, 1), grid=target.transpose_grid(rows, cols, batch))
        got = gpu.drv.from_device(dst, (*lead, cols, rows), np.float32)
        src.free()
        dst.free()
    assert np.array_equal(got, np.swapaxes(a, -1, -2))


HOST_ROWNORM = r"""
#include <cstdio>
#include <cmath>
#include <vector>
#include "rownorm.h"
int main(int argc, char** argv) {
  int n = atoi(argv[1]), m = atoi(argv[2]);
  std::vector<float> a((size_t)n * m), out(n, NAN);
  for (size_t e = 0; e < a.size(); e++) a[e] = (float)(e % 13) / 13.0f - 0.5f;
  float *da, *dout;
  cudaMalloc(&da, a.size() * sizeof(float));
  cudaMalloc(&dout, n * sizeof(float));
  cudaMemcpy(da, a.data(), a.size() * sizeof(float), cudaMemcpyHostToDevice);
  cudaError_t err = tiler_rownorm_launch(da, dout, n, m, 0);
  cudaMemcpy(out.data(), dout, n * sizeof(float), cudaMemcpyDeviceToHost);
  if (err != cudaSuccess || cudaDeviceSynchronize() != cudaSuccess) { printf("launch failed\n"); return 1; }
  for (int i = 0; i < n; i++) {
    double want = 0;
    for (int k = 0; k < m; k++) want += (double)a[(size_t)i * m + k] * a[(size_t)i * m + k];
    if (!(fabs(out[i] - want) <= 1e-3 * (1 + fabs(want)))) { printf("row %d: %f, want %f\n", i, out[i], want); return 1; }
  }
  printf("OK\n");
  return 0;
}
"""


# transposed; in place (short rows); transposed; in place (many rows); several blocks a row
@pytest.mark.parametrize("sizes", [("1000", "2100"), ("37", "100"), ("3", "2049"), ("20000", "2048"),
                                   ("3", "1100001")])
def test_the_host_launcher_transposes_long_rows(tmp_path, sizes):
    """rownorm's C launcher, called from C++: it takes scratch memory on the
    stream, transposes A and runs the kernel that reads the copy; or, for
    few long rows, runs several blocks a row, their partial results in
    scratch memory."""
    import subprocess

    from tiler.runtime.nvcc import nvcc_path

    done = tiler("compile", str(BENCHMARKS / "rownorm.fut"), "-o", str(tmp_path / "rownorm.cu"))  # and rownorm.h
    assert done.returncode == 0, done.stderr
    (tmp_path / "main.cu").write_text(HOST_ROWNORM)
    exe = tmp_path / "rownorm"
    subprocess.run([nvcc_path(), "-arch=sm_90", "-I", str(tmp_path), str(tmp_path / "main.cu"),
                    str(tmp_path / "rownorm.cu"), "-o", str(exe)], check=True)
    done = subprocess.run([str(exe), *sizes], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.startswith("OK"), done.stdout


HOST_THREADS = r"""
#include <cstdio>
#include <cmath>
#include <thread>
#include <vector>
#include "mm.h"
static bool right(const std::vector<float>& a, const std::vector<float>& b, float* dc, int m, int n, int q) {
  std::vector<float> c((size_t)m * q);
  cudaMemcpy(c.data(), dc, c.size() * sizeof(float), cudaMemcpyDeviceToHost);
  for (int i = 0; i < m; i++)
    for (int j = 0; j < q; j++) {
      double want = 0;
      for (int k = 0; k < n; k++) want += (double)a[(size_t)i * n + k] * b[(size_t)k * q + j];
      if (!(std::fabs(c[(size_t)i * q + j] - want) <= 1e-3 * (1.0 + std::fabs(want)))) return false;
    }
  return true;
}
int main() {
  const int m = 700, n = 300, q = 513, cm = 129, cn = 64, cq = 130;  // raced; captured
  std::vector<float> a((size_t)m * n), b((size_t)n * q);
  for (size_t i = 0; i < a.size(); i++) a[i] = (float)((i * 7) % 13) / 13.0f - 0.5f;
  for (size_t i = 0; i < b.size(); i++) b[i] = (float)((i * 5) % 11) / 11.0f - 0.5f;
  float *da, *db, *dc[4];
  cudaMalloc(&da, a.size() * sizeof(float));
  cudaMalloc(&db, b.size() * sizeof(float));
  cudaMemcpy(da, a.data(), a.size() * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(db, b.data(), b.size() * sizeof(float), cudaMemcpyHostToDevice);
  cudaStream_t s[4];
  for (int t = 0; t < 4; t++) {
    cudaMalloc(&dc[t], (size_t)m * q * sizeof(float));
    cudaMemset(dc[t], 0xff, (size_t)m * q * sizeof(float));
    cudaStreamCreate(&s[t]);
  }
  cudaDeviceSynchronize();
  // three threads race the same new sizes while this one captures a graph in global mode
  if (cudaStreamBeginCapture(s[0], cudaStreamCaptureModeGlobal) != cudaSuccess) { printf("no capture\n"); return 1; }
  cudaError_t errs[3];
  std::vector<std::thread> racers;
  for (int t = 1; t < 4; t++) racers.emplace_back([&, t] { errs[t - 1] = tiler_mm_launch(da, db, dc[t], m, n, q, s[t]); });
  for (auto& r : racers) r.join();
  const cudaError_t captured = tiler_mm_launch(da, db, dc[0], cm, cn, cq, s[0]);
  cudaGraph_t graph;
  const cudaError_t ended = cudaStreamEndCapture(s[0], &graph);
  if (captured != cudaSuccess || ended != cudaSuccess) {
    printf("capture: %s, %s\n", cudaGetErrorString(captured), cudaGetErrorString(ended));
    return 1;
  }
  cudaGraphExec_t exec;
  if (cudaGraphInstantiate(&exec, graph, 0) != cudaSuccess || cudaGraphLaunch(exec, s[0]) != cudaSuccess) {
    printf("graph failed\n");
    return 1;
  }
  if (cudaDeviceSynchronize() != cudaSuccess) { printf("sync failed\n"); return 1; }
  for (int t = 0; t < 3; t++)
    if (errs[t] != cudaSuccess) { printf("racer %d: %s\n", t, cudaGetErrorString(errs[t])); return 1; }
  for (int t = 1; t < 4; t++)
    if (!right(a, b, dc[t], m, n, q)) { printf("racer %d wrong\n", t); return 1; }
  std::vector<float> ca((size_t)cm * cn), cb((size_t)cn * cq);
  for (int i = 0; i < cm; i++) for (int k = 0; k < cn; k++) ca[(size_t)i * cn + k] = a[(size_t)i * cn + k];
  for (int k = 0; k < cn; k++) for (int j = 0; j < cq; j++) cb[(size_t)k * cq + j] = b[(size_t)k * cq + j];
  if (!right(ca, cb, dc[0], cm, cn, cq)) { printf("captured launch wrong\n"); return 1; }
  printf("OK\n");
  return 0;
}
"""


def test_the_host_launcher_races_from_threads_beside_a_graph_capture(tmp_path):
    """Three threads meet the same new sizes at once, so each may race them,
    while a fourth captures a graph in global mode: every launch is right,
    and the capture is not broken by the races' waits."""
    _runs_beside_mm(tmp_path, HOST_THREADS)


def _runs_beside_mm(tmp_path, host: str, name: str = "mm") -> str:
    """`host`, a C++ program calling a benchmark's launcher (mm's), built
    with its compiled .cu and run: it prints OK. Returns the .cu's text."""
    import subprocess

    from tiler.runtime.nvcc import nvcc_path

    done = tiler("compile", str(BENCHMARKS / f"{name}.fut"), "-o", str(tmp_path / f"{name}.cu"))
    assert done.returncode == 0, done.stderr
    (tmp_path / "main.cu").write_text(host)
    exe = tmp_path / "host"
    subprocess.run([nvcc_path(), "-arch=sm_90", "-std=c++17", "-I", str(tmp_path), str(tmp_path / "main.cu"),
                    str(tmp_path / f"{name}.cu"), "-o", str(exe)], check=True)
    done = subprocess.run([str(exe)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.startswith("OK"), done.stdout
    return (tmp_path / f"{name}.cu").read_text()


@pytest.mark.parametrize("name", ["nbody", "mm", "rowsum"])
def test_a_first_launch_races_the_tiled_version_against_the_untiled_kernel(name):
    """The default module's first launch at a set of sizes times the version
    its conditions pick against the untiled kernel and keeps the faster (by
    the margin); later launches at those sizes do not race again, and what
    they return is the interpreter's result whichever won."""
    path = BENCHMARKS / f"{name}.fut"
    text = path.read_text()
    prog, spec = check(parse(text, path.name)), load_spec(path)
    values = run_all(text, path.name, Options())
    module, cuda = values["verify"], values["render"]
    gpu = Gpu.get()
    for scale in (3, 37, 300):
        sizes = sizes_for(prog, spec, scale)
        inputs = make_inputs(prog, sizes, spec, seed=3)
        picked = module.select(sizes, gpu.sm_count)
        got, _ = gpu.run(module, cuda, inputs, sizes)
        race = gpu.race(module, cuda, sizes)
        if not picked.tiled:
            assert race is None
            continue
        rival, fallback = module.rival(picked), module.fallback(sizes, gpu.sm_count)
        if fallback is None:
            assert race.picked is picked and set(race.ms) <= {picked.name, rival.name} and picked.name in race.ms
            faster = rival.name in race.ms and race.ms[rival.name] * 1.02 < race.ms[picked.name]
            assert race.winner is (rival if faster else picked)
        else:  # a version for few points: against the version for more points, then the winner against its rival
            racers = {k.name for k in (picked, rival, fallback, module.rival(fallback)) if k is not None}
            assert race.picked is picked and {picked.name, fallback.name} <= set(race.ms) <= racers
            assert race.winner.name in race.ms and race.ms[race.winner.name] <= min(race.ms.values()) * 1.02
        assert gpu.ran(module, cuda, sizes) is race.winner
        count = len(gpu.races)
        again, _ = gpu.run(module, cuda, inputs, sizes)
        assert len(gpu.races) == count  # remembered, not raced again
        for g, w in zip(again, run(prog, inputs)):
            assert not np.isnan(g).any()
            assert float(np.abs(g.astype(np.float64) - w).max(initial=0)) <= 1e-3 * max(1.0, float(np.abs(w).max()))
        assert all(np.array_equal(a, b) for a, b in zip(got, again))


FEW_HOST = r"""
#include <cstdio>
#include <cmath>
#include <vector>
#include "mm.h"
int main() {
  const int m = 64, n = 4099, q = 64;  // 4,096 points: fewer than 64 an SM, the split for few points races first
  std::vector<float> a((size_t)m * n), b((size_t)n * q), c((size_t)m * q);
  for (size_t i = 0; i < a.size(); i++) a[i] = (float)((i * 7) % 13) / 13.0f - 0.5f;
  for (size_t i = 0; i < b.size(); i++) b[i] = (float)((i * 5) % 11) / 11.0f - 0.5f;
  float *da, *db, *dc;
  cudaMalloc(&da, a.size() * 4); cudaMalloc(&db, b.size() * 4); cudaMalloc(&dc, c.size() * 4);
  cudaMemcpy(da, a.data(), a.size() * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(db, b.data(), b.size() * 4, cudaMemcpyHostToDevice);
  for (int round = 0; round < 2; round++) {  // the race, then its winner remembered
    cudaMemset(dc, 0xff, c.size() * 4);
    const cudaError_t err = tiler_mm_launch(da, db, dc, m, n, q, 0);
    if (err != cudaSuccess || cudaDeviceSynchronize() != cudaSuccess) { printf("launch failed\n"); return 1; }
    cudaMemcpy(c.data(), dc, c.size() * 4, cudaMemcpyDeviceToHost);
    for (int i = 0; i < m; i++)
      for (int j = 0; j < q; j++) {
        double want = 0;
        for (int k = 0; k < n; k++) want += (double)a[(size_t)i * n + k] * b[(size_t)k * q + j];
        if (!(std::fabs(c[(size_t)i * q + j] - want) <= 1e-3 * (1.0 + std::fabs(want)))) { printf("wrong\n"); return 1; }
      }
  }
  printf("OK\n");
  return 0;
}
"""


def test_the_host_launcher_races_a_few_points_version_against_the_one_for_more_points(tmp_path):
    """mm at 64 x 64 outputs of 4,099 terms: the launcher's conditions pick a
    split for few points, which races the tiled version first, then the
    winner its own rival; both launches are right."""
    assert "tiler_plain" in _runs_beside_mm(tmp_path, FEW_HOST)


def test_split_minimum_and_maximum_keep_nan_as_the_loop_in_order_does():
    """A row of NaN stays NaN and a NaN among numbers is passed over, as
    `fmin`/`fmax` in order do: every version, the split ones among them."""
    text = """fun [f32, n] main([[f32, m], n] A) =
  map(fn f32 ([f32, m] r) =>
        let hi = loop (acc = r[0]) = for k < m do max(acc, r[k]) in acc in
        let lo = loop (acc = r[0]) = for k < m do min(r[k], acc) in acc in
        hi - lo * 0.5f32
     , A)
"""
    prog = check(parse(text, "nanrows.fut"))
    a = np.random.default_rng(3).uniform(-1, 1, (5, 700)).astype(np.float32)
    a[0, :] = np.nan
    a[1, ::7] = np.nan
    a[2, 0] = np.nan
    a[3, 1:] = np.nan
    want = run(prog, {"A": a})
    values = run_all(text, "nanrows.fut")
    sizes = {"n": 5, "m": 700}
    for kernel in values["verify"].kernels:
        if kernel.runs_at(sizes):
            got, _ = Gpu.get().run(kernel, values["render"], {"A": a}, sizes)
            assert np.allclose(got[0], want[0], equal_nan=True), (kernel.name, got[0], want[0])


@pytest.mark.parametrize("length", [1000, 8193, 20001])
@pytest.mark.parametrize("path", PROGRAM_FILES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_several_blocks_a_row_match_the_interpreter(path, length):
    """Every version of several blocks a row, with one, two and three blocks
    a row (the last one's share cut short): the row's length set to
    `length`, every other size to 3."""
    text = path.read_text()
    values = run_all(text, path.name, Options())
    kernels = [k for k in values["verify"].kernels if k.split_stages]
    if not kernels:
        pytest.skip("no version runs several blocks a row")
    prog = values["check"]
    split = values["analyse"].plan.split
    sizes = {s.name: length if s.name == split.length else 3 for s in prog.kernel.sizes}
    inputs = make_inputs(prog, sizes, load_spec(path), seed=5)
    want = run(prog, inputs)
    for kernel in kernels:
        got, _ = Gpu.get().run(kernel, values["render"], inputs, sizes)
        written_and_close(got, want, kernel.name, sizes)


@pytest.mark.parametrize("path", PROGRAM_FILES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_few_points_split_their_shared_reductions_right(path):
    """Every 32-bit split version of a plan that splits reductions over
    inputs other points read too only for few points (a product's, an
    n-body's), at a row length of 1,000 and every other size 3."""
    text = path.read_text()
    values = run_all(text, path.name, Options())
    split = values["analyse"].plan.split
    if split is None or not split.few:
        pytest.skip("no split for few points")
    prog, spec = values["check"], load_spec(path)
    derived = {n for n, f in (spec.size_set("test").items() if spec else ()) if isinstance(f, str)}
    sizes = sizes_for(prog, spec, {s.name: 1000 if s.name == split.length else 3 for s in prog.kernel.sizes
                                   if s.name not in derived})  # (lavaMD's box count stays derived)
    inputs = make_inputs(prog, sizes, spec, seed=11)
    want = run(prog, inputs)
    for kernel in (k for k in values["verify"].kernels if k.lanes and not k.wide):
        got, _ = Gpu.get().run(kernel, values["render"], inputs, sizes)
        written_and_close(got, want, kernel.name, sizes)


@pytest.mark.parametrize("path, sizes", [
    (ROOT / "corpus" / "a_ell_spmv_f32.fut", {"n": 5000, "wdt": 16, "m": 3000}),
    (ROOT / "corpus" / "a_ell_spmv_f32.fut", {"n": 4099, "wdt": 27, "m": 999}),
    (ROOT / "corpus" / "a_ell_spmv_f32.fut", {"n": 300, "wdt": 1000, "m": 2000}),
    (ROOT / "corpus" / "b_lj_neighbor_list.fut", {"n": 3001, "maxn": 33}),
    (PROGRAMS / "analysis" / "matvec.fut", {"n": 2049, "m": 17}),
], ids=lambda x: x.stem if isinstance(x, Path) else "-".join(map(str, x.values())))
def test_a_warp_a_row_of_each_points_own_row_matches_the_interpreter(path, sizes):
    """The warp a row that races ahead of the tiled kernel where a split for
    few points streams each point's own rows (reductions.Split.own_warp),
    launched alone at rows no warp's width divides and at many rows."""
    text = path.read_text()
    values = run_all(text, path.name, Options())
    assert values["analyse"].plan.split.own_warp
    prog, spec = values["check"], load_spec(path)
    sizes = sizes_for(prog, spec, sizes)
    inputs = make_inputs(prog, sizes, spec, seed=12)
    want = run(prog, inputs)
    warp = next(k for k in values["verify"].kernels if k.name.endswith("_split32"))
    got, _ = Gpu.get().run(warp, values["render"], inputs, sizes)
    written_and_close(got, want, warp.name, sizes)


SPLIT_K_FILES = [p for p in PROGRAM_FILES if p.stem in ("mm", "aat", "mm_rows", "xty_few", "loop_matmul", "helper",
                                                          "minplus_few", "mlp")] + \
    [ROOT / "corpus" / f"{n}.fut" for n in ("c_xty_loop_f32", "c_xty_tstream_f64", "a_covariance_f64",
                                             "a_pdist_manhattan_int", "b_mc_option_f64", "b_nbody3d_pot_f64",
                                             "b_coulomb_grid2d_f32")]
SPLIT_K_SIZES = [(1027, 130), (4099, 67), (20000, 5)]


@pytest.mark.parametrize("path, sizes", [(p, s) for p in SPLIT_K_FILES for s in SPLIT_K_SIZES] +
                         [(ROOT / "corpus" / "c_xty_loop_f32.fut", (262145, 3))],
                         ids=lambda x: x.stem if hasattr(x, "stem") else f"{x[0]}x{x[1]}")
def test_split_k_matches_the_interpreter(path, sizes):
    """The split-K version (the register-tiled kernel's blocks along z
    sharing each tile's reduction, a split kernel combining them), at a
    reduction length no share divides and output sizes no tile divides
    (130: a tile and a ragged one), several blocks a tile or one; and
    (c_xty_loop_f32) past 2,048 blocks a tile, where the shares grow and
    the last blocks may have none."""
    text = path.read_text()
    values = run_all(text, path.name, Options())
    versions = [v for v in values["verify"].versions if v.plan.build.k_split]
    assert versions, "no split-K version"
    kernels = [v.kernel for v in versions]
    prog, spec = values["check"], load_spec(path)
    length, other = sizes
    split = values["analyse"].plan.split
    derived = {n for n, f in (spec.size_set("test").items() if spec else ()) if isinstance(f, str)}
    bounds = {n: b for v in versions for n, b in v.plan.build.bounds}  # (mlp's tiles hold rows of d <= 64)
    given = {s.name: length if s.name == split.length else min(other, bounds.get(s.name, other))
             for s in prog.kernel.sizes if s.name not in derived}
    sizes = resolve_sizes(prog, given, spec, "test")
    inputs = make_inputs(prog, sizes, spec, seed=13)
    want = run(prog, inputs)
    for kernel in kernels:
        got, _ = Gpu.get().run(kernel, values["render"], inputs, sizes)
        for g, w in zip(got, want):
            if np.issubdtype(g.dtype, np.floating):  # (a min-plus product's NaN identity never reaches an output)
                assert not np.isnan(g).any(), "an output element was never written"
            err = float(np.abs(g.astype(np.float64) - w.astype(np.float64)).max(initial=0))
            assert err <= 1e-3 * max(1.0, float(np.abs(w).max(initial=0))), (kernel.name, sizes, err)


def test_a_split_k_version_races_the_split_it_would_otherwise_be_first():
    """X^T Y of 64 x 64 outputs and 32768 rows: the first launch times the
    split-K version, the next version (a split for few points), the version
    for more points and the untiled kernel as they win, each once; the
    winner is within the margin of the fastest, and its result is right."""
    _races_the_next_version_first(ROOT / "corpus" / "c_xty_loop_f32.fut", {"N": 32768, "p": 64, "q": 64}, "_k",
                                  seed=17, tolerance=1e-3)


def _races_the_next_version_first(path, sizes: dict, suffix: str, seed: int, tolerance: float) -> None:
    """The version the conditions pick at `sizes` (named with `suffix`)
    races the next version whose condition holds first: the race timed
    both, the winner is within the margin of the fastest kernel timed, and
    its result is right."""
    values = run_all(path.read_text(), path.name, Options())
    module, cuda, prog = values["verify"], values["render"], values["check"]
    gpu = Gpu.get()
    picked, ahead = module.select(sizes, gpu.sm_count), module.ahead(sizes, gpu.sm_count)
    assert picked.name.endswith(suffix) and ahead is not None
    inputs = make_inputs(prog, sizes, load_spec(path), seed=seed)
    got, _ = gpu.run(module, cuda, inputs, sizes)
    race = gpu.race(module, cuda, sizes)
    assert race.picked is picked and {picked.name, ahead.name} <= set(race.ms)
    assert race.winner.name in race.ms and race.ms[race.winner.name] <= min(race.ms.values()) * 1.02
    want = run(prog, inputs)
    err = float(np.abs(got[0].astype(np.float64) - want[0].astype(np.float64)).max())
    assert err <= tolerance * max(1.0, float(np.abs(want[0]).max())), (race.winner.name, err)

WINDOW_FILES = [ROOT / "corpus" / f"{n}.fut" for n in (
    "d_blur_vertical15_f32", "d_sad8x8_int", "d_stencil3d_7pt_f32", "d_stencil3d_25pt_f64", "d_conv2d_3x3_wrap_f32",
    "a_jacobi5_f32", "a_laplace3d_f64", "d_conv1d_depthwise7_f32", "d_conv1d_taps31_f64", "a_box3d_w27_f32")] + \
    [ROOT / "benchmarks" / f"{n}.fut" for n in ("conv2d", "blur", "stencil3d", "conv1d", "star25")]


@pytest.mark.parametrize("size", [None, 70, 133])
@pytest.mark.parametrize("path", WINDOW_FILES, ids=lambda p: p.stem)
def test_window_versions_match_the_interpreter(path, size):
    """The window version (consecutive points a thread along the window's
    dimension, unrolled): at the test sizes (smaller than a block: the
    clamped body alone) and with every size 70 or 133 (interior blocks and
    ragged ones at both ends), outputs poisoned before the launch."""
    window_versions_match(path, size)


@pytest.mark.parametrize("sizes", [None, {"n": 37, "m": 2049}, {"n": 1000, "m": 3001}, {"n": 3, "m": 70000}],
                         ids=lambda s: "-".join(map(str, s.values())) if s else "test")
def test_the_strided_version_of_a_kernel_of_no_window_matches_the_interpreter(sizes):
    """8 points a thread a block's width apart, no window, no loop: ragged
    blocks along x and y (the launch's own test of its grid is not asked: the
    kernel runs at any size)."""
    window_versions_match(ROOT / "corpus" / "a_outer_update_f32.fut", sizes, "_strided")


@pytest.mark.parametrize("sizes", [{"n": 1}, {"n": 63}, {"n": 65}, {"n": 100003}], ids=lambda s: str(s["n"]))
def test_an_untiled_block_narrowed_to_a_literal_inner_dimension_matches_the_interpreter(sizes):
    """3 outputs a point: a block of 4 x 64 threads, one lane of 4 idle, points ragged along y."""
    path = ROOT / "corpus" / "a_rigid3_points_f32.fut"
    values = run_all(path.read_text(), path.name, Options())
    prog, spec = values["check"], load_spec(path)
    kernel = values["verify"].versions[0].kernel
    assert kernel.block[:2] == (4, 64)
    inputs = make_inputs(prog, sizes, spec, seed=23)
    got, _ = Gpu.get().run(kernel, values["render"], inputs, sizes)
    written_and_close(got, run(prog, inputs), kernel.name, sizes)


@pytest.mark.parametrize("path, sizes", [
    (ROOT / "benchmarks" / "conv1d.fut", {"c": 3, "l": 5000}),
    (ROOT / "benchmarks" / "conv1d31.fut", {"c": 2, "l": 4097}),
    (ROOT / "corpus" / "d_conv1d_taps31_f64.fut", {"n": 6151}),
    (ROOT / "corpus" / "a_box3d_w27_f32.fut", {"nz": 3, "ny": 9, "nx": 2100}),
    (PROGRAMS / "windows" / "halo_short_array.fut", {"n": 3000, "m": 2500}),
], ids=lambda x: x.stem if isinstance(x, Path) else "-".join(map(str, x.values())))
def test_halo_tiles_past_the_first_block_match_the_interpreter(path, sizes):
    """A block stages 2,048 points along x and its halo: rows longer than
    that (tiles whose first element is past the first block's, and a
    ragged last block)."""
    window_versions_match(path, sizes)


MARCH_FILES = [ROOT / "corpus" / f"{n}.fut" for n in ("d_stencil3d_7pt_f32", "d_stencil3d_25pt_f64", "a_laplace3d_f64")] \
    + [ROOT / "benchmarks" / f"{n}.fut" for n in ("stencil3d", "star25")] \
    + [PROGRAMS / "windows" / f"{n}.fut" for n in ("march_wide_x", "march_wide_halo", "march_clamped_f64",
                                                   "march_diagonal", "march_wrap", "march_radius6",
                                                   "march_wide_coef", "march_wave_f64")]


@pytest.mark.parametrize("size", [None, 70, 133, {"nz": 131, "ny": 13, "nx": 65}, {"nz": 64, "ny": 25, "nx": 200},
                                  {"nz": 70, "ny": 40, "nx": 300}],
                         ids=["test", "70", "133", "odd-run", "even-run", "inside"])
@pytest.mark.parametrize("path", MARCH_FILES, ids=lambda p: p.stem)
def test_march_versions_match_the_interpreter(path, size):
    """The march (2.5-D blocking): blocks whose run of planes is shorter
    than a chunk and odd (its last plane after the loop), ragged tiles of
    the plane along both axes, rows of a thread past the plane's edge; at
    133 and "inside", blocks whose window lies inside every edge (the body
    without the program's edge tests) beside blocks at the edges."""
    window_versions_match(path, size, "_march")


def test_a_march_without_a_window_version_matches_the_interpreter():
    """star25 with one point a thread and no halo tile: the march is raced
    against the untiled kernel alone."""
    window_versions_match(BENCHMARKS / "star25.fut", {"nz": 131, "ny": 13, "nx": 65}, "_march",
                          Options(window_points=1, no_halo=True))


@pytest.mark.parametrize("size", [None, 1, 5, 70, 133, 2100])  # (the 1-D program reads out of range below 4)
@pytest.mark.parametrize("path, options", [(PROGRAMS / "windows" / "halo_wrap_1d.fut", None),
                                           (PROGRAMS / "windows" / "halo_wrap_twice_1d.fut", None),
                                           (ROOT / "corpus" / "d_conv2d_3x3_wrap_f32.fut", Options(window_points=1))],
                         ids=["1d", "1d-twice", "2d"])
def test_a_wrapped_window_staged_with_its_halo_matches_the_interpreter(path, options, size):
    """Reads wrapped by `%` around the array's ends, their window staged in
    shared memory (the copy wraps as the reads do): a tile wider than the
    array (1, 5), blocks at both ends and inside (70, 133, 2,100 past one
    block of 2,048 points along x)."""
    window_versions_match(path, size, "_window", options)


@pytest.mark.parametrize("size", [1, 5, 300, 2100, 4500])
def test_a_wrapped_window_wider_than_the_array_matches_the_interpreter(size):
    """Reads 2,500 places either side, wrapped: wider than the array at
    every size here, and at 2,100 and 4,500 across two and three blocks of
    2,048 points, so a block's tile wraps around the array more than once."""
    window_versions_match(PROGRAMS / "windows" / "halo_wrap_wide_1d.fut", size, "_window")


@pytest.mark.parametrize("path, sizes", [
    (PROGRAMS / "windows" / "halo_launch_1d.fut", {"n": 1, "m": 1}),
    (PROGRAMS / "windows" / "halo_launch_1d.fut", {"n": 5, "m": 9}),  # (a tile wider than the signal)
    (PROGRAMS / "windows" / "halo_launch_1d.fut", {"n": 2100, "m": 4}),
    (PROGRAMS / "windows" / "halo_launch_1d.fut", {"n": 70001, "m": 301}),
    (PROGRAMS / "windows" / "halo_launch_1d.fut", {"n": 20000, "m": 9000}),  # (35 KiB: a halo wider than the block)
    (PROGRAMS / "windows" / "halo_launch_padded_2d.fut", {"h": 37, "w": 45, "kh": 5, "kw": 3}),
    (PROGRAMS / "windows" / "halo_launch_padded_2d.fut", {"h": 70, "w": 300, "kh": 1, "kw": 17}),
    (PROGRAMS / "windows" / "halo_launch_padded_2d.fut", {"h": 133, "w": 600, "kh": 12, "kw": 1}),
    (ROOT / "corpus" / "a_conv2d_filter_f32.fut", {"h": 70, "w": 133, "kh": 7, "kw": 9}),
    (ROOT / "corpus" / "a_conv2d_filter_f32.fut", {"h": 9, "w": 2100, "kh": 2, "kw": 25}),
    (ROOT / "corpus" / "d_xcorr_valid_f32.fut", {"n": 4100, "tl": 255, "len": 4354}),
    (ROOT / "corpus" / "b_window_stats_f64.fut", {"n": 5, "len": 6, "w": 1}),  # (its length an int argument)
    (ROOT / "corpus" / "b_window_stats_f64.fut", {"n": 2100, "len": 2400, "w": 300}),
    (ROOT / "corpus" / "b_window_stats_f64.fut", {"n": 3000, "len": 6000, "w": 3000}),
], ids=lambda x: x.stem if isinstance(x, Path) else "-".join(map(str, x.values())))
def test_a_window_tile_the_launch_sizes_matches_the_interpreter(path, sizes):
    """Windows whose extent is known only at launch, staged in dynamic shared
    memory the launch sizes: tiles wider than the array, halos wider than a
    block, asymmetric reaches, one-wide filters along either axis."""
    window_versions_match(path, sizes)


@pytest.mark.parametrize("path, given, staged", [
    (PROGRAMS / "windows" / "halo_launch_1d.fut", {"n": 3000, "m": 31}, True),
    (PROGRAMS / "windows" / "halo_launch_1d.fut", {"n": 3000, "m": 12000}, False),
    (ROOT / "corpus" / "b_window_stats_f64.fut", {"n": 20000, "len": 20040, "w": 40}, True),
    (ROOT / "corpus" / "b_window_stats_f64.fut", {"n": 20000, "len": 26000, "w": 6000}, False)])
def test_a_module_runs_its_window_version_only_where_the_tile_fits(path, given, staged):
    """Through the module (the launch's own choice, by a size or an int
    argument): a filter whose tile fits runs the window version (or the
    kernel it raced), a longer one another version; both right."""
    values = run_all(path.read_text(), path.name, Options())
    module, prog, spec = values["verify"], values["check"], load_spec(path)
    inputs = make_inputs(prog, given, spec, seed=29)
    sizes = {s.name: given[s.name] for s in prog.kernel.sizes}
    gpu = Gpu.get()
    assert module.select(module.launch_values(sizes, inputs), gpu.sm_count).name.endswith("_window") == staged
    got, _ = gpu.run(module, values["render"], inputs, sizes)
    for g, w in zip(got, run(prog, inputs)):
        assert float(np.abs(g - w).max()) <= 1e-4 * max(1.0, float(np.abs(w).max()))


def window_versions_match(path, size, suffix: str = "_window", options: Options | None = None) -> None:
    """Every window version (or march, by `suffix`) of `path` against the
    interpreter: at the test sizes (None), with every size `size` (an int),
    or at these sizes (a dict)."""
    text = path.read_text()
    values = run_all(text, path.name, options or Options())
    kernels = [v.kernel for v in values["verify"].versions if v.kernel.name.endswith(suffix)]
    assert kernels, f"no {suffix[1:]} version"
    prog, spec = values["check"], load_spec(path)
    derived = {n for n, f in (spec.size_set("test").items() if spec else ()) if isinstance(f, str)}
    given = size if isinstance(size, dict) else \
        {s.name: size for s in prog.kernel.sizes if s.name not in derived} if size else {}
    scalars = {p.name for p in prog.kernel.scalar_params}
    # (a dict naming a scalar gives every size and that scalar's value: the spec's would derive sizes from its own)
    sizes = dict(given) if scalars & set(given) else resolve_sizes(prog, given, spec, "test")
    inputs = make_inputs(prog, sizes, spec, seed=19)
    want = run(prog, inputs)
    for kernel in kernels:
        got, _ = Gpu.get().run(kernel, values["render"], inputs, sizes)
        for g, w in zip(got, want):
            if np.issubdtype(g.dtype, np.floating):
                assert not np.isnan(g).any(), "an output element was never written"
            err = float(np.abs(g.astype(np.float64) - w.astype(np.float64)).max(initial=0))
            assert err <= 1e-4 * max(1.0, float(np.abs(w).max(initial=0))), (kernel.name, sizes, err)


def test_a_window_version_races_the_next_version_then_the_untiled_kernel():
    """The 15-tap vertical pass at 2048 x 2048: the first launch times the
    window version against the next version, the winner against the
    untiled kernel, each kernel once; the winner is within the margin of the
    fastest, and its result is right."""
    _races_the_next_version_first(ROOT / "corpus" / "d_blur_vertical15_f32.fut", {"h": 2048, "w": 2048}, "_window",
                                  seed=23, tolerance=1e-4)


WINDOW_HOST = r"""
#include <cstdio>
#include <algorithm>
#include <cmath>
#include <vector>
#include "conv2d.h"
int main() {
  const int h = 300, w = 509;  // neither a multiple of the window version's 64 rows nor of its 32 columns
  std::vector<float> img((size_t)h * w), filt(25), out((size_t)h * w);
  for (size_t i = 0; i < img.size(); i++) img[i] = (float)((i * 7) % 13) / 13.0f - 0.5f;
  for (size_t i = 0; i < filt.size(); i++) filt[i] = (float)((i * 5) % 11) / 11.0f - 0.5f;
  float *di, *df, *dout;
  cudaMalloc(&di, img.size() * 4); cudaMalloc(&df, filt.size() * 4); cudaMalloc(&dout, out.size() * 4);
  cudaMemcpy(di, img.data(), img.size() * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(df, filt.data(), filt.size() * 4, cudaMemcpyHostToDevice);
  for (int round = 0; round < 2; round++) {  // the race, then its winner remembered
    cudaMemset(dout, 0xff, out.size() * 4);
    const cudaError_t err = tiler_conv2d_launch(di, df, dout, h, w, 0);
    if (err != cudaSuccess || cudaDeviceSynchronize() != cudaSuccess) { printf("launch failed\n"); return 1; }
    cudaMemcpy(out.data(), dout, out.size() * 4, cudaMemcpyDeviceToHost);
    for (int i = 0; i < h; i++)
      for (int j = 0; j < w; j++) {
        double want = 0;
        for (int r = 0; r < 5; r++)
          for (int k = 0; k < 5; k++)
            want += (double)filt[r * 5 + k] * img[(size_t)std::min(i + r, h - 1) * w + std::min(j + k, w - 1)];
        if (!(std::fabs(out[(size_t)i * w + j] - want) <= 1e-4 * (1.0 + std::fabs(want)))) { printf("wrong\n"); return 1; }
      }
  }
  printf("OK\n");
  return 0;
}
"""


def test_the_host_launcher_races_a_window_version_against_the_next_then_its_rival(tmp_path):
    """conv2d at 300 x 509: the launcher's conditions pick the window
    version, which races the next version first, then the winner its rival;
    both launches are right."""
    assert "tiler_ahead" in _runs_beside_mm(tmp_path, WINDOW_HOST, "conv2d")


FLOAT16 = sorted((PROGRAMS / "float16").glob("*.fut"))


@pytest.mark.parametrize("size", [1, 3, 37, 130])
@pytest.mark.parametrize("variant", ["untiled", "tiled"])
@pytest.mark.parametrize("path", FLOAT16, ids=lambda p: p.stem)
def test_16_bit_programs_match_the_interpreter(path, variant, size):
    """f16 and bf16 programs (tests/programs/float16) at sizes no tile
    divides, every version: bit for bit where the header says `exact: yes`
    (each operation rounds as the interpreter's does), else within the
    tolerance of the outputs' type (a reduction in another order rounds its
    16-bit partial sums otherwise)."""
    from conftest import header

    from tiler.workload.checks import check_tolerance

    prog = check(parse(path.read_text(), path.name))
    tolerance = 0.0 if header(path).get("exact") == ["yes"] else check_tolerance(prog, load_spec(path))
    matches_the_interpreter(path, Options(no_tile=True) if variant == "untiled" else Options(), size, seed=16,
                            tolerance=tolerance)


@pytest.mark.parametrize("library", ["torch", "cupy"])
def test_16_bit_device_arrays_are_read_in_place(library):
    """torch.float16 and torch.bfloat16 tensors (CuPy: float16 arrays) are
    read where they are; the outputs come back as the caller's library's
    arrays of the outputs' type, with the interpreter's values (an
    elementwise program: bit for bit)."""
    import tiler

    module = pytest.importorskip(library)
    name = "map_f16" if library == "cupy" else "map_bf16"
    k = tiler.compile(PROGRAMS / "float16" / f"{name}.fut")
    inputs = make_inputs(k.program, {"n": 37}, seed=4)
    (want,) = k.reference(**inputs)
    if library == "torch":
        device = {"xs": module.from_numpy(inputs["xs"]).to(module.bfloat16).cuda()}  # (exact: bf16 values)
        (got,) = k.run(**device)
        assert got.dtype == module.bfloat16
        host = got.float().cpu().numpy()
    else:
        device = {n: module.asarray(v) if np.ndim(v) else v for n, v in inputs.items()}
        (got,) = k.run(**device)
        assert got.dtype == np.float16
        host = got.get()
    assert np.array_equal(host, want)
    (again,) = k.reference(**device)  # the interpreter reads the device arrays' copies
    assert np.array_equal(again, want)


# a bool scalar of main's reaches the kernel as one byte (runtime/launches.py packs it as C's bool: pycuda's
# plain call refused NumPy's bool_)
BOOL_SCALAR = "fun [f32, n] main([f32, n] xs, bool neg) = map(fn f32 (f32 x) => if neg then 0f32 - x else x, xs)\n"


@pytest.mark.parametrize("neg", [True, False])
def test_a_bool_scalar_argument_reaches_the_kernel(neg):
    prog = check(parse(BOOL_SCALAR, "neg.fut"))
    inputs = {"xs": np.arange(-50, 50, dtype=np.float32) / 4, "neg": neg}
    want = run(prog, inputs)
    values = run_all(BOOL_SCALAR, "neg.fut", Options())
    for kernel in values["verify"].kernels:
        got, _ = Gpu.get().run(kernel, values["render"], inputs, {"n": 100})
        assert np.array_equal(got[0], want[0]), kernel.name


# a fold per point over the positions up to its own, run as a scan (analyse/scans.py, lower/scan.py): every version
# against the interpreter, at lengths of one block and less, one block's round exactly and past it, several blocks
SCAN_PROGRAMS = sorted((PROGRAMS / "scans").glob("*.fut")) + [ROOT / "corpus" / f"{n}.fut" for n in (
    "b_prefix_masked_i64", "e_compact_offsets_i64", "e_hist_cdf_f32", "e_row_count_min_int", "e_row_runmean_peak_f32",
    "e_series_wealth_logret_f64", "e_col_cumsum_sales_f32", "e_col_excl_offsets_int", "e_col_running_max_ratio_f64",
    "e_balance_drawdown_f64")]


@pytest.mark.parametrize("length", [1, 37, 256, 257, 1000, 2049])
@pytest.mark.parametrize("path", SCAN_PROGRAMS, ids=lambda p: p.stem)
def test_scans_match_the_interpreter(path, length):
    """`length` positions (down columns: the outer level's size), every other size 3 (5 columns)."""
    from tiler.analyse.scans import Scan

    text = path.read_text()
    prog = check(parse(text, path.name))
    scan = run_all(text, path.name, Options(), until="analyse")["analyse"].plan.scan
    level = scan.level if isinstance(scan, Scan) else len(prog.kernel.levels) - 1
    positions = prog.kernel.levels[level].size
    columns = prog.kernel.levels[-1].size if level < len(prog.kernel.levels) - 1 else None
    sizes = {s.name: length if s is positions else 5 if s is columns else 3 for s in prog.kernel.sizes}
    matches_the_interpreter(path, Options(), sizes, seed=43, tolerance=1e-4)


@pytest.mark.parametrize("rows, length", [(1, 600_001), (3, 530_000), (70_001, 300)])
def test_a_scan_of_several_rounds_a_block_matches_numpy(rows, length):
    """Past 2,048 blocks of 256 positions each block walks its share in
    several rounds (the interpreter's n^2 steps are too slow there): a
    prefix count and minimum, and a suffix's sum after each position and
    minimum from it (walked backwards); and more rows than grid y holds
    (the rows on grid x)."""
    rng = np.random.default_rng(5)
    R = rng.integers(-1000, 1000, size=(rows, length), dtype=np.int32)
    got = _scanned(ROOT / "corpus" / "e_row_count_min_int.fut", {"R": R, "t": np.int32(100)}, {"n": rows, "m": length})
    np.testing.assert_array_equal(got[0], np.cumsum(R >= 100, axis=1, dtype=np.int32))
    np.testing.assert_array_equal(got[1], np.minimum.accumulate(R, axis=1))
    got = _scanned(PROGRAMS / "scans" / "rows_after_i64.fut", {"R": R}, {"r": rows, "m": length})
    after = np.cumsum(R[:, ::-1].astype(np.int64), axis=1)[:, ::-1] - R
    np.testing.assert_array_equal(got[0], after)
    np.testing.assert_array_equal(got[1], np.minimum.accumulate(R[:, ::-1], axis=1)[:, ::-1])
    if rows > 1:
        return
    # an exclusive prefix (the term at the last position never computed) and a float one with a total
    counts = R[0]
    got = _scanned(ROOT / "corpus" / "e_compact_offsets_i64.fut", {"counts": counts}, {"n": length})
    ends = np.cumsum(counts.astype(np.int64))
    np.testing.assert_array_equal(got[0], ends - counts)
    np.testing.assert_array_equal(got[1], ends)
    hist = rng.integers(0, 100, size=length).astype(np.float32)
    got = _scanned(ROOT / "corpus" / "e_hist_cdf_f32.fut", {"hist": hist}, {"n": length})
    np.testing.assert_allclose(got[0], np.cumsum(hist, dtype=np.float64) / hist.sum(dtype=np.float64), rtol=1e-5)
    # a chain of three scans (a stage each level): a balance, its running peak, the largest fall from it
    amounts = rng.normal(size=length)
    got = _scanned(ROOT / "corpus" / "e_balance_drawdown_f64.fut", {"amounts": amounts, "opening": np.float64(3.0)},
                   {"n": length})
    balance = 3.0 + np.cumsum(amounts)
    fall = np.maximum.accumulate(np.maximum(np.maximum.accumulate(balance), 3.0) - balance)
    np.testing.assert_allclose(got[0], balance, rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(got[1], fall, rtol=1e-9, atol=1e-9)
    # down columns: past 256 shares of 64 positions, each thread walks shares of 79 (and 40 rows of 77 columns)
    C = rng.integers(0, 9, size=(20_000, 77), dtype=np.int32)
    got = _scanned(ROOT / "corpus" / "e_col_excl_offsets_int.fut", {"C": C}, {"n": 20_000, "m": 77})
    np.testing.assert_array_equal(got[0], np.cumsum(C, axis=0, dtype=np.int32) - C)
    np.testing.assert_array_equal(got[1], np.cumsum(C > 0, axis=0, dtype=np.int32) - (C > 0))


@pytest.mark.parametrize("rows, length", [(100_003, 77), (9, 2049), (65_537, 1)])
def test_a_scan_of_a_warp_a_row_matches_numpy(rows, length):
    """A warp a row, eight rows a block (the last block's rows cut short),
    at rows of less than a round, of many rounds, and of one position."""
    rng = np.random.default_rng(6)
    R = rng.integers(-1000, 1000, size=(rows, length), dtype=np.int32)
    got = _scanned(ROOT / "corpus" / "e_row_count_min_int.fut", {"R": R, "t": np.int32(100)},
                   {"n": rows, "m": length}, "_scan32")
    np.testing.assert_array_equal(got[0], np.cumsum(R >= 100, axis=1, dtype=np.int32))
    np.testing.assert_array_equal(got[1], np.minimum.accumulate(R, axis=1))
    got = _scanned(PROGRAMS / "scans" / "rows_after_i64.fut", {"R": R}, {"r": rows, "m": length}, "_scan32")
    np.testing.assert_array_equal(got[0], np.cumsum(R[:, ::-1].astype(np.int64), axis=1)[:, ::-1] - R)
    np.testing.assert_array_equal(got[1], np.minimum.accumulate(R[:, ::-1], axis=1)[:, ::-1])


def _scanned(path, inputs: dict, sizes: dict, version: str = "_scan256") -> list:
    """The outputs of the program's scan kernel (its version, whatever the launch would pick)."""
    values = run_all(path.read_text(), path.name, Options())
    kernel = next(k for k in values["verify"].kernels if k.name.endswith(version))
    return Gpu.get().run(kernel, values["render"], inputs, sizes)[0]
