"""2.5-D blocking (analyse/march.py, lower/march.py): which 3-D windows are
marched and why not, the kernel's shape, its place among the versions and
what explain says. The GPU runs are in test_gpu.py."""
from __future__ import annotations

import json

import pytest
from conftest import BENCHMARKS, ROOT, tiler

from tiler import kir
from tiler.analyse import DEFAULT, Options
from tiler.lower.march import march_name
from tiler.pipeline import run_all
from tiler.runtime.nvcc import nvcc_path, ptxas_reports

STAR = (BENCHMARKS / "star25.fut").read_text()


def march_of(text: str, options: Options = DEFAULT):
    return run_all(text, "prog.fut", options)


def test_the_25_point_star_marches_with_its_columns_in_registers_and_its_planes_staged():
    values = march_of(STAR)
    m = values["analyse"].plan.march.march
    assert m is not None and m.array == "u" and m.dims == (0, 1, 2)
    assert (m.queue, m.rows, m.cols, m.points, m.depth) == ((-4, 4), (-4, 4), (-4, 4), 3, 9)
    assert m.plane == (20, 40) and m.shared_bytes == 20 * 40 * 4 and m.blocks == 6
    assert len(m.column) == 3 and len(m.reads) == 7  # the centre and z -+ r at the column, y and x -+ r in the plane
    module = values["verify"]
    names = [v.kernel.name for v in module.versions]
    assert names[:3] == [march_name("prog.fut"), "tiler_prog_window", "tiler_prog_untiled"]
    kernel = module.versions[0].kernel
    assert kernel.block == (32, 4, 1) and kernel.grid == (("nx", 32), ("ny", 12), ("nz", 32))
    assert kernel.static_shared_bytes == m.shared_bytes and kernel.occupancy == 6
    cuda = values["render"]
    assert cuda.count("__syncthreads()") >= 2 and "u_plane[" in cuda
    assert "__launch_bounds__(128, 6)\ntiler_prog_march(" in cuda


def test_the_march_races_first_and_runs_only_where_its_grid_fills_the_gpu_and_fits_cudas_limits():
    version = march_of(STAR)["verify"].versions[0]
    assert version.kernel.name.endswith("_march")
    shown = json.loads(tiler("explain", str(BENCHMARKS / "star25.fut"), "--json").stdout)
    (window,) = shown["windows"]
    assert window["marched"] and window["march_reason"].startswith(
        "2.5-D blocking: blocks of 32 x 4 threads, 3 consecutive rows a thread, march 32 planes of u along "
        "dimension 0")
    assert "  marched: 2.5-D blocking" in tiler("explain", str(BENCHMARKS / "star25.fut")).stdout
    compiled = tiler("compile", str(BENCHMARKS / "star25.fut"), "--emit", "cuda").stdout
    first = next(line for line in compiled.splitlines() if "0. tiler_star25_march" in line)
    assert ">= tiler_multiprocessors" in first and "nz <= 2097120" in first and "ny <= 786420" in first


WINDOWS = ROOT / "tests" / "programs" / "windows"


@pytest.mark.skipif(nvcc_path() is None, reason="nvcc is not on PATH")
@pytest.mark.parametrize("path, blocks", [
    (BENCHMARKS / "star25.fut", 6), (BENCHMARKS / "stencil3d.fut", 6), (ROOT / "corpus" / "a_laplace3d_f64.fut", 6),
    (ROOT / "corpus" / "d_stencil3d_25pt_f64.fut", None), (WINDOWS / "march_clamped_f64.fut", 6),
    (WINDOWS / "march_wide_halo.fut", None), (WINDOWS / "march_radius6.fut", None),
    (WINDOWS / "march_wide_coef.fut", None), (WINDOWS / "march_wave_f64.fut", None)],
    ids=lambda p: getattr(p, "stem", str(p)))
def test_the_march_caps_its_registers_only_where_ptxas_does_not_spill_under_the_cap(path, blocks):
    """768 threads an SM (80 registers) where a thread's live words and halo
    loads leave room; a radius-6 star, an f64 wave step and halos of 6 to 8
    loads a thread spilled under the cap (16 to 140 bytes) and get ptxas's
    own choice."""
    values = march_of(path.read_text())
    m = values["analyse"].plan.march.march
    assert m.blocks == blocks, (m.words, m.halo_loads)
    reports = ptxas_reports(values["render"])
    (report,) = [r for name, r in reports.items() if name.endswith("_march")]
    assert report.ok and report.spill_stores == 0, report.log
    if blocks:
        assert report.registers <= 65536 // 768


def test_a_double_precision_queue_takes_fewer_rows_a_thread():
    m = march_of((ROOT / "corpus" / "d_stencil3d_25pt_f64.fut").read_text())["analyse"].plan.march.march
    assert m is not None and m.element == 8 and m.points == 2  # 9 registers of two words a row: 40 // 18


def test_reads_clamped_along_the_march_pick_their_register_at_run_time():
    m = march_of((BENCHMARKS / "stencil3d.fut").read_text())["analyse"].plan.march.march
    assert m is not None and m.queue == (-1, 1) and m.points == 3


