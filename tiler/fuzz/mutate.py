"""Broken programs from good ones: token mutations of a program's text."""
from __future__ import annotations

import random
import re

TOKEN = re.compile(r"--[^\n]*|[A-Za-z_][A-Za-z0-9_']*|\d[\w.]*|<=|>=|==|!=|&&|\|\||=>|\S")
KINDS = ("delete", "duplicate", "swap", "truncate", "flip type", "replace")
TYPES = ("f32", "int", "f64", "i64", "bool")


def mutate(text: str, seed: int) -> tuple[str, str]:
    """(kind, mutated text)."""
    r = random.Random(seed)
    spans = [m.span() for m in TOKEN.finditer(text)]
    kind = r.choice(KINDS)
    if not spans:
        return kind, text + "x"
    a, b = spans[r.randrange(len(spans))]
    if kind == "delete":
        return kind, text[:a] + text[b:]
    if kind == "duplicate":
        return kind, text[:b] + " " + text[a:b] + text[b:]
    if kind == "swap":
        n = r.randrange(len(spans) - 1) if len(spans) > 1 else 0
        (a, b), (c, d) = spans[n], spans[min(n + 1, len(spans) - 1)]
        return kind, text[:a] + text[c:d] + text[b:c] + text[a:b] + text[d:]
    if kind == "truncate":
        return kind, text[:a]
    if kind == "flip type":
        types = [s for s in spans if text[s[0]:s[1]] in TYPES]
        if types:
            a, b = r.choice(types)
            return kind, text[:a] + r.choice([t for t in TYPES if t != text[a:b]]) + text[b:]
    junk = r.choice(["(", ")", "[", "]", ",", "let", "in", "=", "0", "1.5", "x", "map", "streamSeq", "fn"])
    return "replace", text[:a] + junk + text[b:]
