"""Differential testing: a fixed budget of random programs in every `make
test` (`make fuzz N=... SEED=...` for any number), the generator, the
shrinker and the mutation property."""
from __future__ import annotations

import dataclasses
import functools
import re

import numpy as np
import pytest
from conftest import PROGRAMS, tiler

from tiler import target
from tiler.fuzz import Failure, fuzz, summary
from tiler.fuzz.generate import generate
from tiler.fuzz.mutate import mutate
from tiler.fuzz.properties import check_mutant, close, reference
from tiler.fuzz.shrink import shrink
from tiler.runtime.nvcc import nvcc_path
from tiler.syntax import ast, pretty
from tiler.workload import input_bytes

# (the fuzzer's campaigns, on the CPU and the GPU, run thousands: tests/FUZZ.md; this budget keeps `make
# test` within its time on two cores)
BUDGET = 28


def test_a_fixed_budget_of_random_programs_has_no_failures(tmp_path):
    failures = fuzz(BUDGET, seed=20261121, mutations=2, nvcc=nvcc_path() is not None, out_dir=tmp_path)
    assert failures == [], "\n".join(f"seed {f.seed}: {f.stage}: {f.message[:300]}" for f in failures)
    assert summary(BUDGET, failures) == f"{BUDGET} programs, 0 failures"


def test_programs_depend_only_on_their_seed():
    assert pretty(generate(7)) == pretty(generate(7)) and pretty(generate(7)) != pretty(generate(8))


def _as_f32(text: str) -> str:
    """A program's text with its 16-bit types and each leaf's rounding through one spelled as f32."""
    text = re.sub(r"\b(b?f16)\b", "f32", text)
    return re.sub(r"(\d)b?f16\b", r"\1f32", text)


def test_16_bit_programs_keep_their_seeds_f32_shape():
    """--narrow draws from its own random stream: the seed's program is the
    one it always was, and its 16-bit twin has the same shape, some arrays'
    elements and leaves in f16 or bf16 (read as `f32(x)`)."""
    narrow = [pretty(generate(s, narrow=True)) for s in range(40)]
    assert sum("f16" in t for t in narrow) >= 10
    for s, text in enumerate(narrow):
        plain = pretty(generate(s))
        assert plain == pretty(generate(s, narrow=False))
        shape = re.sub(r"f32\((f32\()?", "", _as_f32(text)).replace(")", "")
        assert shape.count("streamSeq") == plain.count("streamSeq") and shape.count("map(") == plain.count("map(")


def test_a_budget_of_16_bit_programs_has_no_failures(tmp_path):
    failures = fuzz(12, seed=20261203, mutations=1, nvcc=nvcc_path() is not None, out_dir=tmp_path, narrow=True)
    assert failures == [], "\n".join(f"seed {f.seed}: {f.stage}: {f.message[:300]}" for f in failures)


def test_products_reach_every_layout_and_type_the_matrix_units_read():
    """--products writes matrix products (fuzz/products.py): every element
    type, A and B each given as they are or transposed, and under the
    fuzzer's own options a good share of them on the units."""
    from tiler.analyse import Options
    from tiler.fuzz.products import product_text
    from tiler.fuzz.properties import variants
    from tiler.pipeline import run_all

    seen, on_units = set(), 0
    for s in range(40):
        text = product_text(s)
        units = run_all(text, "p.fut", Options(tensor_cores=True), until="analyse")["analyse"].plan.schedule.matrix_units
        assert units is not None and units.used, (text, units)
        elem = re.search(r"main\(\[\[(\w+), ", text).group(1)
        seen.add((elem, "A0" in text, "B0" in text))
        module = run_all(text, "p.fut", variants(s)["tiled"], until="verify")["verify"]
        on_units += any(k.matrix_units for k in module.kernels)
    assert {e for e, _, _ in seen} == {"f32", "f16", "bf16", "f64"} and {(a, b) for _, a, b in seen} == \
        {(False, False), (False, True), (True, False), (True, True)}
    assert on_units >= 8


