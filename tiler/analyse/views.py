"""Where a streamed array lives in global memory, and how its chunks are read.

`Views(kernel).unit_stride(array)` follows an array expression back to a
parameter of `main` (through lets, rows picked by indices, map parameters,
outer chunks and prelude transposes) and says which index of the stream is
unit-stride there, as a `UnitStride`: the chunk index (`Stride.CHUNK`), the
index within each element of a stream of rows (`Stride.ROW`), the index of
parallel dimension d (`Stride.DIM`, `dim` d), or neither (`Stride.STRIDED`);
None when the array is computed (an `if`, an `iota`). `chunk_reads(stream, param)` lists the
indices the body reads a chunk's elements with, or None when the chunk is
used whole.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from ..check import typed as T
from ..check.types import Binder
from .records import Variance
from .variance import union


class Stride(Enum):
    """Which index of a streamed array is unit-stride in global memory."""

    CHUNK = "the chunk's index"  # consecutive elements of the stream lie next to each other
    ROW = "a row's index"  # a stream of rows, each row's elements unit-stride (and rows one after another)
    DIM = "a kernel dimension's index"  # `UnitStride.dim` says which
    STRIDED = "no index the kernel walks"


@dataclass(frozen=True)
class UnitStride:
    along: Stride
    dim: int | None = None  # Stride.DIM: the kernel dimension
    # Stride.DIM: neighbouring points read neighbouring elements (the dim's own index plus what is alike
    # along it); else each point its own element at an index computed from its own (`4 * i`, a gathered id),
    # which a copy along the points computes, but never moves as one vector of neighbours
    adjacent: bool = True


class Views:
    def __init__(self, kernel: T.Kernel, var: Variance, swapped: frozenset = frozenset()):
        self.var = var
        self.kernel = kernel
        # main's arrays the launch transposes (their last two axes) for the kernel's tiles: it reads that copy
        # (analyse/operand_transposes.py)
        self.swapped = swapped
        self.inputs = frozenset(kernel.params)  # main's parameters: in memory, readable by any thread
        self.defs: dict[Binder, tuple] = {}  # binder -> how it is defined
        for pl in kernel.prelude:
            if isinstance(pl.value, T.Transpose):
                self.defs[pl.binder] = ("transpose", pl.value.source, pl.value.axis)
        for level in kernel.levels:
            for p, a in zip(level.params, level.args):
                self.defs[p] = ("row", a, level.dim)
            for bs, v in level.lets:  # (scalars between the maps: `let r = wrap(h, v)`, a gathered row's index)
                if len(bs) == 1:
                    self.defs[bs[0]] = ("let", v)
        if var.may_hold(T.Let, T.Stream):  # (the definitions it collects)
            _collect(kernel.body, self.defs)

    def items(self, e):
        """(root parameter, one item per root dimension) for an array expression.

        An item is ("free", j): the array's own j-th index; ("dim", d): the
        index of parallel dimension d; ("gather", variance, adjacent): an
        index any thread can compute for another point (an input read at the
        dim's index, through arithmetic: `computable`); ("exp", variance,
        adjacent): another computed index. `adjacent`: the dim's own index
        plus what is alike along it (`i + x`): neighbouring points read
        neighbouring elements."""
        if isinstance(e, T.Var):
            d = self.defs.get(e.binder)
            if d is None:
                rank = getattr(e.type, "rank", 0)
                items = tuple(("free", j) for j in range(rank))
                return e.binder, tuple(_swap(i, rank - 2) for i in items) if e.binder in self.swapped else items
            if d[0] == "transpose":
                root, items = self.items(T.Var(d[1], d[1].type))
                return root, tuple(_swap(i, d[2]) for i in items)
            if d[0] == "let":
                return self.items(d[1])
            if d[0] == "row":
                found = self.items(d[1])
                return found and (found[0], _fix(found[1], [("dim", d[2])]))
            if d[0] == "chunk":  # a chunk of an outer stream: same layout as its array
                return self.items(d[1])
            return None
        if isinstance(e, T.Index):
            found = self.items(e.array)
            if not found:
                return None
            return found[0], _fix(found[1], [self._index_item(i) for i in e.indices])
        return None

    def _index_item(self, e):
        """An index that is a map's `iota` element is that dimension's index;
        one read from an input at that index (`idx[i]`, or a map's element of
        `idx`) is gathered along it: any thread can read what another thread's
        index is; any other is computed."""
        if isinstance(e, T.Var):
            d = self.defs.get(e.binder)
            if d is not None and d[0] == "row" and isinstance(d[1], T.Iota):
                return ("dim", d[2])
        variance = self.exp_variance(e)
        # (adjacent: the dim's own index plus what is alike along it, so that neighbouring points read
        # neighbouring elements: only then is the index unit-stride along the dim)
        adjacent = len(variance) == 1 and self.own_index(e, next(iter(variance)))
        if len(variance) == 1 and self.computable(e):
            return ("gather", variance, adjacent)
        return ("exp", variance, adjacent)

    def transposing(self, array: Binder) -> "Views":
        """The same views with `array` read from the launch's transposed copy."""
        return Views(self.kernel, self.var, self.swapped | {array})

    def computable(self, e, local: frozenset = frozenset()) -> bool:
        """Can any thread compute `e` as another point along its dimension
        sees it? Where it is built from the dims' own indices, main's scalars
        and sizes, literals, and elements of main's arrays read at such
        indices (`idx[i]`, a map's element of `idx`), by arithmetic, builtins
        (a clamp by `min`/`max`, a wrap by `%`) and lets of the same: the copy
        then computes the row's index for each of the block's points (the
        lowering writes those definitions out: lower.streams._expanded).
        `local`: names bound by lets inside the expression."""
        if isinstance(e, T.Lit):
            return True
        if isinstance(e, T.Var):
            return self._computable_name(e.binder, local)
        if isinstance(e, T.Index):
            return isinstance(e.array, T.Var) and e.array.binder in self.inputs \
                and len(e.indices) == getattr(e.array.type, "rank", -1) \
                and all(self.computable(i, local) for i in e.indices)
        if isinstance(e, T.BinOp):
            return self.computable(e.lhs, local) and self.computable(e.rhs, local)
        if isinstance(e, T.UnOp):
            return self.computable(e.operand, local)
        if isinstance(e, T.Builtin):
            return all(self.computable(a, local) for a in e.args)
        if isinstance(e, T.Let):
            return self.computable(e.value, local) and self.computable(e.body, local | set(e.binders))
        return False  # (an `if`, a loop, a stream: not written out as one value)

    def _computable_name(self, b: Binder, local: frozenset) -> bool:
        if b in local or b.kind == "size" or (b in self.inputs and getattr(b.type, "rank", 0) == 0):
            return True
        d = self.defs.get(b)
        if d is None:
            return False
        if d[0] == "row":  # a map's element: of an iota (the dim's index) or of an input vector
            return isinstance(d[1], T.Iota) or self._input_vector(d[1])
        return d[0] == "let" and self.computable(d[1], local)

    def _input_vector(self, e) -> bool:
        return isinstance(e, T.Var) and e.binder in self.inputs and getattr(e.type, "rank", 0) == 1

    def unit_stride(self, array) -> UnitStride | None:
        """Which index of a streamed array is unit-stride in global memory
        (None: the array's layout is unknown)."""
        found = self.items(array)
        if not found or not found[1]:
            return None
        last = found[1][-1]
        if last == ("free", 0):
            return UnitStride(Stride.CHUNK)
        if last == ("free", 1) and len(found[1]) > 1 and found[1][-2] == ("free", 0):
            return UnitStride(Stride.ROW)
        if last[0] == "dim":
            return UnitStride(Stride.DIM, last[1])
        if last[0] in ("exp", "gather") and len(last[1]) == 1:
            return UnitStride(Stride.DIM, next(iter(last[1])), last[2])
        return UnitStride(Stride.STRIDED)

    def rows_computable(self, array, rows) -> bool:
        """Can a thread compute this array as another thread along `rows` sees
        it? Only when it depends on those dims through their map index alone,
        or through an input read at that index (`A[idx[i]]`)."""
        found = self.items(array)
        if not found:
            return False
        for it in found[1]:
            if it[0] == "exp" and it[1] & set(rows):
                return False
        return True

    def own_index(self, e, dim: int) -> bool:
        """`i`, `i + x`, `x + i` or `i - x` (through lets), with `i` the index
        of parallel dimension `dim` and `x` the same for every point along
        it: points along `dim` read distinct elements there."""
        if isinstance(e, T.Var):
            d = self.defs.get(e.binder)
            if d is not None and d[0] == "let":
                return self.own_index(d[1], dim)
            return d is not None and d[0] == "row" and isinstance(d[1], T.Iota) and d[2] == dim
        if isinstance(e, T.BinOp) and e.op in ("+", "-"):
            if self.own_index(e.lhs, dim) and dim not in self.exp_variance(e.rhs):
                return True
            return e.op == "+" and self.own_index(e.rhs, dim) and dim not in self.exp_variance(e.lhs)
        return False

    def exp_variance(self, e) -> frozenset:
        if isinstance(e, T.Var):
            return self.var.of(e.binder)
        kids = [c for c in _children(e)]
        return union(*(self.exp_variance(c) for c in kids)) if kids else frozenset()


