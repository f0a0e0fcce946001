"""`tiler tune`: the search for a program's fastest plan parameters on the
GPU (tiler/tune/autotune.py), its report, and the PROG.tuning it writes.
"""
from __future__ import annotations

import functools
from pathlib import Path

import click

from ..errors import PlainError
from ..pipeline import STDIN, program_file
from .arguments import PROGRAM, checked_with_source, pairs
from .display import _matplotlib
from .files import _write, refuse_overwriting
from .guard import guarded


@click.command("tune")
@PROGRAM
@click.option("-s", "--size", "sizes", multiple=True, metavar="NAME=N",
              help="Tune at this size (repeatable); others from PROG.toml's full sizes, or 100.")
@click.option("--quick", is_flag=True, help="Tune at PROG.toml's quick sizes instead of the full ones.")
@click.option("--budget", default=120.0, show_default=True, type=click.FloatRange(min=1),
              help="Seconds the search may take (the default schedule is always measured).")
@click.option("--repeat", default=10, show_default=True, type=click.IntRange(min=1),
              help="Timed launches a candidate.")
@click.option("--json", "json_path", metavar="FILE", help="Write every trial as JSON.")
@click.option("--plot", "plot_path", metavar="FILE.png",
              help="Draw every candidate's time against the cost model's estimate (needs matplotlib).")
@click.option("--gpus", default=1, show_default=True, type=click.IntRange(min=1), metavar="N",
              help="Measure N candidates at once, one on each of N GPUs of this host (of one model).")
@click.option("--fast-math", is_flag=True,
              help="Tune the kernel --fast-math compiles (the table then applies only to commands given it).")
@click.option("--keep-loops", is_flag=True,
              help="Tune the kernel --keep-loops compiles (the table then applies only to commands given it).")
@click.option("--tensor-cores", is_flag=True,
              help="Tune the kernel --tensor-cores compiles (the table then applies only to commands given it).")
@guarded(deep=False)
def tune_cmd(program, sizes, quick, budget, repeat, json_path, plot_path, gpus, fast_math, keep_loops, tensor_cores):
    """Search PROG.fut's plan parameters on the GPU (block, chunk, register
    tile, packing, buffering, a loop's rows joined, unrolling, blocks an SM),
    each candidate checked before it is timed, and keep the fastest in
    PROG.tuning, which compile, explain and bench then read."""
    import json

    from rich.console import Console

    from ..analyse import make_options
    from ..pipeline import run_all
    from ..runtime import Gpu
    from ..tune import autotune, tuning
    from ..workload import load_spec, resolve_sizes, split_given

    if program == STDIN:
        raise PlainError("tune writes PROG.tuning beside the program: give a file, not -")
    prog, source = checked_with_source(program)
    written = Path(program).with_suffix(tuning.SUFFIX)
    refuse_overwriting({written: "the tuning file", written.with_suffix(tuning.SUFFIX + ".partial.json"):
                        "its journal", json_path: "--json", plot_path: "--plot"}, {program_file(program): "the program"})
    if plot_path:
        _matplotlib()  # before the search, not after
    gpu = Gpu.get()  # no GPU: one clear line, before any work
    spec = load_spec(program_file(program))
    named, values = split_given(prog, pairs(sizes, "--size"), "--size")  # (and scalar parameters' values)
    size_values = resolve_sizes(prog, named, spec, "quick" if quick else "full")
    text, name = source.text, source.name
    fixed = {k: True for k, on in (("fast_math", fast_math), ("keep_loops", keep_loops),
                                   ("tensor_cores", tensor_cores)) if on}  # not searched
    fams = autotune.families(run_all(text, name, make_options(sizes=size_values, **fixed), until="analyse")["analyse"])
    journal = autotune.Journal(Path(program).with_suffix(tuning.SUFFIX + ".partial.json"), gpu.name, size_values,
                               fast_math, keep_loops, tensor_cores)
    if journal.prior:
        click.echo(f"resuming from {journal.path}: {len(journal.prior)} candidates measured", err=True)
    _check_gpus(gpus, gpu)
    if gpus == 1:
        one = autotune.GpuMeasure(text, name, prog, spec, size_values, repeat, gpu, fixed, values)
        measure, close = autotune.one_at_a_time(one), one.close
    else:
        measure = autotune.Workers(gpus, functools.partial(autotune.gpu_measure, program, text, name, size_values,
                                                           repeat, fixed, values))
        close = measure.close
    estimate = autotune.estimator(text, name, size_values, gpu, fixed)
    try:
        with Console(highlight=False, stderr=True).status("measuring the default schedule") as status:
            seen: list = []

            def record(trial):
                seen.append(trial)
                best = min((t.ms for t in seen if t.ok), default=None)
                status.update(f"{len(seen)} tried" + (f", best {best:.4g} ms" if best else "") + ": "
                              f"{tuning.flags(trial.parameters) or 'the default'}: {trial.verdict}")
                journal.record(trial)
            result = autotune.search(fams, autotune.resumed(measure, journal.prior), budget, progress=record,
                                     width=gpus, estimate=estimate)
    finally:
        close()
    journal.close()
    _tune_report(result, size_values, gpu.name + "".join(f", --{k.replace('_', '-')}" for k in fixed))
    if result.best.ok:
        path = Path(program).with_suffix(tuning.SUFFIX)
        table = autotune.tuned_table(result, gpu.name, size_values, fast_math, keep_loops, tensor_cores)
        tuning.write(path, tuning.merged(tuning.read(path) if path.is_file() else [], table), name)
        click.echo(f"wrote {path}")
    if plot_path:
        _tune_plot(result, plot_path, name)
    if json_path:
        _write(json_path, json.dumps({"program": name, "device": gpu.name, "sizes": size_values, "fast_math": fast_math,
                                      "keep_loops": keep_loops, "tensor_cores": tensor_cores,
                                      "stopped": result.stopped,
                                      "rank_correlation": autotune.rank_correlation(result.trials),
                                      "trials": [autotune.trial_json(t) for t in result.trials]}, indent=2) + "\n")


