"""Sliding windows: reads whose index moves with the point.

A read `img[min(y + a, h - 1), x + b - 2]` inside a map over (y, x) reads,
along each mapped dimension, the point's own index plus an offset: a loop's
index (`a < kh`), a stream's position, a constant, or a sum of them. The
points of a block then read one window of the array: the block's tile
widened by the offsets' extent less one (the halo) along each such axis, a
tile shared memory could hold once for the whole block. This module finds
those reads, as records: the axes that move with a dimension, each one's
offsets (a number where the loop bounds are, else the size that bounds
them), and how the program keeps the index inside the array at the edges
(a `min`/`max` clamp, a guard that skips the read, a wrap by `%`, or
nothing). Every read of one array in a kernel is one window: its offsets
along an axis are the union of its reads' (a 5-point stencil's four
neighbours: -1 to 1 along both axes).

Windows are found, not yet staged: explain lists each with the halo its
tile would need.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..check import typed as T
from ..check.types import I32, Binder
from ..tree import children

CLAMP, GUARD, WRAP, NONE = "clamped", "guarded", "wrapped", "none"
WINDOW_REASON = "read in place: tiler does not yet stage a window with its halo in shared memory"


@dataclass(frozen=True)
class Offset:
    """An index's offset from its point: a constant plus loop indices, each
    a coefficient times an index in [0, bound) (a number, or a size's
    name where the bound is known only at launch)."""

    const: int = 0
    terms: tuple = ()  # (coefficient, bound), one a loop or stream index
    symbols: tuple = ()  # (coefficient, name): values fixed for the launch but not known when compiling

    @property
    def low(self) -> int | None:
        if self.symbols or any(not isinstance(b, int) for c, b in self.terms if c < 0):
            return None
        return self.const + sum(c * (b - 1) for c, b in self.terms if c < 0)

    @property
    def high(self) -> int | None:
        if self.symbols or any(not isinstance(b, int) for c, b in self.terms if c > 0):
            return None
        return self.const + sum(c * (b - 1) for c, b in self.terms if c > 0)

    def plus(self, other: "Offset") -> "Offset":
        return Offset(self.const + other.const, self.terms + other.terms, self.symbols + other.symbols)

    def scaled(self, c: int) -> "Offset":
        return Offset(self.const * c, tuple((k * c, b) for k, b in self.terms),
                      tuple((k * c, n) for k, n in self.symbols))

    def streamed(self) -> "Offset":
        """A stream's position and its chunk's index counted once: together
        they walk the stream's length (each alone, at most that)."""
        seen, terms = set(), []
        for c, b in self.terms:
            if isinstance(b, _Position):
                if (c, b.stream) in seen:
                    continue
                seen.add((c, b.stream))
                b = b.length
            terms.append((c, b))
        return Offset(self.const, tuple(terms), self.symbols)


@dataclass(frozen=True)
class _Position:
    """The range of a stream's offset, or of a loop over its chunk: within the stream's `length`."""

    stream: int
    length: object


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

    @property
    def halo(self) -> int | None:
        """The elements a block's tile would add along the axis: the offsets' extent less one."""
        return None if self.low is None or self.high is None else self.high - self.low

    def text(self) -> str:
        span = f"{_signed(self.low)} to {_signed(self.high)}" if self.halo is not None else \
            f"offsets bounded by {', '.join(self.bounds)} (known at launch)"
        edges = " and ".join(e for e in self.edges if e != NONE) or "read as written"
        return f"axis {self.axis} follows dimension {self.dim}, {span} ({edges} at the edges)" + \
            (f": a halo of {self.halo}" if self.halo else "")


@dataclass(frozen=True)
class Window:
    """An array whose reads move with the points along some axes."""

    array: str
    axes: tuple[Axis, ...]
    reads: tuple = field(default=(), repr=False, compare=False)  # the Index nodes, as written


def windows(k: T.Kernel) -> tuple[Window, ...]:
    """The kernel's windows, in the order their arrays are first read."""
    finder = _Finder(k)
    for level in k.levels:
        for _, value in level.lets:
            finder.walk(value, ())
    finder.walk(k.body, ())
    return tuple(_merged(name, found) for name, found in finder.found.items())


