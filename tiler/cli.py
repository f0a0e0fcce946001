"""The `tiler` command line.

Every command runs behind one error boundary (`guarded`): a mistake in the
user's program or options is printed as a located message with exit code 1;
anything else is an internal compiler error (exit code 3), never a bare
traceback.
"""
from __future__ import annotations

import contextlib
import functools
import sys
import time
from pathlib import Path

import click
import numpy as np

from . import __version__
from .analyse.options import CLI_NAMES, check_size_names
from .deep import call_deep
from .errors import CompilerBug, PlainError, UserError
from .pipeline import STDIN, read_program
from .source import Source

EXIT_USER, EXIT_BUG = 1, 3
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as shells report a command stopped by Ctrl-C


def _program_path(ctx, param, value: str) -> str:
    """A program path the commands can go on with (`-`: standard input): an
    empty one, or one the system refuses to look at (too long, say), is a
    usage mistake here rather than an error deep inside a command."""
    if value == "":
        raise click.BadParameter("the path is empty: name a .fut file, or - for standard input")
    if value != STDIN:
        try:
            Path(value).stat()
        except FileNotFoundError:
            pass  # the command says what is missing (a shipped benchmark's name is found by some)
        except (OSError, ValueError) as exc:
            raise click.BadParameter(f"cannot look at it: {getattr(exc, 'strerror', None) or exc}") from None
    return value


PROGRAM = click.argument("program", metavar="PROG.fut", callback=_program_path)


def guarded(fn=None, *, deep: bool = True):
    """Run a command (on a deep stack, unless it drives the GPU: pycuda's
    objects belong to the thread that made them) and turn every failure into
    a message."""
    if fn is None:
        return lambda f: guarded(f, deep=deep)

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            return call_deep(fn, *args, **kwargs) if deep else fn(*args, **kwargs)
        except (UserError, PlainError) as exc:
            _err(_rendered(exc))
        except RecursionError:  # outside the stages (which locate it): the interpreter, say
            _err("error: the program is nested too deeply for tiler to follow",
                 "  hint: split deep expressions with `let`")
        except CompilerBug as exc:
            _err(exc.render(), code=EXIT_BUG)
        except (KeyboardInterrupt, click.exceptions.Exit, click.ClickException, SystemExit):
            raise
        except Exception as exc:  # noqa: BLE001 - the boundary that keeps tracebacks from users
            _err(CompilerBug(f"{type(exc).__name__}: {exc}").render(), code=EXIT_BUG)

    return wrapper


def _width() -> int | None:
    """Output width: the terminal's, or COLUMNS, else 120 (piped output)."""
    import os

    if sys.stdout.isatty():
        return None
    columns = os.environ.get("COLUMNS", "")
    return int(columns) if columns.isdigit() and int(columns) > 0 else 120


def _rendered(exc: UserError | PlainError) -> str:
    try:
        return exc.render()
    except Exception as bug:  # noqa: BLE001 - a message that cannot be shown is still not a traceback
        return f"error: {exc}\n" + CompilerBug(f"rendering the message: {type(bug).__name__}: {bug}").render()


def _err(*lines: str, code: int = EXIT_USER):
    click.echo("\n".join(lines), err=True)
    sys.exit(code)


def pairs(options, what: str, convert=str) -> dict:
    out = {}
    for item in options:
        name, sep, value = item.partition("=")
        if not sep or not name:
            raise PlainError(f"{what} expects NAME=VALUE, got `{item}`")
        try:
            out[name.strip()] = convert(value.strip())
        except ValueError:
            raise PlainError(f"{what} {name}: `{value}` is not valid") from None
    return out


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="tiler")
def main():
    """tiler: finds tiling opportunities in GPU kernel programs and writes tiled CUDA.

    A program is a kernel in tiler's input language (`tiler docs language`): a host
    prelude and a nest of 1 to 3 maps whose body streams over arrays with
    streamSeq. Every command that takes PROG.fut reads standard input for `-`."""


def checked(path: str):
    return checked_with_source(path)[0]


def checked_with_source(path: str):
    from .pipeline import run_to

    text, name = read_program(path)
    return run_to("check", text, name), Source(text, name)


