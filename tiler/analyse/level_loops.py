"""The loops at a map level's own code (its arguments and lets, and the
body for the innermost level), outside any loop's body: each a reduction
(folds.py says by which operators; a streamRed's loop its combine) that a
row's threads may share, one left with one thread (too few iterations,
known when compiling), or not a reduction, and why (reductions.py plans the
rows that split them)."""
from __future__ import annotations

from dataclasses import dataclass, field

from ..check import typed as T
from ..check.types import Array
from ..tree import children
from .folds import Operator, combined, operators

FEW = 64  # a loop of fewer iterations, known when compiling, stays with one thread


@dataclass(frozen=True)
class Reduction:
    loop: T.Loop = field(repr=False, compare=False)
    operators: tuple[Operator, ...]  # one a carried value
    level: int  # the map level whose code holds it
    split: bool
    reason: str = ""  # why it is not split ("" when it is)
    length: str | int | None = None  # its iterations: a size's name, a number, or None (computed)
    # the row's code reaches it without passing into an `if`'s branch or a loop's body: a kernel of several
    # blocks a row can stop right after it
    top: bool = True
    stream: T.Stream | None = field(default=None, repr=False, compare=False)  # a streamRed's: its combine, starts

    @property
    def combine(self) -> T.Combine | None:
        """A streamRed's combine, where its operators are COMBINE."""
        return self.stream.combine if self.operators[0] is Operator.COMBINE else None

    @property
    def span(self):
        return self.loop.span


@dataclass(frozen=True)
class NotReduction:
    """A loop at a row's level that is not a reduction, and why."""

    loop: T.Loop = field(repr=False, compare=False)
    reason: str
    top: bool = True  # as a Reduction's
    stream: T.Stream | None = field(default=None, repr=False, compare=False)  # the stream whose chunk it walks

    @property
    def span(self):
        return self.loop.span


def level_loops(kernel: T.Kernel, dim: int) -> tuple[list[Reduction], list[NotReduction]]:
    """The loops at a level's own code (its arguments and lets, and the body
    for the innermost level), outside any loop's body: each a reduction to
    split, one left with one thread, or not a reduction."""
    level = kernel.levels[dim]
    roots = list(level.args) + [v for _, v in level.lets]
    if dim == len(kernel.levels) - 1:
        roots.append(kernel.body)
    reductions, others = [], []
    lengths: dict = {}  # a stream's chunk size -> the length of the arrays it walks (untiled: one chunk)
    streams: dict = {}  # a stream's chunk size -> the stream
    stack = [(r, True) for r in reversed(roots)]  # (expression, whether the row's code reaches it at its top)
    while stack:
        e, top = stack.pop()
        if isinstance(e, T.Stream) and isinstance(e.arrays[0].type, Array):
            lengths[e.chunk] = _size(e.length, kernel)
            streams[e.chunk] = e
        if isinstance(e, T.Loop):
            ops = operators(e)
            stream = streams.get(e.bound.binder) if isinstance(e.bound, T.Var) else None
            if isinstance(ops, str) and stream is not None and combined(stream, e):
                ops = (Operator.COMBINE,) * len(e.params)
            elif isinstance(ops, str) and stream is not None and stream.combine is not None:
                ops += "; its streamRed's combine splits only a body that is one loop over the chunk, carrying " \
                       "the accumulators from them and giving them back"
            if isinstance(ops, str):
                others.append(NotReduction(e, ops, top, stream))
                # its body runs the same on every lane
                stack.extend(reversed([(c, top and c is not e.body) for c in children(e, T.is_exp)]))
                continue
            few = too_few(e.bound)
            length = lengths.get(e.bound.binder) if isinstance(e.bound, T.Var) else None
            if isinstance(e.bound, T.Lit):
                length = int(e.bound.value)
            elif isinstance(e.bound, T.Var) and e.bound.binder in kernel.sizes:
                length = e.bound.binder.name
            reductions.append(Reduction(e, ops, dim, not few, few, length, top, stream))
            stack.extend(reversed([(c, top) for c in list(e.inits) + [e.bound, e.rest]] + ([(e.body, False)] if few
                                                                                            else [])))
            continue
        stack.extend(reversed([(c, top and guard is None) for c, guard in T.guarded_children(e)]))
    return reductions, others


def _size(s, kernel: T.Kernel) -> str | int | None:
    """A length the launch can test: a literal, or a size of the kernel's (not a chunk's)."""
    return s if isinstance(s, int) else s.name if s in kernel.sizes else None


def too_few(bound) -> str:
    """Why a loop of this bound is not shared among threads (too few
    iterations, known when compiling), or ""."""
    if isinstance(bound, T.Lit) and int(bound.value) < FEW:
        return f"its {bound.value} iterations are too few to share among threads"
    return ""
