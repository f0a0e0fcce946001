"""`tiler fuzz --gpu --perf`: random programs timed, the default against untiled.

Each generated program whose kernels passed the GPU check (every version
against the interpreter at small sizes) is compiled as a user would compile
it (no sizes given, the device's SM count and shared memory known) and
untiled. Its sizes are grown to a size with real work: the fuzzer's random
sizes (so that shapes differ: a size of 3 beside one of 60) are scaled
together, doubling, until the untiled kernel takes WORK_MS or the inputs
would pass MAX_BYTES. There both are timed (median of REPEAT launches after a
warm-up). A default more than SLOWER times the untiled time, measured twice,
is a failure: it is shrunk on the GPU (within SHRINK_TRIES smaller programs
that pass the fuzzer's CPU checks) while it still loses, and kept like a
wrong result. The default compiled here (for this GPU's shared memory and
SM count) is first checked against the interpreter like the others; a
launch that fails is a failure, and the run goes on.
"""
from __future__ import annotations

import math
import statistics
from dataclasses import dataclass, replace

import numpy as np

from ..analyse import Options
from ..errors import CompilerBug, PlainError, UserError
from ..pipeline import run_all
from ..syntax import parse, pretty
from ..workload import input_bytes, make_inputs, resolve_sizes
from .properties import RTOL, Compiled, Failure, check_program, expected, mismatch
from .shrink import shrink

WORK_MS = 0.25  # grow the sizes until the untiled kernel takes this long
MAX_BYTES = 1 << 27  # ... or its inputs and outputs would pass this
MAX_DOUBLINGS = 16
# below this neither kernel has work enough to tell them apart: timed, not judged (at 0.02 ms the same untiled
# kernel, launched from two modules, measured 0.76x of itself: seed 5027 on an H200)
MIN_MS = 0.05
SLOWER = 1.10  # a default past this times the untiled time is a failure
REPEAT = 10
SHRINK_TRIES = 12  # smaller programs tried, each compiled and timed, while shrinking one failure
MAX_SHRUNK = 3  # failures shrunk (the others are kept as found)
DEFAULT, UNTILED, MODEL = "default", "untiled", "model"


@dataclass(frozen=True)
class Timing:
    seed: int
    sizes: dict
    untiled_ms: float
    default_ms: float
    version: str  # the default's version the launch ran (a race's winner, where it raced one)
    model_ms: float | None = None  # the cost model's version alone (--no-launch-timing)
    model_version: str = ""

    @property
    def speedup(self) -> float:
        return self.untiled_ms / self.default_ms

    @property
    def judged(self) -> bool:
        return max(self.untiled_ms, self.default_ms) >= MIN_MS

    @property
    def loses(self) -> bool:
        return self.judged and self.default_ms > SLOWER * self.untiled_ms

    @property
    def model_loses(self) -> bool:
        """The cost model's version alone would have been a failure."""
        return self.judged and self.model_ms is not None and self.model_ms > SLOWER * self.untiled_ms


def variants(gpu) -> dict[str, tuple]:
    """Untiled, and the default as a user compiles it for this GPU: (the
    options, the GPU planned for) each. The cost model's choice alone is the
    version the default module's conditions pick, timed without the launch's
    race (the same kernel as a module compiled with --no-launch-timing picks)."""
    return {UNTILED: (Options(no_tile=True), gpu.described), DEFAULT: (Options(), gpu.described)}


def builds(text: str, seed: int, options: dict[str, tuple]) -> dict | None:
    """Each variant's module and CUDA (what a timing needs, small enough to
    come back from a worker process); None where one does not compile (the
    correctness properties report it)."""
    try:
        return {label: {"verify": v["verify"], "render": v["render"]}
                for label, v in ((label, run_all(text, f"fuzz{seed}.fut", o, device=d))
                                 for label, (o, d) in options.items())}
    except (CompilerBug, UserError, PlainError):
        return None


