"""The kernels of a scan (analyse/scans.py): a fold per point over the
positions up to its own, computed as one scan of the fold's terms.

The positions of a row (the innermost map level; the outer levels are the
rows, the innermost of them on grid x, the one outside it on z) are shared
among a row's blocks (on grid y, x without rows) of SCAN_LANES threads, one
each SCAN_SHARE positions at least and at most MAX_BLOCKS_A_ROW a row, as
a split's several blocks a row share a reduction. A first kernel (the
stage) folds each block's share of the terms from the operators' identity
and writes the block's total to scratch memory. The second combines the
totals of the blocks before its own (every block alike, in block order),
then walks its share a round of its lanes at a time: each lane computes
the term at its position, the block scans the round's terms (shuffles up
within each warp, then the warps' totals through shared memory), and the
lane's point takes the stream's initial values combined with the earlier
rounds' and blocks' totals and its inclusive (or, `< i`, exclusive) prefix,
then runs the rest of its code and stores its values. A suffix's kernels
walk the positions from the end: the k-th from the start is n - 1 - k.
A chain (analyse/chains.py) has a stage each level: stage L scans the
levels before it over the block's share, from the earlier blocks' totals
of those, to fold level L's terms; the scan kernel scans every level a
round at a time, each position's terms of a level computed from the
running values of the levels before.

Short rows, where they are many, run a warp a row instead (`lanes` 32:
WARP_SCAN_ROWS rows a block, along threadIdx.y): one kernel, its rounds
scanned by shuffles alone, each round's total the last lane's prefix
shuffled to the others; no stage, no barrier, no shared memory.
"""
from __future__ import annotations

from .. import kir, target
from ..analyse import Analysis
from ..analyse.reductions import MAX_BLOCKS_A_ROW
from ..analyse.scans import SCAN_LANES, SCAN_SHARE, WARP_SCAN_ROWS, Scan, ScanLoop
from ..check import typed as T
from ..kir.build import add, const, mul
from ..source import program_stem
from .body import value_parts
from .params import flat_index, output_stores, size_expr, size_name
from .scan_columns import lower_column_scan
from .scan_parts import ScanParts, kernel_start, with_stage
from .split import _bind_level
from .values import at_most, blocks_a_row, in_kernel_min, minimum, partial_slot

SHUFFLE_UP = "shuffle_up"  # target.CALL_SPELLING spells it
SHUFFLE = "shuffle"  # a lane's value read by every lane (target.CALL_SPELLING)


