"""Halo tiles the launch sizes (analyse/halo_tile.py, lower/halos.py):
windows whose offsets' extent is known only at launch (a filter's length)
are staged in dynamic shared memory whose bytes the launch computes from
the sizes, in a version that runs only where the tile fits."""
from __future__ import annotations

import shutil

import pytest
from conftest import ROOT, ptxas_reports

from tiler import kir
from tiler.analyse import Options
from tiler.cli.arguments import options_of_flags
from tiler.pipeline import run_all

PROGRAMS = ROOT / "tests" / "programs" / "windows"
LAUNCH_SIZED = [(PROGRAMS / "halo_launch_1d.fut", "x"), (PROGRAMS / "halo_launch_padded_2d.fut", "img"),
                (ROOT / "corpus" / "d_xcorr_valid_f32.fut", "sig"), (ROOT / "corpus" / "a_conv2d_filter_f32.fut", "img")]


def compiled(path, *flags):
    return run_all(path.read_text(), path.name, options_of_flags(list(flags)))


def window_kernel(values) -> kir.Kernel:
    return next(v.kernel for v in values["verify"].versions if v.kernel.name.endswith("_window"))


@pytest.mark.parametrize("path, array", LAUNCH_SIZED, ids=lambda x: getattr(x, "stem", x))
def test_a_window_known_only_at_launch_is_staged_in_a_tile_the_launch_sizes(path, array):
    values = compiled(path)
    tile = values["analyse"].plan.window
    assert tile.staged == (array,) and tile.halos.sized_at_launch, tile.reason
    assert "its size known at launch" in tile.reason
    k = window_kernel(values)
    assert [a.name for a in k.sized_at_launch] and k.dynamic_shared and k.shared_bytes == 0


@pytest.mark.parametrize("sizes, bytes_", [
    ({"n": 100, "m": 9}, (2048 + 8) * 4),  # m / 2 = 4 before a point, 4 after
    ({"n": 100, "m": 1}, 2048 * 4),
    ({"n": 100, "m": 0}, 2048 * 4),  # (no read: the tile is the block's points)
    ({"n": 100, "m": 4}, (2048 + 3) * 4 + 4),  # (rounded up to a whole 16 bytes)
])
def test_the_launch_sizes_a_1d_tile_from_the_filter_length(sizes, bytes_):
    assert window_kernel(compiled(PROGRAMS / "halo_launch_1d.fut")).shared_at(sizes) == bytes_


def test_the_launch_sizes_a_2d_tile_along_both_axes():
    """Rows kh / 2 above a point to kh - 1 - kh / 2 below; columns from one
    left (a constant) to kw - 2 right: (8 + kh - 1) x (256 + max(kw - 2, 0) + 1)."""
    k = window_kernel(compiled(PROGRAMS / "halo_launch_padded_2d.fut"))
    assert k.shared_at({"h": 9, "w": 9, "kh": 5, "kw": 3}) == (8 + 4) * (256 + 2) * 4
    assert k.shared_at({"h": 9, "w": 9, "kh": 1, "kw": 1}) == 8 * 257 * 4


def test_the_window_version_runs_only_where_its_tile_fits():
    """48 KiB hold (2048 + m - 1) floats up to m = 10,241; a longer filter
    runs the next version, and so does every filter under a smaller
    --max-shared."""
    m = compiled(PROGRAMS / "halo_launch_1d.fut")["verify"]
    assert m.select({"n": 1 << 20, "m": 31}).name.endswith("_window")
    assert m.select({"n": 1 << 20, "m": 10241}).name.endswith("_window")
    assert not m.select({"n": 1 << 20, "m": 10242}).name.endswith("_window")
    small = compiled(PROGRAMS / "halo_launch_1d.fut", "--max-shared", "16384")["verify"]
    assert small.select({"n": 1 << 20, "m": 2049}).name.endswith("_window")
    assert not small.select({"n": 1 << 20, "m": 2050}).name.endswith("_window")


def test_explain_says_the_tile_is_sized_at_launch_and_when_it_runs(tmp_path):
    from conftest import tiler
    out = tiler("explain", str(PROGRAMS / "halo_launch_padded_2d.fut"))
    assert "(8 + kh - 1) x (256 + kw - 1), its size known at launch" in out.stdout
    assert "the window tile of img, sized at launch, fits in 49,152 bytes of shared memory" in out.stdout


