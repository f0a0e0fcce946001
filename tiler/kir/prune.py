"""Drop declarations nobody reads or assigns (a map parameter the body never
uses, say; a carried value a stage of several blocks a row stops before) and per-thread arrays nobody loads from (with their stores, and
loops left empty): loads have no side effects, and the CUDA stays clean."""
from __future__ import annotations

import dataclasses

from . import LOCAL, ArrayDecl, Assign, Decl, For, If, Kernel, Load, Ref, Store, walk
from .walkers import node_fields


def prune(k: Kernel) -> Kernel:
    """The kernel and its stages, each pruned."""
    return dataclasses.replace(_prune(k), stages=tuple(_prune(s) for s in k.stages))


def _prune(k: Kernel) -> Kernel:
    while True:
        dropped: list = []
        body = _drop(k.body, _used(k.body), dropped)
        if not dropped:  # (a count, not a comparison of the whole body: 20,000 lets took a second pass to compare)
            return k
        k = dataclasses.replace(k, body=body)


def _used(stmts) -> set[str]:
    names: set[str] = set()
    for s in _statements(stmts):
        for name in node_fields(type(s)):
            if name in ("body", "then", "else_"):
                continue
            value = getattr(s, name)
            for node in walk(value if node_fields(type(value)) is not None or isinstance(value, tuple) else None):
                if isinstance(node, Ref):
                    names.add(node.name)
                elif isinstance(node, Load) and node.space == LOCAL:
                    names.add(node.buffer)
        if isinstance(s, Assign):
            names.add(s.name)  # an assignment keeps its target
    return names


def _statements(stmts):
    for s in stmts:
        yield s
        for field in ("body", "then", "else_"):
            yield from _statements(getattr(s, field, ()))


def _drop(stmts, used: set[str], dropped: list) -> tuple:
    """`stmts` without what nobody reads; each statement dropped joins `dropped`."""
    out = []
    for s in stmts:
        if isinstance(s, Decl) and s.name not in used or \
                isinstance(s, (ArrayDecl, Store)) and getattr(s, "space", LOCAL) == LOCAL and \
                (s.name if isinstance(s, ArrayDecl) else s.buffer) not in used:  # (a variable assigned later is used)
            dropped.append(s)
            continue
        if isinstance(s, For):
            s = dataclasses.replace(s, body=_drop(s.body, used, dropped))
            if not s.body:
                dropped.append(s)
                continue
        elif isinstance(s, If):
            s = dataclasses.replace(s, then=_drop(s.then, used, dropped), else_=_drop(s.else_, used, dropped))
        out.append(s)
    return tuple(out)


__all__ = ["prune"]
