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
from ..analyse.options import OPTIONS, Family, family_members
from ..analyse.registers import shares_every_tile
from ..workload.checks import spearman

BLOCK_1D = (16, 32, 64, 128, 256, 512)
BLOCK_2D = ((8, 32), (16, 16), (32, 8), (16, 32), (32, 16), (32, 32))  # (outer, inner) threads
MICRO = ((4, 4), (4, 8), (8, 4), (8, 8))  # (outer, inner) points a thread
COARSENINGS = (1, 2, 4, 8)  # points a thread of a 1-D block


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
    """The families of parameters worth varying for this kernel, in the
    order the options declare them (options.Family), each with its values:
    its options' `tries`, where this kernel can use them (RULES)."""
    out = []
    for family in Family:
        values = RULES.get(family, _tries)(a, family)
        if values:
            out.append((family.value, values))
    return out


def _tries(a: Analysis, family: Family) -> list:
    """Each option of the family at each value it declares, for a tiled kernel."""
    if not a.tiled:
        return []
    members = family_members(family)
    return [v if members == (family.value,) else {name: v} for name in members for v in OPTIONS[name].tries]


def _each(name: str) -> list[dict]:
    """The option at each value it declares for the tuner (its `tries`)."""
    return [{name: v} for v in OPTIONS[name].tries]


def _split(a: Analysis, family: Family) -> list:
    """The threads a row, or one thread a point."""
    if a.plan.split is None or not a.plan.split.active:
        return []
    return _each("lanes") + (_each("several_blocks") if a.plan.split.several else []) + _each("no_split")


def _tile(a: Analysis, family: Family) -> list:
    b, rank = a.block, a.block.rank
    if len(b.spans) == 1:  # the other dims keep one thread (`_` would give them the plan's default)
        return [_per_dim(rank, {b.spans[0]: w}, 1) for w in BLOCK_1D]
    if len(b.spans) == 2:
        inner, outer = b.spans
        return [_per_dim(rank, {outer: y, inner: x}) for y, x in BLOCK_2D]
    return []


def _one_d(a: Analysis) -> bool:
    """A 1-D block whose tiles every thread shares: coarsened, or could be."""
    return a.tiled and len(a.block.spans) == 1 and shares_every_tile(a.schedule)


def _register_tile(a: Analysis, family: Family) -> list:
    b, rank = a.block, a.block.rank
    if b.register is not None and not _one_d(a):
        inner, outer = b.spans
        return [_per_dim(rank, {outer: y, inner: x}, 1) for y, x in MICRO]
    if _one_d(a):  # coarsening, also where the plan declined it
        return [_per_dim(rank, {b.spans[0]: c}, 1) for c in COARSENINGS]
    return []


def _pack(a: Analysis, family: Family) -> list:
    staged = sum(p.staged and not p.staging.rows for s in a.streams for p in s.inputs)
    return _tries(a, family) if _one_d(a) and staged > 1 else []


def _buffering(a: Analysis, family: Family) -> list:
    staged = [p for s in a.streams for p in s.inputs if p.staged]
    if not any(p.staging.vector > 1 or p.staging.buffers > 1 for p in staged):
        return []
    asynchronous = any(p.staging.asynchronous for p in staged)  # (else no cp.async to turn off)
    return [v for name in family_members(family) if name != "no_async" or asynchronous for v in _each(name)]


def _transpose(a: Analysis, family: Family) -> list:
    """The other remedy for rows threads walk alone."""
    return list(OPTIONS["transpose"].tries) if a.schedule.transposes or a.schedule.stages_to_coalesce else []


def _join_rows(a: Analysis, family: Family) -> list:
    joins = [s.join for s in a.streams if s.join is not None and s.join.sound]
    return [not any(j.joined for j in joins)] if joins else []  # the other way than the plan's


def _unroll(a: Analysis, family: Family) -> list:
    """A 2-D register tile's chunk loop is unrolled already."""
    return _tries(a, family) if a.block.register is None or _one_d(a) else []


def _interior(a: Analysis, family: Family) -> list:
    """Blocks inside every dim without the clamps and store guards, where the plan can have them."""
    asked = replace(a.context, options=replace(a.options, interior=True))
    return list(OPTIONS["interior"].tries) if with_interior(a.schedule, asked).block.interior else []


RULES = {Family.SPLIT: _split, Family.TILE: _tile, Family.REGISTER_TILE: _register_tile, Family.PACK: _pack,
         Family.BUFFERING: _buffering, Family.TRANSPOSE: _transpose, Family.JOIN_ROWS: _join_rows,
         Family.UNROLL: _unroll, Family.INTERIOR: _interior}  # a family not here: its options' tries (_tries)


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
    family = OPTIONS[key].family if key in OPTIONS else None
    return key == name or (family is not None and family.value == name)


