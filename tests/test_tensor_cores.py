"""--tensor-cores: the option on every entry point, the plan's decision and
its reasons in explain, the kernel-IR rewrite (transform/matrix_units.py),
and nvcc compiling every version with no spills. The GPU runs are in
test_gpu.py (test_tensor_cores_match_the_interpreter)."""
from __future__ import annotations

import re
import subprocess
from dataclasses import replace

import pytest
from conftest import BENCHMARKS, PROGRAMS, chunk_loop_reads, tiler

import tiler as tiler_api
from tiler import kir, target
from tiler.analyse import Options, make_options
from tiler.analyse.options import ABLATIONS, OPTIONS, TUNED
from tiler.errors import PlainError
from tiler.kir.walkers import statements
from tiler.pipeline import run_all
from tiler.render import rename_module
from tiler.runtime.nvcc import nvcc_path
from tiler.tune.autotune import Journal
from tiler.tune.tuning import RECORD, Tuned, for_program, merged, read, write
from tiler.workload.checks import tolerance

TENSOR_CORES = Options(tensor_cores=True)
# the products that run on the matrix units, and the one form of each they take
USED = {BENCHMARKS / "mm.fut": ("TF32", (16, 16, 8)), BENCHMARKS / "mm_rows.fut": ("TF32", (16, 16, 8)),
        BENCHMARKS / "aat.fut": ("TF32", (16, 16, 8)),
        PROGRAMS / "tensor_cores" / "mm_f16_f32.fut": ("f16", (16, 16, 16)),
        PROGRAMS / "tensor_cores" / "mm_bf16_f32.fut": ("bf16", (16, 16, 16)),
        PROGRAMS / "tensor_cores" / "mm_f64.fut": ("f64", (16, 16, 8)),
        PROGRAMS / "tensor_cores" / "mm_bias.fut": ("TF32", (16, 16, 8)),
        # A or B (or both) read column-major by the units
        PROGRAMS / "tensor_cores" / "mm_abt_bf16.fut": ("bf16", (16, 16, 16)),
        PROGRAMS / "tensor_cores" / "mm_atb_f16.fut": ("f16", (16, 16, 16)),
        PROGRAMS / "tensor_cores" / "mm_atbt_bf16.fut": ("bf16", (16, 16, 16)),
        PROGRAMS / "tensor_cores" / "mm_atb_f32.fut": ("TF32", (16, 16, 8)),
        PROGRAMS / "tensor_cores" / "mm_atbt_f64.fut": ("f64", (16, 16, 8))}
# (A's row-major, B's row-major) as the units read each program's tiles
LAYOUTS = {"mm_abt_bf16": (True, False), "mm_atb_f16": (False, True), "mm_atbt_bf16": (False, False),
           "mm_atb_f32": (False, True), "mm_atbt_f64": (False, False), "mm_bf16_f32": (True, True)}
# what nvcc compiles under the flag for sm_90: the products of f32, which the flag puts on the units, and of f64
# (which take them without it on sm_90 from a zero start; 16-bit products always: the goldens' mm_bf16, mm_f64 and
# attention_bf16 for sm_90's mma.sync,
# test_wgmma.py for sm_90a's warp groups, test_float16.py for the 16-bit programs under other options)
COMPILED = sorted(p for p, (precision, _) in USED.items() if precision in ("TF32", "f64"))


def units_of(path, options: Options = TENSOR_CORES):
    return run_all(path.read_text(), path.name, options, until="analyse")["analyse"].plan.schedule.matrix_units


def module_of(path, options: Options = TENSOR_CORES) -> kir.Module:
    return run_all(path.read_text(), path.name, options, until="verify")["verify"]


def chunks(k: kir.Kernel) -> list:
    return [s for s in kir.statements(k.body) if isinstance(s, kir.MatrixChunk)]


# ---- the option ---------------------------------------------------------------------------------------


def test_the_option_is_declared_once_for_the_command_line_the_api_and_tuning_files():
    o = OPTIONS["tensor_cores"]
    assert o.flag == "--tensor-cores" and "TF32" in o.help and "1e-2" in o.help
    # like --fast-math, it marks a tuning file's table, never a parameter a table sets: a tuning never changes
    # how a kernel rounds
    assert "tensor_cores" not in TUNED and "tensor_cores" in RECORD
    assert ABLATIONS["tensor cores"] == {"tensor_cores": True}
    assert make_options(tensor_cores=True).tensor_cores is True and Options().tensor_cores is False
    with pytest.raises(PlainError):
        make_options(tensor_cores="yes")


def test_compile_help_lists_it_and_bad_use_is_a_plain_error():
    assert "--tensor-cores" in tiler("compile", "--help").stdout
    done = tiler("compile", "benchmarks/mm.fut", "--tensor-cores=3")
    assert done.returncode != 0 and "Traceback" not in done.stderr


