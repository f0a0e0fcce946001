"""The pyparsing grammar of LANGUAGE.md.

`parse_program(source)` takes a `Source` and returns an `ast.Program`, or raises
`UserError` located at the real fault: every construct commits with pyparsing's
`-` after its keyword, so a mistake inside it is reported where it is, not at
the start of the program.
"""
from __future__ import annotations

import re
import threading

import pyparsing as pp

from ..errors import Diagnostic
from ..source import Source, Span
from ..target import INT_MAX
from . import ast

pp.ParserElement.set_default_whitespace_chars(" \t\r\n")
pp.Keyword.set_default_keyword_chars(pp.alphanums + "_'")

KEYWORDS = frozenset(
    "fun fn let in loop for do if then else map zip iota transpose streamSeq true false".split()
)
SCALAR_TYPES = ("f32", "f64", "int", "i32", "i64", "bool")
MAX_NESTING = 200  # brackets deeper than this are refused before parsing

_current = threading.local()  # the Source being parsed, for spans in parse actions


def _src() -> Source:
    return _current.source


def _span(start: int, end: int) -> Span:
    return _src().span(start, end)


def _join(a: Span, b: Span) -> Span:
    return Span(a.file, a.line, a.col, b.end_line, b.end_col)


def _located(expr: pp.ParserElement, build) -> pp.ParserElement:
    """Wrap `expr` so its parse action gets (span, tokens)."""

    def action(toks):
        start, inner, end = toks[0]
        return build(_span(start, end), inner)

    return pp.Group(pp.Located(expr)).set_parse_action(action)


def _kw(word: str) -> pp.ParserElement:
    return pp.Keyword(word).suppress()


def _sym(text: str, name: str | None = None) -> pp.ParserElement:
    return pp.Literal(text).set_name(name or f"'{text}'").suppress()


LPAR, RPAR = _sym("("), _sym(")")
LBRACK, RBRACK = _sym("["), _sym("]")
COMMA = _sym(",")
EQ = pp.Regex(r"=(?![=>])").set_name("'='").suppress()
ARROW = _sym("=>")
LT = pp.Regex(r"<(?!=)").set_name("'<'").suppress()


def _ident_action(s, loc, toks):
    name = toks[0]
    if name in KEYWORDS:
        raise pp.ParseException(s, loc, f"a name (`{name}` is a keyword)")
    return name


_KEYWORD_AHEAD = r"(?!(?:%s)(?![A-Za-z0-9_']))" % "|".join(sorted(KEYWORDS))
# A plain name, the commonest operand, must not cost a failed keyword match:
# keywords are refused by the regex itself, quickly.
NAME_FAST = pp.Regex(_KEYWORD_AHEAD + r"[A-Za-z_][A-Za-z0-9_']*").set_name("a name")
IDENT = pp.Regex(r"[A-Za-z_][A-Za-z0-9_']*").set_name("a name").set_parse_action(_ident_action)
NAME_AT = _located(IDENT, lambda span, t: (t[0], span))  # a name and its span

_NUMBER_RE = r"\d+(\.\d+)?([eE][+-]?\d+)?([A-Za-z_][A-Za-z0-9_']*)?"


LONGEST_INT = 100  # digits: longer integer literals are refused here (the checker names the range of shorter ones)


def _number(span: Span, toks):
    text = toks[0]
    m = re.fullmatch(r"(\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)([A-Za-z0-9_']*)", text)
    digits, suffix = m.group(1), m.group(2)
    is_float = "." in digits or "e" in digits.lower()
    if suffix in ("f32", "f64") or (is_float and suffix == ""):
        return ast.FloatLit(float(digits), suffix, span)  # its range is the checker's (every error, in order)
    if suffix in ("", "i32", "i64") and not is_float:
        if len(digits.lstrip("0")) > LONGEST_INT:  # (Python refuses to convert past 4,300 digits)
            raise _Fatal(span, f"integer literal of {len(digits.lstrip('0')):,} digits does not fit in i64",
                         "the largest i64 is 9223372036854775807")
        return ast.IntLit(int(digits), suffix, span)
    if suffix in ("i32", "i64"):
        raise _Fatal(span, f"a float literal cannot have the integer suffix `{suffix}`",
                     f"write `{digits}f32`, or drop the fraction for an integer")
    raise _Fatal(span, f"unknown literal suffix `{suffix}` in `{text}`",
                 "suffixes are i32, i64, f32 and f64")


