"""Unclamp: the body of a block that lies inside every dim (a Schedule's
interior blocks) without the clamps and the store guard tiler adds for the
blocks at the edges: a clamp never bites there, and the guard always holds.
Lower runs it where the schedule asks for interior blocks; the kernel then
runs this body inside and the clamped one at the edges."""
from __future__ import annotations

import dataclasses

from .. import kir
from ..kir.build import rewrite

NAME = "unclamp"


def unclamped(stmts: tuple, guard) -> tuple:
    """`stmts` as a block inside every dim runs them: each clamp tiler adds
    (a thread's index, a copied row: never past the block's own tile) is the
    value it clamps, and the store guard `guard` holds."""
    out = []
    for s in stmts:
        if isinstance(s, kir.If) and s.cond == guard and not s.else_:
            out += unclamped(s.then, guard)
            continue
        if isinstance(s, kir.For):
            s = dataclasses.replace(s, body=unclamped(s.body, guard))
        elif isinstance(s, kir.If):
            s = dataclasses.replace(s, then=unclamped(s.then, guard), else_=unclamped(s.else_, guard))
        out.append(rewrite(s, _clamped_value))
    return tuple(out)


def _clamped_value(e):
    if isinstance(e, kir.Call) and e.fn == kir.CLAMP:
        return rewrite(e.args[0], _clamped_value)
    return None
