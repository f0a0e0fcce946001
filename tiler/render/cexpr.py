"""A small precedence-aware printer of kernel-IR expressions as C."""
from __future__ import annotations

from .. import kir, target
from ..target import literal

# C precedence, higher binds tighter
BINARY = {"*": 13, "/": 13, "%": 13, "+": 12, "-": 12, "<": 10, "<=": 10, ">": 10, ">=": 10,
          "==": 9, "!=": 9, "^": 7, "&&": 5, "||": 4}
UNARY, POSTFIX, ATOM, TERNARY = 14, 15, 16, 3


def c(e) -> str:
    return _c(e, 0)


def _const_prec(e) -> int:
    return UNARY if literal(e.value, e.ctype).startswith("-") else ATOM


_PRECEDENCE = {  # a node class's precedence (a table: one lookup a node where a chain of tests took up to seven)
    kir.Bin: lambda e: UNARY if e.wrap else ATOM if e.widen else BINARY[e.op], kir.Un: lambda e: UNARY, kir.Cast: lambda e: UNARY,
    kir.Select: lambda e: TERNARY, kir.Load: lambda e: POSTFIX, kir.Lane: lambda e: POSTFIX,
    kir.VecLoad: lambda e: UNARY, kir.Const: _const_prec, kir.Ref: lambda e: ATOM,
    kir.ThreadIdx: lambda e: ATOM, kir.BlockIdx: lambda e: ATOM, kir.Call: lambda e: ATOM,
}


def _wrap(e, need: int) -> str:
    cls = type(e)
    text = _c(e, need)  # (an unknown class fails there, before its precedence is asked)
    return f"({text})" if _PRECEDENCE[cls](e) < need else text


def _c(e, need: int) -> str:
    writer = _WRITERS.get(type(e))
    if writer is None:
        raise TypeError(f"not a kernel-IR expression: {e!r}")
    return writer(e)


def _wrapped(e) -> str:
    """A program's integer operation (target.WRAPPING) done in the unsigned
    type of its width, whose arithmetic wraps around, and cast back."""
    return f"({e.wrap})({_unsigned_op(e)})"


def _unsigned_op(e) -> str:
    u = target.UNSIGNED[e.wrap]
    if isinstance(e, kir.Un):
        return f"{e.op}{_unsigned(e.a, u)}"
    return f"{_unsigned(e.a, u)} {e.op} {_unsigned(e.b, u)}"


def _unsigned(e, unsigned: str) -> str:
    """An operand in the unsigned type: an operation wrapped alike stays
    there, without a cast back and forth."""
    if isinstance(e, (kir.Bin, kir.Un)) and e.wrap and target.UNSIGNED[e.wrap] == unsigned:
        return f"({_unsigned_op(e)})"
    return f"({unsigned}){_wrap(e, UNARY)}"


def _un(e) -> str:
    if e.wrap:
        return _wrapped(e)
    inner = _wrap(e.a, UNARY)
    return f"{e.op}({inner})" if inner.startswith(e.op) else f"{e.op}{inner}"


def _bin(e) -> str:
    """`a op b`; a chain of one precedence down the left (`x0 + x1 + ... +
    xn`, as a left-associative sum parses) is written as one list of parts
    joined once: written operation by operation, each level copied the text
    of all the levels below it (a 50,000-term sum: 0.4 s)."""
    if e.wrap:
        return _wrapped(e)
    if e.widen:  # (an int times an int cast to 64 bits: transform/widen.py)
        wide_a = isinstance(e.a, kir.Cast) and e.a.ctype == target.INDEX
        a, b = (e.a.a, e.b) if wide_a else (e.a, e.b.a)
        return f"{target.WIDE_MUL}({_c(a, 0)}, {_c(b, 0)})"
    p, rights = BINARY[e.op], []
    while type(e) is kir.Bin and not e.wrap and not e.widen and BINARY[e.op] == p:  # (the left operand needs no parentheses)
        b = e.b
        right = _c(b, p + 1)
        rights.append(f" {e.op} ({right})" if _PRECEDENCE[type(b)](b) <= p else f" {e.op} {right}")
        e = e.a
    left = _c(e, p)
    rights.append(f"({left})" if _PRECEDENCE[type(e)](e) < p else left)
    return "".join(reversed(rights))


_WRITERS = {  # a node class's C, by table
    kir.Const: lambda e: literal(e.value, e.ctype),
    kir.Ref: lambda e: e.name,
    kir.ThreadIdx: lambda e: f"{target.THREAD_INDEX}.{e.axis}",
    kir.BlockIdx: lambda e: f"{target.BLOCK_INDEX}.{e.axis}",
    kir.VecLoad: lambda e: f"*reinterpret_cast<const {target.vector_type(e.ctype, e.width)}*>"
                           f"(&{e.buffer}[{_c(e.index, 0)}])",
    kir.Lane: lambda e: f"{_wrap(e.vector, POSTFIX)}{target.lane_member(e.lane, e.ctype)}",
    kir.Bin: _bin,
    kir.Un: _un,
    kir.Cast: lambda e: f"({e.ctype}){_wrap(e.a, UNARY)}",
    kir.Call: lambda e: f"{target.CALL_SPELLING.get(e.fn, e.fn)}(" + ", ".join(_c(a, 0) for a in e.args) + ")",
    kir.Select: lambda e: f"{_wrap(e.cond, TERNARY + 1)} ? {_wrap(e.a, TERNARY + 1)} : {_wrap(e.b, TERNARY)}",
    kir.Load: lambda e: f"{e.buffer}[{_c(e.index, 0)}]",
}
