"""A TF32 product's B transposed by the launch for the warp groups
(analyse/operand_transposes.py), and the wider tiles of TMA-fed products
(plan._wider). The GPU runs are in test_gpu.py
(test_products_copied_by_tma_match_the_interpreter: mm.fut at sizes TMA reads
and sizes it does not, and compiled knowing 8192)."""
from __future__ import annotations

import json
import subprocess

import pytest
from conftest import BENCHMARKS, PROGRAMS, tiler

from tiler import kir, target
from tiler.analyse import Options
from tiler.analyse.operand_transposes import MIN_ROWS
from tiler.pipeline import run_all
from tiler.runtime.nvcc import nvcc_path

SM90A = target.device_for_arch(target.WGMMA_ARCH)
MM = BENCHMARKS / "mm.fut"
BF16 = BENCHMARKS / "mm_bf16.fut"


def sized(n: int, **extra) -> Options:
    return Options(tensor_cores=True, sizes=(("m", n), ("n", n), ("q", n)), **extra)


def schedule(path, options: Options, device=SM90A):
    return run_all(path.read_text(), path.name, options, until="analyse", device=device)["analyse"].plan.schedule


def module(path, options: Options, device=SM90A) -> kir.Module:
    return run_all(path.read_text(), path.name, options, device=device)["verify"]


def test_a_tf32_product_reads_b_from_the_launchs_transposed_copy_where_a_has_many_rows():
    s = schedule(MM, sized(2048))
    (t,) = s.transposed
    assert t.array == "B0" and t.units and not t.launch_tests()
    units = s.matrix_units
    assert units.used and units.tma and not units.shape.transposed  # both tiles K-major, through descriptors
    assert "the launch transposes B0" in t.reason and f"at least {MIN_ROWS}" in t.reason


AA = """fun [[f32, n], n] main([[f32, n], n] A) =
  let B = transpose(A) in
  map(fn [f32, n] ([f32, n] a) => map(fn f32 ([f32, n] b) =>
    streamSeq(fn f32 (int kk, [f32, c] x, [f32, c] y, f32 s) => loop (s) = for k < c do s + x[k] * y[k] in s,
              a, b, 0f32), B), A)
"""


def plan_of(text: str, options: Options, device=SM90A):
    return run_all(text, "p.fut", options, until="analyse", device=device)["analyse"].plan.schedule