def _size_literal(span: Span, toks) -> int:
    """A size written as a number in a type: a C int."""
    digits = toks[0].lstrip("0") or "0"
    if len(digits) > len(str(INT_MAX)) or int(digits) > INT_MAX:
        raise _Fatal(span, f"size {toks[0]} does not fit in a 32-bit int", f"sizes are at most {INT_MAX:,}")
    return int(digits)


class _Fatal(pp.ParseSyntaxException):
    """A located lexical error raised from a parse action.

    A ParseSyntaxException, because pyparsing's `-` re-wraps any other kind
    and would lose the diagnostic."""

    def __init__(self, span: Span, message: str, hint: str = ""):
        super().__init__("", 0, message)
        self.diagnostic = Diagnostic(span, message, hint)


NUMBER = _located(pp.Regex(_NUMBER_RE).set_name("a number"), _number)
BOOL = _located(pp.Keyword("true") | pp.Keyword("false"),
                lambda span, t: ast.BoolLit(t[0] == "true", span))

# ---- types ---------------------------------------------------------------

TYPE = pp.Forward().set_name("a type")
SCALAR_T = _located(pp.MatchFirst([pp.Keyword(t) for t in SCALAR_TYPES]),
                    lambda span, t: ast.TScalar(t[0], span))
SIZE = (_located(pp.Regex(r"\d+"), _size_literal) | IDENT).set_name("a size")
ARRAY_T = _located(LBRACK - TYPE - COMMA - SIZE - RBRACK,
                   lambda span, t: ast.TArray(t[0], t[1], span))
TUPLE_T = _located(LPAR - pp.DelimitedList(TYPE) - RPAR,
                   lambda span, t: ast.TTuple(tuple(t), span) if len(t) > 1 else t[0])
TYPE <<= (SCALAR_T | ARRAY_T | TUPLE_T).set_name("a type")

PARAM = _located(TYPE + NAME_AT, lambda span, t: ast.Param(t[0], t[1][0], t[1][1]))
PARAMS = LPAR - pp.Group(pp.Optional(pp.DelimitedList(PARAM))) - RPAR

# ---- expressions -----------------------------------------------------------

EXP = pp.Forward().set_name("an expression")
ARGS = pp.Group(pp.Optional(pp.DelimitedList(EXP)))

LAMBDA = _located(
    _kw("fn") - TYPE - PARAMS - ARROW - EXP,
    lambda span, t: ast.Lambda(t[0], tuple(t[1]), t[2], span),
)


def _soac(word: str, cls):
    body = _kw(word) - LPAR - LAMBDA - pp.Group(pp.OneOrMore(COMMA - EXP)) - RPAR
    return _located(body, lambda span, t: cls(t[0], tuple(t[1]), span))


def _builtin(word: str, build):
    return _located(_kw(word) - LPAR - ARGS - RPAR, lambda span, t: build(span, tuple(t[0])))


def _one_arg(word: str, cls):
    def build(span, args):
        if len(args) != 1:
            raise _Fatal(span, f"`{word}` takes one argument, got {len(args)}")
        return cls(args[0], span)

    return _builtin(word, build)


def _tuple_or_paren(span: Span, t):
    return ast.TupleExp(tuple(t), span) if len(t) > 1 else t[0]


PAREN = _located(LPAR - pp.DelimitedList(EXP) - RPAR, _tuple_or_paren)


def _name_or_call(span: Span, t):
    (name, name_span), rest = t[0], t[1:]
    if not rest:
        return ast.Var(name, name_span)
    return ast.Call(name, tuple(rest[0]), span, name_span)


NAME_SPANNED = NAME_FAST.copy().set_parse_action(lambda s, loc, t: (t[0], _span(loc, loc + len(t[0]))))
NAME_OR_CALL = _located(NAME_SPANNED + pp.Optional(LPAR - ARGS - RPAR), _name_or_call)
PATTERN = (
    pp.Group(NAME_AT).set_parse_action(lambda t: (False, [t[0][0]]))
    | (LPAR - pp.Group(pp.DelimitedList(NAME_AT)) - RPAR).set_parse_action(lambda t: (True, list(t[0])))
).set_name("a name or a tuple of names")

LET_HEAD = pp.Group(pp.Located(_kw("let") - PATTERN - EQ - EXP - _kw("in")))


