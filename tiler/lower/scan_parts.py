"""What the kernels of a scan along rows (scan.py) and down columns
(scan_columns.py) share: the body lowering's state (`ScanParts`), the
kernels' parameters and scratch arrays, and the scan kernel launching its
stage."""
from __future__ import annotations

import dataclasses

from .. import kir
from ..analyse import Analysis
from ..analyse.folds import identity
from ..analyse.scans import Scan, ScanLoop
from ..check import typed as T
from ..kir.build import const
from .body import ctype_of
from .params import bind_prelude, kernel_params
from .split import SplitBody


class ScanParts(SplitBody):
    """The untiled lowering of one of a scan's kernels (`stage`: the one
    folding each share of the terms), and where its scanned loops' shares'
    totals lie."""

    def __init__(self, analysis: Analysis, scan: Scan, stage: bool, lanes: int, level: int, axis: str):
        super().__init__(analysis, None, lanes)
        self.scan, self.stage = scan, stage
        self.axis = axis  # the grid's axis along a row's (or column's) shares
        self.slot = None  # where a share's totals lie in the scratch arrays: slot(share)
        self.partials: dict[int, tuple[str, ...]] = {}  # a scanned loop's scratch arrays, by its program point
        # the scan kernel's position, as walked (from the end for a suffix) and in the row or column
        self.walked = self.position = None
        self.running: dict[int, list] = {}  # each loop's totals of the positions before the current one's
        self.length = None  # the positions a row or column has
        # a stage: the chain level whose terms it folds (the levels before it scanned on the way: chains.py)
        self.level = level
        self.folding: dict[int, list] = {}  # a later stage's lane totals of its level's terms, by the loop's point
        self.picked: list[int] = []  # the carried values of the chain level being scanned

    def back(self, at):
        """Position `at` counted from the end (a suffix's scan walks the positions backwards)."""
        return self.declare("back", "int", kir.Bin("-", kir.Bin("-", self.length, const(1)), at))

    def identities(self, s: ScanLoop) -> tuple[list, list]:
        """A scanned loop's carried values' C types, and its operators' identities in them."""
        ctypes = [ctype_of(p.type) for p in s.loop.params]
        return ctypes, [const(identity(op, p.type.kind), c) for op, p, c in zip(s.operators, s.loop.params, ctypes)]

    def earlier_totals(self, s: ScanLoop, blocks, start, step: int, suffix: str, note: str) -> list:
        """A loop's totals of the shares before this block's along its axis
        (of every share for a value that is a total), read from the scratch
        arrays and folded from the identity in share order, over shares
        `start`, `start + step`, ... (a lane's part of them, where a
        block's lanes split them)."""
        ctypes, ids = self.identities(s)
        folded = [self.declare(f"{p.name}{suffix}", c, i, const_=False) for p, i, c in zip(s.loop.params, ids, ctypes)]
        merge = self._merge(folded, s.operators, ctypes)
        names = self.partials[T.point(s.loop)]
        b = self.fresh("b")
        total = any(s.whole)

        def fold():
            merged = merge(folded, [kir.Load(a, self.slot(kir.Ref(b))) for a in names], "_p")
            if not total:
                return merged
            earlier = kir.Bin("<", kir.Ref(b), kir.BlockIdx(self.axis))
            return [m if w else kir.Select(earlier, m, v) for m, v, w in zip(merged, folded, s.whole)]
        stmts, merged = self.block(fold)
        self.emit(kir.For(b, start, blocks if total else kir.BlockIdx(self.axis), const(step),
                          stmts + tuple(kir.Assign(v.name, m) for v, m in zip(folded, merged)), s.span,
                          note=note + (" (all of them for a total)" if total else "")))
        return folded

    def _chained(self, e: T.Loop, s: ScanLoop):
        """A chain's round (chains.py; down a column a thread's round is
        one position): level by level, each lane's terms computed from the
        running values of the levels before at its position (the start
        values, the earlier shares' and rounds' totals, and the round's
        exclusive prefix), then scanned over the round (`round_scan`); a
        later stage stops at its own level, folding its terms into the
        lane's totals (`folding`)."""
        ctypes, ids = self.identities(s)
        ops, running, point = s.operators, self.running.get(T.point(e)), T.point(e)
        count = len(e.params)
        if self.stage and s.depth <= self.level:  # (its levels are all folded by earlier stages)
            for b, i in zip(e.results, e.inits):
                self.env[b] = self.exp(i)
            return self.exp(e.rest)
        inits = [self.exp(i) for i in e.inits]
        walked = self.walked_end(s.exclusive)
        self.env[e.index] = self.position
        before, after, totals = [None] * count, [None] * count, {}
        for level in range(self.level + 1 if self.stage else s.depth):
            terms = [self.declare(f"{p.name}_l{level}", c, before[n] if s.level(n) < level else i, const_=False)
                     for n, (p, c, i) in enumerate(zip(e.params, ctypes, ids))]
            for p, t in zip(e.params, terms):
                self.env[p] = t
            stmts, _ = self.block(lambda terms=terms: self._carry(s.term, e.params, terms))
            self.emit(kir.If(kir.Bin("<", self.walked, walked), stmts, (), e.span))
            mine = [n for n in range(count) if s.level(n) == level]
            if self.stage and level == self.level:
                self.emit_all(kir.Assign(a.name, self._apply(ops[n], a, terms[n], ctypes[n]))
                              for a, n in zip(self.folding[point], mine))
                break
            self.picked = mine
            (inclusive, exclusive), total = self.round_scan(s, [terms[n] for n in mine], [ctypes[n] for n in mine],
                                                            [ids[n] for n in mine])
            for n, inc, exc, t in zip(mine, inclusive, exclusive, total):
                name, c, op = e.params[n].name, ctypes[n], ops[n]
                before[n] = self.declare(f"{name}_at", c, self._apply(op, inits[n], self._apply(op, running[n], exc, c),
                                                                      c))
                after[n] = self.declare(f"{name}_to", c, self._apply(op, inits[n], self._apply(op, running[n], inc, c),
                                                                     c))
                totals[n] = t
        for n, b in enumerate(e.results):
            value = inits[n] if self.stage else before[n] if s.exclusive else after[n]
            self.env[b] = self.declare(b.name, ctypes[n], value, e.span)
        self.emit_all(kir.Assign(running[n].name, self._apply(ops[n], running[n], t, ctypes[n]))
                      for n, t in totals.items())
        return self.exp(e.rest)

    def start_folding(self, level: int) -> list:
        """A later stage's chains (those past `level`), each with its lanes'
        totals of that level's terms started from the identity (`folding`)."""
        chains = [s for s in self.scan.loops if s.depth > level]
        for s in chains:
            ctypes, ids = self.identities(s)
            self.folding[T.point(s.loop)] = [self.declare(f"{s.loop.params[v].name}_part", ctypes[v], ids[v],
                                                          const_=False)
                                             for v in range(len(ids)) if s.level(v) == level]
        return chains

    def walks_levels(self, s: ScanLoop) -> bool:
        """Whether this kernel scans the loop level by level (`_chained`): a
        later stage, or the scan kernel of a chain."""
        return self.level > 0 if self.stage else s.depth > 1

    def store_level(self, s: ScanLoop, level: int, parts: list) -> list:
        """A share's totals of a chain level's terms (`parts`, one each value
        at that level; every value of a loop that is no chain) written to
        the scratch arrays, and returned: a thread's own, where a thread
        walks its column's share (scan.py combines a block's lanes')."""
        self.emit_all(self._stores(s, level, parts))
        return parts

    def _stores(self, s: ScanLoop, level: int, totals: list) -> tuple:
        """The stores of a level's totals in this share's slot."""
        names = self.partials[T.point(s.loop)]
        mine = [n for n in range(len(s.loop.params)) if s.level(n) == level]
        return tuple(kir.Store(names[n], self.slot(kir.BlockIdx(self.axis)), t) for n, t in zip(mine, totals))

    def round_scan(self, s: ScanLoop, terms: list, ctypes: list, ids: list):
        raise NotImplementedError  # the row's lanes (scan.py) or a column's one position (scan_columns.py)

    def walked_end(self, exclusive: bool):
        """The positions whose terms a loop folds, as walked: an exclusive scan
        never needs the term at the last position it walks, which the program
        never computes."""
        return self.length if not exclusive else kir.Bin("-", self.length, const(1))


def kernel_start(low: ScanParts, k: T.Kernel, scan: Scan) -> tuple[list, list]:
    """The kernel's parameters, and its scratch arrays (name, C type): one
    each carried value of each scanned loop (named the same in both
    kernels, as the lowering meets them)."""
    params = kernel_params(low, k, lambda extent: extent, {}, frozenset())
    written = []
    for s in scan.loops:
        names = tuple(low.fresh("partials") for _ in s.operators)
        low.partials[T.point(s.loop)] = names
        written += zip(names, (ctype_of(p.type) for p in s.loop.params))
    bind_prelude(low, k)
    return params, written


def with_stage(last: kir.Kernel, stages, written: list, count, what: str) -> kir.Kernel:
    """The scan kernel launching `stages` (one kernel, or several in order)
    first, all taking the scratch arrays `written` (`count` elements each,
    holding `what`)."""
    stages = stages if isinstance(stages, tuple) else (stages,)
    params = last.params + tuple(kir.Param(n, c, kir.SCRATCH) for n, c in written)
    scratch = tuple(kir.Scratch(n, c, count, what) for n, c in written)
    return dataclasses.replace(last, params=params, stages=tuple(dataclasses.replace(s, params=params) for s in stages),
                               scratch=scratch).renamed(last.name)
