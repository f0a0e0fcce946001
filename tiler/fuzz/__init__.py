"""Differential testing on random programs (`tiler fuzz`, `make fuzz`).

`fuzz(n, seed, ...)` generates `n` programs from consecutive seeds and checks
every property of properties.py on each, mutates each a few times, compiles
all their kernels with nvcc (in batches), and, with `gpu`, runs tiled and
untiled kernels against the interpreter. Failing programs are kept, shrunk
where the failure can be reproduced on the CPU, in `out_dir`.
"""
from __future__ import annotations

import dataclasses
import time
from pathlib import Path

from ..render import rename_module
from ..runtime.nvcc import cores, nvcc_path
from ..syntax import pretty
from .generate import generate
from .mutate import mutate
from .products import product
from .properties import (
    Compiled,
    Failure,
    check_mutant,
    check_program,
    expected,
    inside_expected,
    mismatch,
    planned_for,
    tolerance,
)
from .shrink import shrink

ARCH = "sm_90"  # what nvcc checks the kernels for without a GPU
BATCH = 40  # programs a nvcc or pycuda compilation, at most
BATCHES_A_CORE = 4  # batches of about equal size of source each core compiles


def fuzz(n: int, seed: int = 0, gpu: bool = False, mutations: int = 2, nvcc: bool = True,
         out_dir: str | Path | None = None, progress=None, perf=None, workers: int | None = None,
         say=None, seeds=None, narrow: bool = False, products: bool = False) -> list[Failure]:
    """The failures of `n` programs from `seed` on (or of the programs of
    `seeds`, a list, where given); `narrow`: the programs with some arrays
    and scalars in f16 or bf16 (generate.generate); `products`: matrix
    products instead, the shapes the matrix units take (products.py). With `gpu` and a
    function as `perf`, every program that ran right is also timed
    (perf.py), each timing given to the function, a loser being a failure.
    The programs are checked (and, for `perf`, compiled as it times them) in
    `workers` processes (default: one a core). `say(line)` hears each
    failure as it is found and the end of each phase, so that a run cut
    short still reports what it did."""
    say = say or (lambda line: None)
    start = time.monotonic()  # (each phase's end says the time so far: where a run's time goes)
    failures: list[Failure] = []
    compiled: list[Compiled] = []
    timed = None
    own = None  # the GPU's own description, which some seeds' kernels are planned for (properties.planned_for)
    if gpu:
        from ..runtime import Gpu

        own = Gpu.get().described
    if gpu and perf is not None:
        from .perf import variants

        timed = variants(Gpu.get())  # options, the GPU described: the workers compile with them, never touching it
    for found, comp in _checked(seeds or range(seed, seed + n), mutations, gpu, workers, timed, narrow, products,
                                own):
        failures += _said(found, say)
        if comp:
            compiled.append(comp)
        if progress:
            progress()
    say(f"{n} programs checked on the CPU: {len(failures)} failures ({time.monotonic() - start:.0f} s)")
    images = {}  # batch source -> cubin: what nvcc built here, the GPU check loads
    if nvcc and nvcc_path() is None:
        say("nvcc is not on PATH: no kernel was compiled with it")
    elif nvcc:
        arch = Gpu.get().arch if gpu else ARCH
        found, images = nvcc_batches(compiled, arch, optimized=gpu)  # the GPU check runs the cubins
        failures += _said(found, say)
        say(f"nvcc {'built' if gpu else 'accepted (to PTX)'} every kernel for {arch}: {len(found)} failures")
        refused = {f.seed for f in found}  # (reported once: the GPU check leaves them out, in batches of its own)
        compiled = [c for c in compiled if c.seed not in refused]
    if gpu:
        failures += gpu_batches(compiled, images, say)
        say(f"GPU check done ({time.monotonic() - start:.0f} s)")
    if gpu and perf is not None:
        from .perf import perf as timings

        failures += _said(timings(compiled, Gpu.get(), {f.seed for f in failures}, perf)[0], say)
    failures.sort(key=lambda f: f.seed)  # the batches go largest first: report in the seeds' order
    if out_dir is not None:
        save(failures, Path(out_dir))
    return failures


