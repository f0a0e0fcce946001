"""`tiler tune`: search the plan's parameters on the GPU, keep the fastest.

The search is coordinate descent over families of parameters, in the order
the plan decides them: the threads a row that split its reductions (or
none), the block's threads, the chunk, the register tile,
packed tiles, the buffering, the transposition, a loop's rows joined or
apart, the unrolling, the interior blocks, the blocks an SM. Each family's
values are tried with the best of the earlier families fixed, so a family
the measurements rule out costs one trial a value, not a product of all of
them. Every candidate is checked before it is timed (`measure` says how); a
wrong one is reported and never chosen.
The budget bounds the wall time; the default schedule is always measured
first, so the result is never slower than it.
"""
from __future__ import annotations

import json
import math
import statistics
import time
from dataclasses import dataclass, field, replace

from ..analyse import Analysis
from ..analyse.interior import with_interior
from ..analyse.registers import shares_every_tile

BLOCK_1D = (16, 32, 64, 128, 256, 512)
BLOCK_2D = ((8, 32), (16, 16), (32, 8), (16, 32), (32, 16), (32, 32))  # (outer, inner) threads
CHUNKS = (8, 16, 32, 64, 128, 256, 512)
MICRO = ((4, 4), (4, 8), (8, 4), (8, 8))  # (outer, inner) points a thread
COARSENINGS = (1, 2, 4, 8)  # points a thread of a 1-D block
UNROLLS = (1, 2, 4, 8, 16, 32, 64)  # times the loop over a staged chunk is unrolled
MIN_BLOCKS = (0, 1, 2, 3, 4)  # blocks an SM the kernel asks for (0: ptxas's choice)
LANES = (32, 64, 128, 256, 512, 1024)  # threads a row that split its reductions


@dataclass
class Trial:
    parameters: dict  # plan options by name, as make_options takes them ({}: the default plan)
    ms: float | None  # the median time; None when it was not timed
    verdict: str  # "ok ...", or why the candidate was discarded
    cost: float | None = None  # the cost model's estimate, for comparison
    gpu: int | None = None  # which GPU of the host measured it (--gpus)

    @property
    def ok(self) -> bool:
        return self.ms is not None


@dataclass
class Result:
    best: Trial
    default: Trial
    trials: list = field(default_factory=list)
    stopped: str = ""  # why the search ended early, if it did


def families(a: Analysis) -> list[tuple[str, list]]:
    """The parameters worth varying for this kernel, each with its values."""
    b, rank = a.block, a.block.rank
    out = []
    if a.plan.split is not None and a.plan.split.active:  # the threads a row, or one thread a point
        several = [{"several_blocks": True}] if a.plan.split.several else []
        out.append(("split", [{"lanes": n} for n in LANES] + several + [{"no_split": True}]))
    if len(b.spans) == 1:  # the other dims keep one thread (`_` would give them the plan's default)
        out.append(("tile", [_per_dim(rank, {b.spans[0]: w}, 1) for w in BLOCK_1D]))
    elif len(b.spans) == 2:
        inner, outer = b.spans
        out.append(("tile", [_per_dim(rank, {outer: y, inner: x}) for y, x in BLOCK_2D]))
    if a.tiled:
        out.append(("chunk", list(CHUNKS)))
    one_d = a.tiled and len(b.spans) == 1 and shares_every_tile(a.schedule)  # coarsened, or could be
    if b.register is not None and not one_d:
        inner, outer = b.spans
        out.append(("register_tile", [_per_dim(rank, {outer: y, inner: x}, 1) for y, x in MICRO]))
    elif one_d:  # coarsening, also where the plan declined it
        out.append(("register_tile", [_per_dim(rank, {b.spans[0]: c}, 1) for c in COARSENINGS]))
    if one_d and sum(p.staged and not p.staging.rows for s in a.streams for p in s.inputs) > 1:
        out.append(("pack", [True]))
    if any(p.staged and (p.staging.vector > 1 or p.staging.buffers > 1) for s in a.streams for p in s.inputs):
        asynchronous = any(p.staged and p.staging.asynchronous for s in a.streams for p in s.inputs)
        out.append(("buffering", [{"single_buffer": True}, {"double_buffer": True}]
                    + ([{"no_async": True}] if asynchronous else [])))
    if a.schedule.transposes or a.schedule.stages_to_coalesce:  # the other remedy for rows threads walk alone
        out.append(("transpose", [True, False]))
    joins = [s.join for s in a.streams if s.join is not None and s.join.sound]
    if joins:  # the other way than the plan's
        out.append(("join_rows", [not any(j.joined for j in joins)]))
    if a.tiled and (b.register is None or one_d):  # a 2-D register tile's chunk loop is unrolled already
        out.append(("unroll", list(UNROLLS)))
    if with_interior(a.schedule, replace(a.options, interior=True)).block.interior:
        out.append(("interior", [True]))  # blocks inside every dim without the clamps and store guards
    if a.tiled:
        out.append(("min_blocks", list(MIN_BLOCKS)))
    return out


