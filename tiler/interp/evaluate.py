"""Evaluation of typed expressions over all lanes of the map nest at once.

`Evaluator.ev(e)` returns a value (see values.py) or a tuple of values. The
lanes that are live are `self.mask` (None: all); a branch, a short-circuit
operand or a loop iteration narrows it, so an index that only dead lanes
compute is never reported, just as no thread would compute it.
"""
from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..check import typed as T
from ..check.types import F32, Binder
from ..tree import dispatch, methods
from .values import Chunking, NonUniform, RunError, dtype, narrowed

F32_ROUNDING = 2.0**-24  # float32's unit roundoff: half an ulp, relative
PROGRESS_LEVELS = 2  # how deep in loops and streams an iteration reports progress (deeper ones only add calls)


class Evaluator:
    def __init__(self, rank: int, helpers: dict, chunking: Chunking, seed: int = 0, wide: bool = False,
                 fused: bool = False, jitter: bool = False):
        self._dispatch = dispatch(type(self), _METHODS)
        self.wide = wide  # compute f32 in float64: an independent, more precise reference
        self.fused = fused  # f32 `a * b + c` rounded once, as a GPU's fused multiply-add does
        # with `wide`: every f32 result float32 would round moved by a share of float32's rounding (up to
        # F32_ROUNDING of it), hashed from the value and the seed (`_rounded`), so that two runs differ as
        # much as float32's rounding can make an element differ (a `sin` of a sum of 1e8: seed 725898)
        self.jitter = jitter
        self.seed = seed
        self.B = rank
        self.helpers = helpers
        self.chunking = chunking
        self.rng = np.random.default_rng(seed)
        self.env: dict[Binder, object] = {}
        self.mask = None  # bool array over the batch axes, or None for all lanes
        # called with (the fraction done, where) at each iteration of the outer PROGRESS_LEVELS loops, streams
        # and map points (tiler run's progress on long runs): the fraction of the outermost one's iterations,
        # an inner one's counting within one of those; None: no one asked
        self.progress: Callable[[float, str], None] | None = None
        self._levels: list[list] = []  # [iterations done, iterations, where] of each loop or stream we are in

    # ---- helpers -----------------------------------------------------------

    def scalar(self, value, t) -> np.ndarray:
        return np.full((1,) * self.B, value, dtype=dtype(t, self.wide))

    def _live(self, values: np.ndarray) -> np.ndarray:
        """The entries of a batch-shaped array on live lanes."""
        if self.mask is None:
            return values.reshape(-1)
        full = np.broadcast_arrays(values, self.mask)
        return full[0][full[1]]

    def uniform(self, values: np.ndarray):
        """The one value all live lanes share, or None."""
        if values.size == 1:
            return values.reshape(-1)[0]
        live = self._live(values)
        if live.size == 0:
            return None
        return live[0] if np.all(live == live[0]) else None

    def fail(self, span, message: str, bad: np.ndarray, hint: str = ""):
        """Report a fault of the program, naming the first faulty thread."""
        where = np.argwhere(bad)
        if where.size and bad.ndim == self.B:
            lane = ", ".join(f"dim {d} = {i}" for d, i in enumerate(where[0]) if bad.shape[d] > 1)
            if lane:
                message += f" (in the thread at {lane})"
        raise RunError(span, message, hint)

    def _bad(self, cond: np.ndarray) -> np.ndarray:
        return cond if self.mask is None else cond & self.mask

    # ---- expressions ----------------------------------------------------------

    def ev(self, e):
        return self._dispatch[type(e)](self, e)

    def _lit(self, e: T.Lit):
        return self.scalar(e.value, e.type)

    def _var(self, e: T.Var):
        return self.env[e.binder]

    def _tuplee(self, e: T.TupleE):
        return tuple(self.ev(i) for i in e.items)

    def _binop(self, e: T.BinOp):
        if e.op in ("&&", "||"):
            return self._logic(e)
        if e.lhs.type.is_narrow:
            return self._narrow_binop(e)
        if self.fused and e.op in ("+", "-"):
            for product, first in ((e.lhs, True), (e.rhs, False)):
                if isinstance(product, T.BinOp) and product.op == "*":
                    return self._fused(e, product, first)
        a, b = self.ev(e.lhs), self.ev(e.rhs)
        op = e.op
        if op in ("/", "%") and a.dtype.kind in "iu":
            return self._int_division(e, a, b)
        if op == "%":
            return self._rounded(np.fmod(a, b), e.type, (a, b))
        return self._rounded(_ARITH[op](a, b), e.type, (a, b))

    def _narrow_binop(self, e: T.BinOp):
        """An f16 or bf16 operation: computed in float32 and, where it
        gives a number, rounded back (exact for + - * / and %: float32's
        24 bits are more than twice the 11 and 8 of the 16-bit formats,
        plus 2, so rounding twice is rounding once)."""
        a, b = (self.ev(x).astype(np.float32) for x in (e.lhs, e.rhs))
        value = np.fmod(a, b) if e.op == "%" else _ARITH[e.op](a, b)
        return narrowed(e.type.kind, value) if e.type.is_narrow else value

    def _rounded(self, value: np.ndarray, t, operands: tuple = ()):
        """`value` as `jitter` rounds an f32 result (else as it is): one that
        float32 holds exactly (a small integer converted), or that is one of
        the operation's `operands` or its negation (max, abs, a + 0, 0 - a:
        exact in float32 too), stays; any other moves by a share of float32's
        rounding drawn from the value itself and the seed, so that equal
        values stay equal (float32 is deterministic: a value computed twice,
        or a tie an argmax compares, keeps its ties)."""
        if not self.jitter or t != F32:
            return value
        value = np.asarray(value, np.float64)
        moved = value.astype(np.float32).astype(np.float64) != value
        for x in operands:
            x = np.asarray(x, np.float64)
            moved = moved & (value != x) & (value != -x)
        return value * (1.0 + moved * F32_ROUNDING * _share(value, self.seed))

    def _fused(self, e: T.BinOp, product: T.BinOp, first: bool):
        """`a * b ± c` (or `c ± a * b`) rounded to f32 once where the values
        are f32, as nvcc's fused multiply-adds are (the exact product plus c
        in f64, then f32: a true fma but for a rare double rounding); a
        second opinion on how much an element depends on rounding."""
        a, b = self.ev(product.lhs), self.ev(product.rhs)
        c = self.ev(e.rhs if first else e.lhs)
        if not a.dtype == b.dtype == c.dtype == np.float32:
            ab = _ARITH["*"](a, b)
            return _ARITH[e.op](ab, c) if first else _ARITH[e.op](c, ab)
        ab = a.astype(np.float64) * b.astype(np.float64)  # exact: two 24-bit mantissas fit in 53 bits
        c64 = c.astype(np.float64)
        return (ab + c64 if e.op == "+" else ab - c64 if first else c64 - ab).astype(np.float32)

    def _int_division(self, e: T.BinOp, a, b):
        zero = b == 0
        if np.any(self._bad(zero)):
            self.fail(e.span, "division by zero", self._bad(zero))
        b = np.where(zero, 1, b).astype(a.dtype)
        r = np.fmod(a, b)  # C semantics: the quotient rounds toward zero
        if e.op == "%":
            return r
        return ((a - r) // b).astype(a.dtype)

    def _logic(self, e: T.BinOp):
        a = self.ev(e.lhs)
        decided = ~a if e.op == "&&" else a  # lanes whose answer the left side gives
        same = self.uniform(decided)
        if same is not None and bool(same):
            return a
        saved = self.mask
        self.mask = ~decided if saved is None else saved & ~decided
        try:
            b = self.ev(e.rhs)
        finally:
            self.mask = saved
        return np.where(decided, a, b)

    def _unop(self, e: T.UnOp):
        x = self.ev(e.operand)
        return np.logical_not(x) if e.op == "!" else np.negative(x)

    def _index(self, e: T.Index):
        arr = self.ev(e.array)
        idx = [self.ev(i) for i in e.indices]
        B = self.B
        for d, (ix, node) in enumerate(zip(idx, e.indices)):
            n = arr.shape[B + d]
            bad = self._bad((ix < 0) | (ix >= n))
            if np.any(bad):
                value = int(np.broadcast_to(ix, bad.shape)[bad][0])
                self.fail(node.span, f"index {value} is out of range for a dimension of size {n}", bad)
        if all(i.size == 1 for i in idx):
            return arr[(slice(None),) * B + tuple(int(i.reshape(-1)[0]) for i in idx)]
        idx = [np.clip(i, 0, arr.shape[B + d] - 1) for d, i in enumerate(idx)]
        batch = []
        for a in range(B):
            if arr.shape[a] == 1:
                batch.append(np.zeros((1,) * B, dtype=np.intp))
            else:
                batch.append(np.arange(arr.shape[a]).reshape([-1 if x == a else 1 for x in range(B)]))
        return arr[tuple(batch + idx)]

    def _builtin(self, e: T.Builtin):
        args = [self.ev(a) for a in e.args]
        if e.name in ("f16", "bf16"):
            return narrowed(e.name, args[0])
        if e.name in ("i32", "i64") and args[0].dtype.kind == "f":
            return truncated(args[0], dtype(e.type, self.wide), e.args[0].type.kind == "f64")
        if e.name in ("f32", "f64", "i32", "i64"):
            return self._rounded(args[0].astype(dtype(e.type, self.wide)), e.type)
        if e.type.is_narrow:  # as an operator: in float32, rounded back
            return narrowed(e.type.kind, _MATH[e.name](*(a.astype(np.float32) for a in args)))
        return self._rounded(_MATH[e.name](*args).astype(dtype(e.type, self.wide), copy=False), e.type, args)

    def _call(self, e: T.Call):
        h: T.Helper = self.helpers[e.func]
        args = [self.ev(a) for a in e.args]
        for size, param, dim in h.sizes:
            self.env[size] = self.scalar(args[param].shape[self.B + dim], size.type)
        for p, a in zip(h.params, args):
            self.env[p] = a
        return self.ev(h.body)

    def _let(self, e: T.Let):
        while isinstance(e, T.Let):  # chains of lets without recursion
            value = self.ev(e.value)
            self.bind(e.binders, value)
            e = e.body
        return self.ev(e)

    def bind(self, binders, value) -> None:
        """Bind a let pattern: one name, or several to a tuple's parts."""
        self.bind_each(binders, (value,) if len(binders) == 1 else value)

    def bind_each(self, binders, values) -> None:
        for b, v in zip(binders, values):
            self.env[b] = v

    def _if(self, e: T.If):
        c = self.ev(e.cond)
        same = self.uniform(c)
        if same is not None:
            return self.ev(e.then if same else e.else_)
        saved = self.mask
        try:
            self.mask = c if saved is None else saved & c
            t = self.ev(e.then)
            self.mask = ~c if saved is None else saved & ~c
            f = self.ev(e.else_)
        finally:
            self.mask = saved
        return _select(c, t, f, self.B)

    # ---- progress: the fraction done, from the iterations of the loops we are in ---------

    def enter(self, total: int, where: str) -> list:
        level = [0, max(total, 1), where]
        self._levels.append(level)
        return level

    def step(self, level: list) -> None:
        level[0] += 1
        if self.progress is not None and len(self._levels) <= PROGRESS_LEVELS:
            done, share = 0.0, 1.0
            for finished, total, _ in self._levels:
                done += share * finished / total
                share /= total
            self.progress(done, self._levels[0][2])

    def leave(self) -> None:
        self._levels.pop()

    def _loop(self, e: T.Loop):
        values = tuple(self.ev(i) for i in e.inits)
        bound = self.ev(e.bound)
        count = self.uniform(bound)
        if count is not None:
            level = self.enter(int(count), f"the loop at {e.span.short}")
            try:
                for k in range(int(count)):
                    values = self._iterate(e, values, k)
                    self.step(level)
            finally:
                self.leave()
        else:
            values = self._masked_loop(e, values, bound)
        self.bind_each(e.results, values)
        return self.ev(e.rest)

    def _iterate(self, e: T.Loop, values, k: int):
        self.env[e.index] = self.scalar(k, e.index.type)
        self.bind_each(e.params, values)
        out = self.ev(e.body)
        return out if isinstance(out, tuple) else (out,)

    def _masked_loop(self, e: T.Loop, values, bound):
        live = self._live(bound)
        saved = self.mask
        count = int(live.max()) if live.size else 0
        level = self.enter(count, f"the loop at {e.span.short}")
        try:
            for k in range(count):
                going = bound > k
                self.mask = going if saved is None else saved & going
                new = self._iterate(e, values, k)
                values = tuple(np.where(going, n, v) for n, v in zip(new, values))
                self.step(level)
        finally:
            self.mask = saved
            self.leave()
        return values

    def _iota(self, e: T.Iota):
        count = self.ev(e.count)
        n = self.uniform(count)
        if n is None:
            raise NonUniform(e.span)
        if n < 0:
            self.fail(e.span, f"iota of a negative count ({int(n)})", self._bad(count < 0))
        return np.arange(int(n), dtype=dtype(e.type, self.wide)).reshape((1,) * self.B + (int(n),))

    def _joinrows(self, e: T.JoinRows):  # (a stream's inputs: `_stream` evaluates them together)
        raise RunError(e.span, "rows joined outside a stream's inputs")

    def _stream(self, e: T.Stream):
        if isinstance(e.arrays[0], T.JoinRows):
            return self._joined(e)
        return self._over(e, [self.ev(a) for a in e.arrays], tuple(self.ev(i) for i in e.inits))

    def _joined(self, e: T.Stream):
        """A stream over rows joined end to end (transform/join_rows.py):
        where every live lane picks the same count of rows, one stream over
        their concatenation, its chunks (random under a random chunking)
        crossing the rows' borders as the tiled kernel's do; else row after
        row, each lane folding its own count."""
        accs = tuple(self.ev(i) for i in e.inits)
        joined = e.arrays
        bound = self.ev(joined[0].count)
        count = self.uniform(bound)
        if count is not None:
            per_row = [self._picked(joined, k) for k in range(int(count))]
            if not per_row:
                return accs if len(accs) > 1 else accs[0]
            arrays = [_concatenated([rows[i] for rows in per_row], self.B) for i in range(len(joined))]
            return self._over(e, arrays, accs)
        saved = self.mask
        try:
            for k in range(int(self._live(bound).max(initial=0))):
                going = bound > k
                self.mask = going if saved is None else saved & going
                out = self._over(e, self._picked(joined, k), accs)
                out = out if isinstance(out, tuple) else (out,)
                accs = tuple(np.where(going, n, v) for n, v in zip(out, accs))
        finally:
            self.mask = saved
        return accs if len(accs) > 1 else accs[0]

    def _picked(self, joined, k: int) -> list:
        """Each joined input's row at iteration `k`."""
        self.env[joined[0].index] = self.scalar(k, joined[0].index.type)
        return [self.ev(j.row) for j in joined]

    def _over(self, e: T.Stream, arrays: list, accs: tuple):
        splits = list(self.chunking.splits(arrays[0].shape[self.B], self.rng))
        level = self.enter(len(splits), f"the {'streamSeq' if e.combine is None else 'streamRed'} at {e.span.short}")
        try:
            if e.combine is not None and self.chunking.kind != "whole":
                accs = self._reduced(e, arrays, accs, splits, level)
            else:
                for start, length in splits:
                    accs = self._chunk(e, arrays, accs, start, length)
                    self.step(level)
        finally:
            self.leave()
        return accs if len(accs) > 1 else accs[0]

    def _chunk(self, e: T.Stream, arrays: list, accs: tuple, start: int, length: int) -> tuple:
        """The accumulators after the stream's body folds the chunk [start, start + length)."""
        lead = (slice(None),) * self.B
        self.env[e.offset] = self.scalar(start, e.offset.type)
        self.env[e.chunk] = self.scalar(length, e.chunk.type)
        for p, a in zip(e.chunk_params, arrays):
            self.env[p] = a[lead + (slice(start, start + length),)]
        self.bind_each(e.acc_params, accs)
        out = self.ev(e.body)
        return out if isinstance(out, tuple) else (out,)

    def _reduced(self, e: T.Stream, arrays: list, starts: tuple, splits: list, level: list) -> tuple:
        """A streamRed as a split GPU kernel may run it: the chunks shared
        among lanes, each lane folding its chunks in order from the initial
        values (under a fixed chunking a lane a chunk; under a random one 2
        to 5 lanes, each taking every L-th chunk as a GPU's lanes take every
        T-th element, or chunks at random), the lanes' partial results merged
        by the combine (left to right; at random neighbours, in a shuffled
        order, under a random chunking)."""
        shuffled = self.chunking.kind == "random"
        count = len(splits) if not shuffled else int(self.rng.integers(2, 6))
        strided = not shuffled or self.rng.random() < 0.5
        runs: list[tuple | None] = [None] * count
        for i, (start, length) in enumerate(splits):
            lane = i % count if strided else int(self.rng.integers(count))
            runs[lane] = self._chunk(e, arrays, starts if runs[lane] is None else runs[lane], start, length)
            self.step(level)
        runs = [r for r in runs if r is not None]
        if shuffled:
            runs = [runs[i] for i in self.rng.permutation(len(runs))]
        while len(runs) > 1:
            i = int(self.rng.integers(len(runs) - 1)) if shuffled else 0
            self.bind_each(e.combine.params, runs[i] + runs[i + 1])
            out = self.ev(e.combine.body)
            runs[i:i + 2] = [out if isinstance(out, tuple) else (out,)]
        return runs[0] if runs else starts


def _share(value: np.ndarray, seed: int) -> np.ndarray:
    """A number in [-1, 1) for each element, a hash of its float64 bits and
    `seed` (splitmix64's finaliser): random across values, the same for equal ones."""
    bits = np.ascontiguousarray(value, np.float64).reshape(-1).view(np.uint64)
    x = bits ^ np.uint64((seed * 0x9E3779B97F4A7C15) % 2**64)
    x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    x ^= x >> np.uint64(31)
    return ((x >> np.uint64(11)).astype(np.float64) / 2.0**52 - 1.0).reshape(np.shape(value))


def _concatenated(rows: list, B: int) -> np.ndarray:
    """Rows laid end to end along the first axis after the lanes' (broadcast to one batch shape first)."""
    batch = np.broadcast_shapes(*(r.shape[:B] for r in rows))
    return np.concatenate([np.broadcast_to(r, batch + r.shape[B:]) for r in rows], axis=B)


def _select(c, t, f, B: int):
    if isinstance(t, tuple):
        return tuple(_select(c, a, b, B) for a, b in zip(t, f))
    extra = t.ndim - B
    return np.where(c.reshape(c.shape + (1,) * extra), t, f)


_ARITH = {
    "+": np.add, "-": np.subtract, "*": np.multiply, "/": np.true_divide,
    "<": np.less, "<=": np.less_equal, ">": np.greater, ">=": np.greater_equal,
    "==": np.equal, "!=": np.not_equal,
}


def _rsqrt(x):
    return np.reciprocal(np.sqrt(x))


_MATH = {
    "sqrt": np.sqrt, "rsqrt": _rsqrt, "exp": np.exp, "log": np.log, "sin": np.sin, "cos": np.cos,
    "floor": np.floor, "abs": np.abs, "pow": np.power,
    "min": lambda a, b: np.fmin(a, b) if a.dtype.kind == "f" else np.minimum(a, b),
    "max": lambda a, b: np.fmax(a, b) if a.dtype.kind == "f" else np.maximum(a, b),
}


_METHODS = methods(Evaluator, T.Exp)  # each node class's method, checked when the module loads


def truncated(x: np.ndarray, to, from_f64: bool) -> np.ndarray:
    """A float converted to an integer type as the GPU converts it (PTX's
    cvt.rzi, which a C cast compiles to): toward zero, past the type's range
    its nearest end; NaN 0 from f32 (f16 and bf16 convert through it) to a
    32-bit type, else the type's smallest value (PTX ISA 9.0). NumPy leaves
    all of these to the machine: x86 gives the smallest value."""
    info = np.iinfo(to)
    x = np.asarray(x, np.float64)  # (exact for every f16, bf16, f32 and f64)
    top = 2.0 ** (info.bits - 1)
    nan = info.min if from_f64 or info.bits == 64 else 0
    inside = np.where(np.isnan(x) | (x >= top) | (x < -top), 0.0, x)
    out = np.trunc(inside).astype(to)
    return np.where(np.isnan(x), nan, np.where(x >= top, info.max, np.where(x < -top, info.min, out))).astype(to)
