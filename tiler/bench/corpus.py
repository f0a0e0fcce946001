"""`tiler corpus`: the performance gate. Every program of a corpus (a folder
of `.fut` files, each with a `.toml` of size tables) is compiled as a user
would compile it (no sizes given: the launch picks by the sizes it meets),
every version of every variant is checked against the interpreter at its
`test` sizes (bench.check_small), and then each variant is timed at the
program's `small`, `medium` and `large` sizes against its untiled kernel.

`run_corpus(...)` returns one record a (program, size set) with each
variant's median time; `losers(records)` the ones whose default is slower
than untiled past a tolerance; `against(records, earlier)` the ones slower
than an earlier run's default. A program that fails (a wrong result, a
compile error) is recorded with why and the run goes on. Each timed variant
also records the cost model's estimate for the version its launch ran
(`model_cost`); with the diagnostic variants, `ranking` gives the rank
correlation of estimate and time over each (program, size)'s distinct
kernels (variants whose launches ran the same kernel count once).
"""
from __future__ import annotations

import json
import math
import statistics
import time
from pathlib import Path

from ..analyse import Options
from ..check import check
from ..errors import CompilerBug, PlainError, UserError
from ..pipeline import run_all
from ..runtime import Gpu
from ..runtime.nvcc import cores
from ..syntax import parse
from ..version import __version__
from ..workload import load_spec, make_inputs, resolve_sizes
from ..workload.checks import INPUT_SEED, check_small, check_tolerance, compare_outputs, spearman, tolerance
from . import Variant
from .peer import checked_peers

SIZE_SETS = ("small", "medium", "large")
DEFAULT, UNTILED, MODEL = "default", "untiled", "model's choice"
BUDGET_MS = 100.0  # timed launches of one variant at one size take about this long
MIN_REPEAT, MAX_REPEAT = 3, 21
ROUNDS = 3  # turns in which the variants are timed, each a third of its launches
SLOWER = 1.05  # a default more than 5% slower than untiled is a loser


def default_variants(extra: dict[str, Options] | None = None) -> list[Variant]:
    out = [Variant(UNTILED, Options(no_tile=True)), Variant(DEFAULT, Options()),
           Variant(MODEL, Options(no_launch_timing=True))]  # the cost model's version, never raced
    return out + [Variant(k, v) for k, v in (extra or {}).items()]


def programs(folder: Path, only: tuple[str, ...] = (), shard: tuple[int, int] = (1, 1)) -> list[Path]:
    """The corpus's programs (each with its .toml), in name order: those in
    `only` where it names any; `shard` (k, n): the k-th of every n."""
    found = sorted(p for p in folder.glob("*.fut") if p.with_suffix(".toml").is_file())
    k, n = shard
    return [p for p in found if not only or p.stem in only][k - 1::n]


def run_corpus(folder: Path, variants: list[Variant], size_sets=SIZE_SETS, only=(), log=print,
               save=lambda records: None, peer: bool = False, shard: tuple[int, int] = (1, 1),
               warmers: int | None = None) -> list[dict]:
    """Every program's records; `save` is given them after each program (a
    run cut short keeps what it measured). Every program is compiled first,
    nvcc building all their modules side by side; `peer`: each program's
    PyTorch twin (peer.py) timed too, eager and under torch.compile, in the
    same call (a program without a twin: no peer times), torch.compile's
    caches warmed meanwhile by `warmers` processes (warm.py; None: as many
    as suit), each taking a core from nvcc's share."""
    gpu = Gpu.get()
    records = []
    paths = programs(folder, only, shard)
    warming, slow = None, set()
    if peer:
        from .warm import start, workers_for

        warmers = workers_for(len(paths)) if warmers is None else warmers
        warming = start(paths, tuple(size_sets), warmers)
    started = time.perf_counter()
    built = {path: _compiled(path, variants, gpu.described) for path in paths}
    gpu.prepare([c["render"] for b in built.values() if not isinstance(b, Exception) for c in b[2].values()],
                workers=max(1, cores() - (warmers or 0)) if warming else None)
    log(f"{len(paths)} programs compiled in {time.perf_counter() - started:.0f} s")
    if warming:
        slow = warming(log)
    for path in paths:
        started = time.perf_counter()
        try:
            if isinstance(built[path], Exception):
                raise built[path]
            records += _program(path, *built[path], size_sets, gpu, log, peer, path.stem not in slow)
        except (PlainError, UserError, CompilerBug, ValueError, RuntimeError) as exc:
            records.append({"program": path.stem, "size_set": None, "error": f"{type(exc).__name__}: {exc}"})
            log(f"{path.stem}: FAILED {type(exc).__name__}: {str(exc)[:400]}")
        log(f"  ({time.perf_counter() - started:.1f} s)")
        save(records)
    return records


