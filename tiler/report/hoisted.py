"""The program with its work moved where it varies, drawn on its syntax.

Stage `kernel` moves work that reads nothing of its point to the lets of
the map level where it varies (kernel/hoist.py) and keeps a record of each
move. `--show-transformed` draws the program the analysis planned, so the
same moves are made on the syntax tree: a moved `let` leaves its place and
is bound just before the map inside its new level; a moved expression (a
loop, a stream, a helper's call) is bound there under the name the kernel
gave it and read by that name where it was. Work written inside a helper's
body is not in `main`'s syntax: it stays drawn where it is, and the
comment says where it runs.
"""
from __future__ import annotations

import dataclasses

from ..kernel.hoist import LAUNCH, PRELUDE
from ..source import Span
from ..syntax import ast
from ..tree import descendants, map_children
from .source_nodes import kernel_maps, main_of, span_key

KINDS = {"the loop": ast.Loop, "the streamSeq": ast.StreamSeq, "the streamRed": ast.StreamSeq, "the expression": ast.Call}


def with_hoisted(program: ast.Program, kernel) -> tuple[ast.Program, dict]:
    """The program with the kernel's moves made, and the comments that say
    what moved (keyed ("let", line, column) by the let each became)."""
    moves = [h for h in kernel.hoisted if h.moved]
    if not moves:
        return program, {}
    main = main_of(program)
    cut = _Cut(moves)
    body = cut(main.body)
    maps = {d: span_key(m) for d, m in enumerate(kernel_maps(_with_body(program, main, body), len(kernel.levels)))}
    lets: dict[tuple, list] = {}  # the span key of the map a level's moved lets go before -> those lets, in order
    firsts: dict[tuple, list] = {}  # the span key of the map whose lambda's body main's prelude lets now begin
    comments: dict[tuple, list] = {}
    for h in moves:
        let = cut.taken.get(h)
        where = f"{h.what} ({h.span.line}:{h.span.col})"
        if let is None or h.runs + 1 not in maps:  # in a helper's body: drawn where it is, said before it
            comments[_said_at(program, h)] = [f"runs {runs_text(h.runs)}, not in {level_text(h.written)}: {where}: "
                                              f"{h.reason}"]
            continue
        if h.written == PRELUDE:  # (before the level's own lets, which may read it: first in its lambda's body)
            firsts.setdefault(maps[h.runs], []).append(let)
        else:
            lets.setdefault(maps[h.runs + 1], []).append(let)
        to = "into a kernel of its own, once a launch" if h.runs == LAUNCH else f"to map level {h.runs}"
        comments[("let", *span_key(let))] = [f"hoisted from {level_text(h.written)} {to}: {where}: {h.reason}"]
    return _with_body(program, main, _Wrap(lets, firsts)(body)), comments


def runs_text(runs: int) -> str:
    """Where moved work runs, in words: at a map level, once a launch (kernel.hoist.LAUNCH), or where main's
    prelude was written (kernel.hoist.PRELUDE: a move the plan did not take)."""
    if runs == PRELUDE:
        return "in main's prelude, by every thread before its point"
    return "in a kernel of its own, once a launch" if runs == LAUNCH else f"at map level {runs}"


def level_text(level: int) -> str:
    """Where work was written, in words: a map level, or main's prelude (kernel.hoist.PRELUDE)."""
    return "main's prelude" if level == PRELUDE else f"map level {level}"


def _said_at(program: ast.Program, h) -> tuple:
    """Where a comment on work left where it is drawn goes: before its
    let (found in any function), else before the work itself."""
    for f in program.funs:
        for n in descendants(f.body, ast.is_node):
            if isinstance(n, ast.Let) and span_key(n.value) == span_key(h):
                return ("let", *span_key(n))
    return span_key(h)


def _with_body(program: ast.Program, main, body) -> ast.Program:
    funs = tuple(dataclasses.replace(f, body=body) if f is main else f for f in program.funs)
    return dataclasses.replace(program, funs=funs)


class _Cut:
    """Each moved let taken out of its place (its body left there), each
    moved expression replaced by its name."""

    def __init__(self, moves: list):
        self.lets = {span_key(h): h for h in moves if h.what.startswith("`")}
        self.exps = {(span_key(h), KINDS.get(h.what)): h for h in moves if not h.what.startswith("`")}
        self.taken: dict = {}  # a move -> the ast.Let it becomes

    def __call__(self, e):
        while isinstance(e, ast.Let) and span_key(e.value) in self.lets:
            self.taken[self.lets[span_key(e.value)]] = dataclasses.replace(e, value=self(e.value), body=None)
            e = e.body
        h = self.exps.get((span_key(e), type(e))) if ast.is_node(e) else None
        if h is not None:  # (a let of its own, at column 0 of its line: a key no node of the source has)
            self.taken[h] = ast.Let((h.name,), False, e, None, Span(e.span.file, e.span.line, 0, e.span.line, 0))
            return ast.Var(h.name, e.span)
        return map_children(e, self, ast.is_node) if ast.is_node(e) else e


class _Wrap:
    """The moved lets bound just before the map of the level inside their new one; main's prelude lets moved
    to a level, first in the body of its map's lambda."""

    def __init__(self, lets: dict, firsts: dict):
        self.lets, self.firsts = lets, firsts

    def __call__(self, e):
        if not ast.is_node(e):
            return e
        new = map_children(e, self, ast.is_node)
        if isinstance(e, ast.Map) and span_key(e) in self.firsts:
            body = new.lam.body
            for let in reversed(self.firsts[span_key(e)]):
                body = dataclasses.replace(let, body=body)
            new = dataclasses.replace(new, lam=dataclasses.replace(new.lam, body=body))
        if isinstance(e, ast.Map) and span_key(e) in self.lets:
            for let in reversed(self.lets[span_key(e)]):
                new = dataclasses.replace(let, body=new)
        return new