def test_products_are_checked_at_sizes_past_a_blocks_tile_too():
    """--products draws each size past a block's 128 points and a 16-bit
    chunk of 64 half the time, so outputs span several blocks and streams
    several full chunks; the general generator keeps to small sizes."""
    from tiler.check import check
    from tiler.fuzz.products import product
    from tiler.fuzz.properties import LARGE, SMALL, check_program, sizes_for

    drawn = [sizes_for(check(product(s)), s, large=True) for s in range(40)]
    assert all(1 <= v < LARGE for z in drawn for v in z.values())
    assert sum(any(v >= 128 for v in z.values()) for z in drawn) >= 20
    assert sum(all(v < SMALL for v in z.values()) for z in drawn) >= 1
    assert all(v < SMALL for v in sizes_for(check(product(0)), 0).values())
    _, compiled = check_program(product(3), 3, large=True)  # (n = 111: past the small sizes)
    assert compiled.large and compiled.chunked[0] == drawn[3] and max(drawn[3].values()) >= SMALL


def test_a_budget_of_products_has_no_failures(tmp_path):
    failures = fuzz(8, seed=20261129, mutations=1, nvcc=nvcc_path() is not None, out_dir=tmp_path, products=True)
    assert failures == [], "\n".join(f"seed {f.seed}: {f.stage}: {f.message[:300]}" for f in failures)


def test_the_generator_covers_the_language():
    texts = "\n".join(pretty(generate(s)) for s in range(60))
    for form in ("transpose(", "zip(", "iota(", "loop (", "if ", "streamSeq(", "fun f32 h", "fun f32 g",
                 "let (", "max(", "% 3 + 1"):
        assert form in texts, form
    dims = {pretty(generate(s)).split("=", 1)[0].count("[[") for s in range(60)}
    assert len(dims) >= 2


def test_the_generator_makes_rows_staged_to_coalesce():
    """Some random programs stream a row each thread walks alone, so the GPU
    fuzzer runs that staging (seeds 3, 111, 145, 150 and 174 of the first 200)."""
    from tiler.pipeline import run_to

    staged = [s for s in range(200) if any(p.for_coalescing for st in run_to("analyse", pretty(generate(s)),
                                                                             f"s{s}.fut").streams
                                          for p in st.inputs)]
    assert len(staged) >= 2, staged


def test_the_generator_makes_chunks_of_rows_and_rows_read_whole_that_are_staged():
    """Streams whose chunks are rows (k-means' centres) and loops over a
    thread's own row by element: some of each have a literal length, so the
    GPU fuzzer runs their staging (row chunks at seeds 4, 23, 26, ...; rows
    read whole at 0, 54 and 145 of the first 150, each spelled by index,
    `M[i, f]`, and made a map's row by the kernel stage)."""
    from tiler.pipeline import run_to

    chunks, slabs, by_index = [], [], []
    for s in range(150):
        a = run_to("analyse", pretty(generate(s)), f"s{s}.fut")
        if any(p.staged and p.element > 1 for st in a.streams for p in st.inputs):
            chunks.append(s)
        staged = [r for r in a.schedule.slabs if r.staged]
        slabs += [s] * bool(staged)
        by_index += [s] * any("[" in r.name for r in staged)
    assert len(chunks) >= 3 and len(slabs) >= 1 and len(by_index) >= 1, (chunks, slabs, by_index)


def test_the_generator_makes_prefix_folds_and_chains_that_are_scanned():
    """Some random programs fold up to the point's position, so the GPU
    fuzzer runs the scans (analyse/scans.py): plain ones, and chains of two
    values along rows (seeds 2, 16 and 76 of the first 100) and down
    columns (seed 36)."""
    from tiler.analyse.scans import Scan
    from tiler.pipeline import run_to

    plain, chains, columns = [], [], []
    for s in range(100):
        a = run_to("analyse", pretty(generate(s)), f"s{s}.fut")
        if not isinstance(a.plan.scan, Scan):
            continue
        chained = any(loop.depth > 1 for loop in a.plan.scan.loops)
        (chains if chained else plain).append(s)
        columns += [s] * (chained and a.plan.scan.columns(a.kernel))
    assert len(plain) >= 3 and len(chains) >= 2 and columns, (plain, chains, columns)


