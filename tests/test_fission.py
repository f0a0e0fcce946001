"""A fold over rows fissioned (kernel/fission.py, versions/fission.py,
versions/lowering.py): the pairs' values by a 2-D kernel into scratch memory,
then the fold reading them. The rewrite is checked in the reference
interpreter (the two programs give the original's outputs bit for bit);
the plans, gates and versions here; the kernels on the GPU in test_gpu.py
(every version of the programs that have them)."""
from __future__ import annotations

import numpy as np
import pytest
from conftest import BENCHMARKS, PROGRAMS, ROOT, tiler

from tiler import target
from tiler.analyse import DEFAULT, Options
from tiler.check import typed as T
from tiler.interp import run
from tiler.pipeline import run_all, run_to
from tiler.tree import descendants
from tiler.versions import FissionPlan, NoFission
from tiler.versions.fission import ROWS, WORK

KMEANS = (BENCHMARKS / "kmeans.fut").read_text()
# a helper's distance, inlined; the distance is an output too
ASSIGN = """
fun f32 sqdist([f32, d] a, [f32, d] b) =
  loop (s = 0f32) = for t < d do
    let u = a[t] - b[t] in s + u * u
  in s

fun ([int, n], [f32, n]) main([[f32, d], n] X, [[f32, d], k] C) =
  map(fn (int, f32) ([f32, d] x) =>
        let (best, bd) =
          streamSeq(fn (int, f32) (int c0, [[f32, d], c] cs, int best, f32 bd) =>
                      loop (best, bd) = for j < c do
                        let e = sqdist(x, cs[j]) in
                        if e < bd then (c0 + j, e) else (best, bd)
                      in (best, bd),
                    C, 0, 3.0e38f32)
        in (best, bd),
      X)
"""
# the fold written as a plain loop over the rows, a best match by a dot product (the largest, first of equal)
LOOPED = """
fun [int, n] main([[f32, d], n] Q, [[f32, d], k] R) =
  map(fn int ([f32, d] q) =>
        let (best, top) =
          loop (best = 0, top = -3.0e38f32) = for j < k do
            let s = loop (a = 0f32) = for f < d do a + q[f] * R[j, f] in a
            in if s > top then (j, s) else (best, top)
          in (best, top)
        in best
     , Q)
"""


def _fission(text: str, options: Options = DEFAULT):
    return run_to("versions", text, "prog.fut", options).fission


@pytest.mark.parametrize("text", [KMEANS, ASSIGN, LOOPED], ids=["kmeans", "assign", "looped"])
def test_the_two_programs_compute_what_the_fold_did(text):
    """The pairs' program then the fold's, in the interpreter, at sizes no
    tile divides: the same outputs as the program as written, bit for bit
    (each value keeps its operations and their order; the fold visits the
    pairs in order)."""
    f = _fission(text)
    assert isinstance(f, FissionPlan)
    rng = np.random.default_rng(5)
    n, k, d = 37, 29, 11
    names = [p.name for p in f.values.kernel.params if p.kind != "size"]
    inputs = {names[0]: rng.standard_normal((n, d)).astype(np.float32),
              names[1]: rng.standard_normal((k, d)).astype(np.float32)}
    inputs[names[1]][3] = inputs[names[1]][17]  # two equal rows: the fold keeps the first
    want = run(run_to("check", text, "prog.fut"), inputs)
    values = run(T.Program("prog.fut", f.values.kernel, {}), inputs)
    assert values[0].shape == (n, k)
    got = run(T.Program("prog.fut", f.fold.kernel, {}), {**inputs, f.fission.scratch: values[0]})
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert np.array_equal(g, w)


def test_kmeans_pairs_are_register_tiled_and_the_fold_split():
    f = _fission(KMEANS)
    assert f.values.block.register is not None and len(f.values.kernel.levels) == 2
    assert f.fold.plan.split is not None and f.fold.plan.split.active
    assert [(g.size, g.least) for g in f.gates] == [("k", ROWS), ("d", WORK)]


