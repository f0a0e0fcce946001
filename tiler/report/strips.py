"""Register tiling as the design note's three steps, each a program text.

Step 1 is the block-tiled program (`transformed.py`). `strip_mined` is step
2: each dimension of the micro-tile is strip-mined by its T, its map made a
`streamPar` over strips of T points, each strip a map, and the tiled
`streamSeq` a loop over chunks. `sequentialised` is step 3: the strip's map
is distributed around that loop and interchanged inward through it and its
loop over k, where it becomes a loop over the thread's points with one
accumulator each; a value the points share is read once into a register
before them. Both are for people to read (notation such as `a[kk : kk +
chunk]` and `acc with [t] = v` is the note's, not the language's).

Step 3 is drawn where the strip's map body is lets around the tiled stream,
whose body is the copies and one loop over the chunk; for any other shape
`sequentialised` returns None and explain describes the step in words.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from ..syntax import ast
from ..syntax.printer import pretty, type_text
from ..tree import children, map_children


@dataclass(frozen=True)
class StreamPar:
    """`streamPar(fn ... (int ii, strips) => ..., arrays)`: strips of T points in parallel."""

    lam: ast.Lambda
    args: tuple

    def show(self, ind, exp):
        inner = ind + "  "
        params = ", ".join(f"{type_text(p.type)} {p.name}" for p in self.lam.params)
        args = ", ".join(exp(a, inner) for a in self.args)
        return (f"streamPar(\n{inner}fn {type_text(self.lam.ret)} ({params}) =>\n{inner}  "
                f"{exp(self.lam.body, inner + '  ')},\n{inner}{args})")


@dataclass(frozen=True)
class ChunkLoop:
    """A streamSeq as a loop over its chunks: `loop (acc = init) = for kk < n step c do ...`."""

    accs: tuple  # (name, init expression)
    offset: str
    length: str
    chunk: int
    size: str  # the name the body gives the chunk's length
    slices: tuple  # (chunk name, array expression or the strip's Rows)
    body: object
    joined: bool = False  # the stream's rows are joined with the loop around it (analyse/joins.py)

    def show(self, ind, exp):
        inner = ind + "  "
        accs = ", ".join(f"{n} = {exp(i, ind)}" for n, i in self.accs)
        note = f"-- drawn a row at a time: the kernel's chunks run over the rows of every iteration of the loop " \
               f"around, laid end to end\n{ind}" if self.joined else ""
        lines = [f"{note}loop ({accs}) = for {self.offset} < {self.length} step {self.chunk} do",
                 f"{inner}let {self.size} = min({self.chunk}, {self.length} - {self.offset}) in"]
        lines += [f"{inner}let {n} = {exp(a.strip, inner) + '[:, ' if isinstance(a, Rows) else exp(a, inner) + '['}"
                  f"{self.offset} : {self.offset} + {self.size}] in" for n, a in self.slices]
        names = ", ".join(n for n, _ in self.accs)
        rest = f"({names})" if len(self.accs) > 1 else names
        return "\n".join(lines + [f"{inner}{exp(self.body, inner)}", f"{ind}in {rest}"])


@dataclass(frozen=True)
class Rows:
    """The strip's rows, each cut to the chunk: `a_strip[:, kk : kk + c]` in a chunk loop."""

    strip: object  # the rows of the strip's points: `a_strip`, `transpose(B)[j_strip]`


@dataclass(frozen=True)
class Update:
    """`acc with [t0, t1] = v`: one point's accumulator replaced."""

    array: str
    indices: tuple
    value: object

    def show(self, ind, exp):
        return f"{self.array} with [{', '.join(exp(i, ind) for i in self.indices)}] = {exp(self.value, ind)}"


@dataclass(frozen=True)
class Strips:
    """What the steps need from the plan: the strip-mined dims and how their points sit."""

    sizes: dict  # kernel dim -> T (only dims strip-mined)
    group: int  # consecutive points a thread owns along a strip-mined dim
    extents: dict  # kernel dim -> threads along it
    axes: dict  # kernel dim -> "threadIdx.x" / "threadIdx.y"
    streams: dict  # (line, col) of a tiled streamSeq -> its StreamPlan
    lengths: dict  # (line, col) -> the length of the stream's arrays, as text
    inputs: dict  # (line, col) of every streamSeq -> how many arrays it streams
    types: dict  # a name the kernel binds once -> its type, as text
    shared: dict  # shMem name -> (input plan, its row dims in index order, transposed, element type)

    @property
    def dims(self) -> list[int]:
        return sorted(self.sizes)

    def t(self, d) -> ast.Var:
        return ast.Var(f"t{d}")


