"""Variance by dataflow: which parallel dimensions every value depends on.

`variance(kernel) -> Variance`. A map level's parameters vary with its
dimension and with whatever their arrays vary with; indexing unions the
array's and the indices' variance (so `AA[inds[i, k]]` varies with the
dimension of `i` only); `if` adds its condition; a loop or stream adds its
bound or length and is a fixpoint over its carried values. On the way, every
`streamSeq` is recorded with its inputs and the guards on the path to it.

The fixpoint is the kernel's, not each loop's: every pass visits each loop
body once, with its carried values as the passes so far have grown them,
and the passes repeat until nothing grows (then one more records the
streams). A loop solved on its own would visit its body at least twice, so
nested loops would cost 2 ** depth visits of the innermost body.
"""
from __future__ import annotations

from ..check import typed as T
from ..check.types import Binder
from ..errors import CompilerBug
from ..tree import dispatch, methods
from .records import Guard, StreamInput, StreamSite, Variance

NONE = frozenset()


def variance(kernel: T.Kernel) -> Variance:
    a = _Analysis(len(kernel.levels))
    for b in kernel.params + kernel.sizes:
        a.set(b, NONE)
    for pl in kernel.prelude:
        a.set(pl.binder, NONE if isinstance(pl.value, T.Transpose) else a.ev(pl.value))
    for binders, _ in kernel.launch:  # (computed once a launch: it varies with nothing)
        for b in binders:
            a.set(b, NONE)
    for level in kernel.levels:
        args = [a.ev(x) for x in level.args]
        for p, v in zip(level.params, args):
            a.set(p, v | {level.dim})
        for binders, value in level.lets:
            a.bind(binders, a.ev(value))
    kinds = T.node_kinds(kernel)
    a.recording = False
    while kinds & {T.Loop, T.Stream}:  # values only grow, over finitely many dimensions: this ends
        before = (dict(a.table), dict(a.grown))  # (without carried values, the one pass below is the fixpoint)
        a.ev(kernel.body)
        if (a.table, a.grown) == before:
            break
    a.recording = True
    a.ev(kernel.body)
    return Variance(len(kernel.levels), a.table, tuple(a.sites), kinds)


def union(*vs) -> frozenset:
    out = NONE
    for v in vs:
        out = out | (union(*v) if isinstance(v, tuple) else v)
    return out


def _widen(v, extra: frozenset):
    return tuple(_widen(x, extra) for x in v) if isinstance(v, tuple) else v | extra