def test_the_api_keyword_puts_mm_on_the_matrix_units():
    on = tiler_api.compile("benchmarks/mm.fut", tensor_cores=True)
    off = tiler_api.compile("benchmarks/mm.fut")
    assert "tiler_mma_chunk<" in on.cuda and "mma.sync.aligned.m16n8k8.row.col.f32.tf32" in on.cuda
    assert "mma" not in off.cuda  # flag off: nothing of it in the module
    assert on.explain["block"]["register_tile"]["matrix_units"]["used"] is True


def test_a_table_tuned_under_tensor_cores_applies_only_to_tensor_cores(tmp_path):
    (tmp_path / "p.fut").write_text("")
    plain, units = Tuned("G", {"n": 1}, {"chunk": 16}), Tuned("G", {"n": 1}, {"chunk": 32}, tensor_cores=True)
    write(tmp_path / "p.tuning", merged([plain], units), "p.fut")
    assert read(tmp_path / "p.tuning") == [plain, units] and "tensor_cores = true" in (tmp_path / "p.tuning").read_text()
    options, _ = for_program(str(tmp_path / "p.fut"), Options(), device=lambda: "G")
    assert options.chunk == 16 and not options.tensor_cores  # a tuning never turns the units on
    options, _ = for_program(str(tmp_path / "p.fut"), TENSOR_CORES, device=lambda: "G")
    assert options.chunk == 32
    write(tmp_path / "p.tuning", [units], "p.fut")
    options, applied = for_program(str(tmp_path / "p.fut"), Options(), device=lambda: "G")
    assert options == Options() and applied.note == "tuned only with --tensor-cores: not used without it"
    journal = Journal(tmp_path / "j.json", "G", {"n": 5}, tensor_cores=True)
    assert journal.run["tensor_cores"] is True


def test_its_results_are_checked_within_the_looser_tolerance():
    assert tolerance(Options(), None) is None
    assert tolerance(TENSOR_CORES, None) == 1e-2
    assert tolerance(Options(tensor_cores=True, fast_math=True), None) == 1e-2


# ---- the decision and its reasons -----------------------------------------------------------------------


@pytest.mark.parametrize("path", sorted(USED), ids=lambda p: p.stem)
def test_a_product_of_two_staged_elements_is_put_on_the_matrix_units(path):
    u = units_of(path)
    precision, shape = USED[path]
    assert u.used and u.precision == precision and (u.shape.m, u.shape.n, u.shape.k) == shape, u
    assert u.shape.warps[0] * u.shape.warps[1] == 8  # a 16 x 16 block's warps, each a share of the tile
    off = units_of(path, Options())
    if precision in ("f16", "bf16"):  # 16-bit products summed in f32: always (only the f32 sum's order differs)
        assert off.used and "always for 16-bit inputs" in off.reason
    elif precision == "f64":  # sm_90's f64 instructions round as the loop does, and the sum starts at 0f64
        assert off.used and off.exact and "with or without --tensor-cores" in off.reason
    else:
        assert not off.used and off.reason.startswith("--tensor-cores is off (the product qualifies")


F64_FROM = '''
fun [[f64, q], m] main([[f64, n], m] A, [[f64, q], n] B0) =
  let B = transpose(B0) in
  map(fn [f64, q] ([f64, n] a) =>
        map(fn f64 ([f64, n] b) =>
              streamSeq(fn f64 (int kk, [f64, chunk] a_c, [f64, chunk] b_c, f64 acc) =>
                          loop (acc) = for k < chunk do acc + a_c[k] * b_c[k] in acc
                       , a, b, START)
           , B)
     , A)
'''


@pytest.mark.parametrize("start, exact", [("0f64", True), ("1f64", False), ("-0f64", False)])
def test_f64_products_take_the_units_by_default_only_from_a_zero_start_on_sm90(start, exact):
    """sm_90's f64 instructions add each product in the loop's order by a
    fused multiply-add (experiments/verify/dmma_order.py: bit for bit), but
    the units' share, summed from +0, is added to the stream's start once
    after it: the kernel as written's values only where that start is +0.
    On other GPUs (not measured) only under --tensor-cores."""
    text = F64_FROM.replace("START", start)
    def units(options, device=target.DEFAULT_DEVICE):
        return run_all(text, "p.fut", options, until="analyse", device=device)["analyse"].plan.schedule.matrix_units
    off = units(Options())
    assert off.used is exact and off.exact is exact, off.reason
    if not exact:
        assert off.reason.startswith("--tensor-cores is off") and "does not start at +0" in off.reason
    on = units(TENSOR_CORES)
    assert on.used and on.exact is exact
    for arch in ("sm_80", "sm_100"):  # (measured on sm_90 alone)
        other = units(Options(), replace(target.DEFAULT_DEVICE, arch=arch))
        assert not other.used and "does not start" not in other.reason, arch
        assert units(TENSOR_CORES, replace(target.DEFAULT_DEVICE, arch=arch)).used, arch


