"""`tiler explain --show-rewrites`: the register-tiled kernel's body as lower
writes it, for one point a thread, then after each rewrite that makes it
compute the thread's micro-tile of points (tiler/transform/register_tile.py),
as CUDA statements. What it prints is what the rewrites produced, not a
drawing of them: the last body is the kernel's in the .cu, but for what
prune drops after (--show-transformed prints the same steps with the
copies synchronous and one line each, after the block-tiled program).
"""
from __future__ import annotations

from ..analyse import Analysis
from ..lower import BOUNDED
from ..render.statements import statements
from ..transform.register_tile import as_loops
from .kernel_steps import observed, pairs

WHAT = {
    "one point a thread": "as lower writes it: one point a thread, its point along each tiled dim P{d}_",
    "strip-mine": "after strip-mine: the point is the thread's current point of its micro-tile, "
                  "group G{d}_ and lane L{d}_",
    "interchange": "after interchange: copies and barriers once a thread; the map over the thread's points "
                   "(drawn as a loop `point_...`) distributed over the statements and moved inward, loads that "
                   "fewer dims decide given maps of their own",
    "sequentialise": "after sequentialise: each map as unrolled loops, per-point values in register arrays "
                     "(the kernel's body in the .cu, once prune drops or folds what nothing needs)",
}


def show_rewrites(a: Analysis, file: str) -> str:
    """Each register-tiled kernel of the plan (and of a fissioned fold's
    pairs), as its first version: 32-bit offsets, vector copies, the launch's
    transposed inputs where it reads them."""
    plans = [("", a, file)] + [("the fissioned pairs' kernel: ", *p) for p in [pairs(a, file)] if p]
    shown = [_steps(label, p, f) for label, p, f in plans if p.plan.schedule.block.register is not None]
    return "\n".join(shown) or "no register tile in this plan: one point a thread, and no rewrites (explain says why)\n"


def _steps(label: str, a: Analysis, file: str) -> str:
    schedule = a.plan.schedule
    kernel, steps = observed(a, schedule, file)
    name = kernel.name + (BOUNDED if kernel.bounds else "")
    out = [f"// {label}{name}: register tiled, {' x '.join(map(str, schedule.block.register.sizes))} points a "
           f"thread (the module's other versions vary it: scalar copies, 64-bit offsets)\n"]
    for step, body in steps:
        out.append(f"\n// ==== {WHAT.get(step, step)}\n")
        out.append(statements(as_loops(body), ""))
    return "".join(out)
