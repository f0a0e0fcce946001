"""The checked program (stage `check`): typed expressions and the kernel.

Every expression carries its `type` and `span`; every name is resolved to
the `Binder` it refers to. `zip` is gone (its arrays are spread into the
argument lists), `loop (acc)` has its start value made explicit, and `main`
is split into a host prelude and a `Kernel`: a perfect nest of `MapLevel`s
around a sequential body.
"""
from __future__ import annotations

import weakref
from dataclasses import dataclass, field

from ..source import NO_SPAN, Span
from ..tree import children, quick_constructors
from .types import Array, Binder, Type


def _span():
    return field(default=NO_SPAN, repr=False, compare=False)


@dataclass(frozen=True)
class Lit:
    value: object  # int, float or bool
    type: Type
    span: Span = _span()


@dataclass(frozen=True)
class Var:
    binder: Binder
    type: Type
    span: Span = _span()


@dataclass(frozen=True)
class TupleE:
    items: tuple
    type: Type
    span: Span = _span()


@dataclass(frozen=True)
class BinOp:
    op: str
    lhs: object
    rhs: object
    type: Type
    span: Span = _span()


@dataclass(frozen=True)
class UnOp:
    op: str
    operand: object
    type: Type
    span: Span = _span()


@dataclass(frozen=True)
class Index:
    array: object
    indices: tuple
    type: Type
    span: Span = _span()


@dataclass(frozen=True)
class Builtin:
    """A math builtin (`sqrt`, `min`, ...) or a conversion (`f32`, `i64`, ...)."""

    name: str
    args: tuple
    type: Type
    span: Span = _span()


@dataclass(frozen=True)
class Call:
    """A call of a helper function; `sizes` instantiates the helper's sizes."""

    func: str
    args: tuple
    type: Type
    span: Span = _span()


@dataclass(frozen=True)
class Let:
    binders: tuple[Binder, ...]
    value: object
    body: object
    type: Type
    span: Span = _span()


@dataclass(frozen=True)
class If:
    cond: object
    then: object
    else_: object
    type: Type
    span: Span = _span()


@dataclass(frozen=True)
class Loop:
    """`loop (params = inits) = for index < bound do body in rest`.

    `results` are the names bound to the final values in `rest`."""

    params: tuple[Binder, ...]
    inits: tuple
    index: Binder
    bound: object
    body: object
    results: tuple[Binder, ...]
    rest: object
    type: Type
    span: Span = _span()
    point: int = field(default=0, repr=False, compare=False)  # its program point (kernel.points), 0: not numbered


@dataclass(frozen=True)
class Iota:
    count: object
    type: Type
    span: Span = _span()


@dataclass(frozen=True)
class Combine:
    """A streamRed's combine, `fn (A1, ..., Am) (A1 a1, ..., Am am, A1 b1,
    ..., Am bm) => body`: two partial results of its fold merged into one.
    It reads only its parameters (the checker makes sure)."""

    params: tuple[Binder, ...]  # the first partial result's accumulators, then the second's
    body: object
    span: Span = _span()


@dataclass(frozen=True)
class Stream:
    """streamSeq: fold `body` over chunks [offset, offset + chunk) of `arrays`;
    a streamRed has a `combine` too (its fold may restart from the initial
    values at any chunk, and the partial results be merged in any order)."""

    offset: Binder
    chunk: Binder  # the chunk size, an int in the body
    chunk_params: tuple[Binder, ...]
    acc_params: tuple[Binder, ...]
    arrays: tuple
    inits: tuple
    body: object
    type: Type
    span: Span = _span()
    origin: object = field(default=None, repr=False, compare=False)  # the syntax node it was checked from
    point: int = field(default=0, repr=False, compare=False)  # its program point (kernel.points), 0: not numbered

    @property
    def length(self):
        """How many elements it folds: its arrays' outer size (a number, or a size's Binder)."""
        return self.arrays[0].type.shape[0]
    loop: bool = False  # written as a `loop` over its positions (kernel.loops), not as a streamSeq
    combine: object = None  # a streamRed's Combine (not an expression: passes over the body leave it alone)


@dataclass(frozen=True)
class JoinRows:
    """The rows a loop picks, laid end to end: for each `index` < `count`,
    the array `row` (the lets that pick it, then the row) as that iteration
    computes it. Only a stream's input, written by the join-rows rewrite
    (transform/join_rows.py) after analysis; `type` is one row's, and the
    stream over it folds `count` times a row's length of elements."""

    index: Binder
    count: object
    row: object
    type: Type
    span: Span = _span()


def point(node) -> int:
    """A stream's or a loop's program point: the name records of later
    stages give it (a schedule's stream plans, the reductions, the joins),
    numbered when the kernel is built (kernel/points.py)."""
    if not node.point:
        from ..errors import CompilerBug

        raise CompilerBug(f"a {type(node).__name__.lower()} has no program point: its kernel was not built by "
                          "stage `kernel`", node.span)
    return node.point


Exp = Lit | Var | TupleE | BinOp | UnOp | Index | Builtin | Call | Let | If | Loop | Iota | Stream | JoinRows


@dataclass(frozen=True)
class Transpose:
    """A prelude transpose: an index permutation of `source`, never a copy:
    its axes `axis` and `axis + 1` swapped (the language's `transpose`, 0;
    the kernel stage reads a column of a batch of matrices through 1)."""

    source: Binder
    type: Type
    span: Span = _span()
    axis: int = 0