def main_of(program: ast.Program) -> ast.FunDef:
    return next((f for f in program.funs if f.name == "main"), program.funs[-1])


def span_key(e) -> tuple:
    """A syntax node's (line, column), by which the plan's streams are found in the source."""
    return (e.span.line, e.span.col)


def kernel_maps(program: ast.Program, rank: int) -> list:
    """The maps of the kernel's dimensions, outermost first (lets between them skipped)."""
    e, maps = main_of(program).body, []
    while len(maps) < rank:
        while isinstance(e, ast.Let):
            e = e.body
        if not isinstance(e, ast.Map):
            break
        maps.append(e)
        e = e.lam.body
    return maps


def strip_mined(program: ast.Program, st: Strips, rank: int) -> ast.Program:
    """Step 2: the micro-tile's maps as streamPar over strips, the tiled streams as loops."""
    maps = kernel_maps(program, rank)
    targets = {id(maps[d]): d for d in st.dims if d < len(maps)}

    def rewrite(e):
        if id(e) in targets:
            d = targets[id(e)]
            inner = dataclasses.replace(e, lam=dataclasses.replace(e.lam, body=rewrite(e.lam.body)))
            return _strip(inner, d, st, inner_map=True)
        if isinstance(e, ast.StreamSeq) and span_key(e) in st.streams:
            return _chunk_loop(e, st, map_children(e.lam, rewrite, ast.is_node).body, inits=None)
        return map_children(e, rewrite, ast.is_node)

    return _in_main(program, rewrite)


def sequentialised(program: ast.Program, st: Strips, rank: int) -> ast.Program | None:
    """Step 3, or None where the strip's map body has another shape."""
    maps = kernel_maps(program, rank)
    dims = [d for d in st.dims if d < len(maps)]
    if not dims or dims != list(range(dims[0], dims[-1] + 1)):
        return None
    nested = [maps[d] for d in dims]
    if any(outer.lam.body is not inner for outer, inner in zip(nested, nested[1:])):
        return None  # lets between two strip-mined maps
    params = {p.name: ast.Var(f"{p.name}_strip") for d in dims for p in maps[d].lam.params}
    per_point = {p.name: ast.Index(params[p.name], (st.t(d),)) for d in dims for p in maps[d].lam.params}
    try:
        body = _Points(st, dims, params).body(nested[-1].lam.body, per_point, frozenset(), nested[-1].lam.ret)
    except _NoForm:
        return None
    outer = nested[0]

    def rewrite(e):
        if e is outer:
            result = body
            for d in reversed(dims):
                result = _strip(maps[d], d, st, inner_map=False, body=result)
            return result
        return map_children(e, rewrite, ast.is_node)

    return _in_main(program, rewrite)


class _NoForm(Exception):
    """The body is not lets around the tiled stream: step 3 is described in words."""


