"""Register tiling as three rewrites of a lowered kernel's body, the design
note's steps: one thread computes a micro-tile of points instead of one.

Lower writes the body for one point a thread, its index along each dim to
tile written `P{d}_` (`point`). Then, in the order of `REGISTER_TILING`:

- strip-mine: the point becomes the thread's current point of the micro-tile,
  in two loop variables along each dim, the group `G{d}` and the lane `L{d}`
  within a group of consecutive points (`point_index`);
- interchange: the map over the thread's points is distributed over the
  body's statements and moved inward. What each variable depends on among
  the dims is a dataflow fixpoint (control included: a value assigned under a
  point-dependent `if` depends on the point). A statement that depends on no
  dim stays once a thread (the cooperative copies, the barriers), and so does
  a loop or `if` whose control is uniform, with the map moved inside it. A
  load that depends on fewer dims than its statement (`acc + a[k] * b[k]`:
  the row of `a` is the same for every column) gets a map over its own dims
  into a register, reused across the rest (the outer product). What remains
  are runs of statements over the points of their dims (`kir.PointMap`);
- sequentialise: each `kir.PointMap` becomes fully unrolled loops over its
  points, with each variable that depends on dims held in a per-thread array
  indexed by them (registers, since every index is a constant after
  unrolling); the hoisted shared loads of a group of consecutive points are
  read as one vector where the index is provably the group's start plus the
  lane.

The kernel records the rewrites that ran (`kir.Kernel.rewrites`) and what
each produced (`kir.Kernel.trace`), which explain prints.
"""
from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import Callable

from .. import kir, target
from ..analyse.registers import UNROLL_LIMIT
from ..errors import CompilerBug
from ..kir.build import Names, add, const, fresh_name, mul, rewrite, substitute, trip_count

POINT, GROUP, LANE = "P{}_", "G{}_", "L{}_"  # a thread's point along dim d; the micro-tile's loop variables
RESERVED = {name.format(d) for name in (POINT, GROUP, LANE) for d in range(3)}


@dataclass(frozen=True)
class Micro:
    sizes: dict  # kernel dim -> points a thread takes along it (> 1 only)
    group: int  # consecutive points along a dim (a vector read)
    threads: dict = dataclasses.field(default_factory=dict)  # dim -> (the thread's index along it, threads there)


@dataclass(frozen=True)
class KernelRewrite:
    name: str
    run: Callable[[tuple, Micro, dict, Names], tuple]  # (body, micro-tile, C types, names taken) -> body


def point(d: int) -> kir.Ref:
    """The thread's point along dim d, as lower writes it before strip-mining."""
    return kir.Ref(POINT.format(d))


def point_index(micro: Micro, d: int, tid, threads: int):
    """The point's offset along dim d within the block's tile: groups of
    `group` consecutive points, the threads' groups side by side, so that a
    warp's reads and stores of one group position are contiguous."""
    g = micro.group
    lane = kir.Ref(LANE.format(d)) if g > 1 else const(0)
    group = kir.Ref(GROUP.format(d)) if micro.sizes[d] > g else const(0)
    return add(add(mul(group, const(threads * g)), mul(tid, const(g))), lane)


def strip_mine(body: tuple, micro: Micro, ctypes: dict, used: Names) -> tuple:
    """Step 1: each `point(d)` as the micro-tile's current point."""
    table = {POINT.format(d): point_index(micro, d, *micro.threads[d]) for d in micro.sizes}
    return tuple(rewrite(s, lambda e: table.get(e.name) if isinstance(e, kir.Ref) else None) for s in body)


def interchange(body: tuple, micro: Micro, ctypes: dict, used: Names) -> tuple:
    """Step 2 (see the module doc)."""
    return tuple(_Interchange(body, micro, ctypes, used).block(body))


def sequentialise(body: tuple, micro: Micro, ctypes: dict, used: Names) -> tuple:
    """Step 3 (see the module doc)."""
    return tuple(_Sequentialise(micro, ctypes, used).block(body))


REGISTER_TILING = (KernelRewrite("strip-mine", strip_mine), KernelRewrite("interchange", interchange),
                   KernelRewrite("sequentialise", sequentialise))


ONE_POINT = "one point a thread"  # the trace's first step: the body as lower wrote it