def _per_dim(rank: int, given: dict, rest=None) -> tuple:
    """Sizes per dimension, outermost first (`rest` for the others: None keeps the plan's)."""
    return tuple(given.get(d, rest) for d in range(rank))


def one_at_a_time(measure):
    """A batch measurement from a measurement of one candidate."""
    return lambda batch: [measure(p) for p in batch]


def search(fams: list[tuple[str, list]], measure, budget_s: float, clock=time.monotonic, progress=None,
           width: int = 1, estimate=None, passes: int = 3) -> Result:
    """Coordinate descent: `measure(batch of parameters) -> their Trials`,
    `width` candidates a batch (one a GPU). Each family's values are tried
    in the order of the cost model's `estimate(parameters)` (best first),
    with the best of the other families fixed; the families are walked
    again while a pass improves on the last (at most `passes` times)."""
    start = clock()
    (default,) = measure([{}])
    if progress:
        progress(default)
    trials, best = [default], default
    if not default.ok:
        return Result(default, default, trials, f"the default schedule failed: {default.verdict}")
    for _ in range(passes):
        before = best
        for name, values in fams:
            fixed = {k: v for k, v in best.parameters.items() if not _same_family(k, name)}
            todo = []
            for value in values:
                params = {**fixed, **_as_parameters(name, value)}
                if not any(t.parameters == params for t in trials) and params not in todo:
                    todo.append(params)
            if estimate:
                todo.sort(key=lambda p: _estimated(estimate, p))
            for at in range(0, len(todo), width):
                if clock() - start > budget_s:
                    return Result(best, default, trials, f"the budget of {budget_s:g} s was spent")
                for trial in measure(todo[at:at + width]):
                    trials.append(trial)
                    if progress:
                        progress(trial)
                    if trial.ok and trial.ms < best.ms:
                        best = trial
        if best is before:
            break
    return Result(best, default, trials)


def _estimated(estimate, params: dict) -> float:
    cost = estimate(params)
    return math.inf if cost is None else cost


def _as_parameters(name: str, value) -> dict:
    return dict(value) if isinstance(value, dict) else {name: value}


def _same_family(key: str, name: str) -> bool:
    return key == name or (name == "buffering" and key in ("single_buffer", "double_buffer", "no_async")) \
        or (name == "split" and key in ("lanes", "no_split", "several_blocks"))


