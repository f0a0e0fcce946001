"""For `--show-transformed`: the source's loops that the kernel stage read as
streams (tiler/kernel/loops.py), written as those streams, so that the
drawing shows the program tiler planned.

`loop (acc = 0f32) = for k < m do acc + row[k] * x[k] in acc` is drawn as

    let (acc) = streamSeq(fn f32 (int kk, [int, chunk] ks, f32 acc) =>
                            loop (acc) = for k < chunk do acc + row[kk + k] * x[kk + k] in acc,
                          iota(m), 0f32) in acc

its names new to the source. The reads keep their spans,
so the promoted ones are then drawn as stream inputs like any other
(`transformed._with_promotions`), after which the positions `ks`, which the
kernel stage drops, are dropped here too (`without_positions`).
"""
from __future__ import annotations

import dataclasses
import re

from ..check import typed as T
from ..check.types import Array, Tuple
from ..kernel.loops import read_loops
from ..syntax import ast, pretty
from ..tree import map_children
from .source_nodes import span_key


def loop_streams(kernel: T.Kernel) -> dict[tuple, T.Stream]:
    """The kernel's streams written as loops in the source, by the loop's (line, column)."""
    return {span_key(s): s for s in read_loops(kernel)}


def with_loop_streams(program: ast.Program, streams: dict[tuple, T.Stream]) -> tuple[ast.Program, dict]:
    """`program` with each loop of `streams` written as its stream, and the
    name of each such stream's positions, by the loop's (line, column). The
    stream's names are new to the source: the kernel's may not be (a dead
    `let` or a helper's size keeps a name the kernel no longer binds)."""
    if not streams:
        return program, {}
    taken = set(re.findall(r"[A-Za-z_][A-Za-z0-9_']*", pretty(program)))
    positions = {}

    def fresh(base: str) -> str:
        name = next(f"{base}{n or ''}" for n in range(len(taken) + 1) if f"{base}{n or ''}" not in taken)
        taken.add(name)
        return name

    def rewrite(e):
        e = map_children(e, rewrite, ast.is_node)
        if isinstance(e, ast.Loop) and span_key(e) in streams:
            s = streams[span_key(e)]
            offset, chunk = fresh(s.offset.name), fresh("chunk")
            positions[span_key(e)] = fresh(f"{e.index}s")
            return _as_stream(e, s, offset, chunk, positions[span_key(e)])
        return e

    rewritten = dataclasses.replace(program, funs=tuple(dataclasses.replace(f, body=rewrite(f.body))
                                                        for f in program.funs))
    return rewritten, positions


def without_positions(program: ast.Program, positions: dict) -> ast.Program:
    """The positions (and their `iota`) gone from each loop's stream, now
    that its promoted reads are its inputs (`positions`: with_loop_streams')."""
    if not positions:
        return program

    def drop(e):
        e = map_children(e, drop, ast.is_node)
        if not (isinstance(e, ast.StreamSeq) and span_key(e) in positions):
            return e
        at = next(n for n, p in enumerate(e.lam.params) if p.name == positions[span_key(e)])
        lam = dataclasses.replace(e.lam, params=e.lam.params[:at] + e.lam.params[at + 1:])
        return dataclasses.replace(e, lam=lam, args=e.args[:at - 1] + e.args[at:])

    return dataclasses.replace(program, funs=tuple(dataclasses.replace(f, body=drop(f.body)) for f in program.funs))


def _as_stream(loop: ast.Loop, s: T.Stream, offset: str, chunk: str, positions: str) -> ast.Let:
    names = tuple(p.name for p in loop.params)
    at = ast.BinOp("+", ast.Var(offset), ast.Var(loop.index))
    results = ast.Var(names[0]) if len(names) == 1 else ast.TupleExp(tuple(ast.Var(n) for n in names))
    inner = ast.Loop(tuple(ast.LoopParam(p.name, None, p.span) for p in loop.params), loop.index, ast.Var(chunk),
                     _substituted(loop.body, loop.index, at), results)  # (the comments are the stream's: no span)
    types = tuple(_type_exp(b.type) for b in s.acc_params)
    params = (ast.Param(ast.TScalar("int"), offset), ast.Param(ast.TArray(ast.TScalar("int"), chunk), positions),
              *(ast.Param(t, n) for t, n in zip(types, names)))
    lam = ast.Lambda(types[0] if len(types) == 1 else ast.TTuple(types), params, inner, loop.span)
    inits = tuple(p.init if p.init is not None else ast.Var(p.name) for p in loop.params)
    stream = ast.StreamSeq(lam, (ast.Iota(loop.bound), *inits), loop.span)
    return ast.Let(names, len(names) > 1, stream, loop.rest)


def _type_exp(t) -> ast.TypeExp:
    """A typed value's type as the source writes it."""
    if isinstance(t, Array):
        out = ast.TScalar(str(t.elem))
        for size in reversed(t.shape):  # (the outer size is written last)
            out = ast.TArray(out, size if isinstance(size, int) else size.name)
        return out
    if isinstance(t, Tuple):
        return ast.TTuple(tuple(_type_exp(i) for i in t.items))
    return ast.TScalar(str(t))


def _substituted(e, name: str, by):
    """`e` with its reads of `name` replaced by `by`, where `name` is not bound again."""
    if isinstance(e, ast.Var):
        return by if e.name == name else e
    if isinstance(e, ast.Lambda) and any(p.name == name for p in e.params):
        return e
    if isinstance(e, ast.Loop) and (e.index == name or any(p.name == name for p in e.params)):
        # a loop binds its index in its body, its parameters in its body and after it; its inits and bound are outside
        params = tuple(dataclasses.replace(p, init=_substituted(p.init, name, by)) if p.init is not None else p
                       for p in e.params)
        rebound = any(p.name == name for p in e.params)
        return dataclasses.replace(e, params=params, bound=_substituted(e.bound, name, by),
                                   rest=e.rest if rebound else _substituted(e.rest, name, by))
    if isinstance(e, ast.Let) and name in e.names:
        return dataclasses.replace(e, value=_substituted(e.value, name, by))
    return map_children(e, lambda c: _substituted(c, name, by), ast.is_node)
