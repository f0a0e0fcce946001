"""The schedule: every decision the plan makes, as data.

Enums and small frozen records say how an input is staged (memory level,
tile, shared layout, padding, which index the copy lays on threadIdx.x, how
the inner loop reads the tile, vector width, buffers), how the block is
shaped and which kernel versions the launch chooses between. The human
reasons are separate text, for `explain`; no later stage reads a sentence:
`describe_*` turn the data into the words `explain` prints.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from enum import Enum

from .. import target
from .records import Dims, StreamSite


class Level(Enum):
    GLOBAL = "global"
    SHARED = "shared"
    REGISTER = "register"


class CopyAxis(Enum):
    """The index of the tile that consecutive threads of the copy take."""

    CHUNK = "chunk"
    ROWS = "rows"


class Coalescing(Enum):
    COALESCED = "coalesced"
    UNCOALESCED = "uncoalesced"
    UNKNOWN = "unknown"  # a computed array: its layout is not known


class Layout(Enum):
    ROW_MAJOR = "row-major"  # one row of the tile per thread index, the chunk contiguous
    TRANSPOSED = "transposed"  # chunk index outer: consecutive threads' rows are contiguous


class Coalesce(Enum):
    """What makes a per-thread row's reads coalesce (explain's `coalesce`)."""

    NONE = "none"  # nothing to remedy, or left as it is
    SHARED = "shared"  # the block copies its threads' rows into shared memory along the rows
    TRANSPOSE = "transpose"  # the launch transposes the array first; the kernel reads the copy along threadIdx.x


class Reads(Enum):
    """How the threads of a warp read the tile in the inner loop."""

    BROADCAST = "broadcast"  # all the same address
    UNIT_STRIDE = "unit-stride"  # consecutive addresses: no bank conflicts
    STRIDED = "strided"  # a row apart: bank conflicts
    PER_THREAD = "per-thread"  # an index that differs between threads: may conflict


@dataclass(frozen=True)
class Copy:
    axis: CopyAxis
    coalescing: Coalescing
    unit_dim: int | None = None  # the kernel dim whose index is unit-stride in global memory
    ablation: bool = False  # laid along the chunk on purpose (tiler bench --ablate)


@dataclass(frozen=True)
class Pack:
    """Staged inputs read at the same index, interleaved in one shared array:
    element e of member `lane` sits at e * width + lane, so one vector read
    (128-bit at width 4) fetches every member's element of a step."""

    array: str  # the shared array's name: its members' chunk parameters joined
    lane: int
    width: int  # lanes an element takes: 2 or 4 (three members leave the fourth lane unused)
    members: tuple[str, ...]


@dataclass(frozen=True)
class Staging:
    """How one streamed input is staged in fast memory."""

    level: Level
    rows: tuple[int, ...]  # block dims the tile keeps one row per thread index for
    tile: tuple[int, ...]  # (rows, chunk) extents, chunk last; (chunk,) with no rows
    layout: Layout
    padding: int  # elements added to each line of the shared array
    copy: Copy
    reads: Reads
    bytes: int
    reuse: int  # threads one staged copy serves
    vector: int = 1  # elements a copy instruction moves
    buffers: int = 1  # 2: double-buffered (the next chunk is copied while this one is read); stages of cp.async
    pack: Pack | None = None  # interleaved with other inputs' tiles in one shared array
    element: int = 1  # scalars in one element of the chunk: a row chunk's row length (1: a chunk of scalars)
    asynchronous: bool = False  # copied by cp.async, `buffers` chunks deep, not through registers
    own: bool = False  # each element is read by one point only, at its own index (the copy shares nothing)
    # laid out for the warp groups' matrix instructions (target.WGMMA_*): no padding, each line's 16-byte
    # units permuted by the line's index (lower/streams.py swizzled_index); only they read it
    swizzled: bool = False
    # read by each thread into registers as the warp groups' A operand (TF32's B tile, its columns adjacent:
    # analyse/tensor_cores.py computes the product transposed), padded so that a warp's loads fall on 32 banks
    registers: bool = False

    @property
    def pitch(self) -> int:
        """Elements between consecutive lines of the shared array."""
        if self.element > 1:
            return self.element + self.padding
        return (self.tile[0] if self.layout is Layout.TRANSPOSED else self.tile[-1]) + self.padding

    @property
    def elements(self) -> int:
        """Scalars the tile holds (padding aside): what one copy moves."""
        return math.prod(self.tile) * self.element

    @property
    def shape(self) -> tuple[int, ...]:
        """The shared array's extents, outer first, padding included."""
        if self.element > 1:
            return (self.tile[-1], self.pitch)
        if not self.rows:
            return (self.tile[-1],)
        rows, chunk = self.tile
        return (chunk, rows + self.padding) if self.layout is Layout.TRANSPOSED else (rows, chunk + self.padding)


