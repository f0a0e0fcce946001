"""`tiler check` and `tiler run`: a program checked, and run in the
reference interpreter.
"""
from __future__ import annotations

import contextlib
import time
from pathlib import Path

import click

from ..errors import PlainError, UserError
from ..pipeline import STDIN, program_file
from .arguments import PROGRAM, WERROR, checked_with_source, pairs, warned
from .display import _width
from .files import _load_npy, _save, refuse_overwriting
from .guard import guarded


@click.command("check")
@PROGRAM
@WERROR
@guarded
def check_cmd(program, werror):
    """Parse and check PROG.fut; exit 0 when it is fine (printing only
    warnings, such as a chunk read past its end; --werror: as errors, exit 1)."""
    _chunk_warnings(*checked_with_source(program), werror)


def _chunk_warnings(prog, source, werror: bool = False) -> None:
    """Chunks read as if they were whole arrays (report.warnings.chunk_reads):
    right under `run`'s whole chunks, wrong split and in the kernels."""
    from ..kernel import inline_kernel
    from ..report.warnings import chunk_reads

    warned(chunk_reads(inline_kernel(prog)), source, werror)


@click.command("run")
@PROGRAM
@click.option("-i", "--input", "inputs", multiple=True, metavar="NAME=FILE.npy",
              help="Read parameter NAME from a .npy file (repeatable).")
@click.option("-s", "--size", "sizes", multiple=True, metavar="NAME=VALUE",
              help="Set a size of the program, or a scalar parameter's value (repeatable); other sizes come from "
                   "PROG.toml or default to 100, other scalars are random.")
@click.option("--sizes-from", "size_set", default=None, metavar="TABLE",
              help="Which size table of PROG.toml to use: test, quick or full (a corpus program's: small, medium, "
                   "large) [default: test, where PROG.toml has one].")
@click.option("--seed", default=0, show_default=True, type=click.IntRange(min=0), help="Seed of the random inputs.")
@click.option("--chunk", default="whole", show_default=True, metavar="whole|K|random[:SEED]",
              help="How streamSeq splits its arrays; the result must not depend on it.")
@click.option("--check-splits", is_flag=True,
              help="Run under several chunkings and fail if the result depends on the split.")
@click.option("-o", "--output", metavar="OUT.npz", help="Save the outputs (out0, out1, ...) as an .npz archive "
                                                       "('-': to standard output).")
@guarded
def run_cmd(program, inputs, sizes, size_set, seed, chunk, check_splits, output):
    """Run PROG.fut in the reference interpreter and summarise its outputs."""
    from ..interp import SPLITS, Chunking, run, run_splits
    from ..workload import check_given, check_run_memory, load_spec, make_inputs, resolve_sizes, split_given

    prog, source = checked_with_source(program)
    _chunk_warnings(prog, source)
    try:
        chunking = Chunking.parse(chunk)
    except ValueError:
        raise PlainError(f"--chunk: `{chunk}` is not whole, a positive size or random[:SEED]") from None
    files = pairs(inputs, "--input")
    refuse_overwriting([output], {program_file(program): "the program"} | {p: f"input {n}" for n, p in files.items()})
    given = {name: _load_npy(path) for name, path in files.items()}
    size_given, values = split_given(prog, pairs(sizes, "--size"), "-s")
    both = sorted(set(values) & set(given))
    if both:
        raise PlainError(f"-s {both[0]} and --input {both[0]} both give `{both[0]}` a value", "give one of them")
    given |= values
    unknown = set(given) - {p.name for p in prog.kernel.params}
    if unknown:
        raise PlainError(f"--input {sorted(unknown)[0]}: main has no such parameter",
                         f"its parameters are {', '.join(p.name for p in prog.kernel.params)}")
    given, notes = check_given(prog, given)
    for note in notes:
        click.echo(f"note: {note}", err=True)
    spec = load_spec(program_file(program)) if program != STDIN else None
    if size_set is not None and spec is None:
        raise PlainError(f"--sizes-from {size_set}: there is no {_toml_name(program)} beside the program to read "
                         "sizes from", "give sizes with -s NAME=N")
    if size_set is not None:
        spec.size_set(size_set)  # (a table it does not have: said, with the ones it has)
    size_values = resolve_sizes(prog, size_given, spec, size_set or "test", given)
    check_run_memory(prog, size_values, given)
    values = make_inputs(prog, size_values, spec, seed, given)
    start = time.perf_counter()
    try:
        if check_splits:
            outs, disagreement = run_splits(prog, values, seed)
            chunking = f"{SPLITS[0]}, and the same outputs with chunks of " \
                       f"{', '.join(map(str, SPLITS[1:-1]))} and {SPLITS[-1]} (--check-splits)"
        else:
            with _progress() as shown:
                outs, disagreement = run(prog, values, chunking, seed, progress=shown), None
    except UserError as exc:
        raise exc.with_source(source) from None
    except MemoryError:  # (past the estimate: an intermediate larger than a point's element)
        raise PlainError(f"the interpreter ran out of memory at {', '.join(f'{k}={v:,}' for k, v in size_values.items())}",
                         "use smaller sizes (-s NAME=N), or time the program on the GPU: tiler bench PROG.fut") from None
    elapsed = time.perf_counter() - start
    if disagreement:
        split, agreement = disagreement
        reduced = _reduced(prog)
        raise PlainError(f"out{agreement.output} depends on how a stream splits its arrays: with chunks of "
                         f"{split}, {agreement.message}",
                         "a streamSeq body must give the same result for any split of the array (the streams: "
                         f"{_streams_at(prog)}; tiler check warns about chunks read past their end)" +
                         ("; a streamRed's body folds any of its chunks, in order but not only neighbours (a "
                          "thread's every T-th element), from its initial values, which must leave a partial result "
                          "as it is when combined, and its combine must be associative and commutative"
                          if reduced else ""))
    _summary(prog, outs, size_values, chunking, elapsed, to_stderr=output == "-")  # (-o -: stdout holds the archive)
    if output:
        _save(output, outs)


