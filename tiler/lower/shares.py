"""How the shares of a split reduction combine (lower/split.py): two
shares by one operator a carried value, an extreme value with its index (a
pick: the better value, ties by the iteration each came from) or an online
log-sum-exp's (maximum, rescaled sum) pair (analyse/online.py), by a
streamRed's combine; and a row's
shares over its lanes (`Shares`, which SplitBody mixes in)."""
from __future__ import annotations

from .. import kir, target
from ..analyse.folds import Operator
from ..analyse.online import Online
from ..analyse.reductions import COLUMN_ROWS, Pick
from ..analyse.welford import Welford
from ..kir.build import add, const, mul
from . import narrow

SHUFFLE = "shuffle_xor"  # target.CALL_SPELLING spells it


def never(pick: Pick) -> int:
    """The iteration of a share that took none: it loses every tie."""
    return target.INT_MAX if pick.strict else -1


def better(pick: Pick, a, b, op: str):
    """`a` is a better extreme than `b` (`op` "<" strictly, "<=" or as good)."""
    return kir.Bin(op, a, b) if pick.smaller else kir.Bin(op.replace("<", ">"), a, b)


def pick_wins(pick: Pick, other, mine):
    """The other (value, index, iteration) share wins: a better value, or an
    equal one from an earlier iteration (`<`: the first is kept) or a later
    one (`<=`: the last)."""
    earlier = kir.Bin("<" if pick.strict else ">", other[2], mine[2])
    return kir.Bin("||", better(pick, other[0], mine[0], "<"),
                   kir.Bin("&&", kir.Bin("==", other[0], mine[0]), earlier))


def compared(share: list, ctype: str) -> list:
    """A pick's share (value, index, iteration) with its value as a
    comparison reads it: a 16-bit one as a float (lower/narrow.py)."""
    return [narrow.widened(share[0], ctype) if narrow.is_narrow(ctype) else share[0], *share[1:]]


def rescaled_pair(declare, online: Online, refs: list, ctypes: list, mine, other, suffix: str, fast: bool) -> list:
    """Two (maximum, sum) shares merged (online.combine): the larger
    maximum, each sum rescaled to it; a share already at it kept as it is
    (so two at -inf, or at inf, give no nan). `declare` names each value
    after `refs` and `suffix`."""
    m, t = online.maximum, online.total
    c = ctypes[m]
    exp = target.math_function(c, "exp", fast)

    def rescaled(total, mx, big):
        return kir.Select(kir.Bin("==", mx, big), total, kir.Bin("*", total, kir.Call(exp, (kir.Bin("-", mx, big),))))

    big = declare(f"{refs[m].name}{suffix}", c, kir.Call(target.math_function(c, "max", fast), (mine[m], other[m])))
    total = declare(f"{refs[t].name}{suffix}", c, kir.Bin("+", rescaled(mine[t], mine[m], big),
                                                          rescaled(other[t], other[m], big)))
    out = [None, None]
    out[m], out[t] = big, total
    return out


def chan_triple(declare, welford: Welford, refs: list, ctypes: list, mine, other, suffix: str) -> list:
    """Two (count, mean, M2) shares merged by Chan's formula (welford.combine):
    k = ka + kb, w = kb / k (0 when both are empty), d = mb - ma; the mean
    ma + d * w and M2 Ma + Mb + d * d * ka * w. `declare` names each value
    after `refs` and `suffix`."""
    n, mu, m2 = welford.count, welford.mean, welford.m2
    c = ctypes[mu]

    def real(e):  # a count in the mean's type
        return e if ctypes[n] == c else kir.Cast(c, e)
    k = declare(f"{refs[n].name}{suffix}", ctypes[n], kir.Bin("+", mine[n], other[n]))
    w = declare(f"{refs[n].name}{suffix}w", c, kir.Select(kir.Bin(">", k, const(0, ctypes[n])),
                                                         kir.Bin("/", real(other[n]), real(k)), const(0.0, c)))
    d = declare(f"{refs[mu].name}{suffix}d", c, kir.Bin("-", other[mu], mine[mu]))
    out = [None, None, None]
    out[n] = k
    out[mu] = declare(f"{refs[mu].name}{suffix}", c, kir.Bin("+", mine[mu], kir.Bin("*", d, w)))
    out[m2] = declare(f"{refs[m2].name}{suffix}", ctypes[m2], kir.Bin("+", kir.Bin("+", mine[m2], other[m2]), kir.Bin(
        "*", kir.Bin("*", d, d), kir.Bin("*", real(mine[n]), w))))
    return out


