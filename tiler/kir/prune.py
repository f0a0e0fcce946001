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

from . import (
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
    Ref,
    Store,
    VecLoad,
    VecStore,
    walk,
)
from .nodes import BODIES
from .walkers import node_fields


def prune(k: Kernel) -> Kernel:
    """The kernel and its stages, each pruned."""
    return dataclasses.replace(_prune(k), stages=tuple(_prune(s) for s in k.stages))


def _prune(k: Kernel) -> Kernel:
    liveness = _Liveness(k.body)
    if len(liveness.live) == len(liveness.reads):  # (every statement counts: nothing to rebuild)
        return k
    shared = tuple(a for a in k.shared if a.name in liveness.names or a.name not in liveness.defs)
    return dataclasses.replace(k, body=_spaced(_kept(k.body, liveness.live)), shared=shared)


class _Liveness:
    """Which statements count: the effects (stores to global memory, waits
    for asynchronous copies, barriers, comments), what their values read,
    what defines those, and so on; a loop or an if counts when anything
    inside it does (and then what its bounds or condition read)."""

    def __init__(self, stmts):
        self.defs: dict[str, list] = {}  # name -> the statements that define it
        self.reads: dict[int, list[str]] = {}  # id(statement) -> the names it reads (bodies apart)
        self.parent: dict[int, object] = {}  # id(statement) -> the loop or if holding it
        self.live: set[int] = set()  # id(statement)
        self.names: set[str] = set()  # live names
        self.pending: list[str] = []
        effects = []
        self._survey(stmts, None, effects)
        for s in effects:
            self._mark(s)
        while self.pending:
            for s in self.defs.get(self.pending.pop(), ()):
                self._mark(s)

    def _survey(self, stmts, parent, effects: list) -> None:
        for s in stmts:
            self.parent[id(s)] = parent
            self.reads[id(s)] = _reads(s)
            defined = _defines(s)
            if defined is not None:
                self.defs.setdefault(defined, []).append(s)
            elif not isinstance(s, (For, If)):
                effects.append(s)
            for name in BODIES:
                self._survey(getattr(s, name, ()), s, effects)

    def _mark(self, s) -> None:
        while s is not None and id(s) not in self.live:
            self.live.add(id(s))
            for name in self.reads[id(s)]:
                if name not in self.names:
                    self.names.add(name)
                    self.pending.append(name)
            s = self.parent[id(s)]  # (a statement counts: so do the loops and ifs around it)


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
    per-thread and shared arrays."""
    names = []
    for field in node_fields(type(s)):
        if field in BODIES:
            continue
        for node in walk(_walkable(getattr(s, field))):
            if isinstance(node, Ref):
                names.append(node.name)
            elif isinstance(node, (Load, VecLoad)) and node.space != GLOBAL:
                names.append(node.buffer)
    return names


def _kept(stmts, live: set[int]) -> tuple:
    """`stmts` without the statements that do not count (a loop or an if
    counts only with something inside it that does)."""
    out = []
    for s in stmts:
        if id(s) not in live:
            continue
        if isinstance(s, For):
            body = _kept(s.body, live)
            s = s if body == s.body else dataclasses.replace(s, body=body)
        elif isinstance(s, If):
            then, else_ = _kept(s.then, live), _kept(s.else_, live)
            s = s if (then, else_) == (s.then, s.else_) else dataclasses.replace(s, then=then, else_=else_)
        out.append(s)
    return tuple(out)


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
            touched = any(_touches_shared(n) for n in _inside(s))
        out.append(s)
    return tuple(out)


def _inside(s):
    """A statement and every statement in its bodies."""
    yield s
    for name in BODIES:
        for t in getattr(s, name, ()):
            yield from _inside(t)


def _touches_shared(s) -> bool:
    """Whether a statement (its bodies apart) reads or writes shared memory,
    or waits for copies into it, or is a barrier (a loop's own barrier
    orders its accesses with those after it)."""
    if isinstance(s, (Barrier, AsyncCopy, AsyncWait)):
        return True
    if isinstance(s, (Store, VecStore)) and s.space == SHARED:
        return True
    return any(isinstance(n, (Load, VecLoad)) and n.space == SHARED for field in node_fields(type(s))
               if field not in BODIES for n in walk(_walkable(getattr(s, field))))


def _walkable(value):
    return value if node_fields(type(value)) is not None or isinstance(value, tuple) else None


__all__ = ["prune"]
