"""Warnings: what tiler did that the user may not expect, located where it
can be. `explain` lists them (`--json` as data for tools), `compile` prints
them as `file:line:col: warning: ...` with the source line, and `--werror`
makes them errors (exit 1). A warning never changes the kernel.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from ..analyse import Analysis
from ..analyse.options import CLI_NAMES, tile_text
from ..analyse.views import mentions
from ..check import typed as T
from ..errors import Diagnostic, render_diagnostic
from ..source import Source, Span
from ..tree import children, descendants


class Kind(Enum):
    UNUSED = "unused"  # a stream nothing reads: removed
    OPTION = "option"  # a plan option given that the plan could not take as given
    TUNING = "tuning"  # a tuning file beside the program that no table of applies to
    CHUNK = "chunk"  # a chunk read at the stream's offset, or by a loop to another bound than the chunk's length


@dataclass(frozen=True)
class CompilerWarning:
    kind: Kind
    message: str
    span: Span | None = None
    hint: str = ""

    def record(self) -> dict:
        """As `explain --json` lists it."""
        where = {"line": self.span.line, "column": self.span.col} if self.span else {"line": None, "column": None}
        return {"kind": self.kind.value, **where, "message": self.message, "hint": self.hint}

    def render(self, source: Source | None, severity: str = "warning") -> str:
        """As a compiler prints it; `severity` "error" under --werror."""
        if self.span is None:
            return f"{severity}: {self.message}" + (f"\n  hint: {self.hint}" if self.hint else "")
        return render_diagnostic(Diagnostic(self.span, self.message, self.hint), source, severity)


def warnings_of(a: Analysis, applied=None) -> tuple[CompilerWarning, ...]:
    """Every warning for this analysis (and the tuning file read for it)."""
    return _unused(a) + chunk_reads(a.kernel) + _options_not_taken(a, applied) + _tuning(applied)


def chunk_reads(kernel: T.Kernel) -> tuple[CompilerWarning, ...]:
    """A chunk read as if it were the whole array, in its two plain forms:
    `xc[kk + k]` (a chunk's elements count from 0; `kk` is where it starts),
    and `xc[k]` on every step of a loop `for k < m` whose bound is the
    stream's length, not the chunk's. Either reads past the chunk wherever
    the stream is split (`tiler run` splits it whole by default, so there
    the program seems right), and the generated kernels past their shared
    tiles. A read under an `if` is left alone (it may be guarded), and so is
    any other bound (it may be the chunk's length under another name)."""
    out: dict = {}  # (a helper called twice is inlined twice: one warning a place)
    for s in written_streams(kernel):
        for n, loops in _unguarded_reads(s):
            chunk, at = n.array.binder.name, n.indices[0]
            if mentions(at, s.offset):
                out[n.span] = CompilerWarning(
                    Kind.CHUNK, f"`{chunk}` is a chunk, read here at the stream's offset `{s.offset.name}`: a "
                    f"chunk's elements count from 0, and `{s.offset.name}` is where the chunk starts in the array",
                    n.span, f"read `{chunk}[j]` for j < {s.chunk.name}")
            elif isinstance(at, T.Var) and at.binder in loops and _is_length(loops[at.binder].bound, s):
                out[n.span] = CompilerWarning(
                    Kind.CHUNK, f"`{chunk}` has `{s.chunk.name}` elements (a chunk), read here for `{at.binder.name}` "
                    f"up to the whole array's length: past its end wherever the stream is split", n.span,
                    f"loop `for {at.binder.name} < {s.chunk.name}` (the chunk's length)")
    return tuple(sorted(out.values(), key=lambda w: (w.span.line, w.span.col)))


def _unguarded_reads(s: T.Stream):
    """The reads of the stream's own chunks in its body that every step of
    the loops around them makes (not under an `if` or a short-circuit, nor
    in an inner stream), each with those loops by index."""
    stack = [(s.body, {}, False)]
    while stack:
        e, loops, guarded = stack.pop()
        if isinstance(e, T.Stream):
            continue  # an inner stream's chunks are its own
        if isinstance(e, T.Index) and isinstance(e.array, T.Var) and e.array.binder in s.chunk_params \
                and not guarded:
            yield e, loops
        if isinstance(e, T.Loop):
            stack += [(c, loops, guarded) for c in (*e.inits, e.bound, e.rest)]
            stack.append((e.body, {**loops, e.index: e}, guarded))
            continue
        inner = guarded or isinstance(e, T.If) or isinstance(e, T.BinOp) and e.op in ("&&", "||")
        stack += [(c, loops, inner) for c in children(e, T.is_exp)]


def _is_length(bound, s: T.Stream) -> bool:
    """Whether a loop's bound is the stream's whole length (its arrays' outer size)."""
    length = s.length
    if isinstance(bound, T.Lit):
        return isinstance(length, int) and bound.value == length
    return isinstance(bound, T.Var) and bound.binder is length


def written_streams(k: T.Kernel) -> list:
    """The streams written as `streamSeq` (not loops the kernel stage reads as streams)."""
    if T.Stream not in T.node_kinds(k):  # (remembered from the stages: no walk of a program without streams)
        return []
    return [n for r in k.roots for n in descendants(r, T.is_exp) if isinstance(n, T.Stream) and not n.loop]


def _unused(a: Analysis) -> tuple[CompilerWarning, ...]:
    return tuple(CompilerWarning(Kind.UNUSED, "nothing reads this streamSeq's value: it is removed", span,
                                 "use its result, or delete it")
                 for span in sorted(a.kernel.unused, key=lambda s: (s.line, s.col)))


def _options_not_taken(a: Analysis, applied=None) -> tuple[CompilerWarning, ...]:
    def given(key: str, value: str) -> str:  # the option as given: on the command line, or by the tuning file
        tuned = applied is not None and key in applied.used
        return f"{CLI_NAMES[key]} {value}" + (f" (from {applied.file})" if tuned else "")

    out = []
    chunk, limit = a.options.chunk, a.context.shared_limit(a.block.pipelined)
    for s in a.streams:
        if chunk is not None and s.tiled and s.chunk != chunk:
            out.append(CompilerWarning(
                Kind.OPTION, f"{given('chunk', chunk)}: this stream takes chunks of {s.chunk}: the tiles of "
                f"{chunk} would not fit in the {limit} bytes of shared memory a block may use", s.site.span,
                f"give a smaller {CLI_NAMES['chunk']}, or a larger {CLI_NAMES['max_shared']}"))
    asked = a.options.register_tile
    if any(t not in (None, 1) for t in asked) and a.block.register is None:
        out.append(CompilerWarning(Kind.OPTION, f"{given('register_tile', tile_text(asked))}: not taken: "
                                   f"{a.block.register_reason}"))
    return tuple(out)


def _tuning(applied) -> tuple[CompilerWarning, ...]:
    if applied is None or applied.tuned is not None:
        return ()
    return (CompilerWarning(Kind.TUNING, f"{applied.file}: no table applies: {applied.note}",
                            hint="tiler tune PROG.fut on this GPU writes one"),)