def _compiled(path: Path, variants: list[Variant], device):
    """(the typed program, its spec, each variant's compiled values), or the
    exception that stopped it (recorded when the program's turn comes)."""
    try:
        text, shown = path.read_text(), str(path)
        prog = check(parse(text, shown))
        return prog, load_spec(path), {v.label: run_all(text, shown, v.options, device=device)
                                       for v in variants}
    except (PlainError, UserError, CompilerBug, ValueError, RuntimeError) as exc:
        return exc


def _program(path: Path, prog, spec, compiled: dict, size_sets, gpu, log, peer: bool = False,
             peer_compiled: bool = True) -> list[dict]:
    check_small(prog, spec, compiled, gpu)
    peers = checked_peers(path, prog, spec, peer_compiled) if peer else None
    out = []
    for size_set in size_sets:
        if size_set not in spec.sizes:
            continue
        sizes = resolve_sizes(prog, {}, spec, size_set)
        record = {"program": path.stem, "size_set": size_set, "sizes": sizes, "ms": {}, "version": {}}
        try:
            _time(path, prog, spec, sizes, compiled, gpu, record, peers)
        except (PlainError, CompilerBug, ValueError, RuntimeError) as exc:  # this size only: the others still run
            record["error"] = f"{type(exc).__name__}: {exc}"
            log(f"{path.stem} {size_set}: FAILED {record['error'][:300]}")
        if peers is not None and (peers.left_out or peers.notes):
            record["peer_notes"] = [peers.left_out] * bool(peers.left_out) + peers.notes
            peers.notes = []
        out.append(record)
        if "error" not in record:
            log(line(record))
        for note in record.get("peer_notes", ()):
            log(f"  (peer: {note[:300]})")
    return out


