"""The binders of a typed expression: which it binds (`bound`), which it
reads (`used`) and which it reads but does not bind (`free`), for the
stages after `check` that rewrite or read its programs."""
from __future__ import annotations

from ..tree import descendants
from . import typed as T


def bound(e) -> set:
    """Every binder bound in `e`: by its lets, loops and streams."""
    out: set = set()
    for n in descendants(e, T.is_exp):
        if isinstance(n, T.Let):
            out.update(n.binders)
        elif isinstance(n, T.Loop):
            out.update((*n.params, n.index, *n.results))
        elif isinstance(n, T.Stream):
            out.update((n.offset, n.chunk, *n.chunk_params, *n.acc_params))
    return out


def used(e) -> set:
    """The binders `e` refers to."""
    return {n.binder for n in descendants(e, T.is_exp) if isinstance(n, T.Var)}


def free(e) -> set:
    """The binders `e` reads but does not bind."""
    return used(e) - bound(e)