class Refusal(Enum):
    """Why an input of a stream is read in place: what the plan decides on.
    The words explain prints are InputPlan.reason, kept apart."""

    COMPUTED = "its values are computed from the index"
    NESTED = "its chunk's elements are arrays of arrays"
    ROWS_AT_LAUNCH = "its rows' length is known only at launch"
    OWN_DATA = "it varies with every dimension"
    OTHER_BLOCKS = "the threads that share it are in other blocks"
    DIVERGENT = "the stream is under control that differs between the block's threads"
    USED_WHOLE = "its chunk is used whole"
    NEVER_READ = "its chunk is never read"
    COALESCING_OFF = "staging to coalesce is off"
    TRANSPOSED = "the launch transposes its array instead"
    ROWS_ALONG_BOTH = "its rows differ along both dimensions the block spans"
    ROWS_DO_NOT_FIT = "its rows would not fit beside the other tiles"
    ROWS_DIFFER = "its chunk's rows differ between the block's threads"
    ROWS_THROUGH_DATA = "its rows are picked through data"
    STREAM = "the stream itself is not tiled"
    OVER_LIMIT = "the plan's tiles pass the shared-memory limit"


@dataclass(frozen=True)
class InputPlan:
    name: str  # the chunk parameter
    array: object  # the typed argument expression
    varies_with: Dims
    invariant_to: Dims
    staging: Staging | None
    reason: str
    shares: str = ""  # staged: another input of the stream reads the same array; this one reads its tile
    uncoalesced: bool = False  # read in place, consecutive threads (threadIdx.x) would read a row apart
    element: int = 1  # scalars an element of its chunk holds, where known (a row chunk's row length)
    transposed: bool = False  # its array is transposed by the launch (Schedule.transposes)
    refusal: Refusal | None = None  # why it is read in place (None: it is staged, or could be)

    @property
    def staged(self) -> bool:
        return self.staging is not None

    @property
    def coalesce(self) -> Coalesce:
        if self.uncoalesced and self.transposed:
            return Coalesce.TRANSPOSE
        if self.uncoalesced and self.staged and self.staging.copy.coalescing is Coalescing.COALESCED:
            return Coalesce.SHARED
        return Coalesce.NONE

    @property
    def for_coalescing(self) -> bool:
        """Staged only so that its reads coalesce: no other thread shares it."""
        return self.staged and self.coalesce is Coalesce.SHARED and self.staging.reuse == 1

    @property
    def copied(self) -> bool:
        """Staged with a copy of its own (not reading another input's tile)."""
        return self.staged and not self.shares


@dataclass(frozen=True)
class Join:
    """A loop whose body streams rows it picks each iteration (lavaMD: `for k
    < count do let jb = nei[bx, k] in streamSeq(..., rv[jb], acc)`), the
    stream carrying the loop's accumulators. Joined, the loop's rows laid end
    to end are one stream (`streamSeq` allows any split, so a chunk may end
    inside a row and the next take up the rest): the block copies a chunk of
    it at a time, several short rows between one pair of barriers, where
    rows apart cost a pair a row and leave the tile of a short row part
    empty."""

    loop: object  # the typed loop (check.typed.Loop)
    length: object  # the rows' length: an int or main's size (a Binder)
    joined: bool
    reason: str
    sound: bool = True  # the rows could be joined (False: `reason` says what stops it)


@dataclass(frozen=True)
class StreamPlan:
    site: StreamSite
    tiled: bool
    partial: bool  # tiled, with some inputs read in place
    chunk: int | None
    inputs: tuple[InputPlan, ...]
    reason: str
    shared_bytes: int
    unroll: int | None = None  # times the loop over a staged chunk is unrolled (None: the compiler decides)
    join: Join | None = None  # the stream is the body of a loop over rows: joined with its iterations, or why not


