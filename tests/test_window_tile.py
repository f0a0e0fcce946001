"""The window version (analyse/window_tile.py): where a thread takes
consecutive points along a window's dimension, so that nvcc loads the reads
its points share once; where not, and why; how it is raced; and that its
unrolled copies of a read are one load once nvcc has them."""
from __future__ import annotations

import json
import re
import shutil
import subprocess

import pytest
from conftest import BENCHMARKS, ROOT, ptxas_reports, tiler

from tiler.analyse import Options
from tiler.cli.arguments import options_of_flags
from tiler.pipeline import run_all

CORPUS = ROOT / "corpus"
DEFAULT = Options()


def analysed(text: str, name: str = "w.fut", options: Options = DEFAULT):
    return run_all(text, name, options)


def tile_of(path, *flags):
    return analysed(path.read_text(), path.name, options_of_flags(list(flags)))["analyse"].plan.window


@pytest.mark.parametrize("name", ["d_blur_vertical15_f32", "d_sad8x8_int", "d_stencil3d_7pt_f32",
                                  "d_stencil3d_25pt_f64", "d_conv2d_3x3_wrap_f32", "a_jacobi5_f32"])
def test_a_window_moving_along_an_outer_dimension_gets_consecutive_points_a_thread(name):
    tile = tile_of(CORPUS / f"{name}.fut")
    assert tile.schedule is not None, tile.reason
    block = tile.schedule.block
    assert tile.dim == 0 and block.register.sizes[0] == 8 and block.register.group == 8
    assert block.interior and block.spans[0] != 0  # threadIdx.x walks another dimension


@pytest.mark.parametrize("name, why", [
    ("d_conv2d_3x3_wrap_f32", None),  # (registers share it; a wrap is never staged)
])  # (a window of an extent known only at launch: test_halo_launch.py)
def test_no_window_version_where_its_reads_would_not_be_alike(name, why):
    tile = tile_of(CORPUS / f"{name}.fut")
    if why is None:
        assert not tile.staged and "wrapped" in tile_of(CORPUS / f"{name}.fut", "--window-points", "1").reason
        return
    assert tile.schedule is None and why in tile.reason


@pytest.mark.parametrize("name, why", [
    ("d_conv1d_taps31_f64", "which threadIdx.x walks"),
    ("a_box3d_w27_f32", "inside an if"),
])
def test_a_window_registers_cannot_share_is_staged_with_its_halo(name, why):
    """Where no point a thread can share the window (it moves only along
    threadIdx.x's dimension, or its loops are not unrolled), the block
    stages it in shared memory, each thread taking 8 points a block apart."""
    tile = tile_of(CORPUS / f"{name}.fut")
    assert tile.schedule is not None and tile.dim is None and why in tile.reason
    assert tile.staged == tile.arrays and "halo included" in tile.reason
    block = tile.schedule.block
    unit = block.spans[0]
    assert block.register.group == 1 and block.register.sizes[unit] == 8


def test_a_1d_convolution_tile_holds_its_block_and_halo():
    tile = tile_of(CORPUS / "d_conv1d_taps31_f64.fut")
    (t,) = tile.schedule.halos
    assert [(a.axis, a.dim, a.low, a.extent) for a in t.axes] == [(0, 0, -15, 256 * 8 + 30)]
    assert t.bytes == (256 * 8 + 30) * 8


def test_a_2d_tile_gets_the_threads_along_its_halo():
    """Depthwise rows: the halo is along x alone, so the block's 256 threads
    all go along x (a tile of 8 rows of 32 would stage twice the points)."""
    tile = tile_of(CORPUS / "d_conv1d_depthwise7_f32.fut")
    block = tile.schedule.block
    assert block.extents[block.spans[0]] == 256 and block.threads == 256
    (t,) = tile.schedule.halos
    assert [(a.low, a.extent) for a in t.axes] == [(0, 1), (-3, 256 * 8 + 6)]


@pytest.mark.parametrize("index, why", [
    ("(x + t + 7) % 8", "other than the array's ends"),
    ("min((x + t + w - 1) % w, w - 1)", "both wrapped and clamped"),
    ("min(max(x + t - 1, 0), w - 2)", "other than the array's ends"),
    ("max(x + t - 1, 1)", "other than the array's ends"),
])
def test_a_window_read_clamped_elsewhere_or_wrapped_by_another_modulus_is_not_staged(index, why):
    text = ROW.replace("INDEX", index)
    tile = window_of(text)
    assert tile.schedule is None and why in tile.reason


