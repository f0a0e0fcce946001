"""The matrix units (tensor cores) for a register-tiled product: a rewrite
of the kernel as lower writes it for one point a thread, before register
tiling's (register_tile.py), where the plan says so (analyse/tensor_cores.py).

Lower writes each full chunk's loop of a product as

    for (k = 0; k < CHUNK; k += 1) acc_2 = acc_2 + A_tile[row(P0_) + k...] * B_tile[col(P1_) + k...];

with `P{d}_` the thread's point within the block's tile. The rewrite makes
each such loop one `kir.MatrixChunk`: every warp multiplies its rows of the
A tile by its columns of the B tile into its accumulator fragments, read
from the same shared tiles at the same offsets (the layout and the leading
dimension come from the index's strides along the point and along `k`). The
fragments start at zero (`kir.MatrixZero`, first in the body); after the
last assignment of the point's accumulator (the partial last chunk, which
stays a loop and is register-tiled as before) each warp stores them into a
staging tile (`kir.MatrixStore`) that takes the bytes of the chunks' tiles
(every thread has read them: a barrier first), and after a barrier
`acc = acc + stage[P0_ * LD + P1_]` adds them to it. The clamps, guards and
output stores are untouched, so the edges work as in the plain kernel.
Nothing in the new statements depends on the point: register tiling keeps
them once a thread.
"""
from __future__ import annotations

from dataclasses import replace

from .. import kir, target
from ..errors import CompilerBug
from ..kir.build import Names, add, const, fresh_name, mul, substitute, swizzled_index
from ..kir.walkers import blocks_mapped, evaluate, statements
from .register_tile import POINT

NAME = "matrix units"
SAMPLES = ((3, 5), (7, 2), (16, 9))  # (point, k) pairs an index must be affine at, besides (0, 0), (1, 0), (0, 1)


def on_matrix_units(body: tuple, units, tid, ctypes: dict, used: Names) -> tuple[tuple, kir.SharedAlloc]:
    """`body` with its full chunks on the matrix units, and the staging tile
    the warps' sums go through (see the module doc). `units`: the plan's
    MatrixUnits (used; its `stage` the staging tile's shape); `tid`: the
    thread's flat index in the block."""
    return _Rewrite(units, tid, ctypes, used).run(body)


