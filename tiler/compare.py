"""Do two sets of output arrays agree? One answer for the interpreter's split
check, the bench and the fuzzer.

`compare(got, want, rtol)` gives an `Agreement`: outputs agree when every
element is within `rtol` of the output's scale (its largest finite magnitude,
at least 1), equal infinities and NaNs agree, and a NaN where the reference
has none means an element was never written (outputs are poisoned with NaN).
`slack` (one array an output) widens the tolerance element by element: the
fuzzer passes how far float32 evaluation in other orders strays from the
float64 reference (infinite where that makes the element meaningless), so an
ill-conditioned program (a `sin` of a large sum) is not reported as wrong for
rounding it cannot avoid.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Agreement:
    ok: bool
    worst: float  # the largest difference relative to its output's scale
    output: int | None = None  # the first output that disagrees
    message: str = ""


def compare(got, want, rtol: float = 1e-3, slack=None) -> Agreement:
    worst = 0.0
    for n, (g, w) in enumerate(zip(got, want)):
        extra = 0.0 if slack is None else np.nan_to_num(np.asarray(slack[n], np.float64), nan=0.0, posinf=np.inf)
        g64, w64 = np.asarray(g, np.float64), np.asarray(w, np.float64)
        if g64.shape != w64.shape:
            return Agreement(False, np.inf, n, f"out{n} has shape {g64.shape}, not {w64.shape}")
        unwritten = np.isnan(g64) & ~np.isnan(w64)
        if unwritten.any():
            where = tuple(int(x) for x in np.argwhere(unwritten)[0])
            return Agreement(False, np.inf, n, f"out{n} was not written at {where}")
        same = (g64 == w64) | (np.isnan(g64) & np.isnan(w64))  # equal infinities agree too
        scale = max(1.0, float(np.max(np.abs(w64[np.isfinite(w64)]), initial=0.0)))
        with np.errstate(invalid="ignore"):
            diff = np.where(same, 0.0, np.abs(g64 - w64))
            diff = np.where(np.isnan(diff), np.inf, diff)
            # what the element's own rounding noise does not explain (infinite slack: not comparable)
            excess = np.where(np.isposinf(extra), 0.0, np.maximum(diff - extra, 0.0))
        err = float(np.max(excess, initial=0.0))
        worst = max(worst, err / scale)
        if err > rtol * scale:
            where = np.unravel_index(int(np.argmax(excess)), g64.shape)
            at = tuple(int(x) for x in where)
            noise = "" if slack is None else f" + rounding noise {float(np.broadcast_to(extra, g64.shape)[where]):.3g}"
            return Agreement(False, worst, n, f"out{n} differs by {float(diff[where]):.3g} at {at} (got "
                                              f"{g64[where]:.6g}, want {w64[where]:.6g}; tolerance {rtol} x scale "
                                              f"{scale:.3g}{noise})")
    return Agreement(True, worst)