def perf(compiled: list[Compiled], gpu, failed: set, report=None) -> tuple[list[Failure], list[Timing]]:
    """Time every program not in `failed` (seeds that already failed a
    correctness check); (failures, timings). `report` is given each timing
    as it is taken (a long run cut short keeps them)."""
    todo = [c for c in compiled if c.seed not in failed]
    options = variants(gpu)
    made = {c.seed: c.timed if c.timed is not None else builds(c.text, c.seed, options) for c in todo}
    gpu.prepare([b[label]["render"] for b in made.values() if b for label in b])
    failures, timings, shrunk = [], [], 0
    for c in todo:
        if not made[c.seed]:
            continue
        try:
            wrong = _wrong(c, made[c.seed], gpu)  # the default as compiled here is checked too, then timed
            if wrong:
                failures.append(wrong)
                continue
            timing = _timed(c.program, made[c.seed], c.seed, gpu)
        except Exception as exc:  # noqa: BLE001 - a launch that fails is a finding; the run goes on
            failures.append(Failure(c.seed, "perf", f"{type(exc).__name__}: {exc}", c.text))
            continue
        if timing is not None:
            timings.append(timing)
            if timing.loses:
                text = c.text
                if shrunk < MAX_SHRUNK:
                    shrunk += 1
                    text = _shrunk(c.text, c.seed, gpu)
                failures.append(Failure(c.seed, "perf", _verdict(timing), text))
            if report:
                report(timing)
    return failures, timings


def _wrong(c: Compiled, builds: dict, gpu) -> Failure | None:
    """Every version of the default build against the interpreter at the
    fuzzer's small sizes (its options differ from the correctness check's:
    the device's shared memory and SM count)."""
    c = replace(c, expected=expected(c))  # (the interpreter's outputs once, not once a version)
    for k in builds[DEFAULT]["verify"].kernels:
        bad = mismatch(gpu, k, builds[DEFAULT]["render"], c, RTOL)
        if bad:
            return Failure(c.seed, "gpu", f"compiled for this GPU: {bad}", c.text)
    return None


def _verdict(t: Timing) -> str:
    sizes = ", ".join(f"{k}={v}" for k, v in t.sizes.items())
    return (f"the default ({t.version}) takes {t.default_ms:.4g} ms, the untiled kernel {t.untiled_ms:.4g} ms "
            f"(x{t.speedup:.2f}) at {sizes}")


def base_sizes(prog, seed: int) -> dict[str, int]:
    """The fuzzer's random sizes of the program's own (a shape, before growing)."""
    rng = np.random.default_rng(seed)
    return {s.name: int(rng.integers(2, 70)) for s in prog.kernel.sizes}


def grown(prog, seed: int, untiled, gpu) -> dict | None:
    """Sizes at which `untiled` (its build) takes WORK_MS, or the largest
    within MAX_BYTES; None where no size fits at all."""
    base, best = base_sizes(prog, seed), None
    for doubling in range(MAX_DOUBLINGS + 1):
        sizes = resolve_sizes(prog, {k: v << doubling for k, v in base.items()}, None)
        if input_bytes(prog, sizes) > MAX_BYTES:
            break
        _, ms = _launch(untiled, make_inputs(prog, sizes, None, seed), sizes, gpu, repeat=1)
        best = sizes
        if ms >= WORK_MS or not base:
            break
    return best


def _launch(build: dict, inputs: dict, sizes: dict, gpu, repeat: int, uploaded=None) -> tuple[str, float]:
    """(the version the launch picks, the median time)."""
    module, cuda = build["verify"], build["render"]
    _, times = gpu.run(module, cuda, inputs, sizes, repeat=repeat, device=uploaded)
    return gpu.ran(module, cuda, sizes, inputs).name, statistics.median(times)