@pytest.mark.parametrize("why, options, device", [
    ("A's rows below MIN_ROWS (a grid of 256 blocks)", Options(tensor_cores=True, sizes=(
        ("m", MIN_ROWS // 2), ("n", 4096), ("q", 8192))), SM90A),
    ("a grid of fewer blocks than SMs", Options(tensor_cores=True, sizes=(("m", 2048), ("n", 2048), ("q", 1024))),
     SM90A),
    ("--no-transpose", sized(2048, transpose=False), SM90A),
    ("--no-tma", sized(2048, no_tma=True), SM90A),
    ("--single-buffer: no asynchronous copies, so no TMA", sized(2048, single_buffer=True), SM90A),
    ("a known row of 8191: no TMA map's pitch", Options(tensor_cores=True, sizes=(("m", 8192), ("n", 8191),
                                                                                   ("q", 8192))), SM90A),
    ("sizes unknown: a grid loop, no TMA", Options(tensor_cores=True), SM90A),
    ("sm_90: mma.sync reads B's tile as it is", sized(2048), target.DEFAULT_DEVICE)])
def test_b_stays_in_place_where_the_transposition_would_not_pay_or_not_serve_tma(why, options, device):
    s = schedule(MM, options, device)
    assert not s.transposed, why
    assert s.matrix_units.used


def test_b_stays_in_place_where_a_tile_would_still_not_be_a_box():
    """A·A written with B a transposed view of A: the copy would lay A's own
    tile across its lines, and lowering would copy neither by TMA."""
    assert not plan_of(AA, Options(tensor_cores=True, sizes=(("n", 4096),))).transposed


ATB = PROGRAMS / "tensor_cores" / "mm_atb_f32.fut"
ATA = PROGRAMS / "tensor_cores" / "mm_ata_f32.fut"


def test_a_transposed_times_b_reads_copies_of_both_where_b_alone_leaves_a_no_box():
    """Aᵀ B: with B's copy alone A's tile would still be copied element by
    element (no TMA), so the launch transposes both."""
    s = schedule(ATB, Options(tensor_cores=True, sizes=(("k", 4096), ("m", 4096), ("n", 4096))))
    assert [t.array for t in s.transposed] == ["A0", "B0"] and all(t.units for t in s.transposed)
    assert s.matrix_units.tma and not s.matrix_units.shape.transposed
    assert "A0's and B0's tiles have the output's positions adjacent" in s.transposed[0].reason


def test_a_gram_matrix_reads_one_copy_for_both_tiles():
    """Xᵀ X: both tiles read X, so one copy makes both K-major."""
    s = schedule(ATA, Options(tensor_cores=True, sizes=(("k", 4096), ("n", 4096))))
    (t,) = s.transposed
    assert t.array == "X" and s.matrix_units.tma
    m = module(ATA, Options(tensor_cores=True, sizes=(("k", 4096), ("n", 4096))))
    tma = [k for k in m.kernels if any(p.role == kir.TENSOR_MAP for p in k.params)]
    assert tma and all(len(k.transposes) == 1 for k in tma)


def test_a_transposed_times_b_stays_in_place_where_b_has_few_columns():
    """A's copy pays only where the product reads A's elements for many
    blocks across B's columns (MIN_ROWS); B's copy alone gives no TMA."""
    s = schedule(ATB, Options(tensor_cores=True, sizes=(("k", 4096), ("m", MIN_ROWS // 2), ("n", 4096))))
    assert not s.transposed and s.matrix_units.used


def test_a_16_bit_product_reads_b_in_place():
    """The warp groups read 16-bit tiles of either layout through descriptors."""
    s = schedule(BF16, Options(sizes=(("m", 2048), ("n", 2048), ("q", 2048))))
    assert not s.transposed and s.matrix_units.tma


def test_every_tiled_version_reads_the_copy_its_tiles_are_laid_out_for():
    """64-bit versions too: the plan's tiles (and 128-bit copies along the
    reduction) assume B's copy; the plan reading B in place has its own
    versions (Plan.in_place), and the untiled kernels read B in place."""
    m = module(MM, sized(2048))
    for k in m.kernels:
        assert bool(k.transposes) == k.name.endswith(("_transposed", "_transposed_scalar")), k.name
    tma = [k for k in m.kernels if any(p.role == kir.TENSOR_MAP for p in k.params)]
    assert tma and all({p.array for p in k.params if p.role == kir.TENSOR_MAP} == {"A", "B0_t"} for k in tma)


@pytest.mark.parametrize("path, sizes", [
    (MM, {"m": 4096, "n": 4096, "q": 4096}), (ATB, {"k": 4096, "n": 4096, "m": 4096}),
    (ATA, {"k": 4096, "n": 4096})], ids=["A B", "Aᵀ B", "Xᵀ X"])
def test_launches_too_small_for_the_copies_read_the_operands_in_place(path, sizes):
    """A module compiled knowing large sizes runs at any: at launches with
    fewer output rows (or, for A's copy, columns) than MIN_ROWS, or a grid
    of fewer blocks than SMs, the plan reading the operands in place runs,
    its kernels those `--no-transpose` compiles."""
    options = Options(tensor_cores=True, sizes=tuple(sorted(sizes.items())))
    m = module(path, options)
    assert m.select(sizes, SM90A.multiprocessors).transposes
    small = {**sizes, **{name: 256 for name in sizes if name != ("n" if path is MM else "k")}}
    picked = m.select(small, SM90A.multiprocessors)
    assert not picked.transposes and "untiled" not in picked.name
    if path is ATB:  # A's copy pays only where B has MIN_ROWS columns: fewer, and both stay in place
        assert not m.select({**sizes, "m": MIN_ROWS // 2}, SM90A.multiprocessors).transposes
    in_place = module(path, Options(tensor_cores=True, transpose=False, sizes=options.sizes))
    kept = {k.name: k for k in m.kernels}
    assert all(kept[k.name] == k for k in in_place.kernels)


@pytest.mark.parametrize("n", [2048, 8192])
def test_the_launcher_makes_the_copys_map_once_the_copy_is_taken(tmp_path, n):
    src = tmp_path / "mm.cu"
    tiler("compile", str(MM), "--tensor-cores", "--arch", "sm_90a", "-s", f"m={n}", "-s", f"n={n}", "-s", f"q={n}",
          "-o", str(src))
    case = src.read_text().split("case 0: {")[1].split("case 1: {")[0]
    taken, made, transposed, launched = (case.index(x) for x in (
        "cudaMallocAsync((void**)&tiler_B0_t", "tiler_tensor_map_2d(&tiler_map_B0_t, tiler_B0_t",
        "tiler_transpose_float<<<", "tiler_mm_tiled_transposed<<<"))
    assert taken < made < transposed < launched
    assert "tiler_err = cudaErrorInvalidValue;" in case and "cudaFreeAsync(tiler_B0_t, stream)" in case
    if nvcc_path() is None:
        pytest.skip("nvcc is not installed")
    log = subprocess.run([nvcc_path(), "-gencode", "arch=compute_90a,code=sm_90a", "-c", "-Xptxas", "-v", "-o",
                          str(tmp_path / "mm.o"), str(src)], capture_output=True, text=True)
    assert log.returncode == 0, log.stderr[-2000:]
    assert "C7515" not in log.stderr  # (the 8192 module's kernels: 128 x 256 tiles, scalar versions too)
    assert all(" 0 bytes spill stores" in line for line in log.stderr.splitlines() if "spill stores" in line)


# a program array named as the launcher's copy would be (`B0_t`): the copy is the launcher's own name
CLASH = """fun [[f32, q], m] main([[f32, n], m] A, [[f32, q], n] B0, [f32, q] B0_t) =
  let B = transpose(B0) in
  map(fn [f32, q] ([f32, n] a) => map(fn f32 ([f32, n] b, f32 bias) =>
    streamSeq(fn f32 (int kk, [f32, chunk] a_c, [f32, chunk] b_c, f32 acc) =>
      loop (acc) = for k < chunk do acc + a_c[k] * b_c[k] in acc, a, b, bias), zip(B, B0_t)), A)
"""


def test_the_launchers_copy_never_hides_a_program_array_of_its_name(tmp_path):
    prog = tmp_path / "clash.fut"
    prog.write_text(CLASH)
    src = tmp_path / "clash.cu"
    tiler("compile", str(prog), "--tensor-cores", "--arch", "sm_90a", "-s", "m=2048", "-s", "n=2048", "-s",
          "q=2048", "-o", str(src))
    case = src.read_text().split("case 0: {")[1].split("case 1: {")[0]
    assert "(tiler_map_A, tiler_map_B0_t, A, tiler_B0_t, B0_t, out0, m, n, q);" in case


def test_explain_says_why_b_is_transposed():
    out = tiler("explain", str(MM), "--tensor-cores", "--arch", "sm_90a", "-s", "m=2048", "-s", "n=2048", "-s",
                "q=2048", "--json").stdout
    (t,) = [t for t in json.loads(out)["transposes"] if t["transposed"]]
    assert t["array"] == "B0" and t["for_matrix_units"]
    assert "only with the reduction's positions adjacent" in t["reason"]


def shape(m: int, n: int, q: int, **extra) -> Options:
    return Options(sizes=(("m", m), ("n", n), ("q", q)), **extra)


@pytest.mark.parametrize("path, options", [
    (BF16, shape(8192, 8192, 8192)), (BF16, shape(4096, 4096, 4096)), (MM, sized(4096)), (MM, sized(8192)),
    (MM, shape(8192, 2048, 8192, tensor_cores=True)), (MM, shape(5120, 4096, 5120, tensor_cores=True)),
    (BF16, shape(8192, 2048, 8192)), (BF16, shape(8192, 1024, 8192))],
    ids=["bf16 8192", "bf16 4096", "tf32 4096", "tf32 8192", "tf32 reduction 2048", "tf32 6.1 waves",
         "bf16 reduction 2048", "bf16 reduction 1024: 64 steps"])
def test_tma_fed_products_take_wider_tiles_where_they_pay(path, options):
    s = schedule(path, options)
    assert s.block.register.sizes == (8, 16) and s.matrix_units.tma
    assert s.matrix_units.shape.n == 256 and s.matrix_units.shape.warps == (2, 1)  # one 64 x 256 a group
    assert "wider along dim 1" in s.block.register_reason


@pytest.mark.parametrize("why, path, options", [
    ("bf16 reduction of 512: 32 instruction steps", BF16, shape(8192, 512, 8192)),
    ("256 blocks: under 3 an SM", BF16, shape(2048, 4096, 4096)),
    ("--no-tma", BF16, shape(8192, 8192, 8192, no_tma=True)),
    ("sizes unknown", BF16, Options()),
    ("--register-tile given", BF16, shape(8192, 8192, 8192, register_tile=(4, 8))),
    ("--tile given", BF16, shape(8192, 8192, 8192, tile=(8, 32))),
    ("gathered rows: no TMA", BENCHMARKS / "embed_scores.fut", Options(sizes=(
        ("d", 2048), ("na", 8192), ("nb", 8192), ("ve", 30000), ("vf", 30000))))])
def test_other_products_keep_their_tiles(why, path, options):
    s = schedule(path, options)
    assert s.block.register.sizes != (8, 16), why


def test_the_wider_tiles_boxes_are_256_lines_or_four_boxes_across():
    """K-major B (TF32 A Bᵀ): one box a chunk of 32 floats by the tile's 256
    rows; MN-major B (bf16): four boxes of 64 columns by the chunk's 64
    positions, each 64 x 64 elements on in the tile."""
    abt = PROGRAMS / "tensor_cores" / "mm_abt_f32.fut"
    k = next(k for k in module(abt, sized(8192)).kernels if any(p.role == kir.TENSOR_MAP for p in k.params))
    assert {p.array: p.box for p in k.params if p.role == kir.TENSOR_MAP} == {"A": (32, 128), "B": (32, 256)}
    b = next(k for k in module(BF16, shape(8192, 8192, 8192)).kernels
             if any(p.role == kir.TENSOR_MAP for p in k.params))
    maps = {p.array: p for p in b.params if p.role == kir.TENSOR_MAP}
    assert maps["B0"].box == (64, 64)
    first = next(s for s in kir.statements(b.body) if isinstance(s, kir.TmaIssue))
    on_b = [x.offset for x in first.copies if x.map == maps["B0"].name]
    assert on_b == [0, 64 * 64, 2 * 64 * 64, 3 * 64 * 64]


def test_explain_gives_the_reason_for_both_copies_once():
    out = tiler("explain", str(ATB), "--tensor-cores", "--arch", "sm_90a", "-s", "k=4096", "-s", "m=4096", "-s",
                "n=4096").stdout
    assert out.count("the launch transposes A0 and B0") == 1
    assert "array B0 [k, m]: transposed by the launch: with A0, as above" in out
