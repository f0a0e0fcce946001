"""What the analysis finds, as frozen records with reasons.

`Variance` maps every binder of the kernel to the parallel dimensions its
value depends on. A `StreamSite` is one `streamSeq` with its inputs and the
control (`Guard`s) on the path from the kernel's entry to it. The plan is a
`BlockPlan` and one `StreamPlan` per stream, whose `InputPlan`s say for each
input whether it is staged in shared memory, how, and why (or why not).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..check import typed as T
from ..check.types import Binder
from ..source import Span

Dims = frozenset  # of int: parallel dimensions, 0 = the outermost map


def dims_text(dims) -> str:
    return ", ".join(str(d) for d in sorted(dims)) if dims else "none"


@dataclass(frozen=True)
class Guard:
    """Control a thread passes to reach a stream: if it varies across a block,
    the threads of the block could not all reach the stream's barriers."""

    kind: str  # "branch", "loop bound", "short-circuit", "stream length"
    span: Span
    variance: frozenset


@dataclass(frozen=True)
class StreamInput:
    position: int
    array: object  # the typed array expression
    param: Binder  # the chunk parameter it binds
    variance: frozenset  # dims the array (which row, which data) depends on


@dataclass(frozen=True)
class StreamSite:
    stream: T.Stream
    inputs: tuple[StreamInput, ...]
    guards: tuple[Guard, ...]
    length_variance: frozenset  # a stream over iota(count) has a thread-dependent length
    enclosing: tuple[int, ...]  # indices of the streams around this one

    @property
    def span(self) -> Span:
        return self.stream.span


@dataclass(frozen=True)
class Variance:
    rank: int  # number of parallel dimensions
    table: dict = field(compare=False)  # Binder -> frozenset of dims
    streams: tuple[StreamSite, ...] = ()
    kinds: frozenset | None = field(default=None, compare=False)  # the kernel's expression classes (None: not known)

    def may_hold(self, *classes) -> bool:
        """Whether the kernel may hold an expression of one of `classes`."""
        return self.kinds is None or any(c in self.kinds for c in classes)

    def of(self, b: Binder) -> frozenset:
        return self.table.get(b, frozenset())
