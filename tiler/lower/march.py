"""The march of a 3-D window (analyse/march.py): one kernel.

A block takes a tile of the plane (threads along the array's last axis on
threadIdx.x, its middle one on threadIdx.y, each thread `points`
consecutive rows) and a run of `chunk` planes along the marched
dimension, on grid z. Each of its points' rows keeps a queue of registers,
the array's elements at the point's column from the lowest offset along
the march to the highest; a step shifts them by one. The plane under the
step is written to a shared buffer (its interior from the queues' own
elements, its halo from loads made the step before), a barrier, then the
next step's loads are issued, then each point's body runs, its column
reads picking a register of its queue (a chain of selects on the read's
offset, which nvcc folds once the loops around the read are unrolled) and
its plane reads indexing the buffer (at unclamped indices in the steps
inside every edge, so that nvcc loads a neighbour two of a thread's rows
share once); a second barrier before the next step writes it. (Two
buffers taking turns, one barrier a step, took two steps a loop trip and
104 registers against 72, and ran no faster: 0.766 against 0.773 ms for
the 25-point star at 512^3 on an H200, session24d.)

Every thread walks every step (the block's run is the same for all of
them); a thread past the plane's edges computes its rows at clamped
indices and stores nothing. Every load is clamped into the array, so an
element past an edge is one no executed read uses.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from functools import reduce

from .. import kir, target
from ..analyse import Analysis
from ..analyse.march import March, inside_body
from ..analyse.window_tile import UNROLL_LIMIT
from ..check import typed as T
from ..check.types import Binder
from ..kir.bounds import value_range
from ..kir.build import add, const, mul, trip_count
from ..kir.walkers import walk
from ..source import program_stem
from ..tree import map_children
from .body import value_parts
from .invariant import Input, hoisted
from .params import bind_prelude, flat_index, kernel_params, output_stores, size_expr, size_name
from .streams import Streams
from .values import View, all_of, clamped, minimum

KIND = "march"  # the kernel's name: tiler_<program>_march


def march_name(file: str) -> str:
    return f"tiler_{program_stem(file)}_{KIND}"


@dataclass(frozen=True)
class Queue:
    """A row's queue as the body reads it: element `i` of `names` holds the
    array at offset `low + i` along the march from the point `at`."""

    names: tuple[str, ...]
    low: int
    at: object

    def index(self, indices):
        offset = kir.Bin("-", indices[0], self.at)
        out = kir.Ref(self.names[-1])
        for i in reversed(range(len(self.names) - 1)):
            out = kir.Select(kir.Bin("==", offset, const(self.low + i)), kir.Ref(self.names[i]), out)
        return out


def lower_march(analysis: Analysis, m: March, file: str) -> kir.Kernel:
    k, column, plane = _split_reads(analysis.kernel, m)
    schedule = analysis.plan.untiled
    low = Streams(schedule, {}, False, None, False)
    params = kernel_params(low, k, lambda extent: extent, schedule.fixed, frozenset())
    bind_prelude(low, k)
    levels = {lv.dim: lv for lv in k.levels}
    n_z, n_y, n_x = (size_expr(low, levels[d].size) for d in m.dims)
    array = low.env[m.binder]
    threads_x, threads_y = m.threads
    (q_low, q_high), (r_low, _), (c_low, _) = m.queue, m.rows, m.cols
    plane_rows, plane_cols = m.plane
    interior, width = m.tile

    def declare(name, value, ctype="int", fixed=True):
        return low.declare(name, ctype, value, const_=fixed)

    def into(i, axis: int):
        return clamped(i, kir.Bin("-", array.sizes[axis], const(1)))

    def within(y, x, name: str):  # an element's offset within its plane, each index clamped into the array
        return declare(name, add(mul(into(y, 1), array.strides[1]), mul(into(x, 2), array.strides[2])))

    def load(z, at):  # the array's element at offset `at` within plane `z` (clamped into it)
        return kir.Load(array.buffer, add(add(array.offset, mul(into(z, 0), array.strides[0])), at))

    # a thread's points: `points` consecutive rows from y, at its column x
    x_first = declare("x_first", mul(kir.Cast("int", kir.BlockIdx("x")), const(width)))
    x = declare("x", add(x_first, kir.ThreadIdx("x")))
    y_first = declare("y_first", mul(kir.Cast("int", kir.BlockIdx("y")), const(interior)))
    z_first = declare("z_first", mul(kir.Cast("int", kir.BlockIdx("z")), const(m.chunk)))
    z_end = declare("z_end", kir.Call("min", (add(z_first, const(m.chunk)), n_z)))
    y = declare("y", add(y_first, mul(kir.ThreadIdx("y"), const(m.points))))
    ys = [add(y, const(r)) for r in range(m.points)]
    x_in = declare("x_in", minimum(x, kir.Bin("-", n_x, const(1))))
    ys_in = [declare(f"y{r}_in", minimum(row, kir.Bin("-", n_y, const(1)))) for r, row in enumerate(ys)]
    ctype = array.ctype
    queues, columns = [], [within(row, x, f"column{r}") for r, row in enumerate(ys)]
    for r, at in enumerate(columns):  # offsets q_low .. q_high - 1 at the first step's start (slot 0 is shifted out)
        names = [low.fresh(f"q{r}_{i}") for i in range(m.depth)]
        for i in range(1, m.depth):
            low.emit(kir.Decl(names[i], ctype, load(add(z_first, const(q_low + i - 1)), at), False))
        low.emit(kir.Decl(names[0], ctype, kir.Ref(names[1]), False))
        queues.append(tuple(names))
    frame = _frame(m, declare, within, y_first, x_first)
    fronts = [low.fresh(f"front{r}") for r in range(m.points)]
    halo = [low.fresh(f"halo{j}") for j in range(len(frame))]

    def fetched(z):  # the loads a step at `z` writes to shared memory: its queues' new elements, its plane's halo
        return [load(add(z, const(q_high)), at) for at in columns] + [load(z, at) for _, _, at, _ in frame]
    for name, value in zip(fronts + halo, fetched(z_first)):
        low.emit(kir.Decl(name, ctype, value, False))
    buffer = low.fresh(f"{m.array}_plane")
    size = target.SIZEOF[ctype]  # (whole 16-byte lines, as every shared array tiler allocates)
    low.shared.append(kir.SharedAlloc(buffer, ctype, -(-plane_rows * plane_cols * size // 16) * 16 // size))
    slots = [declare(f"slot{r}", add(mul(add(mul(kir.ThreadIdx("y"), const(m.points)), const(r - r_low)),
                                         const(plane_cols)), add(kir.ThreadIdx("x"), const(-c_low))))
             for r in range(m.points)]
    # the plane's first element, less: a read's index in a buffer is its own, less this; signed, so that nvcc
    # folds a read's constant offset into its address (the grid's limits and 2^31 elements keep it in an int)
    first = declare("plane_first", add(mul(add(y_first, const(r_low)), const(plane_cols)), add(x_first, const(c_low))))
    outputs = [p for p in params if p.role == "output"]
    sizes = [size_expr(low, lv.size) for lv in k.levels]
    z = low.fresh("z")
    k_inside = inside_body(k, m) if m.inside else None
    block_inside = None
    if m.inside:
        # the block's tile of the plane and its halo lie inside the array: every row of every thread is in range
        block_inside = declare("block_inside", all_of((
            kir.Bin(">=", y_first, const(-r_low)), kir.Bin("<=", add(y_first, const(interior + m.rows[1])), n_y),
            kir.Bin(">=", x_first, const(-c_low)), kir.Bin("<=", add(x_first, const(width + m.cols[1])), n_x))),
            "bool")

    def step(at) -> tuple:
        body = []
        for names, front, slot in zip(queues, fronts, slots):
            body += [kir.Assign(a, kir.Ref(b)) for a, b in zip(names, names[1:])]
            body += [kir.Assign(names[-1], kir.Ref(front)),
                     kir.Store(buffer, slot, kir.Ref(names[-q_low]), kir.SHARED)]
        for (f, total, _, slot), name in zip(frame, halo):
            store = kir.Store(buffer, slot, kir.Ref(name), kir.SHARED)
            body.append(kir.If(kir.Bin("<", f, const(total)), (store,)) if total is not None else store)
        body.append(kir.Barrier(f"the plane of {m.array} is staged before its points read it"))
        following = add(at, const(1))
        body.append(kir.If(kir.Bin("<", following, z_end),
                           tuple(kir.Assign(n, v) for n, v in zip(fronts + halo, fetched(following)))))
        def points(kernel: T.Kernel, clamp: bool = True) -> tuple:
            # inside every edge a point's indices need no clamp, and unclamped nvcc sees the plane reads that a
            # thread's points share (one row's neighbour is the next row's) as the same address, loaded once
            out = ()
            for r, queue in enumerate(queues):
                out += _point(low, kernel, m, (at, ys_in[r] if clamp else ys[r], x_in if clamp else x),
                              Queue(queue, q_low, at), column, plane,
                              View(buffer, kir.Un("-", first), (const(0), const(plane_cols), const(1)), array.sizes,
                                   ctype, kir.SHARED),
                              kir.Bin("&&", kir.Bin("<", ys[r], n_y), kir.Bin("<", x, n_x)), outputs, sizes)
            return out
        if block_inside is None:
            return tuple(body) + points(k)
        # a step whose points all lie inside by the window's extent runs the body with the edge tests decided
        within = kir.Bin("&&", block_inside, kir.Bin("&&", kir.Bin(">=", at, const(-q_low)),
                                                     kir.Bin("<", add(at, const(q_high)), n_z)))
        body.append(kir.If(within, points(k_inside, clamp=False), points(k)))
        return tuple(body)

    walked = step(kir.Ref(z)) + (kir.Barrier("the plane is read before the next step writes it"),)
    held, march = hoisted(kir.For(z, z_first, z_end, const(1), walked), _inputs(low, k), low.fresh)
    body = tuple(low.out) + held + (march,)
    summary = (f"march: {' x '.join(map(str, m.threads))} threads, {m.points} consecutive row(s) a thread, "
               f"{m.chunk} planes of "
               f"{m.array} along dim {m.dims[0]} a block; each plane staged with its halo "
               f"({plane_rows} x {plane_cols}), the column in {m.depth} registers a row" +
               (f"; {', '.join(sorted({x.buffer for x in walk(held) if isinstance(x, kir.Load)}))} read once "
                "before the march, where no step changes the index" if held else ""),)
    grid = [None, None, None]
    for d, axis, points in m.grid():
        grid[target.AXES.index(axis)] = (size_name(levels[d].size), points)
    # (the launch runs it only within grid y's and z's blocks: its version's condition; the kernel says so too)
    limits = tuple(sorted((levels[d].size.name, most) for d, most in m.grid_limits()
                          if not isinstance(levels[d].size, int)))
    return kir.Kernel(march_name(file), tuple(params), tuple(low.shared), body, (threads_x, threads_y, 1),
                      tuple(grid), True, file, summary, k.span, bounds=limits, occupancy=m.blocks)


def _inputs(low, k: T.Kernel) -> dict[str, Input]:
    """The kernel's read-only arrays by buffer: what a step may read before the march (lower/invariant.py)."""
    views = [low.env.get(p) for p in k.params]
    return {v.buffer: Input(reduce(mul, v.sizes, const(1)), v.ctype) for v in views
            if isinstance(v, View) and v.buffer is not None and v.space == kir.GLOBAL}


