"""What a stream's plan depends on beyond the stream itself, settled once
every stream of the kernel is planned under a block: whether its tiling
pays at the sizes known now, whether it is joined with its loop's
iterations, and how deep tiled streams nest (plan.py plans each stream,
then settles them here)."""
from __future__ import annotations

from dataclasses import replace

from . import cost
from .context import Context
from .joins import with_joins
from .schedule import StreamPlan
from .staging import not_tiled
from .views import Views

# A tiled stream's body is emitted twice (the full chunks, then the last, partial
# one), so streams tiled inside one another multiply the kernel's code: past
# this many, a stream stays in global memory (20 nested tiled streams would be
# a million copies of the innermost body).
MAX_TILED_NESTING = 3


def settled(streams: tuple[StreamPlan, ...], block, views: Views, ctx: Context,
             chunk: int | None = None) -> tuple[StreamPlan, ...]:
    """Each stream's own plan under `block`, with what depends on the rest:
    untiled where tiling does not pay, joined with its loop's iterations, and
    untiled inside MAX_TILED_NESTING tiled streams."""
    return _nested(with_joins(tuple(_paying(s, block, ctx, views) for s in streams), block, views, ctx, chunk),
                   block, views, ctx)


def _nested(streams: tuple[StreamPlan, ...], block, views: Views, ctx: Context) -> tuple[StreamPlan, ...]:
    """The streams with any inside MAX_TILED_NESTING tiled ones left untiled
    (in source order, so an outer stream is decided first)."""
    out: list[StreamPlan] = []
    for s in streams:
        around = sum(out[i].tiled for i in s.site.enclosing)
        if s.tiled and around >= MAX_TILED_NESTING:
            s = not_tiled(s.site, f"the stream lies inside {around} tiled streams: each emits its body twice (full "
                          "chunks and the last one), so tiling it too would double the kernel's code again",
                          block.rank, views, block.spans[0], ctx)
        out.append(s)
    holders = {i for n, s in enumerate(out) if s.tiled for i in s.site.enclosing}
    if ctx.options.unroll is not None:  # the user's --unroll stands
        return tuple(out)
    return tuple(_rolled(s) if n in holders and s.unroll is not None else s for n, s in enumerate(out))


def _rolled(s: StreamPlan) -> StreamPlan:
    """A stream holding a tiled stream asks for no unrolling of its chunk
    loop (nvcc decides, and leaves such a loop rolled): each unrolled copy
    would repeat the inner one's whole pipeline, its barriers and copies,
    whose addresses ptxas then holds together (a bilinear form: 80 bytes of
    spill stores)."""
    return replace(s, unroll=None, reason=f"{s.reason}; its loop over a chunk is left to nvcc, not unrolled 8 "
                   "times: it holds a tiled stream, whose copies and barriers each unrolled step would repeat")


def _paying(s: StreamPlan, block, ctx: Context, views: Views) -> StreamPlan:
    """The stream untiled where its tiling costs more than it saves at the
    sizes known now (a stream of a few elements: its barriers cost more)."""
    known, size = dict(ctx.options.sizes), cost.stream_size(s)
    sizes = {size: known[size.name]} if getattr(size, "name", None) in known else {}
    length = cost.stream_length(s, sizes)
    if not s.tiled or length == cost.LARGE or (length > 0 and cost.stream_pays(s, block, sizes)):
        return s  # a length known only at launch is for the versions' thresholds
    reason = "the stream is empty: there is nothing to stage" if length == 0 else (
        f"the stream is {length} element(s) long: two barriers a chunk would cost more global-load time than "
        "staging saves")
    return not_tiled(s.site, reason, block.rank, views, block.spans[0], ctx)
