"""Lowering of `streamSeq`, untiled or tiled as the plan says.

Untiled: the whole array is one chunk. Tiled: a loop over chunks of the
planned size; in each, the block copies the tile of every staged input into
shared memory (`CoopCopy`), waits at a barrier, runs the body reading the
staged chunks from shared memory, and waits again before the next copy.
"""
from __future__ import annotations

from .. import kir
from ..analyse import Analysis, InputPlan, StreamPlan
from ..check import typed as T
from ..errors import CompilerBug
from .body import Body, ctype_of
from .values import View, add, const, minimum, mul, substitute


class Streams(Body):
    def __init__(self, analysis: Analysis, indices: dict):
        super().__init__()
        self.a = analysis
        self.plans = {id(s.site.stream): s for s in analysis.streams}
        self.indices = indices  # kernel dim -> dict(idx=Ref, base=expr, size=expr, local=expr)
        self.shared: list[kir.SharedAlloc] = []

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
        kk = self.fresh(e.offset.name)
        self.env[e.offset] = kir.Ref(kk)

        def chunk_body():
            chunk = self.declare(e.chunk.name, "int", minimum(const(plan.chunk), kir.Bin("-", length, kir.Ref(kk))))
            self.env[e.chunk] = chunk
            for p, view, ip in zip(e.chunk_params, arrays, plan.inputs):
                if ip.staged:
                    self.env[p] = self._stage(p.name, ip, view, kir.Ref(kk), length, plan.chunk, e)
                else:
                    self.env[p] = view.shifted(kir.Ref(kk))
            self.emit(kir.Barrier("the tiles are written"))
            # a full chunk has a constant length, so loops over it unroll; only the
            # last chunk is partial. The test is the same for the whole block.
            self.env[e.chunk] = const(plan.chunk)
            full, _ = self.block(lambda: self._carry(e.body, e.acc_params, accs))
            self.env[e.chunk] = chunk
            partial, _ = self.block(lambda: self._carry(e.body, e.acc_params, accs))
            self.emit(kir.If(kir.Bin("==", chunk, const(plan.chunk)), full, partial, e.span))
            self.emit(kir.Barrier("the tiles are read before the next copy"))

        stmts, _ = self.block(chunk_body)
        self.emit(kir.For(kk, const(0), length, const(plan.chunk), stmts, e.span))

    def _stage(self, name: str, ip: InputPlan, view: View, kk, length, chunk: int, e) -> View:
        """Emit the cooperative copy of one tile; the chunk parameter becomes a shared view."""
        block = self.a.block
        rows = ip.tile[0] if ip.rows else 1
        transposed = ip.layout == "transposed"
        pitch = (rows if transposed else chunk) + ip.padding
        elems = (chunk if transposed else rows) * pitch
        shared = self.fresh(f"sh_{name}")
        self.shared.append(kir.SharedAlloc(shared, view.ctype, elems))
        r, el = self.fresh("r"), self.fresh("e")
        source = view
        if ip.rows:  # the copy reads the rows of the block's other threads
            (d,) = ip.rows
            ix = self.indices[d]
            other = minimum(add(ix["base"], kir.Ref(r)), kir.Bin("-", ix["size"], const(1)))
            source = substitute(view, {ix["idx"].name: other})
        element = add(kk, kir.Ref(el))
        src_index = add(source.offset, mul(element, source.strides[0]))
        dst = add(mul(kir.Ref(el), const(pitch)), kir.Ref(r)) if transposed else \
            add(mul(kir.Ref(r), const(pitch)), kir.Ref(el))
        fastest = "rows" if ip.copy.startswith("along the rows") else "chunk"
        self.emit(kir.CoopCopy(shared, view.ctype, rows, chunk, fastest, block.threads, _tid(block), r, el,
                               view.buffer, src_index, kir.Bin("<", element, length), dst, e.span))
        local = self.indices[ip.rows[0]]["local"] if ip.rows else const(0)
        if transposed:
            return View(shared, local, (const(pitch),), (const(chunk),), view.ctype, "shared")
        return View(shared, mul(local, const(pitch)), (const(1),), (const(chunk),), view.ctype, "shared")


def _tid(block) -> object:
    """The linear thread index within the block (threadIdx.x fastest)."""
    tid = kir.Special("threadIdx.x")
    if len(block.spans) > 1:
        tid = add(mul(kir.Special("threadIdx.y"), const(block.extents[block.spans[0]])), tid)
    return tid