def test_fissioned_versions_come_first_under_their_gates():
    module = run_all(KMEANS, "kmeans.fut", Options())["verify"]
    fissioned = [v for v in module.versions if v.fissioned]
    assert fissioned and module.versions[:len(fissioned)] == tuple(fissioned)
    stages = {v.kernel.stages[0].name: v.kernel.stages[0] for v in fissioned}
    # the register-tiled pairs' kernel, and one point a thread for grids too small for it: each defined once
    assert [(n, s.block) for n, s in stages.items()] == [("tiler_kmeans_pairs_tiled", (16, 16, 1)),
                                                           ("tiler_kmeans_pairs_tiled_one_point", (32, 32, 1))]
    assert [k.name for k in module.functions].count("tiler_kmeans_pairs_tiled") == 1
    for v in fissioned:
        (stage,) = v.kernel.stages
        assert v.kernel.scratch[0].name == "dist_all"
        assert [p.role for p in stage.params if p.name == "dist_all"] == ["scratch"]
        assert [p.role for p in v.kernel.params if p.name == "dist_all"] == ["scratch"]
        assert v.rival == "tiler_kmeans_untiled"
    assert module.select({"n": 2048, "k": 2048, "d": 2048}).stages[0].name == "tiler_kmeans_pairs_tiled"
    # 32 blocks of 128 x 128 pairs do not fill the GPU: one pair a thread
    assert module.select({"n": 4096, "k": 128, "d": 2048}).stages[0].name == "tiler_kmeans_pairs_tiled_one_point"
    assert not module.select({"n": 1 << 20, "k": 16, "d": 34}).stages  # few centres: the fold as written
    assert not module.select({"n": 1 << 20, "k": 256, "d": 16}).stages  # short rows: likewise
    # (where they run, a first launch races them against the kernel as written first)
    assert all(v.ahead for v in fissioned)


def test_sizes_known_when_compiling_decide_the_gates_then():
    assert isinstance(_fission(KMEANS, Options(sizes=(("d", 16),))), NoFission)
    assert f"fewer than {WORK}" in _fission(KMEANS, Options(sizes=(("d", 16),))).reason
    f = _fission(KMEANS, Options(sizes=(("d", 2048), ("k", 2048))))
    assert isinstance(f, FissionPlan) and f.gates == ()
    module = run_all(KMEANS, "kmeans.fut", Options(sizes=(("d", 16),)))["verify"]
    assert not any(v.fissioned for v in module.versions)


def test_off_with_no_fission_and_where_an_option_steers_the_schedule():
    assert "--no-fission" in _fission(KMEANS, Options(no_fission=True)).reason
    assert isinstance(_fission(KMEANS, Options(tile=(64,))), NoFission)
    assert _fission(KMEANS, Options(no_tile=True)) is None


def test_a_value_that_reads_the_accumulator_is_not_fissioned():
    text = KMEANS.replace("s + t * t", "s + t * t + bestd * 0f32")
    f = _fission(text)
    assert isinstance(f, NoFission) and "reads what the fold carries" in f.reason


def test_a_value_without_a_loop_is_not_worth_storing():
    text = """
fun [int, n] main([f32, n] xs, [f32, k] cs) =
  map(fn int (f32 x) =>
        let (best, bd) = loop (best = 0, bd = 3.0e38f32) = for j < k do
          let e = (x - cs[j]) * (x - cs[j]) in if e < bd then (j, e) else (best, bd)
        in (best, bd)
        in best, xs)
"""
    f = _fission(text)
    assert f is None or (isinstance(f, NoFission) and "no loop" in f.reason)


def test_the_launcher_launches_the_stage_with_its_own_block_shared_memory_and_arguments():
    cuda = run_all(KMEANS, "kmeans.fut", Options())["render"]
    launch = next(line for line in cuda.splitlines() if "tiler_kmeans_pairs_tiled<<<tiler_stage" in line)
    assert "dim3(16, 16, 1), 50688, stream>>>(points, centres, dist_all, n, d, k)" in launch
    assert "cudaFuncSetAttribute(tiler_kmeans_pairs_tiled," in cuda
    assert cuda.count("tiler_kmeans_pairs_tiled(") == 1  # defined once, launched by every fissioned version


def test_named_modules_rename_the_stages_with_them():
    module = run_all(KMEANS, "kmeans.fut", Options(), stem="mine")["verify"]
    names = [s.name for v in module.versions for s in v.kernel.stages]
    assert names and all(n.startswith("tiler_mine_") for n in names)
    assert "tiler_mine_pairs_tiled" in names