@pytest.mark.parametrize("path, options, why", [
    (PROGRAMS / "float16" / "mm_mixed.fut", TENSOR_CORES, "its inputs are f16 and bf16"),
    (PROGRAMS / "float16" / "mm_f16.fut", TENSOR_CORES, "f16 inputs summed in f16"),
    (BENCHMARKS / "nbody.fut", TENSOR_CORES, "no 2-D register tile"),
    (BENCHMARKS / "mm.fut", Options(tensor_cores=True, no_register_tile=True), "no 2-D register tile"),
    (BENCHMARKS / "mm.fut", Options(tensor_cores=True, interior=True), "interior blocks"),
    (BENCHMARKS / "mm.fut", Options(tensor_cores=True, chunk=12), "not a multiple of an instruction's 8"),
], ids=["mixed types", "f16 sum", "1-D block", "no register tile", "interior", "chunk"])
def test_explain_says_why_not(path, options, why):
    u = units_of(path, options)
    assert u is not None and not u.used and why in u.reason, u
    assert not any(chunks(k) for k in module_of(path, options).kernels)


PRODUCT = """fun [[f32, q], m] main([[f32, n], m] A, [[f32, q], n] B0) =
  let B = transpose(B0) in
  map(fn [f32, q] ([f32, n] a) =>
        map(fn f32 ([f32, n] b) =>
              streamSeq(fn f32 (int kk, [f32, chunk] a_c, [f32, chunk] b_c, f32 acc) =>
                          loop (acc) = for k < chunk do BODY in acc
                       , a, b, 0f32)
           , B)
     , A)
"""


@pytest.mark.parametrize("body", ["acc + a_c[k] * b_c[k] * 2f32", "acc + a_c[k] - b_c[k]", "acc * a_c[k] + b_c[k]",
                                  "acc + a_c[k] * a_c[k]", "acc + a_c[(k + 1) % chunk] * b_c[k]"])
def test_other_bodies_are_not_products_of_two_staged_elements(body):
    values = run_all(PRODUCT.replace("BODY", body), "product.fut", TENSOR_CORES, until="verify")
    u = values["analyse"].plan.schedule.matrix_units
    assert u is not None and not u.used and ("not a product" in u.reason or "register tile" in u.reason), (body, u)
    assert not any(chunks(k) for k in values["verify"].kernels)


IN_A_LOOP = """fun [[f32, q], m] main([[f32, n], m] A, [[f32, q], n] B0) =
  let B = transpose(B0) in
  map(fn [f32, q] ([f32, n] a) =>
        map(fn f32 ([f32, n] b) =>
              loop (x = 0f32) = for i < 2 do
                streamSeq(fn f32 (int kk, [f32, chunk] a_c, [f32, chunk] b_c, f32 acc) =>
                            loop (acc) = for k < chunk do acc + a_c[k] * b_c[k] in acc
                         , a, b, x * 0.5f32)
              in x
           , B)
     , A)
"""


def test_a_stream_a_loop_runs_again_is_left_to_the_register_tile():
    """The units' share is added to the accumulator once, after the stream:
    run twice from `x * 0.5`, the first run's share would be halved."""
    values = run_all(IN_A_LOOP, "in_a_loop.fut", TENSOR_CORES, until="verify")
    u = values["analyse"].plan.schedule.matrix_units
    assert values["analyse"].plan.schedule.block.register is not None
    assert not u.used and "the stream runs inside a loop" in u.reason
    assert not any(chunks(k) for k in values["verify"].kernels)


def test_explain_prints_the_decision_in_text_and_json():
    text = tiler("explain", "benchmarks/mm.fut", "--tensor-cores").stdout
    assert "matrix units: used: a_c x b_c on the matrix units: 16 x 16 x 8 TF32 instructions" in text
    assert "rewritten by: matrix units, strip-mine, interchange, sequentialise" in text
    off = tiler("explain", "tests/programs/float16/mm_mixed.fut", "--tensor-cores").stdout
    assert "matrix units: not used: its inputs are f16 and bf16" in off
    import json

    data = json.loads(tiler("explain", "benchmarks/mm.fut", "--tensor-cores", "--json").stdout)
    assert data["block"]["register_tile"]["matrix_units"] == {
        "used": True, "exact": False, "reason": data["block"]["register_tile"]["matrix_units"]["reason"],
        "precision": "TF32",
        "instruction": [16, 16, 8], "warps": [2, 4], "fragments": [4, 2]}


# ---- the kernel -------------------------------------------------------------------------------------------


