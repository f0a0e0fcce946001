"""Kernels whose rows are run by a warp or a block (analyse/reductions.py).

The map levels down to the row level are the grid: the row level's along
x (`ROWS_A_WARP_BLOCK` rows a block when a warp runs a row, on
threadIdx.y), the outer ones along y and z. Every lane of a row computes
the row's code; each reduction the plan splits is folded by every lane
over every T-th iteration from the operator's identity, and the partial
results are combined by shuffles within each warp, then (a block a row)
through shared memory, so that every lane holds the same result. The
levels inside the row are a loop of each lane over every T-th point of
the innermost one; only the row's lane 0 stores a value computed once a
row.
"""
from __future__ import annotations

from .. import kir, target
from ..analyse import Analysis
from ..analyse.reductions import ROWS_A_WARP_BLOCK, Operator, Split, identity
from ..check import typed as T
from ..check.types import Scalar
from .body import ctype_of
from .params import bind_prelude, kernel_name, kernel_params, size_expr, size_name, wide_factor
from .reassociate import loop_levels
from .streams import Streams
from .values import add, const, minimum, mul

SHUFFLE = "shuffle_xor"  # target.CALL_SPELLING spells it


class SplitBody(Streams):
    """The untiled lowering, with the plan's reductions split among a row's lanes."""

    def __init__(self, analysis: Analysis, split: Split, lanes: int):
        levels = loop_levels(analysis.kernel) if analysis.options.fast_math else None
        super().__init__(analysis.plan.untiled, {}, False, levels)
        self.split = split
        self.loops = {id(r.loop): r for r in split.reductions if r.split}
        self.lanes = lanes
        self.lane = kir.ThreadIdx("x")
        self.uniform = True  # the code being lowered runs alike on every lane of a row

    def emit_all(self, stmts) -> None:
        for s in stmts:
            self.emit(s)

    def _loop(self, e: T.Loop):
        reduction = self.loops.get(id(e))
        if reduction is None or not self.uniform:
            return super()._loop(e)
        inits = [self.exp(i) for i in e.inits]
        bound = self.exp(e.bound)
        ctypes = [ctype_of(p.type) for p in e.params]
        kinds = [p.type.kind for p in e.params if isinstance(p.type, Scalar)]
        parts = [self.declare(f"{p.name}_part", c, const(identity(op, kind), c), e.span, const_=False)
                 for p, c, op, kind in zip(e.params, ctypes, reduction.operators, kinds)]
        for p, r in zip(e.params, parts):
            self.env[p] = r
        index = self.fresh(e.index.name)
        self.env[e.index] = kir.Ref(index)
        self.uniform = False
        try:
            stmts, _ = self.block(lambda: self._carry(e.body, e.params, parts))
        finally:
            self.uniform = True
        self.emit(kir.For(index, self.lane, bound, const(self.lanes), stmts, e.span,
                          note=f"this lane's share: one iteration in {self.lanes}"))
        totals = self._across(parts, reduction.operators, ctypes)
        for b, init, total, op, c in zip(e.results, inits, totals, reduction.operators, ctypes):
            self.env[b] = self.declare(b.name, c, self._apply(op, init, total, c), e.span)
        return self.exp(e.rest)

    def _apply(self, op: Operator, a, b, ctype: str):
        if op in (Operator.ADD, Operator.MUL):
            return kir.Bin(op.value, a, b)
        return kir.Call(target.math_function(ctype, op.value, self.fast_math), (a, b))

    def _across(self, parts, ops, ctypes) -> list:
        """Each lane's partial results combined over the row's lanes; every lane gets the totals."""
        values = list(parts)
        step = target.WARP // 2
        while step:  # a butterfly: lanes i and i ^ step hold the same value after each step
            values = [self.declare(f"{r.name}_{step}", c, self._apply(op, v, kir.Call(SHUFFLE, (
                const(target.FULL_MASK, "unsigned"), v, const(step))), c))
                for r, v, op, c in zip(parts, values, ops, ctypes)]
            step //= 2
        warps = self.lanes // target.WARP
        if warps == 1:
            return values
        buffers = [self.fresh(f"{r.name}_warps") for r in parts]
        self.shared += [kir.SharedAlloc(b, c, warps) for b, c in zip(buffers, ctypes)]
        first = kir.Bin("==", kir.Bin("%", self.lane, const(target.WARP)), const(0))
        warp = kir.Bin("/", self.lane, const(target.WARP))
        self.emit(kir.If(first, tuple(kir.Store(b, warp, v, kir.SHARED) for b, v in zip(buffers, values))))
        self.emit(kir.Barrier("each warp's partial results are written"))
        totals = [self.declare(f"{r.name}_all", c, kir.Load(b, const(0), kir.SHARED), const_=False)
                  for r, b, c in zip(parts, buffers, ctypes)]
        w = self.fresh("w")
        body = tuple(kir.Assign(t.name, self._apply(op, t, kir.Load(b, kir.Ref(w), kir.SHARED), c))
                     for t, b, op, c in zip(totals, buffers, ops, ctypes))
        self.emit(kir.For(w, const(1), const(warps), const(1), body, unroll=kir.FULL))
        self.emit(kir.Barrier("the partial results are read before another reduction writes them"))
        return totals


