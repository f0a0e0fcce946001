"""2.5-D blocking (analyse/march.py, lower/march.py): which 3-D windows are
marched and why not, the kernel's shape, its place among the versions and
what explain says. The GPU runs are in test_gpu.py."""
from __future__ import annotations

import json

import pytest
from conftest import BENCHMARKS, ROOT, tiler

from tiler.analyse import DEFAULT, Options
from tiler.lower.march import march_name
from tiler.pipeline import run_all

STAR = (BENCHMARKS / "star25.fut").read_text()


def march_of(text: str, options: Options = DEFAULT):
    return run_all(text, "prog.fut", options)


def test_the_25_point_star_marches_with_its_columns_in_registers_and_its_planes_staged():
    values = march_of(STAR)
    m = values["analyse"].plan.march.march
    assert m is not None and m.array == "u" and m.dims == (0, 1, 2)
    assert (m.queue, m.rows, m.cols, m.points, m.depth) == ((-4, 4), (-4, 4), (-4, 4), 3, 9)
    assert m.plane == (20, 72) and m.shared_bytes == 20 * 72 * 4
    assert len(m.column) == 3 and len(m.reads) == 7  # the centre and z -+ r at the column, y and x -+ r in the plane
    module = values["verify"]
    names = [v.kernel.name for v in module.versions]
    assert names[:3] == [march_name("prog.fut"), "tiler_prog_window", "tiler_prog_untiled"]
    kernel = module.versions[0].kernel
    assert kernel.block == (64, 4, 1) and kernel.grid == (("nx", 64), ("ny", 12), ("nz", 64))
    assert kernel.static_shared_bytes == m.shared_bytes
    cuda = values["render"]
    assert cuda.count("__syncthreads()") >= 2 and "u_plane[" in cuda


def test_the_march_races_first_and_runs_only_where_its_grid_fills_the_gpu_and_fits_cudas_limits():
    version = march_of(STAR)["verify"].versions[0]
    assert version.kernel.name.endswith("_march")
    shown = json.loads(tiler("explain", str(BENCHMARKS / "star25.fut"), "--json").stdout)
    (window,) = shown["windows"]
    assert window["marched"] and window["march_reason"].startswith(
        "2.5-D blocking: blocks of 64 x 4 threads, 3 rows a thread, march 64 planes of u along dimension 0")
    assert "  marched: 2.5-D blocking" in tiler("explain", str(BENCHMARKS / "star25.fut")).stdout
    compiled = tiler("compile", str(BENCHMARKS / "star25.fut"), "--emit", "cuda").stdout
    first = next(line for line in compiled.splitlines() if "0. tiler_star25_march" in line)
    assert ">= tiler_multiprocessors" in first and "nz <= 4194240" in first and "ny <= 786420" in first


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
