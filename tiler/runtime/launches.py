"""A launch's kernels with their arguments packed once.

A launch is timed with CUDA events around the host's calls, so the host's
time to issue each kernel is in every timing, and in every race between
versions: pycuda's plain call inspects each argument's type again at every
call (about 10 us a kernel on the GPU machine), and a version of two kernels
(split-K's stage, then its kernel) paid twice as much to be issued as one of
one kernel. Each kernel's argument format is worked out once a run
(pycuda's `prepare`), and each call then only packs the values.
"""
from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np


def argument(value) -> tuple[str, object]:
    """(pycuda's struct format, the value packed) for one kernel argument: a
    NumPy scalar by its own type, a struct passed by value (a TMA map) as its
    bytes, a device allocation as its address."""
    if isinstance(value, np.void):
        return f"{value.itemsize}s", value.tobytes()
    if isinstance(value, np.generic):
        return value.dtype.char, value
    if isinstance(value, (bool, int, float)):  # (a size or scalar must come typed: its C type decides its bytes)
        raise TypeError(f"a kernel argument of Python type {type(value).__name__}: pass a NumPy scalar")
    return "P", int(value)


@dataclass(frozen=True)
class Call:
    """One kernel's launch: its function prepared for its arguments' formats,
    the grid, the block, the dynamic shared memory, the arguments' values."""

    fn: object
    grid: tuple
    block: tuple
    shared: int
    values: tuple

    def __call__(self) -> None:
        self.fn.prepared_call(self.grid, self.block, *self.values, shared_size=self.shared)


def prepared(fn, args, grid, block, shared: int = 0) -> Call:
    """`fn`'s launch on `args`, its argument formats set once (a kernel's
    parameters' types never change between its launches)."""
    formats, values = zip(*map(argument, args)) if args else ((), ())
    fn.prepare(list(formats))
    return Call(fn, tuple(int(g) for g in grid), tuple(int(b) for b in block), int(shared), tuple(values))


# A GPU idle IDLE_S seconds or more is kept busy WARM_S seconds (device copies of WARM_BYTES) before launches
# are timed or raced: from idle its clock takes a while to rise. H200, session 38: the same small kernels timed
# first in a run after 5 s idle took 0.0123 and 0.0119 ms, warmed first 0.0090 and 0.0088.
IDLE_S = 1.0
WARM_S = 0.25
WARM_BYTES = 1 << 28


class Clock:
    """When the GPU last ran a launch of the runtime's, to warm it before timing where it has idled since."""

    def __init__(self):
        self.busy = float("-inf")

    def warm(self, drv) -> None:
        """Copies on the GPU for WARM_S seconds where it has idled IDLE_S or more (the caller holds its context)."""
        if time.perf_counter() - self.busy < IDLE_S:
            return
        try:
            source = drv.mem_alloc(WARM_BYTES)
        except drv.Error:  # (no room: timed cold rather than not at all)
            return
        half = WARM_BYTES // 2  # (copies between the halves of one allocation)
        try:
            end = time.perf_counter() + WARM_S
            while time.perf_counter() < end:
                drv.memcpy_dtod(int(source) + half, int(source), half)
                drv.Context.synchronize()
        finally:
            source.free()
        self.ran()

    def ran(self) -> None:
        self.busy = time.perf_counter()