def test_every_full_chunk_of_every_register_tiled_version_runs_on_the_units():
    from tiler import target

    m = module_of(BENCHMARKS / "mm.fut")
    tiled = [k for k in m.kernels if k.rewrites and "strip-mine" in k.rewrites]
    assert len(tiled) == 4  # vector and scalar copies, 32- and 64-bit offsets
    for k in tiled:
        assert "matrix units" in k.rewrites
        # three cp.async stages of full chunks (one buffer where the copies are scalar), and the last, partial
        # chunk, whose tiles are zero past the stream's end
        assert len(chunks(k)) == (4 if any(isinstance(s, kir.AsyncCopy) for s in statements(k.body)) else 2)
        (stage,) = [a for a in k.shared if a.name.startswith("sh_mma")]
        assert stage.ctype == "float" and stage.elems == 128 * 132  # the block's tile, rows padded by 16 bytes
        tiles = {op.first.buffer for c in chunks(k) for op in (c.a, c.b)}
        assert set(stage.over) == tiles and all(t.startswith(("sh_a_c", "sh_b_c")) for t in tiles)
        offsets = {a.name: offset for a, offset in k.shared_offsets()}
        assert offsets[stage.name] == 0 and all(offset % target.MATRIX_ALIGN == 0 for offset in offsets.values())
        assert k.shared_bytes == max(stage.bytes, max(offsets[t] + a.bytes for a in k.shared for t in tiles
                                                      if a.name == t))
    for k in m.kernels:
        if k not in tiled:
            assert not chunks(k)


def test_the_operands_are_the_planned_tiles_in_their_layouts():
    """Laid out for the units: mm's A tile row-major (the chunk of 16 inner,
    padded by 16 bytes: leading dimension 20), B's tile the chunk outer,
    columns padded by 32 bytes (136: TF32's B is read element by element);
    16-bit tiles in chunks of 64, both padded by 16 bytes."""
    k = next(k for k in module_of(BENCHMARKS / "mm.fut").kernels if chunks(k))
    c = chunks(k)[0]
    assert (c.a.row_major, c.a.ld, c.b.row_major, c.b.ld, c.steps) == (True, 20, True, 136, 2)
    assert c.a.first.buffer.startswith("sh_a_c") and c.b.first.buffer.startswith("sh_b_c")
    half = next(k for k in module_of(PROGRAMS / "tensor_cores" / "mm_f16_f32.fut").kernels if chunks(k))
    c = chunks(half)[0]
    assert (c.a.row_major, c.a.ld, c.b.row_major, c.b.ld, c.steps) == (True, 72, True, 136, 4)
    assert c.shape.inputs == "__half" and c.shape.accumulator == "float"


def test_the_staging_tile_is_written_and_added_after_the_last_chunk_before_the_stores():
    cuda = tiler_api.compile("benchmarks/mm.fut", tensor_cores=True).cuda
    body = cuda[cuda.index("tiler_mm_tiled("):]
    body = body[:body.index("\n}\n")]
    store, barrier = body.index("tiler_mma_store<132>"), body.index("the warps' sums of the full chunks")
    last_chunk, tail = body.rindex("tiler_mma_chunk<"), body.index("if (kk_last < n)")
    read = body.index("every chunk's tiles are read: the staging tile takes their bytes")
    assert tail < last_chunk < read < store < barrier < body.index("out0[")
    assert re.search(r"acc\[[^]]*\] = acc\[[^]]*\] \+ sh_mma\[", body)


def test_with_every_size_known_a_barrier_still_parts_the_staging_tiles_write_and_its_reads():
    """Sizes the chunk divides leave no partial chunk: the pipeline's last
    barrier, the stage's barrier, its write and the barrier after it come
    one after another, and pruning must keep the last (it once counted the
    write as no shared access and dropped it: every warp's reads raced the
    others' writes)."""
    sizes = Options(sizes=(("m", 4096), ("n", 4096), ("q", 4096)))
    k = next(k for k in module_of(PROGRAMS / "tensor_cores" / "mm_bf16_f32.fut", sizes).kernels if chunks(k))
    top = list(k.body[0].body) if isinstance(k.body[0], kir.For) and k.body[0].var.startswith("tiler_block") \
        else list(k.body)
    store = next(i for i, x in enumerate(top) if isinstance(x, kir.MatrixStore))
    assert isinstance(top[store - 1], kir.Barrier) and isinstance(top[store + 1], kir.Barrier)


def test_16_bit_products_ask_for_two_blocks_an_sm_and_tf32_for_ptxas_choice():
    bf16 = run_all((BENCHMARKS / "mm_bf16.fut").read_text(), "mm_bf16.fut", Options(),
                   until="analyse")["analyse"].plan.schedule.block
    assert bf16.min_blocks == 2 and "matrix units" in bf16.min_blocks_reason
    assert 2 * (bf16.shared_bytes + 1024) <= 227 * 1024 + 1024  # two blocks' tiles fit an SM
    tf32 = run_all((BENCHMARKS / "mm.fut").read_text(), "mm.fut", TENSOR_CORES,
                   until="analyse")["analyse"].plan.schedule.block
    assert tf32.min_blocks != 2
    given = run_all((BENCHMARKS / "mm_bf16.fut").read_text(), "mm_bf16.fut", Options(min_blocks=1),
                    until="analyse")["analyse"].plan.schedule.block
    assert given.min_blocks == 1


