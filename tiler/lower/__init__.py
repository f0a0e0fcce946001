"""Lowering: one kernel (kernel IR, `kir.Kernel`) for one schedule
(`lower_schedule`), or for rows split among threads (`lower_split`,
`lower_several`: split.py). Which kernels a module holds, and when each
runs, is the versions stage's (tiler/versions/), which calls these.

Every decision comes from the schedule: the block, which dimension each
thread and block index walks, the tiles. Threads outside the map nest
compute with their indices clamped into range, so they take part in every
copy and barrier without reading out of bounds, and only their stores are
skipped.
"""
from __future__ import annotations

from .. import kir, target
from ..analyse import Analysis, Schedule
from ..analyse.blocks import folded_dims, stream_kind
from ..analyse.schedule import Math
from ..check import typed as T
from ..kir.build import add, const, mul
from ..transform.join_rows import join_rows
from ..transform.matrix_units import NAME as MATRIX_UNITS
from ..transform.matrix_units import on_matrix_units
from ..transform.reassociate import NAME as REASSOCIATE
from ..transform.reassociate import loop_levels
from ..transform.register_tile import Micro, point, register_tile
from ..transform.unclamp import NAME as UNCLAMP
from ..transform.unclamp import unclamped
from .body import value_parts
from .halos import stage_halos
from .k_stage import KShare, KStage
from .params import (
    bind_prelude,
    flat_index,
    kernel_name,
    kernel_params,
    output_stores,
    size_expr,
    size_name,
    wide_factor,
)
from .raster import group_tiles, tiles_along
from .split import lower_several, lower_split
from .streams import Streams
from .tma_pipeline import tma_summary
from .values import all_of, block_tid, minimum

__all__ = ["lower_schedule", "lower_split", "lower_several", "kernel_name"]


