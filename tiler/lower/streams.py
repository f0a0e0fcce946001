"""Lowering of `streamSeq`, untiled or tiled as the plan says.

Untiled: the whole array is one chunk. Tiled: a loop over chunks of the
planned size; in each, the block copies the tile of every staged input into
shared memory (`CoopCopy`), waits at a barrier, runs the body reading the
staged chunks from shared memory, and waits again before the next copy.
"""
from __future__ import annotations

import math

from .. import kir, target
from ..analyse import InputPlan, Schedule, StreamPlan
from ..analyse.schedule import CopyAxis, Layout
from ..check import typed as T
from ..check.types import element_bytes
from ..errors import CompilerBug
from ..kir.build import add, const, mul, ref_names, substitute, swizzled_index
from .body import Body, ctype_of
from .copies import WIDE_ASYNC_UNROLL, TileCopy, commit_tile, copy_async, copy_tile, prefetch_registers, prefetch_tile
from .k_stage import KShare
from .tma_pipeline import tma_pipelined, tma_sources
from .values import Joined, View, block_tid, both, in_kernel_min, minimum

# copy steps a thread may hold in registers between prefetch and commit: the
# 128-bit copies of a block staging its threads' rows take 16 (a 64-element
# chunk); their scalar fallback would take 64 and, with 64-bit offsets, spill
PREFETCH_STEPS = 32