def _let_chain(t):
    """`let p = e in ... let q = f in body`, folded right without recursion."""
    *heads, body = t
    for head in reversed(heads):
        start, ((is_tuple, names), value), _end = head
        span = _span(start, start + 3)
        body = ast.Let(tuple(n for n, _ in names), is_tuple, value, body, span,
                       tuple(s for _, s in names))
    return body


LET = (pp.OneOrMore(LET_HEAD) + EXP).set_parse_action(_let_chain)
IF = _located(_kw("if") - EXP - _kw("then") - EXP - _kw("else") - EXP,
              lambda span, t: ast.If(t[0], t[1], t[2], span))
LOOP_PARAM = _located(NAME_AT + pp.Optional(EQ - EXP),
                      lambda span, t: ast.LoopParam(t[0][0], t[1] if len(t) > 1 else None, span))


def _loop(span: Span, t):
    params, (index, index_span), bound, body, rest = t
    return ast.Loop(tuple(params), index, bound, body, rest, span, index_span)


LOOP = _located(
    _kw("loop") - LPAR - pp.Group(pp.DelimitedList(LOOP_PARAM)) - RPAR - EQ - _kw("for")
    - NAME_AT - LT - EXP - _kw("do") - EXP - _kw("in") - EXP,
    _loop,
)

PRIMARY = pp.MatchFirst([  # the commonest first: each failed alternative costs an exception
    NAME_OR_CALL, NUMBER, PAREN, LET, IF, LOOP,
    _soac("map", ast.Map), _soac("streamSeq", ast.StreamSeq),
    _builtin("zip", lambda span, args: ast.Zip(args, span)),
    _one_arg("iota", ast.Iota), _one_arg("transpose", ast.Transpose), BOOL,
]).set_name("an expression")

INDEX_SUFFIX = _located(LBRACK - pp.DelimitedList(EXP) - RBRACK, lambda span, t: (span, tuple(t)))


def _postfix(t):
    exp = t[0]
    for span, indices in t[1:]:
        exp = ast.Index(exp, indices, _join(exp.span, span))
    return exp


POSTFIX = (PRIMARY + pp.ZeroOrMore(INDEX_SUFFIX)).set_parse_action(_postfix)


def _op(pattern: str, name: str):
    return pp.Regex(pattern).set_name(name).set_parse_action(lambda s, loc, t: (t[0], _span(loc, loc + len(t[0]))))


def _unary(t):
    *ops, exp = t
    for op, span in reversed(ops):
        exp = ast.UnOp(op, exp, _join(span, exp.span))
    return exp


UNARY = (pp.ZeroOrMore(_op(r"-|!(?!=)", "'-' or '!'")) + POSTFIX).set_parse_action(_unary)
BINARY_OP = _op(r"<=|>=|==|!=|&&|\|\||[-+*/%<>]", "an operator")
PRECEDENCE = {"||": 1, "&&": 2, "<": 3, "<=": 3, ">": 3, ">=": 3, "==": 3, "!=": 3,
              "+": 4, "-": 4, "*": 5, "/": 5, "%": 5}


def _climb(t):
    """`e0 op e1 op e2 ...` to a tree: precedence climbing, left-associative.

    One flat rule instead of a grammar level per precedence keeps pyparsing
    from trying (and failing) five operator matches around every operand."""
    operands, ops = [t[0]], []

    def reduce():
        (op, op_span), rhs = ops.pop(), operands.pop()
        lhs = operands.pop()
        operands.append(ast.BinOp(op, lhs, rhs, _join(lhs.span, rhs.span), op_span))

    for i in range(1, len(t), 2):
        op = t[i]
        while ops and PRECEDENCE[ops[-1][0]] >= PRECEDENCE[op[0]]:
            reduce()
        ops.append(op)
        operands.append(t[i + 1])
    while ops:
        reduce()
    return operands[0]


EXP <<= (UNARY + pp.ZeroOrMore(BINARY_OP - UNARY)).set_parse_action(_climb)

FUNDEF = _located(
    _kw("fun") - TYPE - NAME_AT - PARAMS - EQ - EXP,
    lambda span, t: ast.FunDef(t[0], t[1][0], tuple(t[2]), t[3], span, t[1][1]),
)
PROGRAM = pp.StringStart() + pp.ZeroOrMore(FUNDEF) + pp.StringEnd().set_name("end of file")
