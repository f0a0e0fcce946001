"""Whether lowering will copy a units' schedule's tiles by TMA.

`MatrixUnits.tma` says the warp groups read both tiles through descriptors,
which TMA needs; lowering (lower/tma_pipeline.py) then copies them so only
where each tile is a box of a 2-D array of main's. The plan's rules that pay
only with TMA (operand_transposes.py, wide_tiles.py) ask the same here, from
the views: each copied tile staged asynchronously, swizzled, one row dim, of
scalars, read at the row dim's own index and the chunk's (K-major: the
tile's rows along the array's rows; MN-major: the chunk down them), and a
row pitch of a known length a multiple of 16 bytes.
"""
from __future__ import annotations

from .. import tma
from ..check import typed as T
from ..check.types import element_bytes
from .context import Context
from .schedule import Layout, Schedule
from .views import Views


def tma_refusal(schedule: Schedule, kernel: T.Kernel, views: Views, ctx: Context) -> str:
    """Why lowering would not copy the schedule's tiles by TMA ("": it would)."""
    mu = schedule.matrix_units
    if mu is None or not mu.used or not mu.tma:
        return "the warp groups do not read both tiles through descriptors"
    if ctx.constraints.grid_loop:
        return "its blocks walk the grid in a loop (a size known only at launch)"
    for p in (p for s in schedule.streams if s.tiled for p in s.inputs if p.copied):
        st = p.staging
        if not tma_tile(st):
            return f"{p.name}'s tile is not one swizzled tile of scalars copied asynchronously"
        why = box_refusal(p, views, ctx)
        if why:
            return why
    return ""


def box_refusal(p, views: Views, ctx: Context) -> str:
    """Why a staged input's tile (one row dim) is not a box TMA copies of a
    2-D array of main's as it lies, its rows a multiple of 16 bytes apart
    where their length is known ("": it is; core_tma.py asks too)."""
    st = p.staging
    found = views.items(p.array)
    if not found or found[0] not in views.kernel.params or len(found[1]) != 2:
        return f"{p.name} is not a row or a column of a 2-D array of main's"
    (d,) = st.rows
    box = (("dim", d), ("free", 0)) if st.layout is Layout.ROW_MAJOR else (("free", 0), ("dim", d))
    if found[1] != box:
        return f"{p.name}'s tile is not a box of {found[0].name} as it lies in memory"
    shape = found[0].type.shape
    length = ctx.known_size(shape[-2] if found[0] in views.swapped else shape[-1])
    if length is not None and length * element_bytes(found[0].type) % tma.ROW_BYTES:
        return f"{found[0].name}'s rows are {length} elements: not a multiple of {tma.ROW_BYTES} bytes"
    return ""


def core_tile(st) -> bool:
    """Whether a CUDA-core product's staged tile is one TMA copies as one box (core_tma.py): unpadded,
    unswizzled scalars along one row dim, copied asynchronously."""
    return st.asynchronous and len(st.rows) == 1 and st.pack is None and st.element == 1 and not st.swizzled and \
        not st.registers and not st.padding


def tma_tile(st) -> bool:
    """Whether a staged tile is one TMA copies whole: swizzled, copied
    asynchronously, along one row dim, of scalars, unpacked."""
    return st.swizzled and st.asynchronous and len(st.rows) == 1 and st.pack is None and st.element == 1
