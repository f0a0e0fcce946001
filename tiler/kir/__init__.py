"""The kernel IR (stage `lower` gives it, `render` prints it): imperative,
C-level, frozen.

Expressions: `Const`, `Ref` (a local or parameter), `Special` (threadIdx.x,
blockIdx.y), `Bin`, `Un`, `Call`, `Cast`, `Select`, `Load` (global or shared).
Statements: `Decl`, `Assign`, `Store`, `For`, `If`, `Barrier`, `Comment` and
`CoopCopy`, the cooperative guarded copy of a tile into shared memory. Every
index is explicit; a `Kernel` also carries its shared allocations and how to
launch it. Statements may carry a source span, so the CUDA cites its origin.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from ..source import Span


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
class Special:
    name: str  # threadIdx.x, blockIdx.y, ...


@dataclass(frozen=True)
class Bin:
    op: str
    a: object
    b: object


@dataclass(frozen=True)
class Un:
    op: str
    a: object


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


@dataclass(frozen=True)
class Load:
    buffer: str
    index: object
    space: str = "global"  # or "shared"


Expr = Const | Ref | Special | Bin | Un | Call | Cast | Select | Load


# ---- statements --------------------------------------------------------------


@dataclass(frozen=True)
class Decl:
    name: str
    ctype: str
    init: object
    const: bool = False
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
    space: str = "global"
    span: Span | None = _span()


@dataclass(frozen=True)
class For:
    var: str
    start: object
    stop: object
    step: object
    body: tuple
    span: Span | None = _span()


@dataclass(frozen=True)
class If:
    cond: object
    then: tuple
    else_: tuple = ()
    span: Span | None = _span()


@dataclass(frozen=True)
class Barrier:
    why: str = ""


@dataclass(frozen=True)
class Comment:
    text: str


@dataclass(frozen=True)
class CoopCopy:
    """All threads of the block copy a rows x chunk tile of global memory into
    shared memory: thread `tid` takes elements tid, tid + threads, ... of the
    tile, numbered with `fastest` ("chunk" or "rows") varying fastest so that
    consecutive threads read consecutive addresses. `src_index` and `valid`
    are written in terms of `row` and `elem`; an invalid element stores 0
    (`valid` None: every element is in range, as in a full chunk)."""

    shared: str
    ctype: str
    rows: int
    chunk: int
    fastest: str
    threads: int
    tid: object
    row: str
    elem: str
    src: str
    src_index: object
    valid: object
    dst_index: object
    per_thread: int | None = None  # elements each thread copies, when the block divides the tile
    span: Span | None = _span()


Stmt = Decl | Assign | Store | For | If | Barrier | Comment | CoopCopy


# ---- kernels -----------------------------------------------------------------


@dataclass(frozen=True)
class Param:
    name: str
    ctype: str
    role: str  # "input" (array), "output" (array), "scalar", "size"
    source: str = ""  # the .fut name it stands for
    shape: tuple = ()  # size names or numbers, outermost first (arrays)

    @property
    def pointer(self) -> bool:
        return self.role in ("input", "output")


@dataclass(frozen=True)
class SharedAlloc:
    name: str
    ctype: str
    elems: int

    @property
    def bytes(self) -> int:
        from ..render.cuda import SIZEOF
        return SIZEOF[self.ctype] * self.elems


@dataclass(frozen=True)
class Kernel:
    name: str
    params: tuple[Param, ...]
    shared: tuple[SharedAlloc, ...]
    body: tuple
    block: tuple[int, int, int]  # threads along x, y, z
    grid: tuple  # per axis x, y, z: (size name or number, threads along it), or None
    tiled: bool
    source: str
    summary: tuple[str, ...]  # the plan, in words, for the header comment
    span: Span | None = _span()

    @property
    def shared_bytes(self) -> int:
        return sum(s.bytes for s in self.shared)

    @property
    def dynamic_shared(self) -> bool:
        """Over 48 KiB, shared memory must be dynamic (and the launch must raise its limit)."""
        from ..render.cuda import STATIC_SHARED_LIMIT
        return self.shared_bytes > STATIC_SHARED_LIMIT

    def shared_offsets(self) -> list[tuple]:
        """(allocation, byte offset) in the dynamic buffer, each 16-byte aligned."""
        out, offset = [], 0
        for a in self.shared:
            out.append((a, offset))
            offset += (a.bytes + 15) // 16 * 16
        return out

    @property
    def threads(self) -> int:
        return self.block[0] * self.block[1] * self.block[2]


def walk(e):
    """Every node of a kernel-IR tree (expressions and statements), `e` first."""
    if e is None:
        return
    stack = [e]
    while stack:
        node = stack.pop()
        yield node
        if dataclasses.is_dataclass(node):
            for f in dataclasses.fields(node):
                v = getattr(node, f.name)
                if dataclasses.is_dataclass(v):
                    stack.append(v)
                elif isinstance(v, tuple):
                    stack.extend(x for x in v if dataclasses.is_dataclass(x))
