"""`tiler explain --show-rewrites`: the register-tiled kernel's body as lower
writes it, for one point a thread, then after each rewrite that makes it
compute the thread's micro-tile of points (tiler/transform/register_tile.py),
as CUDA statements. What it prints is what the rewrites produced, not a
drawing of them: the last body is the kernel's in the .cu, but for what
prune drops after (--show-transformed draws the same steps on the program,
in the note's notation).
"""
from __future__ import annotations

from ..analyse import Analysis
from ..lower import lower_schedule
from ..render.statements import statements
from ..transform.register_tile import as_loops

WHAT = {
    "one point a thread": "as lower writes it: one point a thread, its point along each tiled dim P{d}_",
    "strip-mine": "after strip-mine: the point is the thread's current point of its micro-tile, "
                  "group G{d}_ and lane L{d}_",
    "interchange": "after interchange: copies and barriers once a thread; the map over the thread's points "
                   "(drawn as a loop `point_...`) distributed over the statements and moved inward, loads that "
                   "fewer dims decide given maps of their own",
    "sequentialise": "after sequentialise: each map as unrolled loops, per-point values in register arrays "
                     "(the kernel's body in the .cu, once prune drops what nothing reads)",
}


def show_rewrites(a: Analysis, file: str) -> str:
    schedule = a.plan.schedule
    if schedule.block.register is None:
        return "no register tile in this plan: one point a thread, and no rewrites (explain says why)\n"
    steps = []
    kernel = lower_schedule(a, schedule, file, observe=lambda name, body: steps.append((name, body)))
    out = [f"// {kernel.name}: register tiled, {' x '.join(map(str, schedule.block.register.sizes))} points a "
           f"thread\n"]
    for name, body in steps:
        out.append(f"\n// ==== {WHAT.get(name, name)}\n")
        out.append(statements(as_loops(body), ""))
    return "".join(out)
