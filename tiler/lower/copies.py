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

from .. import kir, target
from ..analyse.schedule import CopyAxis
from ..errors import CompilerBug
from ..kir.build import add, const, mul, ref_names, substitute
from ..source import Span

# loop-local names of every copy (reserved, so no program name meets them)
COUNTER, LINEAR, VECTOR = "c_", "t_", "v_"


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
    width: int = 1  # elements a thread moves at once along the copy axis (a vector)
    contiguous: bool = False  # the copy axis is contiguous in the shared array: one vector store
    run: bool = False  # one row: step t moves elements t * width on (no division into row and element)

    @property
    def per_thread(self) -> int | None:
        """Copy steps each thread makes, when the block divides the tile."""
        steps = self.rows * self.chunk // self.width
        return steps // self.threads if steps % self.threads == 0 else None


def copy_tile(c: TileCopy) -> tuple:
    """The statements of one cooperative copy."""
    return _copy(c, "cooperative copy", _loaded(c, _value(c)), None, ": a constant count")


# copy steps of one cp.async copy a kernel unrolls at once: each holds an
# address until issued. All 64 of a 16-thread block's chunk of rows, 64-bit
# addresses each, spilled (a bilinear form: 255 registers, 340 bytes of spill
# stores; none at 8); with 32-bit offsets 64 do not, 128 did (a bounded chunk
# of f32 rows beside f64 rows: 276 bytes)
WIDE_ASYNC_UNROLL = 8
ASYNC_UNROLL = 64
# the register tile's accumulators those budgets were measured beside (8 x 8 points a thread)
ASYNC_ACCUMULATORS = 64
STEPPED_STEPS = 8  # the steps a thread of the copies measured placed from the first step's (_stepped)