def test_a_wrap_by_the_arrays_own_extent_is_staged_and_its_copy_wraps():
    """The tile holds the other end past the array's edge: the copy wraps
    each element's index as the program does, and the reads find their
    place from the wrapped index (lower/halos.py's WrappedView)."""
    text = ROW.replace("INDEX", "(x + t + w - 1) % w")
    tile = window_of(text)
    assert tile.staged == ("img",)
    (t,) = tile.schedule.halos
    assert [a.wrapped for a in t.axes][-1] and "wrapped along axis 1" in t.text()
    cuda = analysed(text, "wrap.fut")["render"]
    assert "% w < 0 ?" in cuda and "wrapped or clamped into the array" in cuda  # (its row: the point's own)


@pytest.mark.parametrize("index", ["((x + t - 1) % w + w) % w", "(w + (x + t - 1) % w) % w"])
def test_a_wrap_written_for_either_sign_is_the_same_window(index):
    """`((a % n) + n) % n`, the wrap a user writes so that a negative `a`
    wraps too, is a wrap by n: staged as `(a + n) % n` is."""
    tile = window_of(ROW.replace("INDEX", index))
    assert tile.staged == ("img",) and "wrapped along axis 1" in tile.schedule.halos[0].text()


@pytest.mark.parametrize("index", ["((x + t - 1) % w + h) % w", "((x + t - 1) % h + w) % w"])
def test_a_double_wrap_by_two_moduli_is_not_the_arrays_wrap(index):
    assert window_of(ROW.replace("INDEX", index)) is None  # (no window: the read is not the point's plus offsets)


def test_a_read_wrapped_in_place_skips_the_programs_remainder():
    """`x[(i + t - 4 + n) % n]`: the tile is read at `i + t - 4 + n` less
    its first index and one n, so the window kernel computes the program's
    remainder for none of its reads (the untiled kernel computes one a
    read)."""
    text = (ROOT / "tests" / "programs" / "windows" / "halo_wrap_1d.fut").read_text()
    cuda = analysed(text, "halo_wrap_1d.fut")["render"]
    window = cuda[cuda.index("tiler_halo_wrap_1d_window("):]
    window = window[:window.index("\n}\n")]
    reads = [line for line in window.splitlines() if "* x_window[" in line]
    assert reads and not any("% n" in line for line in reads)
    assert all("(unsigned)n) - ((int)" in line for line in reads)
    # the copy: the remainder made positive by adding n to it, which no int n can overflow (a first form added n
    # before a second remainder: past 2^30 elements it wrapped negative and read before the array)
    assert "e) % n < 0 ? ((int)(blockIdx.x * 2048) + -4 + e) % n + n :" in window and "% n + n) % n" not in window


def test_a_clamp_by_the_arrays_own_ends_is_staged_and_no_halo_leaves_it_in_place():
    text = ROW.replace("INDEX", "min(max(x + t - 1, 0), w - 1)")
    assert window_of(text).staged == ("img",)
    off = window_of(text, "--no-halo")
    assert off.schedule is None and "--no-halo" in off.reason


def test_a_tile_past_the_shared_memory_a_block_may_use_is_not_staged():
    text = ROW.replace("INDEX", "min(max(x + t - 1, 0), w - 1)")
    tile = window_of(text, "--max-shared", "4096")
    assert tile.schedule is None and "shared memory a block may use" in tile.reason


ROW = """
fun [[f32, w], h] main([[f32, w], h] img) =
  map(fn [f32, w] (int y) =>
        map(fn f32 (int x) =>
              loop (s = 0f32) = for t < 3 do s + img[y, INDEX] in s,
            iota(w)),
      iota(h))
"""


def window_of(text: str, *flags):
    return analysed(text, "row.fut", options_of_flags(list(flags)))["analyse"].plan.window


def test_no_window_no_record_and_no_version():
    values = analysed((BENCHMARKS / "mm.fut").read_text(), "mm.fut")
    assert values["analyse"].plan.window is None
    assert not any(v.ahead and not v.few for v in values["verify"].versions)


