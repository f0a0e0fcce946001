"""The program rewritten in the design note's translated notation.

`show_transformed(program_ast, analysis)` -> text: for every tiled stream, a
`let shMem_X = copyFastMem(...)` between the stream and its body, and the
body's reads `X[e]` replaced by reads of `shMem_X`, with comments giving the
block and the fast memory, as in the note's "How to Implement Tiling?". It
is for people to read; tiler does not parse it back.
"""
from __future__ import annotations

import dataclasses

from ..analyse import Analysis
from ..analyse.schedule import CopyAxis, Layout
from ..syntax import ast, pretty
from ..tree import map_children

AXIS = {"x": "threadIdx.x", "y": "threadIdx.y"}


def show_transformed(program: ast.Program, a: Analysis) -> str:
    plans = {id(s.site.stream.origin): s for s in a.streams if s.tiled}
    comments = {_nest_position(program): _block_comments(a)}
    for s in plans.values():
        comments[(s.site.span.line, s.site.span.col)] = [f"fast memory: {_tile_decl(p)}" for p in s.inputs if p.copied] + [
            f"chunk = {s.chunk} (the last chunk may be shorter); copies guard the array's end"] + _elements(a, s)
    rewritten = _Rewriter(plans, a).program(program)
    return pretty(rewritten, comments)


def _elements(a: Analysis, s) -> list[str]:
    """A 1-D block copying a tile with rows walks it with one index, e."""
    if len(a.block.spans) > 1 or not any(p.copied and p.staging.rows for p in s.inputs):
        return []
    return [f"a copy's elements: e = threadIdx.x + {a.block.threads} * step, for every step inside the tile"]


def _nest_position(program: ast.Program):
    main = next((f for f in program.funs if f.name == "main"), program.funs[-1])
    e = main.body
    while isinstance(e, ast.Let):
        e = e.body
    return (e.span.line, e.span.col)


def _block_comments(a: Analysis) -> list[str]:
    b = a.block
    threads = " x ".join(str(b.extents[d]) for d in b.spans)
    axes = ", ".join(f"dimension {d} -> {AXIS.get(b.thread_axis[d], '?')}" for d in b.spans)
    lines = [f"{len(b.spans)}-D block of {threads} threads: {axes}"]
    if len(b.spans) == 2:
        lines.append(f"tid = threadIdx.y * {b.extents[b.spans[0]]} + threadIdx.x")
    return lines + _register_steps(a)


def _register_steps(a: Analysis) -> list[str]:
    """The design note's register tiling, its three steps in its words."""
    b = a.block
    if b.register is None:
        return []
    dims = [d for d in b.spans if b.micro(d) > 1]
    strips = " and ".join(f"dimension {d} by T{d} = {b.micro(d)}" for d in dims)
    staged = [p for s in a.streams if s.tiled for p in s.inputs if p.staged]
    reuse = "; ".join(f"{p.name}[k] once for the T{d} points of dimension {d}" for p in staged
                      for d in sorted(p.invariant_to & frozenset(dims)))
    return [f"register tile ({b.register.points} points a thread), in three steps:",
            f"  1. strip-mine {strips}: each thread takes a strip of "
            f"{' x '.join(str(b.micro(d)) for d in sorted(dims))} points "
            f"(a block covers {' x '.join(str(b.points(d)) for d in sorted(b.spans))})",
            "  2. interchange the strip inward, through the streamSeq and its loop over k",
            f"  3. sequentialise it: per k, read {reuse} into registers; "
            f"{b.register.points} accumulators, one a point"]


def _tile_decl(p) -> str:
    st = p.staging
    dims = "".join(f"[{n}]" for n in st.shape)
    layout = f" ({st.layout.value}{', padded' if st.padding else ''})" if st.rows else ""
    return f"shMem_{p.name}{dims}{layout}"


class _Rewriter:
    def __init__(self, plans: dict, a: Analysis):
        self.plans, self.a = plans, a

    def program(self, prog: ast.Program) -> ast.Program:
        return dataclasses.replace(prog, funs=tuple(dataclasses.replace(f, body=self.exp(f.body)) for f in prog.funs))

    def exp(self, e):
        if isinstance(e, ast.StreamSeq) and id(e) in self.plans:
            return self.stream(e, self.plans[id(e)])
        return _map(e, self.exp)

    def stream(self, e: ast.StreamSeq, plan) -> ast.StreamSeq:
        lam = e.lam
        body = self.exp(lam.body)
        for p in reversed([p for p in plan.inputs if p.staged]):
            body = _replace_reads(body, p.name, lambda idx, p=p: self.shared_read(p, idx), 1 + (p.element > 1))
        for p in reversed([p for p in plan.inputs if p.copied]):
            targets = self.copy_targets(p)
            index = tuple(ast.Var(t) for t in targets) if p.element > 1 else (self.copy_index(p),)
            copy = ast.Call("copyFastMem", (ast.Index(ast.Var(p.name), index),) + tuple(ast.Var(t) for t in targets))
            body = ast.Let((f"shMem_{p.name}",), False, copy, body, e.span)
        return dataclasses.replace(e, lam=dataclasses.replace(lam, body=body), args=tuple(self.exp(x) for x in e.args))

    def row_axes(self, p) -> list[str]:
        return [AXIS[self.a.block.thread_axis[d]] for d in p.staging.rows]

    def chunk_axis(self, p) -> str:
        """The thread index that walks the chunk in the copy."""
        if not p.staging.rows:
            return "threadIdx.x" if len(self.a.block.spans) == 1 else "tid"
        if len(self.a.block.spans) == 1:  # one index for both: the chunk fastest
            return f"e % {p.staging.tile[-1]}"
        return "threadIdx.y" if p.staging.copy.axis is CopyAxis.ROWS else "threadIdx.x"

    def copy_index(self, p):
        return ast.Var(self.chunk_axis(p))

    def copy_targets(self, p) -> list[str]:
        if p.element > 1:  # a chunk of rows: one flat copy, the row's elements fastest
            return [f"e / {p.element}", f"e % {p.element}"]
        chunk = self.chunk_axis(p)
        if not p.staging.rows:
            return [chunk]
        if len(self.a.block.spans) == 1:
            row = f"e / {p.staging.tile[-1]}"
        else:
            row = "threadIdx.x" if chunk == "threadIdx.y" else "threadIdx.y"
        return [chunk, row] if p.staging.layout is Layout.TRANSPOSED else [row, chunk]

    def shared_read(self, p, idx):
        if p.element > 1:
            return ast.Index(ast.Var(f"shMem_{p.shares or p.name}"), idx)
        idx = idx[0]
        rows = [ast.Var(a) for a in self.row_axes(p)]
        indices = (idx, *rows) if p.staging.layout is Layout.TRANSPOSED else (*rows, idx)
        return ast.Index(ast.Var(f"shMem_{p.shares or p.name}"), tuple(indices))


def _replace_reads(e, name: str, make, arity: int):
    """Reads `name[i]` (`name[j, f]` for a chunk of rows: `arity` 2) made `make((i,))`."""
    if isinstance(e, ast.Index) and isinstance(e.array, ast.Var) and e.array.name == name and \
            len(e.indices) == arity:
        return make(tuple(_replace_reads(i, name, make, arity) for i in e.indices))
    if isinstance(e, ast.Lambda) and any(p.name == name for p in e.params):
        return e  # the name is rebound inside
    return _map(e, lambda c: _replace_reads(c, name, make, arity))


def _map(e, f):
    return map_children(e, f, ast.is_node)