class _Finder:
    def __init__(self, k: T.Kernel):
        self.dims = {p: lv.dim for lv in k.levels for p, a in zip(lv.params, lv.args) if isinstance(a, T.Iota)}
        self.lets: dict[Binder, object] = {b: v for lv in k.levels for bs, v in lv.lets if len(bs) == 1 for b in bs}
        self.ranges: dict[Binder, object] = {}  # a loop's or stream's index -> its bound (int or size name)
        self.chunks: dict[Binder, _Position] = {}  # a stream's chunk size -> the stream
        self.fixed = {p for p in k.params} | {pl.binder for pl in k.prelude} | set(k.sizes)  # the launch's values
        self.found: dict[str, list] = {}

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
            self.ranges[e.index] = self.chunks.get(chunk) or _bound(e.bound)  # (over a chunk: the stream's)
            self.walk(e.body, guards)
            self.walk(e.rest, guards)
            return
        if isinstance(e, T.Stream):
            for a in e.arrays + e.inits:
                self.walk(a, guards)
            self.ranges[e.offset] = _Position(id(e), _bound(e.length))
            self.chunks[e.chunk] = _Position(id(e), _bound(e.length))
            self.walk(e.body, guards)
            return
        if isinstance(e, T.If):
            self.walk(e.cond, guards)
            self.walk(e.then, guards + (e.cond,))
            self.walk(e.else_, guards + (e.cond,))
            return
        if isinstance(e, T.Index) and isinstance(e.array, T.Var):
            axes = [self.axis(n, i, guards) for n, i in enumerate(e.indices)]
            if any(a is not None for a in axes):
                self.found.setdefault(e.array.binder.name, []).append((e, tuple(a for a in axes if a is not None)))
        for c in children(e, T.is_exp):
            self.walk(c, guards)

    def axis(self, n: int, index, guards: tuple) -> Axis | None:
        """The axis `n` of a read, where its index is a point's index plus an offset."""
        edges: list[str] = []
        found = self.moving(index, edges)
        if found is None:
            return None
        dim, offset = found
        if offset.const == 0 and not offset.terms:
            return None  # the point's own element: no window along this axis
        if any(self.mentions(g, index) for g in guards):
            edges.append(GUARD)
        offset = offset.streamed()
        bounds = tuple(b for _, b in offset.terms if not isinstance(b, int)) + tuple(n for _, n in offset.symbols)
        return Axis(n, dim, offset.low, offset.high, tuple(edges) or (NONE,), bounds)

    def moving(self, e, edges: list):
        """(dim, Offset) of the point's index plus an offset inside `e`'s
        clamps (`min`, `max`: one side moves) and wraps (`%`), which
        `edges` gains; None where `e` is no such index."""
        e = self.resolved(e)
        if isinstance(e, T.Builtin) and e.name in ("min", "max") and len(e.args) == 2:
            sides = [(a, []) for a in e.args]
            moving = [(self.moving(a, more), more) for a, more in sides]
            moving = [(m, more) for m, more in moving if m is not None]
            if len(moving) == 1:
                edges += [CLAMP] + [x for x in moving[0][1] if x != CLAMP]
                return moving[0][0]
            return None
        if isinstance(e, T.BinOp) and e.op == "%":
            found = self.moving(e.lhs, edges)
            if found is None:
                return None
            edges.append(WRAP)
            modulus = self.resolved(e.rhs)
            dim, offset = found
            if isinstance(modulus, T.Var) and (1, modulus.binder.name) in offset.symbols:  # `(i + t + n - 1) % n`
                symbols = list(offset.symbols)
                symbols.remove((1, modulus.binder.name))
                offset = Offset(offset.const, offset.terms, tuple(symbols))
            return dim, offset
        found = self.affine(e)
        return found if found is not None and found[0] is not None else None

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

    def affine(self, e):
        """(dim, Offset) where `e` is a point's index plus an offset; (None,
        Offset) for an offset alone; None otherwise."""
        e = self.resolved(e)
        if isinstance(e, T.Lit) and isinstance(e.value, int) and not isinstance(e.value, bool):
            return None, Offset(e.value)
        if isinstance(e, T.Var):
            if e.binder in self.dims:
                return self.dims[e.binder], Offset()
            if e.binder in self.ranges:
                return None, Offset(0, ((1, self.ranges[e.binder]),))
            if e.binder in self.fixed and e.binder.type == I32:
                return None, Offset(symbols=((1, e.binder.name),))
            return None
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
                return None, Offset(symbols=((1, _text(e)),)) if a[1].symbols or b[1].symbols else \
                    (Offset(a[1].const // b[1].const) if b[1].const else None)
        return None

    def mentions(self, cond, index) -> bool:
        """Whether a guard tests the index (or a name its value is bound to)."""
        names = {n.binder for n in _nodes(index) if isinstance(n, T.Var)}
        return any(isinstance(n, T.Var) and n.binder in names for n in _nodes(cond))


def _nodes(e):
    yield e
    for c in children(e, T.is_exp):
        yield from _nodes(c)


def _bound(b):
    if isinstance(b, int):
        return b
    if isinstance(b, T.Lit):
        return b.value
    if isinstance(b, Binder):
        return b.name
    if isinstance(b, T.Var):
        return b.binder.name
    return "a computed bound"


def _text(e) -> str:
    """A fixed value in words, for explain: a name, or `kw / 2`."""
    if isinstance(e, T.Var):
        return e.binder.name
    if isinstance(e, T.Lit):
        return str(e.value)
    if isinstance(e, T.BinOp):
        return f"{_text(e.lhs)} {e.op} {_text(e.rhs)}"
    return "a value"


def _signed(v: int) -> str:
    return f"+{v}" if v > 0 else str(v)


def _merged(name: str, found: list) -> Window:
    """One window an array: along each (axis, dim), the union of its reads' offsets and edges."""
    by_axis: dict[tuple, list] = {}
    for _, axes in found:
        for a in axes:
            by_axis.setdefault((a.axis, a.dim), []).append(a)
    axes = []
    for (axis, dim), same in sorted(by_axis.items()):
        still = [0] if len(same) < len(found) else []  # a read that does not move along it reads the point's own
        lows, highs = [a.low for a in same] + still, [a.high for a in same] + still
        known = None not in lows and None not in highs
        edges = tuple(dict.fromkeys(e for a in same for e in a.edges))
        bounds = tuple(dict.fromkeys(b for a in same for b in a.bounds))
        axes.append(Axis(axis, dim, min(lows) if known else None, max(highs) if known else None, edges, bounds))
    return Window(name, tuple(axes), tuple(r for r, _ in found))
