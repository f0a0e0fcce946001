"""Stage `lower`: analysis -> kernel IR (`kir.Module`): the planned kernel,
and the untiled one where the launch chooses between them by size.

Every decision comes from the schedule: the block, which dimension each
thread and block index walks, the tiles. Threads outside the map nest
compute with their indices clamped into range, so they take part in every
copy and barrier without reading out of bounds, and only their stores are
skipped.
"""
from __future__ import annotations

import dataclasses

from .. import kir, target
from ..analyse import Analysis, Schedule
from ..analyse.blocks import stream_kind
from ..analyse.registers import GRID_SHARE
from ..analyse.schedule import Math, describe_thresholds, launch_tests, test_text
from ..check import typed as T
from ..check.types import Array
from ..errors import CompilerBug
from ..kir.build import add, const, mul
from ..kir.verify import Fault, check
from ..kir.widen import widened_module
from ..transform.join_rows import join_rows
from ..transform.register_tile import Micro, point, register_tile
from .body import value_parts
from .fission import with_fission
from .params import (
    bind_prelude,
    flat_index,
    kernel_name,
    kernel_params,
    output_stores,
    program_stem,
    size_expr,
    size_name,
    wide_factor,
)
from .reassociate import loop_levels
from .split import lower_several, lower_split
from .streams import Streams
from .values import all_of, any_of, both, joined, minimum, product, unclamped

__all__ = ["lower", "lower_schedule", "kernel_name", "program_stem", "launch_transposed", "reading"]


ONE_POINT = "_one_point"  # the name of the version with the schedule one point a thread (Plan.fewer)
BOUNDED = "_bounded"  # the names of the versions whose tiles hold rows of a bounded length (Schedule.bounds)


def lower(analysis: Analysis, file: str = "<input>") -> kir.Module:
    """The module: the schedule's kernel; where its copies use vectors, the
    same kernel with scalar copies for sizes that do not keep them aligned;
    then (when some size has a threshold) the untiled kernel for launches
    below it. Where the launch transposes inputs, those versions read the
    transposed copies; if only from some row length on, the same versions
    reading the arrays in place follow for shorter rows. Where the plan's
    tiles hold rows of a bounded length, its tiled versions run within the
    bound and the versions of the plan without it (Plan.unbounded) follow."""
    split = analysis.plan.split is not None and analysis.plan.split.active
    return widened_module(with_fission(_split_module(analysis, file) if split else _tiled_module(analysis, file),
                                       analysis, lower, file))


def _tiled_module(analysis: Analysis, file: str) -> kir.Module:
    """The schedule's versions; where its tiles hold rows of a bounded
    length, its tiled versions alone, for launches within the bound, then
    the versions of the plan without the bound for the others."""
    module = _schedule_module(analysis, file)
    if analysis.plan.unbounded is None:
        return module
    past = _schedule_module(dataclasses.replace(analysis, plan=analysis.plan.unbounded), file)
    # renamed: the plan without the bound may have a tiled kernel of its own
    within = [dataclasses.replace(v, kernel=v.kernel.renamed(v.kernel.name + BOUNDED)) for v in module.versions
              if v.kernel.bounds]
    names = {k.name for k in past.kernels}
    if any(v.rival and v.rival not in names for v in within):
        raise CompilerBug(f"a bounded version of {file} is raced against a kernel the unbounded plan does not have")
    # 32-bit offsets first, as in every module: a version with 64-bit ones runs only where no other can
    ordered = [v for v in within if not v.kernel.wide] + [v for v in past.versions if not v.kernel.wide] + \
        [v for v in within if v.kernel.wide] + [v for v in past.versions if v.kernel.wide]
    return dataclasses.replace(past, versions=tuple(ordered))


