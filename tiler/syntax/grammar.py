"""The grammar of LANGUAGE.md: a recursive-descent parser over lexer.py's tokens.

`parse_program(code, source)` returns a program's function definitions and
`parse_exp(code, source)` one expression. A token the grammar does not allow
where it stands raises `SyntaxFault` (where, and what was expected there),
which the package turns into a message; a literal out of range raises a
located `UserError`. Each construct commits to itself at its first token
(`let`, `(`, an operator), so a mistake inside it is reported where it is.

Binary operators are parsed by precedence climbing, and chains of lets,
operators and unary operators by loops: only brackets and the nesting of
`if`, `loop` and lambdas take Python's stack.

The trees, spans and messages are those of the pyparsing grammar this parser
replaced, token for token (a name that runs a keyword into other letters,
`inx` where `in` was expected, is now refused as the whole name).
"""
from __future__ import annotations

import re
from bisect import bisect_right

from ..errors import UserError
from ..source import Source, Span
from ..target import INT_MAX
from . import ast
from .lexer import END, KEYWORDS, NAME, NUMBER, tokenize

SCALAR_TYPES = ("f32", "f64", "int", "i32", "i64", "bool", "f16", "bf16")
FLOAT_SUFFIXES = ("f32", "f64", "f16", "bf16")
MAX_NESTING = 200  # brackets deeper than this are refused before parsing
LONGEST_INT = 100  # digits: a longer integer literal is read as TOO_LONG, which the checker refuses
TOO_LONG = 10 ** LONGEST_INT

_DIGITS = re.compile(r"\d+")
_NUMBER = re.compile(r"(\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)([A-Za-z0-9_']*)")
PRECEDENCE = {"||": 1, "&&": 2, "<": 3, "<=": 3, ">": 3, ">=": 3, "==": 3, "!=": 3,
              "+": 4, "-": 4, "*": 5, "/": 5, "%": 5}
UNARY = ("-", "!")
END_OF_FILE = "the end of the file"  # expected where a program or an expression is complete


class SyntaxFault(Exception):
    """A token the grammar does not allow at offset `loc`; `expected` says
    what it allows there. `soft`: no expression starts at `loc`, where a
    list of arguments or items may end instead; its caller then takes the
    list as ended and refuses the token as not closing it (`f(a, )` is
    "expected ')', found `,`")."""

    def __init__(self, loc: int, expected: str, soft: bool = False):
        super().__init__(expected)
        self.loc, self.expected, self.soft = loc, expected, soft


def parse_program(code: str, source: Source) -> list[ast.FunDef]:
    p = _Parser(code, source)
    funs = []
    while p.kinds[p.i] == "fun":
        funs.append(p.fundef())
    p.finish()
    return funs


def parse_exp(code: str, source: Source) -> ast.Exp:
    p = _Parser(code, source)
    exp = p.exp()
    p.finish()
    return exp


def _join(a: Span, b: Span) -> Span:
    return Span(a.file, a.line, a.col, b.end_line, b.end_col)


