"""Program points: every stream and loop of a built kernel numbered, 1, 2,
... in the order a walk of the kernel meets them (the host prelude, the
levels' arguments and lets, then the body). Later stages name a stream or a loop by its number
(`T.point`): a schedule's stream plans, the reductions a row splits, the
loops a schedule joins; a rewrite that replaces a node keeps its number.
One walk, a chain of lets followed without recursion."""
from __future__ import annotations

import dataclasses
import itertools

from ..check import typed as T
from ..tree import descendants, map_children

POINTED = (T.Stream, T.Loop)


def numbered(k: T.Kernel) -> T.Kernel:
    """The kernel with its streams and loops numbered (unchanged where it has none)."""
    in_prelude = any(isinstance(n, POINTED) for pl in k.prelude if T.is_exp(pl.value)
                     for n in descendants(pl.value, T.is_exp))
    if not in_prelude and not T.node_kinds(k) & set(POINTED):  # (node_kinds walks the levels and the body)
        return k
    number = _Numbering()
    prelude = tuple(dataclasses.replace(pl, value=number(pl.value)) if T.is_exp(pl.value) else pl for pl in k.prelude)
    levels = tuple(dataclasses.replace(lv, args=tuple(number(a) for a in lv.args),
                                       lets=tuple((b, number(v)) for b, v in lv.lets)) for lv in k.levels)
    return dataclasses.replace(k, prelude=prelude, levels=levels, body=number(k.body))


class _Numbering:
    def __init__(self):
        self.count = itertools.count(1)
        self.given: dict[int, int] = {}  # a node met twice (shared by two places) is one point: by its identity

    def __call__(self, e):
        if isinstance(e, T.Let):  # a chain of lets, without recursion
            chain = []
            while isinstance(e, T.Let):
                chain.append(e)
                e = e.body
            body = self(e)
            for let in reversed(chain):
                value = self(let.value)
                body = let if value is let.value and body is let.body else \
                    dataclasses.replace(let, value=value, body=body)
            return body
        new = map_children(e, self, T.is_exp) if T.is_exp(e) else e
        if isinstance(new, T.Stream) and new.combine is not None:  # (its combine's loops: points too)
            new = dataclasses.replace(new, combine=dataclasses.replace(new.combine, body=self(new.combine.body)))
        if isinstance(e, POINTED):
            point = self.given.setdefault(id(e), next(self.count))
            new = dataclasses.replace(new, point=point)
        return new