def register_tile(body: tuple, micro: Micro, ctypes: dict, used: Names) -> tuple[tuple, tuple[tuple[str, tuple], ...]]:
    """`body`, written for one point a thread, for every point of the
    micro-tile; and the trace: the body before the rewrites (ONE_POINT),
    then after each, by its name (explain --show-rewrites prints it)."""
    trace = [(ONE_POINT, body)]
    for r in REGISTER_TILING:
        body = r.run(body, micro, ctypes, used)
        trace.append((r.name, body))
    return body, tuple(trace)


class _Interchange:
    def __init__(self, body, micro: Micro, ctypes: dict, used: Names):
        self.micro, self.ctypes, self.used = micro, dict(ctypes), used
        self.deps = _deps(body, micro)

    # ---- uniform level: statements once a thread --------------------------------

    def block(self, stmts) -> list:
        out, run, run_dims = [], [], None
        for s in stmts:
            dims = self.stmt_dims(s)
            if not dims or self.interchangeable(s):
                out += self.flush(run, run_dims)
                run, run_dims = [], None
                out.append(self.uniform(s) if dims else s)
                continue
            for piece in self.hoist(s, dims):
                pdims = self.stmt_dims(piece)
                if pdims != run_dims:
                    out += self.flush(run, run_dims)
                    run, run_dims = [], pdims
                run.append(piece)
        return out + self.flush(run, run_dims)

    def interchangeable(self, s) -> bool:
        """A loop or `if` whose control is the same for every point: the
        micro-tile's loops move inside it."""
        if isinstance(s, kir.For):
            return not self.expr_dims(s.start, s.stop, s.step)
        if isinstance(s, kir.If):
            return not self.expr_dims(s.cond)
        return False

    def uniform(self, s):
        if isinstance(s, kir.For):
            # a short loop of constant count around the micro-tile: unrolled, so
            # its shared reads use constant offsets instead of address arithmetic;
            # not one around a tiled stream (a barrier inside): its tiles' offsets
            # are the stream's own, and unrolling would only copy the whole pipeline
            trip = trip_count(s)
            short = trip is not None and trip <= UNROLL_LIMIT and not kir.has_barrier(s.body)
            unroll = kir.FULL if short and s.unroll is None else s.unroll
            return dataclasses.replace(s, body=tuple(self.block(s.body)), unroll=unroll)
        return dataclasses.replace(s, then=tuple(self.block(s.then)), else_=tuple(self.block(s.else_)))

    # ---- dependence ------------------------------------------------------------

    def expr_dims(self, *exprs) -> frozenset:
        out = frozenset()
        for e in exprs:
            for node in kir.walk(e):
                if isinstance(node, kir.Ref):
                    out |= self.deps.get(node.name, frozenset())
        return out

    def stmt_dims(self, s) -> frozenset:
        if isinstance(s, (kir.Decl, kir.Assign)):
            return self.deps.get(s.name, frozenset()) | self.expr_dims(getattr(s, "init", None),
                                                                          getattr(s, "value", None))
        if isinstance(s, kir.For):
            return self.expr_dims(s.start, s.stop, s.step) | _union(self.stmt_dims(x) for x in s.body)
        if isinstance(s, kir.If):
            return self.expr_dims(s.cond) | _union(self.stmt_dims(x) for x in s.then + s.else_)
        if isinstance(s, (kir.Barrier, kir.Comment, kir.AsyncCommit, kir.AsyncWait)):
            return frozenset()
        return self.expr_dims(*(getattr(s, f.name) for f in dataclasses.fields(s)))

    # ---- hoisting: loads that fewer dims decide ---------------------------------

    def hoist(self, s, dims: frozenset) -> list:
        """Loads in `s` that depend on fewer dims than `s`, each read once
        into a register before it (where `s` is a plain assignment or store)."""
        if not isinstance(s, (kir.Decl, kir.Assign, kir.Store)) or len(dims) < 2:
            return [s]
        hoisted: dict = {}

        def lift(e):
            if not (isinstance(e, kir.Load) and e.space != kir.LOCAL):
                return None
            own = self.expr_dims(e.index)
            if not own < dims:
                return e
            if e not in hoisted:
                hoisted[e] = self.fresh(f"reg_{e.buffer}")
                self.deps[hoisted[e]] = own
            return kir.Ref(hoisted[e])

        rewritten = rewrite(s, lift)
        pieces = [kir.Decl(name, self.ctypes[load.buffer], load, True) for load, name in hoisted.items()]
        return sorted(pieces, key=lambda p: sorted(self.deps[p.name])) + [rewritten]

    def flush(self, run: list, dims) -> list:
        return [kir.PointMap(dims, tuple(run), math.prod(self.micro.sizes[d] for d in dims))] if run else []

    def fresh(self, base: str) -> str:
        return fresh_name(base, self.used)


