"""`tiler explain --show-rewrites`: a register-tiled kernel's body as lower
wrote it, for one point a thread, then after each rewrite that makes it
compute the thread's micro-tile of points (tiler/transform/register_tile.py),
as CUDA statements, read from the trace the module's kernel keeps
(`kir.Kernel.trace`). What it prints is what the rewrites produced, not a
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


def show_rewrites(module: kir.Module, planned: bool = False) -> str:
    """Each register-tiled kernel the module launches, from its trace: the
    program's own (its first version that has one) and a fissioned fold's
    pairs' kernel (the stage of its first fissioned version). `planned`: the
    plan's schedule has a register tile (which no version may launch)."""
    own = next((v for v in module.versions if v.kernel.trace), None)
    staged = next((v for v in module.versions if v.fissioned and v.kernel.stages[0].trace), None)
    shown = [_steps("", own.kernel, own.plan.build.schedule)] if own is not None else []
    if staged is not None:
        shown.append(_steps("the fissioned pairs' kernel: ", staged.kernel.stages[0], staged.plan.pair.build.schedule))
    if shown:
        return "\n".join(shown)
    if planned:
        return ("the plan's register-tiled kernel is none of the module's versions (explain lists them: its rows are "
                "split among threads, say), so no rewrites ran on a kernel it launches\n")
    return "no register tile in this plan: one point a thread, and no rewrites (explain says why)\n"


def _steps(label: str, kernel: kir.Kernel, schedule) -> str:
    out = [f"// {label}{kernel.name}: register tiled, {' x '.join(map(str, schedule.block.register.sizes))} points a "
           f"thread (the module's other versions vary it: scalar copies, 64-bit offsets)\n"]
    for step, body in kernel.trace:
        out.append(f"\n// ==== {WHAT.get(step, step)}\n")
        out.append(statements(kir.as_loops(body), ""))
    return "".join(out)
