"""How two shares of a split reduction combine, beyond one operator a
carried value (lower/split.py): an extreme value with its index (a pick:
the better value, ties by the iteration each came from) and an online
log-sum-exp's (maximum, rescaled sum) pair (analyse/online.py)."""
from __future__ import annotations

from .. import kir, target
from ..analyse.online import Online
from ..analyse.reductions import Pick


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