@main.command("docs")
@click.argument("topic", required=False)
@click.option("--path", "show_path", is_flag=True, help="Print the document's path instead of its text.")
@guarded(deep=False)
def docs_cmd(topic, show_path):
    """Show one of tiler's documents (TOPIC: `language` is the input
    language's reference), or list them; they ship with the package."""
    from .resources import docs_dir

    found = {p.stem: p for p in sorted(docs_dir().glob("*.md"))}
    if topic is None:
        for name, p in found.items():
            heading = next((line.lstrip("# ").strip() for line in p.read_text().splitlines() if line.startswith("#")),
                           "")
            click.echo(f"{name:16} {heading}")
        return
    if topic not in found:
        raise PlainError(f"no document `{topic}`", f"tiler's documents: {', '.join(found)}")
    click.echo(str(found[topic]) if show_path else found[topic].read_text())


@main.command("check")
@PROGRAM
@guarded
def check_cmd(program):
    """Parse and check PROG.fut; print nothing and exit 0 when it is fine."""
    checked(program)


@main.command("run")
@PROGRAM
@click.option("-i", "--input", "inputs", multiple=True, metavar="NAME=FILE.npy",
              help="Read parameter NAME from a .npy file (repeatable).")
@click.option("-s", "--size", "sizes", multiple=True, metavar="NAME=N",
              help="Set a size of the program (repeatable); others come from PROG.toml or default to 100.")
@click.option("--sizes-from", "size_set", default="test", show_default=True,
              type=click.Choice(["test", "quick", "full"]), help="Which size table of PROG.toml to use.")
@click.option("--seed", default=0, show_default=True, type=click.IntRange(min=0), help="Seed of the random inputs.")
@click.option("--chunk", default="whole", show_default=True, metavar="whole|K|random[:SEED]",
              help="How streamSeq splits its arrays; the result must not depend on it.")
@click.option("--check-splits", is_flag=True,
              help="Run under several chunkings and fail if the result depends on the split.")
@click.option("-o", "--output", metavar="OUT.npz", help="Save the outputs (out0, out1, ...).")
@guarded
def run_cmd(program, inputs, sizes, size_set, seed, chunk, check_splits, output):
    """Run PROG.fut in the reference interpreter and summarise its outputs."""
    from .interp import Chunking, run, run_splits
    from .workload import check_given, load_spec, make_inputs, resolve_sizes

    prog, source = checked_with_source(program)
    try:
        chunking = Chunking.parse(chunk)
    except ValueError:
        raise PlainError(f"--chunk: `{chunk}` is not whole, a positive size or random[:SEED]") from None
    given = {name: _load_npy(path) for name, path in pairs(inputs, "--input").items()}
    unknown = set(given) - {p.name for p in prog.kernel.params}
    if unknown:
        raise PlainError(f"--input {sorted(unknown)[0]}: main has no such parameter",
                         f"its parameters are {', '.join(p.name for p in prog.kernel.params)}")
    given, notes = check_given(prog, given)
    for note in notes:
        click.echo(f"note: {note}", err=True)
    spec = load_spec(program) if program != STDIN else None
    size_values = resolve_sizes(prog, pairs(sizes, "--size", int), spec, size_set, given)
    values = make_inputs(prog, size_values, spec, seed, given)
    start = time.perf_counter()
    try:
        if check_splits:
            outs, disagreement = run_splits(prog, values, seed)
            chunking = Chunking("whole")
        else:
            outs, disagreement = run(prog, values, chunking, seed), None
    except UserError as exc:
        raise exc.with_source(source) from None
    elapsed = time.perf_counter() - start
    if disagreement:
        split, agreement = disagreement
        raise PlainError(f"out{agreement.output} depends on how streamSeq splits its arrays: with chunks of "
                         f"{split}, {agreement.message}",
                         "a streamSeq body must give the same result for any split of the array")
    _summary(prog, outs, size_values, chunking, elapsed)
    if output:
        _save(output, outs)


def plan_options(fn):
    """Every plan option (analyse.options.OPTIONS), shared by explain and
    compile, so that explain shows exactly what compile will do."""
    from .analyse.options import OPTIONS, Takes

    for name, o in reversed(OPTIONS.items()):  # click lists the last decorator applied first
        if o.takes is Takes.FLAG:
            fn = click.option(o.flag, name, is_flag=True, help=o.help)(fn)
        elif o.takes is Takes.EITHER:
            fn = click.option(f"{o.flag}/--no-{o.flag[2:]}", name, default=None, help=o.help)(fn)
        else:  # a table is repeatable NAME=N; a whole number is an int; a tile is text
            fn = click.option(o.flag, name, multiple=o.takes is Takes.TABLE, metavar=o.metavar, default=None,
                              type=int if o.takes is Takes.WHOLE else None, help=o.help)(fn)
    return fn