LONG = """
fun [[f32, w], h] main([[f32, w], h] img) =
  map(fn [f32, w] (int y) =>
        map(fn f32 (int x) =>
              loop (s = 0f32) = for t < 40 do s + img[min(y + t, h - 1), x] in s,
            iota(w)),
      iota(h))
"""


def test_a_loop_too_long_to_unroll_and_options_that_turn_it_off():
    tile = analysed(LONG)["analyse"].plan.window
    assert tile.schedule is None and "more than 32 iterations" in tile.reason
    path = CORPUS / "d_blur_vertical15_f32.fut"
    assert "--no-register-tile" in tile_of(path, "--no-register-tile").reason
    assert tile_of(path, "--window-points", "16").schedule.block.register.sizes == (16, 1)
    assert "--window-points 1" in tile_of(path, "--window-points", "1").reason
    raced = analysed(path.read_text(), path.name, Options(window_points=4))["verify"].versions[0]
    assert raced.kernel.name.endswith("_window") and raced.ahead and raced.rival  # raced as the default's is
    values = analysed(path.read_text(), path.name, Options(no_launch_timing=True))
    assert not any(v.kernel.name.endswith("_window") for v in values["verify"].versions)  # never untimed


def test_the_window_version_comes_first_and_races_the_next_then_the_untiled_kernel():
    path = CORPUS / "d_blur_vertical15_f32.fut"
    module = analysed(path.read_text(), path.name)["verify"]
    first, second = module.versions[:2]
    assert first.kernel.name == "tiler_d_blur_vertical15_f32_window" and first.ahead and first.races_first
    assert first.rival == "tiler_d_blur_vertical15_f32_untiled" and not first.few
    sizes = {"h": 4096, "w": 4096}
    assert module.select(sizes) is first.kernel
    assert module.ahead(sizes) is second.kernel and module.fallback(sizes) is None  # (not for few points)
    assert module.main is second.kernel  # the version the plan is for


@pytest.mark.skipif(shutil.which("nvcc") is None, reason="no nvcc")
def test_nvcc_loads_a_row_the_unrolled_points_share_once(tmp_path):
    """The 15-tap vertical pass: 8 points a thread read 22 rows and 15
    weights in the interior blocks' body (the edge blocks' clamped body,
    whose indices differ point to point, reads 8 x 15 and 15): 172 loads in
    all, where one load a point and tap would be 270; no spills."""
    path = CORPUS / "d_blur_vertical15_f32.fut"
    cu = tmp_path / "blur.cu"
    cu.write_text(analysed(path.read_text(), path.name)["render"])
    ptx = tmp_path / "blur.ptx"
    subprocess.run(["nvcc", "-arch=sm_90", "-ptx", "-o", str(ptx), str(cu)], check=True, capture_output=True)
    text = ptx.read_text()
    body = text[text.index(".entry tiler_d_blur_vertical15_f32_window"):]
    body = body[:body.index(".entry", 10)] if ".entry" in body[10:] else body
    assert len(re.findall(r"ld\.global", body)) == 22 + 15 + 8 * 15 + 15
    report = subprocess.run(["nvcc", "-arch=sm_90", "-cubin", "-o", str(tmp_path / "b.cubin"), "-Xptxas", "-v",
                             str(cu)], check=True, capture_output=True, text=True).stderr
    window = report[report.index("tiler_d_blur_vertical15_f32_window'"):]
    assert "0 bytes spill stores" in window.split("ptxas info    : Compiling")[0]