class ScanBody(ScanParts):
    """The untiled lowering, with the scan's loops folded by a block's lanes
    (the stage) or scanned over them (the scan kernel)."""

    def __init__(self, analysis: Analysis, scan: Scan, stage: bool, level: int, axis: str, lanes: int = SCAN_LANES):
        super().__init__(analysis, scan, stage, lanes, level, axis)
        self.live = None  # the scan kernel's lane is at a position of the row
        self.left = None  # the positions of the block's share that lie in the row

    def store_level(self, s: ScanLoop, level: int, parts: list) -> list:
        """The lanes' totals of a chain level's terms (or of every value of
        a loop that is no chain) combined over the block, the first lane
        writing them."""
        mine = [n for n in range(len(s.loop.params)) if s.level(n) == level]
        ctypes, _ = self.identities(s)
        cs = [ctypes[n] for n in mine]
        totals = self._combined(parts, cs, self._merge(parts, [s.operators[n] for n in mine], cs))
        self.emit(kir.If(kir.Bin("==", self.lane, const(0)), self._stores(s, level, totals)))
        return totals

    def at(self, k: str):
        """The position a stage's lane loop variable `k` stands for: counted
        from the block's first, from the end where the scan walks a suffix."""
        at = super().at(k)
        return self.back(at) if self.scan.suffix else at

    def _loop(self, e: T.Loop):
        s = self.scan.of(e)
        if s is None:
            return super()._loop(e)
        if self.walks_levels(s):
            return self._chained(e, s)
        ctypes, ids = self.identities(s)
        shares = self._started(e, ctypes, ids)
        walked = self.walked_end(s.exclusive)
        if self.stage:  # the block's share of the terms, folded and written; the code after it, pruned
            self._lanes_loop(e, walked, lambda k: self._carry(s.term, e.params, shares))
            first = [n for n in range(len(shares)) if s.level(n) == 0]  # (a chain's later levels: later stages)
            folded = dict(zip(first, self.store_level(s, 0, [shares[n] for n in first])))
            for n, b in enumerate(e.results):
                self.env[b] = folded.get(n, shares[n])
            return self.exp(e.rest)
        self.env[e.index] = self.position
        stmts, _ = self.block(lambda: self._carry(s.term, e.params, shares))
        self.emit(kir.If(kir.Bin("<", self.walked, walked), stmts, (), e.span))
        ops, running = s.operators, self.running[T.point(e)]
        scanned = [n for n, w in enumerate(s.whole) if not w]  # (a total is the blocks' totals alone)
        pick = (lambda values: [values[n] for n in scanned])  # noqa: E731
        prefix, round_total = self._scanned(s, pick(shares), pick(ctypes), pick(ids),
                                            self._merge(pick(shares), pick(ops), pick(ctypes)))
        prefixes, totals = dict(zip(scanned, prefix)), dict(zip(scanned, round_total))
        inits = [self.exp(i) for i in e.inits]
        for n, (b, init, run, op, c) in enumerate(zip(e.results, inits, running, ops, ctypes)):
            folded = self._apply(op, run, prefixes[n], c) if n in prefixes else run
            self.env[b] = self.declare(b.name, c, self._apply(op, init, folded, c), e.span)
        for n in scanned:
            self.emit(kir.Assign(running[n].name, self._apply(ops[n], running[n], totals[n], ctypes[n])))
        return self.exp(e.rest)

    def round_scan(self, s: ScanLoop, terms: list, ctypes: list, ids: list):
        """A chain level's terms scanned over the round's lanes: inclusive and exclusive prefixes, and the total."""
        return self._scanned(s, terms, ctypes, ids, self._merge(terms, [s.operators[n] for n in self.picked], ctypes),
                             both=True)

    def _scanned(self, s: ScanLoop, refs: list, ctypes: list, ids: list, merge, both: bool = False):
        """Each lane's prefix of the round's terms (`refs`: inclusive, or
        exclusive for `< i`) and the round's total: a scan by shuffles up
        within each warp, then each lane adds the totals of the warps before
        its own, read from shared memory between two barriers."""
        lane = self.declare("scan_lane", "int", kir.Bin("%", self.lane, const(target.WARP)))
        mask = const(target.FULL_MASK, "unsigned")
        values, step = list(refs), 1
        while step < target.WARP:
            up = [self.declare(f"{r.name}_{step}u", c, kir.Call(SHUFFLE_UP, (mask, v, const(step))))
                  for r, v, c in zip(refs, values, ctypes)]
            took = merge(up, values, f"_{step}m")  # (the earlier lanes' terms first)
            later = kir.Bin(">=", lane, const(step))
            values = [self.declare(f"{r.name}_{step}s", c, kir.Select(later, t, v))
                      for r, t, v, c in zip(refs, took, values, ctypes)]
            step *= 2
        mine = values
        if s.exclusive or both:  # the lane before's inclusive prefix (the warp's first: none), shuffled by every lane
            before = [self.declare(f"{r.name}_1b", c, kir.Call(SHUFFLE_UP, (mask, v, const(1))))
                      for r, v, c in zip(refs, values, ctypes)]
            mine = [self.declare(f"{r.name}_ex", c, kir.Select(kir.Bin("==", lane, const(0)), i, b))
                    for r, b, i, c in zip(refs, before, ids, ctypes)]
        if self.lanes == target.WARP:  # a warp a row: the round's total is its last lane's inclusive prefix
            total = [self.declare(f"{r.name}_wt", c, kir.Call(SHUFFLE, (mask, v, const(target.WARP - 1))))
                     for r, v, c in zip(refs, values, ctypes)]
            return ((values, mine) if both else mine), total
        warps = self.lanes // target.WARP
        buffers = [self.fresh(f"{r.name}_warps") for r in refs]
        self.shared += [kir.SharedAlloc(b, c, warps) for b, c in zip(buffers, ctypes)]
        warp = kir.Bin("/", self.lane, const(target.WARP))
        self.emit(kir.If(kir.Bin("==", lane, const(target.WARP - 1)),
                         tuple(kir.Store(b, warp, v, kir.SHARED) for b, v in zip(buffers, values))))
        self.emit(kir.Barrier("each warp's total of the round is written"))
        before = [self.declare(f"{r.name}_wb", c, i, const_=False) for r, i, c in zip(refs, ids, ctypes)]
        total = [self.declare(f"{r.name}_wt", c, i, const_=False) for r, i, c in zip(refs, ids, ctypes)]
        w = self.fresh("w")

        def fold():
            read = [self.declare(f"{b}_r", c, kir.Load(b, kir.Ref(w), kir.SHARED)) for b, c in zip(buffers, ctypes)]
            ahead = kir.Bin("<", kir.Ref(w), warp)
            return merge(total, read, "_t"), [kir.Select(ahead, m, b) for m, b in zip(merge(before, read, "_b"),
                                                                                       before)]
        stmts, (totals, befores) = self.block(fold)
        body = stmts + tuple(kir.Assign(t.name, v) for t, v in zip(total, totals)) + \
            tuple(kir.Assign(b.name, v) for b, v in zip(before, befores))
        self.emit(kir.For(w, const(0), const(warps), const(1), body, unroll=kir.FULL,
                          note="the warps' totals: all of them, and those before this lane's warp"))
        self.emit(kir.Barrier("the warps' totals are read before the next round writes them"))
        if both:
            return (merge(before, values, "_p"), merge(before, mine, "_pe")), total
        return merge(before, mine, "_p"), total