def chunk_reads(stream: T.Stream, param: Binder):
    """The index tuples of the body's element reads of a chunk (`param[e]`;
    `param[j, f]` or `param[j][f]` for a chunk of rows), or None when the
    chunk is also used whole (passed on, a row of it taken)."""
    return element_reads(stream.body, param)


def element_reads(body, param: Binder):
    """The index tuples of `body`'s element reads of the array `param`, or
    None when it is also used whole."""
    return _reads_of_every_array(body).get(param, [])


# the planner asks for every input's reads of one body: one walk a body serves them all (a body is kept with
# its entry, so an id is never taken for another's; the last few bodies only, for long-running callers)
_WALKED: dict[int, tuple[object, dict]] = {}
_WALKED_KEPT = 64


def _reads_of_every_array(body) -> dict:
    """For each array `body` indexes or uses: the index tuples of its element
    reads (a full index each: `a[j, f]`, `a[j][f]`), or None where it is also
    used whole (passed on, a row of it taken)."""
    kept = _WALKED.get(id(body))
    if kept is not None and kept[0] is body:
        return kept[1]
    reads: dict[Binder, list | None] = {}
    used: dict[int, bool] = {}  # a let's binders: whether its body mentions them (one walk a let)

    def whole(b: Binder, _indices=()) -> None:
        reads[b] = None

    def read(b: Binder, indices) -> None:
        if reads.get(b, []) is not None:
            reads.setdefault(b, []).append(indices)

    def walk(e):
        root, indices = index_chain(e)
        if root is not None:
            (read if len(indices) == root.type.rank else whole)(root, indices)
            for i in indices:
                walk(i)
            return
        if isinstance(e, T.Var):  # (a scalar too: only arrays are asked for)
            whole(e.binder)
            return
        if isinstance(e, T.Let) and not _any_mentioned(e, used):
            walk(e.body)  # a let whose value is never used: its reads load nothing
            return
        for c in _children(e):
            walk(c)

    walk(body)
    if len(_WALKED) >= _WALKED_KEPT:
        _WALKED.pop(next(iter(_WALKED)))
    _WALKED[id(body)] = (body, reads)
    return reads


