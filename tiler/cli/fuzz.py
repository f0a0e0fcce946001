"""`tiler fuzz`: differential testing on random programs (tiler/fuzz/)."""
from __future__ import annotations

import sys
from pathlib import Path

import click

from ..errors import PlainError
from .files import _check_folder
from .guard import EXIT_USER, guarded

MOST_PROGRAMS = 10**9  # a billion programs would take years on one machine: more is a slip of the keyboard
MOST_SEED = 2**63 - 1  # (a seed feeds NumPy's generator and a range of seeds)


@click.command("fuzz")
@click.argument("count", type=click.IntRange(min=0, max=MOST_PROGRAMS), default=100, metavar="N")
@click.option("--seed", default=0, show_default=True, type=click.IntRange(min=0, max=MOST_SEED),
              help="The first program's seed (programs use SEED..SEED+N-1).")
@click.option("--gpu", is_flag=True, help="Also run tiled and untiled kernels on the GPU against the interpreter "
              "(a march version also at sizes where some of its blocks lie inside every edge).")
@click.option("--mutations", default=2, show_default=True, type=click.IntRange(min=0),
              help="Broken variants of each program to try.")
@click.option("--no-nvcc", is_flag=True, help="Do not compile the kernels with nvcc.")
@click.option("--out", default="fuzz-failures", show_default=True, metavar="DIR",
              help="Where failing programs are kept (shrunk where possible).")
@click.option("--perf", is_flag=True,
              help="With --gpu: also time each program's default against its untiled kernel at a size with real "
                   "work; a default more than 10% slower is a failure.")
@click.option("--json", "json_path", metavar="FILE", help="With --perf: write every program's timing to FILE.")
@click.option("--narrow", is_flag=True,
              help="Give the programs f16 and bf16 arrays, literals and conversions (each seed's program in f32 "
                   "otherwise unchanged).")
@click.option("--products", is_flag=True,
              help="Write matrix products instead, the shapes the matrix units take: f32, f16, bf16 or f64, A or B "
                   "transposed, a bias, an epilogue.")
@guarded(deep=False)
def fuzz_cmd(count, seed, gpu, mutations, no_nvcc, out, perf, json_path, narrow, products):
    """Differential testing on N random programs: parse, print, check, interpret
    under several chunkings, compile tiled and untiled (and run them with --gpu;
    time them with --perf)."""
    from rich.progress import Progress

    from ..fuzz import fuzz, summary

    if perf and not gpu:
        raise PlainError("--perf times kernels on the GPU", "add --gpu")
    if narrow and products:
        raise PlainError("--narrow and --products write different programs",
                         "give one: the products already draw f16 and bf16 elements")
    _check_folder(out, "--out")
    if json_path and not perf:
        raise PlainError("--json writes the timings of --perf", "add --gpu --perf")
    if gpu:
        from ..runtime import Gpu
        Gpu.get()
    if not no_nvcc:
        from ..runtime.nvcc import nvcc_path
        if nvcc_path() is None:
            click.echo("note: nvcc is not on PATH, so the kernels are not compiled with it (--no-nvcc skips "
                       "that on purpose)", err=True)
    import json
    timings = []

    def timed(t):  # each timing as it comes: a run cut short keeps what it measured
        from ..fuzz import perf as perf_module
        timings.append(t)
        if json_path:
            Path(json_path).write_text(json.dumps({"environment": Gpu.get().environment(),
                                                   "timings": perf_module.records(timings)}, indent=1))

    with Progress(transient=True) as progress:
        task = progress.add_task("fuzzing", total=count)
        failures = fuzz(count, seed, gpu, mutations, not no_nvcc, out, lambda: progress.advance(task),
                        timed if perf else None, say=click.echo, narrow=narrow,
                        products=products)  # each line flushed as it comes
    if failures:
        click.echo(f"failing programs are in {out}/")
    if perf:
        from ..fuzz import perf as perf_module
        click.echo(perf_module.summary(timings))
    click.echo(summary(count, failures))
    if failures:
        sys.exit(EXIT_USER)