TRANSPOSED = """
fun [[f32, w], h] main([[f32, w], h] img, [[[f32, d], w], h] feats) =
  map(fn [f32, w] (int y) =>
        map(fn f32 (int x) =>
              let a = loop (s = 0f32) = for f < d do s * 0.5f32 + feats[y, x, f] in s in
              loop (t = a) = for k < 5 do t + img[min(y + k, h - 1), x]
              in t,
            iota(w)),
      iota(h))
"""
FISSIONED = """
fun [int, n] main([[f32, d], n] points, [[f32, d], k] centres, [f32, n] a) =
  map(fn int (int i, [f32, d] p) =>
        let (best, bestd) =
          streamSeq(fn (int, f32) (int kk, [[f32, d], c] cc, int best, f32 bestd) =>
                      loop (best, bestd) = for j < c do
                        let dist = (loop (s = 0f32) = for f < d do
                                     let t = p[f] - cc[j, f] in s + t * t
                                   in s) + (loop (u = 0f32) = for t < 4 do u + a[min(i + t, n - 1)] * cc[j, t] in u)
                        in if dist < bestd then (kk + j, dist) else (best, bestd)
                      in (best, bestd)
                   , centres, 0, 3.0e38f32)
        in best
     , zip(iota(n), points))
"""


def test_the_window_version_races_the_untiled_kernel_the_module_has():
    """Where the launch always transposes an input, the untiled kernel reads
    the transposed copy: the window version races that one."""
    options = Options(keep_loops=True, sizes=(("d", 4096), ("h", 1024), ("w", 16896)))
    values = analysed(TRANSPOSED, "t.fut", options)
    module = values["verify"]
    names = [v.kernel.name for v in module.versions]
    assert names[0] == "tiler_t_window"
    assert module.versions[0].rival in names and "untiled" in module.versions[0].rival
    assert "tiler_t_window" in values["render"]


def test_a_fissioned_programs_pairs_kernel_is_never_a_window_version():
    values = analysed(FISSIONED, "f.fut")
    stages = [s.name for v in values["verify"].versions if v.fissioned for s in v.kernel.stages]
    assert stages and not any(n.endswith("_window") for n in stages)


def test_the_launcher_races_a_window_version_against_the_next_and_its_rival_once_each():
    path = CORPUS / "d_blur_vertical15_f32.fut"
    launcher = analysed(path.read_text(), path.name)["render"]
    assert "static const bool tiler_ahead[] = {1, 0" in launcher
    assert "tiler_few" not in launcher and "tiler_plain" not in launcher  # (no version for few points)


def test_explain_says_when_no_window_version_is_made_and_a_dimension_too_short():
    path = CORPUS / "d_blur_vertical15_f32.fut"
    values = analysed(path.read_text(), path.name, Options(no_launch_timing=True))
    assert not any(v.kernel.name.endswith("_window") for v in values["verify"].versions)
    out = " ".join(tiler("explain", "--no-launch-timing", path).stdout.split())
    assert "no window version: it runs only raced, and launch timing is off" in out
    short = tile_of(path, "-s", "h=4", "-s", "w=8192")
    assert short.schedule is None and "dimension 0 has 4 point(s)" in short.reason


@pytest.mark.parametrize("name, reads, elements", [
    ("d_blur_vertical15_f32", 15, 22),  # 15 taps; 8 + 14 rows
    ("d_stencil3d_7pt_f32", 7, 42),  # z - 1 .. z + 8 along the column, and 4 x 8 neighbours beside it
    ("d_sad8x8_int", 64, 120),  # 8 x 8; 15 rows of 8
])
def test_the_reads_a_thread_s_points_share_are_counted(name, reads, elements):
    tile = tile_of(CORPUS / f"{name}.fut")
    assert f"{reads * 8:,} reads touch {elements:,} elements" in tile.reason
    assert f"instead of {reads:,}" in tile.reason


MARCHED_CORPUS = ("a_laplace3d_f64", "d_stencil3d_25pt_f64", "d_stencil3d_7pt_f32")  # (march.py)
WINDOW_CORPUS = ("a_jacobi5_f32", "a_laplace3d_f64", "d_blur_vertical15_f32", "d_conv2d_3x3_wrap_f32", "d_sad8x8_int",
                 "d_stencil3d_25pt_f64", "d_stencil3d_7pt_f32")
STRIDED_CORPUS = ("a_outer_update_f32",)  # (no window, no loop: strided points alone)


