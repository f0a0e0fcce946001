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

import dataclasses
import functools
from dataclasses import dataclass, field

from .. import kir, target
from ..analyse import Analysis
from ..analyse.folds import WELFORD
from ..analyse.online import Online, online_of
from ..analyse.reductions import (
    COLUMN_ROWS,
    MAX_BLOCKS_A_ROW,
    PICKS,
    ROWS_A_WARP_BLOCK,
    Operator,
    Pick,
    Split,
    extreme,
    identity,
    pick_of,
    share_of,
)
from ..analyse.schedule import Math
from ..analyse.welford import Welford, welford_of
from ..check import typed as T
from ..check.types import Scalar
from ..errors import CompilerBug
from ..kir.build import add, const, mul
from ..source import program_stem
from ..transform.reassociate import loop_levels
from .ahead import iterations_ahead, read_ahead
from .body import ctype_of, value_parts
from .params import (
    bind_prelude,
    flat_index,
    kernel_params,
    output_stores,
    size_expr,
    size_name,
    wide_factor,
)
from .shares import Shares, better, compared, never
from .streams import Streams
from .values import all_of, at_most, blocks_a_row, in_kernel_min, minimum, partial_slot

ONLINE = (Operator.ONLINE_MAX, Operator.RESCALED_SUM)


class Stopped(Exception):
    """A stage of several blocks a row has written its reduction's partial results: its kernel ends there."""


@dataclass
class Several:
    """A kernel of several blocks a row, as it is lowered: the reductions met
    before `stage` (all of them in the row's last kernel, `stage` None) are
    combined from the partial results earlier kernels left in scratch
    memory; reduction `stage` is folded by this kernel's blocks, each writing
    its partial results there."""

    stage: int | None
    blocks: object  # the blocks a row (an int expression)
    row: object  # the row's index among all rows (flat)
    names: tuple[str, ...]  # the scratch arrays, one each carried value of each reduction, in the order met
    met: int = 0  # split reductions met so far
    taken: int = 0  # scratch arrays taken so far
    ctypes: list = field(default_factory=list)  # of the scratch arrays taken
    # rows side by side: all rows' count (a block's partial results lie together, one a row, so that a warp's
    # consecutive rows write and read one run), and whether this thread's row is one (a row past the end
    # stands in for the last, and stores nothing)
    rows: object = None
    real: object = None

    def take(self, ctypes: list) -> list[str]:
        names = self.names[self.taken:self.taken + len(ctypes)]
        self.taken += len(ctypes)
        self.ctypes += ctypes
        return list(names)

    def slot(self, block):
        """Where a block's partial result lies in a scratch array."""
        return partial_slot(block, self.row, self.blocks, self.rows)


