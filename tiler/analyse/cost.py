"""The cost model: what a schedule costs, in global loads.

`loads(schedule)` ranks the blocks the plan tries: the global loads a thread
makes per streamed element (1 for an input left in global memory, 1/reuse for
a staged one; times the row length for a chunk of rows). `point_cost(...)` is the same estimate at given sizes, with
what tiling costs besides: a block wider than a small dimension idles, a
staged input shared by fewer threads than the block has saves less, and
every chunk costs two barriers. Comparing it for the tiled and the untiled
schedule says where tiling cannot pay (a stream a few elements long) and
below which sizes the launch should run the untiled kernel (`thresholds`).
`price(op)` is what one operation of the program costs an SM, in f32 adds:
registers.py weighs a body's arithmetic against its shared reads with it.
"""
from __future__ import annotations

import math

from ..check import typed as T
from ..check.types import NARROW_KINDS, element_bytes
from .schedule import BlockPlan, Schedule, StreamPlan, Threshold

# Two barriers a chunk, in the unit of one global load a thread: an estimate
# of their cost (a barrier stalls the block for about as long as a few cached
# loads take); thresholds follow from it and can be overridden (--threshold).
BARRIER_LOADS = 4.0
LARGE = 1 << 20  # a size not known at compile time, taken as large
# An input read in place a row apart between neighbouring threads: a warp's 32
# reads of 4 bytes touch 32 sectors of 32 bytes where coalesced ones touch 4,
# so it moves 8 times the bytes unless a sector stays in L1 until the thread's
# next reads, which at many threads an SM it does not.
UNCOALESCED_LOADS = 8.0


def uncoalesced_loads(element_bytes: int) -> float:
    """UNCOALESCED_LOADS for elements of this size: a warp's reads of 2-byte
    elements a row apart still touch 32 sectors, where coalesced ones touch
    2 (16 times the bytes); wider elements keep the 4-byte estimate."""
    return max(UNCOALESCED_LOADS, 32.0 / element_bytes)


def _input_loads(p, reuse: int) -> float:
    """Global loads a thread makes per element of one input: none for an iota
    (computed, not loaded) or an input reading another's tile, 1/reuse for a
    staged input, 1 read in place, or UNCOALESCED_LOADS where those reads are
    a row apart between neighbouring threads."""
    return p.element / reuse if p.copied else in_place_loads(p)


def in_place_loads(p) -> float:
    """Global loads a thread makes per element of an input read where it
    lies (none for an iota or an input reading another's tile)."""
    if isinstance(p.array, T.Iota) or p.shares:
        return 0.0
    return (uncoalesced_loads(element_bytes(p.array.type)) if p.uncoalesced else 1.0) * p.element


def loads(schedule_streams) -> float:
    """Global loads per thread per streamed element, summed over inputs."""
    return sum(_input_loads(p, p.staging.reuse if p.staged else 1) for s in schedule_streams for p in s.inputs)


def stream_size(s: StreamPlan):
    """The stream's length: a number, or the size (a Binder) it is at launch."""
    return s.site.stream.length


def stream_length(s: StreamPlan, sizes: dict) -> int:
    n = stream_size(s)
    return n if isinstance(n, int) else sizes.get(n, LARGE)


def _useful(block: BlockPlan, extents: dict) -> float:
    """The fraction of the block's threads inside the map nest."""
    frac = 1.0
    for d in block.spans:
        e, n = block.points(d), extents.get(d, LARGE)
        if n > 0:  # a dimension of size 0 has no points to waste threads on
            frac *= n / (math.ceil(n / e) * e)
    return frac


def stream_cost(s: StreamPlan, block: BlockPlan, extents: dict, sizes: dict) -> float:
    """Loads a point per streamed element of one stream, barriers included."""
    total = 0.0
    for p in s.inputs:
        reuse = 1
        for d in (p.invariant_to & frozenset(block.spans)) if p.staged else ():
            reuse *= min(block.points(d), extents.get(d, LARGE))  # fewer points share it in a small dim
        total += _input_loads(p, reuse)
    # (a stream of no elements still has its barriers: priced as one element's)
    return total + (2 * BARRIER_LOADS / max(1, min(s.chunk, stream_length(s, sizes))) if s.tiled else 0.0)