@pytest.mark.skipif(shutil.which("nvcc") is None, reason="no nvcc")
def test_the_corpus_window_versions_do_not_spill(tmp_path):
    """The corpus programs with a window version (the benchmarks' and test
    programs' are in test_codegen's ptxas check): each window kernel, 8
    points a thread unrolled with their loops, fits its registers, and so
    do each march of a 3-D window (its queues' loops unrolled) and each
    strided version."""
    from tiler.render import rename_module

    units, names = [], []
    for n, name in enumerate(WINDOW_CORPUS + STRIDED_CORPUS):
        path = CORPUS / f"{name}.fut"
        values = analysed(path.read_text(), path.name)
        cuda, kernels = rename_module(values["render"], values["verify"], f"tiler_w{n}")
        units.append(cuda)
        names += [k.name for k in kernels if k.name.endswith(("_window", "_march", "_strided"))]  # (march.py)
    assert sum(n.endswith("_window") for n in names) == len(WINDOW_CORPUS)
    assert sum(n.endswith("_strided") for n in names) == len(STRIDED_CORPUS)
    assert sum(n.endswith("_march") for n in names) == len(MARCHED_CORPUS)
    reports = ptxas_reports(units, tmp_path)
    for name in names:
        assert "0 bytes spill stores" in reports[name] and "0 bytes spill loads" in reports[name], reports[name]


APART = """
fun [[f32, w], h] main([[f32, w], h] img) =
  map(fn [f32, w] (int y) =>
        map(fn f32 (int x) =>
              img[y, x] + img[min(y + 8, h - 1), min(x + 1, w - 1)],
            iota(w)),
      iota(h))
"""


def test_points_that_share_no_read_and_a_tile_that_copies_as_much_as_it_serves_are_refused():
    """Two reads 8 rows and a column apart: 8 consecutive points a thread
    would share none of them, and a tile of the window (8 rows of halo)
    would copy about 2 elements a point for the 2 reads a point it serves:
    no window version, and explain says both."""
    tile = window_of(APART)
    assert tile.schedule is None
    assert "would share none of their 2 reads a point" in tile.reason
    assert "its tile would copy 2.01 elements a point for the 2 reads" in tile.reason
    versions = analysed(APART, "apart.fut")["verify"].versions
    assert not any(v.kernel.name.endswith("_window") for v in versions)


NOT_STAGED = {
    # a clamp at the point's own index, past the array's end (m < n): the clamped index leaves the tile
    "own_clamp": ("""
fun [f32, n] main(int n, [f32, m] a) =
  map(fn f32 (int i) => a[min(i, m - 1)] + (if i + 1 < m then a[i + 1] else 0f32), iota(n))
""", "whose extent is not dimension 0's size"),
    # a wrap at the point's own index reads the array's other end
    "own_wrap": ("""
fun [f32, n] main(int n, [f32, m] a) =
  map(fn f32 (int i) => a[i % m] + (if i + 1 < m then a[i + 1] else 0f32), iota(n))
""", "wrapped along axis 0, whose extent is not dimension 0's size"),
    # a level's value of the array, used as a number: no read the window records
    "level_value": ("""
fun [[f32, n], n] main([f32, n] a) =
  map(fn [f32, n] (f32 x) =>
        map(fn f32 (int j) => x * ((if j > 0 then a[j - 1] else 0f32) + (if j + 1 < n then a[j + 1] else 0f32)),
            iota(n)),
      a)
""", "read otherwise than element by element"),
    # a row of a row (a level over another level's row): its reads are no window's
    "row_of_a_row": ("""
fun [[[f32, nx], ny], nz] main([[[f32, nx], ny], nz] U) =
  map(fn [[f32, nx], ny] (int z, [[f32, nx], ny] plane) =>
    map(fn [f32, nx] (int y, [f32, nx] row) =>
      map(fn f32 (int x) =>
            (if x > 0 then U[z, y, x - 1] else 0f32) + (if x > 1 then U[z, y, x - 2] else 0f32)
              + (if x + 1 < nx then row[x + 1] else 0f32),
          iota(nx)),
        zip(iota(ny), plane)),
      zip(iota(nz), U))
""", "read otherwise than element by element"),
    # the whole array as a stream's input, for each point
    "streamed_whole": ("""
fun [f32, n] main([f32, n] a) =
  map(fn f32 (int i) =>
        let s = streamSeq(fn f32 (int kk, [f32, c] xc, f32 acc) =>
                   loop (acc) = for k < c do acc + abs(xc[k] - f32(i)) in acc, a, 0f32) in
        s + (if i > 0 then a[i - 1] else 0f32) + (if i + 1 < n then a[i + 1] else 0f32),
      iota(n))
""", "read otherwise than element by element"),
}