class SplitBody(Streams, Shares):
    """The untiled lowering, with the plan's reductions split among a row's lanes."""

    def __init__(self, analysis: Analysis, split: Split | None, lanes: int, columns: bool = False):
        levels = loop_levels(analysis.kernel) if analysis.plan.untiled.math is Math.FAST else None
        super().__init__(analysis.plan.untiled, {}, False, levels)
        self.loops = {T.point(r.loop): r for r in split.reductions if r.split} if split is not None else {}
        self.lanes = lanes
        self.columns = columns  # rows side by side: a row's lanes down threadIdx.y
        self.lane = kir.ThreadIdx("y" if columns else "x")
        self.base = None  # several blocks a row: the first iteration (or point) of the block's share
        self.share = None  # and how many it has (the last block's may be cut short)
        self.uniform = True  # the code being lowered runs alike on every lane of a row
        self.several: Several | None = None
        self.ahead: dict = {}  # id of a read the lane loop loaded ahead -> the register holding it (ahead.py)

    def emit_all(self, stmts) -> None:
        for s in stmts:
            self.emit(s)

    def _loop(self, e: T.Loop):
        reduction = self.loops.get(T.point(e))
        if reduction is None or not self.uniform:
            return super()._loop(e)
        pick = pick_of(e) if reduction.operators[0] in PICKS else None
        online = online_of(e) if reduction.operators[0] in ONLINE else None
        welford = welford_of(e) if reduction.operators[0] in WELFORD else None
        inits = [self.exp(i) for i in e.inits]
        bound = self.exp(e.bound)
        ctypes = [ctype_of(p.type) for p in e.params]
        if pick is not None:
            shares = self._pick_shares(e, pick)
            ctypes = [ctypes[pick.value], ctypes[pick.index], "int"]
            merge = self._pick_merge(pick, shares, ctypes)
            step = (lambda k: self._pick_step(e.body, pick, *shares, k))  # noqa: E731
        else:
            shares, merge = self._folded_shares(e, reduction, online, welford, ctypes)
            step = (lambda k: self._carry(e.body, e.params, shares))  # noqa: E731
        shares = self._shares(e, bound, shares, ctypes, step, merge, ahead=pick is None and online is None)
        # the start values come first, then the row's shares
        merged = online is not None or welford is not None or reduction.combine is not None
        results = merge(inits, shares, "_fin") if merged else \
            self._finish(e, pick, reduction.operators, inits, shares, ctypes)
        for b, r, c in zip(e.results, results, (ctype_of(p.type) for p in e.params)):
            self.env[b] = self.declare(b.name, c, r, e.span)
        return self.exp(e.rest)

    def _folded_shares(self, e: T.Loop, reduction, online: Online | None, welford: Welford | None, ctypes: list):
        """A lane's shares of a reduction its body folds (all but a pick),
        started where its kind starts them, and how two of them merge."""
        if online is not None:  # from the lowest finite maximum and an empty sum (online.py)
            starts = [None, None]
            starts[online.maximum] = const(-target.FLOAT_MAX[ctypes[online.maximum]], ctypes[online.maximum])
            starts[online.total] = const(0.0, ctypes[online.total])
            shares = self._started(e, ctypes, starts)
            return shares, self._online_merge(online, shares, ctypes)
        if welford is not None:  # from an empty count, mean and M2 (welford.py)
            shares = self._started(e, ctypes, [const(0.0 if c in target.FLOAT_MAX else 0, c) for c in ctypes])
            return shares, self._welford_merge(welford, shares, ctypes)
        if reduction.combine is not None:  # from the streamRed's initial values, merged by its combine
            shares = self._started(e, ctypes, [self.exp(i) for i in reduction.stream.inits])
            return shares, self._combine_merge(reduction.combine, shares, ctypes)
        kinds = [p.type.kind for p in e.params if isinstance(p.type, Scalar)]
        shares = self._started(e, ctypes, [const(identity(op, kind), c) for c, op, kind
                                           in zip(ctypes, reduction.operators, kinds)])
        return shares, self._merge(shares, reduction.operators, ctypes)

    def _shares(self, e: T.Loop, bound, shares: list, ctypes: list, step, merge, ahead: bool = False) -> list:
        """The shares folded over the lanes' iterations and combined over the
        row's lanes; with several blocks a row, either this kernel's blocks'
        partial results written (then the kernel ends) or those of an earlier
        kernel combined."""
        several = self.several
        n = None if several is None else several.met
        if several is not None:
            several.met += 1
        if n is not None and n != several.stage:  # combined from the partial results in scratch memory
            names = several.take(ctypes)
            w = self.fresh("b")
            stmts, merged = self.block(lambda: merge(shares, [kir.Load(a, several.slot(kir.Ref(w))) for a in names],
                                                     "_p"))
            self.emit(kir.For(w, self.lane, several.blocks, const(self.lanes),
                              stmts + tuple(kir.Assign(r.name, m) for r, m in zip(shares, merged)), e.span,
                              note="this lane's share of the blocks' partial results"))
            return self._combined(shares, ctypes, merge)
        self._lanes_loop(e, bound, step, ahead)
        shares = self._combined(shares, ctypes, merge)
        if n is None:
            return shares
        names = several.take(ctypes)
        first = kir.Bin("==", self.lane, const(0))
        self.emit(kir.If(first if several.real is None else kir.Bin("&&", several.real, first), tuple(
            kir.Store(a, several.slot(kir.BlockIdx("x")), r) for a, r in zip(names, shares))))
        raise Stopped

    def _finish(self, e: T.Loop, pick: Pick | None, ops, inits: list, shares: list, ctypes: list) -> list:
        """The loop's results: the start values combined with the row's shares."""
        if pick is None:
            return [self._apply(op, init, total, c) for init, total, op, c in zip(inits, shares, ops, ctypes)]
        # the start pair comes before every iteration: a share replaces it only when strictly better (or, `<=`, as good)
        value, index, step = shares
        ahead = better(pick, compared([value], ctypes[0])[0], compared([inits[pick.value]], ctypes[0])[0],
                       "<=" if not pick.strict else "<")
        if not pick.strict:
            ahead = kir.Bin("&&", kir.Bin("!=", step, const(never(pick))), ahead)
        took = self.declare(f"{e.params[pick.value].name}_took", "bool", ahead, e.span)
        results = [None, None]
        results[pick.value] = kir.Select(took, value, inits[pick.value])
        results[pick.index] = kir.Select(took, index, inits[pick.index])
        return results

    def _pick_shares(self, e: T.Loop, pick: Pick) -> list:
        """A minimum (or maximum) and its index: each thread keeps its first
        (or last) extreme and the iteration it came from; the shares are
        combined by value, ties by iteration, so that the pair is the one
        the loop in order keeps; then the start pair, which comes first."""
        vp, ip = e.params[pick.value], e.params[pick.index]
        vc, ic = ctype_of(vp.type), ctype_of(ip.type)
        value = self.declare(f"{vp.name}_part", vc, const(extreme(pick.smaller, vp.type.kind), vc), e.span,
                             const_=False)
        index = self.declare(f"{ip.name}_part", ic, const(0, ic), e.span, const_=False)
        # the iteration the share came from; a share that took none loses every tie
        step = self.declare(f"{ip.name}_step", "int", const(never(pick)), e.span, const_=False)
        self.env[vp], self.env[ip] = value, index
        return [value, index, step]

    def _lanes_loop(self, e: T.Loop, bound, fold, ahead: bool = False) -> None:
        """`fold(k)` over this lane's iterations of `e`, k = start, start + stride, ...
        (code that, inside, differs between the row's lanes); with `ahead` and a row of one block or warp, a
        few iterations at a time, their reads loaded first, where the step has reads to load (ahead.py).
        `ahead` is for folds only: a pick's loop, an online maximum's, and a stage of several blocks a row,
        so loaded, spilled (in the 32 registers a thread of two blocks of 1,024 threads has, and an f64
        online log-sum-exp's values around its exponentials' calls)."""
        k = self.fresh(e.index.name)
        reads = read_ahead(e) if ahead and self.several is None else []
        n = iterations_ahead(reads)
        stop = self.stop(bound)

        def body():
            if n:
                return self._ahead(e, reads, n, k, stop, fold)
            self.env[e.index] = at = self.at(k)
            fold(at)
        self.uniform = False
        try:
            stmts, _ = self.block(body)
        finally:
            self.uniform = True
        share = f"one iteration in {self.lanes}" if self.base is None else \
            f"one iteration in {self.lanes} of its block's share"
        if n:
            share += f", {n} at a time, their reads loaded first"
        self.emit(kir.For(k, self.lane, stop, const(self.lanes * (n or 1)), stmts, e.span,
                          note=f"this lane's share: {share}"))

    def _ahead(self, e: T.Loop, reads: list, n: int, k: str, stop, fold) -> None:
        """`n` iterations from `k`: every one's `reads` loaded (past `stop`: a zero), then each folded."""
        steps = [kir.Ref(k) if u == 0 else add(kir.Ref(k), const(u * self.lanes)) for u in range(n)]
        inside = [None] + [kir.Bin("<", s, stop) for s in steps[1:]]
        ats, loaded = [], []
        for at, test in zip(steps, inside):  # (one block or warp a row: `at` is the iteration itself, self.at)
            self.env[e.index] = at
            values = {}
            for r in reads:
                ctype = ctype_of(r.type)
                stmts, value = self.block(lambda r=r: super(SplitBody, self)._index(r))
                if stmts and test is not None:  # (ahead.read_ahead takes no read whose index binds anything)
                    raise CompilerBug("a read loaded ahead of its iteration needs statements, which its bounds "
                                      "test would not guard", r.span, "lower")
                for stmt in stmts:
                    self.emit(stmt)
                values[id(r)] = self.declare(f"{e.index.name}_ahead", ctype, value if test is None else
                                             kir.Select(test, value, const(0, ctype)))
            ats.append(at)
            loaded.append(values)
        for at, values, test in zip(ats, loaded, inside):
            self.env[e.index], self.ahead = at, values
            try:
                if test is None:
                    fold(at)
                else:
                    stmts, _ = self.block(lambda at=at: fold(at))
                    self.emit(kir.If(test, stmts))
            finally:
                self.ahead = {}

    def _index(self, e: T.Index):
        got = self.ahead.get(id(e))
        return got if got is not None else super()._index(e)

    def at(self, k: str):
        """The iteration (or point) a lane's loop variable `k` stands for:
        itself, or with several blocks a row, counted from the block's first."""
        return kir.Ref(k) if self.base is None else self.declare(f"{k}_at", "int", add(self.base, kir.Ref(k)))

    def stop(self, bound):
        """A lane loop's bound: the row's, or the end of the block's share of it."""
        return bound if self.base is None else kir.Call("min", (kir.Bin("-", bound, self.base), self.share))

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

    def _started(self, e: T.Loop, ctypes: list, starts: list) -> list:
        """A share of each carried value, from `starts`, that the loop's body then carries."""
        shares = [self.declare(f"{p.name}_part", c, v, e.span, const_=False)
                  for p, c, v in zip(e.params, ctypes, starts)]
        for p, r in zip(e.params, shares):
            self.env[p] = r
        return shares


