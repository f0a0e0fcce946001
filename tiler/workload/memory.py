"""Memory a run takes: the host memory of a program's inputs and outputs at
some sizes, and the reference interpreter's, checked against what this
machine has free before anything is allocated."""
from __future__ import annotations

import math
from pathlib import Path

from ..check import typed as T
from ..check.types import Array, Binder
from ..errors import PlainError
from ..interp.values import dtype


def input_bytes(program: T.Program, sizes: dict[str, int], given: dict | None = None) -> int:
    """Host memory the inputs and outputs take at these sizes, with the
    float64 draw a random input is made from."""
    def count(t) -> int:
        return math.prod(sizes[s.name] if isinstance(s, Binder) else s for s in t.shape) \
            if isinstance(t, Array) else 1

    k = program.kernel
    made = [count(p.type) for p in k.params if p.name not in (given or {})]
    total = sum(count(p.type) * dtype(p.type).itemsize for p in k.params if p.name not in (given or {}))
    total += sum(points(program, sizes) * dtype(t).itemsize for t in k.outputs)  # (an output: one element a point)
    return total + 8 * max(made, default=0)


def points(program: T.Program, sizes: dict[str, int]) -> int:
    """The points of the map nest at these sizes."""
    return math.prod(lv.size if isinstance(lv.size, int) else sizes[lv.size.name] for lv in program.kernel.levels)


# the interpreter evaluates every point at once: each value it computes is an array of one element a point, and
# an operation holds its operands and its result, so at least this many such arrays (of up to 8 bytes) at once
RUN_WORKING = 3


def check_input_memory(program: T.Program, sizes: dict[str, int], given: dict | None = None) -> None:
    """A PlainError where the inputs and outputs alone would not fit."""
    need, have = input_bytes(program, sizes, given), available_bytes()
    if have is not None and need > have:
        shown = ", ".join(f"{k}={v:,}" for k, v in sizes.items())
        raise PlainError(f"at {shown} the inputs and outputs need {gib(need)}; this machine has {gib(have)} free",
                         "use smaller sizes (-s NAME=N)")


def run_bytes(program: T.Program, sizes: dict[str, int], given: dict | None = None) -> int:
    """Host memory the reference interpreter needs at these sizes, at least:
    the inputs and outputs, and its own working arrays."""
    return input_bytes(program, sizes, given) + RUN_WORKING * 8 * points(program, sizes)


def check_run_memory(program: T.Program, sizes: dict[str, int], given: dict | None = None) -> None:
    """A PlainError, before anything is allocated, where the interpreter's
    run would not fit in the memory this machine has free."""
    need, have = run_bytes(program, sizes, given), available_bytes()
    if have is not None and need > have:
        shown = ", ".join(f"{k}={v:,}" for k, v in sizes.items())
        raise PlainError(f"at {shown} the interpreter needs at least {gib(need)} (inputs, outputs and its working "
                         f"arrays: it computes every point at once); this machine has {gib(have)} free",
                         "use smaller sizes (-s NAME=N), or time the program on the GPU: tiler bench PROG.fut")


def available_bytes() -> int | None:
    """Memory this machine can still give (Linux's MemAvailable), if known."""
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


def gib(n: int) -> str:
    return f"{n / 2**30:,.1f} GiB" if n >= 2**30 else f"{n / 2**20:,.1f} MiB"