def tuning_options(fn):
    """--tuning and --no-tuning: explain and compile read the same file."""
    fn = click.option("--no-tuning", is_flag=True, help="Ignore PROG.tuning.")(fn)
    fn = click.option("--tuning", "tuning_file", metavar="FILE",
                      help="Read tuned plan parameters from FILE instead of PROG.tuning beside the program.")(fn)
    return fn


def tuned_options(program: str, plan: dict):
    """The plan options, with the program's tuning applied where the command
    line left them at their defaults."""
    from .tuning import for_program

    tuning_file, no_tuning = plan.pop("tuning_file"), plan.pop("no_tuning")
    return for_program(program, options_from(**plan), tuning_file, no_tuning)


def options_from(**given):
    """The plan options from the command line's values (NAME=N pairs for a table)."""
    from .analyse.options import OPTIONS, Takes, make_options

    given = {k: pairs(v, OPTIONS[k].flag, int) if OPTIONS[k].takes is Takes.TABLE else v for k, v in given.items()}
    return make_options(CLI_NAMES, **given)


@main.command("explain")
@PROGRAM
@plan_options
@tuning_options
@click.option("--json", "as_json", is_flag=True, help="Print the analysis as JSON.")
@click.option("--variance", "show_variance", is_flag=True, help="Also print the variance of every name.")
@click.option("--show-transformed", is_flag=True,
              help="Print the program rewritten in the design note's tiled notation.")
@click.option("--candidates", is_flag=True, help="Also list every candidate schedule with its cost, best first.")
@guarded
def explain_cmd(program, as_json, show_variance, show_transformed, candidates, **plan):
    """Show PROG.fut's parallel dimensions, every streamSeq input, what it is
    invariant to, and what was tiled, how and why (or why not)."""
    import json

    from .pipeline import run_all
    from .report.explain import explain_data, render_text
    from .tuning import describe

    _exclusive(("--json", as_json), ("--show-transformed", show_transformed))
    _exclusive(("--candidates", candidates), ("--show-transformed", show_transformed))
    options, applied = tuned_options(program, plan)
    text, name = read_program(program)
    values = run_all(text, name, options, until="verify")
    check_size_names(values["check"].kernel.sizes, options, CLI_NAMES)
    analysis = values["analyse"]
    data = explain_data(analysis, Source(text, name), values["verify"])
    data["tuning"] = describe(applied)
    if show_transformed:
        from .report.transformed import show_transformed as transformed

        click.echo(transformed(values["parse"], analysis), nl=False)
    elif as_json:
        click.echo(json.dumps(data, indent=2))
    else:
        width = _width()
        from rich.console import Console
        click.echo(render_text(data, show_variance, width or Console().width, candidates), nl=False)


from .pipeline import EMITS, STAGE_NAMES, STAGES  # noqa: E402 - the options below are made from the stages


@main.command("compile")
@PROGRAM
@click.option("-o", "--output", default="-", show_default=True, metavar="OUT.cu",
              help="Where to write the CUDA ('-': standard output); OUT.h (the host launcher's header) and "
                   "OUT.launch.json are written beside it. "
                   "With --emit, where the stage's result goes.")
@plan_options
@tuning_options
@click.option("--arch", default="sm_90", show_default=True, help="GPU architecture, for --nvcc and the launch file.")
@click.option("--name", "symbol", default=None, metavar="NAME",
              help="The name in the generated symbols (tiler_NAME_launch, tiler_NAME_tiled, ...) instead of the "
                   "program file's (a program read from - is `stdin`).")
@click.option("--emit", type=click.Choice(EMITS), default=None,
              help="Print one stage's result instead: " + ", ".join(f"{s.emit} ({s.name})" for s in STAGES)
                   + ", launch (the launch description) or header (the host launcher's C header).")
@click.option("--stop-after", type=click.Choice(STAGE_NAMES), default=None,
              help="Run the stages up to this one, print nothing, and exit (0 when they succeed).")
@click.option("--nvcc", "use_nvcc", is_flag=True,
              help="Also compile the CUDA with nvcc and print ptxas's report (registers, spills, shared memory).")