def _time(path: Path, prog, spec, sizes: dict, compiled: dict, gpu, record: dict, peers=None) -> None:
    """Each variant's median time at `sizes` into `record`, its output checked
    against the first's. The variants are timed in turns (ROUNDS rounds, each
    timing every variant), so a drift of the GPU's clock or of a neighbour's
    load touches them alike: at a few microseconds a kernel, timing one
    variant after another made the same kernel differ by a quarter."""
    size_set = record["size_set"]
    inputs = make_inputs(prog, sizes, spec, seed=INPUT_SEED)
    uploaded = gpu.upload(inputs, prog)
    try:
        built = {label: (values["verify"], values["render"]) for label, values in compiled.items()}
        reference, repeats, times = None, {}, {label: [] for label in built}
        for label, (k, cuda) in built.items():
            outs, first = gpu.run(k, cuda, inputs, sizes, repeat=1, device=uploaded)
            repeats[label] = max(MIN_REPEAT, min(MAX_REPEAT, int(BUDGET_MS / max(first[0], 1e-3))))
            if reference is None:
                reference = outs
            compare_outputs(outs, reference, spec, f"{path.stem} {size_set}: {label} against untiled",
                            tolerance(Options(), spec, prog), prog)
        for _ in range(ROUNDS):
            for label, (k, cuda) in built.items():
                turn = -(-repeats[label] // ROUNDS)
                times[label] += gpu.run(k, cuda, inputs, sizes, repeat=turn, device=uploaded)[1]
        for label, (k, cuda) in built.items():
            record["ms"][label] = statistics.median(times[label])
            chosen = gpu.ran(k, cuda, sizes, inputs)
            record["version"][label] = chosen.name
            race = gpu.race(k, cuda, sizes, inputs)
            if race is not None:  # the model's pick and its rival, each one's fastest launch of the race
                record.setdefault("race", {})[label] = race.ms
            record.setdefault("cost", {})[label] = model_cost(compiled[label], chosen, sizes)
            record.setdefault("kernel", {})[label] = kernel_digest(chosen)
        if peers is not None:  # the twin, eager and compiled, checked against tiler's outputs, then timed
            record["ms"] |= peers.time(inputs, max(MIN_REPEAT, repeats[DEFAULT]), reference,
                                       max(check_tolerance(prog, spec), 1e-3), f"{path.stem} {size_set}")
    finally:
        uploaded.free()


def model_cost(values: dict, kernel, sizes: dict) -> float | None:
    """The cost model's estimate for the version a launch ran (cost.point_cost:
    global loads a point per streamed element, barriers and idle threads
    included) at the launch's sizes; None for an earlier tiler's modules."""
    from ..analyse import cost
    from ..versions import ONE_POINT

    a = values.get("analyse")
    if a is None or not hasattr(a, "plan"):
        return None
    plan, k = a.plan, a.kernel
    if plan.in_place is not None and kernel.tiled and not kernel.transposes:  # (a launch too small for the copies)
        plan = plan.in_place
    schedule = plan.untiled if not kernel.tiled else \
        plan.fewer if kernel.name.endswith(ONE_POINT) and plan.fewer is not None else plan.schedule
    extents = {lv.dim: lv.size if isinstance(lv.size, int) else sizes[lv.size.name] for lv in k.levels}
    return cost.point_cost(schedule, extents, {b: sizes[b.name] for b in k.sizes})


def kernel_digest(kernel) -> str:
    """What tells two variants' launches apart: a digest of the kernel's IR
    (the same IR renders the same CUDA)."""
    import hashlib

    return hashlib.sha256(repr(kernel).encode()).hexdigest()[:16]


def candidates(record: dict) -> list[tuple[float, float]]:
    """(cost, time) of each distinct kernel the record's variants ran: variants
    whose launches ran the same kernel are one candidate (their median time),
    for what tells them apart is the timer. Records without digests count
    each variant as its own."""
    kernels = record.get("kernel", {})
    groups: dict = {}
    for label, ms in record.get("ms", {}).items():
        cost = record.get("cost", {}).get(label)
        if cost is not None:
            groups.setdefault(kernels.get(label, label), []).append((cost, ms))
    return [(statistics.median(c for c, _ in g), statistics.median(t for _, t in g)) for g in groups.values()]


def ranking(records: list[dict], least: int = 3) -> list[tuple[dict, float]]:
    """(record, the rank correlation of the model's cost with the measured
    time over its candidates) where at least `least` distinct kernels were
    timed and neither side ties throughout."""
    out = []
    for r in records:
        found = candidates(r)
        if len(found) >= least:
            rho = spearman([c for c, _ in found], [t for _, t in found])
            if rho is not None:
                out.append((r, rho))
    return out


def ranking_summary(records: list[dict]) -> str:
    ranked = ranking(records)
    if not ranked:
        return "cost model: no (program, size) with three distinct kernels the model tells apart"
    rhos = [rho for _, rho in ranked]
    return (f"cost model: rank correlation with the measured time over each (program, size)'s distinct kernels: "
            f"median "
            f"{statistics.median(rhos):.2f} over {len(rhos)} (program, size) pairs; {sum(r < 0 for r in rhos)} "
            f"negative")


def speedup(record: dict, label: str = DEFAULT) -> float | None:
    ms = record.get("ms", {})
    return ms[UNTILED] / ms[label] if UNTILED in ms and ms.get(label) else None


def line(record: dict) -> str:
    ms = record["ms"]
    parts = [f"{k} {v:.4g}" for k, v in ms.items()]
    s = speedup(record)
    mark = "" if s is None or s >= 1 / SLOWER else "  (the untiled kernel itself)" if same_kernel(record) else "  LOSER"
    from .peer import ratio

    peer = ratio(record)
    mark += f"  peer/tiler {peer:.2f}x" if peer is not None else ""
    return f"{record['program']:28s} {record['size_set']:6s} x{s:.2f}  " + ", ".join(parts) + mark \
        if s is not None else f"{record['program']} {record['size_set']}: " + ", ".join(parts)


def same_kernel(record: dict, label: str = DEFAULT) -> bool:
    """The variant's launch ran the untiled variant's own kernel (the same
    name is the same CUDA: plan.untiled either way), so any difference in
    their times is the timer's."""
    version = record.get("version", {})
    return label != UNTILED and version.get(label) is not None and version.get(label) == version.get(UNTILED)


def _slower(records: list[dict], label: str, slower: float) -> list[dict]:
    return [r for r in records if (s := speedup(r, label)) is not None and s < 1 / slower]


def losers(records: list[dict], label: str = DEFAULT, slower: float = SLOWER) -> list[dict]:
    return [r for r in _slower(records, label, slower) if not same_kernel(r, label)]


def noise(records: list[dict], label: str = DEFAULT, slower: float = SLOWER) -> list[dict]:
    """Records past the tolerance whose two launches ran the same kernel."""
    return [r for r in _slower(records, label, slower) if same_kernel(r, label)]


def against(records: list[dict], earlier: list[dict], slower: float = SLOWER) -> list[tuple[dict, float, bool]]:
    """(record, now / then, the same kernel) where the default is slower than
    in `earlier`; the same kernel: its launch ran the kernel it ran then (by
    digest), so what changed is the GPU's or the timer's, not tiler's."""
    then = {(r["program"], r["size_set"]): r for r in earlier}
    out = []
    for r in records:
        old = then.get((r["program"], r["size_set"]), {})
        was, now = old.get("ms", {}).get(DEFAULT), r.get("ms", {}).get(DEFAULT)
        if was and now and now > was * slower:
            kernel = r.get("kernel", {}).get(DEFAULT)
            out.append((r, now / was, kernel is not None and kernel == old.get("kernel", {}).get(DEFAULT)))
    return out


def _moved(record: dict, earlier: dict) -> str:
    """How the untiled kernel's own time moved between the runs (the machine's drift)."""
    was = earlier.get((record["program"], record["size_set"]), {}).get("ms", {}).get(UNTILED)
    now = record.get("ms", {}).get(UNTILED)
    return f"; untiled {now / was:.2f}x" if was and now else ""


def summary(records: list[dict], label: str = DEFAULT) -> str:
    """Counts, the geometric mean speedup over untiled, the losers."""
    timed = [r for r in records if speedup(r, label) is not None]
    failed = [r for r in records if "error" in r]  # a whole program, or one of its sizes
    if not timed:
        return f"nothing timed; {len(failed)} failed"
    geo = math.exp(statistics.fmean(math.log(speedup(r, label)) for r in timed))
    lose = losers(records, label)
    lines = [f"{label}: {len(timed)} (program, size) pairs timed, {len(failed)} failed; "
             f"geometric mean speedup over untiled {geo:.2f}x; {len(lose)} more than "
             f"{(SLOWER - 1) * 100:.0f}% slower than untiled"]
    lines += [f"  {r['program']} {r['size_set']}: x{speedup(r, label):.2f}" for r in lose]
    same = noise(records, label)
    if same:
        lines.append(f"  not losers: {len(same)} ran the untiled kernel itself, timed at "
                     + ", ".join(f"x{speedup(r, label):.2f} ({r['program']} {r['size_set']}, "
                                 f"{r['ms'][UNTILED]:.3g} ms)" for r in same))
    return "\n".join(lines)


def versus_default(records: list[dict], label: str, slower: float = SLOWER) -> str:
    """Where a variant is slower than the default (a rule not yet the
    default must not be before it becomes one)."""
    pairs = [(r, r["ms"][label] / r["ms"][DEFAULT]) for r in records
             if r.get("ms", {}).get(label) and r["ms"].get(DEFAULT)]
    worse = [(r, x) for r, x in pairs if x > slower]
    lines = [f"{label} against the default: {len(pairs)} pairs, {len(worse)} more than "
             f"{(slower - 1) * 100:.0f}% slower"]
    lines += [f"  {r['program']} {r['size_set']}: {x:.2f}x the default's time" for r, x in worse]
    return "\n".join(lines)


def earlier_run(path: str) -> list[dict]:
    """The records of an earlier `tiler corpus --json` run, or the user's error."""
    try:
        data = json.loads(Path(path).read_text())
    except OSError as exc:
        raise PlainError(f"--against {path}: cannot read it: {exc.strerror or exc}") from None
    except ValueError as exc:
        raise PlainError(f"--against {path}: not JSON ({exc})") from None
    records = data.get("records") if isinstance(data, dict) else None
    if not isinstance(records, list) or not all(isinstance(r, dict) for r in records):
        raise PlainError(f"--against {path}: not the JSON of a `tiler corpus --json` run (no list of records)")
    return records


def run_command(folder: str, only=(), size_sets: str = ",".join(SIZE_SETS), diagnose: bool = False,
                json_path: str | None = None, against_path: str | None = None, echo=print,
                variants: dict[str, Options] | None = None, peer: bool = False, shard: tuple[int, int] = (1, 1),
                warmers: int | None = None) -> list[dict]:
    """`tiler corpus`: run, print the summary (and what got slower than
    `against_path`'s run), write the JSON. `variants`: more option sets,
    each timed beside the default and compared with it."""
    if not Path(folder).is_dir():
        raise PlainError(f"{folder} is not a folder of programs")
    earlier = earlier_run(against_path) if against_path else None  # (read before any timing: a typo costs none)
    taken = sorted(set(variants or {}) & {UNTILED, DEFAULT, MODEL})
    if taken:
        raise PlainError(f"--variant {taken[0]}: that name is one of the corpus's own variants",
                         "name it otherwise, e.g. kept=--keep-loops")
    extra = {"one point a thread": Options(register_tile=(1,)), "ptxas registers": Options(min_blocks=0),
             "no register tile": Options(no_register_tile=True)} if diagnose else {}
    extra |= variants or {}
    gpu = Gpu.get()

    def save(records):
        if json_path:
            Path(json_path).write_text(json.dumps({"environment": gpu.environment(), "tiler": __version__,
                                                   "records": records}, indent=1))

    if peer:
        from .peer import torch_for_peers

        torch_for_peers()  # (refused before any program is compiled where torch cannot time a twin)
    records = run_corpus(Path(folder), default_variants(extra), tuple(size_sets.split(",")), tuple(only), echo,
                         save, peer, shard, warmers)
    echo(summary(records))
    if peer:
        from .peer import peer_summary

        echo(peer_summary(records))
    for label in (MODEL, *extra):  # the cost model's version alone, then each diagnostic variant
        echo(summary(records, label))
    for label in variants or {}:
        echo(versus_default(records, label))
    if diagnose:
        echo(ranking_summary(records))
    if earlier is not None:
        slower = against(records, earlier)
        changed = [(r, x) for r, x, same in slower if not same]
        echo(f"against {against_path}: {len(changed)} default(s) more than {(SLOWER - 1) * 100:.0f}% slower "
             f"whose kernel is not known to be the one it ran then")
        by_key = {(r["program"], r["size_set"]): r for r in earlier}
        for r, ratio in changed:
            echo(f"  {r['program']} {r['size_set']}: {ratio:.2f}x the earlier time{_moved(r, by_key)}")
        same = [(r, x) for r, x, same in slower if same]
        if same:
            echo(f"  not slower kernels: {len(same)} ran the kernel they ran then, timed at "
                 + ", ".join(f"{x:.2f}x ({r['program']} {r['size_set']}{_moved(r, by_key)})" for r, x in same))
    return records


if __name__ == "__main__":  # an earlier checkout given this file (tools/corpus-baseline) times its own default
    import sys

    folder, size_sets, json_path = (sys.argv[1:] + [None, None])[:3]
    run_command(folder, size_sets=size_sets or ",".join(SIZE_SETS), json_path=json_path)