def test_the_generator_makes_3d_stars_that_are_marched():
    """Some random programs of three levels read a 3-D star around the
    point (clamped or guarded), so the GPU fuzzer runs the march
    (analyse/march.py); among seeds 3200-3499, seeds 3210 and 3423 read the
    star's array with the row threadIdx.x walks and another dimension's
    index last, which once raised in transposes.py."""
    from tiler.pipeline import run_to

    stars, marched = [], []
    for s in range(3200, 3500):
        text = pretty(generate(s))
        if "ss" not in text or " S" not in text:
            continue
        a = run_to("analyse", text, f"s{s}.fut")
        if a.plan.march is None:
            continue
        stars.append(s)
        marched += [s] * (a.plan.march.march is not None)
    assert len(stars) >= 3 and len(marched) >= 2, (stars, marched)


def test_a_marched_program_is_also_checked_where_march_blocks_lie_inside():
    """The drawn sizes (below 70) never hold a march block inside along x,
    so a march version is checked again with the march's axes 20, 36 and 150
    (its body for the steps inside runs there); other versions once. A
    stand-in GPU that answers the interpreter's outputs records the sizes."""
    from tiler.fuzz.properties import INSIDE_SIZES, check_program, expected, inside_expected, mismatch

    found, c = check_program(generate(3288), 3288)
    assert not found and c.marched is not None
    c = dataclasses.replace(c, expected=expected(c), inside=inside_expected(c))
    (sizes, *_), (big, *_) = c.expected, c.inside
    levels = {lv.dim: lv.size.name for lv in c.program.kernel.levels}
    assert [big[levels[d]] for d in c.marched] == list(INSIDE_SIZES) and max(sizes.values()) < 70

    class Interpreter:
        runs: list = []

        def run(self, kernel, cuda, inputs, at):
            self.runs.append((kernel.name, at))
            want = c.expected[2] if at == c.expected[0] else c.inside[2]
            return want, None

    gpu = Interpreter()
    for m, cuda in c.kernels.values():
        for kernel in m.kernels:
            assert mismatch(gpu, kernel, cuda, c, 1e-3) == ""
    marches = [at for name, at in gpu.runs if name.endswith("_march")]
    assert len(marches) == 2 and marches[1] == big
    assert all(at == sizes for name, at in gpu.runs if not name.endswith("_march"))


def test_the_shrinker_keeps_the_failure_and_makes_the_program_smaller():
    tree = generate(3)

    def fails(t):
        return "streamSeq" in pretty(t)

    small = shrink(tree, fails)
    assert fails(small) and len(pretty(small)) < len(pretty(tree))


def test_mutants_are_accepted_or_rejected_with_a_location():
    text = pretty(generate(11))
    for m in range(30):
        kind, broken = mutate(text, m)
        assert check_mutant(broken, 11) is None, kind


def test_a_traceback_on_a_mutant_is_a_failure(monkeypatch):
    from tiler.fuzz import properties

    def broken(*args, **kwargs):
        raise KeyError("planted")

    monkeypatch.setattr(properties, "run_all", broken)
    found = check_mutant("fun f32 main(f32 x) = x", 1)
    assert isinstance(found, Failure) and "KeyError" in found.message


def test_close_compares_within_the_outputs_scale():
    a = np.array([1.0, 2.0, np.inf], dtype=np.float32)
    assert close((a,), (a.copy(),)) == ""
    assert "differs" in close((a + np.float32([0, 1, 0]),), (a,))


