"""A TF32 product's B transposed by the launch for the warp groups
(analyse/operand_transposes.py), and the wider tiles of TMA-fed products
(plan._wider). The GPU runs are in test_gpu.py
(test_products_copied_by_tma_match_the_interpreter: mm.fut at sizes TMA reads
and sizes it does not, and compiled knowing 8192)."""
from __future__ import annotations

import json
import subprocess

import pytest
from conftest import BENCHMARKS, tiler

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


@pytest.mark.parametrize("why, options, device", [
    ("A's rows below MIN_ROWS (a grid of 256 blocks)", Options(tensor_cores=True, sizes=(
        ("m", MIN_ROWS // 2), ("n", 4096), ("q", 8192))), SM90A),
    ("a grid of fewer blocks than SMs", Options(tensor_cores=True, sizes=(("m", 2048), ("n", 2048), ("q", 1024))),
     SM90A),
    ("--no-transpose", sized(2048, transpose=False), SM90A),
    ("--no-tma", sized(2048, no_tma=True), SM90A),
    ("sizes unknown: a grid loop, no TMA", Options(tensor_cores=True), SM90A),
    ("sm_90: mma.sync reads B's tile as it is", sized(2048), target.DEFAULT_DEVICE)])
def test_b_stays_in_place_where_the_transposition_would_not_pay_or_not_serve_tma(why, options, device):
    s = schedule(MM, options, device)
    assert not s.transposed, why
    assert s.matrix_units.used


def test_a_16_bit_product_reads_b_in_place():
    """The warp groups read 16-bit tiles of either layout through descriptors."""
    s = schedule(BF16, Options(sizes=(("m", 2048), ("n", 2048), ("q", 2048))))
    assert not s.transposed and s.matrix_units.tma


def test_every_tiled_version_reads_the_copy_its_tiles_are_laid_out_for():
    """64-bit versions too: the plan's tiles (and 128-bit copies along the
    reduction) assume B's copy; the untiled kernels read B in place."""
    m = module(MM, sized(2048))
    for k in m.kernels:
        tiled = "untiled" not in k.name
        assert bool(k.transposes) == tiled, k.name
    tma = [k for k in m.kernels if any(p.role == kir.TENSOR_MAP for p in k.params)]
    assert tma and all({p.array for p in k.params if p.role == kir.TENSOR_MAP} == {"A", "B0_t"} for k in tma)


def test_the_launcher_makes_the_copys_map_once_the_copy_is_taken(tmp_path):
    src = tmp_path / "mm.cu"
    tiler("compile", str(MM), "--tensor-cores", "--arch", "sm_90a", "-s", "m=2048", "-s", "n=2048", "-s", "q=2048",
          "-o", str(src))
    case = src.read_text().split("case 0: {")[1].split("case 1: {")[0]
    taken, made, transposed, launched = (case.index(x) for x in (
        "cudaMallocAsync((void**)&B0_t", "tiler_tensor_map_2d(&map_B0_t, B0_t", "tiler_transpose_float<<<",
        "tiler_mm_tiled_transposed<<<"))
    assert taken < made < transposed < launched
    assert "tiler_err = cudaErrorInvalidValue;" in case and "cudaFreeAsync(B0_t, stream)" in case
    if nvcc_path() is None:
        pytest.skip("nvcc is not installed")
    log = subprocess.run([nvcc_path(), "-gencode", "arch=compute_90a,code=sm_90a", "-c", "-Xptxas", "-v", "-o",
                          str(tmp_path / "mm.o"), str(src)], capture_output=True, text=True)
    assert log.returncode == 0, log.stderr[-2000:]
    assert "C7515" not in log.stderr and " 0 bytes spill stores" in log.stderr
    assert all(" 0 bytes spill stores" in line for line in log.stderr.splitlines() if "spill stores" in line)


def test_explain_says_why_b_is_transposed():
    out = tiler("explain", str(MM), "--tensor-cores", "--arch", "sm_90a", "-s", "m=2048", "-s", "n=2048", "-s",
                "q=2048", "--json").stdout
    (t,) = [t for t in json.loads(out)["transposes"] if t["transposed"]]
    assert t["array"] == "B0" and t["for_matrix_units"]
    assert "only with the reduction's positions adjacent" in t["reason"]


def shape(m: int, n: int, q: int, **extra) -> Options:
    return Options(sizes=(("m", m), ("n", n), ("q", q)), **extra)


@pytest.mark.parametrize("path, options", [(BF16, shape(8192, 8192, 8192)), (MM, sized(4096)), (MM, sized(8192)),
                                           (MM, shape(8192, 2048, 8192, tensor_cores=True))],
                         ids=["bf16 8192", "tf32 4096", "tf32 8192", "tf32 reduction 2048"])
def test_tma_fed_products_take_wider_tiles_where_they_pay(path, options):
    s = schedule(path, options)
    assert s.block.register.sizes == (8, 16) and s.matrix_units.tma
    assert "wider along dim 1" in s.block.register_reason


@pytest.mark.parametrize("why, path, options", [
    ("bf16 reduction of 2048: 128 instruction steps", BF16, shape(8192, 2048, 8192)),
    ("the last wave: 800 blocks in 6.1 waves against 1,600 in 12.1", MM, shape(5120, 4096, 5120, tensor_cores=True)),
    ("256 blocks: under 3 an SM", BF16, shape(2048, 4096, 4096)),
    ("two plain blocks an SM: 1,152 blocks, under 12 an SM", BF16, shape(6144, 6144, 6144)),
    ("--no-tma", BF16, shape(8192, 8192, 8192, no_tma=True)),
    ("sizes unknown", BF16, Options()),
    ("--register-tile given", BF16, shape(8192, 8192, 8192, register_tile=(4, 8)))])
def test_other_products_keep_their_tiles(why, path, options):
    s = schedule(path, options)
    assert s.block.register.sizes != (8, 16), why
