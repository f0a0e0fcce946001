"""Stage `parse`: program text -> `ast.Program`.

`parse(text, file)` returns the syntax tree or raises `UserError` with the
source attached. Comments are blanked (keeping every offset) before the
parser (grammar.py) sees the text; characters outside the language and
runaway nesting are refused first, with their own located messages.
"""
from __future__ import annotations

import difflib
import re
import unicodedata

from ..errors import Diagnostic, UserError
from ..source import BOM, Source
from ..tree import no_cycle_collection
from . import ast, grammar
from .printer import pretty

__all__ = ["parse", "parse_expression", "pretty", "ast", "deepest"]

_COMMENT = re.compile(r"--[^\n]*")
_REFUSED = re.compile(r"[^A-Za-z0-9_' \t\r\n()\[\],=<>!+\-*/%&|.]")
# characters a reader may not see, named in messages
_NAMED = {"\x0b": "vertical tab", "\x0c": "form feed", "\xa0": "no-break space", BOM: "byte-order mark",
          "\u200b": "zero-width space", "\x00": "NUL"}
_OPEN, _CLOSE = "([", ")]"
_BRACKET = re.compile(r"[()\[\]]")


def parse(text: str, file: str = "<input>") -> ast.Program:
    source = Source(text, file)
    text = source.text
    code = _COMMENT.sub(lambda m: " " * len(m.group()), text)
    _check_characters(code, source)
    _check_nesting(code, source)
    funs = _run(grammar.parse_program, code, source)
    if not funs:
        found = "an empty file" if not text.strip() else "only comments" if not code.strip() else _found(code, 0)
        raise UserError.at(source.span(0), "expected a function definition, found " + found,
                           "a program is one or more `fun TYPE NAME(PARAMS) = EXP`", source)
    return ast.Program(tuple(funs), file)


def _check_characters(code: str, source: Source) -> None:
    m = _REFUSED.search(code)
    if m:
        ch = m.group()
        shown = repr(ch) if ch.isprintable() and not ch.isspace() else f"U+{ord(ch):04X}"
        name = _NAMED.get(ch) or unicodedata.name(ch, "").lower()
        shown += f" ({name})" if name else ""
        hint = "separate tokens with spaces, tabs or new lines" if ch.isspace() or ch in _NAMED else \
            _ASCII_HINTS.get(ch, "no token of tiler's starts with it (docs/language.md lists them)") if ch.isascii() \
            else "tiler programs are ASCII; comments start with `--`"
        raise UserError.at(source.span(m.start()), f"unexpected character {shown}", hint, source)


_ASCII_HINTS = {"\\": "a lambda is `fn R (T x, ...) => body` (its result type first), an argument of `map` or "
                       "`streamSeq`", ";": "there are no statements: bind with `let x = e in ...`",
                "{": "no braces: a body is one expression (`let`s, `loop`s and `if`s nest)",
                "}": "no braces: a body is one expression (`let`s, `loop`s and `if`s nest)",
                ":": "a type comes before its name (`f32 x`, `[f32, n] xs`); there are no slices",
                '"': "there are no strings; comments start with `--`", "#": "comments start with `--`"}


def _check_nesting(code: str, source: Source) -> None:
    depth = 0
    for m in _BRACKET.finditer(code):
        if m.group() in _OPEN:
            depth += 1
            if depth > grammar.MAX_NESTING:
                raise UserError.at(source.span(m.start()), f"brackets nested more than "
                                   f"{grammar.MAX_NESTING} deep", "split the expression with `let`", source)
        else:
            depth = max(0, depth - 1)


_NESTING_TOKEN = re.compile(r"[()\[\]]|\b(?:if|let|loop|fn|fun)\b")


def deepest(text: str, lets: bool = True) -> tuple[int, int]:
    """(depth, offset) of the most deeply nested construct, by a scan of the
    text alone (it must work where parsing itself ran out of room): a bracket
    opens a level until it closes; `if`, `let`, `loop` and `fn` open one that
    lasts until the bracket around them closes (their last part, an `else`
    branch or a body, runs on to there); each `fun` starts at the top.
    Without `lets`, a `let` opens no level (a chain of them is followed
    much further than other nesting)."""
    code = _COMMENT.sub(lambda m: " " * len(m.group()), text)
    levels = [0]  # constructs opened inside each open bracket
    opened = 0  # their sum
    best = (0, 0)
    for m in _NESTING_TOKEN.finditer(code):
        token = m.group()
        if token == "fun":  # a new definition starts at the top again
            levels, opened = [0], 0
            continue
        if token == "let" and not lets:
            continue
        if token in _OPEN:
            levels.append(0)
        elif token in _CLOSE:
            if len(levels) > 1:
                opened -= levels.pop()
            continue
        else:
            levels[-1] += 1
            opened += 1
        depth = len(levels) - 1 + opened
        if depth > best[0]:
            best = (depth, m.start())
    return best


