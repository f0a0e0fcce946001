"""An independent check of a lowered kernel: `verify(kernel)` lists problems,
each a `Problem` of a `Fault` kind.

- Every shared read comes after a barrier that follows the write (or, for an
  asynchronous copy, the wait) that produced it, and nothing overwrites a
  tile before a barrier follows its last reads; a tile is never read while an
  asynchronous copy into it may be in flight.
- No barrier sits under control that differs between the threads of a block
  (a condition or loop bound computed from threadIdx).
- A per-thread array is indexed only by constants once its loops are fully
  unrolled (else it would live in local memory, not registers).
- A vector access starts at a multiple of its width, provably from the
  kernel's divisibility facts; an asynchronous copy moves 4, 8 or 16 bytes.
- A matrix operation's fragments stay inside the shared tiles they read or
  write, for every warp of the block (kir/bounds.py).
- Every name an expression uses is bound; the block and its shared memory
  are within CUDA's limits.
It re-derives what the analysis promised from the IR alone, so a mistake in
lowering or planning shows up here rather than as a hang on the GPU.
"""
from __future__ import annotations

import dataclasses
from enum import Enum

from .. import target
from ..errors import CompilerBug
from . import (
    FULL,
    LOCAL,
    MINMAX,
    SHARED,
    ArrayDecl,
    AsyncCommit,
    AsyncCopy,
    AsyncWait,
    Barrier,
    Bin,
    Call,
    Cast,
    Const,
    Decl,
    For,
    If,
    Kernel,
    Load,
    MatrixChunk,
    MatrixStore,
    MatrixWait,
    Module,
    Ref,
    Store,
    ThreadIdx,
    TmaBarriers,
    TmaDone,
    TmaIssue,
    TmaRelease,
    TmaWait,
    VecLoad,
    VecStore,
    fragment_steps,
    operand_lines,
    operand_strides,
    walk,
)
from .bounds import value_range

CLEAN, WRITTEN, READ, IN_FLIGHT = "clean", "written", "read", "in flight"
ORDER = [CLEAN, READ, WRITTEN, IN_FLIGHT]


@dataclasses.dataclass(frozen=True)
class _State:
    tiles: dict  # shared buffer -> CLEAN, WRITTEN, READ or IN_FLIGHT
    groups: tuple = ()  # committed groups of asynchronous copies, oldest first: frozensets of buffers
    open: frozenset = frozenset()  # buffers of copies issued since the last commit

    def set(self, name: str, value: str) -> "_State":
        return dataclasses.replace(self, tiles={**self.tiles, name: value})


class Fault(Enum):
    """What a problem is: UNALIGNED alone is expected (lower answers it with
    scalar copies); every other one is a defect of lowering or planning."""

    UNALIGNED = "a vector access not provably aligned"
    NO_VECTOR_TYPE = "a vector CUDA does not have"
    STALE_READ = "a shared read before its copy is done"
    OVERWRITE = "a shared write while threads may still read"
    DIVERGENT_BARRIER = "a barrier not every thread reaches"
    ASYNC = "an asynchronous copy out of protocol"
    LOCAL_ARRAY = "a per-thread array that would go to local memory"
    PAST_ARRAY = "a per-thread array indexed past its elements"
    NOT_SHARED = "a shared access to no shared allocation"
    UNBOUND = "a name never bound"
    OUT_OF_TILE = "a matrix operation past its shared tile"
    LIMIT = "past CUDA's limits"


@dataclasses.dataclass(frozen=True)
class Problem:
    fault: Fault
    text: str

    def __str__(self) -> str:
        return self.text


def verify(k: Kernel) -> list[Problem]:
    v = _Verifier(k)
    v.find_varying(k.body)
    v.block(k.body, _State({a.name: CLEAN for a in k.shared}), divergent=False)
    if k.threads > target.MAX_THREADS_PER_BLOCK:
        v.fault(Fault.LIMIT, f"{k.threads} threads a block, over {target.MAX_THREADS_PER_BLOCK}")
    used = max(k.shared_bytes, k.dynamic_shared_bytes)  # (with the slack a wider boundary may skip)
    if used > target.SHARED_LIMIT_ANY_GPU:
        v.fault(Fault.LIMIT, f"{used} bytes of shared memory, over what any GPU gives a block")
    return list(dict.fromkeys(v.problems))