@pytest.mark.parametrize("name", list(NOT_STAGED))
def test_a_window_some_read_could_leave_the_tile_by_is_not_staged(name):
    """What a cold review found staged wrongly: each of these read the tile
    outside its bounds or at an element another read had put there."""
    text, why = NOT_STAGED[name]
    tile = window_of(text)
    assert not (tile and tile.staged), name
    assert tile is None or why in tile.reason, tile.reason


def test_a_level_renaming_the_array_and_a_let_keep_the_tile():
    """A level's row of the array and a let naming it stand for the array:
    their indexed reads are the window's, and the tile is staged."""
    text = """
fun [[f32, l], c] main([[f32, l], c] X) =
  map(fn [f32, l] (int ch, [f32, l] row) =>
        map(fn f32 (int i) =>
              let r = row in
              (if i > 0 then r[i - 1] else 0f32) + row[i] + (if i + 1 < l then X[ch, i + 1] else 0f32),
            iota(l)),
      zip(iota(c), X))
"""
    assert window_of(text).staged == ("X",)


def test_the_copy_reads_nothing_from_an_empty_array():
    cuda = analysed((ROOT / "tests/programs/windows/halo_short_array.fut").read_text(), "short.fut")["render"]
    window = cuda[cuda.index("tiler_short_window("):]
    assert "if (m > 0) {" in window[:window.index("__syncthreads")]


def test_a_stream_whose_length_varies_with_the_point_is_no_window_and_compiles():
    """A second review's find: a stream over `iota(h - y)` read at
    `y + kk + k` has offsets whose range differs between points; it once
    reached the window records as a bound and crashed compile and explain."""
    text = """
fun [[f32, w], h] main([[f32, w], h] X) =
  map(fn [f32, w] (int y) =>
        map(fn f32 (int x) =>
              streamSeq(fn f32 (int kk, [int, c] ks, f32 acc) =>
                          loop (acc) = for k < c do acc + X[y + kk + k, x]
                          in acc,
                        iota(h - y), 0f32),
            iota(w)),
      iota(h))
"""
    values = analysed(text, "varying.fut")
    assert values["analyse"].plan.window is None and "tiler_varying_untiled" in values["render"]


def test_a_window_of_a_prelude_array_that_shadows_a_parameter_is_not_staged_as_the_parameter():
    """The window is the transposed array's, which shadows main's `U`: the
    tile would have been sized by the wrong array's axes."""
    tile = window_of("""
fun [[f32, n], m] main([[f32, m], n] U) =
  let U = transpose(U) in
  map(fn [f32, n] (int y) => map(fn f32 (int x) =>
      loop (acc = 0f32) = for t < 7 do
        let j = x + t - 3 in if j >= 0 && j < n then acc + U[y, j] else acc
      in acc, iota(n)), iota(m))
""")
    assert not tile.staged and "not one of main's arrays" in tile.reason


OUTER = CORPUS / "a_outer_update_f32.fut"  # C + alpha u vᵀ: a point loads and stores an element or two, no loop


def test_a_kernel_of_no_window_and_no_loop_gets_strided_points_raced_first_where_its_grid_fills_the_sms():
    """One point a thread keeps one load in flight: the strided version takes 8
    a block's width apart along x, raced against the untiled kernel where its
    grid still gives every SM a block; fewer points run the untiled kernel."""
    values = analysed(OUTER.read_text(), OUTER.name)
    tile = values["analyse"].plan.window
    assert tile.elementwise and tile.dim is None and not tile.staged and "no window, no loop" in tile.reason
    module = values["verify"]
    first, second = module.versions[:2]
    assert first.kernel.name == "tiler_a_outer_update_f32_strided" and first.ahead and first.races_first
    assert first.rival == "tiler_a_outer_update_f32_untiled" and second.kernel.name == first.rival
    block = first.kernel.block
    assert block == (32, 8, 1) and first.plan.kind.value == "strided" and first.plan.grid_share == 1
    assert module.select({"n": 15000, "m": 20000}, 132) is first.kernel  # ceil(20000 / 256) * 1875 blocks
    assert module.select({"n": 150, "m": 300}, 132) is second.kernel  # 2 * 19 blocks: fewer than the SMs