def _one(s: int, mutations: int, gpu: bool, timed: dict | None = None,
         narrow: bool = False, products: bool = False, own=None) -> tuple[list[Failure], Compiled | None]:
    """One seed's program checked (shrunk where it fails) and its mutants;
    with `gpu`, the interpreter's outputs for the GPU check computed here too
    (in the worker: the interpreter is the slow part), and with `timed`
    (perf.variants' options) the builds the perf run times."""
    tree = product(s) if products else generate(s, narrow)
    device = planned_for(s, own)
    found, comp = check_program(tree, s, large=products, device=device)
    if comp and gpu:
        comp = dataclasses.replace(comp, expected=expected(comp),
                                   inside=inside_expected(comp) if comp.marched else None)
    if comp:  # (the check's runs: not sent back to the main process)
        comp = dataclasses.replace(comp, chunked=None)
    if comp and timed:
        from .perf import builds

        comp = dataclasses.replace(comp, timed=builds(comp.text, s, timed))
    failures = [_shrunk(f, tree, products, device) for f in found]
    text = pretty(tree)
    for m in range(mutations):
        _, broken = mutate(text, s * 1009 + m)
        bad = check_mutant(broken, s)
        if bad:
            failures.append(bad)
    return failures, comp


MIN_POOLED = 8  # fewer seeds than this are checked here: a pool takes about a second to start