def lower_schedule(analysis: Analysis, schedule: Schedule, file: str, vectors: bool = True,
                   wide: bool = False, transposed: frozenset = frozenset(), k_stage: KStage | None = None,
                   looped: bool = False) -> kir.Kernel:
    """One kernel; `wide`: its flat offsets into arrays of two or more
    dimensions are 64-bit (else int, for launches where every array is smaller
    than 2^31 elements); `transposed`: main's arrays it reads from the
    launch's transposed copies. The sizes the schedule fixes (`Schedule.fixed`) are
    constants in it: loops over a row then have a constant count that nvcc
    can unroll, and a row's loads, known to be the same, load once. A
    register-tiled kernel keeps the body before and after each register
    tiling rewrite (`Kernel.trace`). `k_stage`: the stage of a split-K
    launch (split_k.py), whose blocks along z each fold a share of one
    stream's iterations and store its carried values to scratch memory in
    place of the outputs."""
    # the loops the schedule joins, one stream each (the fast-math levels are the program's as written)
    k, schedule, rewrites = join_rows(analysis.kernel, schedule)
    block, tiled = schedule.block, schedule.tiled
    # every thread computes all its points, clamped into range (a tiled kernel's threads for its barriers, a
    # micro-tile's so that its points' reads stay alike: window_tile.py), only their stores guarded
    clamped = tiled or block.register is not None
    low = Streams(schedule, {}, vectors, loop_levels(analysis.kernel) if schedule.math is Math.FAST else None, wide)
    factor = wide_factor if wide else (lambda extent: extent)
    fixed = schedule.fixed
    low.used.update(k_stage.names if k_stage is not None else ())  # (the last kernel's names for them)
    params = kernel_params(low, k, factor, fixed, transposed)
    micro = _micro(block)
    folded = _folded(k, block, analysis.options, looped)
    low.grid_loop = bool(folded)  # (a TMA pipeline's mbarriers are set up once a kernel: not in a grid loop)
    bind_prelude(low, k)
    sizes = [size_expr(low, level.size) for level in k.levels]
    order, tiles = group_tiles(low, block, sizes, folded)
    staging = stage_halos(low, schedule.halos, block, lambda d: _base(block, d, folded, tiles))
    if k_stage is not None:
        params = [p for p in params if p.role != "output"] + \
            [kir.Param(n, c, kir.SCRATCH) for n, c in zip(k_stage.names, k_stage.ctypes)]
        low.k_share = KShare(k_stage.stream, k_stage.share(size_expr(low, k_stage.length)), k_stage.starts)
    gtids = [low.declare(f"gtid{level.dim}", "int", add(_base(block, level.dim, folded, tiles),
                                                         _local(block, micro, level.dim)), level.span)
             for level in k.levels]
    in_range = all_of(kir.Bin("<", g, s) for g, s in zip(gtids, sizes))
    staged_rows = {r.name: r for r in schedule.slabs if r.staged}
    outputs = [p for p in params if p.role == "output"]

    def nest():
        for level, gtid, size in zip(k.levels, gtids, sizes):
            d = level.dim
            idx = low.declare(f"i{d}", "int", minimum(gtid, kir.Bin("-", size, const(1)))) if clamped else gtid
            low.indices[d] = {"idx": idx, "base": _base(block, d, folded, tiles), "size": size,
                              "local": _local(block, micro, d)}
            for p, arg in zip(level.params, level.args):
                slab = staged_rows.get(p.name)
                value = low.stage_row(slab, low.exp(arg), d, level.span) if slab else low.exp(arg).index([idx])
                low.env[p] = low.name_value(p, value, level.span)
            for binders, value in level.lets:
                low.bind(binders, low.exp(value), level.span)
        values = value_parts(low.exp(k.body))
        if k_stage is not None:  # the block's share folded: its carried values, not the point's (split_k.py)
            low.emit(kir.If(in_range, k_stage.stores(gtids, sizes, size_expr(low, k_stage.length), low.shared_out,
                                                     k.span)))
            return
        low.emit(kir.If(in_range, output_stores(outputs, flat_index(gtids, sizes, factor), values, k.span)))

    body, _ = low.block(nest)
    rewrites += (REASSOCIATE,) if low.reassociated else ()
    inside = _inside(block, sizes, folded, tiles) if block.interior else None
    if inside is not None:  # the same body without tiler's clamps and guards, for blocks that cannot need them
        body = (kir.If(inside, unclamped(body, in_range), body),)
        rewrites += (UNCLAMP,)
    if not clamped:  # no barriers: threads outside the nest may simply leave
        body = (kir.If(in_range, body),)
    body = tuple(low.out) + body
    trace = ()
    units = schedule.matrix_units if micro is not None and k_stage is None and inside is None else None
    if units is not None and units.used:  # the full chunks' product on the matrix units (transform/matrix_units.py)
        ctypes = {a.name: a.ctype for a in low.shared}
        one_point = body
        body, stage = on_matrix_units(body, units, block_tid(block), ctypes, low.used)
        low.shared.append(stage)
        rewrites += (MATRIX_UNITS,)
    if micro is not None:  # written for one point a thread: for each of the thread's points (transform/)
        ctypes = {p.name: p.ctype for p in params} | {a.name: a.ctype for a in low.shared}
        before = body
        body, trace = register_tile(body, micro, ctypes, low.used)
        rewrites += tuple(name for name, _ in trace[1:])
        if MATRIX_UNITS in rewrites:  # (explain shows the kernel before and after each rewrite)
            trace = ((trace[0][0], one_point), (MATRIX_UNITS, before)) + trace[1:]
    body = staging + body  # (every thread of the block copies, whatever its points)
    if folded and low.shared:  # a block's next tiles of the dim overwrite shared arrays this pass still reads
        body += (kir.Barrier("this pass's shared arrays are read before the next pass writes them"),)
    for d, name in folded.items():  # each block walks its rows of the grid past CUDA's limit, a grid apart
        axis = block.grid_axis[d]
        body = (kir.For(name, tiles.get(d, kir.BlockIdx(axis)), tiles_along(block, sizes, d),
                        const(target.MAX_GRID[axis]), body,
                        note=f"grid {axis} holds at most {target.MAX_GRID[axis]:,} blocks: a block takes every "
                             f"{target.MAX_GRID[axis]:,}th of dim {d}'s"),)
    body = order + body  # (the tiles renumbered before anything reads them)
    divisible = tuple(sorted(low.divisible.items()))
    summary = _summary(schedule, bool(low.tensor_maps), wide) + \
        (("offsets: 64-bit, for arrays of 2^31 elements and more",) if wide else ()) + \
        tma_summary(low)
    suffix = ("_wide" if wide else "") + ("_transposed" if transposed else "")
    grid = _grid(k, block, folded) if k_stage is None else k_stage.grid(_grid(k, block, folded))
    # (the tensor maps first: 64-byte aligned, they lie at the start of the parameters with no gap)
    return kir.Kernel(kernel_name(file, tiled) + suffix, tuple(low.tensor_maps.values()) + tuple(params),
                      tuple(low.shared), body,
                      _block_dims(block), grid, tiled, file, summary, k.span, divisible, wide,
                      tuple(sorted(fixed.items())), tuple(sorted(schedule.bounds.items())), inside is not None,
                      block.min_blocks, rewrites=rewrites, trace=trace, grid_bounds=_grid_bounds(k, block, folded))


def _micro(block) -> Micro | None:
    if block.register is None:
        return None
    sizes = {d: n for d, n in enumerate(block.register.sizes) if n > 1}
    return Micro(sizes, block.register.group, {d: (_tid(block, d), block.extents[d]) for d in sizes})


def _base(block, d: int, folded: dict, tiles: dict):
    """The first point of the block's tile along dim d (`folded`: the dims
    whose blocks a loop walks, by the loop's variable; `tiles`: the tile
    index of the dims whose tiles are renumbered, lower/raster.py)."""
    index = kir.Ref(folded[d]) if d in folded else tiles.get(d, kir.BlockIdx(block.grid_axis[d]))
    return mul(index, const(block.points(d)))


def _folded(k: T.Kernel, block, options, looped: bool = False) -> dict[int, str]:
    """The dims whose blocks a loop walks (analyse.blocks.folded_dims), by
    the loop's variable; `looped`: as though no size were given when
    compiled (the last fallback of a module compiled knowing sizes)."""
    known = _literal if looped else options.known_size
    return {d: f"tiler_block_{axis}" for d, axis in folded_dims(k, block, known).items()}


