"""A small precedence-aware printer of kernel-IR expressions as C."""
from __future__ import annotations

from .. import kir, target
from ..target import literal

# C precedence, higher binds tighter
BINARY = {"*": 13, "/": 13, "%": 13, "+": 12, "-": 12, "<": 10, "<=": 10, ">": 10, ">=": 10,
          "==": 9, "!=": 9, "&&": 5, "||": 4}
UNARY, POSTFIX, ATOM, TERNARY = 14, 15, 16, 3


def c(e) -> str:
    return _c(e, 0)


def _prec(e) -> int:
    if isinstance(e, kir.Bin):
        return BINARY[e.op]
    if isinstance(e, (kir.Un, kir.Cast)):
        return UNARY
    if isinstance(e, kir.Select):
        return TERNARY
    if isinstance(e, (kir.Load, kir.Lane)):
        return POSTFIX
    if isinstance(e, kir.VecLoad):
        return UNARY
    if isinstance(e, kir.Const) and str(literal(e.value, e.ctype)).startswith("-"):
        return UNARY
    return ATOM


def _wrap(e, need: int) -> str:
    text = _c(e, need)
    return f"({text})" if _prec(e) < need else text


def _c(e, need: int) -> str:
    if isinstance(e, kir.Const):
        return literal(e.value, e.ctype)
    if isinstance(e, kir.Ref):
        return e.name
    if isinstance(e, kir.ThreadIdx):
        return f"{target.THREAD_INDEX}.{e.axis}"
    if isinstance(e, kir.BlockIdx):
        return f"{target.BLOCK_INDEX}.{e.axis}"
    if isinstance(e, kir.VecLoad):
        return f"*reinterpret_cast<const {target.vector_type(e.ctype, e.width)}*>(&{e.buffer}[{_c(e.index, 0)}])"
    if isinstance(e, kir.Lane):
        return f"{_wrap(e.vector, POSTFIX)}.{target.LANES[e.lane]}"
    if isinstance(e, kir.Bin):
        p = BINARY[e.op]
        return f"{_wrap(e.a, p)} {e.op} {_wrap(e.b, p + 1)}"
    if isinstance(e, kir.Un):
        inner = _wrap(e.a, UNARY)
        return f"{e.op}({inner})" if inner.startswith(e.op) else f"{e.op}{inner}"
    if isinstance(e, kir.Cast):
        return f"({e.ctype}){_wrap(e.a, UNARY)}"
    if isinstance(e, kir.Call):
        return f"{target.CALL_SPELLING.get(e.fn, e.fn)}(" + ", ".join(_c(a, 0) for a in e.args) + ")"
    if isinstance(e, kir.Select):
        return f"{_wrap(e.cond, TERNARY + 1)} ? {_wrap(e.a, TERNARY + 1)} : {_wrap(e.b, TERNARY)}"
    if isinstance(e, kir.Load):
        return f"{e.buffer}[{_c(e.index, 0)}]"
    raise TypeError(f"not a kernel-IR expression: {e!r}")