@pytest.mark.parametrize("name", sorted(LAYOUTS))
def test_a_transposed_operand_is_read_column_major(name):
    k = next(k for k in module_of(PROGRAMS / "tensor_cores" / f"{name}.fut").kernels if chunks(k))
    assert {(c.a.row_major, c.b.row_major) for c in chunks(k)} == {LAYOUTS[name]}


def test_a_register_tile_of_one_point_along_a_dim_leaves_the_product_to_the_register_tile():
    """m = 48 known: the micro-tile takes one point a thread along dim 0,
    and the rewrite finds a factor's tile by the points' index along its
    dim: the plan declines (it once crashed in lower)."""
    units = units_of(BENCHMARKS / "mm_bf16.fut", Options(sizes=(("m", 48),)))
    assert not units.used and "one point a thread along dimension 0" in units.reason
    assert not any(chunks(k) for k in module_of(BENCHMARKS / "mm_bf16.fut", Options(sizes=(("m", 48),))).kernels)


def test_a_staging_tile_over_the_shared_memory_limit_leaves_the_product_to_the_register_tile():
    units = units_of(BENCHMARKS / "mm_bf16.fut", Options(max_shared=16384))
    assert not units.used and "67584 bytes" in units.reason and "16384" in units.reason


@pytest.mark.parametrize("options", [Options(sizes=(("m", 2048), ("n", 80), ("q", 2048))), Options(chunk=32),
                                     Options(double_buffer=True)], ids=["two-chunks", "chunk-32", "double-buffer"])
def test_two_blocks_an_sm_only_for_the_copies_they_were_measured_with(options):
    """Two blocks an SM leave 128 registers a thread: the kernel measured so
    copies its tiles by cp.async in three buffers of the units' own chunks;
    others spilled under that bound (up to 1,092 bytes)."""
    block = run_all((BENCHMARKS / "mm_bf16.fut").read_text(), "mm_bf16.fut", options,
                    until="analyse")["analyse"].plan.schedule.block
    assert block.min_blocks != 2


def test_the_points_indices_are_computed_after_the_chunks_loop():
    """What only the bounds guards and the stores read is declared after the
    units' sum, not held in registers through the loop."""
    cuda = tiler_api.compile("benchmarks/mm_bf16.fut").cuda
    body = cuda[cuda.index("tiler_mm_bf16_tiled("):]
    body = body[:body.index("\n}\n")]
    assert body.rindex("tiler_mma_chunk<") < body.index("tiler_mma_store<") < body.index("int gtid0[8];")


def test_the_plan_keeps_to_the_architecture_compile_is_given():
    """`--arch` with no GPU at hand: sm_86 lets a block opt in to 99 KB of
    shared memory (mm_bf16's three stages of 35,840 bytes would not launch
    there), sm_75 has neither cp.async nor the units' instructions."""
    from tiler import target

    assert target.device_for_arch("sm_90") is target.DEFAULT_DEVICE
    assert target.device_for_arch("sm_86").shared_optin == 99 * 1024
    assert target.device_for_arch("sm_61").shared_optin == target.STATIC_SHARED_LIMIT
    for arch, limit in (("sm_86", 99 * 1024), ("sm_120", 99 * 1024), ("sm_75", 64 * 1024)):
        values = run_all((BENCHMARKS / "mm_bf16.fut").read_text(), "mm_bf16.fut", Options(),
                         device=target.device_for_arch(arch))
        assert max(s.shared_bytes for k in values["verify"].functions for s in k.launches) <= limit
    old = run_all((BENCHMARKS / "mm.fut").read_text(), "mm.fut", TENSOR_CORES, device=target.device_for_arch("sm_75"))
    units = old["analyse"].plan.schedule.matrix_units
    assert not units.used and "sm_75 has no matrix instruction" in units.reason
    assert "tiler_cp_async<" not in old["render"].split("#endif")[-1] and "tiler_mma_chunk<" not in old["render"]
    done = tiler("compile", "benchmarks/mm.fut", "--tensor-cores", "--arch", "sm_75", "-o", "-")
    assert done.returncode == 0 and "tiler_mma_chunk<" not in done.stdout


def test_f64_runs_sm90s_16_by_8_instructions_there_and_8_by_8_before():
    """sm_90 runs mma.m8n8k4 at half its FP64 units' rate and has m16n8k8
    (target.MATRIX_SHAPES_SM90); sm_80 to sm_89 have m8n8k4 alone."""
    from tiler import target

    path = PROGRAMS / "tensor_cores" / "mm_f64.fut"
    for arch, shape in (("sm_90", (16, 16, 8)), ("sm_86", (8, 8, 4)), ("sm_80", (8, 8, 4))):
        values = run_all(path.read_text(), path.name, TENSOR_CORES, until="analyse", device=target.device_for_arch(arch))
        units = values["analyse"].plan.schedule.matrix_units
        assert units.used and (units.shape.m, units.shape.n, units.shape.k) == shape, (arch, units)


