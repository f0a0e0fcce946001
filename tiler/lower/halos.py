"""Windows staged with their halo (analyse/halo_tile.py): each tile copied
into shared memory at the kernel's start, and the array read through it.

The copy walks the tile's elements a block's threads apart, the last axis
fastest (a warp's loads are then consecutive elements of a row), each
element's index clamped into the array (an element past the edge is one no
read the program makes uses). The array's view becomes the tile's, its
offset less the tile's first element, so every read of the array, a level's
row included, reads the tile at its own index. Along an axis the
program wraps by `%` (analyse/halo_tile.py), the copy wraps each element's
index as the program does, so the tile holds the array's other end past
its edge, and a read at a wrapped index q takes its place in the tile as
q less the tile's first index, plus or less the extent where that falls
outside (`WrappedView`).
"""
from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass

from .. import kir, target
from ..kir.build import add, const, mul
from .values import View, all_of, block_tid, clamped


@dataclass(frozen=True)
class WrappedView(View):
    """A tile read at the program's own indices, some of them wrapped: along
    each axis, the tile's first index (`origins`, signed) and the array's
    extent where the program wraps the axis (`wraps`, else None). The tile
    holds at place j the array's element at the first index plus j,
    wrapped, so any place congruent to a read's position modulo n that lies
    in the tile holds its element. An index written `a % n` is read from
    `a`, the position before the wrap plus at most one n where n is a size
    (the window's analysis stages no other: `(i + t - r + n) % n`; with a
    literal extent the constant is among the offsets the tile spans), so
    the program's remainder is not computed; any other index is in [0, n). Either way
    the index less the first index is above -n and below n plus the tile's
    extent, and one addition or subtraction of n, or none, lands it in the
    tile."""

    origins: tuple = ()
    wraps: tuple = ()

    def index(self, indices):
        flat = self.offset
        for i, stride, origin, n in zip(indices, self.strides, self.origins, self.wraps):
            if n is not None and isinstance(i, kir.Bin) and i.op == "%" and i.b == n:
                i = i.a
            place = kir.Bin("-", i, origin)
            if n is not None:
                place = kir.Select(kir.Bin("<", place, const(0)), add(place, n),
                                   kir.Select(kir.Bin("<", place, n), place, kir.Bin("-", place, n)))
            flat = add(flat, mul(place, stride))
        k = len(indices)
        if k < len(self.strides):
            return dataclasses.replace(self, offset=flat, strides=self.strides[k:], sizes=self.sizes[k:],
                                       origins=self.origins[k:], wraps=self.wraps[k:])
        return kir.Load(self.buffer, flat, self.space)


