"""Stage `kernel`: typed program -> the kernel with every helper call inlined.

The analysis and code generation see one kernel body in which each
`streamSeq` occurs once per call path. A helper's body is copied with fresh
binders (so two calls do not share names), its parameters become `let`s of
the arguments, and its sizes become the caller's sizes. Then the lets and loops
nothing reads are removed (`dead`), a loop whose index also counts its
elements carries the count where that makes it a reduction (`counts`), a stream under an `if` whose test
varies with the points runs at every point before it where that is safe (`speculate`), work that reads
nothing of the map level it is written at moves to the level where it varies (`hoist`), a loop that walks arrays whole along
its index is read as a stream (`loops`), index reads that walk a stream's
position become stream inputs (`promote`), and a thread's reads of its own
row by index become a row of its map (`rows`). Last, every stream and loop
gets its program point, the number later stages name it by (`points`).
"""
from __future__ import annotations

import dataclasses

from .. import target
from ..check import typed as T
from ..check.types import I32, Array, Binder, Tuple, match
from ..errors import CompilerBug
from ..tree import map_children

__all__ = ["inline_kernel", "kernel_of"]


def kernel_of(program: T.Program, promote: bool = True, loops: bool = True, listed: bool = True,
              hoist: bool = True, speculate: bool = True) -> T.Kernel:
    """`_kernel_of`'s kernel; where it speculated a stream, with the kernel
    built without speculation beside it (`unspeculated`), from which the
    launch's untiled fallback is made: the program as written, which the
    speculated kernels race (where few points take the stream's branch,
    computing it at every point can cost more than tiling saves)."""
    k = _kernel_of(program, promote, loops, listed, hoist, speculate)
    if not k.speculated:
        return k
    return dataclasses.replace(k, unspeculated=_kernel_of(program, promote, loops, listed, hoist, False))


def _kernel_of(program: T.Program, promote: bool, loops: bool, listed: bool, hoist: bool,
               speculate: bool) -> T.Kernel:
    """The stage: inlined, (with `speculate`) a stream under an `if` whose
    test varies with the points computed before it, (with `hoist`) its work moved to the map level
    where it varies, (unless `promote` is off) with reads along a
    stream's position as stream inputs (and, with `loops`, loops that walk
    arrays whole read as streams; without it (--keep-loops), where `listed`,
    such loops named for explain), and with a thread's own rows read by
    index as map rows."""
    from .counts import counted
    from .dead import without_dead
    from .hoist import hoisted, prelude_work
    from .speculate import speculated

    kinds = T.node_kinds(program.kernel)  # each pass runs only where what it rewrites is there (one walk for all)
    k = program.kernel
    if T.Call in kinds or _prelude_calls(k):
        k = inline_kernel(program)
        kinds = T.node_kinds(k)
    if kinds & {T.Let, T.Loop} or any(lv.lets for lv in k.levels):
        k = without_dead(k)
    if T.Loop in kinds:
        k = counted(k)
    if speculate and {T.If, T.Stream} <= kinds:
        k = speculated(k)
    if hoist and len(k.levels) and (kinds & {T.Loop, T.Stream} or prelude_work(k)):
        k = hoisted(k, launch_only=True)
        if k.launch:
            first = launched(k)
            k = dataclasses.replace(k, launched=_built(first, T.node_kinds(first), promote, loops, listed))
        moved = hoisted(k)
        if any(h.moved and h.runs >= 0 for h in moved.hoisted):  # (analyse plans the kernel as written where no
            # row is split; work of no level's names is computed once a launch in both)
            written = _built(dataclasses.replace(k, hoisted=moved.hoisted), kinds, promote, loops, listed)
            return dataclasses.replace(_built(moved, T.node_kinds(moved), promote, loops, listed), written=written)
        k = moved
    return _built(k, kinds, promote, loops, listed)


def launched(k: T.Kernel) -> T.Kernel:
    """The kernel that computes `k`'s work of no map level's names once a
    launch: one point (a map over `iota(1)`) whose body computes `k.launch`
    and gives each value it binds, an output of one element each
    (`LAUNCH_OUTPUT`), with `k`'s parameters, sizes and prelude."""
    binders = [b for bs, _ in k.launch for b in bs]
    point = Binder("tiler_point", I32, "lambda", k.span)
    count = T.Lit(1, I32, k.span)
    level = T.MapLevel(0, 1, (point,), (T.Iota(count, Array(I32, (1,)), k.span),), (), k.span)
    body = T.TupleE(tuple(T.Var(b, b.type, b.span) for b in binders), Tuple(tuple(b.type for b in binders)), k.span) \
        if len(binders) > 1 else T.Var(binders[0], binders[0].type, binders[0].span)
    for bs, value in reversed(k.launch):
        body = T.Let(bs, value, body, body.type, value.span)
    names = launch_outputs(k)
    return T.Kernel(k.params, k.sizes, k.prelude, (level,), body, tuple(b.type for b in binders), k.span,
                    output_names=tuple(names[b] for b in binders))


LAUNCH_OUTPUT = "tiler_launch"


def launch_outputs(k: T.Kernel) -> dict:
    """The scratch array that passes each value computed once a launch on to
    the launch's kernels, by its binder: `tiler_launch<i>_<name>` (tiler's
    own names: a program's never start with `tiler_` in the CUDA)."""
    binders = [b for bs, _ in k.launch for b in bs]
    return {b: f"{LAUNCH_OUTPUT}{i}_{target.c_name(b.name)}" for i, b in enumerate(binders)}


