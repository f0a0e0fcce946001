"""2.5-D blocking: a 3-D window marched along its outer dimension.

A 3-D stencil reads, for each point (z, y, x), neighbours along z at the
point's own (y, x) and neighbours within its own plane z. A block then
takes a tile of (y, x) and walks a run of z one plane at a time: each
thread keeps the column of its (y, x) along z in a queue of registers
(a step shifts it by one and loads the one new element ahead), and the
block stages plane z of its tile, halo included, in shared memory, where
the in-plane neighbours are read; the next step's loads (the queues' new
elements, the plane's halo) are issued before this step's arithmetic,
which hides their latency. Each thread takes ROWS consecutive rows of
the tile, so that a plane's halo is shared by more points and a row's
neighbour along y, the next row's own element, is loaded from shared
memory once for the thread (nvcc sees one address where the steps inside
index the plane unclamped).

The version applies where the kernel has three levels and an array of
main's is read, along its three axes, at the three dimensions' indices
plus offsets known when compiling, every read either at the point's own
(y, x) (a column read: its offset along z picks a register of the queue,
by a chain of selects nvcc folds where the loops around it are unrolled;
a read clamped at the array's ends picks it at run time) or in the
point's own plane (a plane read, from the shared buffer); a read that
moves along z and within the plane at once (a 27-point box) would need
several planes, which this version does not stage. A first launch races
it against the version that would otherwise run (the cost model cannot
price what nvcc keeps in registers). For the 25-point star at 512^3 on an
H200 (`experiments/windows/march.py` by hand, then tiler's own kernels):
the window version's kernel 1.08 ms; a march of 64 x 4 threads, 3 rows a
block's height apart, 64 planes: 0.77, then 0.67 with a second body for
the steps inside every edge (inside.py: the program's tests at the edges
answered), 0.57 with the reads no step changes made once before the march
(lower/invariant.py: the star's coefficients); then the rows consecutive,
32 x 4 threads, 32 planes and registers capped for 768 threads an SM
(the fastest of 20 shapes generated and timed, session26b-d; the cap only
where a thread's live words leave room: `March.blocks`): 0.50.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

from .. import target
from ..check import typed as T
from ..check.types import element_bytes
from ..tree import descendants
from .context import Context
from .halo_tile import refusal
from .inside import Facts, inside
from .window_tile import unrolled_iterations
from .windows import WRAP, Window

# a block's threads (along the array's last axis on threadIdx.x, its middle one on threadIdx.y), the first whose
# halo takes at most MAX_HALO_LOADS loads a thread: the wider block shares a wide halo among more threads
SHAPES = ((32, 4), (64, 4))
ROWS = 3  # rows of the tile a thread takes, consecutive
CHUNK = 32  # planes a block marches
# threads an SM the march keeps resident: its registers capped at 65,536 / 768 (80 a thread), six blocks of 128.
# Inside every edge a thread's rows share their neighbours' loads, which then stay live across its points: uncapped
# the star's kernel took 88-96 registers and ran 12-25% slower (session26b-d); the clamped stencils kept their
# speed capped (session26f), and one of them spilled uncapped (ptxas's own choice, 72 registers)
RESIDENT = 768
# the cap only where a thread's live words, as `March.words` counts them, are at most this many and its halo loads
# at most CAP_HALO_LOADS: past either ptxas spilled under the cap (a radius-6 star: 92 bytes; halos of 6 to 8 loads
# a thread in blocks of 64 x 4: 24-140 bytes; an f64 star of radius 4 beside a second array: 16)
CAP_WORDS = 48
CAP_HALO_LOADS = 4
HALO_INDEX_WORDS = 3  # the registers a halo load keeps across the march besides its element: its offset, place, number
QUEUE_WORDS = 40  # registers a thread's queues may take (4-byte words), all its rows together
MAX_HALO_LOADS = 8  # a step's halo elements a thread loads (each a register across the step; star25: 4)
# the unrolled copies of the column reads' loops a thread makes a step (rows x iterations; star25: 3 x 4): the
# window version's 1,024 let a march of two rows of 16 x 16 iterations spill
MAX_COPIES = 64


@dataclass(frozen=True)
class March:
    """The array marched along `dims[0]`, its plane spanning `dims[1]`
    (threadIdx.y) and `dims[2]` (threadIdx.x): each read of it at the
    point's own column (`column`, by id) takes its queue's register, every
    other read the staged plane. Offsets kept: `queue` along the marched
    axis, `rows` and `cols` within the plane (each range includes 0)."""

    array: str
    dims: tuple[int, int, int]
    queue: tuple[int, int]
    rows: tuple[int, int]
    cols: tuple[int, int]
    element: int  # bytes an element
    points: int = ROWS  # rows a thread
    threads: tuple[int, int] = SHAPES[0]
    chunk: int = CHUNK
    inside: bool = False  # a second body, edge tests decided, for the steps inside every edge (inside_body)
    column: frozenset = field(default=frozenset(), repr=False, compare=False)  # ids of the column reads
    reads: tuple = field(default=(), repr=False, compare=False)  # every read of it (Index nodes)
    binder: object = field(default=None, repr=False, compare=False)

    @property
    def depth(self) -> int:
        """The registers of one row's queue: the offsets along the marched axis."""
        return self.queue[1] - self.queue[0] + 1

    @property
    def tile(self) -> tuple[int, int]:
        """A block's points: rows and columns of the plane, halo excluded."""
        x, y = self.threads
        return y * self.points, x

    @property
    def words(self) -> int:
        """Registers a thread keeps across the march, roughly: its rows'
        queues and the one element ahead of each, its halo loads with their
        indices."""
        words = max(1, self.element // 4)
        return self.points * (self.depth + 1) * words + self.halo_loads * (words + HALO_INDEX_WORDS)

    @property
    def blocks(self) -> int | None:
        """The blocks an SM the kernel is compiled for (`__launch_bounds__`;
        None: ptxas's choice)."""
        x, y = self.threads
        capped = self.words <= CAP_WORDS and self.halo_loads <= CAP_HALO_LOADS
        return RESIDENT // (x * y) if capped else None

    @property
    def plane(self) -> tuple[int, int]:
        """A staged plane's rows and columns, halo included."""
        rows, cols = self.tile
        return rows + self.rows[1] - self.rows[0], cols + self.cols[1] - self.cols[0]

    def grid(self) -> tuple[tuple[int, str, int], ...]:
        """(dim, grid axis, points a block takes along it): its run of planes
        on z, its tile's rows on y, its columns on x."""
        rows, cols = self.tile
        return (self.dims[0], "z", self.chunk), (self.dims[1], "y", rows), (self.dims[2], "x", cols)

    def grid_limits(self) -> tuple[tuple[int, int], ...]:
        """(dim, most points) along grid z and y, where CUDA allows 65,535 blocks."""
        return tuple((d, target.MAX_GRID[axis] * points) for d, axis, points in self.grid()[:2])

    @property
    def halo_loads(self) -> int:
        """The plane's halo elements a thread loads a step."""
        (rows, cols), (inner_rows, inner_cols) = self.plane, self.tile
        x, y = self.threads
        return -(-(rows * cols - inner_rows * inner_cols) // (x * y))

    @property
    def shared_bytes(self) -> int:
        """The plane buffer."""
        rows, cols = self.plane
        return rows * cols * self.element


@dataclass(frozen=True)
class Marching:
    """The march, or why none (`march` None)."""

    march: March | None
    reason: str
    refusals: tuple = ()  # (array, why) for each window spanning three dimensions not marched; () where an
    # option refused them all (`reason` says which)


def marching(kernel: T.Kernel, found: tuple[Window, ...], untiled, ctx: Context) -> Marching | None:
    """The march of the first window that allows one, or why none (None: no
    window spans three dimensions)."""
    if len(kernel.levels) != 3:
        return None
    spanning = [w for w in found if len(w.axes) == 3 and len({a.dim for a in w.axes}) == 3]
    if not spanning:
        return None
    if ctx.options.no_march:
        return Marching(None, "2.5-D blocking is off (--no-march)")
    if ctx.no_register_tile:
        return Marching(None, "register tiling is off (--no-register-tile): a thread's queue is its registers")
    reasons = []
    for w in spanning:
        march, why = _march(kernel, w, untiled, ctx)
        if march is not None:
            return Marching(march, _described(march))
        reasons.append((w.array, why))
    return Marching(None, "; ".join(f"{array}: {why}" for array, why in reasons), tuple(reasons))


def _march(kernel: T.Kernel, w: Window, untiled, ctx: Context) -> tuple[March | None, str]:
    axes = sorted(w.axes, key=lambda a: a.axis)
    dims = tuple(a.dim for a in axes)
    if dims[2] != kernel.levels[-1].dim:
        return None, (f"its last axis follows dimension {dims[2]}, not the innermost one: a warp's reads of a "
                      "plane would not be consecutive")
    why = refusal(kernel, w, untiled.block, along_x=False)
    if why:
        return None, why
    if any(WRAP in a.every_edge for a in w.axes):
        return None, "read wrapped around the array's ends (the march's loads clamp into the array)"
    if any(len(r.indices) != 3 for r in w.reads):
        return None, "read through a level's row of it, not element by element"
    order = [w.axes.index(a) for a in axes]  # each read's offsets by the array's axis
    column = []
    for read, offsets in zip(w.reads, w.offsets):
        along, down, across = (offsets[i] for i in order)
        if down.still and across.still:
            column.append(read)
        elif not along.still:
            return None, (f"a read at {read.span.line}:{read.span.col} moves along dimension {dims[0]} and within "
                          "the plane at once: the march stages one plane a step")
    queue, rows, cols = ((min(a.low, 0), max(a.high, 0)) for a in axes)
    if queue == (0, 0):
        return None, (f"it does not move along dimension {dims[0]}: a window within each plane, which the window "
                      "version takes")
    iterations = unrolled_iterations(kernel, [replace(w, reads=tuple(column))])
    if iterations is None:
        return None, ("a loop around a read at a point's own column is not unrolled (a count known only at launch, "
                      "more iterations than tiler unrolls, or inside an if): its register in the queue would not be "
                      "known")
    element = element_bytes(w.binder.type)
    words = max(1, element // 4)
    depth = queue[1] - queue[0] + 1
    points = min(ROWS, QUEUE_WORDS // (depth * words), MAX_COPIES // iterations)
    if points < 1:
        return None, (f"a queue of {depth} elements a point takes more than {QUEUE_WORDS} registers" if
                      depth * words > QUEUE_WORDS else
                      f"the loops around its reads would unroll {iterations:,} copies a row (more than {MAX_COPIES:,})")
    shapes = [March(w.array, dims, queue, rows, cols, element, points, threads, column=frozenset(map(id, column)),
                    reads=w.reads, binder=w.binder) for threads in SHAPES]
    march = next((m for m in shapes if m.halo_loads <= MAX_HALO_LOADS), shapes[-1])
    if march.shared_bytes > ctx.shared_limit():
        return None, f"its plane takes {march.shared_bytes:,} bytes of shared memory, more than a block may use"
    if march.halo_loads > MAX_HALO_LOADS:
        return None, (f"a step's halo would take {march.halo_loads} loads a thread (more than {MAX_HALO_LOADS}), each "
                      f"held in a register across the step, in a block of {' x '.join(map(str, march.threads))} "
                      "threads")
    for (d, most), axis in zip(march.grid_limits(), ("z", "y")):
        size = next(lv.size for lv in kernel.levels if lv.dim == d)
        if isinstance(size, int) and size > most:
            return None, (f"its {size:,} points along grid {axis} would need more than {target.MAX_GRID[axis]:,} "
                          "blocks there")
    return replace(march, inside=guarded_reads(inside_body(kernel, march)) < guarded_reads(kernel)), ""


def inside_body(k: T.Kernel, m: March) -> T.Kernel:
    """`k` for points at least the window's extent inside every edge: its
    edge tests decided (inside.py)."""
    dims = {p: lv.dim for lv in k.levels for p, arg in zip(lv.params, lv.args) if isinstance(arg, T.Iota)}
    margins = list(zip(m.dims, (m.queue, m.rows, m.cols)))
    facts = Facts(dims, {lv.dim: lv.size for lv in k.levels}, {d: -lo for d, (lo, _) in margins},
                  {d: hi for d, (_, hi) in margins})
    levels = tuple(replace(lv, lets=tuple((bs, inside(v, facts)) for bs, v in lv.lets)) for lv in k.levels)
    return replace(k, levels=levels, body=inside(k.body, facts))


def guarded_reads(k: T.Kernel) -> int:
    """The `if`s in a kernel's lets and body that guard a read of an array.
    A second body for the steps inside pays where it removes some (a
    predicated load and a select each), not where it removes clamps or
    value tests alone: those are an integer min, max or select each, and the
    second body's registers cost the 7-point stencil at 512^3 a block an SM
    (47 to 53 registers, 5 to 4 blocks of 256 threads) and 11% (0.367 to
    0.408 ms, H200, session25d), where the 25-point star gained 14% (0.776
    to 0.669 ms, session25b)."""
    exps = [v for lv in k.levels for _, v in lv.lets] + [k.body]
    return sum(isinstance(n, T.If) and any(isinstance(r, T.Index) for b in (n.then, n.else_)
                                           for r in descendants(b, T.is_exp))
               for e in exps for n in descendants(e, T.is_exp))


def _uncapped(m: March) -> str:
    if m.halo_loads > CAP_HALO_LOADS:
        return f"a halo of {m.halo_loads} loads a thread a step, more than the {CAP_HALO_LOADS} a cap leaves room for"
    return f"about {m.words} words live a thread, more than the {CAP_WORDS} a cap leaves room for"


def _described(m: March) -> str:
    x, y = m.threads
    rows, cols = m.plane
    each = f"{m.points} consecutive rows a thread" if m.points > 1 else "1 row a thread"
    return (f"2.5-D blocking: blocks of {x} x {y} threads, {each}, march {m.chunk} planes of "
            f"{m.array} along dimension {m.dims[0]}; each plane of the block's {y * m.points} x {x} points is staged "
            f"in shared memory with its halo ({rows} x {cols}, {m.shared_bytes:,} bytes) while the "
            f"next one's loads are in flight, and the reads along dimension {m.dims[0]} at a point's own column come "
            f"from a queue of {m.depth} registers; " +
            (f"compiled for {m.blocks} blocks an SM (registers capped, {m.words} words live a thread at most "
             f"{CAP_WORDS}); " if m.blocks else
             f"registers left to ptxas ({_uncapped(m)}); ") +
            ("the steps whose block lies inside every edge run the body without the edge tests the window decides"
             if m.inside else "one body for every step: no read is guarded at an edge (a second body without clamps "
             "or value tests would cost registers for little)"))