def _wrapped(v, n):
    """`v` modulo `n`, in [0, n) for a negative `v` too (the remainder is in
    (-n, n): adding n to it, not to `v % n + n` first, stays within an int
    for every n an int holds)."""
    r = kir.Bin("%", v, n)
    return kir.Select(kir.Bin("<", r, const(0)), add(r, n), r)


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
        size = target.SIZEOF[view.ctype]
        if tile.sized_at_launch:
            layout = _launch_layout(low, tile, name)
            out += layout.decls
            low.shared.append(kir.SharedAlloc(name, view.ctype, 0, extents=layout.extents_wide))
        else:
            layout = _Layout(tuple(const(a.low) for a in tile.axes), tuple(const(a.extent) for a in tile.axes),
                             tuple(const(math.prod(a.extent for a in tile.axes[n + 1:]))
                                   for n in range(len(tile.axes))), const(tile.elems))
            # (a whole number of 16-byte lines: ptxas rounds a kernel's shared memory so where others share its unit)
            low.shared.append(kir.SharedAlloc(name, view.ctype, -(-tile.elems * size // 16) * 16 // size))
        # the tile's first element along each axis (signed: blockIdx is unsigned, and the first block's is negative)
        origins = [add(kir.Cast("int", base(a.dim)), lo) for a, lo in zip(tile.axes, layout.lows)]
        # a read's offset in the tile in unsigned arithmetic: its terms (a point's index times a tile row's
        # length) may pass 2^31 where the sum does not, and unsigned wraps are defined
        first = const(0, "unsigned")
        for a, lo, stride in zip(tile.axes, layout.lows, layout.strides):
            lo = lo if isinstance(lo, kir.Const) else kir.Cast("unsigned", lo)
            first = add(first, mul(add(kir.Cast("unsigned", base(a.dim)), lo), _unsigned(stride)))
        if any(a.wrapped for a in tile.axes):
            low.env[binder] = WrappedView(name, const(0), layout.strides, view.sizes, view.ctype,
                                          kir.SHARED, tuple(origins),
                                          tuple(view.sizes[a.axis] if a.wrapped else None for a in tile.axes))
        else:
            low.env[binder] = View(name, kir.Un("-", first), tuple(_unsigned(s) for s in layout.strides),
                                   view.sizes, view.ctype, kir.SHARED)
        e = low.fresh("e")
        element = []
        for a, origin, stride, extent in zip(tile.axes, origins, layout.strides, layout.extents):
            along = kir.Bin("/", kir.Ref(e), stride) if not _is_one(stride) else kir.Ref(e)
            along = kir.Bin("%", along, extent) if a is not tile.axes[0] else along
            index = add(origin, along)
            n = view.sizes[a.axis]
            element.append(_wrapped(index, n) if a.wrapped else clamped(index, kir.Bin("-", n, const(1))))
        edges = "wrapped" if all(a.wrapped for a in tile.axes) else "clamped" if not any(a.wrapped for a in tile.axes) \
            else "wrapped or clamped"
        out.append(kir.Comment(f"{tile.array}'s window, halo included: {tile.shape_text()} elements, {edges} into "
                               "the array" + (" (sized at launch)" if tile.sized_at_launch else ""), copy=True))
        copy = kir.For(e, block_tid(block), layout.elems, const(block.threads),
                       (kir.Store(name, kir.Ref(e), view.index(element), kir.SHARED),))
        # an empty array has no element to clamp to (and no read of it runs)
        out.append(kir.If(all_of(kir.Bin(">", view.sizes[a.axis], const(0)) for a in tile.axes), (copy,)))
    out.append(kir.Barrier("the windows are staged before any thread reads them"))
    return tuple(out)


@dataclass(frozen=True)
class _Layout:
    """A tile's first offset, elements and stride along each axis, and its
    elements: constants, or names the kernel declares (`decls`) where the
    launch sizes the tile; `extents_wide`: then its extents over the sizes and
    scalars alone (64-bit), which the launch sizes its shared memory by."""

    lows: tuple
    extents: tuple
    strides: tuple
    elems: object
    decls: tuple = ()
    extents_wide: tuple = ()


def _launch_layout(low, tile, name: str) -> _Layout:
    """The layout of a tile sized at launch: along each such axis its first
    offset min(0, lows...) and last max(0, highs...) computed from the
    window's fixed values (analyse/halo_tile.py), declared once."""
    decls, lows, extents, wide = [], [], [], []
    for a in tile.axes:
        if not a.sized_at_launch:
            lows.append(const(a.low))
            extents.append(const(a.extent))
            wide.append(const(a.extent, target.INDEX))
            continue
        for ctype in ("int", target.INDEX):
            # (forms of constants alone fold into the 0 each side starts from)
            hi = _reach(max, [_form(low, tile, f, ctype) for f in a.highs], ctype)
            lo = _reach(min, [_form(low, tile, f, ctype) for f in a.lows], ctype)
            extent = add(const(a.points - lo.value, ctype), hi) if isinstance(lo, kir.Const) else \
                kir.Bin("-", add(const(a.points, ctype), hi), lo)
            if ctype != "int":
                wide.append(extent)
                continue
            extent_name = low.fresh(f"{name}_extent{a.axis}")
            if isinstance(lo, kir.Const):
                lows.append(lo)
            else:
                lo_name = low.fresh(f"{name}_low{a.axis}")
                decls.append(kir.Decl(lo_name, "int", lo, True))
                lows.append(kir.Ref(lo_name))
            decls.append(kir.Decl(extent_name, "int", extent, True))
            extents.append(kir.Ref(extent_name))
    strides, stride = [], const(1)
    for extent in reversed(extents):
        strides.insert(0, stride)
        stride = mul(stride, extent)
    elems = low.fresh(f"{name}_elems")
    decls.append(kir.Decl(elems, "int", stride, True))
    return _Layout(tuple(lows), tuple(extents), tuple(strides), kir.Ref(elems), tuple(decls), tuple(wide))


def _reach(pick, values: list, ctype: str):
    """`pick` (min or max) of 0 and `values` (the analysis folded the
    constant ones into one): in the kernel a call, in the launch (`ctype`
    64-bit) selects."""
    fixed = pick([0] + [v.value for v in values if isinstance(v, kir.Const)])
    out = const(fixed, ctype)
    for v in (v for v in values if not isinstance(v, kir.Const)):
        if ctype == "int":
            out = kir.Call(pick.__name__, (out, v))
        else:
            out = kir.Select(kir.Bin("<", out, v) if pick is max else kir.Bin("<", v, out), v, out)
    return out


def _form(low, tile, f, ctype: str):
    """A form of constants and fixed values (analyse/halo_tile.py's lows and
    highs) in the kernel's terms (`ctype` 64-bit: for the launch's count)."""
    out = const(f.const, ctype)
    for c, text in f.symbols:
        out = add(out, mul(const(c, ctype), _tree(low, dict(tile.atoms)[text], ctype)))
    return out


def _tree(low, tree, ctype: str):
    """A fixed value's tree (analyse/windows.py's Window.atoms) over the kernel's sizes."""
    if isinstance(tree, int):
        return const(tree, ctype)
    if isinstance(tree, tuple):
        op, a, b = tree
        return kir.Bin(op, _tree(low, a, ctype), _tree(low, b, ctype))
    value = low.env[tree]
    return value if ctype == "int" else kir.Cast(ctype, value)


def _unsigned(e):
    return const(e.value, "unsigned") if isinstance(e, kir.Const) else kir.Cast("unsigned", e)


def _is_one(e) -> bool:
    return isinstance(e, kir.Const) and e.value == 1