class GpuMeasure:
    """Compile a candidate, check it (every version against the interpreter at
    the program's test sizes, then its outputs against the default's at the
    tuned sizes), and time it with the bench's machinery."""

    def __init__(self, text: str, shown: str, prog, spec, sizes: dict, repeat: int, gpu, fixed: dict | None = None):
        from ..bench import INPUT_SEED
        from .workload import make_inputs

        self.text, self.shown, self.prog, self.spec, self.sizes, self.repeat, self.gpu = \
            text, shown, prog, spec, sizes, repeat, gpu
        self.fixed = fixed or {}  # options every candidate has (--fast-math), not searched
        self.inputs = make_inputs(prog, sizes, spec, seed=INPUT_SEED)
        self.device = gpu.upload(self.inputs)
        self.reference = None
        self.seen: dict[str, Trial] = {}  # CUDA text -> its trial: equal kernels are timed once

    def __call__(self, parameters: dict) -> Trial:
        from ..bench import check_small, compare_outputs, tolerance
        from ..errors import PlainError
        from ..pipeline import run_all

        try:
            values = run_all(self.text, self.shown, candidate_options(parameters, self.sizes, self.gpu, self.fixed))
        except PlainError as exc:
            return Trial(parameters, None, f"not compiled: {exc}")
        cost = values["analyse"].schedule.cost
        cuda = values["render"]
        if cuda in self.seen:
            same = self.seen[cuda]
            if same.parameters == parameters:
                return same
            return Trial(parameters, same.ms, f"{same.verdict} (the same kernel as {same.parameters or 'the default'})",
                         cost)
        try:
            check_small(self.prog, self.spec, {"candidate": values}, self.gpu)
            outs, times = self.gpu.run(values["verify"], cuda, self.inputs, self.sizes, repeat=self.repeat,
                                       device=self.device)
            self.reference = self.reference or outs
            verdict = compare_outputs(outs, self.reference, self.spec, "against the default schedule",
                                      tolerance(values["analyse"].options, self.spec))
        except PlainError as exc:
            trial = Trial(parameters, None, f"discarded: {exc}", cost)
        else:
            trial = Trial(parameters, statistics.median(times) if times else None, verdict, cost)
        self.seen[cuda] = trial
        return trial

    def close(self) -> None:
        self.device.free()


def candidate_options(parameters: dict, sizes: dict, gpu, fixed: dict | None = None):
    """A candidate's plan options (over the search's fixed ones), for this GPU and the tuned sizes."""
    from ..analyse import make_options
    from ..bench import device_options

    return device_options(make_options(**(fixed or {}), **parameters), tuple(sorted(sizes.items())), gpu)


def estimator(text: str, shown: str, sizes: dict, gpu, fixed: dict | None = None):
    """The cost model's estimate for a candidate (None where it does not compile)."""
    from ..errors import PlainError
    from ..pipeline import run_all

    def estimate(parameters: dict) -> float | None:
        try:
            options = candidate_options(parameters, sizes, gpu, fixed)
            return run_all(text, shown, options, until="analyse")["analyse"].schedule.cost
        except PlainError:
            return None
    return estimate


def gpu_measure(path: str, text: str, shown: str, sizes: dict, repeat: int, fixed: dict | None = None) -> GpuMeasure:
    """A worker's measurement on the GPU it sees, its reference the default
    schedule's outputs (measured first, as the search does)."""
    from ..pipeline import run_to
    from ..runtime import Gpu
    from .workload import load_spec

    m = GpuMeasure(text, shown, run_to("check", text, shown), load_spec(path), sizes, repeat, Gpu.get(), fixed)
    m({})
    return m


class Workers:
    """A batch measurement over `count` GPUs of one host: one process a GPU
    (CUDA_VISIBLE_DEVICES set before CUDA starts there), each measuring with
    its own `make()`; a batch is spread over them, one candidate each, and
    its trials come back in order."""

    def __init__(self, count: int, make):
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        spawn = multiprocessing.get_context("spawn")  # a forked child would inherit the parent's CUDA state
        self.pools = [ProcessPoolExecutor(1, mp_context=spawn, initializer=_start_worker, initargs=(n, make))
                      for n in range(count)]

    def __call__(self, batch: list) -> list:
        from concurrent.futures.process import BrokenProcessPool

        from ..errors import PlainError

        futures = [self.pools[n % len(self.pools)].submit(_measure_here, p) for n, p in enumerate(batch)]
        try:
            return [f.result() for f in futures]
        except BrokenProcessPool as exc:
            raise PlainError(f"a tuning worker stopped: {exc}") from None

    def close(self) -> None:
        for pool in self.pools:
            pool.shutdown(cancel_futures=True)


_HERE: dict = {}  # in a worker process: its GPU's index and its measurement


def _start_worker(n: int, make) -> None:
    import os

    os.environ["CUDA_VISIBLE_DEVICES"] = str(n)
    _HERE.update(gpu=n, measure=make())


