"""The products that start a 64-bit offset, marked once a kernel is lowered.

A flat offset into an array that may pass 2^31 elements is 64-bit from its
first product on: an index times a size cast to `long long`. Where both
factors are 32-bit ints, the product is marked `widen` and written as one
widening multiply (target.WIDE_MUL: tiler.cuh says why). That needs every
operand's C type, which only the lowered kernel has (a program's `i64` lets,
parameters and array elements are 64-bit and must stay C's product). One
table of names does: a name declared twice in a kernel (a copy's vector
`v_`, the interior copy of a body) is declared alike or never multiplied.
"""
from __future__ import annotations

import dataclasses

from .. import target
from ..kir.build import rewrite
from ..kir.kernel import Kernel, Module
from ..kir.nodes import MINMAX, ArrayDecl, Bin, BlockIdx, Call, Cast, Const, Decl, For, Load, Ref, Select, ThreadIdx, Un
from ..kir.walkers import walk

_ARITHMETIC = ("+", "-", "*", "/", "%")


def widened_module(m: Module) -> Module:
    return dataclasses.replace(m, versions=tuple(dataclasses.replace(v, kernel=widened(v.kernel))
                                                 for v in m.versions))


def widened(k: Kernel) -> Kernel:
    """`k` (and its stages) with each int-by-int 64-bit product marked."""
    stages = tuple(widened(s) for s in k.stages)
    if not any(isinstance(n, Cast) and n.ctype == target.INDEX for n in walk(k.body)):
        return dataclasses.replace(k, stages=stages) if stages != k.stages else k  # (a 32-bit kernel: nothing to mark)
    types = _types(k)

    def mark(e):
        if isinstance(e, Bin) and e.op == "*" and not e.wrap and not e.widen:
            a, b = rewrite(e.a, mark), rewrite(e.b, mark)
            wide = _widens(a, b, types) or _widens(b, a, types)
            return Bin("*", a, b, widen=True) if wide else dataclasses.replace(e, a=a, b=b)
        return None

    return dataclasses.replace(k, body=tuple(rewrite(s, mark) for s in k.body), stages=stages)


def _types(k: Kernel) -> dict[str, str]:
    """Every name's C type: parameters (an array's, its elements'), shared and
    per-thread arrays, declarations, loop variables."""
    types = {p.name: p.ctype for p in k.params} | {a.name: a.ctype for a in k.shared}
    types |= {s.name: s.ctype for s in k.scratch}
    for s in walk(k.body):
        if isinstance(s, (Decl, ArrayDecl)):
            types[s.name] = s.ctype
        elif isinstance(s, For):
            types[s.var] = "int"
    return types


def _widens(x, c, types: dict) -> bool:
    """`x * c` with `c` an int cast to 64 bits and `x` an int."""
    return isinstance(c, Cast) and c.ctype == target.INDEX and _int(c.a, types) and _int(x, types)


def _int(e, types: dict) -> bool:
    """Whether `e` is a 32-bit integer (thread and block indices count: below 2^31)."""
    if isinstance(e, Const):
        return e.ctype == "int" and not isinstance(e.value, bool)
    if isinstance(e, Ref):
        return types.get(e.name) == "int"
    if isinstance(e, Load):
        return types.get(e.buffer) == "int"
    if isinstance(e, (ThreadIdx, BlockIdx)):
        return True
    if isinstance(e, Cast):
        return e.ctype == "int"
    if isinstance(e, (Bin, Un)) and e.wrap:
        return e.wrap == "int"
    if isinstance(e, Bin):
        return e.op in _ARITHMETIC and _int(e.a, types) and _int(e.b, types)
    if isinstance(e, Un):
        return e.op == "-" and _int(e.a, types)
    if isinstance(e, Call):
        return e.fn in MINMAX and all(_int(a, types) for a in e.args)
    if isinstance(e, Select):
        return _int(e.a, types) and _int(e.b, types)
    return False
