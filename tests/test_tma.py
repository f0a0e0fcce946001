"""Products whose tiles TMA copies (lower/tma_pipeline.py, tiler/tma.py): the
plan allows it for warp groups reading both tiles through descriptors; a
kernel with its sizes known (no grid loop) and 128-bit rows copies each
chunk's tiles as boxes of the 2-D input arrays, laid out as the swizzled
tiles are, into buffers waited on by mbarriers; every other version keeps
cp.async; the launch (the runtime and the C launcher) makes the maps. The
GPU runs are in test_gpu.py (test_products_copied_by_tma_match_the_interpreter)."""
from __future__ import annotations

import subprocess

import pytest
from conftest import BENCHMARKS, PROGRAMS, tiler

from tiler import kir, target, tma
from tiler.analyse import Options
from tiler.check import check
from tiler.pipeline import run_all
from tiler.render import launch
from tiler.render.cexpr import c
from tiler.runtime.nvcc import nvcc_path
from tiler.syntax import parse

SM90A = target.device_for_arch(target.WGMMA_ARCH)
ABT = PROGRAMS / "tensor_cores" / "mm_abt_f32.fut"
BF16 = BENCHMARKS / "mm_bf16.fut"


def sized(path, n: int = 2048, **extra) -> Options:
    prog = check(parse(path.read_text(), path.name))
    return Options(tensor_cores=True, sizes=tuple(sorted((s.name, n) for s in prog.kernel.sizes)), **extra)


def module(path, options: Options, device=SM90A) -> kir.Module:
    return run_all(path.read_text(), path.name, options, device=device)["verify"]


def maps(k: kir.Kernel) -> list:
    return [p for p in k.params if p.role == kir.TENSOR_MAP]


def issues(k: kir.Kernel) -> list:
    return [s for s in kir.statements(k.body) if isinstance(s, kir.TmaIssue)]


def test_the_plan_allows_tma_for_warp_groups_reading_both_tiles_through_descriptors():
    def units(path, options, device=SM90A):
        return run_all(path.read_text(), path.name, options, until="analyse",
                       device=device)["analyse"].plan.schedule.matrix_units

    assert units(ABT, sized(ABT)).tma and units(BF16, sized(BF16)).tma
    assert "copied by TMA" in units(BF16, sized(BF16)).reason
    assert not units(ABT, sized(ABT, no_tma=True)).tma  # --no-tma
    # B's tile read into registers (A with too few rows for the launch to transpose B: test_operand_transposes.py)
    assert not units(BENCHMARKS / "mm.fut", sized(BENCHMARKS / "mm.fut", 512)).tma
    assert not units(BF16, sized(BF16), target.DEFAULT_DEVICE).tma  # sm_90: mma.sync


def test_only_the_vector_kernel_with_no_grid_loop_copies_by_tma():
    """With its sizes known the 128-bit kernel copies by TMA, its maps its
    first parameters; its scalar twin, the kernel that walks grid y in a
    loop (sizes unknown), and --no-tma keep cp.async."""
    m = module(ABT, sized(ABT))
    by_name = {k.name: k for k in m.kernels}
    tiled = by_name["tiler_mm_abt_f32_tiled"]
    assert [p.name for p in maps(tiled)] == ["map_A", "map_B"] and tiled.params[0].role == kir.TENSOR_MAP
    assert not any(isinstance(s, kir.AsyncCopy) for s in kir.statements(tiled.body))
    assert any(line.startswith("copies: TMA, of A, B") for line in tiled.summary)
    assert not maps(by_name["tiler_mm_abt_f32_tiled_scalar"])
    assert ("n", 4) in tiled.divisible  # TMA reads rows whose pitch is a multiple of 16 bytes
    unsized = module(ABT, Options(tensor_cores=True))
    assert not any(maps(k) for k in unsized.kernels)
    assert not any(maps(k) for k in module(ABT, sized(ABT, no_tma=True)).kernels)


