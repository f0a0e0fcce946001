"""The program rewritten in the design note's translated notation.

`show_transformed(program_ast, analysis)` -> text: for every tiled stream, a
`let shMem_X = copyFastMem(...)` between the stream and its body, and the
body's reads `X[e]` replaced by reads of `shMem_X`, with comments giving the
block and the fast memory, as in the note's "How to Implement Tiling?". It
is for people to read; tiler does not parse it back. For a register-tiled
plan that is step 1 of three; steps 2 and 3 are the kernel the register
tiling rewrites made (kernel_steps.py), not a drawing of it.
"""
from __future__ import annotations

import dataclasses
import textwrap

from ..analyse import Analysis
from ..analyse.folds import described
from ..analyse.reductions import COLUMN_ROWS
from ..analyse.schedule import CopyAxis, Layout
from ..syntax import ast, pretty
from ..tree import map_children
from ..versions.shown import pipelined
from .hoisted import with_hoisted
from .kernel_steps import ONE_POINT, STEPS, kernel_steps
from .loop_streams import loop_streams, with_loop_streams, without_positions
from .source_nodes import kernel_maps, main_of, names_in, span_key

AXIS = {"x": "threadIdx.x", "y": "threadIdx.y"}


def show_transformed(program: ast.Program, a: Analysis, shown: list = (), fission=None) -> str:
    """`shown`: (versions.shown.Shown, its kernel lowered with its copies
    synchronous) for the program and a fissioned fold's pairs; `fission`:
    the fold fissioned (versions.FissionPlan), or not."""
    split = a.plan.split
    program, moved = with_hoisted(program, a.kernel)  # the work stage `kernel` moved, moved here too
    if split is not None and split.active and split.min_length is None:
        return _split(program, a, moved)
    program, positions = with_loop_streams(program, loop_streams(a.kernel))  # drawn as the streams they became
    plans = {span_key(s.site.stream.origin or s.site.stream): s for s in a.streams
             if s.tiled and (s.site.stream.origin is not None or s.site.stream.loop)}
    comments = {**moved, _nest_position(program): _block_comments(a)}
    for s in plans.values():
        comments[span_key(s.site)] = [f"fast memory: {_tile_decl(p)}" for p in s.inputs if p.copied] + [
            f"chunk = {s.chunk} (the last chunk may be shorter); copies guard the array's end"] + _elements(a, s) \
            + _joined(s)
    rewritten = _Rewriter(plans, a).program(without_positions(_with_promotions(program, a), positions))
    text = pretty(rewritten, comments) if a.block.register is None else \
        _three_steps(rewritten, comments, a, shown[0])
    return text + _fissioned(shown[1] if len(shown) > 1 else None, fission)


def _fissioned(pairs, fission) -> str:
    """A fissioned fold's pairs' kernel (the launch's first versions, under
    their gates), as tiler writes it: after each register tiling rewrite, or
    once where it has no register tile."""
    if pairs is None:
        return ""
    steps = kernel_steps(pairs[1])
    head = (f"the fissioned versions, which the launch runs first where their gates hold: {fission.reason}. "
            f"Their pairs' kernel, as tiler writes it, with its copies drawn one line each"
            f"{_synchronous(pairs[0])}")
    if steps[0][0] == ONE_POINT:
        return "\n" + _header(head + ", one point a thread (no register tile)") + steps[0][1]
    texts = [_header(f"{head} {STEPS[name]}" if n == 0 else STEPS[name]) + body for n, (name, body) in enumerate(steps)]
    return "\n" + "\n".join(texts)


def _synchronous(shown) -> str:
    return " and synchronous (--show-rewrites prints the kernel's own, pipelined)." if pipelined(shown.schedule) else "."


def _split(program: ast.Program, a: Analysis, moved: dict) -> str:
    """Rows run by T threads each: the reductions they split, the inner maps they share."""
    split = a.plan.split
    counts = sorted({c.lanes for c in split.choices if not c.several}) or [split.choices[0].lanes]
    lanes = ", ".join(map(str, counts[:-1])) + f" or {counts[-1]}" if len(counts) > 1 else str(counts[0])
    maps = kernel_maps(program, len(a.kernel.levels))
    rows = "map level 0" if split.rows == 1 else f"map levels 0 to {split.rows - 1}"
    comments = {**moved, span_key(maps[0]): [f"rows ({rows}): each run by T = {lanes} threads (chosen at launch by the "
                                    f"rows' count and length); every thread of a row runs the row's code"]}
    if split.columns:
        comments[span_key(maps[0])].append(
            f"rows side by side: a block holds {COLUMN_ROWS} consecutive rows along its warps, each row's T threads "
            "down the block, so that a warp's reads of one step are one run of memory")
    several = next((c for c in split.choices if c.several), None)
    if several is not None:
        comments[span_key(maps[0])].append(
            f"or, for {'few' if split.columns else 'fewer rows than SMs and'} long ones, by {several.who}: a kernel "
            "each split reduction, "
            "whose blocks leave their shares' sum (by its operator) in scratch memory; the next kernel combines "
            "them, in the same order in every block, and the last one runs the rest of the row")
    for n, m in enumerate(maps[split.rows:]):
        last = n == len(maps) - split.rows - 1
        comments[span_key(m)] = ["the row's T threads share these points: thread t computes points t, t + T, ..."
                                 if last else "each of the row's threads walks these points in a loop"]
    for r in split.reductions:
        if r.split:
            ops = described(r.operators)
            start = "the streamRed's initial values" if r.combine is not None else "the operator's identity"
            comments[(r.span.line, r.span.col)] = [
                f"split by {ops}: thread t of the row folds iterations t, t + T, ... from {start}; "
                "the T shares are combined (warp shuffles, then shared memory) and then with the start value"]
    return pretty(program, comments)


