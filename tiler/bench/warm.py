"""torch.compile's caches warmed for `tiler corpus --peer`, in parallel.

Compiling a twin under torch.compile takes seconds to minutes a program,
one program after another in the timing process. Before that process times
anything, worker processes (`python -m tiler.bench.warm`, each a share of
the twins) compile them at the shapes the timing run will meet, in
its order (the test sizes, then each size set), so that torch's on-disk
caches (its compiled graphs and Triton kernels) already hold what the timing
run compiles. A worker that fails only leaves the cache colder: the timing
run compiles what it needs as before and checks every result itself. A twin
still compiling after TWIN_S is stopped (an alarm in its worker, which goes
on with the next; the worker killed where the alarm cannot stop it), and the
timing run times it eager only: a Python loop over thousands of steps (a
recurrence in time) is traced step by step, and its compilation did not end
in ten minutes, cache or not. (A process a twin cost each its own start of
torch: 296 s to warm 66 twins, where shares took 100 s for 34.)
"""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile
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
    twins = [p for p in paths if p.with_suffix(".py").is_file()]
    workers = min(workers, len(twins))
    if workers <= 0:
        return lambda log=print: set()
    started = time.perf_counter()
    shares = [twins[i::workers] for i in range(workers)]
    # each worker's report and errors go to files, not pipes: nothing reads a pipe while the caller builds its
    # modules, and a worker that filled one would block there, its twin's alarm running on
    logs = [(tempfile.TemporaryFile("w+"), tempfile.TemporaryFile("w+")) for _ in shares]
    procs = [subprocess.Popen([sys.executable, "-m", "tiler.bench.warm", ",".join(size_sets), str(limit),
                               *map(str, share)], stdout=out, stderr=err, text=True)
             for share, (out, err) in zip(shares, logs)]
    deadlines = [started + limit * len(share) + 60.0 for share in shares]  # from the workers' start

    def wait(log=print) -> set[str]:
        slow, failed = set(), 0
        for proc, deadline, files in zip(procs, deadlines, logs):
            said, err = _waited(proc, deadline - time.perf_counter(), files)
            slow |= said["slow"] | (said["started"] - said["done"] - said["failed"] - said["slow"])
            failed += len(said["failed"])
            for line in err.splitlines()[-3:] if said["failed"] else ():
                log(f"  (warming torch.compile: {line})")
        log(f"torch.compile warmed for {len(twins)} twins by {workers} processes in "
            f"{time.perf_counter() - started:.0f} s" +
            (f" ({failed} failed: the timing run compiles their twins)" if failed else "") +
            (f" ({len(slow)} stopped after {limit:.0f} s, timed eager only: {', '.join(sorted(slow))})"
             if slow else ""))
        return slow
    return wait


def _waited(proc, timeout: float, files) -> tuple[dict[str, set], str]:
    """A worker's report (the twins it started, finished, failed and
    stopped), read from its `files` (stdout, stderr); killed past `timeout` s."""
    try:
        proc.wait(timeout=max(0.0, timeout))
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
    out, err = (_read(f) for f in files)
    said = {"started": set(), "done": set(), "failed": set(), "slow": set()}
    for line in out.splitlines():
        word, _, name = line.partition(" ")
        if word in said:
            said[word].add(name)
    return said, err


def _read(f) -> str:
    f.seek(0)
    text = f.read()
    f.close()
    return text


class _Stopped(BaseException):
    """A twin's compilation past its time: not an Exception, which Dynamo
    would catch and raise again as its own error (InternalTorchDynamoError)."""


def _compile_each(size_sets: tuple[str, ...], limit: float, paths: list[Path]) -> int:
    """One worker: each twin under torch.compile, called once at each shape,
    in the timing run's order, each stopped after `limit` s; says on stdout
    which twins it started, finished, failed and stopped."""
    import signal

    from ..check import check
    from ..syntax import parse
    from ..workload import load_spec, make_inputs, resolve_sizes
    from ..workload.checks import CHECK_SEED, INPUT_SEED
    from .peer import Peers, load_twin, twin_arguments

    rang = []  # the alarm went off for this twin (whatever a library made of its exception)

    def stop(signum, frame):
        rang.append(True)
        raise _Stopped()

    signal.signal(signal.SIGALRM, stop)
    failed = 0
    for path in paths:
        print("started", path.stem, flush=True)
        rang.clear()
        signal.setitimer(signal.ITIMER_REAL, limit)
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
            print("done", path.stem, flush=True)
        except _Stopped:
            print("slow", path.stem, flush=True)
        except Exception as exc:  # noqa: BLE001 (a colder cache, not a failure of the run)
            if rang:
                print("slow", path.stem, flush=True)
                continue
            failed += 1
            print("failed", path.stem, flush=True)
            print(f"{path.stem}: {type(exc).__name__}: {exc}", file=sys.stderr)
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(_compile_each(tuple(sys.argv[1].split(",")), float(sys.argv[2]), [Path(p) for p in sys.argv[3:]]))