def _literal(size) -> int | None:
    return size if isinstance(size, int) else None


def _grid_bounds(k: T.Kernel, block, folded: dict) -> tuple:
    """(size name, most): the dims on grid y or z that no loop walks only
    because their sizes were given when compiled. The kernel runs only at
    sizes whose blocks the grid holds (a launch past them runs the module's
    looped fallback: versions_of)."""
    levels = {lv.dim: lv for lv in k.levels}
    out: dict[str, int] = {}
    for d, axis in folded_dims(k, block, _literal).items():
        if d not in folded:
            name, most = size_name(levels[d].size), target.MAX_GRID[axis] * block.points(d)
            out[name] = min(out.get(name, most), most)
    return tuple(sorted(out.items()))


def _local(block, micro: Micro | None, d: int):
    """The thread's point within the block's tile (register-tiled, the point
    register tiling strip-mines: the micro-tile's current point)."""
    return point(d) if micro is not None and d in micro.sizes else _tid(block, d)


def _tid(block, d: int):
    axis = block.thread_axis[d]
    return kir.ThreadIdx(axis) if axis else const(0)


def _inside(block, sizes, folded: dict, tiles: dict):
    """Whether the block's tile lies wholly inside every dim it strip-mines
    (a dim of one point a block always does); None where no dim can overhang."""
    # signed (blockIdx is unsigned, and a size below the tile makes the right side negative), and no
    # overflow near 2^31
    conds = [kir.Bin("<=", kir.Cast("int", _base(block, d, folded, tiles)), kir.Bin("-", size, const(block.points(d))))
             for d, size in enumerate(sizes) if block.points(d) > 1]
    return all_of(conds) if conds else None


def _block_dims(block) -> tuple[int, int, int]:
    dims = [1, 1, 1]
    for axis, d in zip(target.AXES, block.spans):
        dims[target.AXES.index(axis)] = block.extents[d]
    return tuple(dims)


def _grid(k: T.Kernel, block, folded: dict) -> tuple:
    axes = [None, None, None]
    for level in k.levels:
        d, axis = level.dim, block.grid_axis[level.dim]
        limit = (target.MAX_GRID[axis],) if d in folded else ()
        axes[target.AXES.index(axis)] = (size_name(level.size), block.points(d)) + limit
    return tuple(axes)


def _summary(schedule: Schedule, tma: bool = False, wide: bool = False) -> tuple[str, ...]:
    b = schedule.block
    blocks = 1 if wide else b.min_blocks  # (a 64-bit version asks for one: kir.Kernel.min_blocks)
    out = [f"block: {' x '.join(str(b.extents[d]) for d in b.spans)} threads; {b.reason}"]
    if b.register is not None:
        out.append(f"register tile: {b.register_reason}")
    if b.interior:
        out.append("interior blocks: without clamps or store guards (the blocks at the edges keep them)")
    if b.group_rows:
        out.append(f"tile order: groups of {b.group_rows} rows of tiles, each down its columns in turn")
    if blocks:
        cap = min(target.MAX_REGISTERS, target.REGISTER_FILE // (b.threads * blocks) // 8 * 8)
        out.append(f"blocks an SM: at least {blocks} (ptxas may give a thread up to {cap} registers)")
    for s in schedule.streams:
        where = f"{'loop' if s.site.stream.loop else 'streamSeq'} at {s.site.span.line}:{s.site.span.col}"
        if s.tiled:
            staged = ", ".join(_staged_text(p, tma) for p in s.inputs if p.staged)
            out.append(f"{where}: tiled ({stream_kind(s, b)}), chunk {s.chunk}; shared: {staged}")
        else:
            out.append(f"{where}: not tiled: {s.reason}")
    out += [f"row {r.name}: {r.points} x {r.length} in shared memory (pitch {r.pitch}), to coalesce" + _run_text(r)
            for r in schedule.slabs if r.staged]
    out += [f"window of {t.text()}: staged in shared memory with its halo" for t in schedule.halos]
    return tuple(out)


def _run_text(slab) -> str:
    if not slab.run:
        return ""
    return f"; copied as one run, {slab.vector} at a time" + (" by cp.async" if slab.asynchronous else "")


def _staged_text(p, tma: bool = False) -> str:
    """One staged input in the header comment: `rc (16 x 64 row-major +4, cp.async 3 deep)` (`tma`: the
    kernel's copies are TMA's, `3 deep by TMA`)."""
    if not p.copied:
        return f"{p.name} ({p.shares}'s tile)"
    st = p.staging
    tile = " x ".join(map(str, st.shape if p.element > 1 else st.tile))
    padding = f" +{st.padding}" if st.padding else ""
    pipeline = f", {st.buffers} deep by TMA" if tma else f", cp.async {st.buffers} deep" if st.asynchronous else ""
    return f"{p.name} ({tile} {st.layout.value}{padding}{pipeline})"
