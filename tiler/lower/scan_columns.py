"""The kernels of a scan down columns (analyse/scans.py: the positions are
the map level outside the innermost, whose points are the columns): a
thread a column, each walking its block's share of the positions in order.

Blocks of COLUMN_SCAN_LANES consecutive columns (along x: a warp's reads
of one position are one run) each take a share of the positions (along y:
COLUMN_SCAN_SHARE positions at least, at most COLUMN_SCAN_BLOCKS shares);
the level outside, where there is one, is on z. A first kernel (the stage)
folds each thread's share of its column's terms from the operators'
identity and writes the total to scratch memory; the second starts each
thread from the totals of the shares before its own (all of them for a
total), then walks its share: each position's term is folded into the
running value, and that position's point takes the stream's initial
values combined with it (before the term, for an exclusive scan), runs the
rest of its code and stores its values. No thread waits for another: no
barrier, no shuffle. A suffix's positions are walked from the end.
"""
from __future__ import annotations

from .. import kir, target
from ..analyse import Analysis
from ..analyse.scans import COLUMN_SCAN_BLOCKS, COLUMN_SCAN_LANES, COLUMN_SCAN_SHARE, SCAN_LANES, Scan
from ..check import typed as T
from ..kir.build import add, const, mul
from ..source import program_stem
from .body import value_parts
from .params import flat_index, output_stores, size_expr, size_name
from .scan_parts import ScanParts, kernel_start, with_stage
from .split import _bind_level
from .values import at_most, blocks_a_row, in_kernel_min, minimum


class ColumnScanBody(ScanParts):
    """The untiled lowering, with the scan's loops folded over a thread's
    share of its column (the stage) or carried along it (the scan kernel)."""

    def __init__(self, analysis: Analysis, scan: Scan, stage: bool, level: int = 0):
        super().__init__(analysis, scan, stage, 1, level, "y")
        self.base = self.share = None  # the first position of the thread's share, and how many it has

    def round_scan(self, s, terms: list, ctypes: list, ids: list):
        """A thread's round is one position: nothing before it, its terms the prefix and the total."""
        return (terms, ids), terms

    def _loop(self, e: T.Loop):
        s = self.scan.of(e)
        if s is None:
            return super()._loop(e)
        if self.walks_levels(s):
            return self._chained(e, s)
        ctypes, ids = self.identities(s)
        ops = s.operators
        walked = self.walked_end(s.exclusive)
        if self.stage:  # the share of the column's terms, folded and written; the code after it, pruned
            shares = self._started(e, ctypes, ids)
            q = self.fresh("q")

            def fold():
                self.env[e.index] = self.back(kir.Ref(q)) if self.scan.suffix else kir.Ref(q)
                self._carry(s.term, e.params, shares)
            stmts, _ = self.block(fold)
            stop = in_kernel_min(walked, add(self.base, self.share))
            self.emit(kir.For(q, self.base, stop, const(1), stmts, e.span, note="the share of the column's terms"))
            self.store_level(s, 0, [t for n, t in enumerate(shares) if s.level(n) == 0])  # (a chain's first)
            for b, t in zip(e.results, shares):
                self.env[b] = t
            return self.exp(e.rest)
        running = self.running[T.point(e)]
        inits = [self.exp(i) for i in e.inits]
        before = [self.declare(f"{p.name}_before", c, r) for p, c, r in zip(e.params, ctypes, running)]
        for p, r in zip(e.params, running):
            self.env[p] = r
        self.env[e.index] = self.position
        stmts, values = self.block(lambda: value_parts(self.exp(s.term)))
        fold = stmts + tuple(kir.Assign(r.name, v) for r, v, w in zip(running, values, s.whole) if not w)
        self.emit(kir.If(kir.Bin("<", self.walked, walked), fold, (), e.span))
        folded = [b if s.exclusive or w else r for b, r, w in zip(before, running, s.whole)]
        for b, init, v, op, c in zip(e.results, inits, folded, ops, ctypes):
            self.env[b] = self.declare(b.name, c, self._apply(op, init, v, c), e.span)
        return self.exp(e.rest)


def lower_column_scan(analysis: Analysis, scan: Scan, file: str) -> kir.Kernel:
    """The scan kernel, launching the stage that writes each share's totals first."""
    last, written, count = _kernel(analysis, scan, file, stage=False)
    stages = tuple(_kernel(analysis, scan, file, stage=True, level=level)[0]
                   for level in range(max(s.depth for s in scan.loops)))  # (a stage each level of a chain)
    return with_stage(last, stages, written, count, "a share's total of a column's terms, for each share of each column")


