"""What every generated program must satisfy, and what every mutated one must.

`check_program(tree, seed)` returns the failures of one generated program:
it prints and re-parses to the same tree, checks, gives the same result in
the interpreter under several chunkings, and compiles, tiled and untiled,
through the kernel-IR verifier (the independent check that every barrier is
reached by the whole block). `check_mutant(text)` accepts a mutated program
or rejects it with a located error; anything else (a traceback, a hang) is a
failure.
"""
from __future__ import annotations

import dataclasses
import signal
from dataclasses import dataclass

import numpy as np

from .. import target
from ..analyse import Options
from ..check import check
from ..compare import compare
from ..errors import CompilerBug, PlainError, UserError
from ..interp import Chunking, RunError, run
from ..kernel import kernel_of
from ..pipeline import run_all
from ..syntax import parse, pretty
from ..workload import make_inputs, resolve_sizes

CHUNKINGS = (Chunking("whole"), Chunking("fixed", size=1), Chunking("fixed", size=3), Chunking("random", seed=5))
VARIANTS = {"untiled": Options(no_tile=True), "tiled": Options()}
RTOL = 1e-3  # a kernel's outputs against the interpreter's, relative to an output's scale


def variants(seed: int) -> dict:
    """VARIANTS, with every other seed's tiled kernels given interior blocks
    (a copy of the body without clamps), one seed in four's compiled under
    --fast-math (approximations, float arithmetic reordered), and one in
    three's with its loops over whole arrays kept as loops (--keep-loops),
    and one in five's with its products on the matrix units
    (--tensor-cores), so that random programs run each."""
    return VARIANTS | {"tiled": Options(interior=seed % 2 == 1, fast_math=seed % 4 == 2,
                                        keep_loops=seed % 3 == 1, tensor_cores=seed % 5 == 4)}


