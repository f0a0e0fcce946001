"""Windows staged with their halo (analyse/halo_tile.py): each tile copied
into shared memory at the kernel's start, and the array read through it.

The copy walks the tile's elements a block's threads apart, the last axis
fastest (a warp's loads are then consecutive elements of a row), each
element's index clamped into the array (an element past the edge is one no
read the program makes uses). The array's view becomes the tile's, its
offset less the tile's first element, so every read of the array, a level's
row included, reads the tile at its own index.
"""
from __future__ import annotations

import math

from .. import kir, target
from ..kir.build import add, const, mul
from .values import View, all_of, block_tid, clamped


def stage_halos(low, tiles: tuple, block, base) -> tuple:
    """The copies of `tiles` by `block`'s threads and the barrier after
    them; `low.env` reads each array through its tile from then on.
    `base(d)`: the block's first point along kernel dim d."""
    if not tiles:
        return ()
    out = []
    for tile in tiles:
        binder = tile.binder
        view = low.env[binder]
        name = low.fresh(f"{tile.array}_window")
        # (a whole number of 16-byte lines: ptxas rounds a kernel's shared memory so where others share its unit)
        size = target.SIZEOF[view.ctype]
        low.shared.append(kir.SharedAlloc(name, view.ctype, -(-tile.elems * size // 16) * 16 // size))
        strides = [math.prod(a.extent for a in tile.axes[n + 1:]) for n in range(len(tile.axes))]
        # the tile's first element along each axis (signed: blockIdx is unsigned, and the first block's is negative)
        origins = [add(kir.Cast("int", base(a.dim)), const(a.low)) for a in tile.axes]
        # a read's offset in the tile in unsigned arithmetic: its terms (a point's index times a tile row's
        # length) may pass 2^31 where the sum does not, and unsigned wraps are defined
        first = const(0, "unsigned")
        for a, stride in zip(tile.axes, strides):
            first = add(first, mul(add(kir.Cast("unsigned", base(a.dim)), const(a.low)), const(stride, "unsigned")))
        low.env[binder] = View(name, kir.Un("-", first), tuple(const(s, "unsigned") for s in strides), view.sizes,
                               view.ctype, kir.SHARED)
        e = low.fresh("e")
        element = []
        for a, origin, stride in zip(tile.axes, origins, strides):
            along = kir.Bin("/", kir.Ref(e), const(stride)) if stride > 1 else kir.Ref(e)
            along = kir.Bin("%", along, const(a.extent)) if a is not tile.axes[0] else along
            index = add(origin, along)
            element.append(clamped(index, kir.Bin("-", view.sizes[a.axis], const(1))))
        out.append(kir.Comment(f"{tile.array}'s window, halo included: {' x '.join(str(a.extent) for a in tile.axes)}"
                               " elements, clamped into the array", copy=True))
        copy = kir.For(e, block_tid(block), const(tile.elems), const(block.threads),
                       (kir.Store(name, kir.Ref(e), view.index(element), kir.SHARED),))
        # an empty array has no element to clamp to (and no read of it runs)
        out.append(kir.If(all_of(kir.Bin(">", view.sizes[a.axis], const(0)) for a in tile.axes), (copy,)))
    out.append(kir.Barrier("the windows are staged before any thread reads them"))
    return tuple(out)