def _schedule_module(analysis: Analysis, file: str) -> kir.Module:
    plan = analysis.plan
    moves = plan.schedule.transposed
    arrays = launch_transposed(plan.schedule)
    moved = f"the launch transposes {', '.join(sorted(arrays))} first" if moves else ""
    versions = _versions(analysis, file, arrays, moved)
    tests = launch_tests(moves)
    if tests:  # transposed only at some sizes: the same versions reading in place follow for the others
        when = all_of(kir.Bin(op, product(sizes), const(value, target.INDEX if len(sizes) > 1 else "int"))
                    for sizes, op, value in tests)
        versions = [dataclasses.replace(v, condition=when if v.condition is None else kir.Bin("&&", when, v.condition))
                    for v in versions if v.kernel.transposes]  # (the untiled fallback, in place, comes after)
        otherwise = f"unless {' and '.join(map(test_text, tests))}: " \
                    f"{', '.join(sorted(arrays))} read in place"
        versions += _versions(analysis, file, frozenset(), otherwise)
    fits = _fits_int(analysis.kernel)
    notes = (f"math: {target.FAST_MATH_NOTE}",) if plan.schedule.math is Math.FAST else ()
    timed = analysis.options.launch_timing and plan.schedule.tiled
    if timed:
        versions = _rivals(versions, lower_schedule(analysis, plan.untiled, file), None)  # `fits` comes below
    if fits is None:  # every array is 1-D: int offsets reach every element
        return kir.Module(file, tuple(versions), notes)
    # the same kernels with 64-bit offsets, for launches where some array has 2^31 elements or more
    versions = [dataclasses.replace(v, condition=fits if v.condition is None else kir.Bin("&&", fits, v.condition))
                for v in versions]
    big = "64-bit offsets: an array has 2^31 elements or more"
    wide = _wide_versions(analysis, file, big)
    main = wide[-1].kernel
    if plan.thresholds or main.fixed or main.bounds:
        wide.append(kir.Version(lower_schedule(analysis, plan.untiled, file, wide=True), None,
                                big + (", below the thresholds" if plan.thresholds else ", other sizes")))
    if timed:
        wide = _rivals(wide, lower_schedule(analysis, plan.untiled, file, wide=True), None, big + ", ")
    return kir.Module(file, tuple(versions + wide), notes)


def _vectors_verified(vector: kir.Kernel) -> bool:
    """Whether the kernel with vector copies verifies: False where the
    verifier cannot prove its vector accesses aligned (the launch then runs
    the scalar kernel alone); any other problem raises a CompilerBug naming
    the kernel, never a slower kernel."""
    return check(vector, frozenset({Fault.UNALIGNED}))


def _wide_versions(analysis: Analysis, file: str, why: str) -> list[kir.Version]:
    """The schedule's kernel with 64-bit offsets: with 128-bit copies where
    the 32-bit kernel has them (for sizes that keep the rows they read
    aligned), then with scalar copies."""
    plan = analysis.plan
    vector = lower_schedule(analysis, plan.schedule, file, wide=True)
    scalar = lower_schedule(analysis, plan.schedule, file, vectors=False, wide=True)
    condition = _launch_condition(plan, scalar)
    if not vector.divisible or not _vectors_verified(vector):  # no vector copies, or unaligned: scalar alone
        return [kir.Version(scalar, condition, why)]
    return [kir.Version(vector, both(condition, _aligned(vector)), joined(why, ALIGNED)),
            kir.Version(dataclasses.replace(scalar, name=scalar.name + "_scalar"), condition,
                        joined(why, "scalar copies for the other sizes"))]


def _split_module(analysis: Analysis, file: str) -> kir.Module:
    """The rows run by a warp or a block, the lanes a row chosen at launch
    by the rows' count and length (Split.choices), each version timed
    against the untiled kernel at a first launch. Where the split is gated
    (rows shorter than it pays for, or more outer rows than the grid holds),
    the tiled kernel's versions follow."""
    split = analysis.plan.split
    k = analysis.kernel
    regular = _tiled_module(analysis, file) if split.gated else None
    rows = product(tuple(size_name(lv.size) for lv in k.levels[:split.rows]), wide=True)
    tests = {"rows": rows, "length": const(split.length) if isinstance(split.length, int) else
             kir.Ref(split.length) if split.length is not None else None}
    gate = all_of(_test(t, tests) for t in split.gate) if split.gate else None
    others = "other sizes" if split.limits else "shorter rows"
    fits = _fits_int(k)

    def versions(wide: bool, note: str) -> list[kir.Version]:
        out = []
        for choice in split.choices:
            when = any_of(all_of(_test(t, tests) for t in alts) for alts in choice.when) if choice.when else None
            when = both(fits if not wide else None, both(gate, when))
            why = f"{choice.who} a row" + (f"; {others} run the versions that follow" if gate else "")
            lowering = lower_several if choice.several else lower_split
            out.append(kir.Version(lowering(analysis, split, choice.lanes, file, wide), when, joined(note, why)))
        if regular is not None:
            out += [v for v in regular.versions if v.kernel.wide == wide]
        if analysis.options.launch_timing:  # every version raced against the untiled kernel reading in place
            out = _rivals(out, lower_schedule(analysis, analysis.plan.untiled, file, wide=wide),
                          None if wide else fits, note and note + ", ")
        return out
    notes = (f"math: {target.FAST_MATH_NOTE}",) if analysis.plan.schedule.math is Math.FAST else ()
    versions_ = versions(False, "")
    if fits is not None:
        versions_ += versions(True, "64-bit offsets: an array has 2^31 elements or more")
    return kir.Module(file, tuple(versions_), notes)