class Streams(Body):
    def __init__(self, schedule: Schedule, indices: dict, vectors: bool = True, levels: dict | None = None,
                 wide: bool = False):
        super().__init__(levels)
        self.schedule = schedule
        self.wide = wide  # 64-bit offsets: long cp.async copies are unrolled in parts (copies.WIDE_ASYNC_UNROLL)
        self.plans = {T.point(s.site.stream): s for s in schedule.streams}
        self.indices = indices  # kernel dim -> dict(idx=Ref, base=expr, size=expr, local=expr)
        self.shared: list[kir.SharedAlloc] = []
        self.buffers: dict = {}
        self.vectors = vectors  # vector copies where the schedule plans them (False: the scalar version)
        self.size_names: dict[str, str] = {}  # C name of a size parameter -> its name in the program
        self.launch_scalars: set[str] = set()  # C names of other scalars every thread holds alike (main's, once a launch's)
        self.divisible: dict[str, int] = {}  # size name -> the factor vector copies need it to have
        # a stage of a split-K launch (KShare): the stream whose iterations the blocks along z share, folded
        # from its operators' identities; its carried values once folded (`shared_out`)
        self.k_share: KShare | None = None
        self.shared_out: tuple | None = None
        self._offset_base = None  # the block's first iteration, added to the stream's offset in its body

    def _stream(self, e: T.Stream):
        plan = self.plans.get(T.point(e))
        if isinstance(e.arrays[0], T.JoinRows):
            return self._joined(e, plan)
        arrays = [self.exp(a) for a in e.arrays]
        for a in arrays:
            if not isinstance(a, View):
                raise CompilerBug("a stream input is not an array view", e.span, "lower")
        length = arrays[0].sizes[0]
        ks = self.k_share if self.k_share is not None and self.k_share.stream == T.point(e) else None
        starts = ks.starts if ks is not None else [self.exp(i) for i in e.inits]
        accs = [self.declare(p.name, ctype_of(p.type), i, e.span, const_=False) for p, i in zip(e.acc_params, starts)]
        for p, r in zip(e.acc_params, accs):
            self.env[p] = r
        if ks is not None:  # this block's share of the iterations: the arrays from its first on, as long as it is
            if plan is None or not plan.tiled:
                raise CompilerBug("a split-K stage's stream is not tiled", e.span, "lower")
            self._offset_base = base = self.declare("k_first", "int", mul(kir.BlockIdx("z"), ks.share))
            length = self.declare("k_length", "int", in_kernel_min(kir.Bin("-", length, base), ks.share))
            self._tiled(e, plan, [a.shifted(base) for a in arrays], length, accs)
            self._offset_base = None
            self.shared_out = tuple(accs)
        elif plan is None or not plan.tiled:
            self.env[e.offset] = const(0)
            self.env[e.chunk] = length
            for p, a in zip(e.chunk_params, arrays):
                self.env[p] = a
            self._carry(e.body, e.acc_params, accs)
        else:
            self._tiled(e, plan, arrays, length, accs)
        return tuple(accs) if len(accs) > 1 else accs[0]

    def _joined(self, e: T.Stream, plan: StreamPlan | None):
        """A tiled stream over rows laid end to end (transform/join_rows.py).
        The lets that pick a row are written into each copied element's
        offset, taken at the element's own iteration."""
        if plan is None or not plan.tiled or plan.join is None or not plan.join.joined:
            raise CompilerBug("a stream over joined rows that its schedule does not join", e.span, "lower")
        first = e.arrays[0]
        inits = [self.exp(i) for i in e.inits]
        count = self.exp(first.count)
        index = self.fresh(first.index.name)  # stands for an iteration in the rows' offsets; never declared
        self.env[first.index] = kir.Ref(index)
        stmts, rows = self.block(lambda: self._rows(e.arrays))
        held = _held(stmts, self.definitions, first.span)
        rows = [substitute(r, held) for r in rows]
        length = rows[0].sizes[0]
        total = self.declare("joined", "int", mul(count, length), first.span)
        accs = [self.declare(p.name, ctype_of(p.type), v, first.span, const_=False)
                for p, v in zip(e.acc_params, inits)]
        for p, r in zip(e.acc_params, accs):
            self.env[p] = r
        self._tiled(e, plan, [Joined(r, index, length) for r in rows], total, accs)
        return tuple(accs) if len(accs) > 1 else accs[0]

    def _rows(self, joined: tuple) -> list:
        """Each input's row, after the lets that pick it (bound once: every
        input's chain has the same ones)."""
        picks, body = [], joined[0].row
        while isinstance(body, T.Let):
            self.bind(body.binders, self.exp(body.value), body.span)
            picks.append(body.binders)
            body = body.body
        rows = []
        for j in joined:
            row = j.row
            for binders in picks:
                if not isinstance(row, T.Let) or row.binders != binders:
                    raise CompilerBug("a joined stream's inputs pick their rows apart", j.span, "lower")
                row = row.body
            rows.append(self.exp(row))
        if not all(isinstance(r, View) for r in rows):
            raise CompilerBug("a joined stream's input is not an array view", joined[0].span, "lower")
        return rows

    def _tiled(self, e: T.Stream, plan: StreamPlan, arrays, length, accs) -> None:
        """Full chunks in a loop (constant length, unguarded copies), then the
        last, partial chunk if there is one. Both tests are the same for the
        whole block, so every thread reaches every barrier."""
        if plan.unroll is not None:
            self.unrolls[e.chunk] = plan.unroll
        self.tiled_chunks.add(e.chunk)
        sources = tma_sources(self, e, plan, arrays)
        if sources is not None:  # every chunk, the last partial one too, copied by TMA (zeros past the end)
            tma_pipelined(self, e, plan, arrays, length, accs, sources)
            return
        size = const(plan.chunk)
        if self._asynchronous(plan) or self._double_buffered(plan):
            tail = self.declare(f"{e.offset.name}_last", "int", kir.Bin("-", length, kir.Bin("%", length, size)))
            pipeline = self._async_pipelined if self._asynchronous(plan) else self._pipelined
            pipeline(e, plan, arrays, length, accs, tail)
        else:
            kk = self.fresh(e.offset.name)
            full, _ = self.block(lambda: self._chunk(e, plan, arrays, length, accs, kir.Ref(kk), size, False))
            last_full = kir.Bin("-", length, const(plan.chunk - 1))
            self.emit(kir.For(kk, const(0), last_full, size, full, e.span))
            tail = self.declare(f"{e.offset.name}_last", "int", kir.Bin("-", length, kir.Bin("%", length, size)))
        chunk = kir.Bin("-", length, tail)
        rest, _ = self.block(lambda: self._chunk(e, plan, arrays, length, accs, tail, chunk, guarded=True))
        self.emit(kir.If(kir.Bin("<", tail, length), rest, (), e.span))

    def _chunk(self, e: T.Stream, plan: StreamPlan, arrays, length, accs, start, chunk, guarded: bool) -> None:
        chunk = self._bind_chunk(e, start, chunk)
        for view, ip in zip(arrays, plan.inputs):
            if ip.copied:
                copy = self._tile_copy(ip, view, start, length, plan.chunk, e, guarded, 0)
                for stmt in copy_tile(copy):
                    self.emit(stmt)
        self.emit(kir.Barrier("the tiles are written"))
        self._body(e, plan, arrays, accs, start, chunk, 0)
        self.emit(kir.Barrier("the tiles are read before the next copy"))

    def _body(self, e: T.Stream, plan: StreamPlan, arrays, accs, start, chunk, buffer: int, tile=None) -> None:
        """The stream's body on one chunk, staged inputs read from `buffer` (or, given `tile(ip, ctype)`, from the
        view it gives, None: in place; tma_pipeline's rings), the others in place."""
        for p, view, ip in zip(e.chunk_params, arrays, plan.inputs):
            shared = tile(ip, view.ctype) if tile else self._shared_view(ip, view.ctype, plan.chunk, buffer) \
                if ip.staged else None
            self.env[p] = view.shifted(start) if shared is None else shared
        self.in_loop(lambda: self._carry(e.body, e.acc_params, accs))

    def _bind_chunk(self, e: T.Stream, start, chunk):
        self.env[e.offset] = start if self._offset_base is None else add(self._offset_base, start)
        if not isinstance(chunk, kir.Const):
            chunk = self.declare(e.chunk.name, "int", chunk)
        self.env[e.chunk] = chunk
        return chunk

    # ---- double buffering: the next chunk's tiles travel through registers ----------

    def _double_buffered(self, plan: StreamPlan) -> bool:
        """As planned, but for a version whose scalar copies would hold more
        than PREFETCH_STEPS values a thread in registers (they would spill):
        that one copies each chunk after the last is read, in one buffer."""
        block = self.schedule.block
        staged = [p.staging for p in plan.inputs if p.staged]
        steps = max((st.elements // (block.threads * self._width(st)) for st in staged), default=0)
        # (a plan for cp.async that this version cannot follow, 2-byte elements one at a time, was not planned
        # with prefetch registers either: one buffer)
        return all(st.buffers == 2 and not st.asynchronous for st in staged) and steps <= PREFETCH_STEPS

    def _pipelined(self, e: T.Stream, plan: StreamPlan, arrays, length, accs, tail) -> None:
        """Full chunks two at a time, in two shared buffers: while the body
        reads one, each thread holds its part of the next chunk's tiles in
        registers (loaded before the body, stored after it), so the loads'
        latency hides behind the arithmetic and one barrier a chunk suffices."""
        staged = [(p, view, ip) for p, view, ip in zip(e.chunk_params, arrays, plan.inputs) if ip.copied]
        registers = {ip.name: self.fresh(f"next_{ip.name}") for _, _, ip in staged}
        size = plan.chunk

        def copies(start, buffer):
            return [(self._tile_copy(ip, view, start, length, size, e, False, buffer), registers[ip.name])
                    for _, view, ip in staged]

        for c, r in copies(const(0), 0):
            self.emit(prefetch_registers(c, r))
        first = [s for c, r in copies(const(0), 0) for s in prefetch_tile(c, r) + commit_tile(c, r)]
        self.emit(kir.If(kir.Bin("<", const(0), tail), tuple(first), (), e.span))
        self.emit(kir.Barrier("the first tiles are written"))
        kk = self.fresh(e.offset.name)

        def half(start, buffer):
            def emit():
                more = self.declare("more", "bool", kir.Bin("<", add(start, const(size)), tail))
                nxt = copies(add(start, const(size)), 1 - buffer)
                self.emit(kir.If(more, tuple(s for c, r in nxt for s in prefetch_tile(c, r))))
                self._bind_chunk(e, start, const(size))
                self._body(e, plan, arrays, accs, start, const(size), buffer)
                self.emit(kir.If(more, tuple(s for c, r in nxt for s in commit_tile(c, r))))
                self.emit(kir.Barrier("the next tiles are written and this chunk's are read"))
            return self.block(emit)[0]

        second = kir.If(kir.Bin("<", add(kir.Ref(kk), const(size)), tail), half(add(kir.Ref(kk), const(size)), 1))
        self.emit(kir.For(kk, const(0), tail, const(2 * size), half(kir.Ref(kk), 0) + (second,), e.span,
                          note="two chunks a step, one in each shared buffer"))

    # ---- cp.async: several chunks in flight, without registers ------------------------

    def _together(self, copies: list, length) -> int:
        """How many of a chunk's cp.async copies share the steps a thread
        unrolls at once (copy_async). A length known when compiled: ptxas
        unrolls the whole pipeline, so all of them. Otherwise, with 32-bit
        offsets, the long ones (more than WIDE_ASYNC_UNROLL steps): two own
        rows of a length read at launch, 64 scalar steps each, unrolled whole
        spilled 44 bytes (8 at a time: 56); a mat-vec's 64 steps of A's rows
        beside x's 4 unrolled whole ran 1.14x faster than 8 or 32 at a time
        (H100, no spill). A repeated copy (in a loop around its stream) shares
        alike, 64-bit-style. The 64-bit kernels keep theirs: none spills."""
        if _constant(length) is not None:
            return len(copies)
        if self.wide:
            return 1
        return max(1, sum(1 for c in copies if (c.per_thread or 0) > WIDE_ASYNC_UNROLL))

    def _asynchronous(self, plan: StreamPlan) -> bool:
        """As planned, but for a version whose copies of 2-byte elements go
        one at a time (unaligned rows: no vectors), which cp.async cannot
        move: that one copies each chunk after the last is read."""
        copied = [p for p in plan.inputs if p.copied]
        return any(p.staging.asynchronous for p in copied) and \
            all(self._width(p.staging) * element_bytes(p.array.type) in target.ASYNC_COPY_BYTES for p in copied)

    def _async_pipelined(self, e: T.Stream, plan: StreamPlan, arrays, length, accs, tail) -> None:
        """Full chunks `stages` at a time, one in each of `stages` shared
        buffers, copied by cp.async: while the body reads one chunk, the
        copies of the next `stages - 1` are in flight. Each step waits for
        its own chunk's group (all but the `stages - 2` committed after it),
        and one barrier then both shows that chunk to the block and ends every
        thread's reads of the buffer the step refills. One group is committed
        a step, empty or not, so that the count a wait leaves is exact."""
        staged = [(view, ip) for view, ip in zip(arrays, plan.inputs) if ip.copied]
        stages, size = staged[0][1].staging.buffers, plan.chunk
        once = _constant(length) is not None and _constant(length) <= stages * size  # (the loop runs one step)
        def issue(start, buffer) -> tuple:
            copies = [self._tile_copy(ip, view, start, length, size, e, False, buffer) for view, ip in staged]
            return tuple(s for c in copies for s in copy_async(c, self.wide, self._together(copies, length),
                                                                self.loop_depth > 0, self.schedule.block.register,
                                                                once))

        for s in range(stages - 1):
            self.emit(kir.If(kir.Bin("<", const(s * size), tail), issue(const(s * size), s), (), e.span))
            self.emit(kir.AsyncCommit())
        kk = self.fresh(e.offset.name)

        def step(start, buffer):
            def emit():
                self.emit(kir.AsyncWait(stages - 2))
                self.emit(kir.Barrier("this chunk's tiles are written, and the buffer refilled next is read"))
                ahead = add(start, const((stages - 1) * size))
                self.emit(kir.If(kir.Bin("<", ahead, tail), issue(ahead, (buffer + stages - 1) % stages)))
                self.emit(kir.AsyncCommit())
                self._bind_chunk(e, start, const(size))
                self._body(e, plan, arrays, accs, start, const(size), buffer)
            return self.block(emit)[0]

        body = step(kir.Ref(kk), 0)
        for s in range(1, stages):
            start = add(kir.Ref(kk), const(s * size))
            body += (kir.If(kir.Bin("<", start, tail), step(start, s)),)
        self.emit(kir.For(kk, const(0), tail, const(stages * size), body, e.span,
                          note=f"{stages} chunks a step, one in each shared buffer"))
        self.emit(kir.AsyncWait(0))
        self.emit(kir.Barrier("every chunk is read before the last one is copied"))

    # ---- tiles ----------------------------------------------------------------------

    def _width(self, st) -> int:
        return st.vector if self.vectors else 1

    def _tile_copy(self, ip: InputPlan, view: View, kk, length, chunk: int, e, guarded: bool,
                   buffer: int) -> TileCopy:
        """The cooperative copy of one tile of `ip` starting at chunk index `kk`."""
        block, st = self.schedule.block, ip.staging
        width = 1 if guarded else self._width(st)
        if st.element > 1:
            return self._row_chunk_copy(ip, view, kk, length, chunk, e, guarded, buffer, width)
        rows = st.tile[0] if st.rows else 1
        transposed = st.layout is Layout.TRANSPOSED
        pitch = st.pitch
        shared = self._shared_buffer(ip, view.ctype, buffer)
        r, el = self.fresh("r"), self.fresh("e")
        source = view
        if st.rows:  # the copy reads the rows of the block's other threads
            (d,) = st.rows
            ix = self.indices[d]
            # a vector along the rows stays whole: the last in-range vector stands in for those past the end
            last = const(width if st.copy.axis is CopyAxis.ROWS else 1)
            other = minimum(add(ix["base"], kir.Ref(r)), kir.Bin("-", ix["size"], last))
            source = substitute(self._expanded(view, ix["idx"].name, e.span), {ix["idx"].name: other})
        if width > 1:
            self._require_divisible(source, width)
        element = add(kk, kir.Ref(el))
        src_index = source.at(element)
        line, across = (kir.Ref(el), kir.Ref(r)) if transposed else (kir.Ref(r), kir.Ref(el))
        dst = add(mul(line, const(pitch)), across)
        if st.swizzled:  # (only the warp groups' instructions read it: transform/matrix_units.py)
            dst = swizzled_index(line, across, st.shape[0], target.wgmma_line(view.ctype))
        valid = kir.Bin("<", element, length) if guarded else None
        contiguous = (st.copy.axis is CopyAxis.ROWS) == transposed and st.pack is None
        if st.pack is not None:  # this input's lane of the interleaved array
            dst = add(mul(dst, const(st.pack.width)), const(st.pack.lane))
        return TileCopy(shared, view.ctype, rows, chunk, st.copy.axis, block.threads, block_tid(block), r, el,
                        view.buffer, src_index, valid, dst, e.span, width, contiguous)

    def _expanded(self, view: View, idx: str, span) -> View:
        """The view with the scalars its offset uses written out as what they
        hold (a row `A[r]`, `r = (idx[i0] % v + v) % v`: the expression of
        `i0`), so that it can be taken at another thread's index `idx`. Only
        scalars that come down to the dims' own indices, sizes and loads of
        the inputs are written out: what any thread computes alike (the
        analysis stages a row picked through data only where it is such a
        value: views.Views.computable). A scalar left that follows `idx` would
        be this thread's row, not the other's: a compiler bug, not a kernel."""
        known = {ix["idx"].name for ix in self.indices.values()} | set(self.size_names) | self.launch_scalars
        held: dict[str, object] = {}
        follows = {idx}  # names whose value depends on the dim's index
        for name, value in self.definitions.items():  # in program order: what a value uses comes first
            if ref_names(value) & follows:
                follows.add(name)
            value = substitute(value, held)
            if name not in known and ref_names(value) <= known:
                held[name] = value
        out = substitute(view, held)
        left = set().union(*(ref_names(part) for part in (out.offset, *out.strides, *out.sizes))) & (follows - {idx})
        if left:
            raise CompilerBug(f"a staged row's index reads {', '.join(sorted(left))}, which this thread computed "
                              "for its own point: the copy cannot take it at another's", span, "lower")
        return out

    def _row_chunk_copy(self, ip: InputPlan, view: View, kk, length, chunk: int, e, guarded: bool, buffer: int,
                        width: int) -> TileCopy:
        """The copy of `chunk` rows from row `kk` on; a row past the
        stream's end stores zeros."""
        st = ip.staging
        if width > 1:
            self._require_divisible(view, width)
        valid = (lambda row: kir.Bin("<", row, length)) if guarded else None
        return self._rows_copy(self._shared_buffer(ip, view.ctype, buffer), view, lambda r: add(kk, r), chunk,
                               st.element, st.pitch, valid, width, e.span, st.asynchronous)

    def stage_row(self, slab, rows: View, d: int, span) -> View:
        """A row each thread reads whole (slabs.py): the block copies the rows
        of its points along dim d from `rows` (the array the map walks) into
        one shared array, and the thread's row is its line there."""
        ix = self.indices[d]
        shared = self.fresh(f"sh_{slab.name}")
        self.shared.append(kir.SharedAlloc(shared, rows.ctype, slab.points * slab.pitch))
        def clamped(r):  # a point past the dim's end copies the last row
            return minimum(add(ix["base"], r), kir.Bin("-", ix["size"], const(1)))

        by_rows = copy_tile(self._rows_copy(shared, rows, clamped, slab.points, slab.length, slab.pitch, None, 1,
                                            span))
        if slab.run:  # blocks inside the dim copy one run; the last one, past the end, copies row by row
            inside = kir.Bin("<=", add(ix["base"], const(slab.points)), ix["size"])
            by_rows = (kir.If(inside, self._run_copy(shared, rows, slab, ix["base"], span), by_rows),)
        for stmt in by_rows:
            self.emit(stmt)
        self.emit(kir.Barrier("the rows are written"))
        return View(shared, mul(ix["local"], const(slab.pitch)), (const(1),), (const(slab.length),), rows.ctype,
                    "shared")

    def _run_copy(self, shared: str, rows: View, slab, base, span) -> tuple:
        """The block's `slab.points` rows from row `base` on, which lie one
        after another in `rows`, as one flat run into lines of their own
        length: `slab.vector` elements a copy, by cp.async where planned."""
        if not (_is_const(rows.strides[-1], 1) and _is_const(rows.strides[0], slab.length)) or slab.pitch != slab.length:
            raise CompilerBug(f"the rows of {slab.name} are planned as one run, but they are not (strides "
                              f"{rows.strides}, pitch {slab.pitch})")
        block = self.schedule.block
        r, el = self.fresh("r"), self.fresh("e")
        start = add(rows.offset, mul(base, rows.strides[0]))
        c = TileCopy(shared, rows.ctype, 1, slab.points * slab.length, CopyAxis.CHUNK, block.threads, block_tid(block), r,
                     el, rows.buffer, add(start, kir.Ref(el)), None, kir.Ref(el), span, slab.vector, True, run=True)
        if not slab.asynchronous:
            return copy_tile(c)
        return copy_async(c, self.wide, repeated=self.loop_depth > 0) + (kir.AsyncCommit(), kir.AsyncWait(0))

    def _rows_copy(self, shared: str, view: View, row_of, count: int, length: int, pitch: int, valid_row,
                   width: int, span, asynchronous: bool = False) -> TileCopy:
        """`count` whole rows of `view` as they lie (row r is `row_of(r)`),
        into lines of `pitch` elements: one flat copy, each row's elements
        fastest, so consecutive threads read consecutive addresses where the
        rows lie one after another. Where `length` is a bound on the rows'
        real length (known only at launch), elements past their end are not
        copied (nothing reads them)."""
        block = self.schedule.block
        r, el = self.fresh("r"), self.fresh("e")
        row = row_of(kir.Ref(r))
        real = view.sizes[-1]
        bounded = not (isinstance(real, kir.Const) and real.value == length)  # lines sized by a bound: rows end first
        # past a bounded row's end cp.async still forms an address, though it reads nothing: keep it in the row
        # (a copy through registers loads nothing there)
        column = minimum(kir.Ref(el), kir.Bin("-", real, const(1))) if bounded and asynchronous else kir.Ref(el)
        src_index = add(view.offset, add(mul(row, view.strides[0]), mul(column, view.strides[1])))
        dst = add(mul(kir.Ref(r), const(pitch)), kir.Ref(el))
        valid = valid_row(row) if valid_row else None
        if bounded:
            valid = both(valid, kir.Bin("<", kir.Ref(el), real))
        return TileCopy(shared, view.ctype, count, length, CopyAxis.CHUNK, block.threads, block_tid(block), r, el,
                        view.buffer, src_index, valid, dst, span, width, True)

    def _shared_view(self, ip: InputPlan, ctype: str, chunk: int, buffer: int) -> View:
        """The chunk parameter as a view of its shared tile."""
        st = ip.staging
        shared = self._shared_buffer(ip, ctype, buffer)
        if st.element > 1:
            return View(shared, const(0), (const(st.pitch), const(1)), (const(chunk), const(st.element)), ctype,
                        "shared")
        local = self.indices[st.rows[0]]["local"] if st.rows else const(0)
        width, lane = (st.pack.width, st.pack.lane) if st.pack else (1, 0)
        offset, stride = (local, st.pitch) if st.layout is Layout.TRANSPOSED else (mul(local, const(st.pitch)), 1)
        return View(shared, add(mul(offset, const(width)), const(lane)), (const(stride * width),), (const(chunk),),
                    ctype, "shared")

    def _require_divisible(self, view: View, width: int) -> None:
        """Vector copies need every stride but the unit one to keep rows
        aligned: the sizes they are made of must be multiples of `width`."""
        for term in (*_terms(view.offset), *view.strides):
            for factor in _factors(term):
                if isinstance(factor, kir.Ref) and factor.name in self.size_names:
                    self.divisible[self.size_names[factor.name]] = width

    def _shared_buffer(self, ip: InputPlan, ctype: str, buffer: int) -> str:
        """One buffer per staged input or packed group (two when
        double-buffered), shared by the full-chunk loop and the last chunk."""
        pack = ip.staging.pack
        key = (pack.array if pack else ip.shares or ip.name, ctype, buffer)
        if key not in self.buffers:
            self.buffers[key] = self.fresh(f"sh_{key[0]}")
            lanes = pack.width if pack else 1
            align = target.WGMMA_ALIGN if ip.staging.swizzled else target.DYNAMIC_SHARED_ALIGN
            self.shared.append(kir.SharedAlloc(self.buffers[key], ctype, math.prod(ip.staging.shape) * lanes,
                                               align=align))
        return self.buffers[key]


def _held(stmts, definitions: dict, span) -> dict:
    """What each scalar declared by `stmts` holds, written out in what came
    before them: the lets that pick a joined stream's rows, to be taken at
    any iteration. Only plain declarations qualify (analyse/joins.py)."""
    held = {}
    for s in stmts:
        if not isinstance(s, kir.Decl) or s.name not in definitions:
            raise CompilerBug("the values that pick a joined stream's rows are not plain expressions", span, "lower")
        held[s.name] = substitute(definitions[s.name], held)
    return held


def _terms(e) -> list:
    return _terms(e.a) + _terms(e.b) if isinstance(e, kir.Bin) and e.op == "+" else [e]


def _factors(e) -> list:
    if isinstance(e, kir.Cast):
        return _factors(e.a)
    return _factors(e.a) + _factors(e.b) if isinstance(e, kir.Bin) and e.op == "*" else [e]


def _constant(e) -> int | None:
    """`e`'s value where it is a constant (a 64-bit offset's casts aside)."""
    while isinstance(e, kir.Cast):
        e = e.a
    return e.value if isinstance(e, kir.Const) else None


def _is_const(e, value: int) -> bool:
    """`e` is the constant `value` (a 64-bit offset's casts aside)."""
    return _constant(e) == value

