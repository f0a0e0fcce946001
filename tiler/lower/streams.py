"""Lowering of `streamSeq`, untiled or tiled as the plan says.

Untiled: the whole array is one chunk. Tiled: a loop over chunks of the
planned size; in each, the block copies the tile of every staged input into
shared memory (`CoopCopy`), waits at a barrier, runs the body reading the
staged chunks from shared memory, and waits again before the next copy.
"""
from __future__ import annotations

from .. import kir
from ..analyse import InputPlan, Schedule, StreamPlan
from ..analyse.schedule import Layout
from ..check import typed as T
from ..errors import CompilerBug
from .body import Body, ctype_of
from .copies import TileCopy, copy_tile
from .values import View, add, const, minimum, mul, substitute


class Streams(Body):
    def __init__(self, schedule: Schedule, indices: dict):
        super().__init__()
        self.schedule = schedule
        self.plans = {id(s.site.stream): s for s in schedule.streams}
        self.indices = indices  # kernel dim -> dict(idx=Ref, base=expr, size=expr, local=expr)
        self.shared: list[kir.SharedAlloc] = []
        self.buffers: dict = {}

    def _stream(self, e: T.Stream):
        plan = self.plans.get(id(e))
        arrays = [self.exp(a) for a in e.arrays]
        for a in arrays:
            if not isinstance(a, View):
                raise CompilerBug("a stream input is not an array view", e.span, "lower")
        length = arrays[0].sizes[0]
        accs = [self.declare(p.name, ctype_of(p.type), self.exp(i), e.span, const_=False)
                for p, i in zip(e.acc_params, e.inits)]
        for p, r in zip(e.acc_params, accs):
            self.env[p] = r
        if plan is None or not plan.tiled:
            self.env[e.offset] = const(0)
            self.env[e.chunk] = length
            for p, a in zip(e.chunk_params, arrays):
                self.env[p] = a
            self._carry(e.body, e.acc_params, accs)
        else:
            self._tiled(e, plan, arrays, length, accs)
        return tuple(accs) if len(accs) > 1 else accs[0]

    def _tiled(self, e: T.Stream, plan: StreamPlan, arrays, length, accs) -> None:
        """Full chunks in a loop (constant length, unguarded copies), then the
        last, partial chunk if there is one. Both tests are the same for the
        whole block, so every thread reaches every barrier."""
        size = const(plan.chunk)
        kk = self.fresh(e.offset.name)
        full, _ = self.block(lambda: self._chunk(e, plan, arrays, length, accs, kir.Ref(kk), size, guarded=False))
        last_full = kir.Bin("-", length, const(plan.chunk - 1))
        self.emit(kir.For(kk, const(0), last_full, size, full, e.span))
        tail = self.declare(f"{e.offset.name}_last", "int", kir.Bin("-", length, kir.Bin("%", length, size)))
        chunk = kir.Bin("-", length, tail)
        rest, _ = self.block(lambda: self._chunk(e, plan, arrays, length, accs, tail, chunk, guarded=True))
        self.emit(kir.If(kir.Bin("<", tail, length), rest, (), e.span))

    def _chunk(self, e: T.Stream, plan: StreamPlan, arrays, length, accs, start, chunk, guarded: bool) -> None:
        self.env[e.offset] = start
        if not isinstance(chunk, kir.Const):
            chunk = self.declare(e.chunk.name, "int", chunk)
        self.env[e.chunk] = chunk
        for p, view, ip in zip(e.chunk_params, arrays, plan.inputs):
            if ip.staged:
                self.env[p] = self._stage(p.name, ip, view, start, length, plan.chunk, e, guarded)
            else:
                self.env[p] = view.shifted(start)
        self.emit(kir.Barrier("the tiles are written"))
        self._carry(e.body, e.acc_params, accs)
        self.emit(kir.Barrier("the tiles are read before the next copy"))

    def _stage(self, name: str, ip: InputPlan, view: View, kk, length, chunk: int, e, guarded: bool) -> View:
        """Emit the cooperative copy of one tile; the chunk parameter becomes a shared view."""
        block, st = self.schedule.block, ip.staging
        rows = st.tile[0] if st.rows else 1
        transposed = st.layout is Layout.TRANSPOSED
        pitch = st.pitch
        shared = self._shared_buffer(name, view.ctype, (chunk if transposed else rows) * pitch)
        r, el = self.fresh("r"), self.fresh("e")
        source = view
        if st.rows:  # the copy reads the rows of the block's other threads
            (d,) = st.rows
            ix = self.indices[d]
            other = minimum(add(ix["base"], kir.Ref(r)), kir.Bin("-", ix["size"], const(1)))
            source = substitute(view, {ix["idx"].name: other})
        element = add(kk, kir.Ref(el))
        src_index = add(source.offset, mul(element, source.strides[0]))
        dst = add(mul(kir.Ref(el), const(pitch)), kir.Ref(r)) if transposed else \
            add(mul(kir.Ref(r), const(pitch)), kir.Ref(el))
        valid = kir.Bin("<", element, length) if guarded else None
        copy = TileCopy(shared, view.ctype, rows, chunk, st.copy.axis, block.threads, _tid(block), r, el,
                        view.buffer, src_index, valid, dst, e.span)
        for stmt in copy_tile(copy):
            self.emit(stmt)
        local = self.indices[st.rows[0]]["local"] if st.rows else const(0)
        if transposed:
            return View(shared, local, (const(pitch),), (const(chunk),), view.ctype, "shared")
        return View(shared, mul(local, const(pitch)), (const(1),), (const(chunk),), view.ctype, "shared")

    def _shared_buffer(self, name: str, ctype: str, elems: int) -> str:
        """One buffer per staged input, shared by the full-chunk loop and the last chunk."""
        key = (name, ctype, elems)
        if key not in self.buffers:
            self.buffers[key] = self.fresh(f"sh_{name}")
            self.shared.append(kir.SharedAlloc(self.buffers[key], ctype, elems))
        return self.buffers[key]


def _tid(block) -> object:
    """The linear thread index within the block (threadIdx.x fastest)."""
    tid = kir.ThreadIdx("x")
    if len(block.spans) > 1:
        tid = add(mul(kir.ThreadIdx("y"), const(block.extents[block.spans[0]])), tid)
    return tid