def _test(t, tests: dict):
    """A reductions.Test as a launch condition over size names (and the GPU's SM count)."""
    value = const(t.value, target.INDEX)
    if t.per_sm:
        value = kir.Bin("*", kir.Cast(target.INDEX, kir.Ref(target.MULTIPROCESSORS_NAME)), value)
    return kir.Bin(t.op, tests.get(t.what) or kir.Ref(t.what), value)


def _rivals(versions: list[kir.Version], untiled: kir.Kernel, fits, note: str = "") -> list[kir.Version]:
    """The versions with every tiled one timed against `untiled` at a first
    launch (the cost model cannot tell every loser from the winners: launch
    timing makes sure tiling never slows a program down); `untiled` is added
    as the last version where it is not one already (the conditions reach it
    only where no other holds; the timing reaches it where it is faster)."""
    out = [dataclasses.replace(v, rival=untiled.name) if v.kernel.tiled else v for v in versions]
    if not any(v.kernel.name == untiled.name for v in out):
        out.append(kir.Version(untiled, None if fits is None else fits,
                               note + "the untiled kernel, where it ran faster than the tiled version at a first launch"))
    return out


def launch_transposed(schedule: Schedule) -> frozenset:
    """The arrays the schedule's first versions read from the launch's transposed copies."""
    return frozenset(t.array for t in schedule.transposed)


def reading(schedule: Schedule, transposed: frozenset) -> Schedule:
    """The schedule whose kernel reads the `transposed` arrays from the launch's copies (its own block for them)."""
    if transposed and schedule.transposed_block is not None:
        return dataclasses.replace(schedule, block=schedule.transposed_block)
    return schedule


def _versions(analysis: Analysis, file: str, transposed: frozenset, note: str = "") -> list[kir.Version]:
    """The versions with int offsets, reading the `transposed` inputs from the
    launch's transposed copies; `note` adds to why each of the schedule's runs."""
    plan = analysis.plan
    schedule = reading(plan.schedule, transposed)
    main = lower_schedule(analysis, schedule, file, transposed=transposed)
    condition = _launch_condition(plan, main)
    why = joined(describe_thresholds(plan.thresholds) if plan.thresholds else "",
                  describe_fixed(main.fixed) if main.fixed else "", describe_bounds(main.bounds) if main.bounds else "")
    fallback = bool(plan.thresholds or main.fixed or main.bounds)  # sizes where the launch runs the untiled kernel
    fewer, share = None, 0
    if plan.fewer is not None:  # the micro-tile only where its grid gives enough SMs a block (registers.fills)
        fewer = lower_schedule(analysis, plan.fewer, file, vectors=False, transposed=transposed)
        fewer = dataclasses.replace(fewer, name=fewer.name + ONE_POINT)
        share = GRID_SHARE[len(schedule.block.spans)]
        blocks = _blocks(main) if share == 1 else kir.Bin("*", _blocks(main), const(share, target.INDEX))
        fills = kir.Bin(">=", blocks, kir.Ref(target.MULTIPROCESSORS_NAME))
        condition = fills if condition is None else kir.Bin("&&", condition, fills)
        why = joined(f"{schedule.block.register.points} points a thread", why)
    versions = []
    if main.divisible:
        scalar = lower_schedule(analysis, schedule, file, vectors=False, transposed=transposed)
        scalar = dataclasses.replace(scalar, name=scalar.name + "_scalar")
        if _vectors_verified(main):  # else the scalar kernel alone
            versions.append(kir.Version(main, both(condition, _aligned(main)), joined(ALIGNED, note), share))
            single = ", in one buffer where two would spill registers" \
                if scalar.shared_bytes < main.shared_bytes else ""
            why = f"scalar copies for the other sizes{single}" + (f"; {why}" if fallback else "")
        main = scalar
    versions.append(kir.Version(main, condition, joined(why, note) or "the only version", share))
    if fewer is not None:
        versions.append(kir.Version(fewer, _launch_condition(plan, fewer), joined(
            "one point a thread: the micro-tile's grid would leave SMs without a block",
            describe_thresholds(plan.thresholds) if plan.thresholds else "", note)))
    if fallback:
        versions.append(kir.Version(lower_schedule(analysis, plan.untiled, file), None, "the untiled fallback"))
    return versions


