"""An independent check of a lowered kernel: `verify(kernel)` lists problems.

- Every shared read comes after a barrier that follows the copy writing it,
  and no copy overwrites a tile before a barrier follows its last reads.
- No barrier sits under control that differs between the threads of a block
  (a condition or loop bound computed from threadIdx).
- Every name an expression uses is bound; the block and its shared memory
  are within CUDA's limits.
It re-derives what the analysis promised from the IR alone, so a mistake in
lowering or planning shows up here rather than as a hang on the GPU.
"""
from __future__ import annotations

import dataclasses

from ..errors import CompilerBug
from ..render.cuda import MAX_THREADS_PER_BLOCK, SHARED_LIMIT_ANY_GPU
from . import Barrier, CoopCopy, Decl, For, If, Kernel, Load, Ref, Special, walk

CLEAN, WRITTEN, READ = "clean", "written", "read"


def verify(k: Kernel) -> list[str]:
    v = _Verifier(k)
    v.block(k.body, {a.name: CLEAN for a in k.shared}, divergent=False)
    if k.threads > MAX_THREADS_PER_BLOCK:
        v.problems.append(f"{k.threads} threads a block, over {MAX_THREADS_PER_BLOCK}")
    if k.shared_bytes > SHARED_LIMIT_ANY_GPU:
        v.problems.append(f"{k.shared_bytes} bytes of shared memory, over what any GPU gives a block")
    return list(dict.fromkeys(v.problems))


def check(k: Kernel) -> Kernel:
    problems = verify(k)
    if problems:
        raise CompilerBug(f"kernel {k.name} failed verification: " + "; ".join(problems), k.span, "lower")
    return k


class _Verifier:
    def __init__(self, k: Kernel):
        self.problems: list[str] = []
        self.bound = {p.name for p in k.params} | {a.name for a in k.shared}
        self.varying: set[str] = set()  # names whose value differs between threads of a block

    def block(self, stmts, state: dict, divergent: bool) -> dict:
        for s in stmts:
            state = self.stmt(s, state, divergent)
        return state

    def stmt(self, s, state: dict, divergent: bool) -> dict:
        if isinstance(s, Barrier):
            if divergent:
                self.problems.append(f"barrier ({s.why}) under control that differs between threads")
            return {name: CLEAN for name in state}
        if isinstance(s, CoopCopy):
            return self.copy(s, state, divergent)
        if isinstance(s, Decl):
            if s.init is not None:
                state = self.reads(s.init, state)
                if self.thread_varying(s.init):
                    self.varying.add(s.name)
            self.bound.add(s.name)
            return state
        if isinstance(s, For):
            for e in (s.start, s.stop, s.step):
                state = self.reads(e, state)
            inner = divergent or any(self.thread_varying(e) for e in (s.start, s.stop, s.step))
            self.bound.add(s.var)
            for _ in range(2):  # twice: the end of one iteration meets the start of the next
                state = self.block(s.body, state, inner)
            return state
        if isinstance(s, If):
            state = self.reads(s.cond, state)
            inner = divergent or self.thread_varying(s.cond)
            a = self.block(s.then, dict(state), inner)
            b = self.block(s.else_, dict(state), inner)
            return {n: _worst(a[n], b[n]) for n in state}
        for f in dataclasses.fields(s):  # Assign, Store, Comment: just their reads
            value = getattr(s, f.name)
            if dataclasses.is_dataclass(value):
                state = self.reads(value, state)
        if getattr(s, "name", None) and self.thread_varying(getattr(s, "value", None)):
            self.varying.add(s.name)
        return state

    def copy(self, s: CoopCopy, state: dict, divergent: bool) -> dict:
        if state.get(s.shared) == READ:
            self.problems.append(f"{s.shared} is copied over while threads may still read it (no barrier between)")
        self.bound |= {s.row, s.elem}
        for e in (s.tid, s.src_index, s.valid, s.dst_index):
            state = self.reads(e, state)
        state = dict(state)
        state[s.shared] = WRITTEN
        return state

    def reads(self, e, state: dict) -> dict:
        for node in walk(e):
            if isinstance(node, Ref) and node.name not in self.bound:
                self.problems.append(f"`{node.name}` is used but never bound")
            if isinstance(node, Load) and node.space == "shared":
                if state.get(node.buffer) == WRITTEN:
                    self.problems.append(f"{node.buffer} is read before a barrier after its copy")
                state = dict(state)
                state[node.buffer] = READ
        return state

    def thread_varying(self, e) -> bool:
        for node in walk(e):
            if isinstance(node, Special) and node.name.startswith("threadIdx"):
                return True
            if isinstance(node, Ref) and node.name in self.varying:
                return True
        return False


def _worst(a: str, b: str) -> str:
    order = [CLEAN, READ, WRITTEN]
    return max(a, b, key=order.index)
