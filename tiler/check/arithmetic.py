"""The rules of literals and operators, for `ExpChecker` (a mixin): a
literal's range, `+ - * / %`, comparisons, `&& ||`, `!` and unary `-`, with
a hint where a literal's spelling is the likely mistake."""
from __future__ import annotations

import numpy as np

from .. import bfloat16
from ..syntax import ast
from ..syntax.grammar import TOO_LONG
from . import typed as T
from .types import BOOL, ERROR, F32, I64, Array, Scalar, is_scalar, scalar

ARITH, COMPARE, LOGIC = {"+", "-", "*", "/", "%"}, {"<", "<=", ">", ">="}, {"&&", "||"}
INT_MAX = {"i32": 2**31 - 1, "i64": 2**63 - 1}
FLOAT_MAX = {"f32": 3.4028234663852886e38, "f64": 1.7976931348623157e308, "f16": 65504.0, "bf16": bfloat16.MAX}
# the literals that round to a finite value: below the largest plus half its
# spacing (2^103 for f32, 16 for f16, 2^119 for bf16; for f64, Python's own
# parse gives infinity past it)
FLOAT_ROUNDS_BELOW = {"f32": FLOAT_MAX["f32"] + 2.0**103, "f64": float("inf"), "f16": 65520.0,
                      "bf16": bfloat16.MAX + 2.0**119}
WIDER = {"f32": "f64", "f16": "f32", "bf16": "f32"}  # the suffix to suggest for a literal past a type's range


def literal_value(value: float, kind: str) -> float:
    """A float literal's value in its type: a 16-bit one rounded (to
    nearest even, once, from the float64 Python reads its digits as), so
    that the interpreter and the CUDA start from the same bits; f32 and
    f64 literals keep their digits' value, which each rounds alike."""
    if kind == "f16":
        return float(np.float16(value))
    if kind == "bf16":
        return float(bfloat16.rounded(np.float64(value)))
    return value


def _zero(e) -> bool:
    return isinstance(e, ast.IntLit) and e.value == 0


class Arithmetic:
    def _intlit(self, e: ast.IntLit):
        kind = "i64" if e.suffix == "i64" else "i32"
        if e.value >= TOO_LONG:  # (its digits were never converted)
            written = self.source.line_text(e.span.line)[e.span.col - 1:e.span.end_col - 1] \
                if self.source is not None else "9" * (e.span.end_col - e.span.col)  # (one line of digits)
            digits = len(written.removesuffix(e.suffix).lstrip("0"))
            self.error(e.span, f"integer literal of {digits:,} digits does not fit in i64",
                       f"the largest i64 is {INT_MAX['i64']}")
        elif e.value > INT_MAX[kind]:
            self.error(e.span, f"integer literal {e.value} does not fit in {scalar(kind)}",
                       "use the suffix i64" if kind == "i32" else "")
        return T.Lit(e.value, scalar(kind), e.span)

    def _floatlit(self, e: ast.FloatLit):
        kind = e.suffix or "f32"
        if not abs(e.value) < FLOAT_ROUNDS_BELOW[kind]:  # 1e999 is infinity in Python
            self.error(e.span, f"float literal {self.text(e)} does not fit in {kind}",
                       f"the largest {kind} is about {FLOAT_MAX[kind]:.4g}" +
                       (f"; use the suffix {WIDER[kind]}" if kind in WIDER else ""))
            return T.Lit(e.value, scalar(kind), e.span)
        return T.Lit(literal_value(e.value, kind), scalar(kind), e.span)

    def _binop(self, e: ast.BinOp):
        lhs, rhs = self.exp(e.lhs), self.exp(e.rhs)
        t = self._binop_type(e, lhs.type, rhs.type)
        if e.op in ("/", "%") and t is not ERROR and t.is_int and _zero(e.rhs):  # C leaves it undefined: say so now
            t = self.error(e.rhs.span, f"integer {'division' if e.op == '/' else 'remainder'} by zero",
                           "the divisor is the literal 0")
        return T.BinOp(e.op, lhs, rhs, t, e.span)

    def _binop_type(self, e: ast.BinOp, a, b):
        if type(a) is Scalar and type(b) is Scalar and a.kind == b.kind and a.kind != "bool" and e.op not in LOGIC:
            return BOOL if e.op in COMPARE or e.op in ("==", "!=") else a  # (the common case, decided at once)
        if a is ERROR or b is ERROR:
            return ERROR
        for side, t in ((e.lhs, a), (e.rhs, b)):
            if not is_scalar(t):
                return self.error(side.span, f"`{e.op}` works on scalars, but `{self.text(side)}` is {t}",
                                  "index the array to get an element" if isinstance(t, Array) else "")
        if e.op in LOGIC:
            if a != BOOL or b != BOOL:
                return self.error(e.op_span, f"`{e.op}` needs two bools, got {a} and {b}")
            return BOOL
        if a != b:
            return self.error(e.op_span, f"`{e.op}` needs operands of one type, got {a} and {b}",
                              self._conversion_hint(e, a, b))
        if e.op in ("==", "!="):
            return BOOL
        if a == BOOL:
            return self.error(e.op_span, f"`{e.op}` needs numbers, got bool")
        return BOOL if e.op in COMPARE else a

    def _conversion_hint(self, e: ast.BinOp, a: Scalar, b: Scalar) -> str:
        for lit, other in ((e.lhs, b), (e.rhs, a)):
            if isinstance(lit, ast.IntLit) and lit.suffix == "" and other.is_float:
                return f"there is no implicit conversion: write `{lit.value}{other}` (or `{lit.value}.0`)" \
                    if other == F32 else f"there is no implicit conversion: write `{lit.value}{other}`"
            if isinstance(lit, ast.IntLit) and lit.suffix == "" and other == I64:
                return f"there is no implicit conversion: write `{lit.value}i64`"
            if isinstance(lit, ast.FloatLit) and lit.suffix == "" and other.is_float and other != F32:
                return f"there is no implicit conversion: write `{lit.value!r}{other}`"
            if isinstance(lit, ast.FloatLit) and lit.suffix and other.is_float and lit.suffix != other.kind:
                digits = self.text(lit).removesuffix(lit.suffix)  # (as written: `1f32` -> `1f16`)
                return f"there is no implicit conversion: write `{digits}{other}`"
        if a.is_numeric and b.is_numeric:
            return f"there is no implicit conversion: convert one side, e.g. {b}({self.text(e.lhs)})"
        return ""

    def _unop(self, e: ast.UnOp):
        if e.op == "-" and isinstance(e.operand, ast.IntLit) and e.operand.suffix in ("", "i32", "i64") \
                and e.operand.value == INT_MAX["i64" if e.operand.suffix == "i64" else "i32"] + 1:
            kind = "i64" if e.operand.suffix == "i64" else "i32"  # the smallest int, -2147483648, has no positive twin
            return T.Lit(-e.operand.value, scalar(kind), e.span)
        x = self.exp(e.operand)
        t = x.type
        if t is not ERROR:
            if e.op == "!" and t != BOOL:
                t = self.error(e.span, f"`!` needs a bool, got {t}")
            elif e.op == "-" and not (is_scalar(t) and t.is_numeric):
                t = self.error(e.span, f"`-` needs a number, got {t}")
        return T.UnOp(e.op, x, t, e.span)