def index_chain(e) -> tuple[Binder | None, tuple]:
    """`a[i][j]` as (a, (i, j)); (None, ()) where `e` is not an index of a named array."""
    indices = ()
    while isinstance(e, T.Index):
        indices = e.indices + indices
        e = e.array
        if isinstance(e, T.Var):
            return e.binder, indices
    return None, ()


def _any_mentioned(let: T.Let, used: dict) -> bool:
    if id(let) not in used:
        used[id(let)] = any(mentions(let.body, b) for b in let.binders)
    return used[id(let)]


def element_read(e, param: Binder) -> tuple | None:
    """The indices of `param[...]` (`param[j][f]` as `param[j, f]`), or None
    when `e` does not index `param`."""
    if not isinstance(e, T.Index):
        return None
    if isinstance(e.array, T.Var) and e.array.binder is param:
        return e.indices
    inner = element_read(e.array, param)
    return None if inner is None else inner + e.indices


def mentions(e, binder: Binder) -> bool:
    """Whether `e` uses `binder` anywhere."""
    if isinstance(e, T.Var):
        return e.binder is binder
    return any(mentions(c, binder) for c in _children(e))


def _fix(items, fixed):
    """Substitute the first len(fixed) free indices; renumber the rest."""
    k = len(fixed)
    out = []
    for it in items:
        if it[0] == "free":
            out.append(fixed[it[1]] if it[1] < k else ("free", it[1] - k))
        else:
            out.append(it)
    return tuple(out)


def _swap(it, axis: int):
    """An item of a transpose's root: its free indices `axis` and `axis + 1` exchanged."""
    if it[0] == "free" and it[1] in (axis, axis + 1):
        return ("free", 2 * axis + 1 - it[1])
    return it


def _children(e):
    for name in getattr(e, "__dataclass_fields__", {}):
        value = getattr(e, name)
        if isinstance(value, tuple):
            yield from (v for v in value if hasattr(v, "__dataclass_fields__") and not isinstance(v, Binder))
        elif hasattr(value, "__dataclass_fields__") and not isinstance(value, Binder) and hasattr(value, "type"):
            yield value


def _collect(e, defs) -> None:
    """Definitions of let-bound names and chunk parameters in a body."""
    stack = [e]
    while stack:
        e = stack.pop()
        if isinstance(e, T.Let) and len(e.binders) == 1:
            defs[e.binders[0]] = ("let", e.value)
        if isinstance(e, T.Stream):
            for p, a in zip(e.chunk_params, e.arrays):
                defs[p] = ("chunk", a)
        stack.extend(_children(e))
