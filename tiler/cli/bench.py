"""`tiler bench` and `tiler corpus`: timings on the GPU, of benchmarks or
any program, and of a performance corpus; the JSON a run records (with the
commit of tiler that made it) and its drawing.
"""
from __future__ import annotations

import sys
from pathlib import Path

import click

from ..errors import PlainError
from .arguments import checked, options_of_flags, pairs
from .display import _matplotlib
from .files import _load_npy, _write, refuse_overwriting
from .guard import guarded


@click.command("bench")
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
@click.option("--tensor-cores", is_flag=True, help="Also time the tiled kernel with --tensor-cores (checked within "
                                                   "the looser tolerance the bench prints).")
@click.option("--json", "json_path", metavar="FILE", help="Write every measurement as JSON.")
@click.option("--plot", "plot_path", metavar="FILE.png", help="Draw the variants' times (needs matplotlib).")
@click.option("--list", "listing", is_flag=True,
              help="List the shipped benchmarks, what each computes and its quick and full sizes (no GPU needed).")
@guarded(deep=False)
def bench_cmd(names, quick, sizes, inputs, repeat, tiles, ablate, fast_math, tensor_cores, json_path, plot_path,
              listing):
    """Compile, check and time the untiled and tiled variants of benchmarks, or
    of any program (PROG.fut), on the GPU."""
    from ..bench import bench_one, benchmark_names, variants
    from ..runtime import Gpu

    known = benchmark_names()
    if listing:
        if names:
            raise PlainError("--list lists every benchmark: give it no names", "tiler bench --list")
        click.echo(_listing(known))
        return
    chosen = known if not names or "all" in names else list(names)
    for n in chosen:
        if not n.endswith(".fut") and n not in known:
            raise PlainError(f"no benchmark called `{n}`",
                             f"choose from {', '.join(known)} or all, or give a program's .fut file")
    files = pairs(inputs, "--input")
    from ..bench import program_path

    refuse_overwriting({json_path: "--json", plot_path: "--plot"},
                       {program_path(n)[0]: f"the program {n}" for n in chosen} | {p: f"input {n}" for n, p in files.items()})
    given = _bench_inputs(chosen, {name: _load_npy(path) for name, path in files.items()})
    if repeat < 1:
        raise PlainError("--repeat must be at least 1")
    if plot_path:
        _matplotlib()  # before the benchmarks run, not after
    gpu = Gpu.get()  # no GPU: one clear line, before any work
    overrides = pairs(sizes, "--size")  # (sizes, and scalar parameters' values: each program's own, bench_one)
    vs = variants(tuple(tiles), ablate, fast_math, tensor_cores)
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


def _listing(names: list[str]) -> str:
    """Each shipped benchmark: its name, its title and its quick and full sizes."""
    from ..bench import program_path
    from ..workload import load_spec

    lines = []
    for name in names:
        spec = load_spec(program_path(name)[0])
        sets = "; ".join(f"{which}: " + ", ".join(f"{k}={v}" for k, v in spec.sizes[which].items())
                         for which in ("quick", "full") if which in spec.sizes)
        lines.append(f"{name:15} {spec.title}\n{'':15} {sets}")
    return "\n".join(lines)


@click.command("corpus")
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
@click.option("--variant", "variants", multiple=True, metavar="NAME=FLAGS",
              help="Also time each program compiled with these plan flags (`kept=--keep-loops`), "
                   "raced as the default is, and list where it is slower than untiled or the default "
                   "(repeatable): how a rule is measured before it becomes the default.")
@click.option("--peer", is_flag=True, help="Also time each program's PyTorch twin (NAME.py beside it: torch_twin), "
                                           "eager and under torch.compile, TF32 off, checked first against the "
                                           "interpreter; print each ratio to tiler's default and the median.")
@click.option("--shard", default="1/1", show_default=True, metavar="K/N",
              help="Only the K-th of every N programs (in name order): a corpus timed across several calls, "
                   "each writing its own --json.")
@click.option("--peer-warmers", "warmers", type=click.IntRange(min=0), default=None, metavar="N",
              help="With --peer: processes that compile the twins under torch.compile before anything is timed, "
                   "filling torch's caches (default: up to 8, half the CPUs; 0: none).")
@guarded(deep=False)
def corpus_cmd(folder, only, size_sets, diagnose, json_path, against_path, variants, peer, shard, warmers):
    """Time every program of a performance corpus (DIR/*.fut, each with a
    .toml of test, small, medium and large sizes), compiled as a user would
    (no sizes given), against its untiled kernel; print the losers."""
    import shlex

    from ..bench.corpus import run_command

    extra = {name: options_of_flags(shlex.split(flags)) for name, flags in pairs(variants, "--variant").items()}
    run_command(folder, only, size_sets, diagnose, json_path, against_path, click.echo, extra, peer,
                _shard(shard), warmers)


def _shard(text: str) -> tuple[int, int]:
    """`K/N` as (K, N), 1 <= K <= N; a bad value is the user's error."""
    k, _, n = text.partition("/")
    if not (k.isdigit() and n.isdigit() and 1 <= int(k) <= int(n)):
        raise PlainError(f"--shard {text}: the K-th of every N programs, 1 <= K <= N",
                         "give it as K/N: --shard 1/3, --shard 2/3 and --shard 3/3 time the corpus in three calls")
    return int(k), int(n)


def _bench_inputs(chosen: list[str], arrays: dict) -> dict:
    """For each program benched (checked here: a mistake in one is located
    before any GPU work), the --input arrays for its parameters, checked
    against their types (with a note for each conversion); each --input must
    name a parameter of some program."""
    from ..bench import program_path
    from ..workload import check_given

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

    from ..version import __version__
    from ..workload.checks import CHECK_SEED, INPUT_SEED

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

    root = Path(__file__).resolve().parents[2]  # tiler/cli/bench.py -> the checkout's top
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


def _plot(results, path: str) -> None:
    plt = _matplotlib()
    fig, axes = plt.subplots(len(results), 1, figsize=(8, 2.5 * len(results)), squeeze=False)
    for ax, r in zip(axes[:, 0], results):
        ax.barh([row.variant for row in r["rows"]], [row.ms for row in r["rows"]])
        ax.set_title(r["benchmark"])
        ax.set_xlabel("ms (median)")
    fig.tight_layout()
    fig.savefig(path)