class _Points:
    """The strip's map body with the map moved innermost: loops over the points t0, t1."""

    def __init__(self, st: Strips, dims: list[int], params: dict):
        self.st, self.dims = st, dims
        self.params = params  # a strip-mined map's parameter -> the array of its strip's values
        self.index = tuple(st.t(d) for d in dims)

    def body(self, e, per_point: dict, arrays: frozenset, ret):
        """`e` with its points made loops innermost. `per_point`: names of one point's
        values and how to read them at the point (t0, t1); `arrays`: the names among them
        that hold every point's value (accumulators); `ret`: one point's result type."""
        if not _holds_stream(e, self.st):
            if names_in(e) <= arrays or not _mentions(e, per_point):
                return e
            return self.pointwise(_substitute(e, per_point), ret)  # what each point makes of its results
        if isinstance(e, ast.Let):
            if not _holds_stream(e.value, self.st):
                if _mentions(e.value, per_point):
                    return self.per_point_let(e, per_point, arrays, ret)
                return dataclasses.replace(e, body=self.body(e.body, per_point, arrays, ret))
            value = self.body(e.value, per_point, arrays, ret)
            return dataclasses.replace(e, value=value, body=self.body(e.body, self.points(per_point, e.names),
                                                                       arrays | set(e.names), ret))
        if isinstance(e, ast.StreamSeq) and span_key(e) in self.st.streams:
            return self.stream(e, per_point, arrays)
        if isinstance(e, ast.Map) and not _mentions(e.args, per_point):  # an inner dimension's map
            lam = dataclasses.replace(e.lam, ret=self.shape(e.lam.ret),
                                      body=self.body(e.lam.body, per_point, arrays, e.lam.ret))
            return dataclasses.replace(e, lam=lam)
        if isinstance(e, ast.StreamSeq):  # a stream around the tiled one: its accumulators per point
            count = self.st.inputs[span_key(e)]
            names = [p.name for p in e.lam.params[1 + count:]]
            inits = tuple(self.shaped(i, per_point, arrays) for i in e.args[count:])
            inner = self.points(per_point, names)
            params = e.lam.params[:1 + count] + tuple(dataclasses.replace(p, type=self.shape(p.type))
                                                      for p in e.lam.params[1 + count:])
            lam = dataclasses.replace(e.lam, ret=self.shape(e.lam.ret), params=params,
                                      body=self.body(e.lam.body, inner, arrays | set(names), ret))
            return dataclasses.replace(e, lam=lam, args=e.args[:count] + inits)
        if isinstance(e, ast.Loop) and not _holds_stream(e.rest, self.st):
            names = [p.name for p in e.params]
            params = tuple(p if p.init is None and p.name in arrays else
                           dataclasses.replace(p, init=self.shaped(p.init, per_point, arrays)) for p in e.params)
            inner = self.points(per_point, names)
            return dataclasses.replace(e, params=params, body=self.body(e.body, inner, arrays | set(names), ret),
                                       rest=self.body(e.rest, inner, arrays | set(names), ret))
        raise _NoForm

    def per_point_let(self, e: ast.Let, per_point: dict, arrays: frozenset, ret):
        """A value each point computes before the stream (its row `A[p]`): an array over the strip."""
        (name,) = e.names if len(e.names) == 1 and e.names[0] in self.st.types else (None,)
        if name is None or names_in(e.value) & arrays:
            raise _NoForm
        value = _substitute(e.value, per_point)
        dims = [d for d in self.dims if f"t{d}" in names_in(value)]
        value = _over_points(value, ast.TScalar(self.st.types[name]), dims)
        self.params = {**self.params, name: ast.Var(name)}
        inner = {**per_point, name: ast.Index(ast.Var(name), tuple(self.st.t(d) for d in dims))}
        return dataclasses.replace(e, value=value, body=self.body(e.body, inner, arrays, ret))

    def points(self, per_point: dict, names) -> dict:
        return {**per_point, **{n: ast.Index(ast.Var(n), self.index) for n in names}}

    def shape(self, t):
        """A point's type made every point's: a value becomes an array over the strip."""
        if isinstance(t, ast.TTuple):
            return ast.TTuple(tuple(self.shape(i) for i in t.items))
        for d in reversed(self.dims):
            t = ast.TArray(t, f"T{d}")
        return t

    def shaped(self, init, per_point: dict, arrays: frozenset):
        """An accumulator's initial value for every point."""
        if init is None:
            raise _NoForm
        if names_in(init) <= arrays and isinstance(init, ast.Var):
            return init
        if _mentions(init, per_point):
            raise _NoForm
        return self.replicated(init)

    def pointwise(self, e, ret):
        return _over_points(e, ret, self.dims)

    def stream(self, e: ast.StreamSeq, per_point: dict, arrays: frozenset):
        count = self.st.inputs[span_key(e)]
        accs = [p.name for p in e.lam.params[1 + count:]]
        inits = tuple(self.shaped(i, per_point, arrays) for i in e.args[count:])
        strips = {}  # chunk name -> its strip: a point's own row, now the rows of the strip's points
        for param, array in zip(e.lam.params[1:1 + count], e.args[:count]):
            if _mentions(array, per_point):
                if names_in(array) & (per_point.keys() - self.params.keys()):
                    raise _NoForm
                strips[param.name] = _substitute(array, self.params)
        body = _every_row(self.chunk_body(e.lam.body, accs, per_point), set(strips))
        args = tuple(Rows(strips[p.name]) if p.name in strips else a
                     for p, a in zip(e.lam.params[1:1 + count], e.args[:count])) + e.args[count:]
        return _chunk_loop(dataclasses.replace(e, args=args), self.st, body, inits=inits)

    def replicated(self, init):
        for d in reversed(self.dims):
            init = ast.Call("replicate", (ast.Var(f"T{d}"), init))
        return init

    def chunk_body(self, e, accs: list[str], per_point: dict):
        if isinstance(e, ast.Let):
            if _mentions(e.value, per_point):
                raise _NoForm
            return dataclasses.replace(e, body=self.chunk_body(e.body, accs, per_point))
        if isinstance(e, ast.Loop) and [p.name for p in e.params] == accs:
            return dataclasses.replace(e, body=self.registers(e.body, accs, per_point))
        raise _NoForm

    def registers(self, e, accs: list[str], per_point: dict):
        """Shared values read once a step into registers, then the loops over the points."""
        reads: dict = {}
        body = _substitute(e, {**per_point, **{a: ast.Index(ast.Var(a), self.index) for a in accs}})
        body = self._hoist(body, reads, _bound_in(e))
        result = self.updates(body, accs)
        for d in reversed(self.dims):
            params = tuple(ast.LoopParam(a, None) for a in accs)
            rest = ast.Var(accs[0]) if len(accs) == 1 else ast.TupleExp(tuple(ast.Var(a) for a in accs))
            result = ast.Loop(params, f"t{d}", ast.Var(f"T{d}"), result, rest)
        for name, value in reversed(list(reads.values())):
            result = ast.Let((name,), False, value, result)
        return result

    def _hoist(self, e, reads: dict, bound: set):
        """A read of a shared tile that no name bound inside the step indexes: a register."""
        if isinstance(e, ast.Index) and isinstance(e.array, ast.Var) and e.array.name in self.st.shared \
                and not (names_in(e) & bound):
            plan, rows, transposed, elem = self.st.shared[e.array.name]
            varying = [d for d in self.dims if d not in plan.invariant_to and d in rows]
            key = pretty(e)
            if key not in reads:  # a second read of the same tile at another index: reg_X_2
                same = sum(k.startswith(e.array.name + "[") for k in reads)
                name = f"reg_{e.array.name.removeprefix('shMem_')}" + (f"_{same + 1}" if same else "")
                reads[key] = (name, self._register_value(e, rows, transposed, varying, elem))
            name = reads[key][0]
            return ast.Index(ast.Var(name), tuple(self.st.t(d) for d in varying)) if varying else ast.Var(name)
        return map_children(e, lambda c: self._hoist(c, reads, bound), ast.is_node)

    def _register_value(self, e: ast.Index, rows, transposed: bool, varying: list[int], elem: str):
        """The read with each varying dim's thread row made the point's row: a register array."""
        first = 1 if transposed else 0
        indices = list(e.indices)
        for i, d in enumerate(rows):
            if d in varying:
                indices[first + i] = self._row(d)
        return _over_points(ast.Index(e.array, tuple(indices)), ast.TScalar(elem), varying)

    def _row(self, d):
        """The tile row of point t of this thread's strip (groups of `group` points interleaved)."""
        t, axis, g, size = self.st.t(d), ast.Var(self.st.axes[d]), self.st.group, self.st.sizes[d]
        if g >= size:
            return ast.BinOp("+", ast.BinOp("*", axis, ast.IntLit(size)), t)
        group_start = ast.BinOp("*", ast.BinOp("/", t, ast.IntLit(g)), ast.IntLit(self.st.extents[d] * g))
        return ast.BinOp("+", ast.BinOp("+", group_start, ast.BinOp("*", axis, ast.IntLit(g))),
                         ast.BinOp("%", t, ast.IntLit(g)))

    def updates(self, e, accs: list[str]):
        """The loop body's new accumulators written into the point's entries."""
        if isinstance(e, ast.Let):
            return dataclasses.replace(e, body=self.updates(e.body, accs))
        if isinstance(e, ast.TupleExp) and len(e.items) == len(accs):
            return ast.TupleExp(tuple(Update(a, self.index, v) for a, v in zip(accs, e.items)))
        if len(accs) == 1:
            return Update(accs[0], self.index, e)
        fresh = tuple(f"{a}_new" for a in accs)
        return ast.Let(fresh, True, e, ast.TupleExp(tuple(Update(a, self.index, ast.Var(f))
                                                          for a, f in zip(accs, fresh))))