class _Parser:
    """The tokens of one text and the index `i` of the next one to read."""

    def __init__(self, code: str, source: Source):
        self.kinds, self.texts, self.starts = tokenize(code)
        self.i = 0
        # where lines start, for spans: Source.span's answers, faster (no clamping: offsets here are in the text;
        # `code` is the source's text with comments blanked, so its lines start where the source's do)
        self.lines = source.line_starts
        self.file = source.name
        # Where the last expression parsed stops, for the span of a construct that ends with one (a
        # function, lambda, `if`, `loop` or loop variable): at the next token, past spaces, comments and
        # new lines, except after an operator whose right operand ends with an index: there, after its `]`.
        # The pyparsing grammar made such spans (its repetitions skip spaces before they fail), and the
        # spans are kept as they were.
        self.exp_stop = 0
        self.type_sizes: list[str] = []  # every size named in a type so far (FunDef.type_sizes)
        self.indexed = False  # whether the last operand parsed ends with an index of its own
        self.primaries = {NAME: self.name_or_call, NUMBER: self.number, "(": self.paren, "if": self.if_,
                          "loop": self.loop, "map": lambda: self.soac(ast.Map),
                          "streamSeq": lambda: self.soac(ast.StreamSeq), "streamRed": self.stream_red, "zip": self.zip,
                          "iota": lambda: self.one_arg(ast.Iota), "transpose": lambda: self.one_arg(ast.Transpose),
                          "true": self.bool, "false": self.bool}

    # ---- tokens ----------------------------------------------------------

    def span(self, start: int, end: int) -> Span:
        """Source.span(start, end) (every end here is past its start)."""
        lines = self.lines
        line, end_line = bisect_right(lines, start), bisect_right(lines, end)
        return Span(self.file, line, start - lines[line - 1] + 1, end_line, end - lines[end_line - 1] + 1)

    def next_span(self) -> Span:
        """The next token's span (on one line: no token holds a new line), moving past it."""
        start = self.starts[self.i]
        line = bisect_right(self.lines, start)
        col = start - self.lines[line - 1] + 1
        span = Span(self.file, line, col, line, col + len(self.texts[self.i]))
        self.i += 1
        return span

    def fault(self, expected: str, soft: bool = False) -> SyntaxFault:
        return SyntaxFault(self.starts[self.i], expected, soft)

    def take(self) -> int:
        """The next token, known to be the right one: its offset."""
        self.i += 1
        return self.starts[self.i - 1]

    def expect(self, kind: str) -> int:
        """The next token, which must be `kind`: the offset after it."""
        if self.kinds[self.i] != kind:
            raise self.fault(f"'{kind}'")
        self.i += 1
        return self.starts[self.i - 1] + len(kind)

    def finish(self) -> None:
        if self.kinds[self.i] != END:
            raise self.fault(END_OF_FILE)

    def name(self) -> tuple[str, Span]:
        kind = self.kinds[self.i]
        if kind != NAME:
            raise self.fault(f"a name (`{kind}` is a keyword)" if kind in KEYWORDS else "a name")
        return self.texts[self.i], self.next_span()

    def more(self, item, items: list) -> list:
        """`, item` as long as an item follows the comma: a comma before
        anything else is left for the caller to refuse (`(a, )` is "expected
        ')', found `,`")."""
        while self.kinds[self.i] == ",":
            comma = self.i
            self.i += 1
            found = item()
            if found is None:
                self.i = comma
                break
            items.append(found)
        return items

    # ---- types and parameters ----------------------------------------------

    def starts_type(self) -> bool:
        kind = self.kinds[self.i]
        return kind in ("(", "[") or kind == NAME and self.texts[self.i] in SCALAR_TYPES

    def type(self) -> ast.TypeExp:
        if not self.starts_type():
            raise self.fault("a type")
        if self.kinds[self.i] == NAME:  # a scalar type's name
            return ast.TScalar(self.texts[self.i], self.next_span())
        start = self.take()
        if self.texts[self.i - 1] == "[":
            elem = self.type()
            self.expect(",")
            size = self.size()
            if isinstance(size, str):
                self.type_sizes.append(size)
            return ast.TArray(elem, size, self.span(start, self.expect("]")))
        items = self.more(lambda: self.type() if self.starts_type() else None, [self.type()])
        end = self.expect(")")
        return ast.TTuple(tuple(items), self.span(start, end)) if len(items) > 1 else items[0]

    def size(self) -> str | int:
        kind, text, start = self.kinds[self.i], self.texts[self.i], self.starts[self.i]
        if kind == NAME:
            self.i += 1
            return text
        if kind != NUMBER:
            raise self.fault("a size")
        digits = _DIGITS.match(text).group()
        value = _size_literal(self.span(start, start + len(digits)), digits)
        if len(digits) < len(text):  # a size is digits alone: `]` must follow `2` in `2.5` or `3x`
            raise SyntaxFault(start + len(digits), "']'")
        self.i += 1
        return value

    def param(self) -> ast.Param | None:
        """`TYPE name` (spanning its name), or None where there is none (a
        type not followed by a name included)."""
        if not self.starts_type():
            return None
        start = self.i
        type_ = self.type()
        if self.kinds[self.i] != NAME:
            self.i = start
            return None
        name, span = self.name()
        return ast.Param(type_, name, span)

    def params(self) -> tuple[ast.Param, ...]:
        """`(TYPE name, ...)`; the list may be empty."""
        self.expect("(")
        first = self.param()
        params = [] if first is None else self.more(self.param, [first])
        self.expect(")")
        return tuple(params)

    def fundef(self) -> ast.FunDef:
        start, first_size = self.take(), len(self.type_sizes)
        ret = self.type()
        name, name_span = self.name()
        params = self.params()
        self.expect("=")
        body = self.exp()
        return ast.FunDef(ret, name, params, body, self.span(start, self.exp_stop), name_span,
                          frozenset(self.type_sizes[first_size:]))

    # ---- expressions -------------------------------------------------------

    def exp(self, soft: bool = False) -> ast.Exp:
        """Operands and binary operators, all left-associative: precedence
        climbing with explicit stacks. `soft`: a failure to start is a
        soft fault (see `SyntaxFault`)."""
        kinds, starts = self.kinds, self.starts
        operands = [self.operand(soft)]
        ops: list[tuple[str, Span, int]] = []
        while (op := kinds[self.i]) in PRECEDENCE:
            tightness = PRECEDENCE[op]
            while ops and ops[-1][2] >= tightness:
                _reduce(operands, ops)
            ops.append((op, self.next_span(), tightness))
            operands.append(self.operand(False))
        chained = len(operands) > 1
        while ops:
            _reduce(operands, ops)
        self.exp_stop = starts[self.i - 1] + 1 if chained and self.indexed else starts[self.i]
        return operands[0]

    def operand(self, soft: bool) -> ast.Exp:
        """Unary operators, a primary and its indices."""
        kind = self.kinds[self.i]
        if kind in UNARY:
            return self.signed(soft)
        if kind == "let":
            node = self.let(soft)
        else:
            primary = self.primaries.get(kind)
            if primary is None:
                raise self.fault("an expression", soft)
            node = primary()
        if self.kinds[self.i] != "[":
            self.indexed = False
            return node
        node = self.indexing(node)
        self.indexed = True  # (after the indices, whose own operands set it)
        return node

    def signed(self, soft: bool) -> ast.UnOp:
        """`-` and `!` before an operand: a loop, so that a long chain of them nests no calls."""
        signs = []
        while self.kinds[self.i] in UNARY:
            signs.append((self.kinds[self.i], self.next_span()))
        node = self.operand(soft)
        for op, span in reversed(signs):
            node = ast.UnOp(op, node, _join(span, node.span))
        return node

    def indexing(self, array: ast.Exp) -> ast.Index:
        """`array[i, ...]`, once or more."""
        while self.kinds[self.i] == "[":
            start = self.take()
            indices, end = self.items("]")
            array = ast.Index(array, indices, _join(array.span, self.span(start, end)))
        return array

    def soft_exp(self) -> ast.Exp | None:
        """An expression, or None where none starts (the caller backs off)."""
        start = self.i
        try:
            return self.exp(soft=True)
        except SyntaxFault as fault:
            if not fault.soft:
                raise
            self.i = start
            return None

    def items(self, close: str) -> tuple[tuple[ast.Exp, ...], int]:
        """`e, ...` then `close`: the items and the offset after `close`."""
        items = self.more(self.soft_exp, [self.exp()])
        return tuple(items), self.expect(close)

    def args(self) -> tuple[tuple[ast.Exp, ...], int]:
        """`(e, ...)` of a call or a builtin, possibly empty: the arguments
        and the offset after `)`."""
        self.expect("(")
        first = self.soft_exp()
        args = [] if first is None else self.more(self.soft_exp, [first])
        return tuple(args), self.expect(")")

    def name_or_call(self) -> ast.Exp:
        start, name = self.starts[self.i], self.texts[self.i]
        span = self.next_span()
        if self.kinds[self.i] != "(":
            return ast.Var(name, span)
        args, end = self.args()
        return ast.Call(name, args, self.span(start, end), span)

    def number(self) -> ast.IntLit | ast.FloatLit:
        text = self.texts[self.i]
        return _number(self.next_span(), text)

    def bool(self) -> ast.BoolLit:
        return ast.BoolLit(self.kinds[self.i] == "true", self.next_span())

    def paren(self) -> ast.Exp:
        """`(e)` is `e` itself; `(e, ...)` a tuple."""
        start = self.take()
        items, end = self.items(")")
        return ast.TupleExp(items, self.span(start, end)) if len(items) > 1 else items[0]

    def let(self, soft: bool) -> ast.Exp:
        """`let p = e in` repeated, then the body: a loop, so that a chain
        of lets nests no calls. No expression starting where the body
        should is a fault as soft as the let's own start would be."""
        heads = []
        while self.kinds[self.i] == "let":
            start = self.take()
            is_tuple, names = self.pattern()
            self.expect("=")
            value = self.exp()
            self.expect("in")
            heads.append((start, is_tuple, names, value))
        body = self.exp(soft)
        for start, is_tuple, names, value in reversed(heads):
            body = ast.Let(tuple(n for n, _ in names), is_tuple, value, body, self.span(start, start + 3),
                           tuple(s for _, s in names))
        return body

    def pattern(self) -> tuple[bool, list[tuple[str, Span]]]:
        """A name, or a tuple of names: (whether a tuple, the names and their spans)."""
        kind = self.kinds[self.i]
        if kind == NAME:
            return False, [self.name()]
        if kind != "(":
            raise self.fault("a name or a tuple of names")
        self.i += 1
        names = self.more(lambda: self.name() if self.kinds[self.i] == NAME else None, [self.name()])
        self.expect(")")
        return True, names

    def if_(self) -> ast.If:
        start = self.take()
        cond = self.exp()
        self.expect("then")
        then = self.exp()
        self.expect("else")
        else_ = self.exp()
        return ast.If(cond, then, else_, self.span(start, self.exp_stop))

    def loop(self) -> ast.Loop:
        start = self.take()
        self.expect("(")
        params = self.more(lambda: self.loop_param() if self.kinds[self.i] == NAME else None, [self.loop_param()])
        self.expect(")")
        self.expect("=")
        self.expect("for")
        index, index_span = self.name()
        self.expect("<")
        bound = self.exp()
        self.expect("do")
        body = self.exp()
        self.expect("in")
        rest = self.exp()
        return ast.Loop(tuple(params), index, bound, body, rest, self.span(start, self.exp_stop), index_span)

    def loop_param(self) -> ast.LoopParam:
        """`name` or `name = e`: without a value, its span runs to the next token."""
        start = self.starts[self.i]
        name, _ = self.name()
        if self.kinds[self.i] != "=":
            return ast.LoopParam(name, None, self.span(start, self.starts[self.i]))
        self.i += 1
        init = self.exp()
        return ast.LoopParam(name, init, self.span(start, self.exp_stop))

    def lambda_(self) -> ast.Lambda:
        start = self.starts[self.i]
        self.expect("fn")
        ret = self.type()
        params = self.params()
        self.expect("=>")
        body = self.exp()
        return ast.Lambda(ret, params, body, self.span(start, self.exp_stop))

    def soac(self, cls) -> ast.Map | ast.StreamSeq:
        """`map` or `streamSeq`: `(lambda, e, ...)`, at least one array."""
        start = self.take()
        self.expect("(")
        lam = self.lambda_()
        self.expect(",")
        args = [self.exp()]
        while self.kinds[self.i] == ",":
            self.i += 1
            args.append(self.exp())
        return cls(lam, tuple(args), self.span(start, self.expect(")")))

    def stream_red(self) -> ast.StreamSeq:
        """`streamRed(combine, lambda, e, ...)`: a streamSeq with the combine of its partial results."""
        start = self.take()
        self.expect("(")
        combine = self.red_lambda()
        self.expect(",")
        lam = self.red_lambda()
        args = []
        while self.kinds[self.i] == ",":
            self.i += 1
            args.append(self.exp())
        return ast.StreamSeq(lam, tuple(args), self.span(start, self.expect(")")), combine)

    def red_lambda(self) -> ast.Lambda:
        """One of a streamRed's two lambdas (a name there, as a helper's, is a mistake worth its own message)."""
        if self.kinds[self.i] != "fn":
            raise UserError.at(self.span(self.starts[self.i], self.starts[self.i] + 1),
                               "streamRed takes two lambdas before its arrays: its combine, then its fold",
                               "write streamRed(fn A (A a, A b) => ..., fn A (int kk, [T, c] xs, A acc) => ..., xs, "
                               "ne); a helper may compute the combine's value, but not stand for the lambda")
        return self.lambda_()

    def zip(self) -> ast.Zip:
        start = self.take()
        args, end = self.args()
        return ast.Zip(args, self.span(start, end))

    def one_arg(self, cls) -> ast.Iota | ast.Transpose:
        word, start = self.kinds[self.i], self.take()
        args, end = self.args()
        span = self.span(start, end)
        if len(args) != 1:
            raise UserError.at(span, f"`{word}` takes one argument, got {len(args)}")
        return cls(args[0], span)