def _found(code: str, loc: int) -> str:
    if loc >= len(code) or not code[loc:].strip():
        return "the end of the file"
    m = re.match(r"[A-Za-z_][A-Za-z0-9_']*|\d[\w.']*|<=|>=|==|!=|&&|\|\||=>|\S", code[loc:])
    return f"`{m.group()}`"


def _diagnose(fault: grammar.SyntaxFault, code: str, source: Source) -> Diagnostic:
    loc = fault.loc
    while loc < len(code) and code[loc].isspace():
        loc += 1
    expected, found = fault.expected, _found(code, loc)
    hint = ""
    if expected == grammar.END_OF_FILE:
        message = f"unexpected {found}: expected an operator, `fun` or the end of the file"
        hint = "a function body ends where the next `fun` begins"
    else:
        message = f"expected {expected}, found {found}"
        if found == "`=`" and expected == "'then'":  # `if x = 0 then`
            hint = "comparison is `==`"
        elif found.strip("`") in grammar.KEYWORDS and "name" in expected:
            hint = f"`{found.strip('`')}` is a keyword and cannot be used as a name"
        else:
            hint = _habit(code[:loc], found, expected)
    return Diagnostic(source.span(loc, loc + max(1, len(found.strip('`'))) if found.startswith("`") else None),
                      message, hint)


# what a program written from another language's habits meets: a hint for each
_NO_SUCH = re.compile(r"\b(reduce|reduce_comm|scan|filter|foldl|foldr|map2|map3|zipWith)\s*\(\s*$")
_LAMBDA_START = re.compile(r"\bfn\s*\(\s*(\[[^\[\]]*\]|[A-Za-z_]\w*)\s*$")  # `fn (` and one type: then a name
_CALLED = re.compile(r"\b([A-Za-z_]\w*)\s*\(\s*$")  # the name called just before the error
_TAKES_LAMBDA = ("map", "streamSeq")
# other languages' names of tiler's types
_OTHER_TYPES = {"float": "f32", "double": "f64", "float32": "f32", "float64": "f64", "int32": "i32", "int64": "i64",
                "long": "i64", "i32_t": "i32", "int32_t": "i32", "int64_t": "i64", "boolean": "bool", "Bool": "bool",
                "Int": "int", "Float": "f32", "Double": "f64", "real": "f32"}


def _habit(before: str, found: str, expected: str) -> str:
    """A hint where the text before a syntax error shows a habit of another
    language (Futhark's `reduce`, a lambda without its result type, a
    projection `t.0`, a `loop` without `in`)."""
    if found == "`fn`":
        m = _NO_SUCH.search(before)
        if m:
            return f"tiler has no `{m.group(1)}`: a reduction is a `loop` or `streamSeq` carrying an accumulator"
        called = _CALLED.search(before)
        if called and called.group(1) not in _TAKES_LAMBDA:
            close = difflib.get_close_matches(called.group(1).lower(), [w.lower() for w in _TAKES_LAMBDA], 1, 0.6)
            if close:
                spelled = next(w for w in _TAKES_LAMBDA if w.lower() == close[0])
                return f"did you mean `{spelled}`? (`{called.group(1)}` is no function that takes a lambda)"
        return "a lambda is an argument of `map` or `streamSeq` only"
    if expected == "a type" and found.strip("`") in _OTHER_TYPES:
        return f"tiler spells it `{_OTHER_TYPES[found.strip('`')]}` (the types are {', '.join(grammar.SCALAR_TYPES)})"
    if _LAMBDA_START.search(before) and re.fullmatch(r"`[A-Za-z_]\w*`", found) \
            and found.strip("`") not in grammar.SCALAR_TYPES:  # (a name where a tuple type's next would be)
        return "a lambda gives its result type first: `fn R (T x, ...) => body`"
    if found in ("`<`", "`>`", "`<=`", "`>=`") and re.search(r"[<>]\s*$", before):  # `x << 2`, `x >> 1`
        return "tiler has no shift operators: multiply or divide by a power of two (`x * 4`, `x / 2`)"
    if found == "`.`":
        return "there is no `.`: bind a tuple's parts with `let (a, b) = e in ...`; floats are written `1.0`"
    if expected == "'in'":
        return "a `let` or `loop` ends with `in` and what follows: `loop (acc) = for k < n do body in acc`"
    return ""


def parse_expression(text: str, file: str = "<expression>") -> ast.Exp:
    """One expression on its own (size formulas and FLOP counts in benchmark metadata)."""
    source = Source(text, file)
    return _run(grammar.parse_exp, source.text, source)


def _run(parse_with, code: str, source: Source):
    """Parse `code` with one of grammar.py's entry points; a failure is a
    located UserError. The tree holds no cycles, so the cycle collector is
    off meanwhile: it would walk the growing tree again and again (half the
    time of parsing a large program)."""
    try:
        with no_cycle_collection():
            return parse_with(code, source)
    except grammar.SyntaxFault as fault:
        raise UserError([_diagnose(fault, code, source)], source) from None
    except UserError as exc:
        raise exc.with_source(source) from None
