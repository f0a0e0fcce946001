"""Where a split for few points is a product's or a heavy body's, whose
inputs the tiled kernel shares among a block's points: the stream whose
iterations the split-K version's blocks along z share (lower/split_k.py;
the bounds on when it runs: reductions.K_MIN_LENGTH and the rest)."""
from __future__ import annotations

from ..check import typed as T
from ..check.types import Scalar
from .reductions import K_OPERATORS, Split


def split_k_stream(kernel: T.Kernel, split: Split, schedule) -> tuple | None:
    """(stream, loop, reduction) where the split-K version applies: a split
    for few points of one reduction by +, *, min or max per point (every map
    level a row, at most two, so that grid z is free), which is the body of
    the register-tiled schedule's one tiled stream (its carried values the
    stream's own, in order), the schedule's tiles not fixed to a size (a
    bound, `d <= 64`, the version tests) and read in place; else None. A
    tiled kernel of one point a thread takes it only for a heavy body
    (HEAVY_BODY): a light one's split for few points shares a row well
    enough (a mat-vec's), where a heavy one's re-reads every input each row
    (H200, benchmarks/RESULTS.md: an f64 Matern regression of 8,000 points
    1.19 -> 0.36 ms, 42 pairs of the 14 corpus programs with such bodies
    1.12x faster in geometric mean; the slowest, an RBF sum at two sizes,
    0.95x, where the race's three launches chose split-K)."""
    split_ones = [r for r in split.reductions if r.split]
    if not (split.active and split.few and split.several and not split.given and not split.forced) or \
            len(split_ones) != 1 or split.rows != len(kernel.levels) or len(kernel.levels) > 2 or kernel.launch:
        return None
    (r,) = split_ones
    register = schedule is not None and schedule.tiled and schedule.block.register is not None
    # (one point a thread: only for a heavy body, whose few points leave an SM's issue slots idle)
    heavy = schedule is not None and schedule.tiled and split.heavy
    tiled = [s for s in schedule.streams if s.tiled] if register or heavy else []
    if not all(op in K_OPERATORS for op in r.operators) or len(tiled) != 1 or schedule.fixed or \
            schedule.transposed:
        return None
    stream, join = tiled[0].site.stream, tiled[0].join
    loop = stream.body
    if not isinstance(loop, T.Loop) or T.point(loop) != T.point(r.loop) or stream.combine is not None or \
            join is not None and join.joined or not _whole_chunk(stream, loop):
        return None
    return stream, loop, r


def _whole_chunk(stream: T.Stream, loop: T.Loop) -> bool:
    """The loop is the stream's whole fold: it walks the chunk, from the
    stream's carried values (scalars), and gives back its own results, in
    order (so a block's share folded is the stream's carried values)."""
    def names(exps, binders) -> bool:
        return len(exps) == len(binders) and all(isinstance(e, T.Var) and e.binder == b for e, b in zip(exps, binders))
    rest = loop.rest.items if isinstance(loop.rest, T.TupleE) else (loop.rest,)
    return isinstance(loop.bound, T.Var) and loop.bound.binder == stream.chunk and \
        names(loop.inits, stream.acc_params) and names(rest, loop.results) and \
        all(isinstance(p.type, Scalar) for p in loop.params)
