"""A register-tiled f32 product on the CUDA cores whose tiles TMA copies.

Each chunk, a register tile's threads copied their block's tiles by cp.async:
for an 8 x 8 product of 256 threads, ten copy instructions a thread (A's tile
is transposed on the way, four bytes a copy), their addresses, and their
stores through the same load/store pipe the products' shared reads use. With
the tiles copied by TMA (lower/tma_pipeline.py: one thread issues a box a
tile, every thread waits on the buffer's mbarrier) the threads do nothing
but read and multiply. Measured on an H200 (benchmarks/RESULTS.md, the
forty-first session): hand-written, the kernel ran 1.06x cuBLAS SGEMM at
4096^3 against 0.95x with the same tiles copied 16 bytes a copy by cp.async;
generated, mm at 4096^3 runs 2.764 ms against cuBLAS's 2.762 (2.92 with
--no-tma), A's transposition included.

TMA copies boxes of an array as it lies in memory, and the product's tiles
run along the chunk a line each (one line holds the tile's rows, so that a
thread's points are one vector read). B's tile in `A B` is such a box of B;
A's is not (A's rows run along the chunk). The launch then transposes A into
scratch memory (operand_transposes.py does so for the matrix units) and the
kernel reads that copy, where the product reads each of A's elements for
enough blocks across the other operand for the copy to pay (MIN_REUSE, a
launch test where the extent is known only then).
"""
from __future__ import annotations

from dataclasses import replace

from .. import tma
from ..check import typed as T
from ..check.types import element_bytes
from .context import Context
from .operand_transposes import launch_root
from .registers import grid_blocks
from .schedule import Layout, Schedule, TmaCopies, Transposition
from .tma_boxes import box_refusal, core_tile
from .views import Views
from .zero_tail import zero_tail

# the output's extent across a transposed operand's tile (the blocks that read each of its elements, times
# the tile) from which the launch's copy pays: as operand_transposes.MIN_ROWS, measured alike (H200: 2048^3
# 0.340 ms with TMA against 0.391 for cuBLAS, the transposition 0.05 ms; at 1024^3 the copy costs a third of it)
MIN_REUSE = 2048
BOX_MAX = 256  # a TMA box's extent along each axis (cuTensorMapEncodeTiled)

USED = ("the tiles are copied by TMA: one thread issues a box a tile a chunk and every thread waits on the "
        "buffer's mbarrier, so the threads spend no instructions on copies (mm at 4096^3: 1.00x cuBLAS SGEMM, "
        "0.92x-0.94x with cp.async's copies)")


def with_core_tma(best: Schedule, kernel: T.Kernel, views: Views, ctx: Context, replan) -> Schedule:
    """`best` with its product's tiles copied by TMA where they are boxes of
    arrays as they lie, or would be of the launch's transposed copies of
    some (then planned again reading those: `replan(views, ctx)`), and why
    or why not; `best` itself where the question does not arise."""
    if not _asks(best, ctx):
        return best
    why = refusal(best, views, ctx)
    if not why:
        if ctx.constraints.core_tma or ctx.options.chunk is not None:
            return replace(best, tma=_used(best, ctx))
        longer = replan(views, ctx.constrained(core_tma=True))  # (chunks of TMA_CHUNK: staging.py)
        if longer.copies_by_tma and longer.block.spans == best.block.spans:
            return longer
        return replace(best, tma=_used(best, ctx))
    roots, refused = _transposable(best, kernel, views, ctx)
    if roots:
        k_major = views
        for root, _ in roots:
            k_major = k_major.transposing(root)
        retried = replan(k_major, ctx)
        if retried.copies_by_tma and retried.block.spans == best.block.spans:
            return _recorded(retried, roots, kernel)
    return replace(best, tma=TmaCopies(False, why + refused))


def _used(best: Schedule, ctx: Context) -> TmaCopies:
    """TMA copies used, with whether the tiled stream's last chunk runs whole (zero_tail.py)."""
    (stream,) = (s for s in best.streams if s.tiled)  # (refusal: one tiled stream)
    tail = zero_tail(stream.site.stream, all(p.copied for p in stream.inputs), ctx.options.fast_math)
    return TmaCopies(True, USED, tail.whole, tail.reason)


