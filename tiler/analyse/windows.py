"""Sliding windows: reads whose index moves with the point.

A read `img[min(y + a, h - 1), x + b - 2]` inside a map over (y, x) reads,
along each mapped dimension, the point's own index plus an offset: a loop's
index (`a < kh`), a stream's position, a constant, a size fixed for the
launch, or a sum of them. The points of a block then read one window of the
array: the block's tile widened by the offsets' extent less one (the halo)
along each such axis, a tile shared memory could hold once for the whole
block. This module finds those arrays, as records: for each axis that
moves, the dimension it follows, the offsets (numbers where the loop bounds
are, else the sizes that bound them) and how the program keeps the index
inside the array at the edges (a `min`/`max` clamp against a value fixed for
the launch, an `if` that tests the index, a wrap by `%` of a fixed modulus,
or nothing).

A window is claimed only where every read of the array (a kernel
parameter or a prelude array, through the lets and inlined helpers that
rename it) indexes every axis it has; along each axis, every read follows
one and the same dimension (offset 0 included), or none does. Any other
read of it (a whole row, a constant, a gather, another dimension, a clamp
whose other side varies) leaves the array without a window: a stager may
then trust the records, which never claim less than a read touches.

Windows are found here; window_tile.py and halo_tile.py decide what the
window version does with them; explain lists each with the halo its
tile would need.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

from ..check import typed as T
from ..check.types import I32, Binder
from ..kir import c_div
from ..tree import children
from .offsets import Offset, Position, fixed_text, tree_text

CLAMP, GUARD, WRAP, NONE = "clamped", "guarded", "wrapped", "none"
LOOSE = "loose"  # (while finding: a clamp or wrap not by the array's own extent)
WINDOW_REASON = "read in place"


@dataclass(frozen=True)
class Axis:
    """One axis of an array a window moves along: the kernel dimension whose
    index it follows, its offsets' range (None: a bound known at launch;
    `bounds` names those), and how its edges are handled."""

    axis: int
    dim: int
    low: int | None
    high: int | None
    edges: tuple[str, ...]
    bounds: tuple[str, ...] = ()
    # some read clamps against other values than the array's own ends (0 and its extent less one) or wraps by
    # another modulus than its extent: a tile of the window would not hold what that read reads at the edges
    loose: bool = False
    # the edges of every read along the axis, those at the point's own index included (`edges` leaves those
    # out: explain's words are about the reads that move)
    every_edge: tuple[str, ...] = ()

    @property
    def halo(self) -> int | None:
        """The elements a block's tile would add along the axis: the offsets' extent less one."""
        return None if self.low is None or self.high is None else self.high - self.low

    def text(self) -> str:
        if self.low == 0 and self.high == 0:
            return f"axis {self.axis} follows dimension {self.dim}, the point's own index"
        low = _signed(self.low) if self.low is not None else "?"
        high = _signed(self.high) if self.high is not None else "?"
        span = f"{low} to {high}" + (f" (bounded by {', '.join(self.bounds)}, known at launch)" if self.bounds else "")
        edges = " and ".join(e for e in self.edges if e != NONE) or "read as written"
        return f"axis {self.axis} follows dimension {self.dim}, {span} ({edges} at the edges)" + \
            (f": a halo of {self.halo}" if self.halo else "")


@dataclass(frozen=True)
class Window:
    """An array whose reads move with the points along some axes."""

    array: str
    axes: tuple[Axis, ...]
    reads: tuple = field(default=(), repr=False, compare=False)  # the Index nodes, as written
    # each read's offsets along the window's axes (an Offset each, in the order of `axes`)
    offsets: tuple = field(default=(), repr=False, compare=False)
    binder: object = field(default=None, repr=False, compare=False)  # the array's Binder (a parameter or prelude's)
    # the values fixed for the launch its offsets name (a loop's bound, a symbol), by their text: each a tree
    # over sizes and scalar parameters (an int, a Binder, or (op, a, b) with op one of + - * /), None where
    # the value is no such tree: a halo tile sized at launch computes its extent from them (halo_tile.py)
    atoms: tuple = field(default=(), repr=False, compare=False)

    def atom(self, text: str):
        return dict(self.atoms).get(text)


@dataclass(frozen=True)
class _Follows:
    """A read's index along one axis: dimension `dim`'s plus an offset."""

    dim: int
    offset: Offset
    edges: tuple[str, ...]
    loose: bool = False  # a clamp or wrap not by the array's own extent (Axis.loose)


OTHER = "other"  # an index that does not follow a dimension (a constant, a gather, a whole row)
_VARYING = object()  # a loop bound that differs between points: its index is no window's offset


def windows(k: T.Kernel) -> tuple[Window, ...]:
    """The kernel's windows, in the order their arrays are first read."""
    finder = _Finder(k)
    for level in k.levels:
        for _, value in level.lets:
            finder.walk(value, ())
    finder.walk(k.body, ())
    out = (_merged(array, reads) for array, reads in finder.found.items())
    atoms = tuple(finder.atoms.items())
    return tuple(replace(w, atoms=atoms) for w in out if w is not None)