def _over_points(e, ret, dims):
    """`e` at every point of `dims`: `map(fn ret (int t0) => e, iota(T0))`, nested."""
    for d in reversed(dims):
        e = ast.Map(ast.Lambda(ret, (ast.Param(ast.TScalar("int"), f"t{d}"),), e), (ast.Iota(ast.Var(f"T{d}")),))
        ret = ast.TArray(ret, f"T{d}")
    return e


def _strip(m: ast.Map, d: int, st: Strips, inner_map: bool, body=None) -> StreamPar:
    """`map(f, xs)` as `streamPar` over strips of T_d; its body a map over the strip (step 2)
    or `body` (step 3, the map moved inward)."""
    size = f"T{d}"
    strips = tuple(ast.Param(ast.TArray(p.type, size), f"{p.name}_strip") for p in m.lam.params)
    if inner_map:
        arrays = (ast.Var(strips[0].name),) if len(strips) == 1 else (ast.Zip(tuple(ast.Var(s.name) for s in strips)),)
        body = ast.Map(m.lam, arrays, m.span)
    ret = ast.TArray(m.lam.ret, size)
    return StreamPar(ast.Lambda(ret, (ast.Param(ast.TScalar("int"), f"s{d}"),) + strips, body), m.args)


def _chunk_loop(e: ast.StreamSeq, st: Strips, body, inits) -> ChunkLoop:
    plan = st.streams[span_key(e)]
    params, count = e.lam.params, st.inputs[span_key(e)]
    arrays, chunks = e.args[:count], params[1:1 + count]
    accs = tuple((p.name, i) for p, i in zip(params[1 + count:], inits or e.args[count:]))
    size = chunks[0].type.size if chunks and isinstance(chunks[0].type, ast.TArray) else "chunk"
    return ChunkLoop(accs, params[0].name, st.lengths[span_key(e)], plan.chunk, str(size),
                     tuple((c.name, a) for c, a in zip(chunks, arrays)), body,
                     plan.join is not None and plan.join.joined)