@guarded
def compile_cmd(program, output, arch, emit, stop_after, use_nvcc, symbol, **plan):
    """Compile PROG.fut to a CUDA kernel (tiled as `tiler explain` shows) and
    describe how to launch it."""
    import json

    from . import target
    from .pipeline import run_all, symbol_name
    from .render import launch

    symbol = symbol_name(symbol)

    _exclusive(("--stop-after", stop_after), ("--emit", emit), ("--nvcc", use_nvcc), ("-o", output != "-"))
    _exclusive(("--emit", emit), ("--nvcc", use_nvcc))
    options, _ = tuned_options(program, plan)
    target.check_arch(arch)
    _check_output(output, program, emit)
    text, name = read_program(program)
    if stop_after:
        run_all(text, name, options, until=stop_after, stem=symbol)
        return
    values = run_all(text, name, options, stem=symbol)
    check_size_names(values["check"].kernel.sizes, options, CLI_NAMES)
    describe = dict(launch(values["verify"]), arch=arch)
    if emit:
        shown = _emitted(emit, values, describe, Source(text, name))
        if output == "-":
            click.echo(shown, nl=False)
        else:
            _write(output, shown)
        return
    cuda = values["render"]
    if output == "-":
        click.echo(cuda, nl=False)
    else:
        from .render import header

        stem = str(Path(output).with_suffix(""))
        _write_together({output: cuda, stem + ".launch.json": json.dumps(describe, indent=2) + "\n",
                         stem + ".h": header(values["verify"])})
    if use_nvcc:
        from .runtime.nvcc import compile_report
        click.echo(compile_report(cuda, arch, values["verify"].functions), err=True)