class _Analysis:
    def __init__(self, rank: int):
        self.rank = rank
        self._dispatch = dispatch(type(self), _METHODS)
        self.table: dict[Binder, frozenset] = {}
        self.sites: list[StreamSite] = []
        self.guards: list[Guard] = []
        self.open_streams: list[int] = []
        self.recording = True
        self.grown: dict[int, list] = {}  # a loop or stream (by id) -> its carried values' variance so far

    def set(self, b: Binder, v) -> None:
        self.table[b] = union(v) if isinstance(v, tuple) else v

    def bind(self, binders, v) -> None:
        parts = v if len(binders) > 1 and isinstance(v, tuple) else (v,) * len(binders)
        for b, part in zip(binders, parts):
            self.set(b, part)

    def ev(self, e):
        return self._dispatch[type(e)](self, e)

    def _lit(self, e):
        return NONE

    def _var(self, e: T.Var):
        return self.table.get(e.binder, NONE)

    def _tuplee(self, e: T.TupleE):
        return tuple(self.ev(i) for i in e.items)

    def _binop(self, e: T.BinOp):
        lhs = self.ev(e.lhs)
        if e.op in ("&&", "||"):  # the right side runs only where the left side allows
            with self.guard("short-circuit", e.lhs.span, lhs):
                return lhs | self.ev(e.rhs)
        return lhs | self.ev(e.rhs)

    def _unop(self, e: T.UnOp):
        return self.ev(e.operand)

    def _builtin(self, e: T.Builtin):
        return union(*(self.ev(a) for a in e.args))

    def _index(self, e: T.Index):
        return union(self.ev(e.array), *(self.ev(i) for i in e.indices))

    def _iota(self, e: T.Iota):
        return self.ev(e.count)

    def _call(self, e: T.Call):  # helpers are inlined before the analysis; be safe anyway
        return union(*(self.ev(a) for a in e.args))

    def _let(self, e: T.Let):
        while isinstance(e, T.Let):
            self.bind(e.binders, self.ev(e.value))
            e = e.body
        return self.ev(e)

    def _if(self, e: T.If):
        cond = self.ev(e.cond)
        with self.guard("branch", e.cond.span, cond):
            then, else_ = self.ev(e.then), self.ev(e.else_)
        return _widen(_join(then, else_), cond)

    def _loop(self, e: T.Loop):
        inits = [self.ev(i) for i in e.inits]
        bound = self.ev(e.bound)
        self.set(e.index, NONE)
        with self.guard("loop bound", e.bound.span, bound):
            carried = self.carried(e, e.params, inits, lambda: self.ev(e.body))
        for b, v in zip(e.results, carried):
            self.set(b, v | bound)
        return self.ev(e.rest)

    def _joinrows(self, e: T.JoinRows):
        raise CompilerBug("rows joined by the transform stage reached the analysis, which comes before it",
                          e.span, "analyse")

    def _stream(self, e: T.Stream):
        arrays = [self.ev(a) for a in e.arrays]
        # a stream's length is a static size unless it streams over iota(count)
        length = union(*(v for a, v in zip(e.arrays, arrays) if _anonymous_length(a)))
        self.set(e.offset, length)
        self.set(e.chunk, length)
        for p, v in zip(e.chunk_params, arrays):
            self.set(p, v)
        inits = [self.ev(i) for i in e.inits]
        index = len(self.sites)
        if self.recording:
            self.sites.append(None)  # this stream's place, in source order
            inputs = tuple(StreamInput(i, a, p, v) for i, (a, p, v) in enumerate(zip(e.arrays, e.chunk_params, arrays)))
            guards = tuple(self.guards)
            enclosing = tuple(self.open_streams)
        self.open_streams.append(index)
        with self.guard("stream length", e.span, length):
            accs = self.carried(e, e.acc_params, inits, lambda: self.ev(e.body))
        self.open_streams.pop()
        if self.recording:
            self.sites[index] = StreamSite(e, inputs, guards, length, enclosing)
        accs = [v | length for v in accs]
        return accs[0] if len(accs) == 1 else tuple(accs)

    def carried(self, node, params, inits, body):
        """Carried values' variance: the start values and what earlier passes
        found the body gives, the body visited once with them (this pass's
        finding kept for the next)."""
        earlier = self.grown.get(T.point(node), [NONE] * len(params))
        current = [union(v) | g for v, g in zip(inits, earlier)]
        for b, v in zip(params, current):
            self.set(b, v)
        out = body()
        out = out if isinstance(out, tuple) and len(params) > 1 else (out,)
        current = [c | union(o) for c, o in zip(current, out)]
        self.grown[T.point(node)] = current
        return current

    def guard(self, kind, span, v):
        return _Guarded(self, Guard(kind, span, v))


class _Guarded:
    def __init__(self, a: _Analysis, g: Guard):
        self.a, self.g = a, g

    def __enter__(self):
        self.a.guards.append(self.g)

    def __exit__(self, *exc):
        self.a.guards.pop()


def _join(a, b):
    if isinstance(a, tuple) and isinstance(b, tuple):
        return tuple(_join(x, y) for x, y in zip(a, b))
    return union(a) | union(b)


def _anonymous_length(array) -> bool:
    shape = getattr(array.type, "shape", ())
    return bool(shape) and isinstance(shape[0], Binder) and shape[0].kind == "anon"


_METHODS = methods(_Analysis, T.Exp)  # each node class's method, checked when the module loads