ALIGNED = "128-bit copies: the rows they read start 16-byte aligned"  # why a vector version runs where it does


def _aligned(k: kir.Kernel):
    """The launch condition under which a kernel's vector copies stay aligned (`Kernel.divisible`)."""
    return all_of(kir.Bin("==", kir.Bin("%", kir.Ref(n), const(w)), const(0)) for n, w in k.divisible)


def _launch_condition(plan, main: kir.Kernel):
    """In size names, as the grid is: the launch evaluates it with the sizes it binds."""
    if not (plan.thresholds or main.fixed or main.bounds):
        return None
    return all_of([kir.Bin(">=", kir.Ref(t.size), const(t.value)) for t in plan.thresholds]
                + [kir.Bin("==", kir.Ref(n), const(v)) for n, v in main.fixed]
                + [kir.Bin("<=", kir.Ref(n), const(v)) for n, v in main.bounds])


def _blocks(k: kir.Kernel):
    """The blocks of the kernel's grid, as a launch condition computes them (64-bit)."""
    out = None
    for axis in k.grid:
        if axis is None:
            continue
        size, threads = axis[:2]  # every block the dim has, the ones a folded axis loops over included
        term = const(-(-size // threads)) if isinstance(size, int) else kir.Ref(size) if threads == 1 else \
            kir.Bin("/", kir.Bin("+", kir.Ref(size), const(threads - 1)), const(threads))
        out = kir.Cast(target.INDEX, term) if out is None else kir.Bin("*", out, term)
    return out if out is not None else const(1)


def _fits_int(k: T.Kernel):
    """The launch condition under which every array of two or more dimensions
    (parameters and outputs) has fewer than 2^31 elements; None when there is none."""
    shapes = [p.type.shape for p in k.params if isinstance(p.type, Array) and len(p.type.shape) > 1]
    if len(k.levels) > 1:
        shapes.append(tuple(lv.size for lv in k.levels))
    conds = [kir.Bin("<=", product(shape, wide=True), const(target.INT_MAX, target.INDEX))
             for shape in dict.fromkeys(tuple(size_name(s) for s in sh) for sh in shapes)]
    return all_of(conds) if conds else None


def lower_schedule(analysis: Analysis, schedule: Schedule, file: str, vectors: bool = True,
                   wide: bool = False, transposed: frozenset = frozenset(), observe=None) -> kir.Kernel:
    """One kernel; `wide`: its flat offsets into arrays of two or more
    dimensions are 64-bit (else int, for launches where every array is smaller
    than 2^31 elements); `transposed`: main's arrays it reads from the
    launch's transposed copies. The sizes the schedule fixes (`Schedule.fixed`) are
    constants in it: loops over a row then have a constant count that nvcc
    can unroll, and a row's loads, known to be the same, load once.
    `observe(step, body)`: sees the body before and after each register
    tiling rewrite (transform/register_tile.py)."""
    # the loops the schedule joins, one stream each (the fast-math levels are the program's as written)
    k, schedule, rewrites = join_rows(analysis.kernel, schedule)
    block, tiled = schedule.block, schedule.tiled
    low = Streams(schedule, {}, vectors, loop_levels(analysis.kernel) if schedule.math is Math.FAST else None, wide)
    factor = wide_factor if wide else (lambda extent: extent)
    fixed = schedule.fixed
    params = kernel_params(low, k, factor, fixed, transposed)
    micro = _micro(block)
    folded = _folded(k, block, analysis.options)
    bind_prelude(low, k)
    sizes, gtids = [], []
    for level in k.levels:
        d = level.dim
        size = size_expr(low, level.size)
        gtid = low.declare(f"gtid{d}", "int", add(_base(block, d, folded), _local(block, micro, d)), level.span)
        sizes.append(size)
        gtids.append(gtid)
    in_range = all_of(kir.Bin("<", g, s) for g, s in zip(gtids, sizes))
    staged_rows = {r.name: r for r in schedule.slabs if r.staged}
    outputs = [p for p in params if p.role == "output"]

    def nest():
        for level, gtid, size in zip(k.levels, gtids, sizes):
            d = level.dim
            idx = low.declare(f"i{d}", "int", minimum(gtid, kir.Bin("-", size, const(1)))) if tiled else gtid
            low.indices[d] = {"idx": idx, "base": _base(block, d, folded), "size": size,
                              "local": _local(block, micro, d)}
            for p, arg in zip(level.params, level.args):
                slab = staged_rows.get(p.name)
                value = low.stage_row(slab, low.exp(arg), d, level.span) if slab else low.exp(arg).index([idx])
                low.env[p] = low.name_value(p, value, level.span)
            for binders, value in level.lets:
                low.bind(binders, low.exp(value), level.span)
        values = value_parts(low.exp(k.body))
        low.emit(kir.If(in_range, output_stores(outputs, flat_index(gtids, sizes, factor), values, k.span)))

    body, _ = low.block(nest)
    inside = _inside(block, sizes, folded) if block.interior else None
    if inside is not None:  # the same body without tiler's clamps and guards, for blocks that cannot need them
        body = (kir.If(inside, unclamped(body, in_range), body),)
    if not tiled:  # no barriers: threads outside the nest may simply leave
        body = (kir.If(in_range, body),)
    body = tuple(low.out) + body
    if micro is not None:  # written for one point a thread: for each of the thread's points (transform/)
        ctypes = {p.name: p.ctype for p in params} | {a.name: a.ctype for a in low.shared}
        body, tiling = register_tile(body, micro, ctypes, low.used, observe)
        rewrites += tiling
    if folded and low.shared:  # a block's next tiles of the dim overwrite shared arrays this pass still reads
        body += (kir.Barrier("this pass's shared arrays are read before the next pass writes them"),)
    for d, name in folded.items():  # each block walks its rows of the grid past CUDA's limit, a grid apart
        axis, points = block.grid_axis[d], block.points(d)
        blocks = sizes[d] if points == 1 else kir.Bin("/", add(sizes[d], const(points - 1)), const(points))
        body = (kir.For(name, kir.BlockIdx(axis), blocks, const(target.MAX_GRID[axis]), body,
                        note=f"grid {axis} holds at most {target.MAX_GRID[axis]:,} blocks: a block takes every "
                             f"{target.MAX_GRID[axis]:,}th of dim {d}'s"),)
    divisible = tuple(sorted(low.divisible.items()))
    summary = _summary(schedule) + (("offsets: 64-bit, for arrays of 2^31 elements and more",) if wide else ())
    suffix = ("_wide" if wide else "") + ("_transposed" if transposed else "")
    return kir.Kernel(kernel_name(file, tiled) + suffix, tuple(params), tuple(low.shared), body,
                      _block_dims(block), _grid(k, block, folded), tiled, file, summary, k.span, divisible, wide,
                      tuple(sorted(fixed.items())), tuple(sorted(schedule.bounds.items())), inside is not None,
                      block.min_blocks, rewrites=rewrites)


def describe_bounds(bounds) -> str:
    """Why a tiled kernel runs only up to a size known at launch."""
    sizes = " and ".join(f"{n} <= {v}" for n, v in bounds)
    return (f"its shared tiles hold rows of at most {' and '.join(str(v) for _, v in bounds)} elements: it runs "
            f"where {sizes}, the versions that follow elsewhere")


def describe_fixed(fixed) -> str:
    """Why a tiled kernel runs at one value of a size alone."""
    sizes = " and ".join(f"{n} = {v}" for n, v in fixed)
    return f"its shared tiles hold rows of {sizes} elements (the size given when it was compiled)"














def _micro(block) -> Micro | None:
    if block.register is None:
        return None
    sizes = {d: n for d, n in enumerate(block.register.sizes) if n > 1}
    return Micro(sizes, block.register.group, {d: (_tid(block, d), block.extents[d]) for d in sizes})


def _base(block, d: int, folded: dict):
    """The first point of the block's tile along dim d (`folded`: the dims
    whose blocks a loop walks, by the loop's variable)."""
    index = kir.Ref(folded[d]) if d in folded else kir.BlockIdx(block.grid_axis[d])
    return mul(index, const(block.points(d)))


def _folded(k: T.Kernel, block, options) -> dict[int, str]:
    """The dims on grid y or z that may need more blocks than CUDA's 65,535
    there (a size known only at launch, or a larger one): their grid axis
    holds at most that many blocks, and each block loops over the tiles of
    that dim a grid apart (the loop's variable, by dim). A block's trips are
    the same for all its threads, so barriers inside stay uniform."""
    out = {}
    for level in k.levels:
        d, axis = level.dim, block.grid_axis[level.dim]
        if axis == "x":
            continue
        known = options.known_size(level.size)
        if known is None or -(-known // block.points(d)) > target.MAX_GRID[axis]:
            out[d] = f"tiler_block_{axis}"
    return out


def _local(block, micro: Micro | None, d: int):
    """The thread's point within the block's tile (register-tiled, the point
    register tiling strip-mines: the micro-tile's current point)."""
    return point(d) if micro is not None and d in micro.sizes else _tid(block, d)


def _tid(block, d: int):
    axis = block.thread_axis[d]
    return kir.ThreadIdx(axis) if axis else const(0)


def _inside(block, sizes, folded: dict):
    """Whether the block's tile lies wholly inside every dim it strip-mines
    (a dim of one point a block always does); None where no dim can overhang."""
    # signed (blockIdx is unsigned, and a size below the tile makes the right side negative), and no
    # overflow near 2^31
    conds = [kir.Bin("<=", kir.Cast("int", _base(block, d, folded)), kir.Bin("-", size, const(block.points(d))))
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


def _summary(schedule: Schedule) -> tuple[str, ...]:
    b = schedule.block
    out = [f"block: {' x '.join(str(b.extents[d]) for d in b.spans)} threads; {b.reason}"]
    if b.register is not None:
        out.append(f"register tile: {b.register_reason}")
    if b.interior:
        out.append("interior blocks: without clamps or store guards (the blocks at the edges keep them)")
    if b.min_blocks:
        cap = min(target.MAX_REGISTERS, target.REGISTER_FILE // (b.threads * b.min_blocks) // 8 * 8)
        out.append(f"blocks an SM: at least {b.min_blocks} (ptxas may give a thread up to {cap} registers)")
    for s in schedule.streams:
        where = f"{'loop' if s.site.stream.loop else 'streamSeq'} at {s.site.span.line}:{s.site.span.col}"
        if s.tiled:
            staged = ", ".join(_staged_text(p) for p in s.inputs if p.staged)
            out.append(f"{where}: tiled ({stream_kind(s, b)}), chunk {s.chunk}; shared: {staged}")
        else:
            out.append(f"{where}: not tiled: {s.reason}")
    out += [f"row {r.name}: {r.points} x {r.length} in shared memory (pitch {r.pitch}), to coalesce" + _run_text(r)
            for r in schedule.slabs if r.staged]
    return tuple(out)


def _run_text(slab) -> str:
    if not slab.run:
        return ""
    return f"; copied as one run, {slab.vector} at a time" + (" by cp.async" if slab.asynchronous else "")


def _staged_text(p) -> str:
    """One staged input in the header comment: `rc (16 x 64 row-major +4, cp.async 3 deep)`."""
    if not p.copied:
        return f"{p.name} ({p.shares}'s tile)"
    st = p.staging
    tile = " x ".join(map(str, st.shape if p.element > 1 else st.tile))
    padding = f" +{st.padding}" if st.padding else ""
    pipeline = f", cp.async {st.buffers} deep" if st.asynchronous else ""
    return f"{p.name} ({tile} {st.layout.value}{padding}{pipeline})"