def test_a_tile_that_cannot_fit_even_without_its_halo_is_not_staged():
    tile = compiled(PROGRAMS / "halo_launch_1d.fut", "--max-shared", "4096")["analyse"].plan.window
    assert not tile.staged and "(at least 8,192 bytes)" in tile.reason


def test_an_extent_from_an_int_argument_is_staged_and_the_launch_reads_it():
    """A window length passed as an int scalar (b_window_stats_f64's `w`):
    the launch sizes the tile from it, chooses the version by it, and
    remembers a race's winner by it too (the launcher's key)."""
    values = compiled(ROOT / "corpus" / "b_window_stats_f64.fut")
    m, k = values["verify"], window_kernel(values)
    assert m.scalars_read == ("w",) and k.scalars_read == ("w",)
    assert k.shared_at(k.launch_values({"n": 100, "len": 105}, {"w": 5})) == (2048 + 4) * 8
    assert m.select({"n": 1 << 20, "len": 1 << 21, "w": 100}).name.endswith("_window")
    assert not m.select({"n": 1 << 20, "len": 1 << 21, "w": 5000}).name.endswith("_window")  # (7,047 doubles)
    assert "tiler_key[] = {n, len, w, tiler_device, tiler_version}" in values["render"]


def test_a_launch_computes_as_c_does():
    """Conditions and shared memory are C expressions: the runtime divides
    toward zero, as the launcher and the kernel do, for a scalar below 0."""
    def value(op, a, b):
        return kir.evaluate(kir.Bin(op, kir.Const(a, "int"), kir.Const(b, "int")), {})
    assert (value("/", -7, 2), value("%", -7, 2), value("/", 7, -2), value("%", 7, 2)) == (-3, -1, -3, 1)


WRAPPED = """
fun [f32, n] main([f32, n] x, [f32, m] f) =
  map(fn f32 (int i) =>
        loop (acc = 0f32) = for t < m do acc + f[t] * x[(i + t) % n]
        in acc,
      iota(n))
"""


def test_a_wrapped_window_known_only_at_launch_is_not_staged():
    """With offsets wider than the array, a wrapped read may pass its extent more than once."""
    tile = run_all(WRAPPED, "wrapped.fut", Options())["analyse"].plan.window
    assert not tile.staged and "wrapped, its offsets' extent known only at launch" in tile.reason


def test_allocations_the_launch_sizes_lie_after_the_others_each_on_a_line():
    """A fixed allocation first (13 floats: 52 bytes, to 64); then two the
    launch sizes by `n`, the second after the first's bytes rounded up to 16."""
    n = kir.Ref("n_k")
    k = kir.Kernel("k", (kir.Param("n_k", "int", "size", "n"),),
                   (kir.SharedAlloc("a", "float", 13), kir.SharedAlloc("b", "double", 0, extents=(n,)),
                    kir.SharedAlloc("c", "float", 0, extents=(kir.Bin("+", n, kir.Const(1, "int")),))),
                   (), (32, 1, 1), ((n.name, 32),), True, "k.fut", ())
    assert k.dynamic_shared and k.shared_bytes == 52
    offsets = dict((a.name, o) for a, o in k.shared_offsets())
    assert offsets["a"] == 0 and kir.evaluate(offsets["b"], {"n_k": 3}) == 64
    assert kir.evaluate(offsets["c"], {"n_k": 3}) == 64 + 32  # (24 bytes of b, rounded up)
    assert k.shared_at({"n": 3}) == 64 + 32 + 16
    names = {x.name for x in kir.walk(k.launch_shared()) if isinstance(x, kir.Ref)}
    assert names == {"n"}  # (over the program's size names, as the launcher's conditions are)


@pytest.mark.skipif(shutil.which("nvcc") is None, reason="no nvcc")
def test_the_modules_compile_with_their_launchers_and_do_not_spill(tmp_path):
    """Each module, its host launcher included (which sizes the tile and
    raises the kernel's limit to it), through nvcc; ptxas finds no static
    shared memory in the window kernel and no spills."""
    from tiler.render import rename_module
    units, names = [], []
    for n, (path, _) in enumerate(LAUNCH_SIZED):
        values = compiled(path)
        cuda, kernels = rename_module(values["render"], values["verify"], f"tiler_h{n}")
        units.append(cuda)
        names += [k.name for k in kernels if k.name.endswith("_window")]
    reports = ptxas_reports(units, tmp_path, "-c")  # (-c: the host launcher is compiled too)
    for name in names:
        assert "0 bytes spill stores" in reports[name] and "0 bytes spill loads" in reports[name], reports[name]
        assert " smem" not in reports[name].split("Used", 1)[1].split("\n")[0], reports[name]


