"""Work moved to the map level where it varies (hoisting by invariance).

A softmax whose every element streams its whole row for the row's maximum,

    map(fn (row) => map(fn (x) => let mx = streamSeq(..., row, ...) in exp(x - mx) ..., row), X)

computes the same maximum once a point; the maximum reads `row` and nothing
of the inner map. Moved to the outer map's lets,

    map(fn (row) => let mx = streamSeq(..., row, ...) in map(fn (x) => exp(x - mx) ..., row), X)

it is computed once a row, where the row's threads share it as a reduction
(analyse/reductions.py). So every piece of work (a `let` whose value holds a
loop or a stream, or such a loop, stream or inlined helper written inside a
larger expression) that reads nothing of its own level is moved to the
deepest level whose names it reads: a level's params and lets, or, for
work that reads no level's names (a sum over a vector of main's), the
outermost level's lets, computed once a row of it. Only work the level's
code always runs is moved (not an `if`'s branch, the right of `&&` or `||`,
nor a loop's or a stream's body): the language is pure, and the reference
interpreter already evaluates a level's code once for all its points, so
the moved program computes what the source does. Scalars only (a level's
lets name scalars and rows). And only work that holds a reduction the
row's threads can share: anything else would still run whole on each
point's thread, from a level whose loops the tiled kernel does not stage.

In a kernel of one level, work that reads no map level's names (a sum over
a vector of main's) and holds such a reduction moves out of the level
altogether, to `k.launch`: it is computed once a launch, by a kernel of one
point that runs before the others (`launched`, which analyse plans like any
kernel: its reductions split among a block's threads), and its values are
passed to them. Those moves are made first, on their own: the kernel as
written that `analyse` falls back to (where no row is split) keeps them. In
a kernel of more levels such work moves to the outermost level's lets, once
a row of it: measured on an H200 (benchmarks/RESULTS.md), X scaled by w /
||w|| at 8192 x 8192 ran 0.188 ms so (each row's threads share the norm and
walk the row's points) and 0.27 ms once a launch (the 2-D untiled kernel
that is left, a point a thread, runs at 40% of copy bandwidth).
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from ..analyse.folds import combined, operators
from ..analyse.reductions import too_few
from ..check import typed as T
from ..check.binders import bound, used
from ..check.types import Binder, Scalar
from ..source import Span
from ..tree import descendants, map_children
from .names import fresh, kernel_names

WORK = (T.Loop, T.Stream)


@dataclass(frozen=True)
class Hoist:
    """One piece of work that reads nothing of the level it was written at."""

    what: str  # "`mx`", or "the loop" for work inside a larger expression
    name: str  # the names it binds (work inside an expression: the one made for its value), comma-separated
    span: Span
    written: int  # the map level whose code held it
    runs: int  # the level whose lets now compute it (== written: it stays)
    reads: tuple[str, ...]  # the names of the levels' it reads (empty: none)
    reason: str

    @property
    def moved(self) -> bool:
        return self.runs != self.written


LAUNCH = -1  # the level work of no map level's names runs at: once a launch, by a kernel of its own
PRELUDE = -2  # where work written in main's prelude, before the maps, was written (every thread ran it)


def hoisted(k: T.Kernel, launch_only: bool = False) -> T.Kernel:
    """The kernel with its work moved out to the levels where it varies (or
    with `launch_only`, only the work of no level's names, moved to
    `k.launch`), and the moves recorded in `k.hoisted`."""
    if not k.levels or not (T.node_kinds(k) & set(WORK) or prelude_work(k)):
        return k
    h = _Hoister(k, launch_only)
    prelude = h.prelude(k)
    levels = list(k.levels)
    for d in range(1, len(levels)):  # a level's lets may move further out
        lets = []
        for binders, value in levels[d].lets:
            lets += h.let(binders, value, d)
        levels[d] = dataclasses.replace(levels[d], lets=tuple(lets))
    body = h.exp(k.body, len(levels) - 1, frozenset())
    if not h.records:
        return k
    for d, moved in enumerate(h.moved):  # (the prelude's moves go before level 0's own lets, which may read them)
        first = tuple(h.first) if d == 0 else ()
        levels[d] = dataclasses.replace(levels[d], lets=first + levels[d].lets + tuple(moved))
    return dataclasses.replace(k, prelude=prelude, levels=tuple(levels), body=body,
                               hoisted=k.hoisted + tuple(h.records), launch=k.launch + tuple(h.launch))


def prelude_work(k: T.Kernel) -> bool:
    """Whether main's prelude holds a loop or a stream (node_kinds walks the levels and the body alone)."""
    return any(isinstance(n, WORK) for p in _computed(k) for n in descendants(p.value, T.is_exp))


def _computed(k: T.Kernel) -> list:
    """Main's prelude lets that compute a value (not the launch's transposed copies of arrays)."""
    return [p for p in k.prelude if not isinstance(p.value, T.Transpose)]