def _written(prog) -> list:
    """The streams the program writes (helpers inlined)."""
    from ..kernel import inline_kernel
    from ..report.warnings import written_streams

    return written_streams(inline_kernel(prog))


def _reduced(prog) -> bool:
    """Whether the program has a streamRed."""
    return any(s.combine is not None for s in _written(prog))


def _streams_at(prog) -> str:
    """Where the program's streams are written, for a message."""
    spans = sorted({s.span for s in _written(prog)})
    return ", ".join(f"line {s.line}:{s.col}" for s in spans) or "none written"


@contextlib.contextmanager
def _progress():
    """A callback taking the fraction done and where, shown as a bar on
    stderr where it is a terminal (and gone when the run ends): a long
    interpreter run (lavaMD at its full sizes: a minute) is not silent."""
    from rich.console import Console
    from rich.progress import Progress

    console = Console(stderr=True)
    if not console.is_terminal:  # (a pipe or a file would get a stray line from it)
        yield None
        return
    with Progress(console=console, transient=True) as bar:
        task = bar.add_task("interpreting", total=1.0)
        yield lambda done, where: bar.update(task, completed=done, description=f"interpreting: {where}")


def _summary(prog, outs, sizes, chunking, elapsed: float, to_stderr: bool = False) -> None:
    import numpy as np
    from rich.console import Console
    from rich.table import Table

    console = Console(highlight=False, width=_width(), stderr=to_stderr)
    shown = ", ".join(f"{k}={v}" for k, v in sizes.items())
    console.print(f"[bold]{prog.file}[/]: sizes {shown}; chunks {chunking}; {elapsed:.3f} s")
    table = Table("output", "shape", "dtype", "first values", "checksum (sum)", "min", "max")
    for i, o in enumerate(outs):
        flat = o.reshape(-1)
        first = ", ".join(f"{v:.6g}" if o.dtype.kind == "f" else str(v) for v in flat[:3])
        with np.errstate(all="ignore"):  # inf + -inf is a nan checksum, shown as such, not a NumPy warning
            stats = (f"{flat.astype('float64').sum():.9g}", f"{flat.min():.6g}", f"{flat.max():.6g}") \
                if flat.size else ("0", "-", "-")
        table.add_row(f"out{i}", str(o.shape), str(o.dtype), first + (", ..." if flat.size > 3 else ""), *stats)
    console.print(table)


def _toml_name(program: str) -> str:
    return "PROG.toml" if program == STDIN else Path(program).with_suffix(".toml").name
