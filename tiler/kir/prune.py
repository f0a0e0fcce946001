"""Drop declarations nobody reads or assigns (a map parameter the body never
uses, say; a carried value a stage of several blocks a row stops before) and per-thread arrays nobody loads from (with their stores, and
loops left empty): loads have no side effects, and the CUDA stays clean."""
from __future__ import annotations

import dataclasses

from . import LOCAL, ArrayDecl, Assign, Decl, For, If, Kernel, Load, Ref, Store, walk


def prune(k: Kernel) -> Kernel:
    """The kernel and its stages, each pruned."""
    return dataclasses.replace(_prune(k), stages=tuple(_prune(s) for s in k.stages))


def _prune(k: Kernel) -> Kernel:
    while True:
        used = _used(k.body)
        body = _drop(k.body, used)
        if body == k.body:
            return k
        k = dataclasses.replace(k, body=body)


def _used(stmts) -> set[str]:
    names: set[str] = set()
    for s in _statements(stmts):
        for f in dataclasses.fields(s):
            value = getattr(s, f.name)
            if f.name in ("body", "then", "else_"):
                continue
            for node in walk(value if dataclasses.is_dataclass(value) or isinstance(value, tuple) else None):
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


def _drop(stmts, used: set[str]) -> tuple:
    out = []
    for s in stmts:
        if isinstance(s, Decl) and s.name not in used:  # (a variable assigned later is used)
            continue
        if isinstance(s, (ArrayDecl, Store)) and getattr(s, "space", LOCAL) == LOCAL and \
                (s.name if isinstance(s, ArrayDecl) else s.buffer) not in used:
            continue
        if isinstance(s, For):
            s = dataclasses.replace(s, body=_drop(s.body, used))
            if not s.body:
                continue
        elif isinstance(s, If):
            s = dataclasses.replace(s, then=_drop(s.then, used), else_=_drop(s.else_, used))
        out.append(s)
    return tuple(out)


__all__ = ["prune"]