def _checked(seeds: range, mutations: int, gpu: bool, workers: int | None, timed: dict | None = None,
             narrow: bool = False, products: bool = False, own=None):
    """_one for every seed, in order, in a pool of processes where there is
    more than one core and more than a few seeds."""
    workers = workers or cores()
    if workers == 1 or len(seeds) < MIN_POOLED:
        yield from (_one(s, mutations, gpu, timed, narrow, products, own) for s in seeds)
        return
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    # workers forked from a fresh server process: never from this one, whose CUDA context (--gpu) a fork
    # would share and break
    with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("forkserver")) as pool:
        n = len(seeds)
        yield from pool.map(_one, seeds, [mutations] * n, [gpu] * n, [timed] * n, [narrow] * n, [products] * n,
                            [own] * n, chunksize=max(1, min(4, n // workers)))


def _said(found: list[Failure], say) -> list[Failure]:
    for f in found:
        say(failure_line(f))
    return found


def failure_line(f: Failure) -> str:
    """A failure in one line: its seed, stage and the first line of why."""
    first = f.message.splitlines()[0] if f.message else ""
    return f"seed {f.seed}: {f.stage}: {first[:300]}"


def summary(n: int, failures: list[Failure]) -> str:
    return f"{n} programs, {len({(f.seed, f.stage) for f in failures})} failures"


def _shrunk(f: Failure, tree, large: bool = False, device=None) -> Failure:
    def same(t):
        return any(g.stage == f.stage for g in check_program(t, f.seed, large, device)[0])

    try:
        small = shrink(tree, same)
    except Exception:  # noqa: BLE001 - shrinking is best effort; keep the original
        return f
    return Failure(f.seed, f.stage, f.message, pretty(small))


def save(failures: list[Failure], out: Path) -> None:
    """Each failing program into `out` (made only when something failed)."""
    if not failures:
        return
    out.mkdir(parents=True, exist_ok=True)
    for n, f in enumerate(failures):
        header = "\n".join(f"-- {line}" for line in f"fuzz failure, seed {f.seed}, stage {f.stage}: "
                           f"{f.message}".splitlines())
        (out / f"seed{f.seed}-{f.stage}-{n}.fut").write_text(header + "\n" + f.text)


def _batched(compiled: list[Compiled]):
    """(programs, one CUDA source of all their versions, kernel names) a batch.

    nvcc's time follows the source's size, and a few programs (register
    tiles, streams in loops) are most of it: the largest go first and the
    batches are about a quarter of a core's share each, so the cores finish
    together instead of one waiting on a batch with all the large ones."""
    def size(c: Compiled) -> int:
        return sum(len(cuda) for _, cuda in c.kernels.values())

    ordered = sorted(compiled, key=size, reverse=True)
    share = sum(map(size, ordered)) / (cores() * BATCHES_A_CORE) if ordered else 0
    part: list[Compiled] = []
    weight = 0
    for c in ordered:
        if part and (len(part) == BATCH or weight + size(c) > share):
            yield _batch(part)
            part, weight = [], 0
        part.append(c)
        weight += size(c)
    if part:
        yield _batch(part)


def _batch(part: list[Compiled]):
    units, names = [], {}
    for c in part:
        for variant, (m, cuda) in c.kernels.items():  # every version: a fallback runs too
            cuda, unique = rename_module(cuda, m, f"fz{c.seed}_{variant}")
            names[(c.seed, variant)] = list(unique)
            units.append(cuda)
    return part, "\n".join(units), names


def nvcc_batches(compiled: list[Compiled], arch: str = ARCH,
                 optimized: bool = True) -> tuple[list[Failure], dict[str, bytes]]:
    """Every program's kernels through nvcc, batches side by side (one a core): the failures,
    and each batch's cubin (source -> image) for a GPU of `arch`; not
    `optimized`, a check that nvcc's front end accepts them (nvcc.FRONT_END:
    to PTX, nothing to run)."""
    from concurrent.futures import ThreadPoolExecutor

    from ..runtime.nvcc import FRONT_END, built, errors, nvcc_path

    if nvcc_path() is None or not compiled:
        return [], {}
    batches = list(_batched(compiled))
    with ThreadPoolExecutor(cores()) as pool:  # one nvcc a core
        flags = () if optimized else FRONT_END
        done = list(pool.map(lambda b: built(b[1], arch, flags=flags), batches))
    failures = []
    for (part, _, _), (log, _) in zip(batches, done):
        if not log:
            continue
        for c in part:  # find the culprits
            for variant, (_, cuda) in c.kernels.items():
                log = errors(cuda, arch, flags=flags)
                if log:
                    failures.append(Failure(c.seed, "nvcc", f"{variant}: {log[-1500:]}", c.text))
    return failures, {source: image for (_, source, _), (_, image) in zip(batches, done) if image and optimized}


def gpu_batches(compiled: list[Compiled], images: dict | None = None, say=None) -> list[Failure]:
    """Every version of tiled and untiled = interpreter, on random sizes, one
    compilation a batch (`images`: batches nvcc_batches built already);
    `say` hears each failure and each batch's end."""
    from ..runtime import Gpu

    say = say or (lambda line: None)
    gpu = Gpu.get()
    failures = []
    batches = {source: (part, names) for part, source, names in _batched(compiled)}
    # nvcc side by side, a batch a core; each batch runs as soon as it is built, so a run cut short reports
    for n, source in enumerate(gpu.prepared(list(batches), images=images), 1):
        part, names = batches[source]
        before = len(failures)
        for c in part:
            if gpu.loaded(source):
                found = _launched(gpu, c, [(v, k, source) for v in c.kernels for k in names[(c.seed, v)]])
            else:  # nvcc refused the batch, or ran past its time on it: each version on its own
                found = _alone(gpu, c)
            for f in found:
                say(failure_line(f))
            failures += found
        say(f"GPU batch {n} of {len(batches)} ({len(part)} programs): {len(failures) - before} failures")
    return failures


ALONE_S = 300  # nvcc's time for one version of one program, built on its own


def _alone(gpu, c: Compiled) -> list[Failure]:
    """A program of a batch nvcc did not build: each version built on its
    own (a failure of nvcc's there is the finding: a refusal, or a version
    that takes nvcc past ALONE_S), then run."""
    from ..runtime.nvcc import built

    failures, runs = [], []
    for variant, (m, cuda) in c.kernels.items():
        log, image = built(cuda, gpu.arch, timeout=ALONE_S)
        if image is None:
            why = log[-1500:] or "nvcc built no module (is it on PATH?)"
            failures.append(Failure(c.seed, "nvcc", f"{variant}: {why}", c.text))
            continue
        gpu.prepare([cuda], images={cuda: image})
        runs += [(variant, k, cuda) for k in m.kernels]
    return failures + _launched(gpu, c, runs)


def _launched(gpu, c: Compiled, runs) -> list[Failure]:
    """Each (variant, kernel, its module's CUDA) run against the interpreter."""
    failures = []
    for variant, kernel, cuda in runs:
        try:
            bad = mismatch(gpu, kernel, cuda, c, tolerance(c.seed, variant))
        except Exception as exc:  # noqa: BLE001 - a launch failure is a finding
            bad = f"{kernel.name}: {type(exc).__name__}: {exc}"
        if bad:
            failures.append(Failure(c.seed, "gpu", bad, c.text))
    return failures