def lower_scan(analysis: Analysis, scan: Scan, file: str, lanes: int = SCAN_LANES) -> kir.Kernel:
    """The scan kernel, launching the stage that writes each block's totals
    first (down columns: lower/scan_columns.py; a warp a row, `lanes` 32:
    one kernel)."""
    if scan.columns(analysis.kernel):
        return lower_column_scan(analysis, scan, file)
    if lanes == target.WARP:
        return _scan_kernel(analysis, scan, file, stage=False, lanes=lanes)[0]
    last, written = _scan_kernel(analysis, scan, file, stage=False)
    count = kir.Cast(target.INDEX, blocks_a_row(_length(scan, kir.Ref), at_most, SCAN_SHARE, MAX_BLOCKS_A_ROW))
    for lv in analysis.kernel.levels[:-1]:
        count = kir.Bin("*", count, const(lv.size) if isinstance(lv.size, int) else kir.Ref(lv.size.name))
    # (a chain: a stage each level, each scanning the levels before it; chains.py)
    depth = max(s.depth for s in scan.loops)
    stages = tuple(_scan_kernel(analysis, scan, file, stage=True, level=level)[0] for level in range(depth))
    return with_stage(last, stages, written, count, "a block's total of the terms, for each block of each row")


def _length(scan: Scan, ref):
    return const(scan.length) if isinstance(scan.length, int) else ref(scan.length)


