"""The cooperative copy of a tile into shared memory, as ordinary kernel IR.

All threads of the block copy a rows x chunk tile: thread `tid` takes
elements tid, tid + threads, ... of the tile, numbered with the copy axis
varying fastest, so that consecutive threads read consecutive addresses when
that axis is the unit-stride one. When the block divides the tile, each
thread copies a constant count (a loop the compiler unrolls); otherwise the
loop runs to the tile's end. An element past the array's end stores 0.
"""
from __future__ import annotations

from dataclasses import dataclass

from .. import kir
from ..analyse.schedule import CopyAxis
from ..source import Span
from .values import add, const, mul

# loop-local names of every copy (reserved, so no program name meets them)
COUNTER, LINEAR = "c_", "t_"


@dataclass(frozen=True)
class TileCopy:
    shared: str
    ctype: str
    rows: int
    chunk: int
    axis: CopyAxis  # which index of the tile consecutive threads take
    threads: int
    tid: object  # the thread's linear index in the block
    row: str  # names bound to the element's row and chunk index,
    elem: str  # in terms of which src_index, valid and dst_index are written
    src: str
    src_index: object
    valid: object  # None: every element is in range (a full chunk)
    dst_index: object
    span: Span | None = None


def copy_tile(c: TileCopy) -> tuple:
    """The statements of one cooperative copy."""
    elems = c.rows * c.chunk
    linear = kir.Ref(LINEAR)
    if c.axis is CopyAxis.ROWS:
        coords = (kir.Bin("%", linear, const(c.rows)), kir.Bin("/", linear, const(c.rows)))
    else:
        coords = (kir.Bin("/", linear, const(c.chunk)), kir.Bin("%", linear, const(c.chunk)))
    load = kir.Load(c.src, c.src_index)
    value = load if c.valid is None else kir.Select(c.valid, load, kir.Cast(c.ctype, const(0)))
    element = (kir.Decl(c.row, "int", coords[0], True), kir.Decl(c.elem, "int", coords[1], True),
               kir.Store(c.shared, c.dst_index, value, kir.SHARED))
    header = kir.Comment(f"cooperative copy: {c.rows} x {c.chunk} tile of {c.src} into {c.shared}, "
                         f"{c.axis.value} fastest", c.span)
    if elems % c.threads == 0:
        per_thread = elems // c.threads
        first = kir.Decl(LINEAR, "int", add(c.tid, mul(kir.Ref(COUNTER), const(c.threads))), True)
        loop = kir.For(COUNTER, const(0), const(per_thread), const(1), (first,) + element,
                       note=f"{per_thread} a thread: a constant count")
    else:
        loop = kir.For(LINEAR, c.tid, const(elems), const(c.threads), element)
    return (header, loop)