def test_the_launcher_raises_a_tiles_limit_to_one_value_at_every_launch():
    """A limit raised to each launch's own bytes would fail another thread's
    launch between its raise and its launch: within 48 KiB it is not raised
    at all, past it (--max-shared) always to the version's bound."""
    default = compiled(PROGRAMS / "halo_launch_1d.fut")["render"]
    assert "cudaFuncSetAttribute(tiler_halo_launch_1d_window" not in default
    wide = compiled(PROGRAMS / "halo_launch_1d.fut", "--max-shared", "100000")["render"]
    assert "cudaFuncSetAttribute(tiler_halo_launch_1d_window, cudaFuncAttributeMaxDynamicSharedMemorySize, 100000)" \
        in wide


OVERFLOW = """
fun int cl(int v, int hi) = min(max(v, 0), hi - 1)
fun [[f32, w], h] main([[f32, w], h] img, [bool, kh] my, [bool, kw] mx) =
  map(fn [f32, w] (int y) =>
        map(fn f32 (int x) =>
              (if my[0] && mx[0] then 1f32 else 0f32) *
              (img[cl(y + kh / 2, h), cl(x + kw / 2, w)] - img[cl(y - kh / 2, h), cl(x - kw / 2, w)]),
            iota(w)),
      iota(h))
"""


def test_each_extent_is_tested_before_their_product_could_pass_64_bits():
    """Extents of 1.5e9 and 1.6e9 elements multiply past 2^63 (negative in
    C, which would pass `<= 49152`): the condition tests each extent first."""
    values = run_all(OVERFLOW, "overflow.fut", Options())
    m, k = values["verify"], window_kernel(values)
    condition = next(v.condition for v in m.versions if v.kernel is k)
    tests = [n for n in kir.walk(condition) if isinstance(n, kir.Bin) and n.op == "<="
             and isinstance(n.b, kir.Const) and n.b.value == 49152]
    assert len(tests) == 3 and any(t.a == k.launch_shared() for t in tests)
    from tiler.render import c
    text = c(condition)  # (`&&` in C stops at the first false test: the extents come first)
    assert text.count("<= 49152LL") == 3 and text.endswith("/ 16LL * 16LL <= 49152LL)")
    assert not m.select({"h": 4, "w": 4, "kh": 1_500_000_000, "kw": 1_600_000_000}).name.endswith("_window")
    assert m.select({"h": 4, "w": 4, "kh": 3, "kw": 3}).name.endswith("_window")


HELPER = """
fun int rad(int k) = k / 2
fun int cl(int v, int hi) = min(max(v, 0), hi - 1)
fun [[f32, w], h] main([[f32, w], h] img, [[f32, kw], kh] F) =
  map(fn [f32, w] (int y) =>
        map(fn f32 (int x) =>
              loop (acc = 0f32) = for a < kh do
                loop (acc) = for b < kw do
                  acc + F[a, b] * img[cl(y + a - rad(kh), h), cl(x + b - rad(kw), w)]
                in acc
              in acc,
            iota(w)),
      iota(h))
"""


def test_one_helper_computing_both_radii_names_each_by_its_own_value():
    tile = run_all(HELPER, "helper.fut", Options())["analyse"].plan.window
    assert tile.staged == ("img",) and "kh / 2" in tile.reason or "(8 + kh - 1) x (256 + kw - 1)" in tile.reason


def test_explain_folds_a_reach_that_stays_on_one_side_of_the_point():
    """`x[i + t - m]` over t < m reaches m before the point and none after: the tile is 2048 + m."""
    text = NEGATIVE
    tile = run_all(text, "negative.fut", Options())["analyse"].plan.window
    assert "x (2048 + m, its size known at launch)" in tile.reason


NEGATIVE = """
fun [f32, n] main([f32, n] x, [f32, m] f) =
  map(fn f32 (int i) =>
        loop (acc = 0f32) = for t < m do
          if i + t - m >= 0 then acc + f[t] * x[i + t - m] else acc
        in acc,
      iota(n))
"""
