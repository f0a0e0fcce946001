"""Tokens of LANGUAGE.md, for the parser in grammar.py.

`tokenize(code)` splits text (with its comments already blanked) into three
parallel lists: each token's kind, text and offset, ending with an `END`
token at the end of the text. A kind is the text itself for symbols and
keywords, `NAME`, `NUMBER`, or `STRAY` for a character no token starts
with (`.`, a lone `&`, `'`, ...), which the parser refuses where it stands.
"""
from __future__ import annotations

import re

KEYWORDS = frozenset(
    "fun fn let in loop for do if then else map zip iota transpose streamSeq streamRed true false".split()
)

NAME, NUMBER, STRAY, END = "name", "number", "stray", "end"

# One pattern, tried at each token's start: the longest symbols first, so
# that `<=` is one token and `<-` two. A number takes the letters after it
# as its suffix (`3in` is one token, refused as a literal, not `3` then
# `in`), and only spaces, tabs and new lines separate tokens.
_TOKEN = re.compile(r"""
    (?P<name> [A-Za-z_][A-Za-z0-9_']* )
  | (?P<number> \d+ (?:\.\d+)? (?:[eE][+-]?\d+)? (?:[A-Za-z_][A-Za-z0-9_']*)? )
  | (?P<symbol> <= | >= | == | != | && | \|\| | => | [-+*/%<>=!()\[\],] )
  | (?P<stray> [^ \t\r\n] )
""", re.VERBOSE)


def tokenize(code: str) -> tuple[list[str], list[str], list[int]]:
    kinds, texts, starts = [], [], []
    for m in _TOKEN.finditer(code):
        text, group = m.group(), m.lastgroup
        if group == "name":
            kinds.append(text if text in KEYWORDS else NAME)
        elif group == "symbol":
            kinds.append(text)
        else:
            kinds.append(NUMBER if group == "number" else STRAY)
        texts.append(text)
        starts.append(m.start())
    kinds.append(END)
    texts.append("")
    starts.append(len(code))
    return kinds, texts, starts
