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
from ..analyse.reductions import ROWS_A_WARP_BLOCK, Operator, Pick, Split, extreme, identity, pick_of
from ..check import typed as T
from ..check.types import Scalar
from .body import ctype_of, value_parts
from .params import (
    bind_prelude,
    flat_index,
    kernel_params,
    output_stores,
    program_stem,
    size_expr,
    size_name,
    wide_factor,
)
from .reassociate import loop_levels
from .streams import Streams
from .values import add, all_of, const, minimum, mul

SHUFFLE = "shuffle_xor"  # target.CALL_SPELLING spells it
PICKS = (Operator.ARGMIN, Operator.ARGMAX)


class SplitBody(Streams):
    """The untiled lowering, with the plan's reductions split among a row's lanes."""

    def __init__(self, analysis: Analysis, split: Split, lanes: int):
        levels = loop_levels(analysis.kernel) if analysis.options.fast_math else None
        super().__init__(analysis.plan.untiled, {}, False, levels)
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
        if reduction.operators[0] in PICKS:
            return self._split_pick(e, pick_of(e))
        inits = [self.exp(i) for i in e.inits]
        bound = self.exp(e.bound)
        ctypes = [ctype_of(p.type) for p in e.params]
        kinds = [p.type.kind for p in e.params if isinstance(p.type, Scalar)]
        parts = [self.declare(f"{p.name}_part", c, const(identity(op, kind), c), e.span, const_=False)
                 for p, c, op, kind in zip(e.params, ctypes, reduction.operators, kinds)]
        for p, r in zip(e.params, parts):
            self.env[p] = r
        self._lanes_loop(e, bound, lambda k: self._carry(e.body, e.params, parts))
        totals = self._across(parts, reduction.operators, ctypes)
        for b, init, total, op, c in zip(e.results, inits, totals, reduction.operators, ctypes):
            self.env[b] = self.declare(b.name, c, self._apply(op, init, total, c), e.span)
        return self.exp(e.rest)

    def _split_pick(self, e: T.Loop, pick: Pick):
        """A minimum (or maximum) and its index: each thread keeps its first
        (or last) extreme and the iteration it came from; the shares are
        combined by value, ties by iteration, so that the pair is the one
        the loop in order keeps; then the start pair, which comes first."""
        inits = [self.exp(i) for i in e.inits]
        bound = self.exp(e.bound)
        vp, ip = e.params[pick.value], e.params[pick.index]
        vc, ic = ctype_of(vp.type), ctype_of(ip.type)
        value = self.declare(f"{vp.name}_part", vc, const(extreme(pick.smaller, vp.type.kind), vc), e.span,
                             const_=False)
        index = self.declare(f"{ip.name}_part", ic, const(0, ic), e.span, const_=False)
        # the iteration the share came from; a share that took none loses every tie
        never = target.INT_MAX if pick.strict else -1
        step = self.declare(f"{ip.name}_step", "int", const(never), e.span, const_=False)
        self.env[vp], self.env[ip] = value, index
        self._lanes_loop(e, bound, lambda k: self._pick_step(e.body, pick, value, index, step, k))
        value, index, step = self._pick_across(pick, (value, index, step), (vc, ic, "int"))
        # the start pair comes before every iteration: a share replaces it only when strictly better (or, `<=`, as good)
        ahead = _better(pick, value, inits[pick.value], "<=" if not pick.strict else "<")
        if not pick.strict:
            ahead = kir.Bin("&&", kir.Bin("!=", step, const(never)), ahead)
        took = self.declare(f"{vp.name}_took", "bool", ahead, e.span)
        results = [None, None]
        results[pick.value] = kir.Select(took, value, inits[pick.value])
        results[pick.index] = kir.Select(took, index, inits[pick.index])
        for b, r, c in zip(e.results, results, (ctype_of(p.type) for p in e.params)):
            self.env[b] = self.declare(b.name, c, r, e.span)
        return self.exp(e.rest)

    def _lanes_loop(self, e: T.Loop, bound, fold) -> None:
        """`fold(k)` over this lane's iterations of `e`, k = lane, lane + T, ...
        (code that, inside, differs between the row's lanes)."""
        k = self.fresh(e.index.name)
        self.env[e.index] = kir.Ref(k)
        self.uniform = False
        try:
            stmts, _ = self.block(lambda: fold(kir.Ref(k)))
        finally:
            self.uniform = True
        self.emit(kir.For(k, self.lane, bound, const(self.lanes), stmts, e.span,
                          note=f"this lane's share: one iteration in {self.lanes}"))

    def _pick_step(self, body, pick: Pick, value, index, step, k) -> None:
        """One iteration: the lets, then `if (t < v) { v = t; i = index; step = k; }`."""
        while isinstance(body, T.Let):
            self.bind(body.binders, self.exp(body.value), body.span)
            body = body.body
        cond = self.exp(body.cond)
        then_stmts, then = self.block(lambda: self.exp(body.then))
        then = then if isinstance(then, tuple) else (then,)
        self.emit(kir.If(cond, then_stmts + (kir.Assign(value.name, then[pick.value]),
                                             kir.Assign(index.name, then[pick.index]),
                                             kir.Assign(step.name, k)), (), body.span))

    def _pick_across(self, pick: Pick, refs: tuple, ctypes: tuple) -> tuple:
        """The threads' (value, index, iteration) shares combined; every thread gets the result."""
        def merge(mine, other, suffix):
            wins = self.declare(f"{refs[0].name}{suffix}w", "bool", _pick_wins(pick, other, mine))
            return [self.declare(f"{r.name}{suffix}", c, kir.Select(wins, o, m))
                    for r, m, o, c in zip(refs, mine, other, ctypes)]
        return tuple(self._combined(refs, ctypes, merge))

    def _apply(self, op: Operator, a, b, ctype: str):
        if op in (Operator.ADD, Operator.MUL):
            return kir.Bin(op.value, a, b)
        return kir.Call(target.math_function(ctype, op.value, self.fast_math), (a, b))

    def _across(self, parts, ops, ctypes) -> list:
        """Each lane's partial results combined over the row's lanes, by their operators."""
        def merge(mine, other, suffix):
            return [self.declare(f"{r.name}{suffix}", c, self._apply(op, m, o, c))
                    for r, m, o, op, c in zip(parts, mine, other, ops, ctypes)]
        return self._combined(parts, ctypes, merge)

    def _combined(self, refs, ctypes, merge) -> list:
        """Shares combined over the row's threads, every thread getting the
        result: a butterfly of shuffles in each warp (threads i and i ^ step
        hold the same values after each step), then, past one warp, each
        warp's result through shared memory between two barriers.
        `merge(mine, other, suffix)` declares two shares merged."""
        values = list(refs)
        step = target.WARP // 2
        while step:
            other = [self.declare(f"{r.name}_{step}o", c, kir.Call(SHUFFLE, (const(target.FULL_MASK, "unsigned"),
                                                                             v, const(step))))
                     for r, v, c in zip(refs, values, ctypes)]
            values = merge(values, other, f"_{step}")
            step //= 2
        warps = self.lanes // target.WARP
        if warps == 1:
            return values
        buffers = [self.fresh(f"{r.name}_warps") for r in refs]
        self.shared += [kir.SharedAlloc(b, c, warps) for b, c in zip(buffers, ctypes)]
        first = kir.Bin("==", kir.Bin("%", self.lane, const(target.WARP)), const(0))
        warp = kir.Bin("/", self.lane, const(target.WARP))
        self.emit(kir.If(first, tuple(kir.Store(b, warp, v, kir.SHARED) for b, v in zip(buffers, values))))
        self.emit(kir.Barrier("each warp's partial results are written"))
        totals = [self.declare(f"{r.name}_all", c, kir.Load(b, const(0), kir.SHARED), const_=False)
                  for r, b, c in zip(refs, buffers, ctypes)]
        w = self.fresh("w")
        stmts, merged = self.block(lambda: merge(totals, [kir.Load(b, kir.Ref(w), kir.SHARED) for b in buffers],
                                                 "_w"))
        body = stmts + tuple(kir.Assign(t.name, m) for t, m in zip(totals, merged))
        self.emit(kir.For(w, const(1), const(warps), const(1), body, unroll=kir.FULL))
        self.emit(kir.Barrier("the partial results are read before another reduction writes them"))
        return totals