def _timed(prog, builds: dict, seed: int, gpu) -> Timing | None:
    """The timing at a size with real work (`builds`: UNTILED's and DEFAULT's)."""
    try:
        sizes = grown(prog, seed, builds[UNTILED], gpu)
        if sizes is None:
            return None
        timing = _measure(prog, builds, sizes, seed, gpu)
        if timing.loses:  # once more: a loser is confirmed by a second measurement
            again = _measure(prog, builds, sizes, seed, gpu)
            timing = replace(timing, untiled_ms=min(timing.untiled_ms, again.untiled_ms),
                             default_ms=min(timing.default_ms, again.default_ms))
        return timing
    except PlainError:  # a size the launch refuses: no timing
        return None


def _measure(prog, builds: dict, sizes: dict, seed: int, gpu) -> Timing:
    inputs = make_inputs(prog, sizes, None, seed)  # once, for every kernel
    uploaded = gpu.upload(inputs, prog)
    try:
        ms = {label: _launch(build, inputs, sizes, gpu, REPEAT, uploaded) for label, build in builds.items()}
        default = builds[DEFAULT]
        model = default["verify"].select(sizes, gpu.sm_count)  # the conditions' pick, before any race
        if model.name != ms[DEFAULT][0]:  # the race overruled it: the model's own kernel timed too
            _, times = gpu.run(model, default["render"], inputs, sizes, repeat=REPEAT, device=uploaded)
            ms[MODEL] = (model.name, statistics.median(times))
        else:
            ms[MODEL] = ms[DEFAULT]
    finally:
        uploaded.free()
    return Timing(seed, sizes, ms[UNTILED][1], ms[DEFAULT][1], ms[DEFAULT][0], ms[MODEL][1], ms[MODEL][0])


def _shrunk(text: str, seed: int, gpu) -> str:
    """The smallest program found (within SHRINK_TRIES) whose default still loses."""
    def loses(tree) -> bool:
        try:
            found, comp = check_program(tree, seed)
            if found or comp is None:
                return False  # it fails on the CPU (an index out of range, say): not a program to time
            made = builds(comp.text, seed, variants(gpu))
            if made is None:
                return False
            gpu.prepare([b["render"] for b in made.values()])
            t = _timed(comp.program, made, seed, gpu)
            return t is not None and t.loses
        except Exception:  # noqa: BLE001 - a smaller program that breaks otherwise is not this failure
            return False

    try:
        return pretty(shrink(parse(text, f"fuzz{seed}.fut"), loses, SHRINK_TRIES))
    except Exception:  # noqa: BLE001 - shrinking is best effort; keep the original
        return text


def summary(timings: list[Timing]) -> str:
    judged = [t for t in timings if t.judged]
    if not judged:
        return f"perf: {len(timings)} programs timed, none with work enough to judge"
    geo = math.exp(statistics.fmean(math.log(t.speedup) for t in judged))
    lose = [t for t in judged if t.loses]
    worst = min(judged, key=lambda t: t.speedup)
    line = (f"perf: {len(timings)} programs timed, {len(judged)} with {MIN_MS} ms or more; default over untiled: "
            f"geometric mean x{geo:.2f}, worst x{worst.speedup:.2f} (seed {worst.seed}); {len(lose)} more than "
            f"{(SLOWER - 1) * 100:.0f}% slower")
    modelled = [t for t in judged if t.model_ms]
    if modelled:
        model_geo = math.exp(statistics.fmean(math.log(t.untiled_ms / t.model_ms) for t in modelled))
        line += (f"\nperf: the cost model's version alone (no launch timing): geometric mean x{model_geo:.2f}, "
                 f"{sum(t.model_loses for t in modelled)} more than {(SLOWER - 1) * 100:.0f}% slower")
    return line


def records(timings: list[Timing]) -> list[dict]:
    return [{"seed": t.seed, "sizes": t.sizes, "untiled_ms": t.untiled_ms, "default_ms": t.default_ms,
             "version": t.version, "speedup": t.speedup, "judged": t.judged, "loses": t.loses,
             "model_ms": t.model_ms, "model_version": t.model_version, "model_loses": t.model_loses}
            for t in timings]