def _measure_here(parameters: dict) -> Trial:
    import dataclasses

    return dataclasses.replace(_HERE["measure"](parameters), gpu=_HERE["gpu"])


def tuned_table(result: Result, device: str, sizes: dict, fast_math: bool = False, keep_loops: bool = False):
    """The tuning file's table for the search's best schedule."""
    import datetime

    from .tuning import Tuned

    return Tuned(device, dict(sizes), dict(result.best.parameters), round(result.best.ms, 6),
                 round(result.default.ms, 6), datetime.date.today().isoformat(), fast_math, keep_loops)


class Journal:
    """The trials so far, kept in a file while a search runs, so that one cut
    short resumes from them (at the same sizes, on the same device)."""

    def __init__(self, path, device: str, sizes: dict, fast_math: bool = False, keep_loops: bool = False):
        self.path = path
        self.run = {"device": device, "sizes": sizes, "fast_math": fast_math, "keep_loops": keep_loops, "trials": []}
        prior = json.loads(path.read_text()) if path.is_file() else {}
        if (prior.get("device"), prior.get("sizes"), prior.get("fast_math", False),
                prior.get("keep_loops", False)) == (device, sizes, fast_math, keep_loops):
            self.run["trials"] = prior["trials"]
        self.prior = [trial_from_json(d) for d in self.run["trials"]]

    def record(self, trial: Trial) -> None:
        entry = trial_json(trial)
        if all(d["parameters"] != entry["parameters"] for d in self.run["trials"]):
            self.run["trials"].append(entry)
            self.path.write_text(json.dumps(self.run) + "\n")

    def close(self) -> None:
        """The search ended: nothing to resume."""
        self.path.unlink(missing_ok=True)


def resumed(measure, prior: list[Trial]):
    """The batch measurement `measure`, but a candidate a partial run already
    measured is not measured again."""
    known = {_key(t.parameters): t for t in prior}

    def again(batch: list) -> list:
        new = [p for p in batch if _key(p) not in known]
        fresh = iter(measure(new) if new else [])
        return [next(fresh) if _key(p) not in known else _from_before(known[_key(p)]) for p in batch]
    return again


def _from_before(t: Trial) -> Trial:
    return Trial(t.parameters, t.ms, t.verdict + " (from the interrupted run)", t.cost, t.gpu)


def _key(parameters: dict) -> tuple:
    return tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in parameters.items()))


def trial_json(t: Trial) -> dict:
    return {"parameters": {k: list(v) if isinstance(v, tuple) else v for k, v in t.parameters.items()},
            "ms": t.ms, "cost": t.cost, "verdict": t.verdict, "gpu": t.gpu}


def trial_from_json(d: dict) -> Trial:
    params = {k: tuple(v) if isinstance(v, list) else v for k, v in d["parameters"].items()}
    return Trial(params, d["ms"], d["verdict"], d.get("cost"), d.get("gpu"))


def rank_correlation(trials: list[Trial]) -> float | None:
    """Spearman's rank correlation between the cost model's estimates and the
    measured times of the candidates timed (None where it is undefined: fewer
    than three, or one side without spread)."""
    pairs = [(t.cost, t.ms) for t in trials if t.ok and t.cost is not None]
    if len(pairs) < 3:
        return None
    return spearman([c for c, _ in pairs], [m for _, m in pairs])


def spearman(xs: list, ys: list) -> float | None:
    """The correlation of the ranks of two equally long lists (ties share
    their mean rank); None where either has no spread."""
    cost_ranks, time_ranks = _ranks(list(xs)), _ranks(list(ys))
    n = len(cost_ranks)
    mean = (n + 1) / 2
    cov = sum((a - mean) * (b - mean) for a, b in zip(cost_ranks, time_ranks))
    var_a = sum((a - mean) ** 2 for a in cost_ranks)
    var_b = sum((b - mean) ** 2 for b in time_ranks)
    return None if var_a == 0 or var_b == 0 else cov / (var_a * var_b) ** 0.5


def _ranks(values: list) -> list[float]:
    """1-based ranks, ties sharing their mean rank."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    ranks = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return ranks
