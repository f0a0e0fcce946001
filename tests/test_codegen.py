"""Code generation: every program compiles with nvcc (no spills, the planned
shared memory), golden CUDA for the benchmarks, the kernel-IR verifier on
planted mistakes, and `tiler compile`'s options and errors."""
from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import re
import subprocess
import tempfile
import time
import typing
from pathlib import Path

import pytest
from conftest import BENCHMARK_NAMES, BENCHMARKS, PROGRAMS, ROOT, gathered_row, kernels_of, tiler

from tiler import kir, target
from tiler.analyse import Options
from tiler.analyse.registers import expected_registers
from tiler.kir.verify import verify
from tiler.pipeline import EMITS, run_all
from tiler.render import launcher_name, rename_module
from tiler.runtime.nvcc import nvcc_path

PROGRAM_FILES = sorted(BENCHMARKS.glob("*.fut")) + sorted((PROGRAMS / "analysis").glob("*.fut"))
VARIANTS = {"untiled": Options(no_tile=True), "tiled": Options()}
COMPILED = VARIANTS | {"interior": Options(interior=True)}  # nvcc sees these; the golden kernels are VARIANTS'
INTERIOR = "mm.fut"  # the program whose --interior module nvcc sees (its blocks carry two bodies)
GOLDEN = ROOT / "tests" / "golden" / "cuda"
UPDATE = os.environ.get("TILER_UPDATE_GOLDEN") == "1"
NO_SPLIT = Options(no_split=True)  # the tiled kernel where rows would be split among threads
needs_nvcc = pytest.mark.skipif(nvcc_path() is None, reason="nvcc is not on PATH")


def compiled(path: Path, variant: str) -> dict:
    rel = str(path.relative_to(ROOT))
    return run_all(path.read_text(), rel, COMPILED[variant])


@pytest.fixture(scope="module")
def ptxas(tmp_path_factory):
    """Compile every kernel (in two nvcc runs); ptxas's report per kernel name.
    Under xdist the workers share one compilation (the first compiles, the
    others wait for its report): each compiling its own took most of a
    two-core `make test`."""
    if nvcc_path() is None:
        pytest.skip("nvcc is not on PATH")
    units, planned = [], {}
    for i, path in enumerate(PROGRAM_FILES):
        for variant in COMPILED:
            # --no-tile is compiled for the benchmarks only (every tiled module holds its untiled fallback: that
            # kernel, or the same with hoisted work moved), and --interior, not a default, for the matrix product
            # alone (the analysis programs' copies were a fifth of this nvcc run, the longest part of a two-core
            # `make test`; the other benchmarks' interior modules, a quarter of ptxas's time in it)
            if variant != "tiled" and path.parent != BENCHMARKS or variant == "interior" and path.name != INTERIOR:
                continue
            values = compiled(path, variant)
            if variant == "interior" and not any(k.interior for k in values["verify"].kernels):
                continue  # the plan keeps one body: the tiled variant's kernels
            # every version, in one translation unit with every other program's
            cuda, kernels = rename_module(values["render"], values["verify"], f"tiler_p{i}_{variant}")
            units.append(cuda)
            planned[(path.name, variant)] = [  # each kernel, and each stage of one (several blocks a row, fission)
                (s.name, s.static_shared_bytes) for k in kernels for s in k.launches]
    if os.environ.get("PYTEST_XDIST_WORKER"):  # the run's folder, which every worker of this run shares
        key = hashlib.sha256("\n".join(units).encode()).hexdigest()[:16]
        log = _once(tmp_path_factory.getbasetemp().parent / f"ptxas-{key}.log", lambda: _ptxas_log(units))
    else:
        log = _ptxas_log(units)
    reports = {}
    for block in re.split(r"ptxas info\s+: Compiling entry function ", log)[1:]:
        name = block.split("'")[1]
        reports[name] = block
    return planned, reports


def _ptxas_log(units: list[str]) -> str:
    """ptxas's report on the units, in two translation units compiled side by side (CI has 2 cores)."""
    with tempfile.TemporaryDirectory() as tmp:
        runs = []
        for part in (0, 1):
            src = Path(tmp) / f"part{part}.cu"
            src.write_text("\n".join(units[part::2]))
            runs.append(subprocess.Popen([nvcc_path(), "-arch=sm_90", "-cubin", "-Xptxas", "-v", "-o",
                                          str(Path(tmp) / f"part{part}.cubin"), str(src)],
                                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True))
        logs = [run.communicate(timeout=600)[0] for run in runs]
    for run, log in zip(runs, logs):
        assert run.returncode == 0, log[-3000:]
    return "".join(logs)


def _once(path: Path, make, wait_s: int = 900) -> str:
    """`make()`'s text, made by the first process to ask and kept at `path`;
    the others wait for it (a lock file beside it, created exclusively)."""
    lock, failed = path.with_suffix(".lock"), path.with_suffix(".failed")
    try:
        os.close(os.open(lock, os.O_CREAT | os.O_EXCL))
    except FileExistsError:  # another worker makes it
        for _ in range(wait_s * 2):
            if path.exists():
                return path.read_text()
            assert not failed.exists(), f"the worker making {path.name} failed: its own test says why"
            time.sleep(0.5)
        raise TimeoutError(f"{path} was not made in {wait_s} s") from None
    try:
        text = make()
    except BaseException:
        failed.touch()
        raise
    part = path.with_suffix(".part")
    part.write_text(text)
    part.rename(path)  # whole, or not there
    return text