@pytest.mark.parametrize("options", [Options(tensor_cores=True, sizes=(("m", 256), ("n", 256), ("q", 256))),
                                     Options(tensor_cores=True, register_tile=(2,)),
                                     Options(tensor_cores=True, chunk=12)], ids=["32 x 32 tile", "2 x 2", "chunk 12"])
def test_where_sm90s_f64_fragment_does_not_fit_the_8_by_8_one_does(options):
    """A block tile too small for 8 warps of 16 x 16 fragments, or a chunk
    no whole number of m16n8k8's 8 positions, runs m8n8k4 (sm_90 has both)."""
    units = units_of(PROGRAMS / "tensor_cores" / "mm_f64.fut", options)
    assert units.used and (units.shape.m, units.shape.n, units.shape.k) == (8, 8, 4), units


def test_f64_products_on_the_units_ask_for_one_block_an_sm():
    """ptxas's own choice spilled mm_f64's kernel with its sizes known;
    16-bit products keep two blocks, TF32 ptxas's choice."""
    def blocks(path, options=TENSOR_CORES):
        return run_all(path.read_text(), path.name, options, until="analyse")["analyse"].plan.schedule.block.min_blocks

    assert blocks(BENCHMARKS / "mm_f64.fut") == 1 and blocks(BENCHMARKS / "mm_bf16.fut") == 2
    assert blocks(BENCHMARKS / "mm.fut") is None
    assert blocks(BENCHMARKS / "mm_f64.fut", Options(tensor_cores=True, min_blocks=0)) is None


def test_f64_products_on_sm90_take_chunks_of_one_instruction_where_the_grid_needs_no_loop():
    """sm_90's f64 product in chunks of 8 keeps registers for two blocks an
    SM with its sizes known (target.MATRIX_CHUNKS_SM90); where a block walks
    its rows in a loop over grid y (a size known only at launch) it did not,
    and chunks of 16 ran faster; sm_80's m8n8k4 and TF32 keep theirs."""
    from tiler import target

    sized = Options(tensor_cores=True, sizes=(("m", 4096), ("n", 4096), ("q", 4096)))

    def plan(path, options, arch="sm_90"):
        values = run_all(path.read_text(), path.name, options, until="analyse", device=target.device_for_arch(arch))
        schedule = values["analyse"].plan.schedule
        return schedule.streams[0].chunk, schedule.matrix_units

    chunk, units = plan(BENCHMARKS / "mm_f64.fut", sized)
    assert chunk == 8 and units.used and "chunks of 8 positions (one instruction step each" in units.reason
    chunk, units = plan(BENCHMARKS / "mm_f64.fut", TENSOR_CORES)
    assert chunk == 16 and units.used and "a loop over grid y or z" in units.reason
    assert plan(BENCHMARKS / "mm_f64.fut", sized, "sm_80")[0] == 16
    assert plan(BENCHMARKS / "mm_f64.fut", replace(sized, chunk=32))[0] == 32  # --chunk decides
    chunk, units = plan(BENCHMARKS / "mm.fut", sized)
    assert chunk == 16 and "chunks of" not in units.reason
    # known, but more rows than grid y's 65,535 blocks of 64 hold: the loop again
    chunk, units = plan(BENCHMARKS / "mm_f64.fut", replace(sized, sizes=(("m", 65536 * 64), ("n", 64), ("q", 4096))))
    assert chunk == 16 and "more blocks than CUDA allows" in units.reason
    # sm_90's m8n8k4 where the 16 x 16 x 8 fragment does not fit: no claim of one instruction a chunk
    units = plan(BENCHMARKS / "mm_f64.fut", replace(sized, register_tile=(2, 2)))[1]
    assert units.used and units.shape.k == 4 and "chunks of" not in units.reason


def test_the_f64_chunk_follows_the_loop_the_lowered_kernel_has():
    """The plan's grid loop (blocks.folded_dims) is the one lowering writes."""
    for sizes, chunk in (((("m", 4096), ("n", 4096), ("q", 4096)), 8), ((), 16)):
        values = run_all((BENCHMARKS / "mm_f64.fut").read_text(), "mm_f64.fut", Options(tensor_cores=True, sizes=sizes))
        assert values["analyse"].plan.schedule.streams[0].chunk == chunk
        tiled = next(k for k in values["verify"].kernels if chunks(k))
        assert ("tiler_block_y" in values["render"].split(f"{tiled.name}(", 1)[1].split("\n}\n", 1)[0]) == (chunk == 16)


# ---- nvcc ----------------------------------------------------------------------------------------------------