def _better(pick: Pick, a, b, op: str):
    """`a` is a better extreme than `b` (`op` "<" strictly, "<=" or as good)."""
    return kir.Bin(op, a, b) if pick.smaller else kir.Bin(op.replace("<", ">"), a, b)


def _pick_wins(pick: Pick, other, mine):
    """The other (value, index, iteration) share wins: a better value, or an
    equal one from an earlier iteration (`<`: the first is kept) or a later
    one (`<=`: the last)."""
    earlier = kir.Bin("<" if pick.strict else ">", other[2], mine[2])
    return kir.Bin("||", _better(pick, other[0], mine[0], "<"),
                   kir.Bin("&&", kir.Bin("==", other[0], mine[0]), earlier))


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
    in_range = all_of(kir.Bin("<", g, sizes[lv.dim]) for g, lv in zip(gtids, rows))
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
            values = value_parts(low.exp(k.body))
            stores = output_stores(outputs, flat_index(gtids, sizes, factor), values, k.span)
            low.emit(kir.If(kir.Bin("&&", in_range, kir.Bin("==", low.lane, const(0))), stores))
            return
        low.uniform = False
        low.emit_all(_inner_loops(low, k, inner, sizes, lambda idx: (
            kir.If(in_range, output_stores(outputs, flat_index(gtids + idx, sizes, factor),
                                     value_parts(low.exp(k.body)), k.span)),)))

    body, _ = low.block(nest)
    block = (lanes, per_block, 1)
    grid = [None, None, None]
    for lv in rows:
        grid[target.AXES.index(axes[lv.dim])] = (size_name(lv.size), per_block if lv.dim == split.rows - 1 else 1)
    name = f"tiler_{program_stem(file)}_split{lanes}" + ("_wide" if wide else "")
    summary = (f"rows: {' x '.join(str(size_name(lv.size)) for lv in rows)}, {lanes} threads a row; {split.reason}",) + \
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