def lower_split(analysis: Analysis, split: Split, lanes: int, file: str, wide: bool = False,
                columns: bool = False) -> kir.Kernel:
    """One kernel with `lanes` threads a row (32: a warp; more: a block; rows
    side by side: COLUMN_ROWS rows a block)."""
    return _row_kernel(analysis, split, lanes, file, wide, columns)[0]


def lower_several(analysis: Analysis, split: Split, lanes: int, file: str, wide: bool = False,
                  columns: bool = False) -> kir.Kernel:
    """Several blocks of `lanes` threads a row, one each BLOCK_SHARE
    (COLUMN_SHARE) iterations: a kernel (a stage) each split reduction, whose blocks write
    their partial results to scratch memory, then the row's last kernel,
    which combines them (every block alike, in a fixed order) and runs the
    rest of the row. Each kernel recomputes the row's code up to its
    reduction, combining the earlier ones' partial results."""
    last, several = _row_kernel(analysis, split, lanes, file, wide, columns, stage=None)
    # every kernel of the launch takes the same arguments: the scratch arrays of all reductions after the program's
    params = last.params + tuple(kir.Param(n, c, kir.SCRATCH) for n, c in zip(several.names, several.ctypes))
    stages = tuple(dataclasses.replace(_row_kernel(analysis, split, lanes, file, wide, columns, stage=i,
                                                   total=several.met)[0], params=params) for i in range(several.met))
    scratch = partial_scratch(analysis, split, several.names, several.ctypes, share_of(columns))
    return dataclasses.replace(last, params=params, stages=stages, scratch=scratch).renamed(last.name)