@pytest.mark.nvcc
@pytest.mark.skipif(nvcc_path() is None, reason="nvcc is not on PATH")
def test_nvcc_compiles_every_version_under_the_flag_with_no_spills_and_the_planned_shared_memory(tmp_path):
    units, planned = [], {}
    for i, path in enumerate(COMPILED):
        values = run_all(path.read_text(), path.name, TENSOR_CORES)
        cuda, kernels = rename_module(values["render"], values["verify"], f"tiler_tc{i}")
        units.append(cuda)
        planned |= {s.name: s.static_shared_bytes for k in kernels for s in k.launches}
    source = tmp_path / "tensor_cores.cu"
    source.write_text("\n".join(units))
    done = subprocess.run([nvcc_path(), "-arch=sm_90", "-cubin", "-Xptxas", "-v", "-o",
                           str(tmp_path / "tensor_cores.cubin"), str(source)], capture_output=True, text=True,
                          timeout=1500)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    reports = {block.split("'")[1]: block
               for block in (done.stdout + done.stderr).split("ptxas info    : Compiling entry function ")[1:]}
    assert sum("tiler_mma_chunk" in u for u in units) == len(COMPILED)
    for name, shared in planned.items():
        report = reports[name]
        assert "0 bytes spill stores" in report and "0 bytes spill loads" in report, (name, report)
        smem = re.search(r"(\d+) bytes smem", report)
        assert (int(smem.group(1)) if smem else 0) == shared, (name, report)


@pytest.mark.nvcc
@pytest.mark.skipif(nvcc_path() is None, reason="nvcc is not on PATH")
@pytest.mark.parametrize("arch, sized", [("sm_80", False), ("sm_90", False), ("sm_90", True)])
def test_nvcc_compiles_f64_products_for_each_instruction_with_no_spills(tmp_path, arch, sized):
    """With the sizes known too, as `tiler bench` compiles (ptxas spilled
    those at its own register choice: one block an SM now)."""
    from tiler import target

    path = PROGRAMS / "tensor_cores" / "mm_atbt_f64.fut"
    options = Options(tensor_cores=True, sizes=(("k", 4096), ("m", 4096), ("n", 4096)) if sized else ())
    values = run_all(path.read_text(), path.name, options, device=target.device_for_arch(arch))
    source = tmp_path / "f64.cu"
    source.write_text(values["render"])
    done = subprocess.run([nvcc_path(), f"-arch={arch}", "-cubin", "-Xptxas", "-v", "-keep", "-o",
                           str(tmp_path / "f64.cubin"), str(source)], capture_output=True, text=True, timeout=900,
                          cwd=tmp_path)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    report = done.stdout + done.stderr
    assert report.count("0 bytes spill stores") == report.count("Compiling entry function") > 0, report[-3000:]
    ptx = "".join(p.read_text() for p in tmp_path.glob("*.ptx"))
    instruction = "mma.sync.aligned.m16n8k8.row.col.f64" if arch == "sm_90" else "mma.sync.aligned.m8n8k4.row.col.f64"
    assert instruction in ptx and ptx.count("mma.sync.aligned") == ptx.count(instruction)


# ---- the warps' fragments against the one-point loop (what a GPU cannot be asked here) -------------------