@needs_nvcc
@pytest.mark.parametrize("variant", COMPILED)
@pytest.mark.parametrize("path", PROGRAM_FILES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_nvcc_accepts_with_no_spills_and_the_planned_shared_memory(ptxas, path, variant):
    planned, reports = ptxas
    if (path.name, variant) not in planned:
        pytest.skip("not compiled: --no-tile for the benchmarks, --interior for the matrix product (where it gives "
                    "interior blocks); the tiled module holds their kernels")
    for name, shared in planned[(path.name, variant)]:
        report = reports[name]
        assert "0 bytes spill stores" in report and "0 bytes spill loads" in report, report
        smem = re.search(r"(\d+) bytes smem", report)
        assert (int(smem.group(1)) if smem else 0) == shared, report


REGISTER_TOLERANCE = 0.15  # explain says "about": the largest miss over these programs is 13% (tall_grid)


@needs_nvcc
@pytest.mark.parametrize("path", PROGRAM_FILES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_explains_register_estimate_is_near_ptxas(ptxas, path):
    """A 2-D micro-tile's expected registers (explain's "about N in all")
    against ptxas's count for the kernel the plan is for (Module.main)."""
    planned, reports = ptxas
    values = compiled(path, "tiled")
    analysis = values["analyse"]
    expected = expected_registers(analysis.schedule, analysis.variance)
    if expected is None:
        pytest.skip("no 2-D micro-tile: explain gives no count")
    main = "_tiled_" + values["verify"].main.name.removeprefix("tiler_")  # (after splits for few points)
    first = next(name for name, _ in planned[(path.name, "tiled")] if name.endswith(main))
    used = int(re.search(r"Used (\d+) registers", reports[first]).group(1))
    assert abs(expected - used) <= REGISTER_TOLERANCE * used, (expected, used)


TWO_BLOCKS = 128  # registers a thread of 256 may take for two blocks an SM (65,536 / 512)


@needs_nvcc
@pytest.mark.parametrize("name", ["mm.fut", "loop_matmul.fut"])
def test_register_tiled_products_compiled_without_sizes_fit_two_blocks_an_sm(ptxas, name):
    """The 8 x 8 tile's kernels, sizes unknown at compile time: each of a
    thread's 8 scalar copy steps placed from its first (lower/copies.py
    _stepped). Numbered tid + step * threads, ptxas took 137 and 139
    registers: one block an SM, and the product ran slower. (ptxas of CUDA
    13 takes 127: one register to spare; another ptxas may need the copy's
    numbering looked at again.)"""
    planned, reports = ptxas
    names = [n for n, _ in planned[(name, "tiled")] if n.endswith(("_tiled", "_tiled_scalar"))]
    assert len(names) == 2, names
    for n in names:
        used = int(re.search(r"Used (\d+) registers", reports[n]).group(1))
        assert used <= TWO_BLOCKS, (n, used)


@pytest.mark.parametrize("name", BENCHMARK_NAMES)
@pytest.mark.parametrize("variant", VARIANTS)
def test_golden_cuda(name, variant):
    cuda = compiled(BENCHMARKS / f"{name}.fut", variant)["render"]
    path = GOLDEN / f"{name}.{variant}.cu"
    if UPDATE or not path.exists():
        path.write_text(cuda)
    assert cuda == path.read_text(), f"{path.name} changed; review the diff and rerun with TILER_UPDATE_GOLDEN=1"


def shared_only(path: Path) -> dict:
    """Shared-memory tiling alone (no register tile): the design note's first translation."""
    return run_all(path.read_text(), str(path.relative_to(ROOT)), Options(no_register_tile=True))


def test_tiled_mm_has_the_notes_shape():
    cuda = shared_only(BENCHMARKS / "mm.fut")["render"].split('extern "C" __global__')[1]  # the first kernel
    # two barriers a chunk: in the loop over full chunks, and in the last, partial chunk
    loop, last = cuda.split("const int kk_last")
    # (and one ending each pass of the loop over grid y's blocks)
    assert loop.count("__syncthreads()") == 2 and last.count("__syncthreads()") == 3
    assert "__shared__ __align__(16) float sh_a_c[1024]" in cuda and cuda.count("__shared__") == 2
    assert "? A[" not in loop and "kk_last + e_3 < n ? A[" in last  # full chunks need no guard
    assert "cooperative copy: 32 x 32 tile of B0 into sh_b_c, rows fastest" in cuda
    assert "out0[gtid0 * q + gtid1]" in cuda and "if (gtid0 < m && gtid1 < q)" in cuda


def test_register_tiled_mm_has_the_outer_product_shape():
    values = compiled(BENCHMARKS / "mm.fut", "tiled")
    # (after the splits of a product's few points; first the version whose tiles TMA copies, analyse/core_tma.py:
    # A's copy the launch transposes, each input's three buffers one ring of 128 x 32 boxes, 32-bit only)
    tma, vector, scalar, one_point, untiled, wide, wide_scalar, untiled_wide = [k for k in values["verify"].kernels
                                                                                if not k.lanes]
    assert [p.role for p in tma.params[:2]] == ["tensor map"] * 2 and sorted(tma.divisible) == [("m", 4), ("q", 4)]
    assert {(a.name, a.elems) for a in tma.shared} == {("sh_a_c", 3 * 128 * 32), ("sh_b_c", 3 * 128 * 32)}
    # where the 128 x 128 points a block would leave SMs without a block: 32 x 32 threads, one point each
    assert one_point.tiled and one_point.block == (32, 32, 1) and one_point.name.endswith("_one_point")
    # A's tile is copied element by element (cp.async into its transposed lines): only q need be aligned
    assert vector.divisible == (("q", 4),) and not scalar.divisible and not untiled.tiled
    # 64-bit offsets: 128-bit copies where q keeps B's rows aligned, as the 32-bit kernel has them
    assert wide.tiled and wide.divisible == vector.divisible and wide.shared == vector.shared
    assert wide_scalar.tiled and not wide_scalar.divisible and wide_scalar.shared == scalar.shared
    assert not untiled_wide.tiled
    cuda = values["render"]
    body = cuda[cuda.index("tiler_mm_tiled("):cuda.index("tiler_mm_tiled_scalar(")]
    assert "float acc[64];" in body  # the 8 x 8 micro-tile's accumulators
    # one float4 read of 4 rows of A and 4 columns of B per group, then 64 multiply-adds from registers
    assert "reg_sh_a_c[G0_ * 4 + L0_] * reg_sh_b_c[G1_ * 4 + L1_]" in body
    # cp.async, three chunks a step: a barrier a chunk, one after the loop, two for the last chunk, and one
    # ending each pass of the loop over grid y's blocks
    assert body.count("__syncthreads()") == 7 and "tiler_cp_async_wait<1>();" in body
    assert "tiler_cp_async<4>(&sh_a_c[" in body and "tiler_cp_async<16>(&sh_b_c[" in body
    assert "float* const sh_a_c_3 = (float*)(tiler_shared + " in body  # 49,920 bytes: dynamic shared memory
    for tile in ("sh_a_c", "sh_b_c"):
        assert f"*reinterpret_cast<const float4*>(&{tile}[G" in body
    single = run_all((BENCHMARKS / "mm.fut").read_text(), "benchmarks/mm.fut", Options(no_async=True))["render"]
    single = single[single.index("tiler_mm_tiled("):single.index("tiler_mm_tiled_scalar(")]
    assert single.count("__syncthreads()") == 5  # two a chunk, in the loop and for the last chunk; one a pass
    double = run_all((BENCHMARKS / "mm.fut").read_text(), "benchmarks/mm.fut", Options(double_buffer=True))["render"]
    double = double[double.index("tiler_mm_tiled("):double.index("tiler_mm_tiled_scalar(")]
    # double-buffered: one barrier a chunk (two in the loop), one before it, two for the last chunk; one a pass
    assert "float4 next_a_c[2];" in double and double.count("__syncthreads()") == 6
    # the rows' blocks on grid y are walked by a loop (grid y holds at most 65,535 blocks)
    assert "A[tiler_min(tiler_block_y * 128 + r" in body and "B0[tiler_min(blockIdx.x * 128 + r" in body
    # A's 8 scalar copy steps a thread: each a line (16 on) from the thread's first; B's 2 vector steps keep
    # numbering tid + step * threads (lower/copies.py _stepped)
    assert "const int t_ = threadIdx.y * 16 + threadIdx.x;\n        const int r = t_ / 16 + c_ * 16;" in body
    assert "const int t_ = threadIdx.y * 16 + threadIdx.x + c_ * 256;\n        const int r_2 = t_ % 32 * 4;" in body


def test_interior_blocks_run_a_copy_of_the_body_without_clamps_or_guards():
    text = (BENCHMARKS / "mm.fut").read_text()
    assert not any(k.interior for k in run_all(text, "benchmarks/mm.fut", Options())["verify"].kernels)
    values = run_all(text, "benchmarks/mm.fut", Options(interior=True))
    # (the version reading A in place: the TMA version's copies have no clamps at any block, zeros past the edges)
    main = next(k for k in values["verify"].kernels if k.interior and not k.transposes)
    assert main.interior and main.min_blocks == 1  # ptxas may take the registers two bodies need
    (split,) = [s for s in unfolded(main.body) if isinstance(s, kir.If)]

    def clamps(stmts):
        return sum(isinstance(n, kir.Call) and n.fn == kir.CLAMP for n in kir.walk(stmts))

    def guarded_stores(stmts):
        return sum(isinstance(s, kir.If) and any(isinstance(x, kir.Store) and x.space == kir.GLOBAL
                                                 for x in s.then) for s in kir.statements(stmts))

    assert clamps(split.then) == 0 and guarded_stores(split.then) == 0
    assert clamps(split.else_) > 0 and guarded_stores(split.else_) == 1  # the blocks at the edges keep them
    cuda = values["render"]
    assert "if ((int)(tiler_block_y * 128) <= m - 128 && (int)(blockIdx.x * 128) <= q - 128) {" in cuda
    assert "__launch_bounds__(256, 1)" in cuda and "// interior blocks: without clamps" in cuda


def test_untiled_kernels_have_no_shared_memory_or_barriers():
    for name in BENCHMARK_NAMES:
        cuda = compiled(BENCHMARKS / f"{name}.fut", "untiled")["render"]
        kernels = kernels_of(cuda)
        assert "__shared__" not in kernels and "__syncthreads" not in kernels


# ---- the verifier catches planted mistakes ----------------------------------------


def tiled_mm() -> kir.Kernel:
    return shared_only(BENCHMARKS / "mm.fut")["verify"].main


def unfolded(body: tuple) -> tuple:
    """A kernel's body inside the loop over a grid axis's blocks past its limit (lower._folded), if any."""
    if len(body) == 1 and isinstance(body[0], kir.For) and body[0].var.startswith("tiler_block_"):
        return unfolded(body[0].body)
    return body


def edit_chunk_loop(k: kir.Kernel, edit) -> kir.Kernel:
    k = k.main if isinstance(k, kir.Module) else k

    def edited(stmts):
        if len(stmts) == 1 and isinstance(stmts[0], kir.For) and stmts[0].var.startswith("tiler_block_"):
            return (dataclasses.replace(stmts[0], body=edited(stmts[0].body)),)
        return tuple(dataclasses.replace(s, body=edit(s.body)) if isinstance(s, kir.For) else s for s in stmts)
    return dataclasses.replace(k, body=edited(k.body))


def test_verifier_accepts_every_generated_kernel():
    for path in PROGRAM_FILES:
        for variant in VARIANTS:
            for k in compiled(path, variant)["verify"].kernels:
                assert verify(k) == []


def test_verifier_catches_a_missing_first_barrier():
    k = edit_chunk_loop(tiled_mm(), lambda body: tuple(
        s for i, s in enumerate(body) if not (isinstance(s, kir.Barrier) and "written" in s.why)))
    assert any("read before a barrier after its copy" in str(p) for p in verify(k))


def test_verifier_catches_a_missing_second_barrier():
    k = edit_chunk_loop(tiled_mm(), lambda body: tuple(
        s for s in body if not (isinstance(s, kir.Barrier) and "next copy" in s.why)))
    assert any("written while threads may still read it" in str(p) for p in verify(k))


def _async_statements(k: kir.Kernel) -> list:
    return [n for n in _walk_statements(k.body) if isinstance(n, (kir.AsyncCopy, kir.AsyncWait, kir.AsyncCommit))]


def _walk_statements(stmts):
    for s in stmts:
        yield s
        for field in kir.BODIES:
            yield from _walk_statements(getattr(s, field, ()) or ())


def test_rows_staged_to_coalesce_are_copied_by_cp_async_three_chunks_deep():
    """The rows of a block's threads (row sums): 128-bit cp.async copies into
    three row-major buffers, each step waiting for its own chunk alone (one
    group pending); --no-async keeps the register prefetch."""
    text = (BENCHMARKS / "rowsum.fut").read_text()
    module = run_all(text, "rowsum.fut", NO_SPLIT)["verify"]  # (the tiled kernel: rows of 256 on are split)
    main = module.main
    statements = _async_statements(main)
    copies = [s for s in statements if isinstance(s, kir.AsyncCopy)]
    assert {(c.width, c.bytes) for c in copies} == {(4, 16)} and len(copies) == 2 + 3  # prologue 2, a step each
    assert {s.pending for s in statements if isinstance(s, kir.AsyncWait)} == {1, 0}
    assert [a.elems for a in main.shared] == [16 * 68] * 3
    scalar = next(k for k in module.kernels if k.tiled and k is not main)
    assert {c.bytes for c in _async_statements(scalar) if isinstance(c, kir.AsyncCopy)} == {4}
    plain = run_all(text, "rowsum.fut", Options(no_async=True, no_split=True))["verify"].main
    assert not _async_statements(plain) and len(plain.shared) == 2


@pytest.mark.parametrize("row", ["A[i]", "A[idx[j]]", "A[t]"])
def test_a_copy_reads_the_index_array_at_each_of_the_blocks_rows(row):
    """A row picked through an input (`i` an element of `idx`, or `idx[j]`
    directly or through a let) is copied for every thread of the block at
    that thread's entry of `idx`, not at the copying thread's own."""
    text = gathered_row(row)
    cuda = run_all(text, "gather.fut")["render"]
    main = cuda[cuda.index("tiler_gather_tiled("):cuda.index("tiler_gather_tiled_scalar(")]
    copies = re.findall(r"tiler_cp_async<16>\(&sh_rc\w*\[(\w+) \* 68 \+ \w+\], &A\[(.*?)\], true\)", main)
    assert copies and all(src.startswith(f"idx[tiler_min(blockIdx.x * 16 + {r}, n - 1)] * m") for r, src in copies)


def test_verifier_catches_a_wait_that_leaves_the_chunk_read_in_flight():
    k = run_all((BENCHMARKS / "rowsum.fut").read_text(), "rowsum.fut", NO_SPLIT)["verify"].main

    def later(stmts):
        out = []
        for s in stmts:
            if isinstance(s, kir.AsyncWait) and s.pending:
                s = kir.AsyncWait(s.pending + 1)
            for field in kir.BODIES:
                if getattr(s, field, None):
                    s = dataclasses.replace(s, **{field: tuple(later(getattr(s, field)))})
            out.append(s)
        return out

    bad = dataclasses.replace(k, body=tuple(later(k.body)))
    assert any("read while an asynchronous copy into it may be in flight" in str(p) for p in verify(bad))


def test_verifier_catches_a_barrier_under_a_thread_dependent_branch():
    def guard(body):
        out = []
        for s in body:
            if isinstance(s, kir.Barrier):
                s = kir.If(kir.Bin("<", kir.ThreadIdx("x"), kir.Const(5, "int")), (s,))
            out.append(s)
        return tuple(out)

    assert any("under control that differs between threads" in str(p) for p in verify(edit_chunk_loop(tiled_mm(), guard)))


def test_verifier_catches_an_unbound_name():
    k = tiled_mm()
    k = dataclasses.replace(k, body=k.body + (kir.Assign("nowhere", kir.Ref("nothing")),))
    assert verify(k)
    assert any("`nothing` is used but never bound" in str(p) for p in verify(k))


# ---- tiler compile ---------------------------------------------------------------------


def test_compile_writes_cuda_and_launch_description(tmp_path):
    out = tmp_path / "mm.cu"
    result = tiler("compile", BENCHMARKS / "mm.fut", "-o", out)
    assert result.returncode == 0, result.stderr
    assert "extern \"C\" __global__" in out.read_text()
    launch = json.loads((tmp_path / "mm.launch.json").read_text())
    tma, tiled, scalar, one_point, untiled, wide, wide_scalar, untiled_wide = [v for v in launch["versions"]
                                                                               if "_split" not in v["kernel"]]
    # the TMA version first (analyse/core_tma.py): A transposed by the launch, its maps' swizzle none (0), a ring of
    # three 32 KiB stages past 48 KiB, its three mbarriers' 24 bytes static as ptxas counts them (32)
    assert [m["swizzle"] for m in tma["tensor_maps"]] == [0, 0] and tma["transposed"][0]["array"] == "A"
    assert tma["dynamic_shared_bytes"] == 3 * 32768 + 112 and tma["static_shared_bytes"] == 32
    assert tiled["block"] == [16, 16, 1] and tiled["static_shared_bytes"] == 0
    assert tiled["dynamic_shared_bytes"] == 3 * 16640  # three cp.async stages, past 48 KiB
    assert tiled["grid_formula"] == ["ceil(q / 128)", "min(ceil(m / 128), 65535)", "1"]
    assert tiled["condition"].endswith("&& q % 4 == 0)") and scalar["kernel"].endswith("_scalar")
    # 32-bit offsets where every array has fewer than 2^31 elements, then the same kernels with 64-bit ones
    fits = "(long long)m * n <= 2147483647LL && (long long)n * q <= 2147483647LL && (long long)m * q <= 2147483647LL"
    # the register tile only where its grid has a block for one SM in four or more (the launcher reads the count)
    blocks = "(long long)((q + 127) / 128) * ((m + 127) / 128) * 4LL >= tiler_multiprocessors"
    assert scalar["condition"] == fits + f" && (m >= 5 && n >= 5 && {blocks})"
    assert one_point["condition"] == fits + " && (m >= 5 && n >= 5)" and one_point["grid_formula"][:2] == [
        "ceil(q / 32)", "min(ceil(m / 32), 65535)"]
    assert untiled["condition"] == fits and not untiled["tiled"]
    assert wide["kernel"] == "tiler_mm_tiled_wide" and wide["condition"] == "m >= 5 && n >= 5 && q % 4 == 0"
    assert wide_scalar["kernel"] == "tiler_mm_tiled_wide_scalar" and wide_scalar["condition"] == "m >= 5 && n >= 5"
    assert "cudaDevAttrMultiProcessorCount" in out.read_text()
    assert untiled_wide["condition"] is None and not untiled_wide["tiled"]
    assert [p["name"] for p in launch["params"]] == ["A", "B0", "out0", "m", "n", "q"]


@pytest.mark.parametrize("emit", EMITS)
def test_compile_emits_every_stage(emit):
    result = tiler("compile", BENCHMARKS / "nbody.fut", "--emit", emit)
    assert result.returncode == 0 and result.stdout.strip(), result.stderr


def test_compile_to_stdout_and_untiled():
    result = tiler("compile", BENCHMARKS / "nbody.fut", "--no-tile")
    assert result.returncode == 0 and "tiler_nbody_untiled" in result.stdout


@pytest.mark.parametrize("args, message", [
    (["no/such.fut"], "cannot read no/such.fut"),
    ([str(BENCHMARKS / "mm.fut"), "-o", "/no/such/dir/k.cu"], "cannot write /no/such/dir/k.cu"),
    ([str(BENCHMARKS / "mm.fut"), "--emit", "bogus"], "Invalid value for '--emit'"),
    ([str(BENCHMARKS / "mm.fut"), "--tile", "x"], "--tile expects"),
    ([str(PROGRAMS / "note" / "mm.fut")], "accumulator `acc` is declared int"),
])
def test_compile_errors(args, message):
    result = tiler("compile", *args)
    assert result.returncode == 1 and message in result.stderr and "Traceback" not in result.stderr


def test_a_failure_after_checking_is_an_internal_compiler_error(monkeypatch):
    from click.testing import CliRunner

    from tiler import cli, pipeline

    def broken(*args):
        raise IndexError("planted")

    monkeypatch.setattr(pipeline, "lower_versions", broken)
    result = CliRunner().invoke(cli.main, ["compile", str(BENCHMARKS / "nbody.fut")])
    assert result.exit_code == cli.EXIT_BUG
    assert "internal compiler error in stage 'lower'" in result.output and "IndexError: planted" in result.output


def test_plans_over_48_kib_use_dynamic_shared_memory():
    path = PROGRAMS / "analysis" / "many_inputs.fut"  # one point a thread: one buffer a tile
    # 14 tiles of 1024 floats (56 KiB) do not fit 48 KiB: a chunk of 512 does, and the plan says so
    shrunk = run_all(path.read_text(), path.name, Options(tile=(1024,), no_register_tile=True))["analyse"]
    assert shrunk.tiled and shrunk.streams[0].chunk == 512 and shrunk.plan.schedule.block.shared_bytes == 14 * 2048
    assert "chunk 512, not 1024: the tiles of 1024 would need more than the 49152 bytes" in shrunk.streams[0].reason
    cuda = run_all(path.read_text(), path.name, Options(tile=(1024,), no_register_tile=True))["render"]
    assert "if (threadIdx.x < 512) {" in cuda  # a tile smaller than the block: one step or none, not a loop
    refused = run_all(path.read_text(), path.name, Options(tile=(1024,), no_register_tile=True, max_shared=100))["analyse"]
    assert not refused.tiled and "over the limit of 100" in refused.streams[0].reason
    values = run_all(path.read_text(), path.name, Options(tile=(1024,), no_register_tile=True, max_shared=100_000))
    k = values["verify"].main
    assert k.shared_bytes == 14 * 1024 * 4 and k.dynamic_shared
    assert "extern __shared__ __align__(16) unsigned char tiler_shared[];" in values["render"]
    assert f"<<<grid, block, {14 * 4096}>>>" in values["render"]
    from tiler.render import launch
    version = launch(values["verify"])["versions"][0]
    assert version["dynamic_shared_bytes"] == 14 * 4096 and version["static_shared_bytes"] == 0


def test_compile_writes_the_host_launcher_and_its_header(tmp_path):
    out = tmp_path / "mm.cu"
    assert tiler("compile", BENCHMARKS / "mm.fut", "-o", out).returncode == 0
    cuda, header = out.read_text(), (tmp_path / "mm.h").read_text()
    proto = "cudaError_t tiler_mm_launch(const float* A, const float* B0, float* out0, int m, int n, int q, " \
            "cudaStream_t stream)"
    assert proto + ";" in header and 'extern "C" ' + proto in cuda
    launcher = cuda[cuda.index("#if !defined(__CUDACC_RTC__)"):]  # NVRTC compiles the kernels alone
    # the versions in the module's order; the vector one also wants its arrays 16-byte aligned
    order = [launcher.index(f"tiler_mm_{v}<<<") for v in ("tiled", "tiled_scalar", "untiled", "tiled_wide",
                                                          "tiled_wide_scalar", "untiled_wide")]
    assert order == sorted(order) and "& 15) == 0" in launcher
    assert "const dim3 tiler_grid((q + 127) / 128, ((m + 127) / 128 < 65535 ? (m + 127) / 128 : 65535), 1), " \
           "tiler_block(16, 16, 1);" in launcher
    assert tiler("compile", BENCHMARKS / "mm.fut", "--emit", "header").stdout == header


def test_a_launcher_raises_the_dynamic_shared_memory_limit():
    path = PROGRAMS / "analysis" / "many_inputs.fut"
    cuda = run_all(path.read_text(), path.name, Options(tile=(1024,), max_shared=100_000, no_register_tile=True))["render"]
    assert "cudaFuncSetAttribute(tiler_many_inputs_tiled, cudaFuncAttributeMaxDynamicSharedMemorySize, 57344);" \
        in cuda and "tiler_many_inputs_tiled<<<tiler_grid, tiler_block, 57344, stream>>>" in cuda


@needs_nvcc
def test_the_host_example_builds_with_nvcc(tmp_path):
    """docs/examples/mm_host.cu includes the header and calls the launcher (the GPU tests run it)."""
    build_host_example(tmp_path)


def build_host_example(tmp_path: Path) -> Path:
    assert tiler("compile", BENCHMARKS / "mm.fut", "-o", tmp_path / "mm.cu").returncode == 0
    exe = tmp_path / "mm_host"
    done = subprocess.run([nvcc_path(), "-arch=sm_90", f"-I{tmp_path}", str(ROOT / "docs/examples/mm_host.cu"),
                           str(tmp_path / "mm.cu"), "-o", str(exe)], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    return exe


@pytest.mark.parametrize("path", PROGRAM_FILES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_launch_conditions_name_only_launch_sizes(path):
    """Every version's condition can be evaluated from main's sizes alone (a
    threshold on an inner stream's chunk could not be, and once was)."""
    values = compiled(path, "tiled")
    sizes = {s.name: 100 for s in values["check"].kernel.sizes}
    assert values["verify"].select(sizes) in values["verify"].kernels


def ptxas_reports(cuda: str, tmp_path: Path) -> dict[str, str]:
    """ptxas's report (-v) for each kernel of `cuda`, compiled for sm_90, by name."""
    src = tmp_path / "module.cu"
    src.write_text(cuda)
    done = subprocess.run([nvcc_path(), "-arch=sm_90", "-cubin", "-Xptxas", "-v", "-o", str(tmp_path / "m.cubin"),
                           str(src)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    return {b.split("'")[1]: b for b in re.split(r"ptxas info\s+: Compiling entry function ", done.stderr)[1:]}


KMEANS_SIZED = Options(sizes=(("d", 34), ("k", 16), ("n", 1 << 20)))


@needs_nvcc
def test_kmeans_at_its_bench_sizes_has_no_spills_and_its_planned_shared_memory(tmp_path):
    """At known sizes k-means stages its centres as 2-D tiles and its points'
    rows for coalescing (without sizes it is untiled: the golden above)."""
    values = run_all((BENCHMARKS / "kmeans.fut").read_text(), "benchmarks/kmeans.fut", KMEANS_SIZED)
    golden = GOLDEN / "kmeans.sized.cu"
    if UPDATE or not golden.exists():
        golden.write_text(values["render"])
    assert values["render"] == golden.read_text(), "kmeans.sized.cu changed; review the diff"
    reports = ptxas_reports(values["render"], tmp_path)
    for k in values["verify"].kernels:
        report = reports[k.name]
        assert "0 bytes spill stores" in report and "0 bytes spill loads" in report, report
        smem = re.search(r"(\d+) bytes smem", report)
        assert (int(smem.group(1)) if smem else 0) == k.static_shared_bytes, report
    tiled = values["verify"].main
    assert tiled.fixed == (("d", 34),) and tiled.static_shared_bytes == 256 * 34 * 4 + 16 * 34 * 4


def test_rows_of_a_length_known_at_launch_get_versions_within_a_bound():
    """k-means without --size d: its first versions hold rows of at most
    ROW_BOUND elements in shared memory (named `_bounded`, run where d is no
    longer, raced against the untiled kernel); every copy stops at the row's
    real end, d read at launch; the plan without the bound runs the rest,
    its 64-bit version after every 32-bit one."""
    from tiler.analyse.plan import ROW_BOUND

    values = run_all((BENCHMARKS / "kmeans.fut").read_text(), "kmeans.fut", Options())
    module = values["verify"]
    # (the fissioned ones first, test_fission.py; and those of few points)
    names = [v.kernel.name for v in module.versions if not v.fissioned and not v.few]
    assert names == ["tiler_kmeans_tiled_bounded", "tiler_kmeans_untiled_transposed", "tiler_kmeans_untiled",
                     "tiler_kmeans_tiled_wide_bounded", "tiler_kmeans_untiled_wide"]
    bounded = [v for v in module.versions if v.kernel.bounds]
    assert all(v.kernel.bounds == (("d", ROW_BOUND),) and v.rival for v in bounded)
    assert all(v.rival in names for v in bounded)
    sizes = {"n": 1000, "k": 21, "d": ROW_BOUND}
    assert module.select(sizes).name == "tiler_kmeans_tiled_bounded"
    assert module.select(dict(sizes, d=ROW_BOUND + 1)).name == "tiler_kmeans_untiled"
    cuda = values["render"]
    assert f"d <= {ROW_BOUND}" in cuda
    body = cuda[cuda.index("tiler_kmeans_tiled_bounded("):cuda.index("tiler_kmeans_untiled_transposed(")]
    # the points' rows, the centres' full and last chunks: each copy guarded by the row's end; loops run to d
    assert body.count("< d ? ") == 3 and "f < d;" in body
    assert f"r * {ROW_BOUND + 1} + e" in body  # the points' lines: odd pitch
    # a full chunk's 32 centres, 8 at a time: their distances' loops over the row jammed into one
    assert "for (int j = 0; j < 32; j += 8) {  // 8 iterations a step, their inner loops jammed" in body
    assert body.count("sh_p[threadIdx.x * 65 + f]") == 8 and "sh_cc[(j + 7) * 64 + f]" in body
    # the last, partial chunk likewise, its last c % 8 centres one at a time; a row length known when
    # compiling keeps the loop as written (nvcc unrolls the row's loop itself)
    assert "const int j_jammed = c - c % 8;" in body and "for (int j_3 = j_jammed; j_3 < c; j_3 += 1)" in body
    sized = run_all((BENCHMARKS / "kmeans.fut").read_text(), "kmeans.fut", Options(sizes=(("d", 34),)))["render"]
    assert "jammed" not in sized


def test_grid_y_past_its_limit_is_walked_by_a_loop():
    """A dim on grid y or z whose blocks may pass CUDA's 65,535 there: the
    grid holds at most that many and each block loops over its dim's tiles
    a grid apart; any row count the sizes allow then launches. A size known
    to fit keeps the plain block index."""
    from tiler.runtime import check_launch

    path = PROGRAMS / "analysis" / "tall_grid.fut"
    values = run_all(path.read_text(), path.name, Options())
    sizes = {"c": target.MAX_SIZE, "m": 1, "k": 3}
    for k in (k for k in values["verify"].kernels if not k.lanes):  # (a split for few points: fewer than 64 an SM)
        (y_axis,) = [a for a in k.grid[1:] if a is not None]
        assert y_axis[0] == "c" and y_axis[2] == target.MAX_GRID["y"], k.grid
        assert k.grid_dims(sizes)[1] == target.MAX_GRID["y"]
        check_launch(k, sizes)  # no error
    cuda = values["render"]
    assert "for (int tiler_block_y = blockIdx.y; tiler_block_y < (c + " in cuda and "tiler_block_y += 65535" in cuda
    small = run_all(path.read_text(), path.name, Options(sizes=(("c", 1000),)))
    *sized, looped = small["verify"].versions
    assert all(len(a) == 2 for v in sized if not v.kernel.lanes for a in v.kernel.grid if a is not None)
    # ... so each runs only where the grid holds its blocks; past them, the last version walks them in a loop
    for v in sized:
        if not v.kernel.lanes:
            (bound,) = v.kernel.grid_bounds
            assert bound[0] == "c" and bound[1] == target.MAX_GRID["y"] * v.kernel.grid[1][1], v.kernel.grid
    assert looped.kernel.name.endswith("_untiled_wide_looped") and not looped.kernel.grid_bounds
    assert looped.kernel.grid[1][2] == target.MAX_GRID["y"] and looped.condition is None
    assert small["verify"].select({"c": 1000, "m": 64, "k": 3}) is not looped.kernel
    past = {"c": target.MAX_SIZE, "m": 1, "k": 3}
    assert small["verify"].select(past) is looped.kernel
    check_launch(looped.kernel, past)  # no error
    assert "tiler_block_y" in small["render"] and f"c <= {target.MAX_GRID['y'] * 8}" in small["render"]
    # a size given for the x axis alone leaves no grid bound, and no looped fallback
    wide = run_all(path.read_text(), path.name, Options(sizes=(("m", 1000),)))["verify"]
    assert not any(v.kernel.name.endswith("_looped") or v.kernel.grid_bounds for v in wide.versions)


def test_every_tiled_version_is_raced_against_the_untiled_kernel_of_its_offsets():
    """The default module: each tiled version names the untiled kernel of
    its offsets as its rival, and that kernel is a version of the module
    (added last in its group where the conditions never reached it)."""
    from tiler.render import launch

    for name in ("aat", "mm", "nbody", "rownorm"):
        m = run_all((BENCHMARKS / f"{name}.fut").read_text(), f"{name}.fut", Options())["verify"]
        kernels = {k.name: k for k in m.kernels}
        assert len(kernels) == len(m.versions)  # no kernel twice
        for v in m.versions:
            rival = m.rival(v.kernel)
            assert (rival is not None) == v.kernel.tiled
            if rival is not None:
                assert not rival.tiled and rival.wide == v.kernel.wide and rival.name in kernels
        described = launch(m)["versions"]
        assert [d["rival"] for d in described] == [v.rival or None for v in m.versions]


@pytest.mark.parametrize("options", [Options(no_launch_timing=True), Options(tile=(64,)), Options(chunk=32),
                                     Options(no_tile=True), Options(register_tile=(1,))])
def test_a_schedule_the_user_chose_or_no_launch_timing_is_never_raced(options):
    values = run_all((BENCHMARKS / "nbody.fut").read_text(), "nbody.fut", options)
    assert not values["verify"].timed and "<mutex>" not in values["render"]
    assert "tiler_rivals[]" not in values["render"]


def test_the_launcher_races_with_a_cache_a_lock_and_not_while_capturing():
    cuda = run_all((BENCHMARKS / "nbody.fut").read_text(), "nbody.fut", Options())["render"]
    launcher = cuda[cuda.index("// Host launcher"):]
    race = cuda[cuda.index("#define TILER_RACE_CUH"):cuda.index("// Host launcher")]  # templates/race.cuh
    assert "#include <mutex>" in race and "std::lock_guard<std::mutex> hold(races.lock)" in race
    assert "cudaStreamIsCapturing(stream, &capture)" in race  # a graph capture is never raced
    assert "for (int round = 0; round <= ROUNDS && timed; ++round)" in race and "best[1] * margin < best[0]" in race
    assert "tiler_race<3>(tiler_table, tiler_key, tiler_version, tiler_rivals[tiler_version], 1.02f, stream, " \
           "tiler_run, &tiler_version);" in launcher
    assert re.search(r"static const int tiler_rivals\[\] = \{[-0-9, ]+\};", launcher)
    assert re.search(r"static tiler_races<\d+, 64> tiler_table;", launcher)  # the launcher's own table
    # the lock is held to look up and to remember, never across the race's waits; another thread's capture
    # cannot forbid those waits; the timed launches leave out raising the shared memory limit
    body = race[race.index("if (winner < 0 && may_race"):]
    waits = body.index("cudaEventSynchronize")
    assert "hold" not in body[:waits] and body.index("hold") > body.index("cudaThreadExchangeStreamCaptureMode", waits)
    assert body.count("cudaThreadExchangeStreamCaptureMode(&mode)") == 2
    assert "run(racers[r], round == 0)" in body


def test_the_launchers_own_names_are_all_reserved():
    """Every name the launcher declares is one a program's names are kept
    from (target.LAUNCHER_NAMES)."""
    values = run_all((BENCHMARKS / "mm.fut").read_text(), "mm.fut", Options())
    cuda = values["render"]
    launcher = cuda[cuda.index("// Host launcher"):]
    kernels = {k.name for k in values["verify"].kernels} | {launcher_name(values["verify"])}
    kernels |= {target.transpose_kernel(c) for c in target.SIZEOF}  # (the module's transpositions: kernels too)
    declared = set(re.findall(r"\btiler_[a-z_]+\b", launcher)) - kernels
    assert declared and declared <= target.LAUNCHER_NAMES, declared - target.LAUNCHER_NAMES


@needs_nvcc
def test_program_names_never_meet_the_launchers_own(tmp_path):
    """Arrays named like the launcher's parameter and locals (`stream`, the
    race's `tiler_version`, `grid`, `key`) are renamed in C; the launcher
    compiles."""
    text = """fun [f32, n] main([f32, n] stream, [f32, n] tiler_version, [f32, n] grid, [f32, n] key) =
  map(fn f32 (f32 x, f32 g, f32 q) =>
        streamSeq(fn f32 (int kk, [f32, chunk] xc, f32 acc) =>
                    loop (acc) = for k < chunk do acc + xc[k] * x + g * q
                    in acc
                 , tiler_version, 0f32)
     , stream, grid, key)
"""
    values = run_all(text, "names.fut", Options())
    assert values["verify"].timed
    (tmp_path / "names.cu").write_text(values["render"])
    done = subprocess.run([nvcc_path(), "-arch=sm_90", "-c", str(tmp_path / "names.cu"), "-o", str(tmp_path / "n.o")],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr


@needs_nvcc
@pytest.mark.parametrize("path", sorted((PROGRAMS / "regress").glob("*.fut")), ids=lambda p: p.stem)
def test_nvcc_accepts_each_regression_module_whole(path):
    """The whole module a user gets (every version and the host launcher),
    for programs the fuzzer once found wrong."""
    from tiler.runtime.nvcc import errors

    for variant, options in VARIANTS.items():
        assert errors(run_all(path.read_text(), path.name, options)["render"]) == "", (path.name, variant)


def test_a_statement_the_renderer_does_not_know_is_a_compiler_bug_not_missing_cuda():
    from tiler.errors import CompilerBug
    from tiler.render.statements import WRITERS, statements

    @dataclasses.dataclass(frozen=True)
    class Unknown:
        span: object = None

    with pytest.raises(CompilerBug, match="cannot write a Unknown statement"):
        statements((kir.Comment("before"), Unknown()), "  ")
    # every statement type of the IR has its writer
    assert set(WRITERS) == set(typing.get_args(kir.Stmt))


def test_a_visitor_missing_a_node_class_fails_when_its_module_loads():
    """The expression visitors (checker, variance, lowering, interpreter)
    find their method by the node's class, from a table built at import:
    a node class one of them has no method for is named then."""
    from tiler.tree import dispatch, methods

    @dataclasses.dataclass(frozen=True)
    class Lit:
        value: int

    @dataclasses.dataclass(frozen=True)
    class Neg:
        arg: object

    class Visitor:
        def _lit(self, e):
            return e.value

    with pytest.raises(TypeError, match="Visitor has no method _neg for Neg nodes"):
        methods(Visitor, Lit | Neg)
    assert methods(Visitor, Lit | Lit) == {Lit: "_lit"}

    class Twice(Visitor):  # a subclass's override wins, found once a class
        def _lit(self, e):
            return 2 * e.value

    table = methods(Visitor, Lit)
    assert dispatch(Twice, table)[Lit](Twice(), Lit(3)) == 6 and dispatch(Visitor, table)[Lit](Visitor(), Lit(3)) == 3


SHORT_ROWS_PRODUCT = """-- Products of short rows of a length known when compiled (32): each row of
-- X against every other, a loop over the rows' elements read as a stream of
-- both. The whole stream is two chunks, so ptxas unrolls every chunk's
-- copies at once: in the 64-bit version the two tiles' copies share the
-- steps a thread issues together, else that version spills.
fun [[f32, n], n] main([[f32, 32], n] X) =
  map(fn [f32, n] ([f32, 32] a) =>
        map(fn f32 ([f32, 32] b) =>
              loop (s = 0f32) = for t < 32 do s + a[t] * b[t] in s,
            X),
      X)
"""

MASKED_SCORES = """-- Masked scores of a query row against every key row, per batch, the rows'
-- length (64) known when compiled: the whole stream is one chunk of 64, so
-- one buffer a tile (three cp.async buffers were planned, and ptxas kept one).
fun [[[f32, t], s], b] main([[[f32, 64], s], b] Q, [[[f32, 64], t], b] K) =
  map(fn [[f32, t], s] (int bb) =>
        map(fn [f32, t] (int i) =>
              map(fn f32 (int j) =>
                    if j > i then 0f32
                    else
                      let q = Q[bb, i] in
                      let k = K[bb, j] in
                      let d = streamSeq(fn f32 (int e0, [f32, c] qc, [f32, c] kc, f32 acc) =>
                                          loop (acc) = for e < c do acc + qc[e] * kc[e] in acc,
                                        q, k, 0f32)
                      in d,
                  iota(t)),
            iota(s)),
      iota(b))
"""

BILINEAR_BATCH = """-- x_b^T A y_b for a batch of pairs: a stream over x and A's rows whose
-- loop over each chunk's rows holds a stream over the row and y. That inner
-- stream's copies are issued again for every row of the chunk, and y's
-- addresses are the same each time: issued whole, ptxas hoisted all 64 out
-- of the loop (80 bytes of spill stores in the scalar version), and the
-- outer chunk loop, unrolled 8 times, copied the inner pipeline 8 times.
fun [f32, nb] main([[f32, n], n] A, [[f32, n], nb] X, [[f32, n], nb] Y) =
  map(fn f32 ([f32, n] x, [f32, n] y) =>
        streamSeq(fn f32 (int i0, [f32, c] xc, [[f32, n], c] arows, f32 acc) =>
                    loop (acc) = for r < c do
                      let ay = streamSeq(fn f32 (int j0, [f32, d] ac, [f32, d] yc, f32 s) =>
                                           loop (s) = for q < d do s + ac[q] * yc[q] in s,
                                         arows[r], y, 0f32)
                      in acc + xc[r] * ay
                    in acc,
                  x, A, 0f32),
      X, Y)
"""


@needs_nvcc
def test_versions_that_unrolled_every_copy_at_once_have_no_spills_and_their_planned_shared_memory(tmp_path):
    """Copies ptxas would hold every address of at once: a stream whose
    length is known when compiled is unrolled whole, every chunk's copies
    together (a product of rows of 32, two chunks: its 64-bit version spilled
    56 bytes); an inner stream's copies inside a loop over the outer chunk's
    rows (the bilinear form). And a stream of one chunk gets one buffer, not
    three that ptxas drops (the masked scores as written: speculated, their
    product is register-tiled in chunks of 16). No version spills; each
    declares what ptxas keeps."""
    for text, buffers, options in ((MASKED_SCORES, 1, Options(no_speculate=True)), (MASKED_SCORES, 3, Options()),
                                   (SHORT_ROWS_PRODUCT, 2, Options()), (BILINEAR_BATCH, 3, Options())):
        values = run_all(text, "short.fut", options)
        staged = [p.staging for s in values["analyse"].streams for p in s.inputs if p.staged]
        assert staged and max(st.buffers for st in staged) == buffers, text.splitlines()[0]
        reports = ptxas_reports(values["render"], tmp_path)
        for k in values["verify"].kernels:
            report = reports[k.name]
            assert "0 bytes spill stores" in report, report
            smem = re.search(r"(\d+) bytes smem", report)
            assert (int(smem.group(1)) if smem else 0) == k.static_shared_bytes, report


def test_a_programs_integer_arithmetic_wraps_around_but_not_its_indices():
    """`+ - *` and negation on ints are two's complement (docs/language.md),
    which C's signed arithmetic is not: they are computed unsigned and cast
    back (a wrapped operand stays unsigned). An index made by + - * alone
    keeps signed arithmetic, which nvcc folds into the 64-bit address (past
    the type's range it is out of range); one that passes a `%` on the way
    wraps below it (a hash taken modulo a table's length stays in range)."""
    text = """fun [int, n] main([int, n] xs, [int, m] t) =
  map(fn int (int x) => -(t[(x * 3 + 1) % m] * 1664525 + 1013904223) + t[x * 2 - x], xs)
"""
    cuda = run_all(text, "w.fut", Options(no_tile=True))["render"]
    assert "-(((unsigned)t[(int)(((unsigned)x * (unsigned)3) + (unsigned)1) % m] * (unsigned)1664525) " \
           "+ (unsigned)1013904223)" in cuda
    assert "(unsigned)t[x * 2 - x]" in cuda
    # a name inside an index: wrapped where it reaches the index through a `/` or `%` too (a helper's
    # parameter, inlined), signed where only + - *, min and max lie between (a clamp)
    helpers = """fun int slot(int h, int m) = (h / 4) % m
fun int clamp(int v, int m) = min(max(v, 0), m - 1)
fun [int, n] main([int, n] xs, [int, m] t) =
  map(fn int (int x) => t[slot(x * 4, m)] + t[clamp(x * 3 + 1, m)], xs)
"""
    cuda = run_all(helpers, "h.fut", Options(no_tile=True))["render"]
    assert "(int)((unsigned)x * (unsigned)4)" in cuda and "= x * 3 + 1;" in cuda
    # under a register tile and in a split reduction's combining too
    for path, wrapped in (("corpus/a_matmul_int_rowstream.fut", "(unsigned)reg_sh_ac[L0_] * (unsigned)reg_sh_B_c["),
                          ("tests/programs/analysis/reduce_int.fut", "(int)((unsigned)s_part + (unsigned)s_part_16o)")):
        assert wrapped in run_all((ROOT / path).read_text(), path)["render"], path


def test_a_64_bit_offset_starts_with_one_widening_multiply():
    """The product that makes a flat offset 64-bit (an int index times an int
    size) is spelled tiler_wide_mul, tiler.cuh's PTX mul.wide.s32: written as
    C, ptxas miscompiled two copy loops of the same shape around it (seeds
    640373 and 304335, in tests/programs/regress/). Only 32-bit ints are
    multiplied so: a program's i64 value (a let, a parameter, an element)
    times a size stays C's 64-bit product, since mul.wide.s32 would cut it."""
    path = PROGRAMS / "regress" / "fuzz640373.fut"
    module = run_all(path.read_text(), path.name)
    wide = next(k for k in module["verify"].kernels if k.name.endswith("_tiled_wide"))
    body = module["render"].split(wide.name + "(", 1)[1]
    body = body[:body.index("\n}\n")]
    assert "(long long)" not in body
    assert body.count("M2[tiler_wide_mul(tiler_min(blockIdx.x * 16 + r") == 4
    text = """fun [f32, n] main([[f32, m], n] A, [[int, m], n] J, [[i64, m], n] K, i64 s) =
  map(fn f32 (int i) => let k = i64(i) * s in A[k, 0] + A[i, 1] + A[J[i, 0], 2] + A[K[i, 0], 3]
                        + A[i64(J[i, 1]) * s, 4] + A[min(k, i64(3)), 5], iota(n))
"""
    cuda = run_all(text, "w.fut", Options(no_tile=True))["render"]
    wide = cuda.split("tiler_w_untiled_wide(", 1)[1]
    assert "A[k * (long long)m] + A[tiler_wide_mul(gtid0, m) + 1] + A[tiler_wide_mul(J[tiler_wide_mul(gtid0, m)], m)" \
           " + 2] + A[K[tiler_wide_mul(gtid0, m)] * (long long)m + 3]" in wide
    assert "(long long)J[tiler_wide_mul(gtid0, m) + 1] * s * (long long)m + 4]" in wide
    assert "A[min(k, (long long)3) * (long long)m + 5]" in wide


def test_buffers_follow_the_chunks_a_stream_really_has():
    """A stream's known length caps its buffers (one chunk: one buffer, no
    cp.async), but not that of a loop's rows streamed end to end (the
    joined stream is many rows long, not one); a stream of length 0 is left
    in place (it compiled into a one-stage pipeline the verifier refused);
    and under a register tile the block's own plan of cp.async stands."""
    def staged(values):
        return [p.staging for s in values["analyse"].streams for p in s.inputs if p.staged]

    joined = (PROGRAMS / "analysis" / "joined_rows.fut").read_text().replace("[[f32, m], r]", "[[f32, 64], r]")
    assert [st.buffers for st in staged(run_all(joined, "j.fut"))] == [2, 2]
    empty = run_all(MASKED_SCORES.replace("64]", "0]"), "e.fut")
    assert not any(s.tiled for s in empty["analyse"].streams)
    short = (BENCHMARKS / "mm.fut").read_text().replace("[[f32, n], m] A, [[f32, q], n] B0",
                                                         "[[f32, 16], m] A, [[f32, q], 16] B0")
    values = run_all(short, "mm16.fut")
    block = values["analyse"].plan.schedule.block
    assert block.register.asynchronous and all(st.asynchronous and st.buffers == 2 for st in staged(values))


def test_a_stream_holding_a_tiled_stream_leaves_its_chunk_loop_to_nvcc_unless_told():
    """The plan's 8-fold unroll of a chunk loop would copy an inner tiled
    stream's whole pipeline 8 times; --unroll, given, still stands."""
    plain = run_all(BILINEAR_BATCH, "b.fut")
    outer = plain["analyse"].streams[0]
    assert outer.unroll is None and "left to nvcc" in outer.reason
    told = run_all(BILINEAR_BATCH, "b.fut", Options(unroll=1))
    assert told["analyse"].streams[0].unroll == 1


@needs_nvcc
def test_the_planned_shared_memory_counts_each_arrays_alignment(tmp_path):
    """Shared arrays start 16-byte aligned (as ptxas lays the static ones out,
    and as the dynamic buffer's offsets are): odd tiles (`--tile 3`, two
    arrays of 12 bytes) take 28 bytes, and the plan says so."""
    values = run_all((BENCHMARKS / "nbody.fut").read_text(), "nbody.fut", Options(tile=(3,)))  # (double-buffered)
    reports = ptxas_reports(values["render"], tmp_path)
    for k in values["verify"].kernels:
        smem = re.search(r"(\d+) bytes smem", reports[k.name])
        assert (int(smem.group(1)) if smem else 0) == k.static_shared_bytes, reports[k.name]
    assert any(k.static_shared_bytes == 28 for k in values["verify"].kernels)