def test_an_element_whose_float32_evaluation_overflows_on_the_way_has_no_float32_value():
    """Seed 671703: every kernel, untiled too, gave inf where float64 ends at
    1.6e38 (a sum of squares past float32's range, scaled by 0.25); float32
    evaluation overflows there as the kernels did, so any value is accepted,
    and only there."""
    from tiler.check import check
    from tiler.syntax import parse

    prog = check(parse("fun [f32, n] main([f32, n] xs) = map(fn f32 (f32 x) => x * x * 0.25f32, xs)\n", "o.fut"))
    xs = np.array([2.0e19, 3.0e18], np.float32)
    (want,), (slack,) = reference(prog, {"xs": xs, "n": 2}, 1)
    assert np.isposinf(want[0]) and slack[0] == np.inf  # float32's own value, uncompared
    assert np.isfinite(slack[1])
    assert close((np.array([np.inf, 2.25e36], np.float32),), (want,), slack=(slack,)) == ""
    assert close((np.array([np.inf, 3.0e36], np.float32),), (want,), slack=(slack,)) != ""
    # inf - inf: float32 ends at nan, which the kernel may give too
    prog = check(parse("fun [f32, n] main([f32, n] xs) = map(fn f32 (f32 x) => x * x - x * x * 0.5f32, xs)\n",
                       "n.fut"))
    (want,), (slack,) = reference(prog, {"xs": np.array([2.0e19], np.float32), "n": 1}, 1)
    assert close((np.array([np.nan], np.float32),), (want,), slack=(slack,)) == ""
    # a value float64 takes past float32's range: float32's infinity is the reference, compared
    prog = check(parse("fun [f32, n] main([f32, n] xs) = map(fn f32 (f32 x) => x * x, xs)\n", "p.fut"))
    (want,), (slack,) = reference(prog, {"xs": np.array([1.0e20, 3.0], np.float32), "n": 2}, 1)
    assert np.isposinf(want[0]) and np.isfinite(slack[0])
    assert close((np.array([np.inf, 9.0], np.float32),), (want,), slack=(slack,)) == ""
    for wrong in (0.0, -np.inf):
        assert close((np.array([wrong, 9.0], np.float32),), (want,), slack=(slack,)) != ""
    # at the range's edge, rounded once (nvcc's multiply-add) it overflows and twice it does not: either is right
    prog = check(parse("fun [f32, n] main([f32, n] x, [f32, n] y, [f32, n] z) = map(fn f32 (f32 a, f32 b, f32 c) => "
                       "a * b + c, x, y, z)\n", "e.fut"))
    edge = {"x": np.array([2.6848176e19], np.float32), "y": np.array([1.2674319e19], np.float32),
            "z": np.array([8e30], np.float32), "n": 1}
    (want,), (slack,) = reference(prog, edge, 1)
    for got in (np.inf, np.finfo(np.float32).max):
        assert close((np.array([got], np.float32),), (want,), slack=(slack,)) == ""


def test_an_element_whose_float32_rounding_is_lost_is_left_uncompared(monkeypatch):
    """Seed 725898: sin of a sum of 1.78e8 (its size from a constant, which no
    input nudge moves) has no float32 value. Its float32 runs and nudged
    float64 runs agreed within 0.07 by chance, so it was compared (and every
    kernel failed); runs that also round every f32 operation at random
    (jitter) move it by up to 1.6, so it is not; so does a float32 run from
    nudged inputs, whose rounding of the sum moves as a split kernel's other
    order of it does. (Nearly every element of this output is such a sine;
    the second output, a constant, is compared.)"""
    import tiler.fuzz.properties as props
    from tiler.check import check
    from tiler.fuzz.properties import sizes_for
    from tiler.interp import run
    from tiler.syntax import parse
    from tiler.workload import make_inputs

    path = PROGRAMS / "regress" / "fuzz725898.fut"
    prog = check(parse(path.read_text(), path.name))
    inputs = make_inputs(prog, sizes_for(prog, 725898), None, 725898)
    (want, _), (slack, ones) = reference(prog, inputs, 725898)
    assert slack[44, 14] == np.inf and abs(want[44, 14] - 14.8604) < 1e-3
    assert np.isfinite(ones).all()
    jittered = [run(prog, inputs, seed=s, wide=True, jitter=True)[0][44, 14] for s in (1, 2)]
    assert max(abs(j - want[44, 14]) for j in jittered) > 0.15 and all(abs(j - want[44, 14]) <= 2 for j in jittered)
    monkeypatch.setattr(props, "run", lambda *a, jitter=False, **k: run(*a, **k))  # the oracle without jitter
    assert not np.isfinite(reference(prog, inputs, 725898)[1][0][44, 14])  # the nudged float32 run sees it too


@pytest.mark.parametrize("second", ["x * 0.3f32", "max(a, -2f32)", "abs(a) * (if a < 0f32 then -1f32 else 1f32)",
                                    "a + 0f32", "a * 1f32", "0f32 - (0f32 - a)"])
