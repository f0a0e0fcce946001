"""The kernel IR's expressions and statements (the docstring of tiler.kir
lists them): frozen dataclasses, compared by value; a statement's source
span takes no part in the comparison.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .. import target
from ..source import Span
from ..tree import quick_constructors


def _span():
    return field(default=None, compare=False)


# ---- expressions ---------------------------------------------------------------


@dataclass(frozen=True)
class Const:
    value: object
    ctype: str


@dataclass(frozen=True)
class Ref:
    name: str


@dataclass(frozen=True)
class ThreadIdx:
    axis: str  # "x", "y" or "z"


@dataclass(frozen=True)
class BlockIdx:
    axis: str


# `wrap` on an integer +, - or * (or a negation): the C type whose arithmetic
# the program's wraps around (two's complement, as the language says), which C
# leaves undefined for signed types and nvcc's optimiser exploits; None for
# tiler's own index arithmetic, floats and comparisons.
# `widen` on a `*` of two ints, one of them cast to long long: a product that
# starts a 64-bit offset, spelled as one widening multiply (target.WIDE_MUL;
# marked by transform/widen.py once the kernel is lowered).
@dataclass(frozen=True)
class Bin:
    op: str
    a: object
    b: object
    wrap: str | None = None
    widen: bool = False


@dataclass(frozen=True)
class Un:
    op: str
    a: object
    wrap: str | None = None


# A `Call` of CLAMP is an integer minimum tiler adds itself; it means what
# "min" means, but its spelling keeps the CUDA front end from seeing through it.
CLAMP = "clamp"
MINMAX = ("min", "max", CLAMP)


@dataclass(frozen=True)
class Call:
    fn: str
    args: tuple


@dataclass(frozen=True)
class Cast:
    ctype: str
    a: object


@dataclass(frozen=True)
class Select:
    cond: object
    a: object
    b: object


GLOBAL, SHARED, LOCAL = "global", "shared", "local"  # memory spaces; local: a per-thread array


@dataclass(frozen=True)
class Load:
    buffer: str
    index: object
    space: str = GLOBAL


@dataclass(frozen=True)
class VecLoad:
    """`width` consecutive elements from `index` in one access. Legal only if
    `index` is a multiple of `width` (and the buffer 16-byte aligned, which
    every allocation is): the verifier proves it from the kernel's
    `divisible` facts, which the launch condition guarantees."""

    buffer: str
    index: object
    width: int
    ctype: str
    space: str = GLOBAL


@dataclass(frozen=True)
class Lane:
    vector: object  # an expression of vector type (a Ref to a vector Decl)
    lane: int
    ctype: str = ""  # the element's, where it decides the lane's spelling (a 16-bit float's: target.lane_member)


def lane(vector, index: int, ctype: str) -> Lane:
    """Lane `index` of a vector of `ctype` elements."""
    return Lane(vector, index, ctype if ctype in target.NARROW else "")


Expr = Const | Ref | ThreadIdx | BlockIdx | Bin | Un | Call | Cast | Select | Load | VecLoad | Lane


# ---- statements --------------------------------------------------------------


@dataclass(frozen=True)
class Decl:
    name: str
    ctype: str  # a scalar type, or a vector type (target.vector_type)
    init: object
    const: bool = False
    span: Span | None = _span()


@dataclass(frozen=True)
class ArrayDecl:
    """A per-thread array: a register tile when every index is a constant
    once its loops are unrolled (else the compiler puts it in local memory)."""

    name: str
    ctype: str
    elems: int
    span: Span | None = _span()


@dataclass(frozen=True)
class Assign:
    name: str
    value: object
    span: Span | None = _span()


@dataclass(frozen=True)
class Store:
    buffer: str
    index: object
    value: object
    space: str = GLOBAL
    span: Span | None = _span()


@dataclass(frozen=True)
class VecStore:
    buffer: str
    index: object
    values: tuple  # `width` scalar expressions
    ctype: str
    space: str = GLOBAL
    span: Span | None = _span()

    @property
    def width(self) -> int:
        return len(self.values)


FULL = "full"


@dataclass(frozen=True)
class For:
    var: str
    start: object
    stop: object
    step: object
    body: tuple
    span: Span | None = _span()
    unroll: int | str | None = None  # None: the compiler decides; FULL; or a factor (1: never)
    note: str = ""  # a comment on the loop's line


@dataclass(frozen=True)
class If:
    cond: object
    then: tuple
    else_: tuple = ()
    span: Span | None = _span()


@dataclass(frozen=True)
class Barrier:
    why: str = ""
    # the threads' shared writes made visible to the warp groups' matrix instructions (the async proxy)
    # before the barrier (transform/matrix_units.py, for wgmma)
    proxy: bool = False


@dataclass(frozen=True)
class Comment:
    text: str
    span: Span | None = _span()
    copy: bool = False  # it heads a copy of a tile or row: the next statement is the copy's loop (for reports)


@dataclass(frozen=True)
class AsyncCopy:
    """cp.async: `width` elements from global `src[src_index]` to
    `shared[dst_index]`, not waited for; an invalid element is zero-filled
    (the source address must still be in range: clamp it)."""

    shared: str
    dst_index: object
    src: str
    src_index: object
    ctype: str
    width: int = 1
    valid: object = None  # None: always valid

    @property
    def bytes(self) -> int:
        return target.SIZEOF[self.ctype] * self.width


@dataclass(frozen=True)
class AsyncCommit:
    """Close the group of asynchronous copies issued since the last commit."""


@dataclass(frozen=True)
class AsyncWait:
    """Wait until at most `pending` committed groups are still in flight
    (this thread's copies; a barrier then shows them to the block)."""

    pending: int = 0


@dataclass(frozen=True)
class PointMap:
    """`stmts` for every point of a thread's micro-tile along `dims` (`points`
    of them): what register tiling's interchange makes, and sequentialise
    turns into unrolled loops (transform/register_tile.py); never in a
    finished kernel."""

    dims: frozenset
    stmts: tuple
    points: int


# ---- the matrix units (tensor cores): a warp's share of a block's product tile ------------------------------


@dataclass(frozen=True)
class MatrixShape:
    """One warp-wide matrix instruction and how a block's product tile is
    split among its warps (analyse/tensor_cores.py decides it): `m x n x k`
    (target.MATRIX_SHAPES), inputs of C type `inputs` (float: rounded to
    TF32), sums of C type `accumulator`; the warps `warps[0] x warps[1]`
    over the tile's rows and columns, each holding `fragments[0] x
    fragments[1]` accumulator fragments."""

    m: int
    n: int
    k: int
    inputs: str
    accumulator: str
    warps: tuple
    fragments: tuple
    # threads one instruction takes: a warp's (mma.sync), or a warp group's (sm_90a's wgmma, whose operands
    # are swizzled tiles read through descriptors); `warps` then counts warp groups
    group: int = target.WARP
    # the instruction computes the block's product tile transposed (Cᵀ = Bᵀ Aᵀ: its rows are the tile's columns,
    # its A operand B's tile): a warp group reads TF32 into registers in any layout, from shared memory only
    # with the positions adjacent, and B's tile of a plain product has its columns adjacent
    transposed: bool = False

    @property
    def warp_group(self) -> bool:
        return self.group > target.WARP

    @property
    def warp_tile(self) -> tuple[int, int]:
        """Rows and columns of the product tile one warp (or warp group) computes."""
        return self.m * self.fragments[0], self.n * self.fragments[1]

    @property
    def stored(self) -> tuple[int, int]:
        """Rows and columns a warp's MatrixStore writes from its index: its
        whole tile, or within a warp group's tile its share of each
        fragment's rows (WGMMA_M / 4 of them, the others' rows between)."""
        if not self.warp_group:
            return self.warp_tile
        share = self.m // (self.group // target.WARP)
        return (self.fragments[0] - 1) * self.m + share, self.n * self.fragments[1]


@dataclass(frozen=True)
class MatrixOperand:
    """A shared tile as a matrix unit reads it: `first` is the element (as a
    `Load`, whose address is taken) at the warp's first row (or column) and
    the chunk's first position; `row_major`: consecutive positions along the
    shared dimension are consecutive in memory for operand A (for B:
    consecutive columns are); `ld`: the leading dimension, in elements."""

    first: object
    row_major: bool
    ld: int
    # a swizzled tile (target.WGMMA_*): its lines (`ld` elements each, the 16-byte units of line l XOR-ed
    # with l % WGMMA_ATOM_LINES); where its lines run along the chunk, the sides' elements come in blocks of
    # `ld`, `ld * lines` apart (kir.build.swizzled_index). 0: a plain tile
    lines: int = 0
    # read into each thread's registers (wgmma's A operand from registers): `first` is then the thread's own
    # first element (its first row of the fragment and position of the chunk, target.WGMMA_REGISTER_*)
    registers: bool = False

    @property
    def block(self) -> int:
        """Elements from a swizzled tile's block of `ld` lines across to the next."""
        return self.ld * self.lines


def operand_lines(operand: MatrixOperand, a: bool) -> bool:
    """Whether each of the operand's rows of A (columns of B) is a line of
    positions of the chunk: A row-major, B column-major (K-major)."""
    return operand.row_major == a


def operand_strides(operand: MatrixOperand, a: bool) -> tuple[int, int]:
    """Elements from an operand's element to the next along its side (A's
    next row, B's next column) and to the next position of the chunk (in a
    swizzled tile, before the swizzle and within a block)."""
    return (operand.ld, 1) if operand_lines(operand, a) else (1, operand.ld)


def fragment_steps(shape: MatrixShape, operand: MatrixOperand, a: bool) -> tuple[int, int]:
    """Elements from an operand's first element to its next fragment (the
    warp's next m rows of A, or n columns of B) and to its next instruction
    (the next k positions of the chunk)."""
    side = shape.m if a else shape.n
    along_side, along_k = operand_strides(operand, a)
    if operand.lines and not operand_lines(operand, a):  # a swizzled tile's sides in blocks of `ld`
        return side // operand.ld * operand.block, shape.k * along_k
    return side * along_side, shape.k * along_k


@dataclass(frozen=True)
class MatrixZero:
    """Declares the warp's accumulator fragments `name`, all zero."""

    name: str
    shape: MatrixShape


@dataclass(frozen=True)
class MatrixChunk:
    """`name` += A B over `steps` instructions along the chunk: the warp's
    rows of tile `a` times its columns of tile `b`."""

    name: str
    shape: MatrixShape
    a: MatrixOperand
    b: MatrixOperand
    steps: int
    # a warp group's chunks left running once issued (wgmma.wait_group): 0, done when it returns; 1, the
    # chunk before it done (a TMA pipeline's, which a MatrixWait ends)
    pending: int = 0


@dataclass(frozen=True)
class MatrixWait:
    """Every chunk of fragments `name` issued is done, its sums in the
    accumulators (the chunks of a TMA pipeline, left running: MatrixChunk.pending)."""

    name: str = ""  # (lowering writes it empty: the matrix units' rewrite names the fragments)


# ---- TMA (sm_90's tensor memory accelerator): a chunk's tiles copied by one thread, waited on by mbarriers ----


@dataclass(frozen=True)
class TmaCopy:
    """One box of a tensor map (a kernel Param of role TENSOR_MAP) into
    shared array `shared` from element `offset` (a number, or an expression:
    a ring's tile), the box's first element at `coords` (innermost first)
    of the map's array."""

    map: str
    shared: str
    offset: object
    coords: tuple


@dataclass(frozen=True)
class TmaBarriers:
    """Declares and initialises each buffer's two mbarriers: `full` (the
    copies' bytes complete it) and `empty` (each of `consumers` warp groups
    arrives once done with the buffer); then a barrier."""

    stages: int
    consumers: int

    @property
    def bytes(self) -> int:
        """Its arrays' static shared memory: 8 bytes an mbarrier (a kernel's sum, rounded up to 16: Kernel)."""
        return 8 * self.stages * (2 if self.consumers else 1)


@dataclass(frozen=True)
class TmaIssue:
    """The block's first thread fills buffer `stage` (a number, or an
    expression) with `copies` (`bytes` in all), first waiting for the
    buffer's readers to have freed it where `freed` (the parity of the empty
    mbarrier's phase) is not None."""

    stage: object
    copies: tuple
    bytes: int
    freed: object = None


@dataclass(frozen=True)
class TmaWait:
    """Every thread waits for buffer `stage`'s copies (a number, or an
    expression) of phase `parity` (into the shared arrays `tiles`)."""

    stage: object
    parity: object
    tiles: tuple = ()


@dataclass(frozen=True)
class TmaRelease:
    """One thread of each warp group: the group is done with buffer `stage`."""

    stage: int


@dataclass(frozen=True)
class TmaDone:
    """After a TMA pipeline's loop: every copy it issued was waited for in it
    (each chunk's wait, under the bound its issue had); the verifier's
    account of what it cannot count. `invalidate`: the `full` mbarriers of
    that many buffers invalidated by the issuing thread, every thread being
    past the loop's last barrier (a CUDA-core product's: a block walking the
    grid in a loop initialises them again)."""

    tiles: tuple
    invalidate: int = 0


@dataclass(frozen=True)
class MatrixStore:
    """The warp's fragments `name` stored row-major into shared array
    `buffer` from element `index` (the warp's first row and column), `ld`
    elements a row."""

    name: str
    shape: MatrixShape
    buffer: str
    index: object
    ld: int


Stmt = Decl | ArrayDecl | Assign | Store | VecStore | For | If | Barrier | Comment | AsyncCopy | AsyncCommit | AsyncWait | \
    MatrixZero | MatrixChunk | MatrixStore | MatrixWait | TmaBarriers | TmaIssue | TmaWait | TmaRelease | TmaDone
BODIES = ("body", "then", "else_")  # the fields of a statement that hold statements


quick_constructors(globals())
