"""The matrix units (tensor cores): whether a register-tiled product runs on
them, and why or why not. Products of 16-bit inputs summed in f32 always
may, and f64 products on sm_90 whose sum starts at zero (their rounding is
the loop's, target.MATRIX_EXACT); f32 (as TF32) and other f64 products only
under `--tensor-cores`.

Nothing here looks for a program's name. A block's stream is a product when
its loop over a chunk does one thing: `acc + x * y` (in either order), with
`x` and `y` the elements at the loop's index of two staged chunks, one
invariant to each of the block's two dims (a row of A, a column of B), each
read as it is or converted to the accumulator's type (`f32(ac[j])`). Every
point's sum over the chunk is then one entry of the block's product tile,
which its warps can compute with warp-wide matrix instructions from the
same shared tiles the plan stages (transform/matrix_units.py rewrites the
kernel). The accumulator starts where the program says; the units' share
of the sum is added to it once, after the stream, the last partial chunk's
too where its tiles are zero past the stream's end (else that chunk stays
on the plain register-tiled path), so sizes that no tile divides need
nothing new.

The units round and order differently: f32 inputs are rounded to TF32
(10-bit mantissas) and 16-bit products are summed in the units' own order,
so a kernel using them is checked within a tolerance (workload/checks.py),
as `--fast-math` is. The reference interpreter stays exact.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace

from .. import target
from ..check import typed as T
from ..check.types import Scalar
from ..kir import MatrixShape
from ..tree import descendants
from .context import Context
from .copying import ASYNC_STAGES
from .schedule import Layout, Schedule

MATRIX_TOLERANCE = 1e-2  # relative to each output's scale: TF32's 10-bit inputs over long sums


@dataclass(frozen=True)
class MatrixUnits:
    """The decision for a schedule's register-tiled product: `used`, and
    `reason` in words (why, or why not); where the product qualifies, its
    instruction (kir.MatrixShape), the dims its rows and columns run along
    (`dims`: A's rows, B's columns) and the chunk inputs that are A and B."""

    used: bool
    reason: str
    shape: object = None  # kir.MatrixShape
    dims: tuple = ()  # (the dim of A's rows, the dim of B's columns)
    inputs: tuple = ()  # (A's chunk parameter, B's)
    chunk: int = 0  # the stream's chunk: a tile's positions, which the last, partial chunk zero-fills past its end
    # the staging tile the warps' sums go through: (rows, elements a row), the block's product tile with its
    # rows padded by 16 bytes so that they start on other banks (transform/matrix_units.py lays it out so)
    stage: tuple = ()
    # where the tiles are swizzled for the warp groups' instructions: A's tile's lines and B's (Staging.shape; 0:
    # the plain tile read into registers)
    lines: tuple = ()
    tma: bool = False  # the tiles may be copied by TMA (tiler/tma.py; decide says where)
    exact: bool = False  # its outputs are the kernel as written's (target.MATRIX_EXACT), so no tolerance is due

    @property
    def stage_bytes(self) -> int:
        return self.stage[0] * self.stage[1] * target.SIZEOF[self.shape.accumulator] if self.stage else 0

    @property
    def precision(self) -> str:
        return target.MATRIX_PRECISION[self.shape.inputs] if self.shape is not None else ""


def with_matrix_units(schedule: Schedule, kernel: T.Kernel, ctx: Context) -> Schedule:
    """The schedule with its decision recorded: for a 2-D register tile, the
    only kind the units compute, and, under --tensor-cores, for any other
    schedule too (why not); else None."""
    block = schedule.block
    if block.register is None or len(block.spans) != 2 or not any(s.tiled for s in schedule.streams):
        if not ctx.options.tensor_cores:
            return schedule
        return replace(schedule, matrix_units=MatrixUnits(False, NO_REGISTER_TILE))
    units = decide(schedule, kernel, ctx)
    stage = units.stage_bytes if units.used else 0
    # a warp group's kernel finds its tiles' 1,024-byte boundary at run time, in as many more bytes
    slack = target.alignment_slack(target.WGMMA_ALIGN) if units.used and units.shape.warp_group else 0
    limit = ctx.shared_limit(pipelined=True)  # (the units' kernel takes its shared memory dynamically)
    if max(stage, block.shared_bytes) + slack > limit:
        units = replace(units, used=False, reason=f"the staging tile the warps' sums go through and the tiles take "
                                                   f"{max(stage, block.shared_bytes) + slack} bytes of shared memory, "
                                                   f"over the {limit} a block may use")
    if units.used:  # the staging tile the warps' sums go through takes the bytes of the chunks' tiles
        block = replace(block, shared_bytes=max(block.shared_bytes, stage) + slack, register=_spread(block.register))
        if units.shape.inputs in target.MATRIX_TWO_BLOCKS and _pipelined_as_measured(schedule, ctx):
            block = _two_blocks(block, ctx)
        elif units.shape.inputs in target.MATRIX_ONE_BLOCK and block.min_blocks is None and \
                ctx.options.min_blocks is None:
            block = replace(block, min_blocks=1, min_blocks_reason=(
                "one block an SM asked, so that ptxas may take the registers it wants: the product runs on the "
                "matrix units in f64, whose fragments take two registers an element, and in chunks of 16 with the "
                "sizes known its own choice spilled (in chunks of 8 the kernel keeps few enough for two blocks)"))
    return replace(schedule, block=block, matrix_units=units)


def _spread(tile):
    """The register tile with each thread's points a block's width apart: on
    the units its points are read only from the staging tile and stored to
    the output, and points of consecutive threads side by side make each of
    a warp's stores whole sectors (in groups of 8 consecutive points, as
    16-byte reads of 16-bit tiles want, a store's 16 threads of a row wrote
    4 bytes of each of 16 sectors). mm_bf16 at 4096^3 on an H200 on wgmma:
    0.321 ms in groups, 0.242 spread; on mma.sync, mm in TF32 0.940 and
    0.946, mm_f64 3.371 and 3.391 (the same within the call's noise)."""
    return replace(tile, group=1)


def _pipelined_as_measured(schedule: Schedule, ctx: Context) -> bool:
    """Whether the tiles are copied as in the kernel two blocks an SM were
    measured with: by cp.async in ASYNC_STAGES buffers, in the units' own
    chunks. Under 128 registers, the others spilled: a stream of two chunks
    (its tiles double-buffered through registers, 1,092 bytes of spill
    stores), `--double-buffer` (268), `--chunk 32` (192)."""
    staged = [p.staging for s in schedule.streams if s.tiled for p in s.inputs if p.copied]
    return ctx.chunk is None and bool(staged) and \
        all(st.asynchronous and st.buffers == ASYNC_STAGES for st in staged)


def _two_blocks(block, ctx: Context):
    """Two blocks an SM where their shared memory fits (and --min-blocks
    does not say otherwise): on the units a warp's arithmetic is short and
    its loads wait, and another block's warps fill the wait (mm_bf16 at
    4096^3 on an H200: see target.MATRIX_CHUNKS); without the bound ptxas
    took 150 registers, too many for two blocks of 256 threads. Only for
    16-bit inputs (target.MATRIX_TWO_BLOCKS): TF32's kernel spilled under
    the bound."""
    blocks = target.MATRIX_BLOCKS
    if ctx.options.min_blocks is not None or ctx.device.register_file // (block.threads * blocks) < \
            target.MATRIX_REGISTERS or blocks * (block.shared_bytes + target.SHARED_RESERVED) > \
            ctx.device.shared_optin + target.SHARED_RESERVED:
        return block
    return replace(block, min_blocks=target.MATRIX_BLOCKS, min_blocks_reason=(
        f"{target.MATRIX_BLOCKS} blocks an SM: the product runs on the matrix units, whose warps wait on their "
        "shared loads; another block's warps fill the wait"))


def _stage(shape: MatrixShape, block, dims: tuple) -> tuple[int, int]:
    """The staging tile's rows and elements a row (MatrixUnits.stage)."""
    return block.points(dims[0]), block.points(dims[1]) + target.MATRIX_LD_BYTES // target.SIZEOF[shape.accumulator]


NO_REGISTER_TILE = ("no 2-D register tile (the matrix units compute a block's product tile from a staged row tile and "
                    "column tile)")


def decide(schedule: Schedule, kernel: T.Kernel, ctx: Context) -> MatrixUnits:
    product = _product(schedule)
    if not isinstance(product, str) and _held_by(schedule.streams[0].site.stream, kernel, T.Loop):
        # (the units' share is added to the accumulator once, after the stream: a loop around it would need
        # it added after each of its runs)
        product = "the stream runs inside a loop"
    if not isinstance(product, str) and _held_by(schedule.streams[0].site.stream, kernel, T.If):
        # (and once, at the body's top level: under a branch the stream's accumulator is the branch's own)
        product = "the stream runs under a condition (if)"
    if not isinstance(product, str) and schedule.streams[0].join is not None and schedule.streams[0].join.joined:
        product = "the stream's rows are joined end to end (its tiles' positions are not the loop's index)"
    if isinstance(product, str):
        return MatrixUnits(False, f"not a product of two staged elements: {product}")
    a, b, dims, kinds = product
    single = [d for d in dims if schedule.block.register.sizes[d] == 1]
    if single:  # (the rewrite finds each factor's tile by the index of the thread's points along its dim)
        return MatrixUnits(False, f"the register tile has one point a thread along dimension {single[0]}: the "
                                  "matrix units take a tile of several along both")
    swizzled = _swizzled(schedule)
    staged = {p.name: p.staging for p in schedule.streams[0].inputs}
    # the warp groups' A from registers where B's tile is the plain one: the instruction's rows are then the
    # tile's columns (kir.MatrixShape.transposed), its operands and dims in its own order
    transposed = swizzled and staged[b] is not None and staged[b].registers
    names, frame = ((b, a), dims[::-1]) if transposed else ((a, b), dims)
    shape = _group_shape(kinds, schedule, frame, ctx, transposed) if swizzled else \
        _shape(kinds, schedule, dims, ctx)
    if isinstance(shape, str):
        return MatrixUnits(False, shape)
    tiles = _swizzle_refusal(schedule, names, shape, frame) if swizzled else \
        _tiles_refusal(schedule, (a, b), shape, dims)
    if tiles:
        return MatrixUnits(False, tiles)
    if schedule.block.interior:
        return MatrixUnits(False, "interior blocks (--interior) hold two bodies: the matrix units take one")
    # TMA may copy the tiles where the warp groups read both through descriptors (lowering copies them so
    # where they are rows or columns of 2-D input arrays: lower/tma_pipeline.py)
    tma = shape.warp_group and not shape.transposed and not ctx.options.no_tma
    who = "warp groups" if shape.warp_group else "warps"
    what = (f"{shape.m} x {shape.n} x {shape.k} {target.MATRIX_PRECISION[shape.inputs]} instructions, "
            f"{shape.warps[0]} x {shape.warps[1]} {who} of {shape.fragments[0]} x {shape.fragments[1]} fragments")
    if shape.transposed:  # (the counts above are the transposed tile's: its rows along B's dim)
        what += (f" over the product's transpose (wgmma computing {b}ᵀ {a}ᵀ, its rows along dimension {dims[1]}: "
                 f"{b}'s tile read by each thread into registers as the instructions' A, {a}'s swizzled in lines "
                 f"of {target.WGMMA_LINE_BYTES} bytes, copies and instructions fenced between the two proxies)")
    elif shape.warp_group and not tma:
        what += (" (wgmma, from tiles swizzled in lines of "
                 f"{target.WGMMA_LINE_BYTES} bytes, copies and instructions fenced between the two proxies)")
    elif shape.warp_group:
        what += (" (wgmma, from tiles swizzled in lines of "
                 f"{target.WGMMA_LINE_BYTES} bytes; where they are rows or columns of 2-D input arrays, copied by "
                 "TMA, one thread's copies waited on by mbarriers with one chunk's instructions left running, "
                 "each version's kernel says; else by cp.async, copies and instructions fenced between the two "
                 "proxies)")
    always = shape.inputs in target.MATRIX_ALWAYS
    exact, unmet = _exact(shape, schedule.streams[0].site.stream, ctx)
    if not ctx.options.tensor_cores and not always and not exact:
        return MatrixUnits(False, f"--tensor-cores is off (the product qualifies: {what}){unmet}", shape, dims, (a, b))
    tf32 = ", inputs read as TF32 (10-bit mantissas: the low 13 bits ignored)" if shape.warp_group else \
        ", inputs rounded to TF32 (10-bit mantissas)"
    rounding = tf32 if shape.inputs == "float" else \
        ", always for 16-bit inputs (each product is exact in f32 and the sums stay f32: only their order differs)" \
        if always and not ctx.options.tensor_cores else EXACT if exact else ""
    lines = tuple(staged[x].shape[0] if staged[x].swizzled else 0 for x in (a, b)) if swizzled else ()
    what += _chunk_text(shape, schedule.streams[0].chunk, ctx)
    return MatrixUnits(True, f"{a} x {b} on the matrix units: {what}{rounding}; the last partial chunk too, its "
                             "tiles zero past the stream's end", shape, dims, (a, b), schedule.streams[0].chunk,
                             _stage(shape, schedule.block, dims), lines, tma, exact)


EXACT = (", with or without --tensor-cores: this GPU's f64 instructions add their products one at a time in the "
         "loop's order, each a fused multiply-add, as the kernel as written does, and the sum starts at zero, so "
         "every output is the same value (a sum that underflows to -0 comes out +0)")


def _exact(shape: MatrixShape, stream: T.Stream, ctx: Context) -> tuple[bool, str]:
    """(True, '') where the units give the kernel as written's values (target.MATRIX_EXACT): the instructions round
    as its loop does on this architecture, and the stream's sum starts at +0, to which the units' share,
    summed from zero, is added once after the stream (its own start would be added after, not first), the
    last partial chunk on the units too (transform/matrix_units.py raises a compiler bug where it is not);
    else (False, why not) where the instructions would round so, (False, '') where they do not."""
    if target.arch_number(ctx.device.arch) not in target.MATRIX_EXACT.get(shape.inputs, ()) or \
            not ctx.constraints.exact_units:
        return False, ""
    init = stream.inits[0] if len(stream.inits) == 1 else None
    if isinstance(init, T.Lit) and init.value == 0 and math.copysign(1.0, init.value) > 0:
        return True, ""
    return False, ("; its f64 instructions round as the loop as written does, but the sum does not start at +0: "
                   "the units' share, summed from zero, would be added to its start after the stream, not the start "
                   "to it first")


def _chunk_text(shape: MatrixShape, chunk: int | None, ctx: Context) -> str:
    """Why the chunk, where sm_90's f64 instruction decides it (target.matrix_chunk)."""
    exact = target.sm90_chunk({target.SIZEOF[shape.inputs]}, ctx.device.arch)
    if exact is None or shape.k != exact or ctx.chunk:
        return ""  # (an older GPU, --chunk, or the m8n8k4 fallback, two instructions in its chunk of 8)
    if chunk == exact:
        return (f", chunks of {chunk} positions (one instruction step each: the kernel then keeps few enough "
                "registers for two blocks an SM)")
    if ctx.constraints.grid_loop:
        return (f", chunks of {chunk} positions: each block walks its rows in a loop over grid y or z (a size "
                f"known only at launch, or more blocks than CUDA allows there), whose registers in chunks of {exact} "
                "leave one block an SM")
    return ""


def _product(schedule: Schedule):
    """(A's chunk parameter, B's, (A's dim, B's dim), (A's kind, B's kind,
    the accumulator's kind)) where the one tiled stream's chunk loop is
    `acc + x * y` of two staged chunks, one invariant to each block dim;
    else why not."""
    streams = [s for s in schedule.streams if s.tiled]
    if len(streams) != 1 or len(schedule.streams) != 1:
        return f"the kernel has {len(schedule.streams)} streams (the matrix units take one)"
    plan = streams[0]
    st = plan.site.stream
    if len(st.acc_params) != 1:
        return f"the stream carries {len(st.acc_params)} values (a product carries one sum)"
    loop = st.body
    if not (isinstance(loop, T.Loop) and len(loop.params) == 1 and isinstance(loop.bound, T.Var)
            and loop.bound.binder == st.chunk and isinstance(loop.rest, T.Var) and loop.rest.binder in (loop.params[0], *loop.results)
            and isinstance(loop.inits[0], T.Var) and loop.inits[0].binder == st.acc_params[0]):
        return "the stream's body is not one loop over its chunk carrying the accumulator"
    terms = _sum_of_product(loop.body, loop.params[0])
    if terms is None:
        return "the loop's body is not `acc + x * y`"
    reads = [_chunk_read(t, loop.index) for t in terms]
    if any(r is None for r in reads):
        return "a factor is not a chunk's element at the loop's index (or its conversion)"
    inputs = {p.name: p for p in plan.inputs}
    (x, kx), (y, ky) = reads
    px, py = inputs.get(x.name), inputs.get(y.name)
    if px is None or py is None or not (px.staged and py.staged):
        return "a factor's chunk is not staged in shared memory"
    spans = frozenset(schedule.block.spans)
    dx, dy = px.varies_with & spans, py.varies_with & spans
    if len(dx) != 1 or len(dy) != 1 or dx == dy:
        return "the two chunks do not vary with one block dim each (a row and a column)"
    (dx,), (dy,) = dx, dy
    if dx > dy:  # A's rows along the outer dim, B's columns along the inner: the output's row-major order
        (x, kx, dx), (y, ky, dy) = (y, ky, dy), (x, kx, dx)
    acc = loop.params[0].type.kind if isinstance(loop.params[0].type, Scalar) else "?"
    return x.name, y.name, (dx, dy), (kx, ky, acc)


def _held_by(stream, kernel: T.Kernel, kind: type) -> bool:
    """Whether a loop of the kernel runs the stream again each iteration
    (`kind` T.Loop: in its body), or an if in a branch (T.If)."""
    def parts(n):
        return (n.body,) if isinstance(n, T.Loop) else (n.then, n.else_)
    return any(isinstance(n, kind) and any(m is stream for part in parts(n) for m in descendants(part, T.is_exp))
               for n in descendants(kernel.body, T.is_exp))


def _sum_of_product(e, acc) -> tuple | None:
    """(x, y) where `e` is `acc + x * y` or `x * y + acc`."""
    if not (isinstance(e, T.BinOp) and e.op == "+"):
        return None
    for mine, other in ((e.lhs, e.rhs), (e.rhs, e.lhs)):
        if isinstance(mine, T.Var) and mine.binder == acc and isinstance(other, T.BinOp) and other.op == "*":
            return other.lhs, other.rhs
    return None


def _chunk_read(e, index):
    """(the chunk parameter, its element kind) where `e` is `c[index]`, or
    `f32(c[index])`; else None."""
    if isinstance(e, T.Builtin) and len(e.args) == 1 and e.name == getattr(e.type, "kind", None):
        e = e.args[0]
    if isinstance(e, T.Index) and isinstance(e.array, T.Var) and len(e.indices) == 1 and \
            isinstance(e.indices[0], T.Var) and e.indices[0].binder == index and isinstance(e.type, Scalar):
        return e.array.binder, e.type.kind
    return None


def _shape(kinds: tuple, schedule: Schedule, dims: tuple, ctx: Context):
    """The instruction and the warps' split of the block's tile (the first
    of the architecture's shapes that fits); else why not (the first's)."""
    ka, kb, acc = kinds
    if ka != kb:
        return f"its inputs are {ka} and {kb}: a matrix unit multiplies two of one type"
    inputs, accumulator = target.CTYPE.get(ka), target.CTYPE.get(acc)
    shapes = target.matrix_shapes(inputs, accumulator, target.arch_number(ctx.device.arch))
    if not shapes:
        return (f"{ka} inputs summed in {acc}: the matrix units here take f32 (as TF32), f16 or bf16 summed in f32, "
                "and f64")
    if target.arch_number(ctx.device.arch) < target.MATRIX_MIN_ARCH[inputs]:
        return f"{ctx.device.arch} has no matrix instruction for {ka} (sm_{target.MATRIX_MIN_ARCH[inputs]} on)"
    found = [_split(mnk, inputs, accumulator, schedule, dims) for mnk in shapes]
    return next((f for f in found if not isinstance(f, str)), found[0])


def _split(mnk: tuple, inputs: str, accumulator: str, schedule: Schedule, dims: tuple):
    """The block's tile split among its warps in fragments of m x n x k; else why not."""
    m, n, k = mnk
    chunk = schedule.streams[0].chunk or 0
    if chunk % k:
        return f"the chunk ({chunk}) is not a multiple of an instruction's {k} positions"
    block = schedule.block
    rows, cols = block.points(dims[0]), block.points(dims[1])
    threads = math.prod(block.extents)
    warps = threads // target.WARP
    if threads % target.WARP:
        return f"the block's {threads} threads are not whole warps"
    for wr, wc in _warp_grids(warps):
        if rows % (wr * m) == 0 and cols % (wc * n) == 0:
            return MatrixShape(m, n, k, inputs, accumulator, (wr, wc), (rows // (wr * m), cols // (wc * n)))
    return (f"the block's {rows} x {cols} tile does not split into {warps} warps' tiles of whole {m} x {n} "
            "fragments")


def _swizzled(schedule: Schedule) -> bool:
    """Whether the plan laid its tiles out for the warp groups' instructions (Constraints.swizzle)."""
    return any(p.staged and p.staging.swizzled for s in schedule.streams for p in s.inputs)


def _group_shape(kinds: tuple, schedule: Schedule, dims: tuple, ctx: Context, transposed: bool = False):
    """The warp groups' instruction (sm_90a's wgmma) and the groups' split
    of the block's tile (`dims`: the instruction's rows, its columns; the
    tile's columns first where `transposed`): the widest instruction, then
    the fewest a step; else why not."""
    ka, kb, acc = kinds
    inputs, accumulator = target.CTYPE.get(ka), target.CTYPE.get(acc)
    if ka != kb or inputs not in target.WGMMA_INPUTS or accumulator != "float":
        return (f"{ka} and {kb} summed in {acc}: the warp groups' instructions here take 16-bit or f32 (TF32) "
                "inputs summed in f32")
    if not target.has_wgmma(ctx.device.arch):
        return f"{ctx.device.arch} has no warp-group matrix instructions (built for {target.WGMMA_ARCH} only)"
    chunk = schedule.streams[0].chunk or 0
    block = schedule.block
    rows, cols = block.points(dims[0]), block.points(dims[1])
    threads = math.prod(block.extents)
    if threads % target.WGMMA_GROUP:
        return f"the block's {threads} threads are not whole warp groups of {target.WGMMA_GROUP}"
    k = target.wgmma_k(inputs)
    if chunk % k:
        return f"the chunk ({chunk}) is not a multiple of an instruction's {k} positions"
    found = []
    for wr, wc in _warp_grids(threads // target.WGMMA_GROUP):
        for n in target.WGMMA_N_REGISTERS if transposed else target.WGMMA_N:
            if rows % (wr * target.WGMMA_M) == 0 and cols % (wc * n) == 0:
                fm, fn = rows // (wr * target.WGMMA_M), cols // (wc * n)
                found.append(((-n, fm * fn), MatrixShape(target.WGMMA_M, n, k, inputs, accumulator, (wr, wc),
                                                         (fm, fn), target.WGMMA_GROUP, transposed)))
    if not found:
        return (f"the block's {rows} x {cols} tile does not split into warp groups' tiles of whole "
                f"{target.WGMMA_M}-row fragments {' or '.join(map(str, target.WGMMA_N))} columns wide")
    return min(found, key=lambda f: f[0])[1]


def _swizzle_refusal(schedule: Schedule, names: tuple, shape: MatrixShape, dims: tuple) -> str:
    """Why the swizzled tiles cannot be read by the warp groups ("": they
    can): each plain 2-D tile of the block's points, the only swizzled ones,
    its lines as wide as a swizzle's (target.WGMMA_LINE_BYTES), or, where
    the lines run along the chunk, its rows in whole blocks of such lines."""
    inputs = {p.name: p for p in schedule.streams[0].inputs}
    others = [p.name for p in inputs.values() if p.staged and p.staging.swizzled and p.name not in names]
    if others:
        return f"{others[0]}'s tile is swizzled but not an operand of the product"
    line = target.wgmma_line(shape.inputs)
    for i, (name, side, d) in enumerate(zip(names, (shape.warp_tile[0], shape.warp_tile[1]), dims)):
        st = inputs[name].staging
        if st.pack is not None or st.element != 1 or len(st.tile) != 2:
            return f"{name}'s tile is not a plain 2-D tile of scalars"
        if st.tile[0] != schedule.block.points(d):
            return f"{name}'s tile holds {st.tile[0]} rows for the block's {schedule.block.points(d)} points"
        if st.registers:  # (B's tile, read into registers as the instructions' A: the product transposed)
            if i or not shape.transposed:
                return f"{name}'s tile is read into registers but is not the instructions' A"
            continue
        if not st.swizzled:
            return f"{name}'s tile is not swizzled"
        if st.layout is not Layout.ROW_MAJOR and shape.inputs not in target.WGMMA_TRANSPOSABLE:
            return (f"{name}'s tile holds a chunk position a line: the warp groups read "
                    f"{target.MATRIX_PRECISION[shape.inputs]} tiles only with each row's positions adjacent")
        lines, across = st.shape
        if across % line or (st.layout is Layout.ROW_MAJOR and across != line):
            return (f"{name}'s tile lines hold {across} elements: the warp groups read lines of {line} (positions "
                    f"of the chunk: a chunk of {line}), or whole blocks of {line}")
        if lines % target.WGMMA_ATOM_LINES or (st.layout is Layout.TRANSPOSED and side % line):
            return f"{name}'s tile does not split into the swizzle's blocks of {target.WGMMA_ATOM_LINES} lines"
    return ""


def _tiles_refusal(schedule: Schedule, names: tuple, shape: MatrixShape, dims: tuple) -> str:
    """Why the staged tiles cannot be read by the units as they lie ("":
    they can): a fragment's load takes a leading dimension of whole 16-byte
    steps and a start 16-byte aligned (target.MATRIX_LD_BYTES, MATRIX_ALIGN),
    so each line's pitch, and the step to the next instruction's lines or
    the next fragment's, must keep them."""
    inputs = {p.name: p for p in schedule.streams[0].inputs}
    size = target.SIZEOF[shape.inputs]
    for name, side, d in zip(names, (shape.m, shape.n), dims):
        st = inputs[name].staging
        if st.pack is not None or st.element != 1 or len(st.tile) != 2:
            return f"{name}'s tile is not a plain 2-D tile of scalars (packed, or of rows)"
        if st.tile[0] != schedule.block.points(d):  # (the warps' fragments cover the block's points, no more)
            return f"{name}'s tile holds {st.tile[0]} rows for the block's {schedule.block.points(d)} points"
        pitch = st.pitch
        if pitch * size % target.MATRIX_LD_BYTES:
            return (f"{name}'s tile lines are {pitch * size} bytes apart: the matrix units read lines a multiple of "
                    f"{target.MATRIX_LD_BYTES} bytes apart")
        step = (shape.k if st.layout is Layout.TRANSPOSED else side) * pitch * size
        if step % target.MATRIX_ALIGN:
            return (f"{name}'s tile puts an instruction's lines {step} bytes apart: the matrix units start each "
                    f"{target.MATRIX_ALIGN}-byte aligned")
    return ""


def _warp_grids(warps: int) -> list[tuple[int, int]]:
    """The warps' splits rows x columns, the squarest first (each warp then
    loads the fewest fragments an instruction step: fm + fn for fm x fn)."""
    pairs = [(r, warps // r) for r in range(1, warps + 1) if warps % r == 0]
    return sorted(pairs, key=lambda p: (abs(p[0] - p[1]), -p[1]))