def test_the_jitter_keeps_equal_values_equal(second):
    """float32 computes the same value the same way every time, and gives an
    operand back exactly (max, abs, a + 0, 0 - a): `a` and `b` tie, and the
    program gives 0 everywhere. The jitter moves an inexact value by a share
    drawn from the value itself, and leaves a result that is an operand (or
    its negation) as it is, so the tie holds and every element is compared (a
    fresh random share at each evaluation left 884 of 1000 uncompared, and a
    share for max(a, -2) of its own 880)."""
    from tiler.check import check
    from tiler.syntax import parse

    prog = check(parse(f"fun [f32, n] main([f32, n] xs) = map(fn f32 (f32 x) => let a = x * 0.3f32 in "
                       f"let b = {second} in if a < b then 1f32 else if b < a then 2f32 else 0f32, xs)\n", "t.fut"))
    xs = np.random.default_rng(0).uniform(-1, 1, 1000).astype(np.float32)
    (want,), (slack,) = reference(prog, {"xs": xs, "n": 1000}, 3)
    assert np.isfinite(slack).all() and not want.any()
    assert close((np.full(1000, 5, np.float32),), (want,), slack=(slack,)) != ""


def test_the_command_prints_the_summary_line():
    result = tiler("fuzz", "3", "--seed", "5", "--no-nvcc", "--mutations", "1", "--out", "/tmp/tiler-fuzz-test")
    assert result.returncode == 0 and result.stdout.strip().splitlines()[-1] == "3 programs, 0 failures"


def test_a_planted_failure_makes_the_command_fail(monkeypatch, tmp_path):
    from click.testing import CliRunner

    import tiler.fuzz as fz
    from tiler import cli

    monkeypatch.setattr(fz, "fuzz", lambda *a, **k: [Failure(1, "gpu", "planted", "fun f32 main(f32 x) = x")])
    result = CliRunner().invoke(cli.main, ["fuzz", "1", "--out", str(tmp_path)])
    assert result.exit_code == 1 and "1 programs, 1 failures" in result.output


def test_failures_are_kept_with_their_reason(tmp_path):
    from tiler.fuzz import save

    save([Failure(4, "interp", "chunks of 3 differ", "fun f32 main(f32 x) = x\n")], tmp_path)
    (kept,) = tmp_path.glob("*.fut")
    assert kept.read_text().startswith("-- fuzz failure, seed 4, stage interp: chunks of 3 differ")


def test_trees_are_the_parsers_own():
    # the generator writes negative numbers as negations, as the parser reads them
    assert "FloatLit(value=-" not in repr(generate(2)) and isinstance(generate(2), ast.Program)


def test_one_seed_in_four_is_compiled_under_fast_math_and_checked_within_its_tolerance():
    from tiler.fuzz.properties import RTOL, tolerance, variants
    from tiler.workload.checks import FAST_MATH_TOLERANCE

    fast = [s for s in range(8) if variants(s)["tiled"].fast_math]
    assert fast == [2, 6] and not any(v.fast_math for s in range(8) for v in [variants(s)["untiled"]])
    assert tolerance(2, "tiled") == FAST_MATH_TOLERANCE and tolerance(2, "untiled") == tolerance(3, "tiled") == RTOL