def _check_gpus(count: int, gpu) -> None:
    """--gpus N: N GPUs there, all of the model the tuning file will name."""
    drv = gpu.drv
    if count > drv.Device.count():
        raise PlainError(f"--gpus {count}: this host has {drv.Device.count()} GPU(s)")
    names = {drv.Device(n).name() for n in range(count)}
    if names != {gpu.name}:
        raise PlainError(f"--gpus {count}: the GPUs are of different models ({', '.join(sorted(names))}); "
                         "a tuning holds for one", "tune on GPUs of one model (CUDA_VISIBLE_DEVICES picks them)")


def _tune_report(result, sizes: dict, device: str) -> None:
    from rich.console import Console
    from rich.table import Table

    from ..tune.autotune import rank_correlation
    from ..tune.tuning import flags

    shown = ", ".join(f"{k}={v}" for k, v in sizes.items())
    table = Table(title=f"tiler tune at {shown} on {device}", title_justify="left")
    for col in ("candidate", "ms", "cost model", "check"):
        table.add_column(col, justify="right" if col in ("ms", "cost model") else "left")
    for t in result.trials:
        table.add_row(flags(t.parameters) or "default", f"{t.ms:.3f}" if t.ms is not None else "-",
                      f"{t.cost:.4g}" if t.cost is not None else "-", t.verdict)
    Console(highlight=False).print(table)
    rho = rank_correlation(result.trials)
    click.echo("the cost model's ranking against the measured times: " +
               (f"Spearman {rho:.2f}" if rho is not None else "not defined (it ranks these candidates alike)"))
    best, default = result.best, result.default
    if best.ok and default.ok:
        click.echo(f"best: {flags(best.parameters) or 'the default'}: {best.ms:.3f} ms, the default "
                   f"{default.ms:.3f} ms ({default.ms / best.ms:.2f}x)" + (f"; {result.stopped}" if result.stopped
                                                                           else ""))


def _tune_plot(result, path: str, program: str) -> None:
    """The candidates timed: measured ms against the cost model's estimate."""
    from ..tune.tuning import flags

    plt = _matplotlib()
    timed = [t for t in result.trials if t.ok and t.cost is not None]
    fig, ax = plt.subplots(figsize=(7, 5))
    ax.scatter([t.cost for t in timed], [t.ms for t in timed])
    for t in timed:
        ax.annotate(flags(t.parameters) or "default", (t.cost, t.ms), fontsize=7)
    ax.set_xlabel("cost model (global loads a point per streamed element)")
    ax.set_ylabel("ms (median)")
    ax.set_title(f"tiler tune: {program}")
    fig.tight_layout()
    fig.savefig(path)