HINTED = 7  # one seed in HINTED compiles its tiled kernel with its sizes known (`-s`), as `tiler bench` does
# what the hinted seeds know, in turn (by seed // 14, so that each kind falls on odd and even seeds alike: the
# interior blocks and --fast-math go by the seed's parity): the check's own sizes (blocks fitted to them, no
# loop over grid y), larger ones, smaller ones, multiples of 8 (vector versions), and large ones (the widest
# tiles: the warp groups' products, with their tiles copied by TMA), since a kernel compiled knowing some sizes
# must still run at any
HINT_KINDS = (lambda n: n, lambda n: 2 * n + 3, lambda n: max(1, n // 2), lambda n: 8 * (n // 8 + 1), lambda n: 2048)


def hints(prog, seed: int, sizes: dict) -> dict:
    """The sizes a seed's tiled kernel is compiled knowing: none but for one
    seed in HINTED (HINT_KINDS says which)."""
    if seed % HINTED != 3:
        return {}
    kind = HINT_KINDS[seed // (2 * HINTED) % len(HINT_KINDS)]
    return {s.name: kind(sizes[s.name]) for s in prog.kernel.sizes if s.name in sizes}


def planned_for(seed: int, own):
    """The GPU a seed's kernels are planned for: on the GPU check, the GPU's
    own (`own`: on an H100 or H200, sm_90a: the warp groups' instructions,
    and with sizes known TMA copies) for every other run of a whole cycle of
    HINT_KINDS' seeds, so that each kind of hint meets odd and even seeds on
    both; else the default sm_90's."""
    return own if own is not None and seed // (2 * HINTED * len(HINT_KINDS)) % 2 else target.DEFAULT_DEVICE


def tolerance(seed: int, variant: str) -> float:
    """How far a variant's outputs may stray, relative to an output's scale
    (beyond the rounding noise of the reference)."""
    from ..workload.checks import FAST_MATH_TOLERANCE, TENSOR_CORES_TOLERANCE

    options = variants(seed)[variant]
    return max(FAST_MATH_TOLERANCE if options.fast_math else RTOL,
               TENSOR_CORES_TOLERANCE if options.tensor_cores else RTOL)


TIME_BOX_S = 10


@dataclass(frozen=True)
class Failure:
    seed: int
    stage: str  # roundtrip, check, interp, kernel, compile, explain, nvcc, gpu, mutant
    message: str
    text: str


@dataclass(frozen=True)
class Compiled:
    seed: int
    text: str
    program: object  # typed program
    kernels: dict  # variant -> (kir.Kernel, cuda)
    expected: tuple | None = None  # (sizes, inputs, want, noise) for the GPU check, computed with the rest
    timed: dict | None = None  # perf.builds for --perf, computed with the rest
    # (sizes, inputs, the interpreter's outputs under each of CHUNKINGS): the check's runs, which the
    # reference would make again; dropped once `expected` is computed
    chunked: tuple | None = None
    large: bool = False  # sizes_for's: some sizes past a block's tile
    marched: tuple | None = None  # the dims of the tiled kernels' march version (marched, rows, columns), if any
    inside: tuple | None = None  # as `expected`, at sizes where some march blocks lie inside every edge


def mismatch(gpu, kernel, cuda: str, c: Compiled, rtol: float) -> str:
    """'' where one version agrees with the interpreter at the GPU check's
    sizes (or does not run there: a version with vector copies runs only
    where the launch keeps them aligned), else what differs."""
    checks = [expected(c)] + ([c.inside] if c.inside is not None and kernel.name.endswith(MARCH_SUFFIX) else [])
    for sizes, inputs, want, noise in checks:
        if not kernel.runs_at(sizes):
            continue
        got, _ = gpu.run(kernel, cuda, inputs, sizes)
        bad = close(got, want, rtol, slack=noise)
        if bad:
            return f"{kernel.name} at {sizes}: {bad}"
    return ""


# the march's axes at the inside check: the drawn sizes (below 70) never hold a block of 64 columns and its halo
# inside along x, so the body for the steps inside (analyse/inside.py) runs only at sizes like these
INSIDE_SIZES = (20, 36, 150)
MARCH_SUFFIX = "_march"


def inside_expected(c: Compiled) -> tuple:
    """`expected` at the drawn sizes with the march's axes given INSIDE_SIZES."""
    given = sizes_for(c.program, c.seed)
    for dim, n in zip(c.marched, INSIDE_SIZES):
        size = next(lv.size for lv in c.program.kernel.levels if lv.dim == dim)
        if not isinstance(size, int):
            given[size.name] = n
    sizes = resolve_sizes(c.program, given, None)
    inputs = make_inputs(c.program, sizes, None, c.seed)
    return (sizes, inputs, *reference(c.program, inputs, c.seed))


def expected(c: Compiled) -> tuple:
    """The GPU check's sizes, inputs, and the interpreter's outputs with their noise (reference)."""
    if c.expected is not None:
        return c.expected
    if c.chunked is not None:
        sizes, inputs, runs = c.chunked
        return (sizes, inputs, *reference(c.program, inputs, c.seed, runs))
    sizes = sizes_for(c.program, c.seed, c.large)
    inputs = make_inputs(c.program, sizes, None, c.seed)
    return (sizes, inputs, *reference(c.program, inputs, c.seed))


def check_program(tree, seed: int, large: bool = False, device=None):
    """(failures, Compiled or None); `large`: sizes as sizes_for's; `device`:
    the GPU planned for (the default sm_90's where None)."""
    text = pretty(tree)
    try:
        again = parse(text, f"fuzz{seed}.fut")
    except UserError as exc:
        return [Failure(seed, "roundtrip", f"printed program does not parse: {exc.render()}", text)], None
    if again != tree:
        return [Failure(seed, "roundtrip", "printed program parses to another tree", text)], None
    try:
        prog = check(again)
    except UserError as exc:
        return [Failure(seed, "check", exc.diagnostics[0].message, text)], None
    failures, chunked = _interp(prog, seed, text, large)
    kernels, marched = {}, None
    known = hints(prog, seed, chunked[0]) if chunked is not None else {}
    for variant, options in variants(seed).items():
        if variant != "untiled" and known:
            options = dataclasses.replace(options, sizes=tuple(sorted(known.items())))
        try:
            values = run_all(text, f"fuzz{seed}.fut", options, device=device or target.DEFAULT_DEVICE)
            kernels[variant] = (values["verify"], values["render"])
            if any(v.kernel.name.endswith(MARCH_SUFFIX) for v in values["verify"].versions):
                marched = values["analyse"].plan.march.march.dims
        except (CompilerBug, UserError, PlainError) as exc:
            failures.append(Failure(seed, "compile", f"{variant}: {exc}", text))
            continue
        failures += _transformed(seed, text, values) + _fissioned(prog, values["versions"], seed, text, chunked) \
            + _joined(prog, values["analyse"], seed, text, chunked)
    if len(kernels) < len(VARIANTS):
        return failures, None
    return failures, Compiled(seed, text, prog, kernels, chunked=chunked, large=large, marched=marched)


def _transformed(seed: int, text: str, values: dict) -> list[Failure]:
    """`explain --show-transformed` draws every plan, register-tiled or not,
    and `--show-rewrites` shows its rewrites, without failing."""
    from ..pipeline import shown_synchronous
    from ..report.rewrites import show_rewrites
    from ..report.transformed import show_transformed

    for flag, show in (("--show-transformed", lambda: show_transformed(values["parse"], values["analyse"],
                                                                      shown_synchronous(values),
                                                                      values["versions"].fission)),
                       ("--show-rewrites", lambda: show_rewrites(values["verify"],
                                                                    values["analyse"].block.register is not None))):
        try:
            show()
        except Exception as exc:  # noqa: BLE001 - any failure of the drawing is the finding
            return [Failure(seed, "explain", f"{flag}: {type(exc).__name__}: {exc}", text)]
    return []


def _joined(prog, analysis, seed: int, text: str, chunked: tuple | None) -> list[Failure]:
    """Where the schedule joins a loop's rows, the rewritten program (one
    stream over the rows laid end to end) computes what the source does in
    the interpreter, its chunks of 3 and random ones crossing the rows'
    borders as the kernel's do."""
    from ..transform.join_rows import join_rows

    kernel, _, joined = join_rows(analysis.kernel, analysis.schedule)
    if not joined or chunked is None:
        return []
    _, inputs, runs = chunked
    program = dataclasses.replace(prog, kernel=kernel)
    try:
        bad = close(run(program, inputs, CHUNKINGS[2], seed), runs[2]) \
            or close(run(program, inputs, CHUNKINGS[3], seed), runs[3])
    except Exception as exc:  # noqa: BLE001 - any failure of the rewrite or the interpreter is the finding
        bad = f"{type(exc).__name__}: {exc}"
    return [Failure(seed, "kernel", f"the program with its rows joined differs from the source's: {bad}", text)] \
        if bad else []


def _fissioned(prog, versions, seed: int, text: str, chunked: tuple | None) -> list[Failure]:
    """A fissioned fold's two programs (the pairs' values, then the fold
    reading them) compute what the source does, in the interpreter."""
    from ..check import typed as T
    from ..versions import FissionPlan

    plan = versions.fission
    if not isinstance(plan, FissionPlan):
        return []
    if chunked is None:
        return []  # (the interpreter failed on the source: reported as such)
    _, inputs, runs = chunked
    try:
        want = runs[0]
        (values,) = run(T.Program(prog.file, plan.values.kernel, {}), inputs, CHUNKINGS[0], seed)
        got = run(T.Program(prog.file, plan.fold.kernel, {}), {**inputs, plan.fission.scratch: values},
                  CHUNKINGS[0], seed)
        bad = close(got, want)
    except Exception as exc:  # noqa: BLE001 - any failure of the programs or the interpreter is the finding
        bad = f"{type(exc).__name__}: {exc}"
    return [Failure(seed, "kernel", f"the fissioned programs differ from the source's: {bad}", text)] if bad else []


SMALL, LARGE = 70, 300  # sizes are drawn below SMALL, and with `large` each half the time from SMALL to LARGE


def sizes_for(prog, seed: int, large: bool = False) -> dict:
    """Small random sizes, often not multiples of a tile; `large`: each
    size, half the time, past a block's tile of 128 points and a 16-bit
    chunk of 64 (the matrix units' products: --products), so that outputs
    span several blocks and streams several full chunks."""
    rng = np.random.default_rng(seed)

    def size() -> int:
        return int(rng.integers(SMALL, LARGE)) if large and rng.random() < 0.5 else int(rng.integers(1, SMALL))
    return resolve_sizes(prog, {s.name: size() for s in prog.kernel.sizes}, None)


def _interp(prog, seed: int, text: str, large: bool = False) -> tuple[list[Failure], tuple | None]:
    """The failures of the interpreter's checks, and (sizes, inputs, its
    outputs under each chunking) where it ran."""
    sizes = sizes_for(prog, seed, large)
    inputs = make_inputs(prog, sizes, None, seed)
    try:
        results = [run(prog, inputs, c, seed) for c in CHUNKINGS]
    except UserError as exc:
        return [Failure(seed, "interp", f"the interpreter reports {exc.diagnostics[0].message}", text)], None
    first = results[0]
    for chunking, outs in zip(CHUNKINGS[1:], results[1:]):
        bad = close(outs, first)
        if bad:
            return [Failure(seed, "interp", f"chunks of {chunking} differ from one chunk: {bad}", text)], None
    return _kernel_stage(prog, inputs, results, seed, text), (sizes, inputs, tuple(results))


def _kernel_stage(prog, inputs: dict, results: list, seed: int, text: str) -> list[Failure]:
    """The kernel stage's program (helpers inlined, reads promoted, loops
    read as streams, own rows made map rows) computes what the source does
    (`results`: the source's, under each of CHUNKINGS): the interpreter runs
    it too."""
    try:
        kernel = dataclasses.replace(prog, kernel=kernel_of(prog, promote=True, loops=True))
        bad = close(run(kernel, inputs, CHUNKINGS[0], seed), results[0])
        if not bad:  # chunks that start past 0 too: a stream's offset in the rewritten loops
            bad = close(run(kernel, inputs, CHUNKINGS[2], seed), results[2])
    except UserError as exc:
        bad = f"the interpreter reports {exc.diagnostics[0].message}"
    except Exception as exc:  # noqa: BLE001 - any failure of the stage or the interpreter is the finding
        bad = f"{type(exc).__name__}: {exc}"
    return [Failure(seed, "kernel", f"the kernel stage's program differs from the source's: {bad}", text)] if bad \
        else []


def close(got, want, rtol: float = RTOL, slack=None) -> str:
    """'' when the outputs agree (tiler.compare), else what differs."""
    return compare(got, want, rtol, slack).message


NOISE_FACTOR = 2  # a kernel's order of accumulation may stray twice as far as the interpreter's
ILL_CONDITIONED = 0.01  # noise past this share of an element's size: the element is not comparable
FLOOR = 0.01  # an element's size counts as at least this share of its output's scale
PERTURBATIONS, NUDGE = 2, 2.0**-20  # float inputs moved by about a millionth: float32's error after a few operations
F32_MAX = float(np.finfo(np.float32).max)


def _perturbed(inputs: dict, seed: int) -> dict:
    rng = np.random.default_rng(seed)
    out = {}
    for name, v in inputs.items():
        a = np.asarray(v)
        if a.dtype.kind == "f":
            a = (a * (1 + NUDGE * rng.choice((-1.0, 1.0), a.shape))).astype(a.dtype)
        out[name] = a if a.ndim else a[()]
    return out


def reference(prog, inputs: dict, seed: int, chunked: tuple | None = None) -> tuple[tuple, tuple]:
    """The float64 interpreter's outputs, and each element's rounding noise:
    how far evaluation strays from them under the chunkings (orders of
    accumulation) the interpreter tries in float32, in float32 with `a * b + c`
    rounded once (the fused multiply-adds nvcc makes), and in float64 with the
    float inputs nudged by NUDGE and every f32 result float32 would round
    moved by a share of float32's rounding hashed from the value (how much
    the element depends on rounding at all: a `sin` of a sum of 1e8 whose
    float32 runs happen to agree, seed 725898), times NOISE_FACTOR. A kernel is wrong only where it differs by more
    than the tolerance plus that noise. An element whose noise passes
    ILL_CONDITIONED of its own size (at least FLOOR of its output's scale: a
    `sin` of a large sum), or that some evaluation took past float32's range
    on the way where float64's ends in it (seed 671703: a sum of squares of
    1e19, scaled by 0.25), has no meaningful float32 value, so its slack is
    infinite (and the reference there is the first float32 run's: inf, or the
    nan of inf - inf, agrees with it);
    where the float64 value is past float32's range, float32's own result
    (an infinity) is the reference. `chunked`: the float32 outputs under
    CHUNKINGS where the caller ran them already (the check does)."""
    want = list(run(prog, inputs, wide=True))
    runs = list(chunked) if chunked is not None else [run(prog, inputs, chunking, seed) for chunking in CHUNKINGS]
    runs += [run(prog, _perturbed(inputs, seed + n), seed=seed + n, wide=True, jitter=True)
             for n in range(PERTURBATIONS)]
    try:
        runs.append(run(prog, inputs, CHUNKINGS[0], seed, fused=True))  # as nvcc contracts a * b + c
        # float32 from nudged inputs: its rounding of a large sum moves as a kernel's other order of it would
        runs.append(run(prog, _perturbed(inputs, seed + PERTURBATIONS), CHUNKINGS[0], seed))
    except RunError:
        pass  # a value rounded otherwise took a branch to a fault (an index, a division): no sample, no finding
    slack = []
    for n, w in enumerate(want):
        w64 = np.asarray(w, np.float64)
        noise = np.zeros(np.shape(w))
        for outs in runs:
            with np.errstate(invalid="ignore"):
                d = np.abs(np.asarray(outs[n], np.float64) - w64)
            noise = np.maximum(noise, np.where(np.isfinite(d), d, 0.0))
        overflowed = np.zeros(np.shape(w), bool)
        if np.asarray(runs[0][n]).dtype == np.float32:  # float32's own value where it has no other
            overflowed = _overflowed(w64, [np.asarray(outs[n], np.float64) for outs in runs
                                           if np.asarray(outs[n]).dtype == np.float32])
            want[n] = np.where((np.abs(w64) > F32_MAX) | overflowed, runs[0][n], w64)
        scale = max(1.0, float(np.max(np.abs(w64[np.isfinite(w64)]), initial=0.0)))
        # against the element's own size (a sin among large values is lost in their scale), down to a floor
        size = np.maximum(np.abs(np.nan_to_num(w64, nan=0.0, posinf=0.0, neginf=0.0)), FLOOR * scale)
        # an evaluation that passed float32's range on the way (x * x of 2e19, scaled back) has no float32 value
        slack.append(np.where((noise > ILL_CONDITIONED * size) | overflowed, np.inf, NOISE_FACTOR * noise))
    return tuple(want), tuple(slack)


def _overflowed(w64, f32_runs: list):
    """Elements some float32 run takes past float32's range (inf, or nan)
    where float64 ends finite, and that float64 ends within the range or
    another float32 run ends finite: float32 has no one value there. (Where
    float64 ends past the range and every float32 run overflows, float32's
    infinity is the value, and it is compared.)"""
    some = np.zeros(np.shape(w64), bool)
    finite = np.zeros(np.shape(w64), bool)
    for r in f32_runs:
        some |= ~np.isfinite(r)
        finite |= np.isfinite(r)
    return some & np.isfinite(w64) & ((np.abs(w64) <= F32_MAX) | finite)


class Hang(Exception):
    pass


def check_mutant(text: str, seed: int) -> Failure | None:
    """A mutated program is accepted or rejected with a located error."""
    def alarm(*_):
        raise Hang()

    old = signal.signal(signal.SIGALRM, alarm)
    signal.alarm(TIME_BOX_S)
    try:
        run_all(text, "mutant.fut")
    except UserError as exc:
        d = exc.diagnostics[0] if exc.diagnostics else None
        if d is None or d.span.line < 1:
            return Failure(seed, "mutant", f"an error with no location: {exc}", text)
    except Hang:
        return Failure(seed, "mutant", f"no answer within {TIME_BOX_S} s", text)
    except RecursionError:
        pass  # run here without call_deep's room; the command line gives a mutant that room
    except CompilerBug as exc:
        return Failure(seed, "mutant", f"internal compiler error: {exc}", text)
    except Exception as exc:  # noqa: BLE001 - exactly what the property is about
        return Failure(seed, "mutant", f"{type(exc).__name__}: {exc}", text)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    return None