def _scan_kernel(analysis: Analysis, scan: Scan, file: str, stage: bool, level: int = 0, lanes: int = SCAN_LANES):
    """One of the scan's kernels (a stage: the one folding the terms of
    chain level `level`), and its scratch arrays (name, C type); `lanes`
    32: the kernel of a warp a row."""
    k = analysis.kernel
    rows, point = k.levels[:-1], k.levels[-1]
    warp = lanes == target.WARP
    low = ScanBody(analysis, scan, stage, level, "y" if rows else "x", lanes)
    params, written = kernel_start(low, k, scan)
    sizes = [size_expr(low, lv.size) for lv in k.levels]
    n = low.length = sizes[-1]
    # (the innermost row level on x, which has room for any count of rows, the one outside it on z; a row's
    # blocks then on y; a warp a row: WARP_SCAN_ROWS rows a block on x, a row's warp along threadIdx.y)
    axes = {lv.dim: "x" if lv.dim == len(rows) - 1 else "z" for lv in rows}
    gtids = [low.declare(f"row{lv.dim}", "int", add(mul(kir.BlockIdx("x"), const(WARP_SCAN_ROWS)), kir.ThreadIdx("y"))
                         if warp and axes[lv.dim] == "x" else kir.BlockIdx(axes[lv.dim]), lv.span) for lv in rows]
    if warp:  # (the row is the warp's alone: no earlier blocks, one share of every position)
        blocks, low.base, low.left = None, const(0), n
    else:  # (the grid's blocks; each block's share whole rounds of its lanes, so that a lane past its share is
        # past the row's end, and the blocks past the last position have no rounds)
        blocks = low.declare("blocks", "int", blocks_a_row(n, in_kernel_min, SCAN_SHARE, MAX_BLOCKS_A_ROW))
        rounds = add(kir.Bin("/", kir.Bin("-", n, const(1)), mul(blocks, const(SCAN_LANES))), const(1))
        low.share = low.declare("share", "int", mul(rounds, const(SCAN_LANES)))
        low.base = low.declare("first", "int", mul(kir.BlockIdx(low.axis), low.share))
        low.left = low.declare("left", "int", in_kernel_min(kir.Bin("-", n, low.base), low.share))
        row = flat_index(gtids, sizes, lambda extent: extent)
        low.slot = lambda block: partial_slot(block, row, blocks)
    outputs = [p for p in params if p.role == "output"]

    def rows_bound():
        for lv, g in zip(rows, gtids):
            _bind_level(low, lv, g)

    def folds():  # (any point: the terms are alike at every one)
        _bind_level(low, point, minimum(low.base, kir.Bin("-", n, const(1))))
        low.exp(k.body)

    def scans():
        for s in scan.loops:
            low.running[T.point(s.loop)] = _earlier_blocks(low, s, blocks) if not warp else [
                low.declare(f"{p.name}_run", c, i, const_=False) for p, c, i in zip(s.loop.params, *low.identities(s))]
        chains = low.start_folding(level) if stage else []
        step = low.fresh("k")

        def round_():
            low.walked = at = low.declare("at", "int", add(low.base, add(kir.Ref(step), low.lane)))
            low.live = low.declare("live", "bool", kir.Bin("<", at, n))
            low.position = low.back(at) if scan.suffix else at
            clamped = minimum(at, kir.Bin("-", n, const(1)))
            _bind_level(low, point, low.declare(f"i{point.dim}", "int", low.back(clamped) if scan.suffix else clamped))
            values = value_parts(low.exp(k.body))
            if not stage:
                low.emit(kir.If(low.live, output_stores(
                    outputs, flat_index(gtids + [low.position], sizes, lambda extent: extent), values, k.span)))
        stmts, _ = low.block(round_)
        low.emit(kir.For(step, const(0), low.left, const(lanes), stmts, point.span,
                         note="the block's share, a round of its lanes at a time" if not warp else
                         "the row, a round of the warp's lanes at a time"))
        for s in chains:
            low.store_level(s, level, low.folding[T.point(s.loop)])

    def walk():
        rows_bound()
        (folds if stage and level == 0 else scans)()
    stmts, _ = low.block(walk)
    grid = [None, None, None]
    if warp:  # (the innermost row level's warps past its count leave before they read anything)
        inner = rows[-1]
        stmts = (kir.If(kir.Bin("<", gtids[-1], sizes[len(rows) - 1]), stmts, (), inner.span),)
        grid[0] = (size_name(inner.size), WARP_SCAN_ROWS)
        for lv in rows[:-1]:
            grid[target.AXES.index(axes[lv.dim])] = (size_name(lv.size), 1)
    else:
        grid[target.AXES.index(low.axis)] = (size_name(point.size), SCAN_SHARE, MAX_BLOCKS_A_ROW)
        for lv in rows:
            grid[target.AXES.index(axes[lv.dim])] = (size_name(lv.size), 1)
    who = "folds each block's share of the terms" if stage and level == 0 else \
        f"scans each block's share of the chain's first {level} level(s) and folds the next's terms" if stage else \
        "combines the earlier blocks' totals, then scans its share a round at a time"
    summary = (f"scan: a warp a row, {WARP_SCAN_ROWS} rows a block, a round of its lanes at a time; {scan.reason}",) \
        if warp else (f"scan: blocks of {SCAN_LANES} threads, one each {SCAN_SHARE:,} positions of a row at least "
                      f"(at most {MAX_BLOCKS_A_ROW:,}); {who}; {scan.reason}",)
    block = (target.WARP, WARP_SCAN_ROWS, 1) if warp else (SCAN_LANES, 1, 1)
    kernel = kir.Kernel(f"tiler_{program_stem(file)}_scan{lanes}", tuple(params), tuple(low.shared),
                        tuple(low.out) + stmts, block, tuple(grid), True, file, summary, k.span, lanes=lanes)
    return kernel, written


def _earlier_blocks(low: ScanBody, s: ScanLoop, blocks) -> list:
    """A loop's totals of the blocks before this one (of all of them for a
    value that is a total), each lane folding every SCAN_LANES-th, combined
    over the block's lanes: the values its rounds start from."""
    ctypes, _ = low.identities(s)
    shares = low.earlier_totals(s, blocks, low.lane, SCAN_LANES, "_before",
                                "this lane's share of the earlier blocks' totals")
    combined = low._combined(shares, ctypes, low._merge(shares, s.operators, ctypes))
    return [low.declare(f"{p.name}_run", c, v, const_=False) for p, v, c in zip(s.loop.params, combined, ctypes)]