def test_a_value_that_reads_what_the_thread_computed_before_the_fold_is_not_fissioned():
    """The pairs' kernel has main's arrays, the map's rows and the map's lets, not the body's lets."""
    text = KMEANS.replace("let (best, bestd) =", "let w = p[0] * 2f32 in\n        let (best, bestd) =", 1)
    text = text.replace("s + t * t", "s + t * t * w")
    f = _fission(text)
    assert isinstance(f, NoFission) and "`w`, computed by the thread before the fold" in f.reason


# ---- a cold review's findings (each failed before its fix) ----------------------------------------------------


def test_a_fold_that_reads_the_rows_beyond_the_value_is_not_fissioned():
    """The fold reads V's row in place of the chunks of C: where the rest of
    the loop (or another array's chunk) reads them too, there is no fission
    (the fold's program had an unbound chunk)."""
    text = KMEANS.replace("then (kk + j, dist)", "then (kk + j + int(cc[j, 0] * 0f32), dist)")
    f = _fission(text)
    assert isinstance(f, NoFission) and "reads the rows of centres beyond `dist`" in f.reason
    run_all(text, "kmeans.fut", Options())  # and it compiles


@pytest.mark.parametrize("options, device", [(Options(max_shared=49152), target.DEFAULT_DEVICE),
                                             (Options(max_shared=20000), target.DEFAULT_DEVICE),
                                             (Options(), target.Device(shared_optin=49152))],
                         ids=["48KiB", "20000", "a 48 KiB GPU"])
def test_pairs_kernels_with_vector_versions_are_fissioned(options, device):
    """A pairs' plan with a vector version first (a smaller shared memory
    limit): the fissioned versions take its in-place scalar versions."""
    module = run_all(KMEANS, "kmeans.fut", options, device=device)["verify"]
    stages = {v.kernel.stages[0].name for v in module.versions if v.fissioned}
    assert stages and all(not s.endswith("_wide") for s in stages)
    assert len({v.kernel.name for v in module.versions}) == len(module.versions)


@pytest.mark.parametrize("name", ["tiler_dist", "__dist", "cuda_dist"])
def test_a_value_named_as_the_implementation_names_its_scratch_as_c_does(name):
    text = KMEANS.replace("dist", name)
    module = run_all(text, "kmeans.fut", Options())["verify"]
    (scratch,) = {v.kernel.scratch[0].name for v in module.versions if v.fissioned}
    assert not scratch.startswith(("tiler_", "__", "cuda"))


def test_fissioned_kernels_are_named_after_the_program_not_its_folder():
    module = run_all(KMEANS, "dir.v2/kmeans", Options())["verify"]
    assert all(k.name.startswith("tiler_kmeans_") for k in module.functions)


def test_the_launch_description_gives_each_stage_its_block_shared_memory_and_arguments():
    from tiler.render import launch

    module = run_all(KMEANS, "kmeans.fut", Options())["verify"]
    first = next(v for v in launch(module)["versions"] if v["stages"])
    (stage,) = first["stages"]
    assert stage["block"] == [16, 16, 1] and stage["dynamic_shared_bytes"] == 50688
    assert stage["args"] == ["points", "centres", "dist_all", "n", "d", "k"]


def test_one_long_loop_among_a_pairs_loops_is_enough():
    """The gate looks at every outermost loop of the value: a short one
    first does not hide a long one."""
    text = KMEANS.replace("let dist = loop (s = 0f32)", "let dist = (loop (u = 0f32) = for t < 4 do u + p[t] in u) + loop (s = 0f32)")
    f = _fission(text)
    assert isinstance(f, FissionPlan) and [(g.size, g.least) for g in f.gates] == [("k", ROWS), ("d", WORK)]


def test_a_scalar_of_the_host_prelude_may_be_read():
    text = KMEANS.replace("fun [int, n] main([[f32, d], n] points, [[f32, d], k] centres) =",
                          "fun [int, n] main(f32 a, [[f32, d], n] points, [[f32, d], k] centres) =\n  let a2 = a * a in")
    text = text.replace("s + t * t", "s + t * t * a2")
    assert isinstance(_fission(text), FissionPlan)


