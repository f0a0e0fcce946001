"""`tiler explain --show-rewrites`: the register-tiled kernel's body as lower
writes it, for one point a thread, then after each rewrite that makes it
compute the thread's micro-tile of points (tiler/transform/register_tile.py),
as CUDA statements. What it prints is what the rewrites produced, not a
drawing of them: the last body is the kernel's in the .cu, but for what
prune drops after (--show-transformed prints the same steps with the
copies synchronous and one line each, after the block-tiled program).
"""
from __future__ import annotations

from .. import kir
from ..render.statements import statements

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


def show_rewrites(shown: list) -> str:
    """Each register-tiled kernel of the plan (and of a fissioned fold's
    pairs), as its first version: 32-bit offsets, vector copies, the launch's
    transposed inputs where it reads them (`shown`: (versions.shown.Shown,
    its kernel) each, lowered with its trace)."""
    texts = [_steps(s.label, s.schedule, k) for s, k in shown if s.schedule.block.register is not None]
    return "\n".join(texts) or "no register tile in this plan: one point a thread, and no rewrites (explain says why)\n"


def _steps(label: str, schedule, kernel: kir.Kernel) -> str:
    out = [f"// {label}{kernel.name}: register tiled, {' x '.join(map(str, schedule.block.register.sizes))} points a "
           f"thread (the module's other versions vary it: scalar copies, 64-bit offsets)\n"]
    for step, body in kernel.trace:
        out.append(f"\n// ==== {WHAT.get(step, step)}\n")
        out.append(statements(kir.as_loops(body), ""))
    return "".join(out)