class _Rewrite:
    def __init__(self, units, tid, ctypes: dict, used: Names):
        self.shape: kir.MatrixShape = units.shape
        sh = self.shape
        self.tile_points = tuple(POINT.format(d) for d in units.dims)  # the product tile's rows, columns
        # the instruction's rows, columns (the tile's columns first where it computes the tile transposed)
        self.points = self.tile_points[::-1] if sh.transposed else self.tile_points
        self.ctypes, self.used, self.tid = ctypes, used, tid
        warp = kir.Bin("/", tid, const(sh.group))  # (a warp group's index, for wgmma)
        rows, cols = sh.warp_tile
        self.first = (mul(kir.Bin("/", warp, const(sh.warps[1])), const(rows)),  # the warp's first row and column
                      mul(kir.Bin("%", warp, const(sh.warps[1])), const(cols)))
        # a warp group's warps store their shares of its fragments' rows: each from its own first
        self.warp_row = mul(kir.Bin("%", kir.Bin("/", tid, const(target.WARP)), const(sh.group // target.WARP)),
                            const(sh.m * target.WARP // sh.group))
        self.stored_row = self.first[0] if not sh.warp_group else add(self.first[0], self.warp_row)
        self.lines = units.lines[::-1] if sh.transposed else units.lines  # the swizzled tiles' lines: A's, B's
        self.fragments = fresh_name("mma_acc", used)
        self.stage = fresh_name("sh_mma", used)
        self.rows, self.ld = units.stage
        self.chunk_length = units.chunk
        self.exact = units.exact  # the units must give the loop's values: its last partial chunk on them too
        self.outer: set[str] = set()  # the point's accumulator each rewritten loop's result is assigned to

    def run(self, body: tuple) -> tuple[tuple, kir.SharedAlloc]:
        body = blocks_mapped(body, self.block)
        if not self.outer:
            raise CompilerBug("the plan puts a product on the matrix units, but no chunk loop of the kernel is "
                              "`acc + a[..] * b[..]` of two shared tiles", stage="lower")
        if len(self.outer) != 1:
            raise CompilerBug(f"the matrix units' chunks sum into {len(self.outer)} accumulators", stage="lower")
        (outer,) = self.outer
        if not any(isinstance(s, kir.Decl) and s.name == outer for s in body):  # (one run of the stream: analyse)
            raise CompilerBug(f"the matrix units' accumulator `{outer}` is not declared once for the kernel",
                              stage="lower")
        if any(isinstance(x, kir.TmaWait) for x in statements(body)):  # a TMA pipeline's chunks (tma_pipeline.py)
            body = blocks_mapped(body, self.left_running)
        chunks = [i for i, s in enumerate(body)
                  if any(isinstance(x, (kir.MatrixChunk, kir.MatrixWait)) for x in statements((s,)))]
        assigned = [i for i, s in enumerate(body) if any(isinstance(x, (kir.Assign, kir.Decl)) and x.name == outer
                                                        for x in statements((s,)))]
        last = max(chunks[-1], assigned[-1])  # (the chunks no longer assign it: the units' sum is added once)
        sh = self.shape
        # (the instruction's first row and column: the staging tile's, or its column and row where transposed)
        row, col = (self.first[1], self.stored_row) if sh.transposed else (self.stored_row, self.first[1])
        store = kir.MatrixStore(self.fragments, sh, self.stage, add(mul(row, const(self.ld)), col), self.ld)
        p_rows, p_cols = (kir.Ref(p) for p in self.tile_points)
        added = (kir.Barrier("every chunk's tiles are read: the staging tile takes their bytes"), store,
                 kir.Barrier("the warps' sums of the full chunks are in the staging tile"),
                 kir.Assign(outer, kir.Bin("+", kir.Ref(outer),
                                           kir.Load(self.stage, add(mul(p_rows, const(self.ld)), p_cols), kir.SHARED))))
        body = _sunk(body[:last + 1], added) + body[last + 1:]
        body = (kir.MatrixZero(self.fragments, sh),) + body
        tiles = tuple(dict.fromkeys(op.first.buffer for x in statements(body) if isinstance(x, kir.MatrixChunk)
                                    for op in (x.a, x.b)))
        if sh.warp_group:
            body = self._fenced(body, tuple(dict.fromkeys(
                op.first.buffer for x in statements(body) if isinstance(x, kir.MatrixChunk)
                for op in (x.a, x.b) if not op.registers)))
        return body, kir.SharedAlloc(self.stage, sh.accumulator, self.rows * self.ld, over=tiles)

    def left_running(self, stmts: tuple) -> tuple:
        """A TMA pipeline's chunks left running until the next is issued
        (its loop frees each buffer a chunk later), and its wait after the
        loop for these fragments."""
        return tuple(replace(x, pending=1) if isinstance(x, kir.MatrixChunk) else
                     kir.MatrixWait(self.fragments) if isinstance(x, kir.MatrixWait) else x for x in stmts)

    def _fenced(self, body: tuple, tiles: tuple) -> tuple:
        """Every barrier fenced for the warp groups' reads of what the
        threads wrote before it; the swizzled tiles (`tiles`) read by
        nothing else."""
        plain = [n for x in statements(body) if not isinstance(x, kir.MatrixChunk)
                 for n in kir.walk(_shallow(x)) if isinstance(n, (kir.Load, kir.VecLoad)) and
                 getattr(n, "buffer", None) in tiles]
        if plain:
            raise CompilerBug(f"a swizzled tile ({plain[0].buffer}) is read outside the warp groups' instructions",
                              stage="lower")
        return blocks_mapped(body, lambda stmts: tuple(replace(x, proxy=True) if isinstance(x, kir.Barrier) else x
                                                       for x in stmts))

    def block(self, stmts: tuple) -> tuple:
        """The block with each chunk's loop `inner = outer; for (...) inner =
        inner + a * b; outer = inner;` as one MatrixChunk: the copies in and
        out of the loop's accumulator go too, so the point's accumulator is
        untouched until the units' sum is added (held through the chunks,
        its copies took registers the units need)."""
        out, skip = [], False
        for i, s in enumerate(stmts):
            if skip:
                skip = False
                continue
            chunk = (self.chunk(s) or self.partial(s, stmts)) if isinstance(s, kir.For) else None
            if chunk is None and self.exact and isinstance(s, kir.For) and self._whole(s, stmts) is not None:
                # (its tail summed into the start before the units' share is added: another order than the loop's)
                raise CompilerBug("an f64 product the plan puts on the units as exact keeps its last partial chunk "
                                  "off them (a tile not zero-filled past the stream's end)", stage="lower")
            after = stmts[i + 1] if i + 1 < len(stmts) else None
            inner = s.body[0].name if chunk is not None else None
            if chunk is not None and isinstance(after, kir.Assign) and after.value == kir.Ref(inner):
                self.outer.add(after.name)
                if out and isinstance(out[-1], kir.Decl) and out[-1].name == inner and \
                        out[-1].init == kir.Ref(after.name):
                    out.pop()
                out.append(chunk)
                skip = True
            else:
                out.append(s)
        return tuple(out)

    def partial(self, s: kir.For, stmts: tuple) -> kir.MatrixChunk | None:
        """The last, partial chunk's loop (to a length declared in its block)
        as a whole chunk on the units, where every store into its tiles in
        the block zero-fills past that length: the units' positions past it
        multiply zeros."""
        whole = self._whole(s, stmts)
        if whole is None:
            return None
        tiles = {whole.a.first.buffer, whole.b.first.buffer}
        stores = [x for x in statements(stmts) if isinstance(x, (kir.Store, kir.VecStore, kir.AsyncCopy))
                  and (x.shared if isinstance(x, kir.AsyncCopy) else x.buffer) in tiles]
        if not stores or not all(isinstance(x, kir.Store) and _zero_past_end(x.value) for x in stores):
            return None
        return whole

    def _whole(self, s: kir.For, stmts: tuple) -> kir.MatrixChunk | None:
        """The loop to a length declared in its block as a whole chunk's
        MatrixChunk, where it is the product's partial chunk; else None."""
        if not (isinstance(s.stop, kir.Ref) and self.chunk_length and
                any(isinstance(x, kir.Decl) and x.name == s.stop.name for x in stmts)):
            return None
        return self.chunk(replace(s, stop=const(self.chunk_length)))

    def chunk(self, s: kir.For) -> kir.MatrixChunk | None:
        """The loop as a MatrixChunk, where it is a full chunk's `acc + a * b`."""
        sh = self.shape
        if not (s.start == const(0) and s.step == const(1) and isinstance(s.stop, kir.Const)
                and s.stop.value % sh.k == 0 and len(s.body) == 1 and isinstance(s.body[0], kir.Assign)):
            return None
        acc = s.body[0]
        factors = _sum_of_product(acc.value, acc.name)
        if factors is None:
            return None
        loads = [_shared_read(f) for f in factors]
        if any(x is None for x in loads):
            return None
        by_dim = {}
        for load in loads:
            names = {n.name for n in kir.walk(load.index) if isinstance(n, kir.Ref)}
            mine = [p for p in self.points if p in names]
            if len(mine) != 1:
                return None
            by_dim[mine[0]] = load
        if set(by_dim) != set(self.points):
            return None
        a = self.operand(by_dim[self.points[0]], self.points[0], s.var, self.first[0], sh.m, rows=True)
        b = self.operand(by_dim[self.points[1]], self.points[1], s.var, self.first[1], sh.n, rows=False)
        if a is None or b is None:
            return None
        return kir.MatrixChunk(self.fragments, sh, a, b, s.stop.value // sh.k)

    def operand(self, load: kir.Load, p: str, k: str, first, side: int, rows: bool) -> kir.MatrixOperand | None:
        """The tile as operand A (`rows`: its rows along `p`) or B (its
        columns along `p`), from the load's strides; None where they make no
        layout the units read, or leave a fragment's start unaligned."""
        if self.ctypes.get(load.buffer) != self.shape.inputs:
            return None
        strides = _strides(load.index, p, k)
        if strides is None:
            return None
        c0, along_p, along_k = strides
        if along_p == 1:  # consecutive rows of A (columns of B) adjacent: A col-major, B row-major
            row_major, ld = not rows, along_k
        elif along_k == 1:
            row_major, ld = rows, along_p
        else:
            return None
        if self.shape.transposed and rows:  # (B's tile, the instructions' A: tensor_cores._swizzle_refusal)
            return self.registers(load, p, k, row_major, ld, first)
        if self.shape.warp_group:
            return self.swizzled(load.buffer, rows, row_major, ld, c0, first)
        size = target.SIZEOF[self.shape.inputs]
        align = target.MATRIX_ALIGN
        warp_side = self.shape.warp_tile[0 if rows else 1]
        if (ld * size) % target.MATRIX_LD_BYTES or (c0 * size) % align or (side * along_p * size) % align or \
                (self.shape.k * along_k * size) % align or (warp_side * along_p * size) % align:
            return None
        start = substitute(load.index, {p: first, k: const(0)})
        return kir.MatrixOperand(kir.Load(load.buffer, start, kir.SHARED), row_major, ld)

    def registers(self, load: kir.Load, p: str, k: str, row_major: bool, ld: int, first) -> kir.MatrixOperand:
        """A plain tile as the instructions' A from registers: each thread's
        first element, its row of the group's first fragment and position of
        the chunk (target.WGMMA_REGISTER_*)."""
        lane = kir.Bin("%", self.tid, const(target.WARP))
        row = add(add(first, self.warp_row), kir.Bin("/", lane, const(target.WGMMA_REGISTER_POSITIONS)))
        start = substitute(load.index, {p: row, k: kir.Bin("%", lane, const(target.WGMMA_REGISTER_POSITIONS))})
        return kir.MatrixOperand(kir.Load(load.buffer, start, kir.SHARED), row_major, ld, registers=True)

    def swizzled(self, tile: str, a: bool, row_major: bool, ld: int, c0: int, first) -> kir.MatrixOperand | None:
        """A swizzled tile (operand A where `a`) as the warp groups read it:
        its lines `ld` apart before the swizzle, the warp group's first row
        of A (column of B) at the chunk's first position found in it."""
        width = target.wgmma_line(self.shape.inputs)
        along = row_major == a  # each row of A (column of B) a line of the chunk's positions (kir.operand_lines)
        if len(self.lines) != 2 or c0 != 0 or (ld != width if along else ld % width):
            return None
        lines = self.lines[0 if a else 1]
        # (the group's first row of A, or column of B: a multiple of the instruction's m, or n, which the plan
        # made whole blocks of lines (tensor_cores._swizzle_refusal))
        line, across = (first, const(0)) if along else (const(0), first)
        start = swizzled_index(line, across, lines, width, unpermuted=True)
        return kir.MatrixOperand(kir.Load(tile, start, kir.SHARED), row_major, width, lines)


def _shallow(s):
    """A statement without the statements it holds (each is walked on its own)."""
    return replace(s, **{f: () for f in kir.BODIES if hasattr(s, f)})


def _sunk(before: tuple, added: tuple) -> tuple:
    """`before` then `added`, with the declarations of `before` that nothing
    in it reads (the point's indices, read by the bounds guards and stores
    after the units' sum) moved after `added`: held through the chunks'
    loop they cost registers the units need (mm_bf16 with its sizes known,
    two blocks an SM: 28 bytes of spill stores with the point's 16 indices
    computed first, none with them computed after the loop)."""
    def reads(stmts) -> set:
        return {n.name for s in statements(stmts) for n in kir.walk(s) if isinstance(n, kir.Ref)}

    moved = [s for s in before if isinstance(s, kir.Decl) and
             not any(isinstance(n, (kir.Load, kir.VecLoad)) for n in kir.walk(s.init))]
    while True:  # what a statement that stays, or one added, reads stays too
        stays = [s for s in before if not any(s is m for m in moved)]
        held = reads(tuple(stays)) | reads(added)
        kept = [m for m in moved if m.name not in held]
        if len(kept) == len(moved):
            return tuple(stays) + added + tuple(moved)
        moved = kept


def _zero_past_end(value) -> bool:
    """Whether a copy's stored value is `valid ? load : 0`."""
    if not isinstance(value, kir.Select):
        return False
    zero = value.b.a if isinstance(value.b, kir.Cast) else value.b
    return isinstance(zero, kir.Const) and zero.value == 0


def _sum_of_product(e, acc: str) -> tuple | None:
    if not (isinstance(e, kir.Bin) and e.op == "+"):
        return None
    for mine, other in ((e.a, e.b), (e.b, e.a)):
        if mine == kir.Ref(acc) and isinstance(other, kir.Bin) and other.op == "*":
            return other.a, other.b
    return None


def _shared_read(e) -> kir.Load | None:
    """The shared load `e` is, or converts to float (a 16-bit element widened)."""
    if isinstance(e, kir.Call) and len(e.args) == 1 and e.fn in target.NARROW_FUNCTIONS and \
            target.NARROW[target.NARROW_FUNCTIONS[e.fn]].to_float == e.fn:
        e = e.args[0]
    return e if isinstance(e, kir.Load) and e.space == kir.SHARED else None


def _strides(index, p: str, k: str) -> tuple[int, int, int] | None:
    """(the index at p = k = 0, its step along p, along k) where it is affine
    in them and depends on nothing else; else None."""
    def at(pv, kv):
        try:
            return evaluate(index, {p: pv, k: kv})
        except (KeyError, ValueError, TypeError):
            return None
    c0, p1, k1 = at(0, 0), at(1, 0), at(0, 1)
    if None in (c0, p1, k1):
        return None
    along_p, along_k = p1 - c0, k1 - c0
    if any(at(pv, kv) != c0 + pv * along_p + kv * along_k for pv, kv in SAMPLES):
        return None
    return c0, along_p, along_k