def test_one_seed_in_seven_compiles_its_tiled_kernel_knowing_its_sizes():
    """As `tiler bench` compiles (`-s`): in turn the check's own sizes,
    larger, smaller and multiples of 8, each kind on odd and even seeds (the
    interior blocks go by parity), since a kernel compiled knowing some
    sizes must still run at any; the untiled kernel never knows them."""
    from tiler.check import check
    from tiler.fuzz.products import product
    from tiler.fuzz.properties import HINTED, check_program, hints, sizes_for, variants
    from tiler.pipeline import run_all
    from tiler.syntax import pretty

    prog = check(product(10))
    sizes = sizes_for(prog, 10, large=True)
    own = {n: v for n, v in sizes.items() if n in {b.name for b in prog.kernel.sizes}}
    hinted = [seed for seed in range(200) if hints(prog, seed, sizes)]
    assert hinted == list(range(3, 200, HINTED))
    kinds = [hints(prog, seed, sizes) for seed in hinted]
    assert kinds[0] == kinds[1] == own != {} and kinds[2] == {n: 2 * v + 3 for n, v in own.items()}
    assert kinds[4] == {n: max(1, v // 2) for n, v in own.items()} and all(v % 8 == 0 for v in kinds[6].values())
    for k in range(4):  # (each kind on an odd and an even seed: one with interior blocks, one without)
        assert {variants(s)["tiled"].interior for s in hinted[2 * k:2 * k + 2]} == {True, False}
    _, compiled = check_program(product(10), 10, large=True)
    text = pretty(product(10))
    unknown = run_all(text, "fuzz10.fut", variants(10)["tiled"])["render"]
    assert compiled.kernels["tiled"][1] != unknown  # (a block fitted to the sizes, no loop over grid y)
    assert compiled.kernels["untiled"][1] == run_all(text, "fuzz10.fut", variants(10)["untiled"])["render"]


class _FakeGpu:
    """Times a launch by its sizes' product (the untiled kernel) or a
    multiple of it (the default), for perf.py's logic without a GPU."""

    sm_count, max_shared_optin = 132, 232448
    described = target.Device("a fake GPU", multiprocessors=132, shared_optin=232448)

    def __init__(self, default_factor: float, ms_per_point: float = 1e-6, outputs=None, fail: str = ""):
        self.factor, self.per_point, self.launches = default_factor, ms_per_point, []
        self.outputs, self.fail = outputs, fail  # what a checked launch returns; a launch error to raise

    def prepare(self, sources):
        pass

    def upload(self, inputs, program=None):
        class Up:
            def free(self):
                pass
        return Up()

    def run(self, module, cuda, inputs, sizes, repeat=0, device=None):
        points = 1
        for v in sizes.values():
            points *= v
        self.launches.append(dict(sizes))
        if self.fail:
            raise RuntimeError(self.fail)
        kernels = getattr(module, "kernels", (module,))
        tiled = any(k.tiled for k in kernels)  # a default module (tiled or split versions), or the untiled kernel
        ms = points * self.per_point * (self.factor if tiled else 1.0)
        return self.outputs, [ms] * max(repeat, 1)

    def ran(self, module, cuda, sizes, inputs=None):  # no race: the version the conditions pick
        return module.select(sizes, self.sm_count)


@functools.lru_cache(maxsize=None)  # (each perf test starts from the same program: compiled once)
def _compiled(seed: int):
    from tiler.fuzz.properties import check_program

    for s in range(seed, seed + 50):  # the first program with a tiled kernel
        _, comp = check_program(generate(s), s)
        if comp and any("untiled" not in k.name for k in comp.kernels["tiled"][0].kernels):
            return comp
    raise AssertionError("no tiled program")


def _right(comp):
    from tiler.fuzz.properties import expected

    return expected(comp)[2]  # the interpreter's outputs: every checked launch agrees


def test_perf_grows_the_sizes_to_real_work_and_fails_a_slower_default():
    from tiler.fuzz import perf

    comp = _compiled(5)
    gpu = _FakeGpu(default_factor=1.5, outputs=_right(comp))
    failures, timings = perf.perf([comp], gpu, failed=set())
    (t,) = timings
    doubled = {k: 2 * v for k, v in t.sizes.items()}  # where it stopped: work enough, or the next would not fit
    assert t.untiled_ms >= perf.WORK_MS or input_bytes(comp.program, doubled) > perf.MAX_BYTES
    assert t.loses and [f.stage for f in failures] == ["perf"] and "x0.67" in failures[0].message
    first, model = perf.summary(timings).splitlines()
    assert first.endswith("1 more than 10% slower") and model.endswith("1 more than 10% slower")


def test_perf_passes_a_default_as_fast_and_skips_programs_that_already_failed():
    from tiler.fuzz import perf

    comp = _compiled(5)
    failures, timings = perf.perf([comp], _FakeGpu(default_factor=1.0, outputs=_right(comp)), failed=set())
    assert failures == [] and len(timings) == 1 and not timings[0].loses
    assert perf.perf([comp], _FakeGpu(default_factor=3.0), failed={comp.seed}) == ([], [])


def test_perf_reports_a_wrong_default_and_a_failed_launch_and_goes_on():
    import numpy as np

    from tiler.fuzz import perf

    comp = _compiled(5)
    wrong = tuple(-np.asarray(o) - 1.0 for o in _right(comp))  # (wrong whatever their scale: a minimum's 1e30 too)
    failures, timings = perf.perf([comp], _FakeGpu(default_factor=1.0, outputs=wrong), failed=set())
    assert [f.stage for f in failures] == ["gpu"] and "compiled for this GPU" in failures[0].message and not timings
    failures, timings = perf.perf([comp], _FakeGpu(1.0, fail="illegal memory access"), failed=set())
    assert [f.stage for f in failures] == ["perf"] and "illegal memory access" in failures[0].message


def test_perf_needs_the_gpu_flag():
    r = tiler("fuzz", "2", "--perf")
    assert r.returncode == 1 and "--perf times kernels on the GPU" in r.stderr and "add --gpu" in r.stderr


def test_failures_are_said_as_they_are_found(monkeypatch):
    """A long run cut short (a time limit, Ctrl-C) still reports: each
    failure is said when it is found, and each phase when it ends."""
    import tiler.fuzz as fuzz_module

    monkeypatch.setattr(fuzz_module, "check_program",
                        lambda tree, s, large=False, device=None: ([Failure(s, "check", "planted\nmore", "text")] if s == 5 else [], None))
    monkeypatch.setattr(fuzz_module, "_shrunk", lambda f, tree, large=False, device=None: f)
    lines = []
    failures = fuzz(3, seed=4, mutations=0, nvcc=False, workers=1, say=lines.append)
    assert [f.seed for f in failures] == [5]
    assert lines[0] == "seed 5: check: planted" and len(lines) == 2
    assert re.fullmatch(r"3 programs checked on the CPU: 1 failures \(\d+ s\)", lines[1])


def test_prepared_yields_each_source_as_nvcc_finishes_it(monkeypatch):
    """The GPU check runs a batch as soon as it is built (Gpu.prepared): a
    slow batch holds up no other, and a run cut short has reported the
    batches it ran. Without a GPU: a stand-in driver, nvcc timed by hand."""
    import contextlib
    import threading

    import tiler.runtime.nvcc as nvcc
    from tiler.runtime import Gpu

    slow_may_finish = threading.Event()

    def built(cuda, arch, timeout=300):
        if cuda == "slow":
            assert slow_may_finish.wait(10)
        return None if cuda == "refused" else cuda.encode()

    monkeypatch.setattr(nvcc, "cubin", built)
    gpu = object.__new__(Gpu)
    gpu.arch, gpu._modules = "sm_90", {}
    gpu.drv = type("Driver", (), {"get_version": staticmethod(lambda: (13, 0)),
                                  "module_from_buffer": staticmethod(lambda image: f"module {image.decode()}")})
    gpu.active = contextlib.nullcontext
    order = []
    for source in gpu.prepared(["slow", "quick", "refused", "given"], workers=4, images={"given": b"given"}):
        order.append(source)
        if len(order) == 3:  # everything but the slow one has run by now
            slow_may_finish.set()
    assert order[-1] == "slow" and sorted(order) == ["given", "quick", "refused", "slow"]
    assert sorted(gpu._modules.values()) == ["module given", "module quick", "module slow"]
    assert list(gpu.prepared(["quick"])) == ["quick"]  # loaded already: no nvcc


def test_a_batch_nvcc_does_not_build_is_checked_program_by_program(monkeypatch):
    """Where nvcc refuses a batch, or runs past its time on it (a campaign's
    batch once took more than 300 s), each version of each program is built
    on its own: the one nvcc cannot build is a failure of that program, and
    every other version still runs (the run goes on, nothing crashes)."""
    import tiler.fuzz as fuzz_module
    import tiler.runtime as runtime
    import tiler.runtime.nvcc as nvcc
    from tiler.fuzz.properties import check_program

    compiled = [check_program(generate(s), s)[1] for s in (1, 2)]
    slow = compiled[0].kernels["tiled"][1]

    class NothingLoads:
        arch = "sm_90"
        prepared_now: list = []

        def prepared(self, sources, images=None):
            yield from sources

        def loaded(self, cuda):
            return False

        def prepare(self, sources, images=None):
            self.prepared_now += sources

    gpu = NothingLoads()
    monkeypatch.setattr(runtime.Gpu, "get", staticmethod(lambda: gpu))
    monkeypatch.setattr(nvcc, "built", lambda cuda, arch, timeout: (
        ("nvcc did not finish within 300 s (stopped)", None) if cuda == slow else ("", b"cubin")))
    launched = []
    monkeypatch.setattr(fuzz_module, "mismatch", lambda g, kernel, cuda, c, rtol: launched.append(kernel.name) or "")
    lines = []
    failures = fuzz_module.gpu_batches(compiled, say=lines.append)
    assert [(f.seed, f.stage, f.message) for f in failures] == [(1, "nvcc", "tiled: nvcc did not finish within 300 s "
                                                                            "(stopped)")]
    others = [(c, v) for c in compiled for v in c.kernels if (c.seed, v) != (1, "tiled")]
    assert sorted(launched) == sorted(k.name for c, v in others for k in c.kernels[v][0].kernels)
    assert sorted(gpu.prepared_now) == sorted(c.kernels[v][1] for c, v in others)
    assert "seed 1: nvcc: tiled: nvcc did not finish within 300 s (stopped)" in lines
    assert sorted(line for line in lines if line.startswith("GPU batch")) == [
        "GPU batch 1 of 2 (1 programs): 0 failures", "GPU batch 2 of 2 (1 programs): 1 failures"]


def test_nvcc_past_its_time_is_a_refusal_and_stops_what_it_started(monkeypatch, tmp_path):
    """nvcc past its time is reported like a refusal (not an exception that
    ends the run), and the processes it started (cicc, ptxas) stop with it:
    here a stand-in nvcc whose child would sleep on."""
    import subprocess
    import time

    import tiler.runtime.nvcc as nvcc

    marker = f"{31 + time.time() % 1:.6f}"  # a sleep no other process runs
    fake = tmp_path / "nvcc"
    fake.write_text(f"#!/bin/sh\nsleep {marker} &\nwait\n")
    fake.chmod(0o755)
    monkeypatch.setattr(nvcc, "nvcc_path", lambda: str(fake))
    assert nvcc.built("__global__ void k() {}", "sm_90", timeout=1) == ("nvcc did not finish within 1 s (stopped)",
                                                                        None)
    time.sleep(0.2)
    assert subprocess.run(["pgrep", "-f", f"sleep {marker}"], capture_output=True).returncode == 1  # none left


def test_the_generator_writes_a_count_beside_a_minimum_each_by_its_own_if():
    """A loop carrying a minimum and a count whose `if` gives the count
    alone (seed 170 of the first 400): a reduction by min and +."""
    from tiler.analyse.folds import Operator, operators
    from tiler.check import check
    from tiler.check import typed as T
    from tiler.syntax import parse
    from tiler.tree import descendants

    text = pretty(generate(170))
    assert re.search(r"\(min\(lo\d+, y\d+\), if y\d+ < 0\.25f32", re.sub(r"\s+", " ", text)), text
    k = check(parse(text, "s170.fut")).kernel  # (before the kernel stage, which hoists this loop out of the map)
    roots = (k.body, *(v for lv in k.levels for _, v in lv.lets))
    ops = [operators(n) for root in roots for n in descendants(root, T.is_exp) if isinstance(n, T.Loop)]
    assert (Operator.MIN, Operator.ADD) in ops, ops


def test_on_the_gpu_check_every_other_cycle_of_seeds_is_planned_for_the_gpus_own_architecture():
    """With --gpu, seeds are planned for the GPU's own description (an H100's
    or H200's sm_90a: the warp groups, TMA) in alternate whole cycles of the
    size hints, so that every kind of hint meets odd and even seeds under
    both; without a GPU, sm_90's; and a large hint on sm_90a gives some
    products TMA copies."""
    from tiler import kir, target
    from tiler.fuzz.products import product
    from tiler.fuzz.properties import HINT_KINDS, HINTED, check_program, planned_for

    own = target.device_for_arch("sm_90a")
    cycle = 2 * HINTED * len(HINT_KINDS)
    seen = {(s // (2 * HINTED) % len(HINT_KINDS), s % 2, planned_for(s, own).arch)
            for s in range(4 * cycle) if s % HINTED == 3}
    assert len(seen) == len(HINT_KINDS) * 2 * 2
    assert {planned_for(s, None) for s in range(2 * cycle)} == {target.DEFAULT_DEVICE}
    large = [s for s in range(3, 3 + 6 * cycle, HINTED)
             if s // (2 * HINTED) % len(HINT_KINDS) == len(HINT_KINDS) - 1 and planned_for(s, own) is own][:4]
    copied = []
    for s in large:
        _, comp = check_program(product(s), s, large=True, device=own)
        copied += [s for m, _ in comp.kernels.values() for k in m.kernels if any(p.role == kir.TENSOR_MAP
                                                                                 for p in k.params)]
    assert copied, "no large hint's product is copied by TMA"