def _kernel(analysis: Analysis, scan: Scan, file: str, stage: bool, level: int = 0):
    """One of the column scan's kernels (a stage: the one folding the terms
    of chain level `level`), its scratch arrays (name, C type) and their
    length."""
    k = analysis.kernel
    low = ColumnScanBody(analysis, scan, stage, level)
    params, written = kernel_start(low, k, scan)
    outer, point, column = k.levels[:scan.level], k.levels[scan.level], k.levels[-1]
    sizes = [size_expr(low, lv.size) for lv in k.levels]
    n, m = sizes[scan.level], sizes[-1]
    low.length = n
    rows = [low.declare(f"row{lv.dim}", "int", kir.BlockIdx("z"), lv.span) for lv in outer]
    col = low.declare(f"i{column.dim}", "int", add(mul(kir.BlockIdx("x"), const(COLUMN_SCAN_LANES)),
                                                   kir.ThreadIdx("x")))
    blocks = low.declare("blocks", "int", blocks_a_row(n, in_kernel_min, COLUMN_SCAN_SHARE, COLUMN_SCAN_BLOCKS))
    low.share = low.declare("share", "int", add(kir.Bin("/", kir.Bin("-", n, const(1)), blocks), const(1)))
    low.base = low.declare("first", "int", mul(kir.BlockIdx(low.axis), low.share))
    row = rows[0] if rows else const(0)
    # (each share's totals of every column together: a warp's columns write and read one run)
    low.slot = lambda share: add(mul(kir.Cast(target.INDEX, add(mul(row, blocks), share)), m), col)
    for lv, g in zip(outer, rows):
        _bind_level(low, lv, g)
    outputs = [p for p in params if p.role == "output"]

    def folds():  # (any point of the share: the terms are alike at every one)
        position = minimum(low.base, kir.Bin("-", n, const(1)))
        _bind_level(low, point, low.back(position) if scan.suffix else position)
        _bind_level(low, column, col)
        low.exp(k.body)

    def scans():
        for s in scan.loops:
            low.running[T.point(s.loop)] = _earlier_shares(low, s, blocks)
        chains = low.start_folding(level) if stage else []
        q = low.fresh("q")

        def walk():
            low.walked = kir.Ref(q)
            low.position = low.back(kir.Ref(q)) if scan.suffix else kir.Ref(q)
            _bind_level(low, point, low.position)
            _bind_level(low, column, col)
            values = value_parts(low.exp(k.body))
            if not stage:
                low.emit_all(output_stores(outputs, flat_index(rows + [low.position, col], sizes,
                                                               lambda extent: extent), values, k.span))
        stmts, _ = low.block(walk)
        low.emit(kir.For(q, low.base, in_kernel_min(n, add(low.base, low.share)), const(1), stmts, point.span,
                         note="the share's positions, in order"))
        for s in chains:
            low.store_level(s, level, low.folding[T.point(s.loop)])

    stmts, _ = low.block(folds if stage and level == 0 else scans)
    body = (kir.If(kir.Bin("<", col, m), stmts),)
    grid = [(size_name(column.size), COLUMN_SCAN_LANES), (size_name(point.size), COLUMN_SCAN_SHARE,
                                                          COLUMN_SCAN_BLOCKS), None]
    if outer:
        grid[2] = (size_name(outer[0].size), 1)
    who = "folds each thread's share of its column's terms" if stage and level == 0 else \
        f"walks each thread's share of the chain's first {level} level(s) and folds the next's terms" if stage else \
        "starts from the earlier shares' totals, then walks its share in order"
    summary = (f"scan down columns: a thread a column, {COLUMN_SCAN_LANES} columns a block, each column's positions "
               f"in shares of {COLUMN_SCAN_SHARE} at least (at most {COLUMN_SCAN_BLOCKS}); {who}; {scan.reason}",)
    kernel = kir.Kernel(f"tiler_{program_stem(file)}_scan{SCAN_LANES}", tuple(params), tuple(low.shared),
                        tuple(low.out) + body, (COLUMN_SCAN_LANES, 1, 1), tuple(grid), True, file, summary, k.span)
    count = kir.Cast(target.INDEX, blocks_a_row(_size(point.size), at_most, COLUMN_SCAN_SHARE, COLUMN_SCAN_BLOCKS))
    for lv in (*outer, column):
        count = kir.Bin("*", count, _size(lv.size))
    return kernel, written, count


def _size(size):
    return const(size) if isinstance(size, int) else kir.Ref(size.name)


def _earlier_shares(low: ColumnScanBody, s, blocks) -> list:
    """A loop's totals of the shares of this thread's column before its own
    (of all of them for a value that is a total), in order: the values its
    walk starts from."""
    return low.earlier_totals(s, blocks, const(0), 1, "_run", "the totals of the column's earlier shares")