class _Sequentialise:
    def __init__(self, micro: Micro, ctypes: dict, used: Names):
        self.micro, self.ctypes, self.used = micro, dict(ctypes), used
        self.arrays: dict[str, frozenset] = {}  # variable held per point -> its dims

    def block(self, stmts) -> list:
        out = []
        for s in stmts:
            if isinstance(s, kir.PointMap):
                out += self.flush(list(s.stmts), s.dims)
            elif isinstance(s, kir.For):
                out.append(dataclasses.replace(s, body=tuple(self.block(s.body))))
            elif isinstance(s, kir.If):
                out.append(dataclasses.replace(s, then=tuple(self.block(s.then)), else_=tuple(self.block(s.else_))))
            else:
                out.append(s)
        return out

    # ---- runs of statements over the points of their dims -----------------------

    def flush(self, run: list, dims) -> list:
        if not run:
            return []
        decls = [s for s in run if isinstance(s, kir.Decl)]
        out = []
        for s in decls:
            self.arrays[s.name] = dims
            self.ctypes[s.name] = s.ctype
            out.append(kir.ArrayDecl(s.name, s.ctype, self.points(dims), s.span))
        vector = self.vector_reads(run, dims)
        if vector is not None:
            return out + vector
        return out + list(self.loops(dims, tuple(self.per_point(s) for s in run)))

    def points(self, dims) -> int:
        return math.prod(self.micro.sizes[d] for d in dims)

    def loops(self, dims, body: tuple, lanes: bool = True):
        """Fully unrolled loops over the points of `dims` around `body`."""
        g = self.micro.group
        for d in sorted(dims, reverse=True):
            if lanes and g > 1:
                body = (kir.For(LANE.format(d), const(0), const(g), const(1), body, unroll=kir.FULL),)
            if self.micro.sizes[d] > g:
                body = (kir.For(GROUP.format(d), const(0), const(self.micro.sizes[d] // g), const(1), body,
                                unroll=kir.FULL),)
        return body

    def slot(self, name: str, lane=None):
        """The flat index of the current point in `name`'s array."""
        flat = const(0)
        g = self.micro.group
        for d in sorted(self.arrays[name]):
            group = kir.Ref(GROUP.format(d)) if self.micro.sizes[d] > g else const(0)
            here = lane if lane is not None else (kir.Ref(LANE.format(d)) if g > 1 else const(0))
            flat = add(mul(flat, const(self.micro.sizes[d])), add(mul(group, const(g)), here))
        return flat

    def per_point(self, s):
        """`s` inside the point loops: per-point variables read and written in their arrays."""
        reads = {n: kir.Load(n, self.slot(n), kir.LOCAL) for n in self.arrays}
        if isinstance(s, kir.Decl) and s.name in self.arrays:
            if s.init is None:
                return kir.Comment(f"{s.name}: one a point")
            return kir.Store(s.name, self.slot(s.name), substitute(s.init, reads), kir.LOCAL, s.span)
        if isinstance(s, kir.Assign) and s.name in self.arrays:
            return kir.Store(s.name, self.slot(s.name), substitute(s.value, reads), kir.LOCAL, s.span)
        if isinstance(s, kir.Decl):
            return dataclasses.replace(s, init=substitute(s.init, reads))
        if isinstance(s, kir.Assign):
            return dataclasses.replace(s, value=substitute(s.value, reads))
        if isinstance(s, kir.For):
            return dataclasses.replace(s, start=substitute(s.start, reads), stop=substitute(s.stop, reads),
                                       step=substitute(s.step, reads),
                                       body=tuple(self.per_point(x) for x in s.body))
        if isinstance(s, kir.If):
            return dataclasses.replace(s, cond=substitute(s.cond, reads),
                                       then=tuple(self.per_point(x) for x in s.then),
                                       else_=tuple(self.per_point(x) for x in s.else_))
        if isinstance(s, kir.Barrier) or (isinstance(s, kir.Store) and s.space == kir.SHARED):
            raise CompilerBug("a barrier or shared store depends on the micro-tile's point", None, "lower")
        return substitute(s, reads)

    # ---- vector reads of a group's registers ------------------------------------

    def vector_reads(self, run: list, dims) -> list | None:
        """Hoisted shared loads along one dim, each `group` consecutive
        elements for a group's lanes: one vector load per group."""
        g = self.micro.group
        if len(dims) != 1 or g == 1:
            return None
        (d,) = dims
        lane = LANE.format(d)
        loads = [s.init for s in run if isinstance(s, kir.Decl)]
        if len(loads) != len(run) or not all(isinstance(e, kir.Load) and e.space == kir.SHARED and
                                             target.has_vector(self.ctypes[e.buffer], g) and
                                             _unit_in(e.index, lane) for e in loads):
            return None
        body = []
        for s in run:
            vec = self.fresh(f"v_{s.name}")
            start = substitute(s.init.index, {lane: const(0)})
            body.append(kir.Decl(vec, target.vector_type(self.ctypes[s.init.buffer], g),
                                 kir.VecLoad(s.init.buffer, start, g, self.ctypes[s.init.buffer], kir.SHARED), True))
            ctype = self.ctypes[s.init.buffer]
            body += [kir.Store(s.name, self.slot(s.name, const(v)), kir.lane(kir.Ref(vec), v, ctype), kir.LOCAL)
                     for v in range(g)]
        return list(self.loops(dims, tuple(body), lanes=False))

    def fresh(self, base: str) -> str:
        return fresh_name(base, self.used)


def _union(sets) -> frozenset:
    out = frozenset()
    for s in sets:
        out |= s
    return out


def _deps(body, micro: Micro) -> dict:
    """Variable -> the strip-mined dims its value depends on (a fixpoint:
    loops carry values around, and control adds its own dims)."""
    deps: dict[str, frozenset] = {}
    for d in micro.sizes:
        deps[GROUP.format(d)] = deps[LANE.format(d)] = frozenset({d})

    def of(*exprs) -> frozenset:
        out = frozenset()
        for e in exprs:
            for node in kir.walk(e):
                if isinstance(node, kir.Ref):
                    out |= deps.get(node.name, frozenset())
        return out

    def visit(stmts, control: frozenset) -> bool:
        changed = False
        for s in stmts:
            new = None
            if isinstance(s, kir.Decl):
                new, name = of(s.init) | control, s.name
            elif isinstance(s, kir.Assign):
                new, name = of(s.value) | control, s.name
            elif isinstance(s, kir.For):
                new, name = of(s.start, s.stop, s.step) | control, s.var
                changed |= visit(s.body, new)
            elif isinstance(s, kir.If):
                changed |= visit(s.then + s.else_, control | of(s.cond))
            if new is not None and not new <= deps.get(name, frozenset()):
                deps[name] = deps.get(name, frozenset()) | new
                changed = True
        return changed

    while visit(body, frozenset()):
        pass
    return deps


def _linear(e) -> dict | None:
    """`e` as {term: coefficient} (None: the constant) where it is a sum of
    constant multiples; any other node is a term of its own."""
    if isinstance(e, kir.Const) and isinstance(e.value, int) and not isinstance(e.value, bool):
        return {None: e.value}
    if isinstance(e, kir.Bin) and e.op in ("+", "-"):
        a, b = _linear(e.a), _linear(e.b)
        sign = 1 if e.op == "+" else -1
        out = dict(a)
        for k, v in b.items():
            out[k] = out.get(k, 0) + sign * v
        return out
    if isinstance(e, kir.Bin) and e.op == "*":
        a, b = _linear(e.a), _linear(e.b)
        for x, y in ((a, b), (b, a)):
            if set(x) == {None}:
                return {k: v * x[None] for k, v in y.items()}
    return {e: 1}


def _unit_in(index, lane: str) -> bool:
    """Whether `index` is (something without `lane`) + `lane`: consecutive lanes read consecutive elements."""
    terms = _linear(index)
    ref = kir.Ref(lane)
    if terms.get(ref) != 1:
        return False
    return not any(k is not None and k != ref and any(n == ref for n in kir.walk(k)) for k in terms)