def _blocks_a_row(length, ref, smaller, share: int):
    """min(ceil(length / share), MAX_BLOCKS_A_ROW) for a length that is a
    size's name (`ref` makes its expression) or a number."""
    return blocks_a_row(const(length) if isinstance(length, int) else ref(length), smaller, share, MAX_BLOCKS_A_ROW)


def partial_scratch(analysis: Analysis, split: Split, names, ctypes, share: int) -> tuple:
    """The scratch arrays of a row's blocks' partial results: one element a
    carried value for each block (one each `share` iterations) of each row."""
    count = kir.Cast(target.INDEX, _blocks_a_row(split.length, kir.Ref, at_most, share))
    for lv in analysis.kernel.levels[:split.rows]:
        count = kir.Bin("*", count, const(lv.size) if isinstance(lv.size, int) else kir.Ref(lv.size.name))
    return tuple(kir.Scratch(n, c, count, "a block's partial result of a reduction, for each block of each row")
                 for n, c in zip(names, ctypes))


def _share(low: SplitBody, length, blocks) -> None:
    """The block's share of `length` iterations (or points) among `blocks`:
    ceil(length / blocks) each, from blockIdx.x times that on."""
    low.share = low.declare("share", "int", add(kir.Bin("/", kir.Bin("-", length, const(1)), blocks), const(1)))
    low.base = low.declare("first", "int", mul(kir.BlockIdx("x"), low.share))