def test_the_boxes_are_laid_out_as_the_swizzled_tiles():
    """K-major A: one box a chunk of 32 floats (128 bytes) by 128 rows at the
    chunk's position and the tile's first row; MN-major B (bf16, columns
    adjacent): two boxes of 64 columns by the chunk's 64 positions, the
    second 64 columns on and 64 x 64 elements into the tile."""
    k = next(k for k in module(ABT, sized(ABT)).kernels if maps(k))
    assert {p.box for p in maps(k)} == {(32, 128)}
    first = issues(k)[0]
    assert first.bytes == 2 * 128 * 32 * 4 and first.freed is None
    assert [(x.offset, *map(c, x.coords)) for x in first.copies] == [(0, "0", "tiler_tile_y * 128"),
                                                                      (0, "0", "tiler_tile_x * 128")]
    b = next(k for k in module(BF16, sized(BF16)).kernels if maps(k))
    boxes = {p.array: p.box for p in maps(b)}
    assert boxes == {"A": (64, 128), "B0": (64, 64)}
    first = issues(b)[0]
    on_b = [x for x in first.copies if x.map == next(p.name for p in maps(b) if p.array == "B0")]
    assert [(x.offset, *map(c, x.coords)) for x in on_b] == [(0, "tiler_tile_x * 128", "0"),
                                                             (64 * 64, "tiler_tile_x * 128 + 64", "0")]


def test_each_refill_waits_for_the_buffers_readers_and_the_chunks_stay_running():
    k = next(k for k in module(ABT, sized(ABT)).kernels if maps(k))
    stmts = list(kir.statements(k.body))
    refills = [s for s in issues(k) if s.freed is not None]
    assert len(refills) == 3 and len(issues(k)) == 6  # three buffers: filled first, then refilled in the loop
    assert sum(isinstance(s, kir.TmaRelease) for s in stmts) == 3
    chunks = [s for s in stmts if isinstance(s, kir.MatrixChunk)]
    assert chunks and all(c.pending == 1 for c in chunks)
    wait = [s for s in stmts if isinstance(s, kir.MatrixWait)]
    assert len(wait) == 1 and wait[0].name == chunks[0].name
    # no barrier between the first copies and the last chunk: only the mbarriers
    body = [type(s).__name__ for s in k.body]
    assert "Barrier" not in body[body.index("TmaBarriers"):body.index("MatrixWait")]


def test_a_refill_that_does_not_wait_for_the_readers_is_a_verifier_fault(monkeypatch):
    from tiler.errors import CompilerBug
    from tiler.lower import tma_pipeline

    original = kir.TmaIssue
    monkeypatch.setattr(tma_pipeline.kir, "TmaIssue", lambda stage, copies, nbytes, freed=None:
                        original(stage, copies, nbytes, None))
    with pytest.raises(CompilerBug, match="copied over by TMA while threads may still read it"):
        module(ABT, sized(ABT))


def test_the_launch_makes_the_maps_and_passes_them_first():
    """The C launcher makes each map of its array (the driver's encoder,
    looked up at run time), the launch description names them, and the
    runtime pads the parameter buffer to where sm_90 puts a 64-byte aligned
    parameter."""
    values = run_all(ABT.read_text(), ABT.name, sized(ABT), device=SM90A)
    cuda = values["render"]
    # (each map made before the launch; a version whose map the driver refuses returns an error, never launches)
    # (its swizzle last: the warp groups' 128-byte one)
    assert f"if (!{tma.MAKE}(&tiler_map_A, A, {tma.DATA_TYPES['float']}, 4, n, m, 32, 128, {tma.SWIZZLE_128B})) " \
        "return cudaErrorInvalidValue;" in cuda
    assert "<<<tiler_grid, tiler_block, 99312, stream>>>(tiler_map_A, tiler_map_B, A, B, out0, m, n, q);" in cuda
    assert "(((unsigned long long)A | (unsigned long long)B | (unsigned long long)out0) & 15) == 0" in cuda
    described = launch(values["verify"])
    first = described["versions"][0]
    assert [m["param"] for m in first["tensor_maps"]] == ["map_A", "map_B"] and first["tensor_maps"][0]["box"] == [32, 128]
    assert not any(p["role"] == kir.TENSOR_MAP for p in described["params"])  # (the caller's are the arrays)
    assert tma.padding().itemsize == (-tma.PARAM_BASE) % tma.MAP_ALIGN == 48