def check(k: Kernel, expected: frozenset = frozenset()) -> bool:
    """Whether `k` verifies. A problem of a kind in `expected` makes it
    False; any other is a CompilerBug naming the kernel and every problem."""
    problems = verify(k)
    if any(p.fault not in expected for p in problems):
        raise CompilerBug(f"kernel {k.name} failed verification: " + "; ".join(map(str, problems)), k.span,
                          "verify")
    return not problems


def check_module(m: Module) -> Module:
    """Every version of a module verified (the pipeline's `verify` stage)."""
    for k in m.functions:
        check(k)
    return m


class _Verifier:
    def __init__(self, k: Kernel):
        self.problems: list[Problem] = []
        self.bound = {p.name for p in k.params} | {a.name for a in k.shared}
        self.shared = {a.name for a in k.shared}
        self.elems = {a.name: a.elems for a in k.shared if not a.sized_at_launch}  # (a launch's own: unknown)
        self.threads = k.block
        # allocation -> those sharing its bytes (SharedAlloc.over, both ways): a write to one must find none
        # of them read since a barrier, and leaves each written
        self.overlaps: dict[str, set] = {a.name: set() for a in k.shared}
        for a in k.shared:
            for n in a.over:
                self.overlaps[a.name].add(n)
                self.overlaps.setdefault(n, set()).add(a.name)
        self.arrays: dict[str, int] = {}  # per-thread arrays -> their elements
        self.varying: set[str] = set()  # names whose value differs between threads of a block
        self.divisible = dict(k.divisible)  # size name -> a factor the launch guarantees
        self.params = {p.name: p.source for p in k.params if p.role == "size"}
        self.defs: dict[str, object] = {}  # constant name -> its value
        self.loops: dict[str, For] = {}  # loop variable -> its loop
        self.guards: list[set] = []  # what the conditions of the ifs around the statement walked read (depends)
        # a loop met again in the same state ends in the same state: remembered, so that nested loops (each
        # walked twice) cost their size, not 2 ** depth times it
        self.walked: dict[tuple, _State] = {}

    def fault(self, fault: Fault, text: str) -> None:
        self.problems.append(Problem(fault, text))

    def find_varying(self, stmts) -> None:
        """Every name whose value differs between a block's threads, to a
        fixpoint (a name assigned later in a loop can make an earlier one
        vary), found before the walk so that a loop's walk depends on its
        entry state alone."""
        while True:
            before = len(self.varying)
            self._varying_pass(stmts)
            if len(self.varying) == before:
                return

    def _varying_pass(self, stmts) -> None:
        for s in stmts:  # the walk itself only reads what this finds
            if isinstance(s, (Barrier, AsyncCopy, AsyncCommit, AsyncWait, ArrayDecl, Store, VecStore, MatrixWait,
                              TmaBarriers, TmaIssue, TmaWait, TmaRelease, TmaDone)):
                continue
            if isinstance(s, Decl):
                if s.init is not None and self.thread_varying(s.init):
                    self.varying.add(s.name)
            elif isinstance(s, For):
                if self.thread_varying(s.start):
                    self.varying.add(s.var)
                self._varying_pass(s.body)
            elif isinstance(s, If):
                self._varying_pass(s.then)
                self._varying_pass(s.else_)
            elif getattr(s, "name", None) and self.thread_varying(getattr(s, "value", None)):
                self.varying.add(s.name)

    def block(self, stmts, state: _State, divergent: bool) -> _State:
        for s in stmts:
            state = self.stmt(s, state, divergent)
        return state

    def stmt(self, s, state: _State, divergent: bool) -> _State:
        if isinstance(s, Barrier):
            if divergent:
                self.fault(Fault.DIVERGENT_BARRIER, f"barrier ({s.why}) under control that differs between threads")
            return dataclasses.replace(state, tiles={n: (IN_FLIGHT if v == IN_FLIGHT else CLEAN)
                                                     for n, v in state.tiles.items()})
        if isinstance(s, AsyncCopy):
            return self.async_copy(s, state)
        if isinstance(s, AsyncCommit):
            return dataclasses.replace(state, groups=state.groups + (state.open,), open=frozenset())
        if isinstance(s, AsyncWait):
            return self.wait(s, state)
        if isinstance(s, TmaIssue):
            return self.tma_issue(s, state)
        if isinstance(s, (TmaWait, TmaDone)):  # landed, for every thread that waited (done: all, and their overlaps)
            landed = set(s.tiles).union(*(self.overlaps.get(t, ()) for t in s.tiles if isinstance(s, TmaDone)))
            return dataclasses.replace(state, tiles={n: CLEAN if n in landed and v == IN_FLIGHT else v
                                                     for n, v in state.tiles.items()})
        if isinstance(s, ArrayDecl):
            self.bound.add(s.name)
            self.arrays[s.name] = s.elems
            return state
        if isinstance(s, Decl):
            if s.init is not None:
                state = self.reads(s.init, state)
            # (a name a copy declares may be another copy's loop variable, or a value, elsewhere in the kernel:
            # the walk's latest binding is the one in scope)
            self.loops.pop(s.name, None)
            self.defs.pop(s.name, None)
            if s.init is not None and s.const:
                self.defs[s.name] = s.init
            self.bound.add(s.name)
            return state
        if isinstance(s, For):
            return self.loop(s, state, divergent)
        if isinstance(s, If):
            state = self.reads(s.cond, state)
            inner = divergent or self.thread_varying(s.cond)
            self.guards.append(self.depends(s.cond))
            try:
                return _merge(self.block(s.then, state, inner), self.block(s.else_, state, inner))
            finally:
                self.guards.pop()
        if isinstance(s, (Store, VecStore)):
            return self.store(s, state)
        if isinstance(s, MatrixStore):  # a warp's fragments into shared memory: a shared store's rules
            rows, cols = s.shape.stored[::-1] if s.shape.transposed else s.shape.stored
            self.inside(s.buffer, s.index, (rows - 1) * s.ld + cols - 1)
            return self.store(Store(s.buffer, s.index, Const(0, s.shape.accumulator), SHARED), state)
        if isinstance(s, MatrixChunk):
            self.chunk_inside(s)
        for f in dataclasses.fields(s):  # (a MatrixChunk: the reads of its tiles, as its operands' loads)  # Assign, Comment: just their reads
            value = getattr(s, f.name)
            if dataclasses.is_dataclass(value):
                state = self.reads(value, state)
        return state

    def loop(self, s: For, state: _State, divergent: bool) -> _State:
        # what the walk's end state and its problems depend on (the names bound and the arrays declared only
        # add problems on a first walk; the varying names are all known before it)
        key = (id(s), tuple(sorted(state.tiles.items())), state.groups, state.open, divergent)
        if key not in self.walked:
            self.walked[key] = self.loop_walked(s, state, divergent)
        return self.walked[key]

    def loop_walked(self, s: For, state: _State, divergent: bool) -> _State:
        for e in (s.start, s.stop, s.step):
            state = self.reads(e, state)
        inner = divergent or any(self.thread_varying(e) for e in (s.start, s.stop, s.step))
        self.bound.add(s.var)
        self.loops[s.var] = s
        self.defs.pop(s.var, None)
        for _ in range(2):  # twice: the end of one iteration meets the start of the next
            state = self.block(s.body, state, inner)
        return state

    def store(self, s, state: _State) -> _State:
        values = s.values if isinstance(s, VecStore) else (s.value,)
        for e in (s.index, *values):
            state = self.reads(e, state)
        if isinstance(s, VecStore):
            self.vector(s.buffer, s.index, s.width, s.ctype)
        self.buffer(s.buffer, s.space, s.index)
        if s.space == SHARED:
            self.stored_inside(s.buffer, s.index, s.width if isinstance(s, VecStore) else 1)
            for name in (s.buffer, *self.overlaps.get(s.buffer, ())):
                if state.tiles.get(name) == READ:
                    self.fault(Fault.OVERWRITE, f"{name} is written while threads may still read it (no barrier "
                                                "between)" + self.through(name, s.buffer))
                if state.tiles.get(name) == IN_FLIGHT:
                    self.fault(Fault.OVERWRITE, f"{name} is written while an asynchronous copy into it is in "
                                                "flight" + self.through(name, s.buffer))
                state = state.set(name, WRITTEN)
        return state

    @staticmethod
    def through(name: str, accessed: str) -> str:
        return "" if name == accessed else f" (through {accessed}, which shares its bytes)"

    def async_copy(self, s: AsyncCopy, state: _State) -> _State:
        for e in (s.dst_index, s.src_index, s.valid):
            state = self.reads(e, state)
        if s.bytes not in target.ASYNC_COPY_BYTES:
            self.fault(Fault.ASYNC, f"an asynchronous copy of {s.bytes} bytes (cp.async moves 4, 8 or 16)")
        if s.width > 1:
            self.vector(s.shared, s.dst_index, s.width, s.ctype)
            self.vector(s.src, s.src_index, s.width, s.ctype)
        self.buffer(s.shared, SHARED, s.dst_index)
        self.stored_inside(s.shared, s.dst_index, s.width)
        for name in (s.shared, *self.overlaps.get(s.shared, ())):
            if state.tiles.get(name) == READ:
                self.fault(Fault.OVERWRITE, f"{name} is copied over while threads may still read it (no barrier "
                                            "between)" + self.through(name, s.shared))
        landing = {s.shared, *self.overlaps.get(s.shared, ())}  # (what shares its bytes is being written too)
        for name in landing:
            state = state.set(name, IN_FLIGHT)
        return dataclasses.replace(state, open=state.open | landing)

    def tma_issue(self, s: TmaIssue, state: _State) -> _State:
        """TMA copies into a buffer: nobody may still read it unless the issue waits for its readers (`freed`)."""
        for x in s.copies:
            state = self.reads((*x.coords, s.freed), state)
            self.buffer(x.shared, SHARED, None)
            for name in (x.shared, *self.overlaps.get(x.shared, ())):
                if state.tiles.get(name) == READ and s.freed is None:
                    self.fault(Fault.OVERWRITE, f"{name} is copied over by TMA while threads may still read it "
                                                "(no wait for its readers)" + self.through(name, x.shared))
                state = state.set(name, IN_FLIGHT)
        return state

    def wait(self, s: AsyncWait, state: _State) -> _State:
        keep = len(state.groups) - s.pending
        done = frozenset().union(*state.groups[:max(keep, 0)]) if keep > 0 else frozenset()
        if s.pending == 0 and state.open:
            self.fault(Fault.ASYNC, "a wait for every copy with copies not yet committed")
        still = frozenset().union(*state.groups[max(keep, 0):], state.open)
        if s.pending == 0:  # every committed copy is done, whichever group a merge of paths kept it in
            done = frozenset(n for n, v in state.tiles.items() if v == IN_FLIGHT)
        tiles = {n: (WRITTEN if n in done and n not in still else v) for n, v in state.tiles.items()}
        return dataclasses.replace(state, tiles=tiles, groups=state.groups[max(keep, 0):])

    def reads(self, e, state: _State) -> _State:
        for node in walk(e):
            if isinstance(node, Ref) and node.name not in self.bound:
                self.fault(Fault.UNBOUND, f"`{node.name}` is used but never bound")
            if isinstance(node, (Load, VecLoad)):
                self.buffer(node.buffer, node.space, node.index)
                if isinstance(node, VecLoad):
                    self.vector(node.buffer, node.index, node.width, node.ctype)
            if isinstance(node, (Load, VecLoad)) and node.space == SHARED:
                now = state.tiles.get(node.buffer)
                if now == WRITTEN:
                    self.fault(Fault.STALE_READ, f"{node.buffer} is read before a barrier after its copy")
                elif now == IN_FLIGHT:
                    self.fault(Fault.STALE_READ, f"{node.buffer} is read while an asynchronous copy into it may be in flight")
                state = state.set(node.buffer, READ)
        return state

    def buffer(self, name: str, space: str, index) -> None:
        if space == LOCAL:
            if name not in self.arrays:
                self.fault(Fault.LOCAL_ARRAY, f"{name} is not a per-thread array")
            elif not self.constant(index):
                self.fault(Fault.LOCAL_ARRAY, f"per-thread array {name} is indexed at run time: it would go to local "
                                     "memory, not registers (unroll its loops fully)")
            else:
                span = value_range(index, self.threads, self.loops, self.defs)
                if span is not None and (span[0] < 0 or span[1] >= self.arrays[name]):
                    self.fault(Fault.PAST_ARRAY, f"per-thread array {name} of {self.arrays[name]} elements is indexed "
                                                 f"from {span[0]} to {span[1]}")
        elif space == SHARED and name not in self.shared:
            self.fault(Fault.NOT_SHARED, f"{name} is not a shared allocation")

    def chunk_inside(self, s: MatrixChunk) -> None:
        """Each operand's elements, over its fragments and the chunk's
        instructions, within its tile."""
        sh = s.shape
        for op, a in ((s.a, True), (s.b, False)):
            nxt, step = fragment_steps(sh, op, a)
            lines, along = operand_strides(op, a)
            side, count = (sh.m, sh.fragments[0]) if a else (sh.n, sh.fragments[1])
            last = (count - 1) * nxt + (s.steps - 1) * step + (side - 1) * lines + (sh.k - 1) * along
            if op.registers:  # (from the thread's own first element: its second row and second position)
                last = (count - 1) * nxt + (s.steps - 1) * step + target.WGMMA_REGISTER_ROWS * lines + \
                    target.WGMMA_REGISTER_POSITIONS * along
            elif op.lines:  # a swizzled tile: whole lines, or whole blocks of them (the swizzle permutes within)
                last = count * side * op.ld - 1 if operand_lines(op, a) else \
                    (count * side // op.ld - 1) * op.block + op.block - 1
            self.inside(op.first.buffer, op.first.index, last)

    def stored_inside(self, buffer: str, index, width: int) -> None:
        """A shared store's (or copy's) elements within its allocation, for
        every thread and iteration, where the index's range is known at
        compile time and no `if` around it tests what it is computed from
        (a copy's last threads, guarded off past the tile, need not fit
        unguarded); a cooperative copy's index is a tile's whole layout, a
        swizzle's included."""
        if buffer not in self.elems:
            return
        if self.guards:
            names = self.depends(index)
            if any(names & g for g in self.guards):
                return
        found = value_range(index, self.threads, self.loops, self.defs)
        if found is None:
            return
        last = found[1] - found[1] % width + width - 1  # (a vector's index is a multiple of its width: self.vector)
        if self.outside(buffer, found[0], last):
            self.fault(Fault.OUT_OF_TILE, f"a store writes elements {found[0]} to {last} of shared {buffer}, which "
                                          f"holds {self.elems[buffer]}")

    def depends(self, e) -> set:
        """The names `e` reads (a thread index as `threadIdx.x`, ...), and
        those the constants and loop variables among them are computed from."""
        out, todo = set(), [e]
        while todo:
            for n in walk(todo.pop()):
                if isinstance(n, ThreadIdx):
                    out.add(f"threadIdx.{n.axis}")
                elif isinstance(n, Ref) and n.name not in out:
                    out.add(n.name)
                    if n.name in self.defs:
                        todo.append(self.defs[n.name])
                    if n.name in self.loops:
                        todo += [self.loops[n.name].start, self.loops[n.name].stop]
        return out

    def inside(self, buffer: str, index, last: int) -> None:
        """Elements `index` to `index + last` of shared `buffer` lie within
        it for every thread; an index whose range is not known at compile
        time is a fault too (a warp's fragments start at constants and the
        thread's index)."""
        found = value_range(index, self.threads, self.loops, self.defs)
        if found is None:
            self.fault(Fault.OUT_OF_TILE, f"a matrix operation on {buffer} starts at an index not bounded at compile time")
        elif self.outside(buffer, found[0], found[1] + last):
            self.fault(Fault.OUT_OF_TILE, f"a matrix operation reads or writes elements {found[0]} to "
                                          f"{found[1] + last} of {buffer}, which holds {self.elems[buffer]}")

    def outside(self, buffer: str, first: int, last: int) -> bool:
        """Elements `first` to `last` pass either end of shared `buffer` (one of a known size)."""
        return buffer in self.elems and (first < 0 or last >= self.elems[buffer])

    def vector(self, buffer: str, index, width: int, ctype: str) -> None:
        if not target.has_vector(ctype, width):
            self.fault(Fault.NO_VECTOR_TYPE, f"no {width}-wide vector of {ctype} (access to {buffer})")
        elif not self.multiple(index, width):
            self.fault(Fault.UNALIGNED, f"a {width}-wide access to {buffer} at an index not provably a multiple of {width}")

    def constant(self, e) -> bool:
        """Known at compile time once fully unrolled loops are unrolled."""
        if isinstance(e, Const):
            return True
        if isinstance(e, Ref):
            loop = self.loops.get(e.name)
            if loop is not None:
                return loop.unroll == FULL and all(self.constant(x) for x in (loop.start, loop.stop, loop.step))
            return e.name in self.defs and self.constant(self.defs[e.name])
        if isinstance(e, Bin):
            return self.constant(e.a) and self.constant(e.b)
        return False

    def multiple(self, e, w: int) -> bool:
        """Whether `e` is a multiple of `w` for every launch the kernel allows."""
        if isinstance(e, Const):
            return isinstance(e.value, int) and e.value % w == 0
        if isinstance(e, Ref):
            if e.name in self.params:
                return self.divisible.get(self.params[e.name], 1) % w == 0
            if e.name in self.loops:
                loop = self.loops[e.name]
                return self.multiple(loop.start, w) and self.multiple(loop.step, w)
            return e.name in self.defs and self.multiple(self.defs[e.name], w)
        if isinstance(e, Bin) and e.op == "*":
            return self.multiple(e.a, w) or self.multiple(e.b, w)
        if isinstance(e, Bin) and e.op in ("+", "-"):
            return self.multiple(e.a, w) and self.multiple(e.b, w)
        if isinstance(e, Bin) and e.op == "^" and w & (w - 1) == 0:  # (the low bits of both are zero)
            return self.multiple(e.a, w) and self.multiple(e.b, w)
        if isinstance(e, Bin) and e.op == "%":  # a - (a / b) b
            return self.multiple(e.a, w) and self.multiple(e.b, w)
        if isinstance(e, Call) and e.fn in MINMAX:
            return all(self.multiple(a, w) for a in e.args)
        if isinstance(e, Cast) and e.ctype in ("int", "long long"):
            return self.multiple(e.a, w)
        return False

    def thread_varying(self, e) -> bool:
        for node in walk(e):
            if isinstance(node, ThreadIdx):
                return True
            if isinstance(node, Ref) and node.name in self.varying:
                return True
        return False


def _merge(a: _State, b: _State) -> _State:
    tiles = {n: max(a.tiles[n], b.tiles[n], key=ORDER.index) for n in a.tiles}
    groups = a.groups if len(a.groups) >= len(b.groups) else b.groups
    return _State(tiles, groups, a.open | b.open)