def _asks(best: Schedule, ctx: Context) -> bool:
    """A 2-D register tile's product of f32 tiles on the CUDA cores, on a GPU with TMA, TMA allowed."""
    units = best.matrix_units
    if units is None or units.used or ctx.options.no_tma or not tma.available(ctx.device.arch):
        return False
    copied = [p for s in best.streams if s.tiled for p in s.inputs if p.copied]
    return bool(copied) and all(p.array.type.elem.kind == "f32" for p in copied)


def refusal(schedule: Schedule, views: Views, ctx: Context) -> str:
    """Why lowering would not copy the schedule's tiles by TMA ("": it would)."""
    tiled = [s for s in schedule.streams if s.tiled]
    if len(tiled) != 1:
        return "more than one stream is tiled (one pipeline of mbarriers a kernel)"
    for p in (p for p in tiled[0].inputs if p.copied):
        st = p.staging
        if not core_tile(st) or max(st.tile) > BOX_MAX:
            return f"{p.name}'s tile is not one unpadded tile of scalars copied asynchronously"
        if st.elements * element_bytes(p.array.type) % tma.BOX_ALIGN:  # (each of the ring's tiles lands on one)
            return f"{p.name}'s tile is not a whole number of {tma.BOX_ALIGN}-byte lines"
        why = box_refusal(p, views, ctx)
        if why:
            return why
    return ""


def _transposable(best: Schedule, kernel: T.Kernel, views: Views, ctx: Context) -> tuple[tuple, str]:
    """(array, launch tests) for each array whose tile would be a box of its
    transposed copy (a copied input's array read along the chunk across its
    lines), where the launch may transpose them and the copies pay; else ()
    and why not. A test: the output's extent across the tile at least
    MIN_REUSE, where that size is known only at launch."""
    if ctx.constraints.units_in_place or ctx.options.transpose is False or views.swapped:
        return (), ""
    points = {d: best.block.points(d) for d in best.block.spans}
    blocks = grid_blocks(kernel, points, ctx)
    if blocks is not None and blocks < ctx.device.multiprocessors:
        return (), "; the grid has fewer blocks than SMs, too few for a transposed copy to pay"
    roots = []
    for p in (p for s in best.streams if s.tiled for p in s.inputs if p.copied):
        if len(p.staging.rows) != 1:
            return (), ""
        (d,) = p.staging.rows
        found = views.items(p.array)
        if found and found[1] == (("dim", d), ("free", 0)) and p.staging.layout is Layout.TRANSPOSED:
            root = launch_root(p, kernel, views)
            if root is None:
                return (), f"; the launch cannot transpose {found[0].name} (read otherwise in the prelude)"
            across = [kernel.levels[x].size for x in best.block.spans if x != d]
            known = [ctx.known_size(s) for s in across]
            if any(k is not None and k < MIN_REUSE for k in known):
                return (), (f"; {root.name}'s transposed copy would be read by too few blocks to pay (the output's "
                            f"extent across its tile under {MIN_REUSE})")
            roots.append((root, tuple(((s.name,), ">=", MIN_REUSE) for s in across if not isinstance(s, int))))
    # (one copy serves both tiles that read one array: A Aᵀ; its tests are both tiles')
    merged = {}
    for root, tests in roots:
        merged[root] = tuple(dict.fromkeys(merged.get(root, ()) + tests))
    return tuple(merged.items()), ""


def _recorded(schedule: Schedule, roots: tuple, kernel: T.Kernel) -> Schedule:
    """The schedule with each operand's transposition recorded, with the launch tests its copy pays under."""
    why = ("TMA copies boxes of an array as it lies, and {name}'s tile runs along the product's reduction, across "
           "{name}'s rows: the launch transposes {name} (two axes) into scratch memory first and the kernel reads "
           "that copy, its tile then a box of it (the output's extent across the tile at least "
           f"{MIN_REUSE}: the copy, once a launch, costs less than the copies TMA saves)")
    records = tuple(Transposition(r.name, _name(r.type.shape[0]), _name(r.type.shape[1]),
                                  tuple(_name(lv.size) for lv in kernel.levels), True, None, None,
                                  why.format(name=r.name), units=True, units_tests=tests) for r, tests in roots)
    return replace(schedule, transposes=schedule.transposes + records)


def _name(size) -> str | int:
    return size if isinstance(size, int) else size.name