@dataclass(frozen=True)
class RegisterTile:
    """Each thread computes a micro-tile of outputs: `sizes[d]` points along
    kernel dim d, in groups of `group` consecutive points (one vector read of
    a transposed tile); a value invariant to a dim is read once into a
    register and reused across the micro-tile's points along that dim."""

    sizes: tuple[int, ...]  # per kernel dim (1: not strip-mined)
    group: int  # consecutive points a thread owns along a strip-mined dim
    accumulators: int  # the 32-bit registers the micro-tile's accumulators take
    registers: int  # the registers a thread is expected to use in all (an estimate)
    double_buffer: bool  # the next chunk's tiles prefetched through registers
    asynchronous: bool = False  # the tiles copied by cp.async, several chunks in flight (no prefetch registers)
    operands: int = 0  # registers the operands of one step take (what a prefetch through registers adds)

    @property
    def points(self) -> int:
        return math.prod(self.sizes)


@dataclass(frozen=True)
class BlockPlan:
    rank: int
    spans: tuple[int, ...]  # kernel dims the block spans, threadIdx.x first
    extents: tuple[int, ...]  # threads along each kernel dim (1: not spanned)
    thread_axis: tuple[str | None, ...]  # per kernel dim: "x", "y" or None
    grid_axis: tuple[str, ...]  # per kernel dim: the blockIdx axis that walks it
    interchanged: bool
    reason: str
    shared_bytes: int
    register: RegisterTile | None = None  # None: one point a thread
    register_reason: str = ""  # why (or why not) a register tile
    interior: bool = False  # blocks wholly inside every dim run a copy of the body without clamps or store guards
    interior_reason: str = ""
    min_blocks: int | None = None  # blocks an SM must hold at once (`__launch_bounds__`); None: ptxas's choice
    min_blocks_reason: str = ""
    narrowed: bool = False  # narrowed for the rows its threads stage to coalesce (plan._coalescing_block)
    # consecutive blocks walk this many rows of tiles (the dim on grid y) before the next column of tiles (the
    # dim on grid x), so that a wave's blocks read fewer panels of the inputs (raster.py); 0: the launch's order
    group_rows: int = 0
    group_rows_reason: str = "tiles in the launch's order"

    @property
    def threads(self) -> int:
        return math.prod(self.extents)

    @property
    def pipelined(self) -> bool:
        """Its tiles are copied by cp.async, several chunks deep (registers.py)."""
        return self.register is not None and self.register.asynchronous

    def micro(self, d: int) -> int:
        """Points a thread computes along kernel dim d."""
        return self.register.sizes[d] if self.register else 1

    @property
    def micro_points(self) -> int:
        """Points a thread computes (1: no register tile)."""
        return self.register.points if self.register else 1

    @property
    def points_apart(self) -> bool:
        """A thread's points lie a block's width apart (groups of one), not consecutive."""
        return self.register is not None and self.register.group == 1 and self.register.points > 1

    def points(self, d: int) -> int:
        """Points a block covers along kernel dim d."""
        return self.extents[d] * self.micro(d)


@dataclass(frozen=True)
class Threshold:
    """Below `value`, a size makes the tiled kernel cost more than the
    untiled one: the launch runs the untiled version."""

    size: str  # the size's name
    dim: int | None  # the kernel dim it measures, or None for a stream's length
    value: int
    overridden: bool = False


@dataclass(frozen=True)
class RowSlab:
    """A row each thread reads whole by element (`p[f]` in a loop over a
    map's row `p`), a row apart from its neighbours' in global memory. Staged,
    the block copies its points' rows (`points` x `length`) into one shared
    array at the kernel's start, along the rows (coalesced), and each thread
    reads its own row there (a line of `pitch` elements: the row's length
    where the rows are one run in the input and reads stay nearly free of
    bank conflicts, else odd, so that a warp's reads at one index fall in
    distinct banks)."""

    name: str  # the map's row parameter
    array: object  # the typed argument the map walks
    dim: int  # the kernel dim the map walks
    length: int | None  # the row's length where known
    staged: bool
    reason: str
    points: int = 0  # rows the block copies (threads x points a thread along `dim`)
    pitch: int = 0
    bytes: int = 0
    run: bool = False  # the rows are one run in the input and keep their length: copied flat, in vectors
    vector: int = 1  # elements one copy moves (a run's)
    asynchronous: bool = False  # a run copied by cp.async
    transposed: bool = False  # left in place, but its array is transposed by the launch (Schedule.transposes)


