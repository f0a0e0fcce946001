"""Steps 2 and 3 of `--show-transformed` for a register-tiled plan (and a
fissioned fold's pairs' kernel): the kernel program the register tiling
rewrites produced (transform/register_tile.py), printed from the kernel's
trace after strip-mining, after interchange and after sequentialising (a
kernel without a register tile: its body as lower writes it). Not a
drawing: the rewrites' own output (versions/shown.py lowers the kernel).

Printed for reading, not as the .cu has it: the copies synchronous, one
buffer a tile (the kernel's pipeline of cp.async or prefetching registers is
orthogonal to the rewrites; `--show-rewrites` prints the kernel itself),
each copy one line (what it copies, and where), and each map over a
thread's points drawn as a loop `point_...` until sequentialise unrolls it.
"""
from __future__ import annotations

import dataclasses

from .. import kir
from ..render.statements import statements

ONE_POINT = "one point a thread"
STEPS = {
    "strip-mine": "After strip-mining, each tiled dim's point P{d}_ becomes the thread's current "
                  "point of its micro-tile, its group G{d}_ and lane L{d}_ (the loops over them come next)",
    "interchange": "After interchange, the map over the thread's points (a loop point_...) "
                   "distributed over the statements and moved inward through the loops over chunks and over "
                   "k; the copies and barriers stay once a thread, and a load that fewer dims decide gets a "
                   "map of its own, read once into registers and reused by the other dims' points",
    "sequentialise": "After sequentialising, each map over points made loops nvcc unrolls, each "
                     "value that differs by point an array of registers",
}


def kernel_steps(kernel: kir.Kernel) -> list[tuple[str, str]]:
    """(the step's name, the kernel's body printed) after each register
    tiling rewrite (Kernel.trace); without a register tile, the one body
    lower writes ("one point a thread")."""
    steps = [(name, body) for name, body in kernel.trace if name in STEPS] or [(ONE_POINT, kernel.body)]
    return [(name, statements(_one_line_copies(kir.as_loops(body)), "")) for name, body in steps]


def _one_line_copies(body: tuple) -> tuple:
    """Each copy (its header, then its loop) as its header alone."""
    def block(stmts: tuple) -> tuple:
        out, skip = [], False
        for s in stmts:
            if not skip:
                copy = isinstance(s, kir.Comment) and s.copy
                out.append(dataclasses.replace(s, text=f"copyFastMem: {s.text}") if copy else s)
            skip = not skip and isinstance(s, kir.Comment) and s.copy
        return tuple(out)
    return kir.blocks_mapped(body, block)