def _reduce(operands: list, ops: list) -> None:
    """The last operator applied to the last two operands."""
    (op, op_span, _), rhs = ops.pop(), operands.pop()
    lhs = operands.pop()
    operands.append(ast.BinOp(op, lhs, rhs, _join(lhs.span, rhs.span), op_span))


# ---- literals --------------------------------------------------------------


def _number(span: Span, text: str) -> ast.IntLit | ast.FloatLit:
    m = _NUMBER.fullmatch(text)
    digits, suffix = m.group(1), m.group(2)
    is_float = "." in digits or "e" in digits.lower()
    if suffix in FLOAT_SUFFIXES or (is_float and suffix == ""):
        return ast.FloatLit(float(digits), suffix, span)  # its range is the checker's (every error, in order)
    if suffix in ("", "i32", "i64") and not is_float:
        if len(digits.lstrip("0")) > LONGEST_INT:  # not converted (Python refuses past 4,300 digits): out of
            return ast.IntLit(TOO_LONG, suffix, span)  # every range, the checker says so, in order with the rest
        return ast.IntLit(int(digits), suffix, span)
    if suffix in ("i32", "i64"):
        raise UserError.at(span, f"a float literal cannot have the integer suffix `{suffix}`",
                           f"write `{digits}f32`, or drop the fraction for an integer")
    raise UserError.at(span, f"unknown literal suffix `{suffix}` in `{text}`", "suffixes are i32, i64, f32, f64, f16 and bf16")


def _size_literal(span: Span, text: str) -> int:
    """A size written as a number in a type: a C int."""
    digits = text.lstrip("0") or "0"
    if len(digits) > len(str(INT_MAX)) or int(digits) > INT_MAX:
        raise UserError.at(span, f"size {text} does not fit in a 32-bit int", f"sizes are at most {INT_MAX:,}")
    return int(digits)