class _Finder:
    def __init__(self, k: T.Kernel):
        self.dims = {p: lv.dim for lv in k.levels for p, a in zip(lv.params, lv.args) if isinstance(a, T.Iota)}
        self.lets: dict[Binder, object] = {b: v for lv in k.levels for bs, v in lv.lets if len(bs) == 1 for b in bs}
        self.ranges: dict[Binder, object] = {}  # a loop's or stream's index -> its bound (int, size name, position)
        self.chunks: dict[Binder, Position] = {}  # a stream's chunk size -> the stream's length
        self.fixed = {p for p in k.params} | {pl.binder for pl in k.prelude} | set(k.sizes)  # the launch's values
        # a level's row parameter: the kernel array it is a row of, and the level's dimension (X[ch] for a map
        # over X's rows, as the kernel stage writes X[ch, j] inside a map over ch)
        self.rows: dict[Binder, tuple[Binder, int]] = {
            p: (a.binder, lv.dim) for lv in k.levels for p, a in zip(lv.params, lv.args)
            if isinstance(a, T.Var) and a.binder in self.fixed}
        self.found: dict[Binder, list] = {}  # a kernel array -> its reads: (Index, per axis _Follows or OTHER)
        self.expanded: dict[Binder, frozenset] = {}
        self.tested: dict[int, frozenset] = {}  # a guard (by id: the kernel keeps it alive) -> the names it tests
        self.prelude = {pl.binder: pl.value for pl in k.prelude}
        self.atoms: dict[str, object] = {}  # Window.atoms

    def walk(self, e, guards: tuple) -> None:
        if isinstance(e, T.Let):
            self.walk(e.value, guards)
            if len(e.binders) == 1:
                self.lets[e.binders[0]] = e.value
            self.walk(e.body, guards)
            return
        if isinstance(e, T.Loop):
            for i in e.inits:
                self.walk(i, guards)
            chunk = e.bound.binder if isinstance(e.bound, T.Var) else None
            self.ranges[e.index] = Position(self.chunks[chunk].stream, "chunk", self.chunks[chunk].length) \
                if chunk in self.chunks else self.bound(e.bound)
            self.walk(e.body, guards)
            self.walk(e.rest, guards)
            return
        if isinstance(e, T.Stream):
            for a in e.arrays + e.inits:
                self.walk(a, guards)
            length = self.bound(e.length)
            self.ranges[e.offset] = Position(id(e), "offset", length)
            self.chunks[e.chunk] = Position(id(e), "chunk", length)
            self.walk(e.body, guards)
            return
        if isinstance(e, T.Index):
            self.read(e, guards)
        for c, guard in T.guarded_children(e):  # (a guard's names are found only where a read below needs them)
            self.walk(c, guards if guard is None else guards + (guard,))

    def read(self, e: T.Index, guards: tuple) -> None:
        """A read of a kernel array: each axis it indexes, followed or not (an axis it leaves whole: OTHER)."""
        array = self.resolved(e.array)
        if not isinstance(array, T.Var):
            return
        lead: tuple = ()
        binder = array.binder
        if binder in self.rows:  # row[j + 1] of a map over X's rows: X[i, j + 1], its first axis the level's index
            binder, dim = self.rows[binder]
            lead = (_Follows(dim, Offset(), (NONE,)),)
        if binder not in self.fixed:
            return
        rank = len(binder.type.shape) if hasattr(binder.type, "shape") else len(lead) + len(e.indices)
        shape = binder.type.shape if hasattr(binder.type, "shape") else ()
        axes = lead + tuple(self.axis(i, guards, shape[n] if n < len(shape) else None)
                            for n, i in enumerate(e.indices, len(lead)))
        self.found.setdefault(binder, []).append((e, axes + (OTHER,) * (rank - len(axes))))

    def axis(self, index, guards: tuple, extent=None):
        """`extent`: the array's along this axis (a size's binder or a number)."""
        edges: list[str] = []
        found = self.moving(index, edges, extent)
        if found is None:
            return OTHER
        dim, offset = found
        loose = LOOSE in edges
        edges = [x for x in edges if x != LOOSE]
        if guards and any(self.guarded(g) & self.names(index) for g in guards):
            edges.append(GUARD)
        return _Follows(dim, offset.streamed(), tuple(edges) or (NONE,), loose)

    def moving(self, e, edges: list, extent=None):
        """(dim, Offset) of the point's index plus an offset inside `e`'s
        clamps (`min`, `max` against a value fixed for the launch) and wraps
        (`%` by one), which `edges` gains (and LOOSE where one is not by
        the array's own `extent`); None where `e` is no such index."""
        e = self.resolved(e)
        if isinstance(e, T.Builtin) and e.name in ("min", "max") and len(e.args) == 2:
            for side, other in (e.args, e.args[::-1]):
                inner: list[str] = []
                found = self.moving(side, inner, extent)
                if found is not None and self.is_fixed(other):
                    # max against 0, min against the extent less one
                    own = self._zero(other) if e.name == "max" else self._at(other, extent, -1)
                    own = [] if own else [LOOSE]
                    edges += [CLAMP] + [x for x in inner if x != CLAMP] + own
                    return found
            return None
        if isinstance(e, T.BinOp) and e.op == "%":
            inner = self._wrapped_twice(e)
            if inner is not None:  # `((a % n) + n) % n`: a wrap by n whatever a's sign, as `a % n` is in [0, n)
                return self.moving(inner, edges, extent)
            found = self.moving(e.lhs, edges, extent) if self.is_fixed(e.rhs) else None
            if found is None:
                return None
            edges.append(WRAP)
            if not self._at(e.rhs, extent, 0):
                edges.append(LOOSE)
            modulus = self.resolved(e.rhs)
            dim, offset = found
            if isinstance(modulus, T.Var) and (1, modulus.binder.name) in offset.symbols:  # `(i + t + n - 1) % n`
                symbols = list(offset.symbols)
                symbols.remove((1, modulus.binder.name))
                offset = Offset(offset.const, offset.terms, tuple(symbols))
            return dim, offset
        found = self.affine(e)
        return found if found is not None and found[0] is not None else None

    def _wrapped_twice(self, e: T.BinOp):
        """`a % n` where `e` is `((a % n) + n) % n` (or `(n + a % n) % n`), n fixed for the launch; else None."""
        lhs = self.resolved(e.lhs)
        if not (isinstance(lhs, T.BinOp) and lhs.op == "+" and self.is_fixed(e.rhs)):
            return None
        modulus = self.affine(e.rhs)
        for inner, other in ((lhs.lhs, lhs.rhs), (lhs.rhs, lhs.lhs)):
            inner = self.resolved(inner)
            if isinstance(inner, T.BinOp) and inner.op == "%" and self.affine(inner.rhs) == modulus \
                    and self.affine(other) == modulus:
                return inner
        return None

    def _zero(self, e) -> bool:
        found = self.affine(e)
        return found is not None and found[0] is None and found[1] == Offset()

    def _at(self, e, extent, plus: int) -> bool:
        """Whether `e` is the array's `extent` plus `plus`."""
        found = self.affine(e)
        if found is None or found[0] is not None or found[1].terms:
            return False
        offset = found[1]
        if isinstance(extent, int):
            return not offset.symbols and offset.const == extent + plus
        name = getattr(extent, "name", None)
        return name is not None and offset.symbols == ((1, name),) and offset.const == plus

    def is_fixed(self, e) -> bool:
        """Whether `e` is a value fixed for the launch (constants and sizes, no index)."""
        found = self.affine(e)
        return found is not None and found[0] is None and not found[1].terms

    def resolved(self, e):
        """`e`, through the lets that name it (an inlined helper's too)."""
        while True:
            if isinstance(e, T.Var) and e.binder in self.lets:
                e = self.lets[e.binder]
            elif isinstance(e, T.Let) and len(e.binders) == 1:
                self.lets[e.binders[0]] = e.value
                e = e.body
            else:
                return e

    def guarded(self, cond) -> frozenset:
        """The names a guard tests (found once a guard)."""
        if id(cond) not in self.tested:
            self.tested[id(cond)] = self.names(cond)
        return self.tested[id(cond)]

    def names(self, e) -> frozenset:
        """The names `e` reads, through the lets that bind them."""
        out, stack = set(), [e]
        while stack:
            n = stack.pop()
            if isinstance(n, T.Var) and n.binder not in out:
                out.add(n.binder)
                if n.binder in self.lets:
                    if n.binder not in self.expanded:
                        self.expanded[n.binder] = self.names(self.lets[n.binder])
                    out |= self.expanded[n.binder]
            stack.extend(children(n, T.is_exp))
        return frozenset(out)

    def bound(self, b):
        """A loop's bound as a range: a number, a name fixed for the launch, or _VARYING."""
        if isinstance(b, int):
            return b
        if isinstance(b, T.Lit):
            return b.value
        binder = b if isinstance(b, Binder) else b.binder if isinstance(b, T.Var) else None
        if binder is None or binder not in self.fixed:
            return _VARYING
        self.atom(binder.name, self.binder_tree(binder))
        return binder.name

    def affine(self, e):
        """(dim, Offset) where `e` is a point's index plus an offset; (None,
        Offset) for an offset alone; None otherwise."""
        e = self.resolved(e)
        if isinstance(e, T.Lit) and isinstance(e.value, int) and not isinstance(e.value, bool):
            return None, Offset(e.value)
        if isinstance(e, T.Var):
            return self.name(e.binder)
        if isinstance(e, T.UnOp) and e.op == "-":
            inner = self.affine(e.operand)
            return None if inner is None or inner[0] is not None else (None, inner[1].scaled(-1))
        if isinstance(e, T.BinOp) and e.op in ("+", "-"):
            a, b = self.affine(e.lhs), self.affine(e.rhs)
            if a is None or b is None or (b[0] is not None and (e.op == "-" or a[0] is not None)):
                return None
            right = b[1] if e.op == "+" else b[1].scaled(-1)
            return (a[0] if a[0] is not None else b[0]), a[1].plus(right)
        if isinstance(e, T.BinOp) and e.op == "*":
            a, b = self.affine(e.lhs), self.affine(e.rhs)
            for x, y in ((a, b), (b, a)):
                if x is not None and y is not None and x[0] is None and not x[1].terms and not x[1].symbols \
                        and y[0] is None:
                    return None, y[1].scaled(x[1].const)
        if isinstance(e, T.BinOp) and e.op == "/" and e.type == I32:  # (a radius `kw / 2`: fixed for the launch)
            a, b = self.affine(e.lhs), self.affine(e.rhs)
            if a is not None and b is not None and a[0] is None and b[0] is None and not a[1].terms \
                    and not b[1].terms:
                if a[1].symbols or b[1].symbols:  # (named by what it computes: a helper's `k / 2` is kh / 2 here)
                    tree = self.tree(e)
                    text = tree_text(tree) if tree is not None else fixed_text(e)
                    self.atom(text, tree)
                    return None, Offset(symbols=((1, text),))
                return (None, Offset(c_div(a[1].const, b[1].const))) if b[1].const else None
        return None

    def name(self, binder: Binder):
        """A name's (dim, Offset): a map index, a loop's or stream's index, a value fixed for the launch."""
        if binder in self.dims:
            return self.dims[binder], Offset()
        if binder in self.ranges:
            bound = self.ranges[binder]
            if bound is _VARYING or isinstance(bound, int) and bound <= 0 or \
                    isinstance(bound, Position) and bound.length is _VARYING:
                return None  # a range that differs between points (a stream's too), or reads nothing
            return None, Offset(0, ((1, bound),))
        if binder in self.fixed and binder.type == I32:
            self.atom(binder.name, self.binder_tree(binder))
            return None, Offset(symbols=((1, binder.name),))
        return None

    def atom(self, text: str, tree) -> None:
        """Records a fixed value's tree by its text (None where two differ)."""
        if text in self.atoms and self.atoms[text] != tree:
            tree = None
        self.atoms[text] = tree

    def tree(self, e):
        """A value fixed for the launch as a tree (Window.atoms), or None."""
        e = self.resolved(e)
        if isinstance(e, T.Lit) and isinstance(e.value, int) and not isinstance(e.value, bool):
            return e.value
        if isinstance(e, T.Var):
            return self.binder_tree(e.binder)
        if isinstance(e, T.UnOp) and e.op == "-":
            inner = self.tree(e.operand)
            return None if inner is None else ("-", 0, inner)
        if isinstance(e, T.BinOp) and e.op in ("+", "-", "*", "/") and e.type == I32:
            a, b = self.tree(e.lhs), self.tree(e.rhs)
            return None if a is None or b is None else (e.op, a, b)
        return None

    def binder_tree(self, b: Binder):
        if b in self.prelude:
            return self.tree(self.prelude[b])
        return b if b in self.fixed and b.type == I32 else None