# ---- companions: vectors the fold zips with the rows (issue 57) ------------------------------------------------

MLP = (PROGRAMS / "analysis" / "mlp_companions.fut").read_text()
MLP_LOOP = (PROGRAMS / "analysis" / "mlp_loop.fut").read_text()


@pytest.mark.parametrize("text", [MLP, MLP_LOOP], ids=["streamed", "looped"])
def test_a_fold_with_companion_vectors_computes_what_it_did(text):
    """A hidden layer's value for every (point, row) pair first; the fold
    then zips those values with the bias and the output weights: the same
    outputs as the program as written, bit for bit."""
    f = _fission(text)
    assert isinstance(f, FissionPlan) and sorted(a.binder.name for a in f.fission.companions) == ["b1", "w2"]
    assert "the fold reads it there, beside b1, w2" in f.reason or "the fold reads it there, beside w2, b1" in f.reason
    rng = np.random.default_rng(7)
    n, h, d = 37, 29, 11
    inputs = {"X": rng.standard_normal((n, d)).astype(np.float32),
              "W1": rng.standard_normal((h, d)).astype(np.float32),
              "b1": rng.standard_normal(h).astype(np.float32), "w2": rng.standard_normal(h).astype(np.float32)}
    want = run(run_to("check", text, "prog.fut"), inputs)
    values = run(T.Program("prog.fut", f.values.kernel, {}), inputs)
    assert values[0].shape == (n, h)
    assert {p.name for p in f.values.kernel.params} >= {"X", "W1"}
    fold = f.fold.kernel
    (stream,) = [s for s in descendants(fold.body, T.is_exp) if isinstance(s, T.Stream)]
    assert [getattr(a, "binder", None) and a.binder.name for a in stream.arrays][1:] in (["b1", "w2"], ["w2", "b1"])
    got = run(T.Program("prog.fut", fold, {}), {**inputs, f.fission.scratch: values[0]})
    assert np.array_equal(got[0], want[0])


def test_a_companion_read_by_the_value_stops_fission():
    f = _fission((PROGRAMS / "analysis" / "mlp_bias_inside.fut").read_text())
    assert isinstance(f, NoFission) and "`z` reads `bc`, a chunk the stream zips with the rows" in f.reason


# ---- folds in kernels of several levels ----------------------------------------------------------------

# attention with an online softmax: the score reads the query's row and a key, not the output feature `e`
ATTENTION = """
fun [[[f32, 16], s], h] main([[[f32, 16], s], h] Q, [[[f32, 16], t], h] K, [[[f32, 16], t], h] V) =
  map(fn [[f32, 16], s] ([[f32, 16], s] qh, [[f32, 16], t] kh, [[f32, 16], t] vh) =>
    map(fn [f32, 16] ([f32, 16] q) =>
      map(fn f32 (int e) =>
        let (mx, l, acc) =
          streamSeq(fn (f32, f32, f32) (int j0, [[f32, 16], c] kc, [[f32, 16], c] vc, f32 mx, f32 l, f32 acc) =>
                      loop (mx, l, acc) = for j < c do
                        let sc = 0.5f32 * (loop (d = 0f32) = for u < 16 do d + q[u] * kc[j, u] in d) in
                        let mn = max(mx, sc) in
                        let a = exp(mx - mn) in
                        let p = exp(sc - mn) in
                        (mn, l * a + p, acc * a + p * vc[j, e])
                      in (mx, l, acc),
                    kh, vh, -1e30f32, 0f32, 0f32)
        in acc / l,
      iota(16)),
    qh),
  Q, K, V)
"""