@pytest.mark.parametrize("path, why", [
    (ROOT / "corpus" / "a_box3d_w27_f32.fut", "moves along dimension 0 and within the plane at once"),
])
def test_windows_the_march_cannot_stage_say_why(path, why):
    marching = march_of(path.read_text())["analyse"].plan.march
    assert marching is not None and marching.march is None and why in marching.reason
    shown = json.loads(tiler("explain", str(path), "--json").stdout)
    assert any(w.get("marched") is False and why in w["march_reason"] for w in shown["windows"])


def test_no_march_under_its_option_or_without_register_tiles():
    for options, why in ((Options(no_march=True), "--no-march"), (Options(no_register_tile=True), "--no-register-tile")):
        values = march_of(STAR, options)
        assert values["analyse"].plan.march.march is None and why in values["analyse"].plan.march.reason
        assert not any(v.kernel.name.endswith("_march") for v in values["verify"].versions)


def test_a_window_whose_last_axis_is_not_the_innermost_dimension_is_not_marched():
    """The outer map names its index x and the inner one z: u's last axis
    follows the outermost dimension, and a warp's reads of a plane would
    stride."""
    swapped = STAR.replace("(int z) =>", "(int zz) =>").replace("(int x) =>", "(int z) =>") \
        .replace("(int zz) =>", "(int x) =>")
    marching = march_of(swapped)["analyse"].plan.march
    assert marching.march is None and "its last axis follows dimension 0, not the innermost one" in marching.reason


def test_kernels_of_two_levels_have_no_march():
    text = (ROOT / "corpus" / "a_jacobi5_f32.fut").read_text()
    assert march_of(text)["analyse"].plan.march is None


def test_without_launch_timing_there_is_no_march_version():
    values = march_of(STAR, Options(no_launch_timing=True))
    assert not any(v.kernel.name.endswith("_march") for v in values["verify"].versions)
    shown = json.loads(tiler("explain", str(BENCHMARKS / "star25.fut"), "--no-launch-timing", "--json").stdout)
    assert shown["windows"][0]["marched"] is False and "launch timing is off" in shown["windows"][0]["march_reason"]


# ---- what a cold review found: programs the march must refuse, or take without a window version -------------

def star(z: str, y: str, x: str, head: str = "") -> str:
    """A 3-D star whose neighbours along z, y and x are the given offsets (guarded)."""
    def reads(axis: str, offset: str) -> str:
        at = {"z": ("z", "nz"), "y": ("y", "ny"), "x": ("x", "nx")}[axis]
        index = {"z": "z", "y": "y", "x": "x"}
        low, high = dict(index), dict(index)
        low[axis], high[axis] = f"{at[0]} - {offset}", f"{at[0]} + {offset}"
        return (f"(if {at[0]} - {offset} >= 0 then u[{low['z']}, {low['y']}, {low['x']}] else 0f32) + "
                f"(if {at[0]} + {offset} < {at[1]} then u[{high['z']}, {high['y']}, {high['x']}] else 0f32)")
    body = " + ".join(reads(axis, o) for axis, o in (("z", z), ("y", y), ("x", x)) if o != "0")
    return f"""{head or "fun [[[f32, nx], ny], nz] main([[[f32, nx], ny], nz] u) ="}
  map(fn [[f32, nx], ny] (int z) =>
    map(fn [f32, nx] (int y) =>
      map(fn f32 (int x) => u[z, y, x] + {body}, iota(nx)), iota(ny)), iota(nz))
"""


def test_a_window_only_within_each_plane_is_not_marched():
    marching = march_of(star("0", "1", "1"))["analyse"].plan.march
    assert marching.march is None and "does not move along dimension 0" in marching.reason


def test_a_wide_halo_along_x_lowers_and_verifies():
    """The halo's places are picked by selects the verifier bounds by both
    sides: for 16 columns a side they passed the plane, and are clamped."""
    values = march_of(star("1", "1", "16"))
    (kernel,) = [v.kernel for v in values["verify"].versions if v.kernel.name.endswith("_march")]
    assert kernel.static_shared_bytes == values["analyse"].plan.march.march.shared_bytes


def test_a_literal_size_past_the_grid_is_not_marched():
    text = star("1", "1", "1", "fun [[[f32, nx], ny], nz] main([[[f32, nx], 1000000], nz] u) =") \
        .replace("ny", "1000000")
    marching = march_of(text)["analyse"].plan.march
    assert marching.march is None and "1,000,000 points along grid y would need more than 65,535 blocks" \
        in marching.reason


