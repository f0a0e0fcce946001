"""Windows staged in shared memory with their halo.

Where the points of a block read a window of an array (windows.py) that
moves along the dimension threadIdx.x walks, neighbouring threads of a warp
read the same elements at shifted addresses, which registers cannot share
between threads and the cache serves a misaligned row at a time. The block
then copies its window once, halo included, into a shared tile at the
kernel's start (coalesced along the last axis), waits at a barrier, and
every read of the array reads the tile: a 31-tap pass along the rows loads
(256 + 30) elements a block of 256 points instead of 31 a point from the
cache, and a 3-D star's neighbours along x and y come from the block's
plane.

The tile is indexed by the read's own index less the block's first point
and the tile's lowest offset. Each read must then land inside the tile, and
the tile must hold what the program reads there:
- guarded or unguarded reads: the index is the point's plus an offset, inside
  the tile by construction; the copy clamps each element it copies into the
  array (an element past the edge is one no executed read uses);
- reads clamped by `min`/`max` against the array's own ends (a read at
  the point's own index included): a clamped
  index lies between the point's own index and the unclamped one, so the tile
  spans offset 0 as well, and the point's dimension must be the array's axis
  itself (a point past the array's end would clamp outside the tile);
- reads wrapped by `%` of the array's own extent: the tile holds the
  array's other end past its edge (the copy wraps each element's index as
  the program does), and a read at the wrapped index q finds its element
  at q less the tile's first index, plus or less the extent where that
  falls outside it (lower/halos.py); the point's dimension must be the
  array's axis itself, as for a clamp. Not a wrap mixed with clamps along
  one axis, nor a clamp or wrap against other values (Axis.loose).
Every axis of the array must follow a dimension (a row read whole, or an
axis indexed otherwise, would need the whole axis in the tile), and the
window's reads must be every use of the array (not whole as a stream's
input, nor a level's value used otherwise than indexed: the tile stands
for the array everywhere).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

from ..check import typed as T
from ..check.types import I32, Array, element_bytes
from ..tree import children
from .context import Context
from .windows import CLAMP, WRAP, Offset, Window


@dataclass(frozen=True)
class HaloAxis:
    """One axis of a shared tile: the kernel dimension it follows, the tile's
    first element's offset from the block's first point (<= 0), and its
    elements along the axis (the block's points plus the halo). Where the
    offsets' extent is known only at launch, `low` and `extent` are None and
    the tile's reach is `lows` and `highs`: the launch's values of those
    forms (Offsets of constants and symbols: windows.Window.atoms) and 0
    give the tile's first offset (their least) and last (their greatest)."""

    axis: int
    dim: int
    low: int | None
    extent: int | None
    wrapped: bool = False  # some read wraps by `%` of the array's extent along it
    lows: tuple = ()  # (constant forms folded into one: _side)
    highs: tuple = ()
    points: int = 0  # the block's points along the axis

    @property
    def sized_at_launch(self) -> bool:
        return self.extent is None

    @property
    def nominal(self) -> int:
        """Its elements, taking a halo known only at launch as NOMINAL_HALO (to rank block shapes)."""
        return self.points + NOMINAL_HALO if self.extent is None else self.extent

    def extent_text(self) -> str:
        if self.extent is not None:
            return str(self.extent)
        if len(self.highs) != 1 or len(self.lows) != 1:
            return f"{self.points} + a halo"
        halo = self.highs[0].plus(self.lows[0].scaled(-1))
        return f"{self.points} + {form_text(halo)}" if halo != Offset() else str(self.points)


# the halo taken for an axis whose offsets' extent is known only at launch where block shapes are ranked
NOMINAL_HALO = 8


@dataclass(frozen=True)
class HaloTile:
    """A window staged whole in shared memory: an axis for each of the array's."""

    array: str
    axes: tuple[HaloAxis, ...]
    element: int  # bytes an element
    binder: object = field(default=None, repr=False, compare=False)  # main's parameter it stages
    atoms: tuple = field(default=(), repr=False, compare=False)  # the window's (windows.Window.atoms)

    @property
    def sized_at_launch(self) -> bool:
        """Its extent along some axis is known only at launch (its shared memory is the launch's to size)."""
        return any(a.sized_at_launch for a in self.axes)

    @property
    def elems(self) -> int | None:
        return None if self.sized_at_launch else math.prod(a.extent for a in self.axes)

    @property
    def nominal_elems(self) -> int:
        return math.prod(a.nominal for a in self.axes)

    @property
    def bytes(self) -> int | None:
        return None if self.sized_at_launch else self.elems * self.element

    @property
    def least_bytes(self) -> int:
        """Its bytes at the least halo (none along an axis sized at launch)."""
        return math.prod(a.points if a.extent is None else a.extent for a in self.axes) * self.element

    def shape_text(self) -> str:
        """Its elements along each axis: `66 x 34`, `(64 + kh - 1) x 36`."""
        return " x ".join(f"({a.extent_text()})" if a.sized_at_launch and len(self.axes) > 1 else a.extent_text()
                          for a in self.axes)

    def text(self) -> str:
        shape = self.shape_text()
        wraps = [str(a.axis) for a in self.axes if a.wrapped]
        wrapped = f", wrapped along axis {', '.join(wraps)}" if wraps else ""
        size = "its size known at launch" if self.sized_at_launch else f"{self.bytes:,} bytes"
        return f"{self.array} ({shape}, {size}{wrapped})"


def _side(forms: list, pick) -> tuple:
    """The distinct forms whose `pick` (min or max) with 0 is a side of the
    tile's reach, the constant ones (0 among them) folded into one, left out
    where it is 0 and a form varies."""
    fixed = pick([0] + [f.const for f in forms if not f.symbols])
    varying = tuple(dict.fromkeys(f for f in forms if f.symbols))
    return varying + (Offset(fixed),) if fixed or not varying else varying


def form_text(f) -> str:
    """A form of constants and symbols (windows.Offset) in words: `kw - 1`."""
    out = ""
    for c, name in f.merged().symbols:
        term = name if abs(c) == 1 else f"{abs(c)} * {name}"
        term = f"({term})" if " " in name and abs(c) == 1 and out else term
        out += (term if c > 0 else f"-{term}") if not out else (f" + {term}" if c > 0 else f" - {term}")
    if f.const or not out:
        out += str(f.const) if not out else f" + {f.const}" if f.const > 0 else f" - {-f.const}"
    return out


@dataclass(frozen=True)
class Halos:
    """The windows a block stages (none: `reason` says why)."""

    tiles: tuple[HaloTile, ...]
    reason: str
    block: object = None  # the block they are sized for (schedule.BlockPlan)
    # the shared memory a block may use: where a tile is sized at launch, the launch runs the version only
    # where the tiles fit in it
    limit: int = 0

    @property
    def sized_at_launch(self) -> bool:
        return any(t.sized_at_launch for t in self.tiles)


def halo_tiles(kernel: T.Kernel, found: tuple[Window, ...], block, ctx: Context) -> Halos:
    """The shared tiles of `found`'s windows for `block` (its points a
    thread included) or for the same threads shaped otherwise (`Halos.block`),
    or why none."""
    if ctx.options.no_halo:
        return Halos((), "halo tiles are off (--no-halo)")
    shapes = [_tiles(kernel, found, b, ctx) for b in _shapes(block, ctx)]
    staged = [h for h in shapes if h.tiles]
    if not staged:
        return shapes[0]
    return min(staged, key=lambda h: sum(t.nominal_elems for t in h.tiles) / _points(h.block))


def _shapes(block, ctx: Context) -> list:
    """`block`, then its threads laid out otherwise over the two dims threadIdx.x and y walk (at least a warp
    along x, so that rows stay coalesced), where the user did not give the block (--tile)."""
    if len(block.spans) != 2 or ctx.options.tile:
        return [block]
    x, y = block.spans
    out = [block]
    for along in (32, 64, 128, 256, 512, 1024):
        if along != block.extents[x] and along <= block.threads and block.threads % along == 0:
            extents = list(block.extents)
            extents[x], extents[y] = along, block.threads // along
            out.append(replace(block, extents=tuple(extents), reason="its threads laid out so that its halo tiles "
                               "copy the fewest elements a point"))
    return out


def _points(block) -> int:
    return math.prod(block.points(d) for d in range(block.rank))


def _tiles(kernel: T.Kernel, found: tuple[Window, ...], block, ctx: Context) -> Halos:
    tiles, refusals = [], []
    for w in found:
        why = refusal(kernel, w, block)
        tile = None if why else _tile(w, block)
        if tile is not None:
            why = _unpaid(tile, w, block)
        if why:
            refusals.append(f"{w.array}: {why}")
            continue
        tiles.append(tile)
    if not tiles:
        return Halos((), "; ".join(refusals) or "no window", block)
    limit = ctx.shared_limit()
    total = sum(t.least_bytes for t in tiles)
    if total > limit:
        least = f" (at least {total:,} bytes)" if any(t.sized_at_launch for t in tiles) else ""
        return Halos((), f"the tiles of {', '.join(t.text() for t in tiles)} take more than the {limit:,} bytes of "
                         f"shared memory a block may use{least}", block)
    return Halos(tuple(tiles), "; ".join(refusals), block, limit)


def refusal(kernel: T.Kernel, w: Window, block, along_x: bool = True) -> str:
    """Why `w` is not staged ("": it is); `along_x`: refused where it does
    not move along threadIdx.x's dimension (the march stages its planes
    anyway: march.py)."""
    param = next((p for p in kernel.params if p is w.binder and isinstance(p.type, Array)), None)
    if param is None:
        return "not one of main's arrays (a prelude's, or a name it shadows)"
    if len(w.axes) < len(param.type.shape):
        return "an axis of it does not follow a dimension (the tile would need the whole axis)"
    if any(a.halo is None for a in w.axes):
        why = _unsized(kernel, w)
        if why:
            return why
    if any(a.loose for a in w.axes):
        return "clamped or wrapped against values other than the array's ends"
    if any(WRAP in a.every_edge and CLAMP in a.every_edge for a in w.axes):
        return "read both wrapped and clamped along one axis"
    if not _read_by_element(kernel, param, w):
        return "read otherwise than element by element (whole, as a stream's input, or as a level's value)"
    for a in w.axes:
        level = next(lv for lv in kernel.levels if lv.dim == a.dim)
        edge = next((e for e in (CLAMP, WRAP) if e in a.every_edge), None)
        if edge and _name(level.size) != _name(param.type.shape[a.axis]):
            return (f"{edge} along axis {a.axis}, whose extent is not dimension {a.dim}'s size (a point past the "
                    "array's end would read outside the tile)")
    unit = block.spans[0]
    if along_x and not any(a.halo != 0 and a.dim == unit for a in w.axes):
        return (f"it does not move along dimension {unit}, which threadIdx.x walks: a warp reads whole rows of it, "
                "which the cache serves as well as a tile would")
    return ""


def _read_by_element(kernel: T.Kernel, param, w: Window) -> bool:
    """Whether the window's reads are every use of the array: each name
    that means it (the parameter, a level's row of it, a let that renames
    either) appears only as the array of a read the window records, as a
    level's argument, or as a let's value (the tile then stands for the
    array everywhere it is read)."""
    recorded = {id(r.array) for r in w.reads}
    names, passed = {param}, set()

    def renamed(binders, value) -> None:
        if len(binders) == 1 and isinstance(value, T.Var) and value.binder in names:
            names.add(binders[0])
            passed.add(id(value))
    for level in kernel.levels:
        for p, arg in zip(level.params, level.args):
            renamed((p,), arg)
        for binders, value in level.lets:
            renamed(binders, value)
    uses = []

    def walk(e) -> None:
        if isinstance(e, T.Let):
            renamed(e.binders, e.value)
        if isinstance(e, T.Var) and e.binder in names:
            uses.append(e)
        for c in children(e, T.is_exp):
            walk(c)
    for root in kernel.roots:
        walk(root)
    return all(id(v) in recorded or id(v) in passed for v in uses)


def _unsized(kernel: T.Kernel, w: Window) -> str:
    """Why a window whose offsets' extent is known only at launch gets no
    tile sized at launch ("": it does): the launch sizes the tile's shared
    memory from the sizes and int scalars, so each value the extent is
    computed from must be one of them, a number, or + - * / of them (the
    kernel, the launcher and the runtime divide alike, toward zero)."""
    if any(WRAP in a.every_edge for a in w.axes if a.halo is None):
        return "wrapped, its offsets' extent known only at launch (a read may then pass the array's extent " \
               "more than once)"
    known = set(kernel.sizes) | {p for p in kernel.scalar_params if p.type == I32}
    for text in dict.fromkeys(t for a in w.axes if a.halo is None for t in a.bounds):
        tree = w.atom(text)
        if tree is None or not _of_launch_values(tree, known):
            return (f"its offsets' extent is known only at launch, from {text}, which is not computed from sizes "
                    "and int arguments alone: the launch sizes a tile's shared memory from those")
    return ""


def _of_launch_values(tree, known: set) -> bool:
    if isinstance(tree, int):
        return True
    if isinstance(tree, tuple):
        op, a, b = tree
        if op == "/" and not (isinstance(b, int) and b != 0):
            return False
        return _of_launch_values(a, known) and _of_launch_values(b, known)
    return tree in known


def _unpaid(tile: HaloTile, w: Window, block) -> str:
    """Why the tile would not pay ("": it would): the elements its copy
    loads a point, against the reads of the window a point makes (each
    read's offsets enumerated), which it turns into shared reads. A tile
    sized at launch is not priced: the launch races its version against
    the untiled kernel."""
    if tile.sized_at_launch:
        return ""
    copies = tile.elems / _points(block)
    reads = sum(math.prod(len(o.values()) for o in offsets) for offsets in w.offsets)
    if copies < reads:
        return ""
    return (f"its tile would copy {copies:.3g} elements a point for the {reads} reads of it a point makes: the copy "
            "costs more than the reads it saves")


def _tile(w: Window, block) -> HaloTile:
    axes = []
    for n, a in enumerate(w.axes):  # (offset 0 always: a clamped read's, and a row a level reads)
        points = block.points(a.dim)
        if a.halo is None:
            offsets = [o[n] for o in w.offsets]
            axes.append(HaloAxis(a.axis, a.dim, None, None, WRAP in a.every_edge,
                                 _side([_reach(o, -1) for o in offsets], min),
                                 _side([_reach(o, 1) for o in offsets], max), points))
            continue
        low, high = min(a.low, 0), max(a.high, 0)
        axes.append(HaloAxis(a.axis, a.dim, low, points + high - low, WRAP in a.every_edge, points=points))
    return HaloTile(w.array, tuple(axes), element_bytes(w.binder.type), w.binder, w.atoms)


def _reach(o: Offset, side: int) -> Offset:
    """The least (`side` -1) or greatest (1) value of offset `o`, a form of
    constants and symbols: a term c * t, t in [0, b), adds c * (b - 1)
    where c has the side's sign (b a number or a size's name)."""
    const, symbols = o.const, list(o.symbols)
    for c, b in o.terms:
        if c * side > 0:
            if isinstance(b, int):
                const += c * (b - 1)
            else:
                const -= c
                symbols.append((c, b))
    # (like symbols summed: `t - m` over t < m reaches -m + m - 1, which is -1)
    return Offset(const, (), tuple(symbols)).merged()


def _name(size):
    return size if isinstance(size, int) else size.name