def point_cost(schedule: Schedule, extents: dict, sizes: dict) -> float:
    """The cost of one point of the map nest (per streamed element) at the
    given dim extents and sizes (missing ones are large)."""
    cost = sum(stream_cost(s, schedule.block, extents, sizes) for s in schedule.streams)
    return cost / _useful(schedule.block, extents)


def stream_pays(s: StreamPlan, block: BlockPlan, sizes: dict) -> bool:
    """Whether tiling this stream costs less than leaving it in global memory."""
    return stream_cost(s, block, {}, sizes) < sum(in_place_loads(p) for p in s.inputs)


def thresholds(tiled: Schedule, untiled: Schedule, dim_sizes: dict, overrides: dict,
               launch_sizes: frozenset) -> tuple[Threshold, ...]:
    """For every size not known at compile time that a spanned dim or a tiled
    stream's length depends on: the smallest value at which the tiled
    schedule costs no more than the untiled one (none when that is 1). Only
    sizes the launch knows (`launch_sizes`, main's) can be tested."""
    names: dict = {}
    for d in tiled.block.spans:
        if not isinstance(dim_sizes[d], int):
            names.setdefault(dim_sizes[d], set()).add(d)
    for s in tiled.streams:
        # a length the launch knows: not a chunk of an outer stream (a launch condition cannot test that)
        if s.tiled and stream_size(s) in launch_sizes:
            names.setdefault(stream_size(s), set())
    out = []
    for size, dims in names.items():
        if size.name in overrides:
            out.append(Threshold(size.name, min(dims, default=None), overrides[size.name], overridden=True))
            continue
        limit = max([tiled.block.points(d) for d in dims] + [s.chunk for s in tiled.streams if s.tiled])
        for n in range(1, limit + 1):
            extents, sizes = {d: n for d in dims}, {size: n}
            if point_cost(tiled, extents, sizes) <= point_cost(untiled, extents, sizes):
                break
        if n > 1:
            out.append(Threshold(size.name, min(dims, default=None), n))
    return tuple(out)


# ---- arithmetic -----------------------------------------------------------------
# What one operation of the program costs, in issue slots of an f32 add or
# multiply: what an Hopper SM does a clock (128 f32 adds or multiplies, 64 f64,
# 16 hardware approximations: rsqrt, ex2, sin, cos) and the instructions CUDA's
# IEEE functions take around them (range reduction, Newton steps, the slow
# paths' tests): division about 10, sqrt 8, exp and log 10, sin and cos 20;
# f64 doubles the plain operations and its functions take about 40.
PRICE = {"/": 10, "%": 20, "sqrt": 8, "rsqrt": 4, "exp": 10, "log": 10, "sin": 20, "cos": 20, "pow": 30}
PRICE_F64 = {"/": 30, "%": 40, "sqrt": 30, "rsqrt": 30, "exp": 40, "log": 40, "sin": 40, "cos": 40, "pow": 60}
# a read from global memory (an L1 hit at best): an SM issues 32 loads a clock
# against 128 f32 operations
LOAD_PRICE = 4
WIDE_KINDS = ("f64", "i64")
WIDE = 2  # an f64 or i64 add or multiply: two f32 slots (half the rate, or two 32-bit instructions)
# an f16 or bf16 operation is f32's with its operands converted to f32 and
# its result rounded back (lower/narrow.py): about two slots more
NARROW_CONVERSIONS = 2


def price(e) -> float:
    """The cost of one operation node (BinOp, UnOp or Builtin) of the typed program."""
    name = e.op if isinstance(e, (T.BinOp, T.UnOp)) else e.name
    kinds = {getattr(getattr(x, "type", None), "kind", "") for x in (e, *_operands(e))}
    wide = bool(kinds & set(WIDE_KINDS))
    table = PRICE_F64 if wide else PRICE
    cost = table.get(name, WIDE if wide else 1)
    return cost + NARROW_CONVERSIONS if kinds & set(NARROW_KINDS) else cost


def _operands(e):
    if isinstance(e, T.BinOp):
        return (e.lhs, e.rhs)
    if isinstance(e, T.UnOp):
        return (e.operand,)
    return e.args