class GpuMeasure:
    """Compile a candidate, check it (every version against the interpreter at
    the program's test sizes, then its outputs against the default's at the
    tuned sizes), and time it with the bench's machinery."""

    def __init__(self, text: str, shown: str, prog, spec, sizes: dict, repeat: int, gpu, fixed: dict | None = None,
                 given: dict | None = None):
        from ..workload import make_inputs
        from ..workload.checks import INPUT_SEED

        self.text, self.shown, self.prog, self.spec, self.sizes, self.repeat, self.gpu = \
            text, shown, prog, spec, sizes, repeat, gpu
        self.fixed = fixed or {}  # options every candidate has (--fast-math), not searched
        self.inputs = make_inputs(prog, sizes, spec, seed=INPUT_SEED, given=given)  # (given: scalars' values)
        self.device = gpu.upload(self.inputs, prog)
        self.reference = None
        self.seen: dict[str, Trial] = {}  # CUDA text -> its trial: equal kernels are timed once

    def __call__(self, parameters: dict) -> Trial:
        from ..errors import PlainError
        from ..pipeline import run_all
        from ..workload.checks import check_small, compare_outputs, tolerance

        try:
            values = run_all(self.text, self.shown, candidate_options(parameters, self.sizes, self.fixed),
                             device=self.gpu.described)
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
                                      tolerance(values["analyse"].options, self.spec, self.prog), self.prog)
        except PlainError as exc:
            trial = Trial(parameters, None, f"discarded: {exc}", cost)
        else:
            trial = Trial(parameters, statistics.median(times) if times else None, verdict, cost)
        self.seen[cuda] = trial
        return trial

    def close(self) -> None:
        self.device.free()


def candidate_options(parameters: dict, sizes: dict, fixed: dict | None = None):
    """A candidate's plan options (over the search's fixed ones), at the tuned sizes."""
    from ..analyse import make_options

    return replace(make_options(**(fixed or {}), **parameters), sizes=tuple(sorted(sizes.items())))


def estimator(text: str, shown: str, sizes: dict, gpu, fixed: dict | None = None):
    """The cost model's estimate for a candidate (None where it does not compile)."""
    from ..errors import PlainError
    from ..pipeline import run_all

    def estimate(parameters: dict) -> float | None:
        try:
            options = candidate_options(parameters, sizes, fixed)
            return run_all(text, shown, options, until="analyse", device=gpu.described)["analyse"].schedule.cost
        except PlainError:
            return None
    return estimate


def gpu_measure(path: str, text: str, shown: str, sizes: dict, repeat: int, fixed: dict | None = None,
                given: dict | None = None) -> GpuMeasure:
    """A worker's measurement on the GPU it sees, its reference the default
    schedule's outputs (measured first, as the search does)."""
    from ..pipeline import program_file, run_to
    from ..runtime import Gpu
    from ..workload import load_spec

    m = GpuMeasure(text, shown, run_to("check", text, shown), load_spec(program_file(path)), sizes, repeat,
                   Gpu.get(), fixed, given)
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


def tuned_table(result: Result, device: str, sizes: dict, fast_math: bool = False, keep_loops: bool = False,
                tensor_cores: bool = False):
    """The tuning file's table for the search's best schedule."""
    import datetime

    from .tuning import Tuned

    return Tuned(device, dict(sizes), dict(result.best.parameters), round(result.best.ms, 6),
                 round(result.default.ms, 6), datetime.date.today().isoformat(), fast_math, keep_loops, tensor_cores)


class Journal:
    """The trials so far, kept in a file while a search runs, so that one cut
    short resumes from them (at the same sizes, on the same device)."""

    def __init__(self, path, device: str, sizes: dict, fast_math: bool = False, keep_loops: bool = False,
                 tensor_cores: bool = False):
        self.path = path
        self.run = {"device": device, "sizes": sizes, "fast_math": fast_math, "keep_loops": keep_loops, "trials": []}
        self.run |= {"tensor_cores": True} if tensor_cores else {}  # (a journal without it reads as before)
        prior = json.loads(path.read_text()) if path.is_file() else {}
        if (prior.get("device"), prior.get("sizes"), prior.get("fast_math", False), prior.get("keep_loops", False),
                prior.get("tensor_cores", False)) == (device, sizes, fast_math, keep_loops, tensor_cores):
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
