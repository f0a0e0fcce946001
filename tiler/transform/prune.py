"""Drop what nothing the kernel does depends on: a declaration, assignment,
per-thread array or shared array whose value reaches no store to global
memory (a map parameter the body never uses; the reduction a stage of
several blocks a row combines and then never reads, with its shared
arrays), and the loops and ifs left empty. Reading memory has no side
effects and barriers stay, so the kernel does the same; its CUDA holds only
what counts, and the shared memory it declares is what ptxas keeps (ptxas
drops the same code).

Liveness, not reference counts: a value that only feeds itself (a carried
variable assigned from its own last value, read by nothing else) is dead
too. A shared array lives when a live statement reads it, in any thread:
then every store into it counts. Each statement is visited once, each
name's definitions once, so the pass is linear in the kernel's size."""
from __future__ import annotations

import dataclasses

from ..kir import (
    GLOBAL,
    SHARED,
    ArrayDecl,
    Assign,
    AsyncCopy,
    AsyncWait,
    Barrier,
    Decl,
    For,
    If,
    Kernel,
    Load,
    MatrixChunk,
    MatrixStore,
    Ref,
    Store,
    VecLoad,
    VecStore,
    walk,
)
from ..kir.nodes import BODIES
from ..kir.walkers import node_fields, statements


def prune(k: Kernel) -> Kernel:
    """The kernel and its stages, each pruned."""
    return dataclasses.replace(_prune(k), stages=tuple(_prune(s) for s in k.stages))


def _prune(k: Kernel) -> Kernel:
    liveness = _Liveness(k.body)
    if len(liveness.live) == len(liveness.reads):  # (every statement counts: nothing to rebuild)
        return k
    shared = tuple(a for a in k.shared if a.name in liveness.names or a.name not in liveness.defs)
    body, _ = _kept(k.body, liveness, 0)
    return dataclasses.replace(k, body=_spaced(body), shared=shared)


class _Liveness:
    """Which statements count: the effects (stores to global memory, waits
    for asynchronous copies, barriers, comments), what their values read,
    what defines those, and so on; a loop or an if counts when anything
    inside it does (and then what its bounds or condition read).

    A statement is known by its place: its number in the body's order (the
    same node may stand in two places, and count in one of them only)."""

    def __init__(self, stmts):
        self.defs: dict[str, list[int]] = {}  # name -> the places that define it
        self.reads: list[list[str]] = []  # place -> the names its statement reads (bodies apart)
        self.parent: list[int | None] = []  # place -> the place of the loop or if holding it
        self.extent: list[int] = []  # place -> the places its statement spans, itself and its bodies'
        self.live: set[int] = set()  # places
        self.names: set[str] = set()  # live names
        self.pending: list[str] = []
        effects: list[int] = []
        self._survey(stmts, None, effects)
        for place in effects:
            self._mark(place)
        while self.pending:
            for place in self.defs.get(self.pending.pop(), ()):
                self._mark(place)

    def _survey(self, stmts, parent: int | None, effects: list) -> None:
        for s in stmts:
            place = len(self.reads)
            self.parent.append(parent)
            self.reads.append(_reads(s))
            self.extent.append(1)
            defined = _defines(s)
            if defined is not None:
                self.defs.setdefault(defined, []).append(place)
            elif not isinstance(s, (For, If)):
                effects.append(place)
            for name in BODIES:
                self._survey(getattr(s, name, ()), place, effects)
            self.extent[place] = len(self.reads) - place

    def _mark(self, place: int | None) -> None:
        while place is not None and place not in self.live:
            self.live.add(place)
            for name in self.reads[place]:
                if name not in self.names:
                    self.names.add(name)
                    self.pending.append(name)
            place = self.parent[place]  # (a statement counts: so do the loops and ifs around it)


def _defines(s) -> str | None:
    """The name a statement only defines (a value, or elements of a
    per-thread or shared array); None for an effect, a loop or an if."""
    if isinstance(s, (Decl, Assign, ArrayDecl)):
        return s.name
    if isinstance(s, (Store, VecStore)) and s.space != GLOBAL:
        return s.buffer
    if isinstance(s, AsyncCopy):
        return s.shared
    return None


def _reads(s) -> list[str]:
    """The names a statement's own expressions read (its bodies apart): values,
    per-thread and shared arrays; a loop reads its own variable too (its
    test and step do: an assignment to it in the body counts with the loop)."""
    names = [s.var] if isinstance(s, For) else []
    for field in node_fields(type(s)):
        if field in BODIES:
            continue
        for node in walk(_walkable(getattr(s, field))):
            if isinstance(node, Ref):
                names.append(node.name)
            elif isinstance(node, (Load, VecLoad)) and node.space != GLOBAL:
                names.append(node.buffer)
    return names


def _kept(stmts, liveness: _Liveness, place: int) -> tuple[tuple, int]:
    """`stmts`, whose first statement is at `place`, without the statements
    that do not count (a loop or an if counts only with something inside it
    that does); and the place after them."""
    out = []
    for s in stmts:
        if place not in liveness.live:
            place += liveness.extent[place]
            continue
        place += 1
        if isinstance(s, For):
            body, place = _kept(s.body, liveness, place)
            s = s if _same(body, s.body) else dataclasses.replace(s, body=body)
        elif isinstance(s, If):
            then, place = _kept(s.then, liveness, place)
            else_, place = _kept(s.else_, liveness, place)
            s = s if _same(then, s.then) and _same(else_, s.else_) else dataclasses.replace(s, then=then, else_=else_)
        out.append(s)
    return tuple(out), place


def _same(a: tuple, b: tuple) -> bool:
    """The same statements, object for object (no deep comparison)."""
    return len(a) == len(b) and all(x is y for x, y in zip(a, b))


def _spaced(stmts) -> tuple:
    """The kernel's body without a barrier that no shared-memory access
    precedes since the kernel began or since the barrier before it (what
    dropped code leaves: the two barriers around a combination nobody
    reads). Only at the body's top level, where the order is the order of
    the statements."""
    out, touched = [], False
    for s in stmts:
        if isinstance(s, Barrier):
            if not touched:
                continue
            touched = False
        elif not touched:
            touched = any(_touches_shared(n) for n in statements((s,)))
        out.append(s)
    return tuple(out)


def _touches_shared(s) -> bool:
    """Whether a statement (its bodies apart) reads or writes shared memory,
    or waits for copies into it, or is a barrier (a loop's own barrier
    orders its accesses with those after it)."""
    if isinstance(s, (Barrier, AsyncCopy, AsyncWait, MatrixStore, MatrixChunk)):  # (the units' tiles are shared)
        return True
    if isinstance(s, (Store, VecStore)) and s.space == SHARED:
        return True
    return any(isinstance(n, (Load, VecLoad)) and n.space == SHARED for field in node_fields(type(s))
               if field not in BODIES for n in walk(_walkable(getattr(s, field))))


def _walkable(value):
    return value if node_fields(type(value)) is not None or isinstance(value, tuple) else None


__all__ = ["prune"]