def _every_row(e, names: set):
    """`a_c[i]` of a chunk cut from the strip's rows read in every row: `a_c[:, i]`."""
    if isinstance(e, ast.Index) and isinstance(e.array, ast.Var) and e.array.name in names:
        return dataclasses.replace(e, indices=(ast.Var(":"),) + e.indices)
    return map_children(e, lambda c: _every_row(c, names), ast.is_node)


def _in_main(program: ast.Program, rewrite) -> ast.Program:
    main = main_of(program)
    funs = tuple(dataclasses.replace(f, body=rewrite(f.body)) if f is main else f for f in program.funs)
    return dataclasses.replace(program, funs=funs)


def _holds_stream(e, st: Strips) -> bool:
    if isinstance(e, ast.StreamSeq) and span_key(e) in st.streams:
        return True
    return any(_holds_stream(c, st) for c in children(e, ast.is_node))


def names_in(e) -> set:
    """Every name `e` reads (bound inside it or not)."""
    if isinstance(e, ast.Var):
        return {e.name}
    if isinstance(e, tuple):
        return set().union(set(), *(names_in(c) for c in e))
    return set().union(set(), *(names_in(c) for c in children(e, ast.is_node))) if dataclasses.is_dataclass(e) else set()


def _mentions(e, per_point: dict) -> bool:
    return bool(names_in(e) & per_point.keys())


def _bound_in(e) -> set:
    """Names a let, loop or lambda binds inside `e`."""
    out = set()
    if isinstance(e, ast.Let):
        out |= set(e.names)
    elif isinstance(e, ast.Loop):
        out |= {e.index} | {p.name for p in e.params}
    elif isinstance(e, ast.Lambda):
        out |= {p.name for p in e.params}
    for c in children(e, ast.is_node):
        out |= _bound_in(c)
    return out


def _substitute(e, table: dict):
    """Free uses of the names in `table` replaced (a binder of the same name hides them)."""
    if isinstance(e, ast.Var):
        return table.get(e.name, e)
    if isinstance(e, ast.Let):
        value = _substitute(e.value, table)
        inner = {k: v for k, v in table.items() if k not in e.names}
        return dataclasses.replace(e, value=value, body=_substitute(e.body, inner))
    if isinstance(e, ast.Loop):
        params = tuple(dataclasses.replace(p, init=None if p.init is None else _substitute(p.init, table))
                       for p in e.params)
        hidden = {e.index} | {p.name for p in e.params}
        inner = {k: v for k, v in table.items() if k not in hidden}
        return dataclasses.replace(e, params=params, bound=_substitute(e.bound, table),
                                   body=_substitute(e.body, inner), rest=_substitute(e.rest, inner))
    if isinstance(e, ast.Lambda):
        inner = {k: v for k, v in table.items() if k not in {p.name for p in e.params}}
        return dataclasses.replace(e, body=_substitute(e.body, inner))
    return map_children(e, lambda c: _substitute(c, table), ast.is_node)