@main.command("tune")
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
@guarded(deep=False)
def tune_cmd(program, sizes, quick, budget, repeat, json_path, plot_path, gpus, fast_math):
    """Search PROG.fut's plan parameters on the GPU (block, chunk, register
    tile, packing, buffering, a loop's rows joined, unrolling, blocks an SM),
    each candidate checked before it is timed, and keep the fastest in
    PROG.tuning, which compile, explain and bench then read."""
    import json

    from rich.console import Console

    from . import autotune, tuning
    from .analyse import make_options
    from .pipeline import run_all
    from .runtime import Gpu
    from .workload import load_spec, resolve_sizes

    if program == STDIN:
        raise PlainError("tune writes PROG.tuning beside the program: give a file, not -")
    prog, source = checked_with_source(program)
    if plot_path:
        _matplotlib()  # before the search, not after
    gpu = Gpu.get()  # no GPU: one clear line, before any work
    spec = load_spec(program)
    size_values = resolve_sizes(prog, pairs(sizes, "--size", int), spec, "quick" if quick else "full")
    text, name = source.text, source.name
    fixed = {"fast_math": True} if fast_math else {}  # every candidate's, not searched
    fams = autotune.families(run_all(text, name, make_options(sizes=size_values, **fixed), until="analyse")["analyse"])
    journal = autotune.Journal(Path(program).with_suffix(tuning.SUFFIX + ".partial.json"), gpu.name, size_values,
                               fast_math)
    if journal.prior:
        click.echo(f"resuming from {journal.path}: {len(journal.prior)} candidates measured", err=True)
    _check_gpus(gpus, gpu)
    if gpus == 1:
        one = autotune.GpuMeasure(text, name, prog, spec, size_values, repeat, gpu, fixed)
        measure, close = autotune.one_at_a_time(one), one.close
    else:
        measure = autotune.Workers(gpus, functools.partial(autotune.gpu_measure, program, text, name, size_values,
                                                           repeat, fixed))
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
    _tune_report(result, size_values, gpu.name + (", --fast-math" if fast_math else ""))
    if result.best.ok:
        path = Path(program).with_suffix(tuning.SUFFIX)
        table = autotune.tuned_table(result, gpu.name, size_values, fast_math)
        tuning.write(path, tuning.merged(tuning.read(path) if path.is_file() else [], table), name)
        click.echo(f"wrote {path}")
    if plot_path:
        _tune_plot(result, plot_path, name)
    if json_path:
        _write(json_path, json.dumps({"program": name, "device": gpu.name, "sizes": size_values, "fast_math": fast_math,
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

    from .autotune import rank_correlation
    from .tuning import flags

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


@main.command("bench")
@click.argument("names", nargs=-1, metavar="NAME... | all | PROG.fut...")
@click.option("--quick", is_flag=True, help="Use the benchmarks' quick sizes instead of the full ones.")
@click.option("-s", "--size", "sizes", multiple=True, metavar="NAME=N", help="Override a size (repeatable).")
@click.option("-i", "--input", "inputs", multiple=True, metavar="NAME=FILE.npy",
              help="Time on this array for parameter NAME (repeatable); it sets the sizes it carries.")
@click.option("--repeat", default=20, show_default=True, help="Timed launches after the warm-up.")
@click.option("--tile", "tiles", multiple=True, metavar="N|N0,N1", help="Also time a tiled variant with these tiles.")
@click.option("--ablate", is_flag=True, help="Also time variants that each remove one technique (vector loads, "
                                             "double buffering, the register tile, the coalesced copy, rows staged "
                                             "to coalesce or transposed by the launch instead, transposed and "
                                             "padded tiles, packed tiles, the default tile, IEEE math).")
@click.option("--fast-math", is_flag=True, help="Also time the tiled kernel with --fast-math (checked within "
                                                "the looser tolerance the bench prints).")
@click.option("--json", "json_path", metavar="FILE", help="Write every measurement as JSON.")
@click.option("--plot", "plot_path", metavar="FILE.png", help="Draw the variants' times (needs matplotlib).")
@guarded(deep=False)
def bench_cmd(names, quick, sizes, inputs, repeat, tiles, ablate, fast_math, json_path, plot_path):
    """Compile, check and time the untiled and tiled variants of benchmarks, or
    of any program (PROG.fut), on the GPU."""
    from .bench import bench_one, benchmark_names, variants
    from .runtime import Gpu

    known = benchmark_names()
    chosen = known if not names or "all" in names else list(names)
    for n in chosen:
        if not n.endswith(".fut") and n not in known:
            raise PlainError(f"no benchmark called `{n}`",
                             f"choose from {', '.join(known)} or all, or give a program's .fut file")
    given = _bench_inputs(chosen, {name: _load_npy(path) for name, path in pairs(inputs, "--input").items()})
    if repeat < 1:
        raise PlainError("--repeat must be at least 1")
    if plot_path:
        _matplotlib()  # before the benchmarks run, not after
    gpu = Gpu.get()  # no GPU: one clear line, before any work
    overrides = pairs(sizes, "--size", int)
    vs = variants(tuple(tiles), ablate, fast_math)
    results = []
    from rich.console import Console
    from rich.progress import Progress

    console = Console(highlight=False)
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task("benchmarking", total=len(chosen) * len(vs))
        for n in chosen:
            progress.update(task, description=n)
            results.append(bench_one(n, "quick" if quick else "full", overrides, repeat, vs,
                                     lambda: progress.advance(task), given[n]))
    for r in results:
        console.print(_bench_table(r))
    if json_path:
        _write(json_path, _bench_json(results, gpu.environment()))
    if plot_path:
        _plot(results, plot_path)


@main.command("corpus")
@click.argument("folder", default="corpus", metavar="[DIR]")
@click.option("--only", multiple=True, metavar="NAME", help="Only this program of the corpus (repeatable).")
@click.option("--sizes", "size_sets", default="small,medium,large", show_default=True,
              help="The size tables of each program's .toml to time at.")
@click.option("--diagnose", is_flag=True, help="Also time the variants that each leave one size-dependent "
                                               "choice out (coarsening and register tiles, launch bounds), and "
                                               "report the cost model's rank correlation with their times.")
@click.option("--json", "json_path", metavar="FILE", help="Write every measurement as JSON.")
@click.option("--against", "against_path", metavar="FILE", help="An earlier run's JSON: list the programs whose "
                                                                 "default got more than 5% slower.")
@guarded(deep=False)
def corpus_cmd(folder, only, size_sets, diagnose, json_path, against_path):
    """Time every program of a performance corpus (DIR/*.fut, each with a
    .toml of test, small, medium and large sizes), compiled as a user would
    (no sizes given), against its untiled kernel; print the losers."""
    from .bench.corpus import run_command

    run_command(folder, only, size_sets, diagnose, json_path, against_path, click.echo)


def _bench_inputs(chosen: list[str], arrays: dict) -> dict:
    """For each program benched (checked here: a mistake in one is located
    before any GPU work), the --input arrays for its parameters, checked
    against their types (with a note for each conversion); each --input must
    name a parameter of some program."""
    from .bench import program_path
    from .workload import check_given

    out, used = {}, set()
    for n in chosen:
        prog = checked(str(program_path(n)[0]))
        mine = {k: v for k, v in arrays.items() if k in {p.name for p in prog.kernel.params}}
        out[n], notes = check_given(prog, mine)
        used |= set(mine)
        for note in notes:
            click.echo(f"note: {n}: {note}", err=True)
    for name in arrays:
        if name not in used:
            raise PlainError(f"--input {name}: no program benched has a parameter `{name}`")
    return out


def _bench_table(r: dict):
    from rich.table import Table

    sizes = ", ".join(f"{k}={v}" for k, v in r["sizes"].items())
    table = Table(title=f"{r['benchmark']} ({sizes}) on {r['device']}, median of {r['repeat']}",
                  title_justify="left")
    for col in ("variant", "block", "ms", "spread", "GFLOP/s", "GB/s", "speedup", "check"):
        table.add_column(col, justify="right" if col in ("ms", "spread", "GFLOP/s", "GB/s", "speedup") else "left")
    for row in r["rows"]:
        table.add_row(row.variant, row.block, f"{row.ms:.3f}", f"{row.spread:.3f}",
                      f"{row.gflops:,.0f}" if row.gflops else "-", f"{row.gbps:,.0f}" if row.gbps else "-",
                      f"{row.speedup:.2f}x" if row.speedup else "-", row.check)
    return table


BENCH_SCHEMA = 2  # 1: a bare list of results; 2: an object with the run's environment


def _bench_json(results, environment: dict) -> str:
    """The measurements, with what makes them reproducible: when, on what,
    with which tiler (and commit), sizes and input seeds."""
    import datetime
    import json

    from . import __version__
    from .bench import CHECK_SEED, INPUT_SEED

    out = []
    for r in results:
        out.append({**{k: v for k, v in r.items() if k != "rows"},
                    "variants": [{"variant": row.variant, "block": row.block, "ms": row.ms, "times_ms": row.times,
                                  "gflops": row.gflops, "gbps": row.gbps, "speedup": row.speedup,
                                  "check": row.check}
                                 for row in r["rows"]]})
    run = {"schema": BENCH_SCHEMA, "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
           "tiler": __version__, "commit": _commit(), "command": ["tiler", *sys.argv[1:]],
           "environment": environment, "input_seed": INPUT_SEED, "check_seed": CHECK_SEED, "results": out}
    return json.dumps(run, indent=2) + "\n"


def _commit() -> str | None:
    """The git commit of tiler's checkout (with `+` when it has changes), or None for an installed copy."""
    import subprocess

    root = Path(__file__).resolve().parent.parent
    if not _is_tilers_checkout(root):  # an installed copy, perhaps inside the user's own repository
        return None
    try:
        head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True, timeout=10)
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=root,
                               capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    if head.returncode != 0:
        return None
    return head.stdout.strip() + ("+" if dirty.stdout.strip() else "")


def _is_tilers_checkout(root: Path) -> bool:
    """`root` is the top of a git checkout of tiler itself (its own pyproject.toml names the project)."""
    import subprocess

    try:
        top = subprocess.run(["git", "rev-parse", "--show-toplevel"], cwd=root, capture_output=True, text=True,
                             timeout=10).stdout.strip()
        project = (root / "pyproject.toml").read_text()
    except (OSError, subprocess.SubprocessError):
        return False
    return bool(top) and Path(top).resolve() == root and 'name = "tiler-compiler"' in project


def _matplotlib():
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise PlainError("--plot needs matplotlib", "pip install matplotlib (or tiler's [plot] extra)") from None
    return plt


def _plot(results, path: str) -> None:
    plt = _matplotlib()
    fig, axes = plt.subplots(len(results), 1, figsize=(8, 2.5 * len(results)), squeeze=False)
    for ax, r in zip(axes[:, 0], results):
        ax.barh([row.variant for row in r["rows"]], [row.ms for row in r["rows"]])
        ax.set_title(r["benchmark"])
        ax.set_xlabel("ms (median)")
    fig.tight_layout()
    fig.savefig(path)


def _tune_plot(result, path: str, program: str) -> None:
    """The candidates timed: measured ms against the cost model's estimate."""
    from .tuning import flags

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


@main.command("fuzz")
@click.argument("count", type=click.IntRange(min=0), default=100, metavar="N")
@click.option("--seed", default=0, show_default=True, type=click.IntRange(min=0),
              help="The first program's seed (programs use SEED..SEED+N-1).")
@click.option("--gpu", is_flag=True, help="Also run tiled and untiled kernels on the GPU against the interpreter.")
@click.option("--mutations", default=2, show_default=True, type=click.IntRange(min=0),
              help="Broken variants of each program to try.")
@click.option("--no-nvcc", is_flag=True, help="Do not compile the kernels with nvcc.")
@click.option("--out", default="fuzz-failures", show_default=True, metavar="DIR",
              help="Where failing programs are kept (shrunk where possible).")
@click.option("--perf", is_flag=True,
              help="With --gpu: also time each program's default against its untiled kernel at a size with real "
                   "work; a default more than 10% slower is a failure.")
@click.option("--json", "json_path", metavar="FILE", help="With --perf: write every program's timing to FILE.")
@guarded(deep=False)
def fuzz_cmd(count, seed, gpu, mutations, no_nvcc, out, perf, json_path):
    """Differential testing on N random programs: parse, print, check, interpret
    under several chunkings, compile tiled and untiled (and run them with --gpu;
    time them with --perf)."""
    from rich.progress import Progress

    from .fuzz import fuzz, summary

    if perf and not gpu:
        raise PlainError("--perf times kernels on the GPU", "add --gpu")
    _check_folder(out, "--out")
    if json_path and not perf:
        raise PlainError("--json writes the timings of --perf", "add --gpu --perf")
    if gpu:
        from .runtime import Gpu
        Gpu.get()
    if not no_nvcc:
        from .runtime.nvcc import nvcc_path
        if nvcc_path() is None:
            click.echo("note: nvcc is not on PATH, so the kernels are not compiled with it (--no-nvcc skips "
                       "that on purpose)", err=True)
    import json
    timings = []

    def timed(t):  # each timing as it comes: a run cut short keeps what it measured
        from .fuzz import perf as perf_module
        timings.append(t)
        if json_path:
            Path(json_path).write_text(json.dumps({"environment": Gpu.get().environment(),
                                                   "timings": perf_module.records(timings)}, indent=1))

    with Progress(transient=True) as progress:
        task = progress.add_task("fuzzing", total=count)
        failures = fuzz(count, seed, gpu, mutations, not no_nvcc, out, lambda: progress.advance(task),
                        timed if perf else None)
    for f in failures:
        first = f.message.splitlines()[0] if f.message else ""
        click.echo(f"seed {f.seed}: {f.stage}: {first[:300]}")
    if failures:
        click.echo(f"failing programs are in {out}/")
    if perf:
        from .fuzz import perf as perf_module
        click.echo(perf_module.summary(timings))
    click.echo(summary(count, failures))
    if failures:
        sys.exit(EXIT_USER)


def _emitted(emit: str, values: dict, describe: dict, source: Source) -> str:
    import json

    from .report.dump import dump
    from .report.explain import explain_data
    from .syntax import pretty

    if emit == "launch":
        return json.dumps(describe, indent=2) + "\n"
    if emit == "header":
        from .render import header
        return header(values["verify"])
    stage = next(s for s in STAGES if s.emit == emit)
    value = values[stage.name]
    if stage.name == "parse":
        return pretty(value)
    if stage.name == "analyse":
        return json.dumps(explain_data(value, source), indent=2) + "\n"
    if stage.name == "render":
        return value
    return dump(value)


def _exclusive(first, *others) -> None:
    """Refuse `first` (flag, value) given together with any of `others`: a
    conflict is an error, never settled silently by one of them."""
    flag, value = first
    clash = [f for f, v in others if v]
    if value and clash:
        raise PlainError(f"{flag} and {clash[0]} cannot be used together", "give one of them")


HEADER_SUFFIXES = (".h", ".hpp", ".cuh")


def _check_output(output: str, program: str, emit: str | None) -> None:
    """Refuse an -o that would destroy or lose work: the program itself, or a
    header name for the kernels (which then went nowhere)."""
    if output == "-":
        return
    if program != STDIN and Path(output).resolve() == Path(program).resolve():
        raise PlainError(f"-o {output} would write over the program", "name the CUDA file, e.g. -o kernel.cu")
    if emit is None and Path(output).suffix in HEADER_SUFFIXES:
        stem = Path(output).with_suffix("")
        raise PlainError(f"-o {output}: -o names the CUDA file; the header is written beside it as {stem}.h",
                         f"write -o {stem}.cu (or --emit header -o {output} for the header alone)")


def _write(path: str, text: str) -> None:
    _write_together({path: text})


def _write_together(files: dict[str, str]) -> None:
    """Every file written whole, as one set: each goes to a temporary file
    beside it first (so a failure leaves nothing behind, and a reader never
    sees half a file), then all are renamed into place while holding a lock
    on their folder, so two runs writing the same names at once leave one
    run's set, not a mix of both."""
    import errno
    import os
    import tempfile

    done: dict[str, str] = {}
    path = next(iter(files))
    umask = os.umask(0)
    os.umask(umask)
    try:
        for path in files:  # a folder in a file's place would stop the renames halfway
            if os.path.isdir(path):
                raise IsADirectoryError(errno.EISDIR, "Is a directory", path)
        for path, text in files.items():
            if os.path.exists(path) and not os.path.isfile(path):
                with open(path, "w") as f:  # a device or a pipe (/dev/stdout): written in place, never replaced
                    f.write(text)
                continue
            folder = os.path.dirname(os.path.abspath(path))
            fd, temporary = tempfile.mkstemp(prefix=f".{os.path.basename(path)}.", dir=folder)
            done[path] = temporary
            os.chmod(temporary, 0o666 & ~umask)  # the mode a plain write would give (mkstemp's is 0600)
            with os.fdopen(fd, "w") as f:
                f.write(text)
        with _folder_lock(os.path.dirname(os.path.abspath(next(iter(files))))):
            for path, temporary in done.items():
                os.replace(temporary, path)
    except OSError as exc:
        for temporary in done.values():
            if os.path.exists(temporary):
                os.remove(temporary)
        raise PlainError(f"cannot write {path}: {exc.strerror or exc}") from None


@contextlib.contextmanager
def _folder_lock(folder: str):
    """An exclusive lock on a folder (flock, where the system has it; without
    one, each file is still replaced whole)."""
    import os
    try:
        import fcntl
        fd = os.open(folder, os.O_RDONLY)
    except (ImportError, OSError):
        yield
        return
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
        except OSError:
            pass  # a folder that takes no lock: each file is still replaced whole
        yield
    finally:
        os.close(fd)  # (closing releases the lock)


def _check_folder(path: str, flag: str) -> None:
    """A folder written only at the end (and only if there is something to
    write) can be made there: found out now, not after the run."""
    folder = Path(path)
    if folder.exists() and not folder.is_dir():
        raise PlainError(f"{flag} {path} is a file, not a folder")
    made = not folder.exists()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        if made:
            folder.rmdir()  # (a parent it made stays: empty, harmless)
    except OSError as exc:
        raise PlainError(f"{flag} {path}: cannot make a folder there: {exc.strerror or exc}") from None


def _load_npy(path: str):
    """The array, read through a memory map first: a header that claims more
    elements than the file holds is refused, not allocated."""
    try:
        mapped = np.load(path, mmap_mode="r", allow_pickle=False)
        return np.array(mapped) if isinstance(mapped, np.memmap) else mapped
    except (FileNotFoundError, PermissionError, IsADirectoryError) as exc:
        raise PlainError(f"cannot read {path}: {exc.strerror or exc}") from None
    except (OSError, ValueError, EOFError):  # an empty file, a cut one, a header past the data, not .npy at all
        raise PlainError(f"{path} is not a .npy array file, or not a whole one", "write one with numpy.save(path, array)") from None
    except MemoryError:
        raise PlainError(f"{path}: the array does not fit in memory") from None


def _save(path: str, outs) -> None:
    try:
        with open(path, "wb") as f:  # (given a name, np.savez would append .npz to one without it)
            np.savez(f, **{f"out{i}": o for i, o in enumerate(outs)})
    except OSError as exc:
        raise PlainError(f"cannot write {path}: {exc.strerror or exc}") from None


def _summary(prog, outs, sizes, chunking, elapsed: float) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console(highlight=False, width=_width())
    shown = ", ".join(f"{k}={v}" for k, v in sizes.items())
    console.print(f"[bold]{prog.file}[/]: sizes {shown}; chunks {chunking}; {elapsed:.3f} s")
    table = Table("output", "shape", "dtype", "first values", "checksum (sum)", "min", "max")
    for i, o in enumerate(outs):
        flat = o.reshape(-1)
        first = ", ".join(f"{v:.6g}" if o.dtype.kind == "f" else str(v) for v in flat[:3])
        stats = (f"{flat.astype(np.float64).sum():.9g}", f"{flat.min():.6g}", f"{flat.max():.6g}") \
            if flat.size else ("0", "-", "-")
        table.add_row(f"out{i}", str(o.shape), str(o.dtype), first + (", ..." if flat.size > 3 else ""), *stats)
    console.print(table)




def entry() -> None:
    """The console script: like `main`, but a usage mistake (an unknown
    option or value) exits with 1, as every user error does."""
    try:
        code = main.main(standalone_mode=False)
    except click.exceptions.NoArgsIsHelpError as exc:  # `tiler` alone: show the help
        click.echo(exc.ctx.get_help())
        sys.exit(0)
    except click.UsageError as exc:
        exc.show()
        sys.exit(EXIT_USER)
    except click.Abort:  # Ctrl-C (click turns the KeyboardInterrupt into this): the shell's code for SIGINT
        click.echo("interrupted", err=True)
        sys.exit(EXIT_INTERRUPTED)
    sys.exit(code if isinstance(code, int) else 0)