def _row_kernel(analysis: Analysis, split: Split, lanes: int, file: str, wide: bool, columns: bool = False,
                **several):
    """A kernel of the split; with `stage` (several blocks a row), the stage
    that folds that reduction (None: the row's last kernel), and its state."""
    k = analysis.kernel
    low = SplitBody(analysis, split, lanes, columns)
    factor = wide_factor if wide else (lambda extent: extent)
    params = kernel_params(low, k, factor, {}, frozenset())
    names = tuple(low.fresh("partials") for _ in range(_parts(split))) if several else ()
    bind_prelude(low, k)
    rows = k.levels[:split.rows]
    per_block = COLUMN_ROWS if columns else ROWS_A_WARP_BLOCK if lanes == target.WARP and not several else 1
    along = "x" if columns else "y"  # the rows of a block
    shift = 1 if several else 0  # several blocks a row: the blocks along x, the rows along y and z
    axes = {lv.dim: target.AXES[split.rows - 1 - lv.dim + shift] for lv in rows}  # the row level along x
    sizes = [size_expr(low, lv.size) for lv in k.levels]
    gtids = []
    for lv in rows:
        block = kir.BlockIdx(axes[lv.dim])
        at = add(mul(block, const(per_block)), kir.ThreadIdx(along)) if lv.dim == split.rows - 1 and per_block > 1 \
            else block
        gtids.append(low.declare(f"row{lv.dim}", "int", at, lv.span))
    inner = k.levels[split.rows:]
    in_range = all_of(kir.Bin("<", g, sizes[lv.dim]) for g, lv in zip(gtids, rows))
    # a row past the end stands in for the last: its lanes still shuffle (and, side by side, meet at barriers)
    clamped = {lv.dim: low.declare(f"i{lv.dim}", "int", minimum(g, kir.Bin("-", sizes[lv.dim], const(1))))
               for g, lv in zip(gtids, rows) if columns and lv.dim == split.rows - 1}
    if several:
        def size(name):
            return next(low.env[s] for s in k.sizes if s.name == name)

        share = several.get("share") or share_of(columns)  # (a split-K's: its stage's, split_k.py)
        blocks = low.declare("blocks", "int", _blocks_a_row(split.length, size, in_kernel_min, share))
        row = flat_index([clamped.get(lv.dim, g) for g, lv in zip(gtids, rows)], sizes, lambda extent: extent)
        low.several = Several(several["stage"], blocks, row, names)
        if columns:
            low.several.rows, low.several.real = functools.reduce(mul, sizes[:split.rows]), in_range
        if several["stage"] is not None:  # its blocks share the reduction's iterations
            _share(low, size(split.length) if isinstance(split.length, str) else const(split.length), blocks)
        elif inner:  # the last kernel's blocks share the innermost level's points
            points = low.declare("point_blocks", "int", _blocks_a_row(size_name(inner[-1].size), size, in_kernel_min,
                                                                      share_of(columns)))
            _share(low, sizes[inner[-1].dim], points)
    outputs = [p for p in params if p.role == "output"]

    def nest():
        indices = []
        for lv, gtid in zip(rows, gtids):  # a row past the end stands in for the last: its lanes still shuffle
            idx = clamped[lv.dim] if lv.dim in clamped else \
                low.declare(f"i{lv.dim}", "int", minimum(gtid, kir.Bin("-", sizes[lv.dim], const(1)))) \
                if per_block > 1 and lv.dim == split.rows - 1 else gtid
            _bind_level(low, lv, idx)
            indices.append(idx)
        if not inner:
            values = value_parts(low.exp(k.body))
            stores = output_stores(outputs, flat_index(gtids, sizes, factor), values, k.span)
            low.emit(kir.If(kir.Bin("&&", in_range, kir.Bin("==", low.lane, const(0))), stores))
            return
        low.uniform = False
        low.emit_all(_inner_loops(low, k, inner, sizes, lambda idx: (
            kir.If(in_range, output_stores(outputs, flat_index(gtids + idx, sizes, factor),
                                     value_parts(low.exp(k.body)), k.span)),)))

    def stopping():
        try:
            nest()
        except Stopped:  # a stage: its reduction's partial results are written
            pass
    body, _ = low.block(stopping)
    block = (per_block, lanes, 1) if columns else (lanes, per_block, 1)
    grid = [None, None, None]
    for lv in rows:
        grid[target.AXES.index(axes[lv.dim])] = (size_name(lv.size), per_block if lv.dim == split.rows - 1 else 1)
    name = f"tiler_{program_stem(file)}_split{lanes}" + ("_cols" if columns else "") + \
        ("_blocks" if several else "") + ("_wide" if wide else "")
    who = f"{lanes} threads a row" + (f", {COLUMN_ROWS} rows side by side a block" if columns else "")
    if several:
        # a stage's blocks share its reduction's iterations; the last kernel's, the innermost level's points
        share = several.get("share") or share_of(columns)
        grid[0] = (split.length, share, MAX_BLOCKS_A_ROW) if several["stage"] is not None else \
            (size_name(inner[-1].size), share_of(columns), MAX_BLOCKS_A_ROW) if inner else None
        who = f"blocks of {lanes} threads" + (f" a row, {COLUMN_ROWS} rows side by side" if columns else "") + \
            f", one each {share:,} iterations of a row (at most {MAX_BLOCKS_A_ROW:,}); " + (
            f"folds reduction {several['stage'] + 1} of {several['total']}" if several["stage"] is not None else
            "combines the partial results of " + ("its reduction" if low.several.met == 1 else
                                                  f"its {low.several.met} reductions") +
            (" and runs the row's points" if inner else ""))
    summary = (f"rows: {' x '.join(str(size_name(lv.size)) for lv in rows)}, {who}; {split.reason}",) + \
        (("offsets: 64-bit, for arrays of 2^31 elements and more",) if wide else ())
    return kir.Kernel(name, tuple(params), tuple(low.shared), tuple(low.out) + body, block, tuple(grid), True,
                      file, summary, k.span, (), wide, (), (), False, None, lanes), low.several


def _parts(split: Split) -> int:
    """The values a row's split reductions carry (a pick three: its iteration too)."""
    return sum(3 if r.operators[0] in PICKS else len(r.operators) for r in split.reductions if r.split)


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
            at = low.at(var) if last else kir.Ref(var)
            _bind_level(low, lv, at)
            if last:
                low.emit_all(store(idx + [at]))
            else:
                low.emit_all(level(n + 1, idx + [at]))
        stmts, _ = low.block(body)
        start, stop, step = (low.lane, low.stop(sizes[lv.dim]), const(low.lanes)) if last else \
            (const(0), sizes[lv.dim], const(1))
        return (kir.For(var, start, stop, step, stmts, lv.span,
                        note="this lane's points of the row" if last else ""),)
    return level(0, [])