class _Hoister:
    def __init__(self, k: T.Kernel, launch_only: bool = False):
        self.launch_only = launch_only
        self.launch: list = []  # the lets moved to the launch's own kernel, in order
        self.level_of: dict[Binder, int] = {b: LAUNCH for bs, _ in k.launch for b in bs}
        for d, lv in enumerate(k.levels):
            self.level_of.update((p, d) for p in lv.params)
            self.level_of.update((b, d) for bs, _ in lv.lets for b in bs)
        self.moved: list[list] = [[] for _ in k.levels]  # the lets moved to each level, in order
        self.first: list = []  # main's prelude lets moved to map level 0, in order
        self.records: list[Hoist] = []
        self.names = kernel_names(k)
        self.single = len(k.levels) == 1
        self.stays: set = set()  # where the work that stays was written (each recorded once)
        self.aliases: dict = {}  # a kept let's binder -> (its value, the levels' names it reads): lets.alias
        self._work: dict[int, bool] = {}  # id of a node -> whether it holds a loop or a stream (this pass only)

    def prelude(self, k: T.Kernel) -> tuple:
        """Main's prelude with its work moved out, which every thread ran before its point: a scalar let
        holding a reduction threads can share, which no other prelude let nor map level's argument reads, is
        computed once a launch in a kernel of one level, else once a row of map level 0 (as work of no level's
        names written in a level is); the prelude lets left."""
        computed = _computed(k)
        needed = set().union(*(used(p.value) for p in computed), *(used(a) for lv in k.levels for a in lv.args))
        target = LAUNCH if self.single else None if self.launch_only else 0
        moves = [] if target is None else [p for p in computed if isinstance(p.binder.type, Scalar) and
                                          p.binder not in needed and self.works(p.value) and self.shared(p.value)]
        for p in moves:
            self.move((p.binder,), p.value, PRELUDE, target, f"`{p.binder.name}`")
        return tuple(p for p in k.prelude if p not in moves)

    def let(self, binders: tuple, value, depth: int) -> list:
        """A level's let at `depth` kept or moved out: the lets to keep at
        `depth` (none where it moved)."""
        target = self.target(binders, value, depth, frozenset())
        if target is None:
            return [(binders, value)]
        self.move(binders, value, depth, target, _names(binders))
        return []

    def target(self, binders, value, depth: int, local) -> int | None:
        """The level `value` moves to, or None where it stays."""
        if not self.works(value) or not all(isinstance(b.type, Scalar) for b in binders):
            return None
        reads = self.reads(value, local)
        if reads is None:
            return None
        home = max((self.level_of[b] for b in reads), default=LAUNCH)
        if home == LAUNCH and self.single and self.shared(value):
            return LAUNCH
        if self.launch_only:
            return None
        if home < 0 and self.single:
            if binders or isinstance(value, WORK):  # (a chain's lets are asked one by one)
                self.stay(binders, value, depth, "it reads no map level's names, so it is the same at every point, "
                          "but it holds no reduction a launch's threads could share: it runs at every point")
            return None
        target = max(home, 0)
        if target >= depth:
            return None
        if not self.shared(value):
            self.stay(binders, value, depth, "it reads nothing of its map level, but holds no reduction a row's "
                      "threads could share: moved, each thread would still run it whole, and the tiled kernel "
                      "could no longer stage what it reads")
            return None
        return target

    def stay(self, binders: tuple, value, depth: int, reason: str) -> None:
        """A record of work that stays where it was written (once for each)."""
        if value.span not in self.stays:
            self.stays.add(value.span)
            self.records.append(Hoist(_names(binders) if binders else _where(value), _plain(binders), value.span,
                                      depth, depth, (), reason))

    def shared(self, value) -> bool:
        """Whether `value` holds a reduction a row's threads can share (a
        loop of folds.operators, not of a few iterations known when
        compiling, or a streamRed's fold): moved without one, the work runs
        once a point still, from a level whose loops the tiled kernel leaves
        unstaged (measured: an online log-sum-exp that is not recognised ran
        1.37x slower moved)."""
        return any(isinstance(n, T.Loop) and not isinstance(operators(n), str) and not too_few(n.bound) or
                   isinstance(n, T.Stream) and combined(n, n.body) for n in descendants(value, T.is_exp))

    def move(self, binders: tuple, value, depth: int, target: int, what: str) -> None:
        reads = self.reads(value, frozenset()) or set()
        value = self.substituted(value)
        named = tuple(sorted(b.name for b in reads if b in self.level_of))
        (self.launch if target == LAUNCH else self.first if depth == PRELUDE else self.moved[target]).append(
            (binders, value))
        self.level_of.update((b, target) for b in binders)
        if target == LAUNCH:
            why = "it reads no map level's names, so it is the same at every point: computed once a launch, by " \
                  "a kernel of its own before the others, its value passed to them"
        elif not named or all(self.level_of[b] == LAUNCH for b in reads if b in self.level_of):
            why = "it reads no map level's names, so it is the same at every point: computed once a row of map " \
                  "level 0, whose threads share it (a kernel of more levels than one computes no work once a launch)"
        else:
            levels = sorted({self.level_of[b] for b in reads if b in self.level_of} - {LAUNCH})
            why = f"it reads {', '.join(f'`{n}`' for n in named)} of map level{'s' if len(levels) > 1 else ''} " \
                  f"{', '.join(map(str, levels))} and nothing of map level {depth}: computed once a row, not once " \
                  "a point"
        if depth == PRELUDE:
            why = f"written before the maps, every thread computed it before its point; {why}"
        self.records.append(Hoist(what, _plain(binders), value.span, depth, target, named, why))

    def exp(self, e, depth: int, local: frozenset):
        """`e` at a level's code (depth) with its work moved out; `local`:
        the names bound around it inside that code."""
        if isinstance(e, T.Let):
            return self.chain(e, depth, local)
        if isinstance(e, WORK):
            named = self.named(e, depth, local)
            if named is not None:
                return named
        if isinstance(e, T.Loop):  # (its body runs per iteration: not entered)
            inits = tuple(self.exp(i, depth, local) for i in e.inits)
            rest = self.exp(e.rest, depth, local | set(e.results))
            return dataclasses.replace(e, inits=inits, bound=self.exp(e.bound, depth, local), rest=rest)
        if isinstance(e, T.Stream):
            return dataclasses.replace(e, arrays=tuple(self.exp(a, depth, local) for a in e.arrays),
                                       inits=tuple(self.exp(i, depth, local) for i in e.inits))
        if isinstance(e, T.If):
            return dataclasses.replace(e, cond=self.exp(e.cond, depth, local))
        if isinstance(e, T.BinOp) and e.op in ("&&", "||"):
            return dataclasses.replace(e, lhs=self.exp(e.lhs, depth, local))
        return map_children(e, lambda c: self.exp(c, depth, local), T.is_exp) if T.is_exp(e) else e

    def named(self, e, depth: int, local: frozenset) -> T.Var | None:
        """Work inside a larger expression moved out whole, bound under a
        fresh name its place then reads; None where it stays."""
        target = self.target((), e, depth, local) if isinstance(e.type, Scalar) else None
        if target is None:
            return None
        b = Binder(fresh(_stem(e), self.names), e.type, "let", e.span)
        self.move((b,), e, depth, target, _where(e))
        return T.Var(b, e.type, e.span)

    def chain(self, e: T.Let, depth: int, local: frozenset):
        """A chain of lets (without recursion): the whole moved where it is
        work that reads nothing of its level (an inlined helper's call),
        else each let's value moved or kept."""
        named = self.named(e, depth, local)
        if named is not None:
            return named
        kept = []
        while isinstance(e, T.Let):
            target = self.target(e.binders, e.value, depth, local)
            if target is None:
                kept.append(dataclasses.replace(e, value=self.exp(e.value, depth, local)))
                if not self.alias(e, local):
                    local = local | set(e.binders)
            else:
                self.move(e.binders, e.value, depth, target, _names(e.binders))
            e = e.body
        body = self.exp(e, depth, local)
        for let in reversed(kept):
            body = dataclasses.replace(let, body=body)
        return body

    def alias(self, let: T.Let, local) -> bool:
        """Whether the kept `let` names a value that reads nothing bound
        around it and holds no work (an inlined helper's parameter bound to
        the row it was given, `let r = row`): work that reads its name may
        still move, reading the value itself (`row`) where it moves to."""
        if len(let.binders) != 1 or self.works(let.value):
            return False
        reads = self.reads(let.value, local)
        if reads is None:
            return False
        self.aliases[let.binders[0]] = (self.substituted(let.value), reads)
        return True

    def substituted(self, e):
        """`e` with every alias's name replaced by its value."""
        if not self.aliases:
            return e
        if isinstance(e, T.Var) and e.binder in self.aliases:
            return self.aliases[e.binder][0]
        return map_children(e, self.substituted, T.is_exp) if T.is_exp(e) else e

    def works(self, e) -> bool:
        """Whether `e` holds a loop or a stream (once a node for the pass)."""
        known = self._work.get(id(e))
        if known is None:
            known = self._work[id(e)] = any(isinstance(n, WORK) for n in descendants(e, T.is_exp))
        return known

    def reads(self, e, local) -> set | None:
        """The levels' names `e` reads, or None where it reads a name bound
        around it in its level's code."""
        inside = bound(e)
        out = set()
        for n in descendants(e, T.is_exp):
            if isinstance(n, T.Var) and n.binder not in inside:
                if n.binder in local:
                    return None
                if n.binder in self.level_of:
                    out.add(n.binder)
                elif n.binder in self.aliases:
                    out |= self.aliases[n.binder][1]
        return out


def _plain(binders: tuple) -> str:
    return ", ".join(b.name for b in binders)


def _names(binders: tuple) -> str:
    return ", ".join(f"`{b.name}`" for b in binders)


def _where(e) -> str:
    if isinstance(e, T.Stream) and e.combine is not None:
        return "the streamRed"
    return "the " + {T.Loop: "loop", T.Stream: "streamSeq"}.get(type(e), "expression")


def _stem(e) -> str:
    return {T.Loop: "loop", T.Stream: "stream"}.get(type(e), "work")


__all__ = ["Hoist", "hoisted"]
