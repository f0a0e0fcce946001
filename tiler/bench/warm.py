"""torch.compile's caches warmed for `tiler corpus --peer`, in parallel.

Compiling a twin under torch.compile takes seconds to minutes a program,
one program after another in the timing process. Before that process times
anything, worker processes (`python -m tiler.bench.warm`, one a twin, a few
side by side) compile the twins at the shapes the timing run will meet, in
its order (the test sizes, then each size set), so that torch's on-disk
caches (its compiled graphs and Triton kernels) already hold what the timing
run compiles. A worker that fails only leaves the cache colder: the timing
run compiles what it needs as before and checks every result itself. A twin
still compiling after TWIN_S is stopped, and the timing run times it eager
only: a Python loop over thousands of steps (a recurrence in time) is traced
step by step, and its compilation did not end in ten minutes.
"""
from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

MAX_WORKERS = 8
TWIN_S = 150.0  # a twin still compiling after this long is stopped, and timed eager only


def workers_for(count: int) -> int:
    """Worker processes for `count` programs: at most MAX_WORKERS, and half the CPUs (inductor compiles in
    threads of its own)."""
    return max(0, min(MAX_WORKERS, (os.cpu_count() or 2) // 2, count))


def warm(paths: list[Path], size_sets: tuple[str, ...], workers: int, log=print) -> set[str]:
    """The twins of `paths` compiled at their test sizes and `size_sets` by
    `workers` processes at a time, waited for; the names of those stopped
    for taking longer than TWIN_S."""
    return start(paths, size_sets, workers)(log)


def start(paths: list[Path], size_sets: tuple[str, ...], workers: int, limit: float = TWIN_S):
    """`warm`'s processes started; returns what waits for them (given a `log`),
    so that the caller can do its own work meanwhile (tiler's modules built
    with the cores the workers leave)."""
    from concurrent.futures import ThreadPoolExecutor

    twins = [p for p in paths if p.with_suffix(".py").is_file()]
    workers = min(workers, len(twins))
    if workers <= 0:
        return lambda log=print: set()
    started = time.perf_counter()
    pool = ThreadPoolExecutor(workers)
    outcomes = [pool.submit(_compile_one, path, size_sets, limit) for path in twins]

    def wait(log=print) -> set[str]:
        pool.shutdown()
        done = [o.result() for o in outcomes]
        for path, (code, err) in zip(twins, done):
            for line in err.splitlines()[-2:] if code != 0 else ():
                log(f"  (warming torch.compile, {path.stem}: {line})")
        slow = {path.stem for path, (code, _) in zip(twins, done) if code is None}
        failed = sum(code not in (0, None) for code, _ in done)
        log(f"torch.compile warmed for {len(twins)} twins by {workers} processes in "
            f"{time.perf_counter() - started:.0f} s" +
            (f" ({failed} failed: the timing run compiles their twins)" if failed else "") +
            (f" ({len(slow)} stopped after {limit:.0f} s, timed eager only: {', '.join(sorted(slow))})"
             if slow else ""))
        return slow
    return wait


def _compile_one(path: Path, size_sets: tuple[str, ...], limit: float) -> tuple[int | None, str]:
    """One twin compiled by a worker process: its exit code (None: stopped after `limit` s) and its errors."""
    proc = subprocess.Popen([sys.executable, "-m", "tiler.bench.warm", ",".join(size_sets), str(path)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        _, err = proc.communicate(timeout=limit)
        return proc.returncode, err or ""
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        return None, "stopped: still compiling"


def _compile_each(size_sets: tuple[str, ...], paths: list[Path]) -> int:
    """One worker: each twin under torch.compile, called once at each shape, in the timing run's order."""
    from ..check import check
    from ..syntax import parse
    from ..workload import load_spec, make_inputs, resolve_sizes
    from ..workload.checks import CHECK_SEED, INPUT_SEED
    from .peer import Peers, load_twin, twin_arguments

    failed = 0
    for path in paths:
        try:
            prog = check(parse(path.read_text(), str(path)))
            spec = load_spec(path)
            peers = Peers(load_twin(path), prog)
            for size_set in ("test",) + tuple(s for s in size_sets if s in spec.sizes):
                sizes = resolve_sizes(prog, {}, spec, size_set)
                # the timing run's inputs (torch.compile specializes on a scalar's value): its check's at the
                # test sizes, its timings' at the others
                seed = CHECK_SEED if size_set == "test" else INPUT_SEED
                args = twin_arguments(prog, make_inputs(prog, sizes, spec, seed=seed), "cuda")
                peers.compiled(*args)
                peers.torch.cuda.synchronize()
                del args
        except Exception as exc:  # noqa: BLE001 (a colder cache, not a failure of the run)
            failed += 1
            print(f"{path.stem}: {type(exc).__name__}: {exc}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(_compile_each(tuple(sys.argv[1].split(",")), [Path(p) for p in sys.argv[2:]]))
