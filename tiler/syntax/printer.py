"""Pretty-printer: `ast.Program` -> text that parses back to the same tree.

Parenthesises by precedence (all binary operators are left-associative) and
puts `let`, `if` and `loop` in parentheses wherever they stand as an operand.
"""
from __future__ import annotations

from . import ast

PRECEDENCE = {"||": 1, "&&": 2, "<": 3, "<=": 3, ">": 3, ">=": 3, "==": 3, "!=": 3,
              "+": 4, "-": 4, "*": 5, "/": 5, "%": 5}
UNARY, POSTFIX, ATOM, OPEN = 6, 7, 8, 0  # OPEN: a form that extends to the right
STEP = "  "


_comments: dict = {}  # (line, col) of a map, streamSeq or loop, or ("let", line, col) -> comment lines before it


def pretty(node, comments: dict | None = None) -> str:
    """Source text for `node`; `comments` puts `-- ...` lines before the maps,
    streams and loops at the given (line, column), and before the lets at
    ("let", line, column) (for `explain --show-transformed`)."""
    global _comments
    _comments, saved = comments or {}, _comments
    try:
        return _pretty(node)
    finally:
        _comments = saved


def _pretty(node) -> str:
    if isinstance(node, ast.Program):
        return "\n\n".join(_fundef(f) for f in node.funs) + "\n"
    if isinstance(node, ast.FunDef):
        return _fundef(node)
    if isinstance(node, (ast.TScalar, ast.TArray, ast.TTuple)):
        return type_text(node)
    return _exp(node, "", 0)


def type_text(t) -> str:
    if isinstance(t, ast.TScalar):
        return t.name
    if isinstance(t, ast.TArray):
        return f"[{type_text(t.elem)}, {t.size}]"
    return "(" + ", ".join(type_text(i) for i in t.items) + ")"


def _params(params) -> str:
    return "(" + ", ".join(f"{type_text(p.type)} {p.name}" for p in params) + ")"


def _fundef(f: ast.FunDef) -> str:
    return f"fun {type_text(f.ret)} {f.name}{_params(f.params)} =\n{STEP}" + _exp(f.body, STEP, 0)


def _prec(e) -> int:
    if isinstance(e, ast.BinOp):
        return PRECEDENCE[e.op]
    if isinstance(e, ast.UnOp):
        return UNARY
    if isinstance(e, ast.Index):
        return POSTFIX
    if isinstance(e, (ast.Let, ast.If, ast.Loop)):
        return OPEN
    return ATOM


def _wrap(e, ind: str, need: int) -> str:
    """Print `e` where an operand of precedence > need... is required."""
    text = _exp(e, ind + " ", 0)
    return f"({text})" if _prec(e) < need or (_prec(e) == OPEN and need > 0) else text


def _literal(e) -> str:
    if isinstance(e, ast.IntLit):
        return f"{e.value}{e.suffix}"
    if isinstance(e, ast.FloatLit):
        text = repr(float(e.value))
        if text == "inf":  # a literal past every float (refused by the checker, but a tree may hold one)
            text = "1e999"
        elif text in ("-inf", "nan"):
            raise ValueError(f"float literal {text} has no source form")
        return text + e.suffix
    return "true" if e.value else "false"


def _exp(e, ind: str, need: int) -> str:  # noqa: C901 - one case per form
    if isinstance(e, (ast.IntLit, ast.FloatLit, ast.BoolLit)):
        text = _literal(e)
        return f"({text})" if text.startswith("-") else text
    if isinstance(e, ast.Var):
        return e.name
    if isinstance(e, ast.TupleExp):
        return "(" + ", ".join(_exp(i, ind, 0) for i in e.items) + ")"
    if isinstance(e, ast.BinOp):
        p = PRECEDENCE[e.op]
        return f"{_wrap(e.lhs, ind, p)} {e.op} {_wrap(e.rhs, ind, p + 1)}"
    if isinstance(e, ast.UnOp):
        inner = _wrap(e.operand, ind, UNARY)
        return f"{e.op}({inner})" if inner.startswith("-") else f"{e.op}{inner}"  # `--` starts a comment
    if isinstance(e, ast.Index):
        return f"{_wrap(e.array, ind, POSTFIX)}[" + ", ".join(_exp(i, ind, 0) for i in e.indices) + "]"
    if isinstance(e, ast.Call):
        return f"{e.func}(" + ", ".join(_exp(a, ind, 0) for a in e.args) + ")"
    if isinstance(e, ast.Zip):
        return "zip(" + ", ".join(_exp(a, ind, 0) for a in e.args) + ")"
    if isinstance(e, ast.Iota):
        return f"iota({_exp(e.arg, ind, 0)})"
    if isinstance(e, ast.Transpose):
        return f"transpose({_exp(e.arg, ind, 0)})"
    if isinstance(e, ast.Let):
        pat = ", ".join(e.names)
        pat = f"({pat})" if e.is_tuple else pat
        notes = "".join(f"-- {c}\n{ind}" for c in _comments.get(("let", e.span.line, e.span.col), ()))
        return f"{notes}let {pat} = {_exp(e.value, ind + STEP, 0)} in\n{ind}{_exp(e.body, ind, 0)}"
    if isinstance(e, ast.If):
        inner = ind + STEP
        return (f"if {_exp(e.cond, inner, 0)}\n{inner}then {_exp(e.then, inner + STEP, 0)}"
                f"\n{inner}else {_exp(e.else_, inner + STEP, 0)}")
    if isinstance(e, ast.Loop):
        params = ", ".join(p.name if p.init is None else f"{p.name} = {_exp(p.init, ind, 0)}"
                           for p in e.params)
        inner = ind + STEP
        notes = "".join(f"-- {c}\n{ind}" for c in _comments.get((e.span.line, e.span.col), ()))
        return (f"{notes}loop ({params}) = for {e.index} < {_exp(e.bound, inner, 0)} do\n"
                f"{inner}{_exp(e.body, inner, 0)}\n{ind}in {_exp(e.rest, ind, 0)}")
    if isinstance(e, (ast.Map, ast.StreamSeq)):
        combine = getattr(e, "combine", None)
        word = "map" if isinstance(e, ast.Map) else "streamSeq" if combine is None else "streamRed"
        inner = ind + STEP

        def lam_text(lam):
            head = f"fn {type_text(lam.ret)} {_params(lam.params)} =>"
            return f"{inner}{head}\n{inner}{STEP}{_exp(lam.body, inner + STEP, 0)},\n"
        args = ", ".join(_exp(a, inner, 0) for a in e.args)
        notes = "".join(f"-- {c}\n{ind}" for c in _comments.get((e.span.line, e.span.col), ()))
        lams = ("" if combine is None else lam_text(combine)) + lam_text(e.lam)
        return f"{notes}{word}(\n{lams}{inner}{args})"
    raise TypeError(f"cannot print {type(e).__name__}")