def _split_reads(k: T.Kernel, m: March) -> tuple[T.Kernel, Binder, Binder]:
    """`k` with each read of the marched array made a read of one of two new
    names, its queue's (a column read) or its plane's (any other)."""
    column = Binder(f"{m.array}_column", m.binder.type, "let", m.binder.span)
    plane = Binder(f"{m.array}_plane", m.binder.type, "let", m.binder.span)
    reads = {id(r) for r in m.reads}

    def swapped(e):
        if isinstance(e, T.Index) and id(e) in reads:
            to = column if id(e) in m.column else plane
            return dataclasses.replace(e, array=T.Var(to, to.type, e.array.span),
                                       indices=tuple(swapped(i) for i in e.indices))
        return map_children(e, swapped, T.is_exp)
    levels = tuple(dataclasses.replace(lv, lets=tuple((bs, swapped(v)) for bs, v in lv.lets)) for lv in k.levels)
    return dataclasses.replace(k, levels=levels, body=swapped(k.body)), column, plane


def _frame(m: March, declare, within, y_first, x_first) -> list[tuple]:
    """The plane's halo, shared among the block's threads: for each of a
    thread's loads a step, (its element's number in the halo, the halo's
    elements where the last load may pass them else None, its offset within
    a plane of the array, its place in a plane buffer), each declared once.
    The halo's elements are numbered band by band: the rows above the
    block's, those below, then the columns left and right of its rows."""
    threads_x, threads_y = m.threads
    threads = threads_x * threads_y
    plane_rows, plane_cols = m.plane
    above, below, left, right = -m.rows[0], m.rows[1], -m.cols[0], m.cols[1]
    interior, width = m.tile
    total = plane_rows * plane_cols - interior * width
    tid = add(mul(kir.ThreadIdx("y"), const(threads_x)), kir.ThreadIdx("x"))
    bands = []  # (elements, row, column) from the element's number within its band
    if above:
        bands.append((above * plane_cols, lambda g: kir.Bin("/", g, const(plane_cols)),
                      lambda g: kir.Bin("%", g, const(plane_cols))))
    if below:
        bands.append((below * plane_cols, lambda g: add(kir.Bin("/", g, const(plane_cols)), const(above + interior)),
                      lambda g: kir.Bin("%", g, const(plane_cols))))
    if left + right:
        def column(g, side=left + right):
            within_side = kir.Bin("%", g, const(side))
            return kir.Select(kir.Bin("<", within_side, const(left)), within_side, add(within_side, const(width)))
        bands.append((interior * (left + right), lambda g: add(kir.Bin("/", g, const(left + right)), const(above)),
                      column))
    starts = [sum(n for n, _, _ in bands[:i]) for i in range(len(bands))]

    def place(f):  # an element's row and column in the plane, from its number in the halo
        row, col = None, None
        for (n, to_row, to_col), start in reversed(list(zip(bands, starts))):
            g = add(f, const(-start))
            if row is None:
                row, col = to_row(g), to_col(g)
            else:
                inside = kir.Bin("<", f, const(start + n))
                row, col = kir.Select(inside, to_row(g), row), kir.Select(inside, to_col(g), col)
        return row, col
    out = []
    for j in range(-(-total // threads)):
        number = add(kir.Cast("int", tid), const(j * threads))
        f = declare(f"halo{j}_at", number)
        row, col = place(f)
        r = declare(f"halo{j}_row", row)
        c = declare(f"halo{j}_col", col)
        at = within(add(y_first, add(r, const(m.rows[0]))), add(x_first, add(c, const(m.cols[0]))), f"halo{j}_in")
        slot = add(mul(r, const(plane_cols)), c)
        # each element's place is inside the plane (a band's numbers map into it), but the verifier bounds a select
        # by both of its sides: where that passes the plane, the place is clamped into it, which changes nothing
        row_of, col_of = place(number)
        found = value_range(add(mul(row_of, const(plane_cols)), col_of), (threads_x, threads_y, 1), {}, {})
        if found is not None and (found[0] < 0 or found[1] >= plane_rows * plane_cols):  # (None: it bounds none)
            slot = clamped(slot, const(plane_rows * plane_cols - 1))
        out.append((f, total if (j + 1) * threads > total else None, at, declare(f"halo{j}_slot", slot)))
    return out


def _point(low, k: T.Kernel, m: March, indices, queue: Queue, column: Binder, plane: Binder, view: View,
           in_range, outputs, sizes) -> tuple:
    """One point's body at `indices` (the marched, row and column dims'
    indices, clamped), its outputs stored where `in_range`."""
    def body():
        at = {d: i for d, i in zip(m.dims, indices)}
        low.env[column], low.env[plane] = queue, view
        for level in k.levels:
            idx = at[level.dim]
            for p, arg in zip(level.params, level.args):
                low.env[p] = low.name_value(p, low.exp(arg).index([idx]), level.span)
            for binders, value in level.lets:
                low.bind(binders, low.exp(value), level.span)
        values = value_parts(low.exp(k.body))
        gtids = [at[lv.dim] for lv in k.levels]
        low.emit(kir.If(in_range, output_stores(outputs, flat_index(gtids, sizes, lambda e: e), values, k.span)))
    stmts, _ = low.block(body)
    return _unrolled(stmts, set(queue.names))


def _unrolled(stmts: tuple, names: set) -> tuple:
    """The loops around a queue's reads fully unrolled (constant counts: the
    analysis checked), so that each read's register is known to nvcc."""
    out = []
    for s in stmts:
        if isinstance(s, kir.For):
            inner = _unrolled(s.body, names)
            reads = any(isinstance(n, kir.Ref) and n.name in names for n in walk(inner))
            count = trip_count(s)
            known = count is not None and 0 < count <= UNROLL_LIMIT
            s = dataclasses.replace(s, body=inner, unroll=kir.FULL if reads and known else s.unroll)
        elif isinstance(s, kir.If):
            s = dataclasses.replace(s, then=_unrolled(s.then, names), else_=_unrolled(s.else_, names))
        out.append(s)
    return tuple(out)