def _signed(v: int) -> str:
    return f"+{v}" if v > 0 else str(v)


def _merged(array: Binder, reads: list) -> Window | None:
    """The array's window: along each axis, the dimension every read follows
    there and the union of their offsets and edges; None where a read leaves
    an axis some other read follows (or follows another dimension there), or
    no read moves off its point."""
    rank = max(len(axes) for _, axes in reads)
    out = []
    for n in range(rank):
        along = [axes[n] if n < len(axes) else OTHER for _, axes in reads]
        followed = [a for a in along if a is not OTHER]
        if not followed:
            continue
        if len(followed) < len(along) or len({a.dim for a in followed}) > 1:
            return None
        lows, highs = [a.offset.low for a in followed], [a.offset.high for a in followed]
        edges = tuple(dict.fromkeys(e for a in followed if not a.offset.still for e in a.edges)) or (NONE,)
        bounds = tuple(dict.fromkeys([b for a in followed for _, b in a.offset.terms if not isinstance(b, int)] +
                                     [s for a in followed for _, s in a.offset.symbols]))
        every = tuple(dict.fromkeys(e for a in followed for e in a.edges))
        out.append((Axis(n, followed[0].dim, None if None in lows else min(lows),
                         None if None in highs else max(highs), edges, bounds, any(a.loose for a in followed), every),
                    followed))
    if not any(not f.offset.still for _, followed in out for f in followed):
        return None
    offsets = tuple(tuple(axes[a.axis].offset for a, _ in out) for _, axes in reads)
    return Window(array.name, tuple(a for a, _ in out), tuple(r for r, _ in reads), offsets, array)