def test_nvcc_builds_the_tma_module_with_its_host_launcher(tmp_path):
    if nvcc_path() is None:
        pytest.skip("nvcc is not installed")
    src = tmp_path / "abt.cu"
    tiler("compile", str(ABT), "--tensor-cores", "--arch", "sm_90a", "-s", "m=4096", "-s", "n=4096", "-s", "q=4096",
          "-o", str(src))
    log = subprocess.run([nvcc_path(), "-gencode", "arch=compute_90a,code=sm_90a", "-c", "-Xptxas", "-v", "-o",
                          str(tmp_path / "abt.o"), str(src)], capture_output=True, text=True)
    assert log.returncode == 0, log.stderr[-2000:]
    assert "C7515" not in log.stderr  # no instructions serialised: the chunks stay in flight
    assert "spill stores" in log.stderr and " 0 bytes spill stores" in log.stderr


def test_explain_names_the_arrays_tma_copies_in_each_version():
    out = " ".join(tiler("explain", str(ABT), "--tensor-cores", "--arch", "sm_90a", "-s", "m=4096", "-s", "n=4096",
                         "-s", "q=4096").stdout.split())
    assert "tiles copied by TMA: A, B" in out and "copied by TMA, one thread's copies waited on by mbarriers" in out
    assert "tiles copied by TMA" not in " ".join(tiler("explain", str(ABT), "--tensor-cores", "--arch", "sm_90a",
                                                       "--no-tma", "-s", "m=4096").stdout.split())


# rows picked through a clamp (an index random values could take for a row's own), and rows of a length whose
# pitch is not a multiple of 16 bytes (100 bf16: 200 bytes), keep cp.async
CLAMPED = """fun [[f32, q], m] main([[bf16, k], m] A, [[bf16, k], q] B) =
  map(fn [f32, q] (int i) =>
        map(fn f32 ([bf16, k] b) =>
              let a = A[min(i, 9999)] in
              streamSeq(fn f32 (int kk, [bf16, c] ac, [bf16, c] bc, f32 acc) =>
                          loop (acc) = for j < c do acc + f32(ac[j]) * f32(bc[j]) in acc
                       , a, b, 0f32)
           , B)
     , iota(m))
"""
UNALIGNED = """fun [[f32, m], n] main([[bf16, 100], n] A, [[bf16, 100], m] B) =
  map(fn [f32, m] ([bf16, 100] a) =>
        map(fn f32 ([bf16, 100] b) =>
              streamSeq(fn f32 (int kk, [bf16, c] ac, [bf16, c] bc, f32 acc) =>
                          loop (acc) = for j < c do acc + f32(ac[j]) * f32(bc[j]) in acc
                       , a, b, 0f32)
           , B)
     , A)
"""


@pytest.mark.parametrize("text, sizes", [(CLAMPED, (("k", 4096), ("m", 16384), ("q", 4096))),
                                         (UNALIGNED, (("m", 4096), ("n", 4096)))], ids=["clamped", "unaligned"])
def test_rows_through_a_clamp_or_of_an_unaligned_pitch_keep_cp_async(text, sizes):
    m = run_all(text, "p.fut", Options(sizes=sizes), device=SM90A)["verify"]
    assert any(k.matrix_units for k in m.kernels)  # (on the warp groups, as the aligned product is)
    assert not any(maps(k) for k in m.kernels)