@dataclass(frozen=True)
class Transposition:
    """An input of `main` whose rows the kernel's threads read alone, a row
    apart along threadIdx.x (transposes.py). Chosen, the launch transposes
    its last two axes into scratch memory with a separate kernel before the
    kernel runs, and the kernel reads that copy; where the sizes are known
    only at launch, only if the rows are at least `min_length` long and the
    kernel's threads (a row each) at most `max_rows` many."""

    array: str  # main's parameter
    rows: str | int  # the second-to-last axis's size: the one threadIdx.x walks
    length: str | int  # the rows' length (the last axis)
    points: tuple  # the kernel's dimension sizes: their product is the rows read at once (one a thread)
    chosen: bool
    min_length: int | None  # transposed only at launches with `length` at least this (None: any)
    max_rows: int | None  # and with the product of `points` at most this (None: any)
    reason: str
    # for the matrix units' tiles (operand_transposes.py) or TMA's (core_tma.py): the plan's tiles are laid out
    # for the copy, so every version of its schedule reads it, 64-bit ones too
    units: bool = False
    # and the launch tests under which those versions run (an output extent at least MIN_ROWS: (sizes, op,
    # value) as launch_tests gives them); the plan reading the operands in place runs the other launches
    units_tests: tuple = ()

    def launch_tests(self) -> tuple[tuple[tuple, str, int], ...]:
        """(sizes multiplied, ">=" or "<=", value): what the launch checks before it transposes."""
        return tuple(t for t in (((self.length,), ">=", self.min_length), (self.points, "<=", self.max_rows))
                     if t[2] is not None)

    def launch_text(self) -> tuple[str, ...]:
        """The same tests in words: `m >= 2048`, `b * n <= 16896`."""
        return tuple(test_text(t) for t in self.launch_tests())


def launch_tests(moves) -> tuple[tuple[tuple, str, int], ...]:
    """Every test the launch checks before it transposes `moves`, once each
    (two arrays of one kernel often share them)."""
    return tuple(dict.fromkeys(test for t in moves for test in t.launch_tests()))


def test_text(test: tuple[tuple, str, int]) -> str:
    sizes, op, value = test
    return f"{' * '.join(map(str, sizes))} {op} {value}"


class Math(Enum):
    """How the kernel computes math functions and float chains (--fast-math)."""

    IEEE = "IEEE rounding, as the interpreter computes"
    FAST = "the hardware approximations, float chains reordered into multiply-adds"


@dataclass(frozen=True)
class TmaCopies:
    """Whether a register-tiled product on the CUDA cores copies its tiles by TMA, and why or why not."""

    used: bool
    reason: str
    # where used: whether the last chunk runs whole over the zeros TMA writes past the arrays' ends, and why or
    # why not (zero_tail.py)
    whole_chunks: bool = False
    last_chunk: str = ""