class Shares:
    """A row's shares merged and combined over its lanes, for a lowering
    with `lane`, `lanes` and `columns` (rows side by side) and the body
    lowering's declare, emit and block."""

    def _online_merge(self, online: Online, refs: list, ctypes: list):
        """Two (maximum, sum) shares merged (named after `refs`)."""
        def merge(mine, other, suffix):
            return rescaled_pair(self.declare, online, refs, ctypes, mine, other, suffix, self.fast_math)
        return merge

    def _welford_merge(self, welford: Welford, refs: list, ctypes: list):
        """Two (count, mean, M2) shares merged (named after `refs`). Chan's
        formula rounds differently with its operands swapped: the butterfly
        gives it the lower lane's share first on both lanes (`ordered`)."""
        def merge(mine, other, suffix):
            return chan_triple(self.declare, welford, refs, ctypes, mine, other, suffix)
        merge.ordered = True
        # the lanes' merges are one chain, each waiting on the last, and each divides: unrolled, the chain
        # overlaps nothing, and the calls of a division's slow path spilled a column combine's registers (ptxas,
        # a_col_welford_f64)
        merge.rolled = True
        return merge

    def _combine_merge(self, combine, refs: list, ctypes: list):
        """Two shares merged by a streamRed's combine (named after `refs`):
        its parameters the first share's values, then the other's. A
        combine need not round alike both ways: `ordered`, as Chan's."""
        def merge(mine, other, suffix):
            for p, v, c in zip(combine.params, list(mine) + list(other), ctypes * 2):
                self.env[p] = self.declare(f"{p.name}{suffix}", c, v)
            out = self.exp(combine.body)
            return [self.declare(f"{r.name}{suffix}", c, v)
                    for r, v, c in zip(refs, out if isinstance(out, tuple) else (out,), ctypes)]
        merge.ordered = True
        return merge

    def _pick_merge(self, pick: Pick, refs: list, ctypes: list):
        """Two (value, index, iteration) shares merged: the better value, ties
        by iteration (named after `refs`, the shares they stand for)."""
        def merge(mine, other, suffix):
            wins = self.declare(f"{refs[0].name}{suffix}w", "bool",
                                pick_wins(pick, compared(other, ctypes[0]), compared(mine, ctypes[0])))
            return [self.declare(f"{r.name}{suffix}", c, kir.Select(wins, o, m))
                    for r, m, o, c in zip(refs, mine, other, ctypes)]
        return merge

    def _apply(self, op: Operator, a, b, ctype: str):
        if narrow.is_narrow(ctype):
            return narrow.operation(op.value, a, b, ctype) if op in (Operator.ADD, Operator.MUL) else \
                narrow.builtin(op.value, (a, b), ctype)
        if op in (Operator.ADD, Operator.MUL):  # a program's integers wrap around (body._wraps)
            return kir.Bin(op.value, a, b, self._wraps(op.value, ctype))
        return kir.Call(target.math_function(ctype, op.value, self.fast_math), (a, b))

    def _merge(self, refs: list, ops, ctypes: list):
        """Two lists of shares merged by their operators (named after `refs`)."""
        def merge(mine, other, suffix):
            return [self.declare(f"{r.name}{suffix}", c, self._apply(op, m, o, c))
                    for r, m, o, op, c in zip(refs, mine, other, ops, ctypes)]
        return merge

    def _combined(self, refs, ctypes, merge) -> list:
        """Shares combined over the row's threads, every thread getting the
        result: a butterfly of shuffles in each warp (threads i and i ^ step
        hold the same values after each step), then, past one warp, each
        warp's result through shared memory between two barriers.
        `merge(mine, other, suffix)` declares two shares merged; where its
        rounding depends on the operands' order (`merge.ordered`), both lanes
        of a pair merge the lower lane's share first, so they stay equal."""
        if self.columns:
            return self._combined_down(refs, ctypes, merge)
        ordered = getattr(merge, "ordered", False)
        values = list(refs)
        step = target.WARP // 2
        while step:
            other = [self.declare(f"{r.name}_{step}o", c, kir.Call(SHUFFLE, (const(target.FULL_MASK, "unsigned"),
                                                                             v, const(step))))
                     for r, v, c in zip(refs, values, ctypes)]
            if ordered:  # the upper lane of the pair puts its partner's share first
                upper = self.declare(f"{refs[0].name}_{step}up", "bool",
                                     kir.Bin("!=", kir.Bin("%", kir.Bin("/", self.lane, const(step)), const(2)),
                                             const(0)))
                values, other = ([kir.Select(upper, o, v) for v, o in zip(values, other)],
                                 [kir.Select(upper, v, o) for v, o in zip(values, other)])
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



    def _combined_down(self, refs, ctypes, merge) -> list:
        """Shares of rows side by side combined down the block (a row's lanes
        lie in different warps): each lane writes its share to shared memory,
        and after a barrier every lane merges its row's shares in lane order,
        then a second barrier before another reduction writes them."""
        x = kir.ThreadIdx("x")
        buffers = [self.fresh(f"{r.name}_lanes") for r in refs]
        self.shared += [kir.SharedAlloc(b, c, self.lanes * COLUMN_ROWS) for b, c in zip(buffers, ctypes)]

        def at(lane):
            return add(mul(lane, const(COLUMN_ROWS)), x)
        self.emit_all(kir.Store(b, at(self.lane), r, kir.SHARED) for b, r in zip(buffers, refs))
        self.emit(kir.Barrier("each lane's share is written"))
        totals = [self.declare(f"{r.name}_all", c, kir.Load(b, x, kir.SHARED), const_=False)
                  for r, b, c in zip(refs, buffers, ctypes)]
        w = self.fresh("w")
        stmts, merged = self.block(lambda: merge(totals, [kir.Load(b, at(kir.Ref(w)), kir.SHARED) for b in buffers],
                                                 "_l"))
        body = stmts + tuple(kir.Assign(t.name, m) for t, m in zip(totals, merged))
        self.emit(kir.For(w, const(1), const(self.lanes), const(1), body,
                          unroll=1 if getattr(merge, "rolled", False) else kir.FULL,
                          note="the row's shares in lane order"))
        self.emit(kir.Barrier("the shares are read before another reduction writes them"))
        return totals