@pytest.mark.parametrize("text, why", [
    ((BENCHMARKS / "mm.fut").read_text(), "a loop"),
    ((CORPUS / "a_rigid3_points_f32.fut").read_text(), "x walks 3 points"),  # (fewer than a block's 8 x 4)
])
def test_no_strided_version_where_a_point_loops_or_x_is_a_short_literal(text, why):
    assert analysed(text, "p.fut")["analyse"].plan.window is None, why


def test_the_strided_version_runs_only_raced_and_explain_names_it():
    values = analysed(OUTER.read_text(), OUTER.name, Options(no_launch_timing=True))
    assert not any(v.kernel.name.endswith("_strided") for v in values["verify"].versions)
    out = " ".join(tiler("explain", OUTER).stdout.split())
    assert "strided, 8 points a thread, a block's width apart: when" in out
    assert "(the plan's kernel, which the strided version races first)" in out
    explained = json.loads(tiler("explain", "--json", OUTER).stdout)
    first = explained["versions"][0]
    assert first["kernel"] == "strided" and first["points_a_thread"] == 8 and first["points_apart"]
    assert first["grid_share"] == 1 and first["timed_against"] == "untiled"
    assert explained["windows"] == []


def test_a_body_of_many_expressions_gets_no_strided_version():
    """It computes more than it loads, and 8 copies of it would take 8 times as long to compile."""
    body = " + ".join(f"x * {k}f32" for k in range(40))
    text = f"fun [[f32, m], n] main([[f32, m], n] A) =\n  map(fn [f32, m] ([f32, m] a) => map(fn f32 (f32 x) => {body}, a), A)\n"
    assert analysed(text, "big.fut")["analyse"].plan.window is None
    assert analysed(text.replace(body, "x * 2f32 + 1f32"), "small.fut")["analyse"].plan.window.elementwise


@pytest.mark.parametrize("inner, points, made", [
    ("300", "32", False),  # 32 lanes x 32 points a block's width apart: 1,024 columns over 300
    ("300", None, True),  # 256 columns a block
    ("100", "2", True),  # 64 columns a block
])
def test_the_strided_version_needs_x_as_long_as_a_block_s_points_along_it(inner, points, made):
    text = f"""fun [[f32, {inner}], n] main([[f32, {inner}], n] A, [f32, {inner}] v) =
  map(fn [f32, {inner}] ([f32, {inner}] a) => map(fn f32 (f32 x, f32 y) => x * y, a, v), A)
"""
    tile = analysed(text, "x.fut", options_of_flags(["--window-points", points] if points else []))["analyse"].plan.window
    assert (tile is not None and tile.elementwise) == made


@pytest.mark.parametrize("body, made", [
    ("a1", False),  # a fill: no point loads anything of its own
    ("a1 * 2f32 + f32(j)", False),  # an iota's element is no load
    ("a1 * x", True),  # an element of the array the level maps over
])
def test_points_that_load_nothing_of_their_own_get_no_strided_version(body, made):
    text = f"""fun [[f32, m], n] main(f32 a1, [[f32, m], n] A) =
  map(fn [f32, m] ([f32, m] a) => map(fn f32 (f32 x, int j) => {body}, a, iota(m)), A)
"""
    tile = analysed(text, "fill.fut")["analyse"].plan.window
    assert (tile is not None and tile.elementwise) == made


def test_a_version_raced_ahead_races_the_untiled_kernel_reading_in_place_where_the_plan_has_one():
    from types import SimpleNamespace as N

    from tiler.versions.planned import untiled_rival
    from tiler.versions.records import Kind

    def version(kind, transposed=frozenset(), wide=False):
        return N(kind=kind, build=N(transposed=transposed, wide=wide))
    transposing = version(Kind.UNTILED, frozenset({"M"}))
    in_place = version(Kind.UNTILED)
    rest = [version(Kind.TILED), transposing, in_place, version(Kind.UNTILED, wide=True)]
    assert untiled_rival(rest, "p.fut", "the strided version") is in_place.build
    assert untiled_rival([transposing], "p.fut", "the strided version") is transposing.build  # the only one