def _at(e, env: dict, tid: int, threads_x: int = 16):
    """The value of a kernel-IR index with these names and this thread's index."""
    from tiler.kir.build import rewrite

    fixed = rewrite(e, lambda x: kir.Const({"x": tid % threads_x, "y": tid // threads_x}[x.axis], "int")
                    if isinstance(x, kir.ThreadIdx) else None)
    return kir.evaluate(fixed, env)


@pytest.mark.parametrize("path", sorted(USED), ids=lambda p: p.stem)
def test_each_warp_reads_the_elements_its_points_read_and_the_warps_cover_the_tile_once(path):
    """WMMA's layouts by definition (a row-major fragment's element (r, c) at
    first + r * ld + c, a column-major one's at first + r + c * ld; the
    accumulators stored row-major): every element each warp's fragments load
    for each instruction is the element the one-point loop reads for that
    point at that position, and each point's sum lands where its thread reads
    it back, once."""
    k = next(k for k in module_of(path).kernels if chunks(k))
    (_, one_point), (_, rewritten) = k.trace[0], k.trace[1]
    var, load_a, load_b = chunk_loop_reads(one_point)
    chunk = next(s for s in kir.statements(rewritten) if isinstance(s, kir.MatrixChunk))
    store = next(s for s in kir.statements(rewritten) if isinstance(s, kir.MatrixStore))
    sh = chunk.shape
    (a_next, a_step), (b_next, b_step) = kir.fragment_steps(sh, chunk.a, True), kir.fragment_steps(sh, chunk.b, False)
    rows, cols = sh.warp_tile
    covered = set()
    for warp in range(sh.warps[0] * sh.warps[1]):
        tid = warp * 32
        wrow, wcol = warp // sh.warps[1] * rows, warp % sh.warps[1] * cols
        a0, b0 = _at(chunk.a.first.index, {}, tid), _at(chunk.b.first.index, {}, tid)
        s0 = _at(store.index, {}, tid)
        for s in range(chunk.steps):
            for i in range(sh.fragments[0]):
                for r in range(sh.m):
                    for kk in range(sh.k):
                        got = a0 + i * a_next + s * a_step + (r * chunk.a.ld + kk if chunk.a.row_major else
                                                             r + kk * chunk.a.ld)
                        assert got == kir.evaluate(load_a.index, {"P0_": wrow + i * sh.m + r, var: s * sh.k + kk})
            for j in range(sh.fragments[1]):
                for c in range(sh.n):
                    for kk in range(sh.k):
                        got = b0 + j * b_next + s * b_step + (kk * chunk.b.ld + c if chunk.b.row_major else
                                                             kk + c * chunk.b.ld)
                        assert got == kir.evaluate(load_b.index, {"P1_": wcol + j * sh.n + c, var: s * sh.k + kk})
        for i in range(sh.fragments[0]):
            for j in range(sh.fragments[1]):
                for r in range(sh.m):
                    for c in range(sh.n):
                        p0, p1 = wrow + i * sh.m + r, wcol + j * sh.n + c
                        assert s0 + i * sh.m * store.ld + j * sh.n + r * store.ld + c == p0 * store.ld + p1
                        covered.add((p0, p1))
    every_row, every_col = sh.warps[0] * rows, sh.warps[1] * cols
    assert covered == {(p0, p1) for p0 in range(every_row) for p1 in range(every_col)}
    (tile,) = [a for a in k.shared if a.name == store.buffer]
    assert tile.elems == every_row * store.ld and store.ld > every_col


def test_one_fuzz_seed_in_five_compiles_its_products_for_the_units_within_their_tolerance():
    from tiler.fuzz.properties import RTOL, tolerance, variants

    units = [s for s in range(10) if variants(s)["tiled"].tensor_cores]
    assert units == [4, 9] and not any(variants(s)["untiled"].tensor_cores for s in range(10))
    assert tolerance(4, "tiled") == 1e-2 and tolerance(4, "untiled") == tolerance(3, "tiled") == RTOL


# ---- the verifier bounds each fragment in its tiles ------------------------------------------------------------


@pytest.mark.parametrize("path", sorted(USED), ids=lambda p: p.stem)
def test_every_fragment_is_bounded_inside_its_tile(path):
    """The verifier finds a range for every matrix operation's start (each
    warp's, from threadIdx and constants) and its footprint inside the tile."""
    from tiler.kir.bounds import value_range

    for k in module_of(path).kernels:
        for s in kir.statements(k.body):
            if isinstance(s, kir.MatrixChunk):
                firsts = [(s.a.first.buffer, s.a.first.index), (s.b.first.buffer, s.b.first.index)]
            elif isinstance(s, kir.MatrixStore):
                firsts = [(s.buffer, s.index)]
            else:
                continue
            for buffer, index in firsts:
                low, high = value_range(index, k.block, {}, {})
                (tile,) = [a for a in k.shared if a.name == buffer]
                assert 0 <= low <= high < tile.elems, (k.name, buffer)


def test_a_chunk_or_a_store_past_its_tile_is_a_verifier_fault():
    """One more instruction step than the tile holds, and a staging tile
    whose rows are read as longer than they are, are faults."""
    import dataclasses

    from tiler.kir.verify import Fault, verify

    k = next(k for k in module_of(BENCHMARKS / "mm.fut").kernels if chunks(k))
    assert not verify(k)

    def replaced(node_type, change):
        def swap(stmts):
            out = []
            for s in stmts:
                if isinstance(s, node_type):
                    s = change(s)
                for f in ("body", "then", "else_"):
                    if hasattr(s, f):
                        s = dataclasses.replace(s, **{f: swap(getattr(s, f))})
                out.append(s)
            return tuple(out)
        return dataclasses.replace(k, body=swap(k.body))

    longer = replaced(kir.MatrixChunk, lambda s: dataclasses.replace(s, steps=s.steps + 1))
    assert any(p.fault is Fault.OUT_OF_TILE for p in verify(longer))
    wider = replaced(kir.MatrixStore, lambda s: dataclasses.replace(s, ld=s.ld + 64))
    assert any(p.fault is Fault.OUT_OF_TILE for p in verify(wider))


def test_a_product_under_a_condition_is_declined_with_its_reason():
    """The units' share is added to the accumulator once, at the body's top
    level: a stream under an `if` (its accumulator the branch's own) is
    declined, on sm_90 and sm_90a alike, and the kernel still compiles (it
    was a compiler bug)."""
    path = PROGRAMS / "tensor_cores" / "mm_under_if_bf16.fut"
    for arch in ("sm_90", "sm_90a"):
        values = run_all(path.read_text(), path.name, Options(), device=target.device_for_arch(arch))
        units = values["analyse"].plan.schedule.matrix_units
        assert not units.used and units.reason.endswith("the stream runs under a condition (if)"), arch
        assert not any(k.matrix_units for k in values["verify"].kernels)