def _joined(s) -> list[str]:
    j = s.join
    if j is None or not j.joined:
        return []
    return [f"rows joined with the loop at {j.loop.span.line}:{j.loop.span.col}: one stream over the rows of all "
            "its iterations, laid end to end; a chunk may hold the end of one row and the start of the next"]


def _three_steps(rewritten: ast.Program, comments: dict, a: Analysis, shown) -> str:
    """The note's register tiling: the block-tiled program, then the kernel
    the register tiling rewrites made of it (kernel_steps.py): strip-mined,
    interchanged and sequentialised."""
    b = a.block
    strips = " and ".join(f"dimension {d} by T{d} = {b.micro(d)}" for d in sorted(b.spans) if b.micro(d) > 1)
    steps = dict(kernel_steps(shown[1]))
    return "\n".join([
        _header("step 1 of 3, block tiling: the tiles a block shares in fast memory, one point a thread")
        + pretty(rewritten, comments),
        _header(f"step 2 of 3, strip-mining {strips}. From here on, the kernel tiler writes for this plan, as "
                f"the register tiling rewrites made it, with its copies drawn one line each{_synchronous(shown[0])} "
                + STEPS["strip-mine"])
        + steps["strip-mine"],
        _header("step 3 of 3, sequentialising, in two rewrites. " + STEPS["interchange"])
        + steps["interchange"],
        _header(STEPS["sequentialise"]) + steps["sequentialise"],
    ])


def _header(text: str) -> str:
    return "".join(f"-- {line}\n" for line in textwrap.wrap(text, 96))


def _inputs(a: Analysis) -> dict:
    """Every stream's count of arrays streamed, by its place in the source."""
    return {span_key(site): len(site.inputs) for site in a.variance.streams}


def _with_promotions(program: ast.Program, a: Analysis) -> ast.Program:
    """The source with the index reads the kernel stage made stream inputs written as such:
    `B[kk + k, j]` read as `B_c[k]`, `B_c` a new chunk of `transpose(B)[j]`."""
    params = {span_key(r.read): (r.param, str(r.read.type)) for r in a.kernel.promoted if r.param}
    if not params:
        return program
    inputs = _inputs(a)  # the kernel's count: the source's arrays and the promoted ones

    def stream(e):
        e = _map(e, stream)  # an inner stream's reads are its own
        if not isinstance(e, ast.StreamSeq):
            return e
        offset, found = e.lam.params[0].name, {}

        def read(x):
            key = span_key(x) if isinstance(x, ast.Index) else None
            if key not in params or not any(offset in names_in(i) for i in x.indices):
                return _map(x, read)
            at = next(n for n, i in enumerate(x.indices) if offset in names_in(i))
            others = x.indices[:at] + x.indices[at + 1:]
            whole = x.array if at == len(x.indices) - 1 else ast.Transpose(x.array)
            name, elem = params[key]
            found.setdefault(name, (ast.Index(whole, others) if others else whole, elem))
            return ast.Index(ast.Var(name), (_step(x.indices[at], offset),))

        body = read(e.lam.body)
        if not found or span_key(e) not in inputs:
            return e
        count, size = inputs[span_key(e)] - len(found), e.lam.params[1].type.size
        new = tuple(ast.Param(ast.TArray(ast.TScalar(elem), size), n) for n, (_, elem) in found.items())
        lam = dataclasses.replace(e.lam, body=body, params=e.lam.params[:1 + count] + new + e.lam.params[1 + count:])
        args = e.args[:count] + tuple(a for a, _ in found.values()) + e.args[count:]
        return dataclasses.replace(e, lam=lam, args=args)

    return dataclasses.replace(program, funs=tuple(dataclasses.replace(f, body=stream(f.body)) for f in program.funs))


def _step(index, offset: str):
    """`kk + k` less the stream's offset `kk`: `k`."""
    if isinstance(index, ast.BinOp) and index.op == "+":
        if isinstance(index.lhs, ast.Var) and index.lhs.name == offset:
            return index.rhs
        if isinstance(index.rhs, ast.Var) and index.rhs.name == offset:
            return index.lhs
    return ast.BinOp("-", index, ast.Var(offset))


def _elements(a: Analysis, s) -> list[str]:
    """A 1-D block copying a tile with rows walks it with one index, e."""
    if len(a.block.spans) > 1 or not any(p.copied and p.staging.rows for p in s.inputs):
        return []
    return [f"a copy's elements: e = threadIdx.x + {a.block.threads} * step, for every step inside the tile"]


def _nest_position(program: ast.Program):
    e = main_of(program).body
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
    if b.register is not None:
        covers = " x ".join(str(b.points(d)) for d in sorted(b.spans))
        lines.append(f"register tile: {b.register.points} points a thread, a block covers {covers} (steps 2 and 3)")
    return lines


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
        if isinstance(e, ast.StreamSeq) and span_key(e) in self.plans:
            return self.stream(e, self.plans[span_key(e)])
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