@dataclass(frozen=True)
class Schedule:
    block: BlockPlan
    streams: tuple[StreamPlan, ...]
    cost: float  # the cost model's estimate: global loads a point per streamed element
    slabs: tuple[RowSlab, ...] = ()  # rows threads read whole outside any stream, staged or why not
    transposes: tuple[Transposition, ...] = ()  # arrays of per-thread rows: transposed by the launch, or why not
    transposed_block: BlockPlan | None = None  # the block of the versions reading transposed copies (None: `block`)
    bounded: frozenset = frozenset()  # sizes whose row length the tiles were sized by is a bound (plan._bounded)
    math: Math = Math.IEEE
    halos: tuple = ()  # windows the block stages in shared memory with their halo (halo_tile.HaloTile)
    # whether a register-tiled product runs on the matrix units, and why or why not (tensor_cores.py); None: no
    # 2-D register tile to ask about
    matrix_units: object = None
    tma: "TmaCopies | None" = None  # whether such a product on the CUDA cores copies its tiles by TMA (core_tma.py)

    @property
    def transposed(self) -> tuple[Transposition, ...]:
        return tuple(t for t in self.transposes if t.chosen)

    @property
    def copies_by_tma(self) -> bool:
        """Its product on the CUDA cores copies its tiles by TMA (core_tma.py)."""
        return self.tma is not None and self.tma.used

    @property
    def tiled(self) -> bool:
        return any(s.tiled for s in self.streams)

    @property
    def stages_to_coalesce(self) -> bool:
        """Some input or row is staged only so that its reads coalesce (no other thread shares it)."""
        return any(p.for_coalescing for s in self.streams for p in s.inputs) or any(r.staged for r in self.slabs)

    @property
    def fixed(self) -> dict[str, int]:
        """Sizes whose value, given when compiling, sizes a shared array (the
        row length of a chunk of rows or of a row read whole): the kernel runs
        at that value alone, and is lowered with the size as that constant."""
        return {n: v for n, v in self._row_lengths().items() if n not in self.bounded}

    @property
    def bounds(self) -> dict[str, int]:
        """Sizes known only at launch whose shared arrays hold rows of at most
        this many elements: the kernel runs where they are no longer, and
        reads the size itself at launch."""
        return {n: v for n, v in self._row_lengths().items() if n in self.bounded}

    def _row_lengths(self) -> dict[str, int]:
        rows = [(p.array, p.element) for s in self.streams if s.tiled for p in s.inputs if p.copied and p.element > 1]
        rows += [(r.array, r.length) for r in self.slabs if r.staged]
        return {a.type.shape[1].name: n for a, n in rows if not isinstance(a.type.shape[1], int)}


# ---- words for explain ---------------------------------------------------------


def describe_copy(c: Copy) -> str:
    if c.axis is CopyAxis.ROWS and c.coalescing is Coalescing.COALESCED:
        return f"along the rows (dim {c.unit_dim} is unit-stride, through the transpose): coalesced"
    if c.axis is CopyAxis.ROWS:
        return (f"along the rows (each point along dim {c.unit_dim} reads its own element, at an index computed "
                "from its own): neighbours' elements apart, uncoalesced")
    if c.ablation:
        return "along the chunk, a row apart: uncoalesced (ablation)"
    if c.coalescing is Coalescing.COALESCED:
        return "along the chunk: coalesced"
    if c.coalescing is Coalescing.UNKNOWN:
        return "along the chunk: layout unknown (a computed array)"
    return "along the chunk, a row apart: uncoalesced"


def describe_pipeline(s: Staging) -> str:
    """How the copies of a staged tile overlap the reads of the one before."""
    if s.asynchronous:
        return f"cp.async into {s.buffers} buffers, {s.buffers - 1} chunks in flight"
    return "double-buffered through registers" if s.buffers == 2 else "one buffer"


def describe_thresholds(thresholds) -> str:
    """Why the tiled version runs only from its thresholds on."""
    if all(t.overridden for t in thresholds):
        return "the thresholds were given with --threshold"
    return "below them, the cost model finds the untiled kernel cheaper"


def describe_share(share: int, blocks: str = "") -> str:
    """A version's grid test (kir.Version.grid_share), in words; `blocks`:
    the grid's block count as a formula."""
    grid = f"its grid ({blocks} blocks)" if blocks else "its grid"
    return f"{grid} has a block for " + ("every SM of the GPU" if share == 1 else f"at least 1 in {share} SMs of the GPU")


def describe_reads(s: Staging) -> str:
    if s.swizzled:
        return "by the warp groups' matrix instructions: the swizzle puts a read's lines on distinct banks"
    if s.registers:
        return (f"by each thread into registers, the warp groups' A: a warp's loads on distinct banks (pitch "
                f"{s.pitch})")
    if s.reads is Reads.PER_THREAD:
        return "per-thread index: may conflict"
    if s.reads is Reads.STRIDED:  # a warp's threads (the tile's rows) read one element each, a line apart
        banks = [r * s.pitch % target.SHARED_BANKS for r in range(min(target.WARP, s.tile[0]))]
        ways = max(banks.count(b) for b in banks)
        return f"a row apart: {ways}-way bank conflicts (pitch {s.pitch})" if ways > 1 else \
            f"a row apart, in distinct banks (pitch {s.pitch})"
    return s.reads.value
