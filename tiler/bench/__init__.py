"""`tiler bench`: compile the variants of a benchmark, check them, time them.

For each benchmark: every variant (untiled, tiled, `--tile` sizes, the
`--ablate` set) is compiled and first checked against the reference
interpreter at the benchmark's `test` sizes; then, at the bench sizes, each
variant's output is checked against the untiled kernel's, and only then
timed with CUDA events (a warm-up, then `repeat` launches; the median and
spread are reported). A mismatch stops the benchmark with where and how much.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from ..analyse import Options, options, parse_tile
from ..check import check
from ..errors import PlainError
from ..interp import run as interpret
from ..pipeline import run_all
from ..resources import benchmarks_dir
from ..runtime import Gpu
from ..syntax import parse
from ..version import __version__
from ..workload import Spec, flops, load_spec, make_inputs, resolve_sizes, split_given
from ..workload.checks import INPUT_SEED, check_small, check_tolerance, compare_outputs, tolerance
from .rows import Row

BENCHMARKS = benchmarks_dir()  # the checkout's benchmarks/, or the copy in an installed wheel
# each removes (or, where the plan leaves it out, adds) one technique: declared with the option (analyse/options.py)
ABLATIONS = {label: Options(**values) for label, values in options.ABLATIONS.items()}


@dataclass(frozen=True)
class Variant:
    label: str
    options: Options
    hinted: bool = True  # compiled knowing the bench's sizes (False: as a program compiled without --size)




def benchmark_names() -> list[str]:
    return sorted(p.stem for p in BENCHMARKS.glob("*.fut") if p.with_suffix(".toml").exists())


def variants(tiles: tuple[str, ...], ablate: bool, fast_math: bool = False,
             tensor_cores: bool = False) -> list[Variant]:
    out = [Variant("untiled", Options(no_tile=True)), Variant("tiled", Options())]
    out += [Variant(f"tiled --tile {t}", Options(tile=parse_tile(t))) for t in tiles]
    if fast_math and not ablate:
        out.append(Variant("tiled, fast math", Options(fast_math=True)))
    if tensor_cores and not ablate:  # (--ablate times it too: it is an ablation)
        out.append(Variant("tiled, tensor cores", Options(tensor_cores=True)))
    if ablate:
        out += [Variant(f"tiled, {name}", opt) for name, opt in ABLATIONS.items()]
        out.append(Variant("tiled, sizes known only at launch (no --size)", Options(), hinted=False))
    return out


def program_path(name: str) -> tuple[Path, str]:
    """A benchmark's name, or the path of any program (`.fut`): the file, and
    the name messages give it."""
    if name.endswith(".fut"):
        return Path(name), name
    return BENCHMARKS / f"{name}.fut", f"benchmarks/{name}.fut"


def bench_one(name: str, size_set: str, overrides: dict, repeat: int, vs: list[Variant], progress=None,
              given: dict | None = None) -> dict:
    """`name`: a benchmark's name or a program's path; `given`: arrays for
    some of its parameters (checked by `workload.check_given`), which also
    set the sizes they carry; the other inputs are random."""
    path, shown = program_path(name)
    text = path.read_text()
    prog = check(parse(text, shown))
    spec = load_spec(path)
    gpu = Gpu.get()
    named, values = split_given(prog, overrides, "--size")  # (-s also gives scalar parameters their values)
    taken = sorted(set(values) & set(given or {}))
    if taken:
        raise PlainError(f"--size {taken[0]} and --input {taken[0]} both give `{taken[0]}` a value", "give one of them")
    given = {**(given or {}), **values}
    sizes = resolve_sizes(prog, named, spec, size_set, given)
    # the plan may fit its block to the sizes (the kernel works for any); a spec's own derived names stay out
    own = {b.name for b in prog.kernel.sizes}
    hints = tuple(sorted((k, v) for k, v in sizes.items() if k in own))
    vs = vs + _tuned(path, hints, gpu)
    compiled = {v.label: run_all(text, shown, replace(v.options, sizes=hints if v.hinted else ()), device=gpu.described)
                for v in vs}
    check_small(prog, spec, compiled, gpu)
    inputs = make_inputs(prog, sizes, spec, seed=INPUT_SEED, given=given)
    sample, precise = _float64_sample(prog, inputs)
    work = flops(spec, sizes)
    device = gpu.upload(inputs, prog)
    rows, reference = [], None
    try:
        for v in vs:
            k, cuda = compiled[v.label]["verify"], compiled[v.label]["render"]
            outs, times = gpu.run(k, cuda, inputs, sizes, repeat=repeat, device=device)
            if reference is None:
                reference = outs
            tol = tolerance(v.options, spec, prog)
            same = compare_outputs(outs, reference, spec, f"{name}: {v.label} against untiled", tol, prog)
            wide = compare_outputs(tuple(o[sample] for o in outs), precise, spec,
                                   f"{name}: {v.label} against the float64 interpreter at rows {list(sample)}", tol,
                                   prog)
            launched, race = gpu.ran(k, cuda, sizes, inputs), gpu.race(k, cuda, sizes, inputs)
            block = " x ".join(str(b) for b in launched.block if b > 1) or "1"
            row = Row(v.label, block + (" (untiled: won the launch's race)" if race and race.overruled else ""), times,
                      check=f"{same}, f64 {wide}")
            rows.append(row)
            if progress:
                progress()
    finally:
        device.free()
    moved = sum(a.nbytes for a in inputs.values()) + sum(o.nbytes for o in reference)
    for units in (None, *{tolerance(v.options, spec, prog) for v in vs if v.options.tensor_cores}):
        library = _library(spec, prog, inputs, repeat, reference, moved, units)
        if library:
            rows.append(library)
    rows += _twin_rows(path, prog, spec, inputs, repeat, reference, name)
    base = rows[0].ms
    for row in rows:
        row.speedup = base / row.ms if row.ms else None
        row.gflops = work / (row.ms * 1e-3) / 1e9 if work and row.ms else None
        row.gbps = moved / (row.ms * 1e-3) / 1e9 if row.ms else None
    return {"benchmark": name, "sizes": sizes, "flops": work, "bytes": moved, "device": gpu.name, "tiler": __version__,
            "repeat": repeat, "rows": rows}


def _tuned(path: Path, hints: tuple, gpu) -> list[Variant]:
    """The variants PROG.tuning gives for this GPU and these sizes, if any:
    one tuned with IEEE math, one tuned under --fast-math."""
    from ..tune.tuning import flags, for_program

    out = []
    for fast, shown in ((False, ""), (True, ", fast math")):
        options, applied = for_program(str(path), Options(sizes=hints, fast_math=fast), device=lambda: gpu.name)
        if applied is not None and applied.used:
            out.append(Variant(f"tiled, tuned{shown}: {flags(applied.used)}", options))
    return out




SAMPLE_ROWS = 9


def _float64_sample(prog, inputs: dict):
    """An independent reference at the bench sizes: the interpreter in float64
    on a few points of the outermost dimension (first, last, evenly between)."""
    rows = np.unique(np.linspace(0, _outer_size(prog, inputs) - 1, SAMPLE_ROWS).astype(int))
    return rows, interpret(prog, inputs, rows=rows, wide=True)


def _outer_size(prog, inputs: dict) -> int:
    from ..interp import bind_sizes

    size = prog.kernel.levels[0].size
    return size if isinstance(size, int) else bind_sizes(prog.kernel, inputs)[size]




def _twin_rows(path: Path, prog, spec: Spec | None, inputs: dict, repeat: int, reference, name: str) -> list[Row]:
    """The benchmark's PyTorch twin (`NAME.py` beside it defining
    `torch_twin`, as a corpus program's: bench/peer.py), eager and under
    torch.compile, TF32 off: checked against the interpreter at the test
    sizes, then against the untiled kernel's outputs, then timed; none
    without a twin or without PyTorch on the GPU."""
    from .peer import COMPILED, EAGER, TWIN, checked_peers, twin_path

    twin = twin_path(path)  # (a user's own NAME.py that defines no twin is not run)
    if not twin.is_file() or f"def {TWIN}(" not in twin.read_text() or not _torch_on_gpu():
        return []
    peers = checked_peers(path, prog, spec)
    tol = max(check_tolerance(prog, spec), 1e-3)
    times = peers.times(inputs, repeat, reference, tol, f"{name}: its PyTorch twin against untiled")
    return [Row(f"PyTorch twin, {label} (TF32 off)", "-", times[label], check="matches untiled")
            for label in (EAGER, COMPILED)]


def _torch_on_gpu() -> bool:
    from .peer import torch_for_peers

    try:
        torch_for_peers()
    except PlainError:
        return False
    return True


def _library(spec: Spec | None, prog, inputs: dict, repeat: int, reference, moved: int,
             matrix_units: float | None = None) -> Row | None:
    """The library's row; with `matrix_units` (a --tensor-cores variant's
    tolerance), the library allowed the matrix units too."""
    if not spec or not spec.library:
        return None
    from .library import library_row

    kinds = {p.name: (p.type.elem if hasattr(p.type, "elem") else p.type).kind for p in prog.kernel.params}
    return library_row(spec.library, inputs, repeat, reference, compare_outputs, moved, matrix_units, kinds)
