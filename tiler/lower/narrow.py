"""The arithmetic of f16 and bf16 in the kernel IR (target.Narrow).

A 16-bit value is stored, moved and carried as CUDA's `__half` or
`__nv_bfloat16`; each operation on such values converts its operands to
float, computes there and rounds the result back, so that the kernel gives
what the interpreter gives, bit for bit, for + - * / and sqrt: written out
as conversions, nothing lets nvcc fuse two operations into one rounding.
Comparisons compare the floats; conversions to and from other types are
CUDA's rounding intrinsics (a 16-bit source widened to float first, which
is exact).
"""
from __future__ import annotations

from .. import kir, target

COMPUTED_IN = target.NARROW_COMPUTED_IN
COMPARISONS = ("<", "<=", ">", ">=", "==", "!=")


def is_narrow(ctype: str) -> bool:
    return ctype in target.NARROW


def widened(e, ctype: str):
    """A 16-bit value as a float (a constant as a float constant)."""
    if isinstance(e, kir.Const):
        return kir.Const(e.value, COMPUTED_IN)
    return kir.Call(target.NARROW[ctype].to_float, (e,))


def rounded(e, ctype: str):
    """A float rounded to the 16-bit type, to nearest even."""
    return kir.Call(target.NARROW[ctype].from_float, (e,))


def operation(op: str, a, b, ctype: str):
    """`a op b` of two values of 16-bit type `ctype` (a bool for a comparison)."""
    wa, wb = widened(a, ctype), widened(b, ctype)
    if op in COMPARISONS:
        return kir.Bin(op, wa, wb)
    if op == "%":
        return rounded(kir.Call(target.math_function(COMPUTED_IN, "%", False), (wa, wb)), ctype)
    return rounded(kir.Bin(op, wa, wb), ctype)


def negated(a, ctype: str):
    return rounded(kir.Un("-", widened(a, ctype)), ctype)


def builtin(name: str, args: tuple, ctype: str):
    """A math builtin (`sqrt`, `min`, ...) on 16-bit values: float's IEEE
    function (never --fast-math's approximations: 16-bit results are meant
    to be exact where float's are), rounded back."""
    fn = target.math_function(COMPUTED_IN, name, False)
    return rounded(kir.Call(fn, tuple(widened(a, ctype) for a in args)), ctype)


def converted(e, to: str, source: str):
    """A conversion between C types where either is a 16-bit float."""
    if source == to:
        return e
    if is_narrow(source):
        e, source = widened(e, source), COMPUTED_IN
        if to == source:
            return e
    if is_narrow(to):
        return kir.Call(target.NARROW[to].conversion(source), (e,))
    return kir.Cast(to, e)