def _built(k: T.Kernel, kinds, promote: bool, loops: bool, listed: bool) -> T.Kernel:
    """The stage's last passes: promote (and loops), own rows, points."""
    from .loops import loop_notes, survey
    from .points import numbered
    from .promote import promote_reads
    from .rows import own_rows

    rows = own_rows if T.Index in kinds else (lambda kernel: kernel)  # (own rows are read by index)
    found = survey(k.body) if promote and kinds & {T.Loop, T.Stream} else None
    if found is None or not (found.streams or found.candidates or found.blocked):  # (nothing to promote: no walk)
        return numbered(rows(k))
    promoted = promote_reads(k, found.loops if loops else frozenset()) if found.streams or found.candidates else k
    if listed:  # the loops that read arrays at their index, for explain: read as streams with the option, or not
        trial = (promoted if loops else promote_reads(k, found.loops)) if found.candidates else None
        notes = loop_notes(found, trial, streams=not loops)  # (with the option, those are streams now)
        promoted = dataclasses.replace(promoted, streamable=notes) if notes else promoted
    return numbered(rows(promoted))


def inline_kernel(program: T.Program) -> T.Kernel:
    k = program.kernel
    inliner = _Inliner(program.helpers)
    prelude = tuple(dataclasses.replace(pl, value=inliner.exp(pl.value)) if T.is_exp(pl.value) else pl
                    for pl in k.prelude)  # (a helper called in the host prelude: `let t = h(s) in map(...)`)
    levels = tuple(dataclasses.replace(
        lv, args=tuple(inliner.exp(a) for a in lv.args),
        lets=tuple((b, inliner.exp(v)) for b, v in lv.lets)) for lv in k.levels)
    return dataclasses.replace(k, prelude=prelude, levels=levels, body=inliner.exp(k.body))


def _prelude_calls(k: T.Kernel) -> bool:
    """Whether a helper is called in the host prelude (node_kinds walks the levels and the body)."""
    from ..tree import descendants

    return any(isinstance(n, T.Call) for pl in k.prelude if T.is_exp(pl.value) for n in descendants(pl.value, T.is_exp))


class _Inliner:
    def __init__(self, helpers: dict):
        self.helpers = helpers

    def exp(self, e):
        if isinstance(e, T.Call):
            return self.call(e)
        if isinstance(e, T.Let):  # chains of lets without recursion
            chain = []
            while isinstance(e, T.Let):
                chain.append(e)
                e = e.body
            body = self.exp(e)
            for let in reversed(chain):
                body = dataclasses.replace(let, value=self.exp(let.value), body=body)
            return body
        out = map_children(e, self.exp, T.is_exp)
        if isinstance(out, T.Stream) and out.combine is not None:  # (not a child: inlined here)
            out = dataclasses.replace(out, combine=dataclasses.replace(out.combine, body=self.exp(out.combine.body)))
        return out

    def call(self, e: T.Call):
        h: T.Helper = self.helpers[e.func]
        args = tuple(self.exp(a) for a in e.args)
        sizes: dict = {}
        for p, a in zip(h.params, args):
            if not match(p.type, a.type, sizes):
                raise CompilerBug(f"arguments of `{e.func}` no longer fit its parameters", e.span, "kernel")
        renamed = _Renamer(sizes)
        body = self.exp(renamed.exp(h.body))
        params = tuple(renamed.binder(p) for p in h.params)
        for p, a in reversed(list(zip(params, args))):
            body = T.Let((p,), a, body, body.type, e.span)
        return body




class _Renamer:
    """Copies a helper body with fresh binders; its sizes become the caller's."""

    def __init__(self, sizes: dict):
        self.sizes = sizes  # helper size binder -> caller size (Binder or int)
        self.fresh: dict[Binder, Binder] = {}

    def binder(self, b: Binder) -> Binder:
        if b in self.sizes:
            size = self.sizes[b]
            if isinstance(size, int):
                raise CompilerBug(f"size `{b.name}` is a literal here and cannot be bound", b.span, "kernel")
            return size
        if b not in self.fresh:
            self.fresh[b] = Binder(b.name, self.type(b.type), b.kind, b.span)
        return self.fresh[b]

    def type(self, t):
        if isinstance(t, Array):
            shape = tuple(self._size(s) for s in t.shape)
            return Array(t.elem, shape)
        if isinstance(t, Tuple):
            return Tuple(tuple(self.type(i) for i in t.items))
        return t

    def _size(self, s):
        """A size in a helper is one of its own (mapped to the caller's) or local
        to its body (a chunk size, made fresh like any binder)."""
        if isinstance(s, Binder):
            return self.sizes[s] if s in self.sizes else self.binder(s)
        return s

    def exp(self, e):
        if isinstance(e, T.Var):
            if e.binder in self.sizes and isinstance(self.sizes[e.binder], int):
                return T.Lit(self.sizes[e.binder], e.type, e.span)
            return T.Var(self.binder(e.binder), self.type(e.type), e.span)
        changes = {"type": self.type(e.type)}
        for field in dataclasses.fields(e):
            value = getattr(e, field.name)
            if isinstance(value, Binder):
                changes[field.name] = self.binder(value)
            elif T.is_exp(value):
                changes[field.name] = self.exp(value)
            elif isinstance(value, tuple) and value and all(isinstance(v, Binder) for v in value):
                changes[field.name] = tuple(self.binder(v) for v in value)
            elif isinstance(value, tuple) and value and all(T.is_exp(v) for v in value):
                changes[field.name] = tuple(self.exp(v) for v in value)
            elif isinstance(value, T.Combine):
                changes[field.name] = T.Combine(tuple(self.binder(p) for p in value.params), self.exp(value.body),
                                                value.span)
        return dataclasses.replace(e, **changes)