def test_a_value_no_innermost_point_varies_is_computed_once_for_them_and_gives_what_the_fold_did():
    """The pairs' kernel walks the head, the query and the key (V[h, i, j]);
    each level of the fold passes on its row of V; the interpreter runs both
    to the original's outputs bit for bit."""
    f = _fission(ATTENTION)
    assert isinstance(f, FissionPlan) and f.fission.candidate.depth == 1
    assert [lv.dim for lv in f.values.kernel.levels] == [0, 1, 2]
    fold = f.fold.kernel
    assert [p.name for p in fold.levels[0].params] == ["vh", "sc_0"] and [p.name for p in fold.levels[1].params] == \
        ["sc_row"]  # (the rows only the score read, kh and q, are gone)
    assert "16 points of the levels inside" in f.reason
    assert f.reason.endswith("beside vh")
    rng = np.random.default_rng(3)
    h, s, t = 3, 37, 29
    inputs = {n: rng.standard_normal(shape).astype(np.float32)
              for n, shape in (("Q", (h, s, 16)), ("K", (h, t, 16)), ("V", (h, t, 16)))}
    want = run(run_to("check", ATTENTION, "prog.fut"), inputs)
    values = run(T.Program("prog.fut", f.values.kernel, {}), inputs)
    assert values[0].shape == (h, s, t)
    got = run(T.Program("prog.fut", fold, {}), {**inputs, f.fission.scratch: values[0]})
    assert np.array_equal(got[0], want[0])


def test_a_companion_read_through_a_transposed_view_is_named_as_the_program_wrote_it():
    """In bf16 the fold reads V's column e through the view the kernel stage
    transposed (`vh_t[e]`): the reason names the program's `vh`."""
    f = _fission((BENCHMARKS / "attention_bf16.fut").read_text())
    assert isinstance(f, FissionPlan) and "vh_t" in str(f.fission.companions)
    assert f.reason.endswith("beside column e of vh")


def test_the_loop_a_pair_must_reach_is_divided_by_the_points_inside():
    """A score over 16 features, 16 output features a query: a loop of 2
    would do (32 over 16); for one output feature it must be 32 long."""
    f = _fission(ATTENTION)
    assert isinstance(f, FissionPlan) and [g.what for g in f.gates] == ["rows"]  # (its loop, 16, is known)
    narrow = ATTENTION.replace("iota(16)", "iota(1)").replace("[[[f32, 16], s], h] main", "[[[f32, 1], s], h] main") \
        .replace("fn [[f32, 16], s] ([[f32, 16], s] qh", "fn [[f32, 1], s] ([[f32, 16], s] qh") \
        .replace("fn [f32, 16] ([f32, 16] q)", "fn [f32, 1] ([f32, 16] q)")
    f = _fission(narrow)
    assert isinstance(f, NoFission) and f"fewer than {WORK}" in f.reason


def test_a_value_that_varies_with_the_innermost_level_is_no_candidate():
    varying = ATTENTION.replace("d + q[u] * kc[j, u]", "d + q[u] * kc[j, u] + f32(e)")
    assert _fission(varying) is None


def test_a_kernel_of_several_levels_without_the_shape_says_nothing():
    """A sum of absolute differences whose window reads are not rows j: no
    candidate, and no reason about a fold it never was."""
    assert _fission((ROOT / "corpus" / "d_sad8x8_int.fut").read_text()) is None


def test_no_fissioned_version_repeats_an_earlier_ones_condition():
    module = run_all((ROOT / "corpus" / "a_attn_online_softmax_f32.fut").read_text(), "a.fut", Options())["verify"]
    conditions = [v.condition for v in module.versions if v.fissioned]
    assert len(conditions) >= 2 and len(set(map(repr, conditions))) == len(conditions)


def test_a_pairs_kernel_taking_tma_maps_is_left_out():
    """No launch makes a stage's TMA maps: where the pairs' kernel would copy
    its tiles by TMA in place (the matrix units' warp groups, sizes given no
    multiple of 4), the fissioned versions are left out and explain says so;
    before, its CUDA named maps no launch declared and did not compile."""
    text = (BENCHMARKS / "mlp.fut").read_text()
    sized = Options(tensor_cores=True, sizes=(("d", 2050), ("h", 2050), ("n", 2050)))
    device = target.device_for_arch(target.WGMMA_ARCH)
    module = run_all(text, "mlp.fut", sized, device=device)["verify"]
    assert not any(v.fissioned for v in module.versions) and module.versions
    out = " ".join(tiler("explain", BENCHMARKS / "mlp.fut", "--tensor-cores", "--arch", "sm_90a", "-s", "n=2050",
                         "-s", "d=2050", "-s", "h=2050").stdout.split())
    assert "fission: none: the pairs' kernel would copy its tiles by TMA in place" in out
    # (the default build keeps them: its pairs read in place by cp.async)
    assert any(v.fissioned for v in run_all(text, "mlp.fut", Options())["verify"].versions)
