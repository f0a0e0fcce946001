"""A product's tiles copied by TMA (tiler/tma.py), where the plan allows it
(MatrixUnits.tma: warp groups reading both tiles through descriptors) and
every tile the stream copies is a box of a 2-D input array: the rows of the
tile one line each, the chunk's positions along them (K-major), or the
chunk's positions one line each, the tile's columns along them (MN-major).
Nothing else is copied so (a version whose views differ keeps cp.async).

    barriers; the first `stages` chunks issued (one thread)
    for each chunk c, in buffer c % stages:
        wait until its tiles have landed (the buffer's full mbarrier, phase c / stages)
        the chunk's instructions, left running (MatrixChunk.pending)
        c > 0: the chunk before it is done: each warp group frees its buffer,
               and the issuing thread refills it with chunk c - 1 + stages once both have
    every chunk's instructions done (MatrixWait)

The chunks run to the stream's length rounded up: a box past an array's
edge reads zeros, so the last partial chunk multiplies zeros past the end
and rows or columns past the tile's dim are zero (their outputs are not
stored). Every thread of the block runs the loop alike (no barrier in it).

A product on the CUDA cores (Schedule.tma, analyse/core_tma.py) copies its
tiles unswizzled, a box a tile, as its threads read them; its threads free a
buffer together (a block-wide barrier after the chunk) and the issuing
thread then refills it with the chunk `stages` on:

    for each chunk c, in buffer c % stages:
        wait until its tiles have landed
        c before the stream's end: the chunk's multiply-adds
        barrier; chunk c + stages issued into the buffer (one thread)

A body that adds nothing for the zeros a box reads past an array's end
(analyse/zero_tail.py: `acc + x[k] * y[k]`, `acc + t * t`) runs its chunks
whole, to a whole even number of rounds of the buffers (the last copies all
zeros, their arithmetic skipped). Any other body (a min-plus product's would
take a zero) runs its last chunk's own length. After the
loop the issuing thread invalidates the mbarriers (every thread is past the
barrier after its last wait), so that a block walking the grid in a loop
initialises them again for its next tile.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, replace

from .. import kir, target, tma
from ..analyse.schedule import Layout
from ..analyse.tma_boxes import core_tile, tma_tile
from ..kir.build import add, ceil_div, const, mul
from .values import View, both

CHECKS = 6  # random assignments a view's offset is compared at (sums and products: any mismatch shows)


@dataclass(frozen=True)
class Source:
    """The input array a copied tile is a box of: its parameter, and whether
    the chunk's positions run along its rows' lines (`mn`: the tile's
    columns along them)."""

    param: kir.Param
    mn: bool


def tma_sources(low, e, plan, arrays) -> list | None:
    """(view, input plan, Source) for each tile the stream copies, where
    every one can be copied by TMA; else None."""
    units = low.schedule.matrix_units
    cores = _on_cores(low)
    # (not in a loop, nor a grid loop on the units: an mbarrier's phases count one pipeline; nor a split-K stage)
    if not cores and (units is None or not units.tma or low.grid_loop) or not low.vectors or \
            low.k_share is not None or low.loop_depth > 0:
        return None
    out = []
    for view, ip in zip(arrays, plan.inputs):
        if not ip.copied:
            continue
        if not (core_tile(ip.staging) if cores else tma_tile(ip.staging)) or not isinstance(view, View):
            return None
        source = _source(low, view, ip, e)
        if source is None:
            return None
        out.append((view, ip, source))
    return out or None


def _source(low, view: View, ip, e) -> Source | None:
    """The 2-D input array whose rows (K-major) or columns (MN-major) the
    view reads at the tile dim's index: its offset and stride sums and
    products only (no clamp, division or choice, which random values could
    miss), equal to the row's or the column's at random values of every
    name they use; its rows' pitch a multiple of 16 bytes where it is a
    number (a size's is a launch condition: _map). None where it reads
    anything else."""
    param = low.arrays.get(view.buffer)
    extents = low.extents.get(view.buffer)
    if param is None or extents is None or len(extents) != 2 or len(view.strides) != 1:
        return None
    (d,) = ip.staging.rows
    idx = low.indices[d]["idx"].name
    own = low._expanded(view, idx, e.span)
    if not all(_affine(x) for x in (own.offset, own.strides[0])):
        return None
    if isinstance(extents[1], kir.Const) and extents[1].value * target.SIZEOF[param.ctype] % tma.ROW_BYTES:
        return None
    mn = ip.staging.layout is Layout.TRANSPOSED
    names = {n.name for x in (own.offset, own.strides[0], *extents) for n in kir.walk(x) if isinstance(n, kir.Ref)}
    rng = random.Random(len(names))
    for _ in range(CHECKS):
        env = {n: rng.randrange(1, 5000) for n in names}
        try:
            offset, stride = kir.evaluate(own.offset, env), kir.evaluate(own.strides[0], env)
            cols = kir.evaluate(extents[1], env)
        except (KeyError, ValueError, TypeError):
            return None
        want = (env.get(idx), cols) if mn else (env.get(idx, 0) * cols, 1)
        if (offset, stride) != want:
            return None
    return Source(param, mn)


def _on_cores(low) -> bool:
    """The kernel's product runs on the CUDA cores, its tiles planned for TMA (analyse/core_tma.py)."""
    units = low.schedule.matrix_units
    return low.schedule.copies_by_tma and (units is None or not units.used)


def _affine(e) -> bool:
    """Whether an index is made of names, numbers, casts, sums and products alone."""
    return all(isinstance(n, (kir.Ref, kir.Const, kir.Cast)) or isinstance(n, kir.Bin) and n.op in "+-*"
               for n in kir.walk(e))


def tma_pipelined(low, e, plan, arrays, length, accs, sources) -> None:
    """The stream's chunks copied by TMA into `stages` buffers (the module doc)."""
    stages, size = sources[0][1].staging.buffers, plan.chunk
    if _on_cores(low):
        _cores_pipelined(low, e, plan, arrays, length, accs, sources)
        return
    groups = low.schedule.block.threads // target.WGMMA_GROUP
    low.emit(kir.TmaBarriers(stages, groups))
    # whole rounds of `stages` chunks, those past the end all zeros: no chunk's instructions under a branch
    # (ptxas serialises a pipeline whose accumulators a branch's merge may define)
    rounds = low.declare(f"{e.offset.name}_rounds", "int", ceil_div(length, stages * size))
    end = low.declare(f"{e.offset.name}_end", "int", mul(rounds, const(stages * size)))
    tiles = {b: tuple(dict.fromkeys(low._shared_buffer(ip, view.ctype, b) for view, ip, _ in sources))
             for b in range(stages)}

    def issue(start, buffer: int, freed=None) -> kir.TmaIssue:
        copies = tuple(x for view, ip, source in sources for x in _boxes(low, view, ip, source, start, buffer))
        nbytes = sum(ip.staging.elements * target.SIZEOF[view.ctype] for view, ip, _ in sources)
        return kir.TmaIssue(buffer, copies, nbytes, freed)

    low.emit(kir.If(kir.Bin("<", const(0), end), tuple(issue(const(s * size), s) for s in range(stages)), (), e.span))
    kk = low.fresh(e.offset.name)
    use = kir.Bin("/", kir.Ref(kk), const(stages * size))  # the buffers' round: chunk c's is c / stages

    def step(start, buffer: int):
        def emit():
            low.emit(kir.TmaWait(buffer, kir.Bin("%", use, const(2)), tiles[buffer]))
            low._bind_chunk(e, start, const(size))
            low._body(e, plan, arrays, accs, start, const(size), buffer)
            before = (buffer + stages - 1) % stages  # the buffer of the chunk before this one (last round's for 0)
            freed = kir.Bin("%", add(use, const(1)) if buffer == 0 else use, const(2))
            refill = add(start, const((stages - 1) * size))
            low.emit(kir.If(kir.Bin("<", const(0), start), (kir.TmaRelease(before),)))
            low.emit(kir.If(both(kir.Bin("<", const(0), start), kir.Bin("<", refill, end)),
                            (issue(refill, before, freed),)))
        return low.block(emit)[0]

    body = sum((step(add(kir.Ref(kk), const(s * size)), s) for s in range(stages)), ())
    low.emit(kir.For(kk, const(0), end, const(stages * size), body, e.span,
                     note=f"{stages} chunks a step, one in each buffer, copied by TMA"))
    low.emit(kir.TmaDone(tuple(dict.fromkeys(t for b in range(stages) for t in tiles[b]))))
    low.emit(kir.MatrixWait())  # (last: the units' sum goes after it, transform/matrix_units.py)


def _cores_pipelined(low, e, plan, arrays, length, accs, sources) -> None:
    """A CUDA-core product's chunks copied by TMA (the module doc's second
    loop), a chunk a step: each input's buffers are one ring of `stages`
    tiles, the step's tile picked by its index (three chunks' multiply-adds
    unrolled in a step ran 4% slower, chunks of 32 25%: H200, the
    forty-first session, the loop body past what the instruction cache
    holds). A body the zeros past an array's end leave as it is runs every
    chunk whole (Schedule.tma.whole_chunks); any other runs its last chunk's
    own length."""
    stages, size = sources[0][1].staging.buffers, plan.chunk
    low.emit(kir.TmaBarriers(stages, 0))
    rings = {ip.name: _ring(low, ip, view.ctype, stages) for view, ip, _ in sources}
    tiles = tuple(dict.fromkeys(rings.values()))
    # a body the zeros leave as they are (analyse/zero_tail.py) runs every chunk whole, to whole even rounds of
    # the buffers, the form timed (H200, the forty-first session); another runs its last chunk's own length
    whole = low.schedule.tma.whole_chunks
    end = low.declare(f"{e.offset.name}_end", "int", mul(ceil_div(length, 2 * stages * size),
                                                         const(2 * stages * size))) if whole else length

    def issue(start, stage) -> kir.TmaIssue:
        copies = tuple(_box(low, view, ip, source, start, rings[ip.name], mul(stage, const(ip.staging.elements)))
                       for view, ip, source in sources)
        return kir.TmaIssue(stage, copies, sum(ip.staging.elements * target.SIZEOF[view.ctype]
                                               for view, ip, _ in sources))

    first = [issue(const(s * size), const(s)) for s in range(stages)]
    if whole:  # (its end a whole number of rounds: every buffer's first chunk, or none)
        low.emit(kir.If(kir.Bin("<", const(0), end), tuple(first), (), e.span))
    else:
        for s, copy in enumerate(first):
            low.emit(kir.If(kir.Bin("<", const(s * size), end), (copy,), (), e.span))
    kk = low.fresh(e.offset.name)

    def step():
        start = kir.Ref(kk)
        stage = low.declare(f"{kk}_stage", "int", kir.Bin("%", kir.Bin("/", start, const(size)), const(stages)))
        low.emit(kir.TmaWait(stage, kir.Bin("%", kir.Bin("/", start, const(stages * size)), const(2)), tiles))
        full = low.block(lambda: _ring_chunk(low, e, plan, arrays, accs, start, stage, rings, const(size)))[0]
        if whole:
            low.emit(kir.If(kir.Bin("<", start, length), full))
        else:
            last = low.block(lambda: _ring_chunk(low, e, plan, arrays, accs, start, stage, rings,
                                                 kir.Bin("-", length, start)))[0]
            low.emit(kir.If(kir.Bin("<=", add(start, const(size)), length), full, last))
        low.emit(kir.Barrier("every thread is done with the chunk's buffer"))
        refill = add(start, const(stages * size))
        low.emit(kir.If(kir.Bin("<", refill, end), (issue(refill, stage),)))

    low.emit(kir.For(kk, const(0), end, const(size), low.block(step)[0], e.span,
                     note=f"a chunk a step, in buffer step % {stages}, copied by TMA"))
    low.emit(kir.TmaDone(tiles, stages))


def _ring(low, ip, ctype: str, stages: int) -> str:
    """An input's `stages` tiles as one shared array, each on a boundary a box lands on."""
    name = low._shared_buffer(ip, ctype, 0)
    low.shared[:] = [replace(a, elems=a.elems * stages, align=max(a.align, tma.BOX_ALIGN)) if a.name == name else a
                     for a in low.shared]
    return name


def _ring_chunk(low, e, plan, arrays, accs, start, stage, rings, chunk) -> None:
    """The stream's body on one chunk of `chunk` positions, its copied inputs read from their ring's tile `stage`."""
    def tile(ip, ctype):
        if ip.name not in rings:
            return None
        view = low._shared_view(ip, ctype, plan.chunk, 0)
        return replace(view, offset=add(view.offset, mul(stage, const(ip.staging.elements))))

    low._bind_chunk(e, start, chunk)
    low._body(e, plan, arrays, accs, start, chunk, 0, tile)


def _box(low, view: View, ip, source: Source, start, shared: str, offset) -> kir.TmaCopy:
    """A CUDA-core product's tile, one unswizzled box as the tile lies: the
    tile's rows along the array's lines (`mn`) or the chunk's positions."""
    (d,) = ip.staging.rows
    base = low.indices[d]["base"]
    rows, chunk = ip.staging.tile
    if source.mn:
        return kir.TmaCopy(_map(low, source.param, (rows, chunk), swizzled=False), shared, offset, (base, start))
    return kir.TmaCopy(_map(low, source.param, (chunk, rows), swizzled=False), shared, offset, (start, base))


def _boxes(low, view: View, ip, source: Source, start, buffer: int) -> list:
    """The boxes of one tile: blocks of a 128-byte line across (the chunk's
    positions, or MN-major the tile's columns), each its lines deep, laid
    out as the swizzled tile is (kir.build.swizzled_index)."""
    st = ip.staging
    (d,) = st.rows
    base = low.indices[d]["base"]
    line = target.wgmma_line(view.ctype)
    shared = low._shared_buffer(ip, view.ctype, buffer)
    rows, chunk = st.tile
    if source.mn:
        name = _map(low, source.param, (line, chunk))
        return [kir.TmaCopy(name, shared, b * line * chunk, (add(base, const(b * line)), start))
                for b in range(rows // line)]
    name = _map(low, source.param, (line, rows))
    return [kir.TmaCopy(name, shared, b * line * rows, (add(start, const(b * line)), base))
            for b in range(chunk // line)]


def _map(low, p: kir.Param, box: tuple, swizzled: bool = True) -> str:
    """The kernel's tensor map parameter for array `p` in boxes of `box` (one a pair)."""
    key = (p.name, box)
    if key not in low.tensor_maps:
        name = low.fresh(f"map_{p.name}")
        low.tensor_maps[key] = kir.Param(name, p.ctype, kir.TENSOR_MAP, "" if p.transposed else p.source, p.shape,
                                         box=box, array=p.name, swizzled=swizzled)
        # a map's rows start 16 bytes apart or a multiple of it: the sizes of a row's extent must keep them so
        for n in kir.walk(low.extents[p.name][1]):
            if isinstance(n, kir.Ref) and n.name in low.size_names:
                low.divisible[low.size_names[n.name]] = tma.ROW_BYTES // target.SIZEOF[p.ctype]
    return low.tensor_maps[key].name


def tma_summary(low) -> tuple[str, ...]:
    """The kernel comment's line on its TMA copies (none where it has none)."""
    if not low.tensor_maps:
        return ()
    arrays = ", ".join(dict.fromkeys(p.array for p in low.tensor_maps.values()))
    if _on_cores(low):
        return (f"copies: TMA, of {arrays}: one thread's box a tile into each buffer, waited on by mbarriers, "
                "refilled after the block's barrier; zeros past the arrays' edges",)
    return (f"copies: TMA, of {arrays}: one thread's boxes into each buffer, waited on by mbarriers (no barrier a "
            "chunk), one chunk's instructions left running; zeros past the arrays' edges",)