def lower_split(analysis: Analysis, split: Split, lanes: int, file: str, wide: bool = False) -> kir.Kernel:
    """One kernel with `lanes` threads a row (32: a warp; more: a block)."""
    k = analysis.kernel
    low = SplitBody(analysis, split, lanes)
    factor = wide_factor if wide else (lambda extent: extent)
    params = kernel_params(low, k, factor, {}, frozenset())
    bind_prelude(low, k)
    rows = k.levels[:split.rows]
    per_block = ROWS_A_WARP_BLOCK if lanes == target.WARP else 1
    axes = {lv.dim: target.AXES[split.rows - 1 - lv.dim] for lv in rows}  # the row level along x
    sizes = [size_expr(low, lv.size) for lv in k.levels]
    gtids = []
    for lv in rows:
        block = kir.BlockIdx(axes[lv.dim])
        at = add(mul(block, const(per_block)), kir.ThreadIdx("y")) if lv.dim == split.rows - 1 and per_block > 1 \
            else block
        gtids.append(low.declare(f"row{lv.dim}", "int", at, lv.span))
    in_range = _all(kir.Bin("<", g, sizes[lv.dim]) for g, lv in zip(gtids, rows))
    outputs = [p for p in params if p.role == "output"]

    def nest():
        indices = []
        for lv, gtid in zip(rows, gtids):  # a row past the end stands in for the last: its lanes still shuffle
            idx = low.declare(f"i{lv.dim}", "int", minimum(gtid, kir.Bin("-", sizes[lv.dim], const(1)))) \
                if per_block > 1 and lv.dim == split.rows - 1 else gtid
            _bind_level(low, lv, idx)
            indices.append(idx)
        inner = k.levels[split.rows:]
        if not inner:
            values = _parts(low.exp(k.body))
            stores = _stores(outputs, _flat(gtids, sizes, factor), values, k.span)
            low.emit(kir.If(kir.Bin("&&", in_range, kir.Bin("==", low.lane, const(0))), stores))
            return
        low.uniform = False
        low.emit_all(_inner_loops(low, k, inner, sizes, lambda idx: (
            kir.If(in_range, _stores(outputs, _flat(gtids + idx, sizes, factor),
                                     _parts(low.exp(k.body)), k.span)),)))

    body, _ = low.block(nest)
    block = (lanes, per_block, 1)
    grid = [None, None, None]
    for lv in rows:
        grid[target.AXES.index(axes[lv.dim])] = (size_name(lv.size), per_block if lv.dim == split.rows - 1 else 1)
    name = kernel_name(file, True).replace("_tiled", f"_split{lanes}") + ("_wide" if wide else "")
    summary = (f"rows: {' x '.join(size_name(lv.size) for lv in rows)}, {lanes} threads a row; {split.reason}",) + \
        (("offsets: 64-bit, for arrays of 2^31 elements and more",) if wide else ())
    return kir.Kernel(name, tuple(params), tuple(low.shared), tuple(low.out) + body, block, tuple(grid), True,
                      file, summary, k.span, (), wide, (), False, None, lanes)


def _bind_level(low: SplitBody, lv: T.MapLevel, idx) -> None:
    for p, arg in zip(lv.params, lv.args):
        low.env[p] = low.name_value(p, low.exp(arg).index([idx]), lv.span)
    for binders, value in lv.lets:
        low.bind(binders, low.exp(value), lv.span)


def _inner_loops(low: SplitBody, k: T.Kernel, inner, sizes, store) -> tuple:
    """The inner levels' points: plain loops over the outer ones, and every
    `lanes`-th point of the innermost (consecutive lanes, consecutive points)."""
    def level(n: int, idx: list):
        lv = inner[n]
        var = low.fresh(f"i{lv.dim}")
        last = n == len(inner) - 1

        def body():
            _bind_level(low, lv, kir.Ref(var))
            if last:
                low.emit_all(store(idx + [kir.Ref(var)]))
            else:
                low.emit_all(level(n + 1, idx + [kir.Ref(var)]))
        stmts, _ = low.block(body)
        start, step = (low.lane, const(low.lanes)) if last else (const(0), const(1))
        return (kir.For(var, start, sizes[lv.dim], step, stmts, lv.span,
                        note="this lane's points of the row" if last else ""),)
    return level(0, [])


def _flat(indices, sizes, factor):
    flat = const(0)
    for g, s in zip(indices, sizes):
        flat = add(mul(flat, factor(s)), g)
    return flat


def _stores(outputs, flat, values, span) -> tuple:
    return tuple(kir.Store(o.name, flat, v, "global", span) for o, v in zip(outputs, values))


def _parts(v) -> tuple:
    return v if isinstance(v, tuple) else (v,)


def _all(conds):
    out = None
    for c in conds:
        out = c if out is None else kir.Bin("&&", out, c)
    return out if out is not None else const(True, "bool")