def unroll_share(tile) -> int:
    """How many copies' budget one copy takes beside register tile `tile`: k
    for k times ASYNC_ACCUMULATORS (a TF32 128 x 256 tile's 48 scalar steps
    a thread unrolled whole took 255 registers and spilled 508 bytes)."""
    return max(1, tile.accumulators // ASYNC_ACCUMULATORS) if tile is not None else 1


def copy_async(c: TileCopy, wide: bool = False, together: int = 1, repeated: bool = False, tile=None,
               once: bool = False) -> tuple:
    """The statements of one cooperative copy by cp.async: each thread issues
    its copy steps and goes on; an `AsyncWait` and a barrier later show the
    tile to the block. A vector lands whole, so it needs the copy axis
    contiguous in the shared array; an element out of range is zero-filled
    (nothing is read at its address). `wide`: the kernel's offsets are
    64-bit. The `together` copies whose steps are all unrolled at once (a
    stream of known length's) share WIDE_ASYNC_UNROLL such steps a thread
    (64-bit) or ASYNC_UNROLL (32-bit); a copy of more is unrolled
    WIDE_ASYNC_UNROLL steps at a time (or its share, if fewer). A
    `repeated` copy (issued again by each iteration of a loop around its
    stream) is unrolled as a 64-bit one: its addresses are the same in every
    iteration, and ptxas hoists them out of that loop, all held at once (a
    bilinear form's row of Y, 64 steps a thread, inside the loop over A's
    rows: 255 registers and 80 bytes of spill stores). Beside a register
    `tile` of more accumulators, each copy counts as `unroll_share` copies.
    `once`: the stream's loop over chunks runs one step at most (a length
    known when compiled, of at most its buffers' chunks), so each address
    is used once: steps numbered plainly (_stepped; a 32-long Gram product
    of two chunks, stepped, took 109 registers for 128 and ran 5% slower)."""
    if c.width > 1 and not c.contiguous:
        raise CompilerBug(f"a {c.width}-wide asynchronous copy into {c.shared} along a strided axis")
    issue = kir.AsyncCopy(c.shared, c.dst_index, c.src, c.src_index, c.ctype, c.width, c.valid)
    # (a gram matrix's two 128 x 16 tiles of 8 steps each, 64-bit: 255 registers and 56 bytes of spill
    # stores unrolled whole, 4 steps of each at a time none; attention scores' two 16 x 64 tiles of 64
    # scalar steps each, 32-bit: 60 bytes of spill stores)
    most = max(1, (WIDE_ASYNC_UNROLL if wide or repeated else ASYNC_UNROLL) // (together * unroll_share(tile)))
    if (c.per_thread or 0) > most:
        at_once = min(most, WIDE_ASYNC_UNROLL)
        return _copy(c, "asynchronous copy", (issue,), at_once,
                     f", unrolled {at_once} at a time: every address held at once would spill")
    return _copy(c, "asynchronous copy", (issue,), kir.FULL, ", unrolled: all issued at once", not once)


def _copy(c: TileCopy, what: str, moves: tuple, unroll, how: str, held: bool = True) -> tuple:
    """A copy's header and its loop over the thread's copy steps, each of
    which `moves` one element (or vector) of the tile (`held`: its addresses
    may be held across chunks)."""
    steps = c.rows * c.chunk // c.width
    stepped = held and _stepped(c, unroll)
    element = _coords(c, stepped) + moves
    shape = f"one run of {c.chunk} elements of {c.src}" if c.run else \
        f"{c.rows} x {c.chunk} tile of {c.src}"
    order = "" if c.run else f", {c.axis.value} fastest"
    header = kir.Comment(f"{what}: {shape} into {c.shared}{order}" + (f", {c.width} at a time" if c.width > 1 else ""),
                         c.span, copy=True)
    if c.per_thread is not None:
        loop = _steps(c, element, unroll, f"{c.per_thread} a thread{how}", stepped)
    elif steps < c.threads:  # a tile smaller than the block (a chunk halved to fit): one step or none
        loop = kir.If(kir.Bin("<", c.tid, const(steps)), (kir.Decl(LINEAR, "int", c.tid, True),) + element)
    else:  # (neither is stepped: _lines needs a constant count a thread)
        loop = kir.For(LINEAR, c.tid, const(steps), const(c.threads), element)
    return (header, loop)


def prefetch_tile(c: TileCopy, registers: str) -> tuple:
    """The first half of a copy through registers: every thread loads its
    part of the tile into `registers` (an array declared by `prefetch_registers`)."""
    value = kir.Store(registers, kir.Ref(COUNTER), _value(c), kir.LOCAL)
    read = ref_names(value)
    coords = tuple(d for d in _coords(c) if d.name in read)  # the row of a tile without rows is not read
    return (kir.Comment(f"prefetch: the next {c.rows} x {c.chunk} tile of {c.src} into registers", c.span, copy=True),
            _unrolled(c, coords + (value,)))


def commit_tile(c: TileCopy, registers: str) -> tuple:
    """The second half: the prefetched registers stored into the shared tile."""
    value = kir.Load(registers, kir.Ref(COUNTER), kir.LOCAL)
    return (kir.Comment(f"the prefetched tile of {c.src} into {c.shared}", copy=True),
            _unrolled(c, _coords(c) + _loaded(c, value)))


def prefetch_registers(c: TileCopy, registers: str) -> kir.ArrayDecl:
    ctype = target.vector_type(c.ctype, c.width) if c.width > 1 else c.ctype
    return kir.ArrayDecl(registers, ctype, c.per_thread)


def _unrolled(c: TileCopy, element: tuple) -> kir.For:  # (not stepped: not measured so, _stepped)
    return _steps(c, element, kir.FULL, f"{c.per_thread} a thread, unrolled: the registers are indexed by constants")


def _steps(c: TileCopy, element: tuple, unroll, note: str, stepped: bool = False) -> kir.For:
    """A thread's constant count of copy steps, each at tid + step * threads
    (LINEAR; or, `stepped`, LINEAR = tid and each step placed from it)."""
    start = c.tid if stepped else add(c.tid, mul(kir.Ref(COUNTER), const(c.threads)))
    first = kir.Decl(LINEAR, "int", start, True)
    return kir.For(COUNTER, const(0), const(c.per_thread), const(1), (first,) + element, unroll=unroll, note=note)


def _along(c: TileCopy) -> int:
    """Steps along the copy axis (a line of the tile), the fastest."""
    return (c.rows if c.axis is CopyAxis.ROWS else c.chunk) // c.width


def _lines(c: TileCopy) -> int:
    """Lines of the tile a thread's copy step moves on from the last (0:
    not whole lines): where the block's threads are a multiple of a line's
    steps, each step keeps the first's place along the line, and its line
    is the first's plus a constant. Written so, ptxas keeps two values a
    copy unrolled whole; written as the quotient and remainder of tid +
    step * threads, it kept each step's apart (mm's 8 x 8 tile, sizes
    unknown: 137 registers, one block an SM; so, 127)."""
    return c.threads // _along(c) if not c.run and c.per_thread is not None and c.threads % _along(c) == 0 else 0


def _stepped(c: TileCopy, unroll) -> bool:
    """Whether `_steps`' loop, unrolled `unroll` times, takes each step's
    place from the first's (_lines): for scalar copies of 4-byte elements,
    STEPPED_STEPS steps a thread, unrolled whole or left to the
    compiler (16, under --chunk 32, took more registers: mm 185 -> 187, not
    timed). Elsewhere ptxas did worse: mm_bf16's kernel on the units, at
    two blocks' 128 registers, spilled (its last partial chunk's 32 steps,
    made plain, were unrolled with every address held: 88 bytes; its
    16-byte copies stepped so, 12); a split-K stage's 4 steps a thread
    took 4 bytes of spill at ptxas's own 80 registers (c_xty_loop_f32); f64
    steps raised another's registers from 128 to 134, one block an SM, 5%
    slower (c_xty_tstream_f64, H200)."""
    return bool(_lines(c)) and c.width == 1 and target.SIZEOF.get(c.ctype) == 4 and \
        c.per_thread == STEPPED_STEPS and (unroll is kir.FULL or unroll is None)


def _coords(c: TileCopy, stepped: bool = False) -> tuple:
    """The element (row, chunk index) of copy step LINEAR, the copy axis
    fastest; `stepped`: placed from the first step's (`_stepped`), in
    `_steps`' loop, whose COUNTER counts the steps."""
    linear = kir.Ref(LINEAR)
    if c.run:
        return kir.Decl(c.row, "int", const(0), True), kir.Decl(c.elem, "int", mul(linear, const(c.width)), True)
    along = _along(c)
    fast = mul(kir.Bin("%", linear, const(along)), const(c.width))
    slow = kir.Bin("/", linear, const(along))
    if stepped:
        slow = add(slow, mul(kir.Ref(COUNTER), const(_lines(c))))
    row, elem = (fast, slow) if c.axis is CopyAxis.ROWS else (slow, fast)
    return kir.Decl(c.row, "int", row, True), kir.Decl(c.elem, "int", elem, True)


def _value(c: TileCopy):
    if c.width > 1:
        return kir.VecLoad(c.src, c.src_index, c.width, c.ctype)
    load = kir.Load(c.src, c.src_index)
    zero = const(0.0, c.ctype) if c.ctype in target.NARROW else kir.Cast(c.ctype, const(0))  # (no cast from int)
    return load if c.valid is None else kir.Select(c.valid, load, zero)


def _loaded(c: TileCopy, value) -> tuple:
    """The stores of one loaded value; a vector is loaded once into VECTOR
    and its lanes stored from there (each lane of a load expression would be
    a load of its own, which the front end does not merge once an address
    passes through an integer min)."""
    if c.width == 1:
        return _stores(c, value)
    vector = kir.Decl(VECTOR, target.vector_type(c.ctype, c.width), value, True)
    return (vector,) + _stores(c, kir.Ref(VECTOR))


def _stores(c: TileCopy, value) -> tuple:
    if c.width == 1:
        return (kir.Store(c.shared, c.dst_index, value, kir.SHARED),)
    lanes = tuple(kir.lane(value, v, c.ctype) for v in range(c.width))
    if c.contiguous:
        return (kir.VecStore(c.shared, c.dst_index, lanes, c.ctype, kir.SHARED),)
    moved = c.row if c.axis is CopyAxis.ROWS else c.elem
    return tuple(kir.Store(c.shared, substitute(c.dst_index, {moved: add(kir.Ref(moved), const(v))}), lane,
                           kir.SHARED) for v, lane in enumerate(lanes))