def test_a_star_without_a_window_version_is_marched_and_raced_first():
    """One point a thread and no halo tiles: the window version is refused,
    the march is made all the same, ahead of the plan's kernel, and explain
    says so, with its grid's limits."""
    values = march_of(STAR, Options(window_points=1, no_halo=True))
    names = [v.kernel.name for v in values["verify"].versions]
    assert names[0] == march_name("prog.fut") and not any(n.endswith("_window") for n in names)
    path = str(BENCHMARKS / "star25.fut")
    shown = json.loads(tiler("explain", path, "--window-points", "1", "--no-halo", "--json").stdout)
    assert shown["windows"][0]["marched"] is True
    first = shown["versions"][0]
    assert first["kernel"] == "march" and {e["size"]: e["value"] for e in first["at_most"]} == \
        {"ny": 65535 * 12, "nz": 65535 * 32}


def test_a_loop_around_plane_reads_alone_need_not_be_unrolled():
    text = star("1", "0", "0").replace(
        "map(fn f32 (int x) => u[z, y, x] + ",
        "map(fn f32 (int x) => loop (s = 0f32) = for q < k do s + (if x + 1 < nx then u[z, y, x + 1] else 0f32)"
        " + (if y + 1 < ny then u[z, y + 1, x] else 0f32) in s + ") \
        .replace("main([[[f32, nx], ny], nz] u)", "main(int k, [[[f32, nx], ny], nz] u)")
    m = march_of(text)["analyse"].plan.march.march
    assert m is not None and m.cols == (0, 1) and m.rows == (0, 1)


def test_a_halo_too_large_for_a_threads_registers_is_not_marched():
    marching = march_of(star("1", "30", "30"))["analyse"].plan.march
    assert marching.march is None and "loads a thread (more than 8)" in marching.reason


def _value(e, thread: dict, defs: dict) -> int:
    """An int expression of kernel IR for one thread (threadIdx by axis; names through their declarations)."""
    def of(x):
        return _value(x, thread, defs)
    if isinstance(e, kir.Const):
        return int(e.value)
    if isinstance(e, kir.ThreadIdx):
        return thread[e.axis]
    if isinstance(e, kir.Ref):
        return of(defs[e.name])
    if isinstance(e, kir.Cast):
        return of(e.a)
    if isinstance(e, kir.Select):
        return of(e.a) if of(e.cond) else of(e.b)
    if isinstance(e, kir.Call) and e.fn in kir.MINMAX:
        return (max if e.fn == "max" else min)(of(e.args[0]), of(e.args[1]))
    a, b = of(e.a), of(e.b)
    if e.op in ("/", "%"):  # (C's truncation; the operands here are not negative)
        assert a >= 0 and b > 0
    return {"+": a + b, "-": a - b, "*": a * b, "/": a // b if b else 0, "%": a % b if b else 0, "<": a < b,
            "<=": a <= b, ">=": a >= b, "==": a == b, "&&": a and b}[e.op]


@pytest.mark.parametrize("offsets", [("1", "1", "1"), ("4", "4", "4"), ("2", "0", "3"), ("1", "3", "0"),
                                     ("1", "1", "16"), ("3", "7", "12"), ("1", "2", "31")],
                         ids=lambda o: "z{}-y{}-x{}".format(*o))
@pytest.mark.parametrize("element", ["f32", "f64"])
@pytest.mark.parametrize("diagonal", [False, True], ids=["star", "diagonal"])
def test_every_element_of_a_plane_is_written_once_a_step(offsets, element, diagonal):
    """The block's threads store a plane's interior (one slot a row) and its
    halo (each thread's share, numbered band by band): evaluated for every
    thread, the stores cover the plane buffer exactly once, so no element a
    point reads is stale or written twice (`diagonal`: with a read along
    both of the plane's axes at once, which reads the halo's corners)."""
    text = star(*offsets).replace("f32", element)
    if diagonal:
        text = text.replace("u[z, y, x] +", "(if y > 0 && x > 0 then u[z, y - 1, x - 1] else 0f32) + u[z, y, x] +")
    values = march_of(text.replace("f32", element))
    m = values["analyse"].plan.march.march
    if m is None:
        pytest.skip(values["analyse"].plan.march.reason)
    (kernel,) = [v.kernel for v in values["verify"].versions if v.kernel.name.endswith("_march")]
    defs = {s.name: s.init for s in kernel.body if isinstance(s, kir.Decl)}
    rows, cols = m.plane
    threads_x, threads_y = m.threads
    halo = rows * cols - threads_y * m.points * threads_x
    written = []
    for ty in range(threads_y):
        for tx in range(threads_x):
            thread = {"x": tx, "y": ty, "z": 0}
            written += [_value(kir.Ref(f"slot{r}"), thread, defs) for r in range(m.points)]
            for j in range(-(-halo // (threads_x * threads_y))):
                if _value(kir.Ref(f"halo{j}_at"), thread, defs) < halo:
                    place = (_value(kir.Ref(f"halo{j}_row"), thread, defs), _value(kir.Ref(f"halo{j}_col"), thread,
                                                                                 defs))
                    assert 0 <= place[0] < rows and 0 <= place[1] < cols, place
                    assert _value(kir.Ref(f"halo{j}_slot"), thread, defs) == place[0] * cols + place[1]
                    written.append(place[0] * cols + place[1])
    assert sorted(written) == list(range(rows * cols))