@dataclass(frozen=True)
class PreludeLet:
    binder: Binder
    value: Exp | Transpose


@dataclass(frozen=True)
class MapLevel:
    """One parallel dimension: `map(fn (params) => lets; inner, args)`."""

    dim: int
    size: object  # a Size
    params: tuple[Binder, ...]
    args: tuple
    lets: tuple[tuple[tuple[Binder, ...], Exp], ...]
    span: Span = _span()


@dataclass(frozen=True)
class Kernel:
    params: tuple[Binder, ...]  # main's parameters
    sizes: tuple[Binder, ...]  # the sizes they bind
    prelude: tuple[PreludeLet, ...]
    levels: tuple[MapLevel, ...]
    body: Exp
    outputs: tuple[Type, ...]  # one scalar type per output array
    span: Span = _span()
    promoted: tuple = ()  # the index reads stage `kernel` made stream inputs, or left (kernel.promote.Promotion)
    unused: tuple = ()  # where the streams stage `kernel` removed were written: nothing reads their values
    hoisted: tuple = ()  # the work stage `kernel` moved to the map level where it varies (kernel.hoist.Hoist)
    counted: tuple = ()  # loops whose index's count stage `kernel` carried (kernel.counts.Counted)
    speculated: tuple = ()  # streams stage `kernel` computes at every point, before their `if` (kernel.speculate)
    # where it moved any: the kernel with its work where written, which analyse plans where no row is split
    written: Kernel | None = field(default=None, repr=False, compare=False)
    streamable: tuple = ()  # loops that read arrays at their index: streams (listed only under --keep-loops), or why not
    output_names: tuple = ()  # names of the output arrays in the kernel's parameters (default out0, out1, ...)
    # work of no map level's names, computed once a launch (kernel.hoist): ((binders, value), ...), bound before
    # the levels; `launched` is the kernel that computes it (one point), whose outputs the launch passes on
    launch: tuple = ()
    launched: Kernel | None = field(default=None, repr=False, compare=False)
    # where stage `kernel` speculated a stream: the kernel without that, whose untiled kernel is the launch's fallback
    unspeculated: Kernel | None = field(default=None, repr=False, compare=False)

    @property
    def scalar_params(self) -> tuple[Binder, ...]:
        """main's scalar parameters that are inputs, not sizes."""
        return tuple(p for p in self.params if not isinstance(p.type, Array) and p.kind != "size")

    @property
    def roots(self) -> tuple:
        """Its expressions: the body, and every level's arguments and lets' values."""
        return (self.body, *(a for lv in self.levels for a in lv.args), *(v for lv in self.levels for _, v in lv.lets))


@dataclass(frozen=True)
class Helper:
    name: str
    params: tuple[Binder, ...]
    sizes: tuple[tuple[Binder, int, int], ...]  # (size, parameter index, dimension)
    ret: Type
    body: Exp
    span: Span = _span()


@dataclass(frozen=True)
class Program:
    file: str
    kernel: Kernel
    helpers: dict = field(compare=False)  # name -> Helper
    main: str = "main"


EXPRESSIONS = (Lit, Var, TupleE, BinOp, UnOp, Index, Builtin, Call, Let, If, Loop, Iota, Stream, JoinRows)


def is_exp(value) -> bool:
    """Whether a field's value is an expression (a child to walk), not a
    binder, a type or a name."""
    return type(value) in EXPRESSIONS


def guarded_children(e):
    """`e`'s child expressions, each with the test it runs under in `e`
    (None: it runs wherever `e` does): an `if`'s branches run under its
    condition, the right side of `&&` or `||` under the left side."""
    for c in children(e, is_exp):
        if isinstance(e, If) and c is not e.cond:
            yield c, e.cond
        elif isinstance(e, BinOp) and e.op in ("&&", "||") and c is e.rhs:
            yield c, e.lhs
        else:
            yield c, None


def with_combines(nodes):
    """`nodes`, and after each streamRed the nodes of its combine's body (not
    a child of the stream: only the passes that look for it walk it)."""
    from ..tree import descendants

    for n in nodes:
        yield n
        if type(n) is Stream and n.combine is not None:
            yield from with_combines(descendants(n.combine.body, is_exp))


# id -> (a weak reference to the kernel, so that its id is known to be its own; its kinds). Weak: a
# kernel kept alive here would outlive the command, and the collection at exit would walk it (1.5 s).
_KINDS: dict[int, tuple] = {}


def node_kinds(k: Kernel) -> frozenset[type]:
    """The classes of the expressions in a kernel's body and levels, from
    one walk: a pass whose subject is not among them has nothing to do.
    Remembered for the last few kernels asked (stage `kernel` and the
    analysis ask of the same one)."""
    from ..tree import descendants

    known = _KINDS.get(id(k))
    if known is not None and known[0]() is k:
        return known[1]
    kinds = frozenset(type(n) for r in k.roots for n in with_combines(descendants(r, is_exp)))
    if len(_KINDS) >= 4:
        _KINDS.clear()
    _KINDS[id(k)] = (weakref.ref(k), kinds)
    return kinds


quick_constructors(globals())
