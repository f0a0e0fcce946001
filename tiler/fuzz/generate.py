"""Random well-typed kernel programs, for differential testing.

`generate(seed) -> ast.Program`: 1 to 3 map levels over arrays, `iota`s and
`zip`s; a prelude that may transpose a matrix; a body of scalar lets,
branches on thread indices, loops with uniform or thread-dependent bounds,
and `streamSeq`s (nested, with tuple accumulators) over arrays that are
parameters of `main`, rows picked by the thread's index (one map's row
beside another's: a product's shape), by an indirect
index, through a transpose, or `iota`s; sometimes through a helper; streams
whose chunks are rows (`[[f32, d], c]`, as k-means' centres), loops whose
body streams rows an index table picks (lavaMD's neighbour boxes), and loops
over a thread's own row read by element (`p[f]`, or `M[i, f]` under a map
over `iota`), with row lengths that are
sometimes literals (so tiler can stage them) and sometimes sizes; and
between map levels, a row's reduction by +, *, min or max, or the position
of its smallest or largest element (a softmax's maximum, which tiler splits
among a row's threads). The
body's lets mostly reach an output (stage `kernel` removes what nothing
reads, so a dead one, left now and then, tests that instead). Values
stay small: streams only add (or take maxima), divisions are by a positive
denominator, and indices are in range by construction (index arrays hold
values below every size, as `tiler.workload` makes them).
"""
from __future__ import annotations

import functools
import random
from dataclasses import dataclass, field

from ..syntax import ast

F32, INT = ast.TScalar("f32"), ast.TScalar("int")


def arr(elem, *sizes):
    """[[elem, s_last], ..., s0]: sizes outermost first."""
    t = elem
    for s in reversed(sizes):
        t = ast.TArray(t, s)
    return t


def v(name):
    return ast.Var(name)


def f(x: float):
    return ast.FloatLit(float(x), "f32")


def i(x: int):
    return ast.IntLit(int(x))


def call(fn, *args):
    return ast.Call(fn, tuple(args))


def binop(op, a, b):
    return ast.BinOp(op, a, b)


@dataclass
class Scope:
    floats: list = field(default_factory=list)  # f32 scalars in scope
    ints: list = field(default_factory=list)  # int scalars in scope (small, >= 0)
    thread_ints: list = field(default_factory=list)  # ints that differ between threads
    rows: list = field(default_factory=list)  # (name, size name or literal): [f32, size] arrays in scope

    def copy(self) -> "Scope":
        return Scope(list(self.floats), list(self.ints), list(self.thread_ints), list(self.rows))


class Generator:
    def __init__(self, seed: int):
        self.r = random.Random(seed)
        # how a program is spelled draws from its own stream: a seed's program keeps its shape as spellings are added
        self.spelling = random.Random(-1 - seed)
        self.reducing = random.Random(seed ^ 0x5EED)  # reductions between levels: likewise their own stream
        self.n = 0
        self.params: list[ast.Param] = []
        self.sizes = ["s0", "s1"]  # sizes of streamed arrays
        self.helpers: list[ast.FunDef] = []
        self.prelude: list[tuple[str, ast.Exp]] = []
        self.index_sizes: dict[str, str] = {}  # a map index -> the size of its dimension
        self.product = False  # a 2-D kernel whose streams all go over rows picked by both indices
        self.indexed_rows: dict[str, tuple[str, str]] = {}  # a thread's row spelled M[i]: row -> (M, i)

    def fresh(self, base: str) -> str:
        self.n += 1
        return f"{base}{self.n}"

    def chance(self, p: float) -> bool:
        return self.r.random() < p

    def param(self, t, base: str) -> str:
        name = self.fresh(base)
        self.params.append(ast.Param(t, name))
        return name

    # ---- the program ------------------------------------------------------------

    def program(self) -> ast.Program:
        dims = self.r.choice([1, 1, 2, 2, 2, 3])
        self.product = dims == 2 and self.chance(0.3)
        sizes = [f"n{d}" for d in range(dims)]
        outputs = self.r.choice([1, 1, 1, 2])
        scope = Scope()
        if self.chance(0.5):
            scale = self.param(F32, "a")
            scope.floats.append(scale)
        nest = self.level(0, sizes, scope, outputs)
        body = nest
        for name, value in reversed(self.prelude):
            body = ast.Let((name,), False, value, body)
        ret = arr(F32, *sizes) if outputs == 1 else ast.TTuple(tuple(arr(F32, *sizes) for _ in range(outputs)))
        self.bind_sizes(["n0", *self.sizes])
        main = ast.FunDef(ret, "main", tuple(self.params), body)
        return ast.Program(tuple(self.helpers) + (main,))

    def bind_sizes(self, names) -> None:
        """Sizes are bound by parameter types: give every size used a parameter."""
        bound = set()
        for p in self.params:
            t = p.type
            while isinstance(t, ast.TArray):
                bound.add(t.size)
                t = t.elem
        for name in names:
            if name not in bound:
                self.params.append(ast.Param(arr(F32, name), f"size_{name}"))

    def level(self, d: int, sizes: list, scope: Scope, outputs: int):
        size = sizes[d]
        kind = "zip" if self.product else self.r.choice(["array", "zip", "zip", "rows"])
        params, args = [], []
        if kind in ("array", "zip"):
            xs = self.param(arr(F32, size), "xs")
            x = self.fresh("x")
            params.append(ast.Param(F32, x))
            args.append(v(xs))
            scope.floats.append(x)
        if kind in ("iota", "zip"):
            idx = self.fresh("i")
            params.append(ast.Param(INT, idx))
            args.append(ast.Iota(v(size)))
            scope.ints.append(idx)
            scope.thread_ints.append(idx)
            self.index_sizes[idx] = size
        if kind == "rows":  # each thread gets its own row of a matrix
            length = self.row_length()
            m = self.param(arr(F32, size, length), "M")
            row = self.fresh("row")
            if self.spelling.random() < 0.3:  # spelled by index: M[i, f] under a map over iota (kernel/rows.py)
                idx = f"i_{row}"  # used for the row alone, and not from `fresh`: the program keeps its shape
                params.append(ast.Param(INT, idx))
                args.append(ast.Iota(v(size)))
                self.indexed_rows[row] = (m, idx)
            else:
                params.append(ast.Param(arr(F32, length), row))
                args.append(v(m))
            scope.rows.append((row, length))
        arg = ast.Zip(tuple(args)) if len(args) > 1 else args[0]
        inner_scope = scope.copy()
        if d + 1 < len(sizes):
            between = None
            if self.chance(0.3) and scope.floats:  # a scalar let between two levels, in scope below
                between = (self.fresh("t"), binop("*", v(self.r.choice(scope.floats)), f(0.5)))
                inner_scope.floats.append(between[0])
            elif self.reducing.random() < 0.4:  # a row's statistic between two levels (a softmax's maximum)
                between = (self.fresh("st"), self.reduction(inner_scope))
                inner_scope.floats.append(between[0])
            inner = self.level(d + 1, sizes, inner_scope, outputs)
            rest = sizes[d + 1:]
            ret = arr(F32, *rest) if outputs == 1 else ast.TTuple(tuple(arr(F32, *rest) for _ in range(outputs)))
            body = inner if between is None else ast.Let((between[0],), False, between[1], inner)
        else:
            body = self.body(inner_scope, outputs, sizes)
            ret = F32 if outputs == 1 else ast.TTuple(tuple(F32 for _ in range(outputs)))
        return ast.Map(ast.Lambda(ret, tuple(params), body), (arg,))

    # ---- the sequential body ----------------------------------------------------------

    def body(self, scope: Scope, outputs: int, sizes: list):
        lets = []
        for _ in range(self.r.randint(1, 3)):
            name = self.fresh("v")
            lets.append((name, self.value(scope, sizes)))
            scope.floats.append(name)
        results = [self.scalar(scope, 2) for _ in range(outputs)]
        if self.chance(0.85):  # the lets' values reach an output: a dead stream is removed before tiling
            used = functools.reduce(lambda a, b: binop("+", a, b), (v(name) for name, _ in lets))
            results[0] = binop("+", results[0], binop("*", used, f(0.25)))
        out = results[0] if outputs == 1 else ast.TupleExp(tuple(results))
        for name, value in reversed(lets):
            out = ast.Let((name,), False, value, out)
        return out

    def reduction(self, scope: Scope):
        """A reduction by +, *, min or max over the level's own row (or an
        array every row reads), as a loop or a stream's loop, its operands in
        either order, from a start value that is not the identity."""
        rr = self.reducing
        op = rr.choice(["+", "*", "min", "max", "argmin"])
        if scope.rows and rr.random() < 0.7:
            row, length = rr.choice(scope.rows)
            array = self.row(row)
        else:
            length = rr.choice(self.sizes)
            array = v(self.param(arr(F32, length), "ys"))
        acc, k = self.fresh("r"), self.fresh("k")
        bound = v(length) if isinstance(length, str) else i(length)
        if op == "argmin":  # the position of the row's smallest (or largest) element, and the element
            return self.pick(rr, ast.Index(array, (v(k),)), k, bound)
        as_stream = rr.random() < 0.5
        xc = self.fresh("xc")
        x = ast.Index(v(xc), (v(k),)) if as_stream else ast.Index(array, (v(k),))
        term = {"+": x, "*": binop("+", f(1.0), binop("*", x, f(0.01))), "min": x,
                "max": binop("*", x, f(2.0))}[op]
        pair = (v(acc), term) if rr.random() < 0.5 else (term, v(acc))
        step = call(op, *pair) if op in ("min", "max") else binop(op, *pair)
        init = {"+": f(0.5), "*": f(1.0), "min": f(1.0e30), "max": ast.UnOp("-", f(1.0e30))}[op]
        if not as_stream:
            return ast.Loop((ast.LoopParam(acc, init),), k, bound, step, v(acc))
        chunk, kk = self.fresh("c"), self.fresh("kk")
        loop = ast.Loop((ast.LoopParam(acc, None),), k, v(chunk), step, v(acc))
        params = (ast.Param(INT, kk), ast.Param(arr(F32, chunk), xc), ast.Param(F32, acc))
        return ast.StreamSeq(ast.Lambda(F32, params, loop), (array, init))

    def pick(self, rr, x, k: str, bound):
        """`if x < best then (f32(k), x) else (pos, best)`: an argmin or argmax,
        keeping the first (`<`) or the last (`<=`) of equal elements."""
        pos, best = self.fresh("pos"), self.fresh("best")
        smaller, op = rr.random() < 0.5, rr.choice(["<", "<="])
        rounded = call("f32", call("int", binop("*", x, f(4.0))))  # equal values are common: ties are tested
        body = ast.If(binop(op, rounded, v(best)) if smaller else binop(op, v(best), rounded),
                      ast.TupleExp((call("f32", v(k)), rounded)), ast.TupleExp((v(pos), v(best))))
        start = f(1.0e30) if smaller else ast.UnOp("-", f(1.0e30))
        loop = ast.Loop((ast.LoopParam(pos, ast.UnOp("-", f(1.0))), ast.LoopParam(best, start)), k, bound, body,
                        ast.TupleExp((v(pos), v(best))))
        a, b = self.fresh("p"), self.fresh("q")
        return ast.Let((a, b), True, loop, binop("+", v(b), binop("*", v(a), f(0.001))))

    def row_length(self):
        """A row's length: a size, or a literal tiler knows when compiling
        (odd, a multiple of 4, k-means' 34)."""
        return self.r.choice(["s0", "s0", 3, 8, 34])

    def value(self, scope: Scope, sizes: list):
        """A scalar f32 worth naming: a stream, a loop around one, a branch, or arithmetic."""
        if self.chance(0.12):
            return self.row_stream(scope)
        if self.chance(0.1):
            return self.gather_loop(scope)
        if scope.rows and self.chance(0.3):
            row, length = self.r.choice(scope.rows)
            return self.row_loop(row, length, lambda _: self.scalar(scope, 1))
        pick = self.r.random()
        if pick < 0.45:
            return self.stream(scope, depth=0)
        if pick < 0.6:
            return self.loop(scope)
        if pick < 0.72 and scope.thread_ints:
            cond = binop("==", binop("%", v(self.r.choice(scope.thread_ints)), i(2)), i(0))
            return ast.If(cond, self.stream(scope, depth=1), self.scalar(scope, 2))
        if pick < 0.82:
            return self.helper_call(scope)
        return self.scalar(scope, 3)

    def scalar(self, scope: Scope, depth: int):
        """Bounded f32 arithmetic over what is in scope."""
        if depth == 0 or self.chance(0.3):
            choices = [f(self.r.choice([0.5, 1.0, 1.5, 2.0, 0.25]))] + [v(x) for x in scope.floats]
            choices += [call("f32", v(k)) for k in scope.ints]
            return self.r.choice(choices)
        a, b = self.scalar(scope, depth - 1), self.scalar(scope, depth - 1)
        op = self.r.choice(["+", "-", "*", "div", "max", "sin", "sqrt"])
        if op == "div":  # a positive denominator
            return binop("/", a, binop("+", call("abs", b), f(1.0)))
        if op == "max":
            return call("max", a, b)
        if op == "sin":
            return call("sin", a)
        if op == "sqrt":
            return call("sqrt", binop("+", call("abs", a), f(1.0)))
        return binop(op, a, b)

    def loop(self, scope: Scope):
        """A loop around a stream: its bound is uniform or differs between threads."""
        acc, index = self.fresh("l"), self.fresh("t")
        if scope.thread_ints and self.chance(0.5):
            bound = binop("+", binop("%", v(self.r.choice(scope.thread_ints)), i(3)), i(1))
        else:
            bound = i(self.r.randint(1, 3))
        inner = scope.copy()
        inner.floats.append(acc)
        inner.ints.append(index)
        step = binop("+", v(acc), binop("*", self.stream(inner, depth=1), f(0.5)))
        return ast.Loop((ast.LoopParam(acc, f(0.0)),), index, bound, step, v(acc))

    def gather_loop(self, scope: Scope):
        """A loop over the rows an index table picks for the outermost thread
        index (lavaMD's neighbour boxes), whose body is a stream over them
        that carries the loop's accumulator: rows tiler streams end to end,
        unless the body weighs an element by its position (`kk + j`)."""
        width, size = self.r.randint(1, 4), self.r.choice(self.sizes)
        table = self.param(arr(INT, "n0", width), "nb")
        arrays = [self.param(arr(F32, "n0", size), "G") for _ in range(self.r.randint(1, 2))]
        who = call("min", v(scope.thread_ints[0]), binop("-", v("n0"), i(1))) if scope.thread_ints else i(0)
        acc, k, row, chunk, j, kk = (self.fresh(x) for x in ("g", "t", "rw", "c", "j", "kk"))
        names = [self.fresh("gc") for _ in arrays]
        term = ast.Index(v(names[0]), (v(j),))
        for n in names[1:]:
            term = binop(self.r.choice(["+", "*"]), term, ast.Index(v(n), (v(j),)))
        if scope.floats and self.chance(0.5):
            term = binop("*", term, v(self.r.choice(scope.floats)))
        if self.chance(0.2):
            term = binop("+", term, binop("*", call("f32", binop("+", v(kk), v(j))), f(0.001)))
        fold = ast.Loop((ast.LoopParam(acc, None),), j, v(chunk), binop("+", v(acc), term), v(acc))
        params = (ast.Param(INT, kk),) + tuple(ast.Param(arr(F32, chunk), n) for n in names) + (ast.Param(F32, acc),)
        stream = ast.StreamSeq(ast.Lambda(F32, params, fold),
                               tuple(ast.Index(v(a), (v(row),)) for a in arrays) + (v(acc),))
        bound = i(self.r.randint(1, width))
        if scope.thread_ints and self.chance(0.4):  # a count that differs between the outer map's points
            bound = binop("+", binop("%", v(scope.thread_ints[0]), i(width)), i(1))
        body = ast.Let((row,), False, ast.Index(v(table), (who, v(k))), stream)
        return ast.Loop((ast.LoopParam(acc, f(0.0)),), k, bound, body, v(acc))

    def row_loop(self, row: str, length, other):
        """A loop over a row read by element, `sum_f (row[f] - other(f))^2`
        (`row[f]` a thread's own row outside any stream, or a chunk's row
        `cc[j, f]`); `other(f)` is a scalar, or a same-length row's element."""
        s, f_ = self.fresh("s"), self.fresh("f")
        other = other(v(f_))
        read = self.row_read(row, v(f_))
        diff = self.fresh("d")
        step = ast.Let((diff,), False, binop("-", read, other), binop("+", v(s), binop("*", v(diff), v(diff))))
        bound = v(length) if isinstance(length, str) else i(length)
        return ast.Loop((ast.LoopParam(s, f(0.0)),), f_, bound, step, v(s))

    def row(self, name: str):
        """A thread's own row as an array expression: its map's row, or `M[i]`."""
        if name in self.indexed_rows:
            m, idx = self.indexed_rows[name]
            return ast.Index(v(m), (v(idx),))
        return v(name)

    def row_read(self, name: str, index):
        """Element `index` of a row: `row[f]`, or `M[i, f]` for a row spelled by index."""
        if name in self.indexed_rows:
            m, idx = self.indexed_rows[name]
            return ast.Index(v(m), (v(idx), index))
        return ast.Index(v(name), (index,))

    def row_stream(self, scope: Scope):
        """A stream whose chunks are rows (`[[f32, d], c] cc`) of a matrix
        every thread reads whole: for each row, a distance to the thread's own
        row of that length where there is one (k-means), else to a scalar;
        kept as a sum, a minimum, or the position of the nearest row."""
        own = [(name, n) for name, n in scope.rows if self.chance(0.7)]
        length = own[0][1] if own else self.row_length()
        centres = self.param(arr(F32, self.r.choice(self.sizes), length), "C")
        cc, j, kk, acc = self.fresh("cc"), self.fresh("j"), self.fresh("kk"), self.fresh("acc")
        spelled_flat = self.chance(0.5)

        def element(index):  # cc[j, f] or cc[j][f]
            if spelled_flat:
                return ast.Index(v(cc), (v(j), index))
            return ast.Index(ast.Index(v(cc), (v(j),)), (index,))

        if own:
            dist = self.row_loop(own[0][0], length, element)
        else:
            row = self.fresh("r")
            inner = self.row_loop(row, length, lambda _: self.scalar(scope, 1))
            dist = ast.Let((row,), False, ast.Index(v(cc), (v(j),)), inner)
        which = self.r.choice(["sum", "min", "nearest"])
        if which == "nearest":  # (position of the nearest row, its distance), as f32s
            pos, best, d = self.fresh("b"), self.fresh("bd"), self.fresh("dist")
            pick = ast.If(binop("<", v(d), v(best)),
                          ast.TupleExp((call("f32", binop("+", v(kk), v(j))), v(d))), ast.TupleExp((v(pos), v(best))))
            body = ast.Let((d,), False, dist, pick)
            chunk = self.fresh("c")
            loop = ast.Loop((ast.LoopParam(pos, None), ast.LoopParam(best, None)), j, v(chunk),
                            body, ast.TupleExp((v(pos), v(best))))
            ret, accs, inits = ast.TTuple((F32, F32)), (pos, best), (f(0.0), f(1.0e30))
        else:
            step = call("min", v(acc), dist) if which == "min" else binop("+", v(acc), dist)
            chunk = self.fresh("c")
            loop = ast.Loop((ast.LoopParam(acc, None),), j, v(chunk), step, v(acc))
            ret, accs, inits = F32, (acc,), (f(1.0e30) if which == "min" else f(0.0),)
        params = (ast.Param(INT, kk), ast.Param(arr(F32, chunk, length), cc)) + tuple(ast.Param(F32, a) for a in accs)
        stream = ast.StreamSeq(ast.Lambda(ret, params, loop), (v(centres),) + inits)
        if len(accs) == 1:
            return stream
        a, b = self.fresh("p"), self.fresh("q")
        return ast.Let((a, b), True, stream, binop("+", v(a), binop("*", v(b), f(0.001))))

    def stream_input(self, scope: Scope):
        """(array expression, chunk element type, stream size): what a stream goes over."""
        kinds = ["param", "param", "iota", "indirect", "transposed"] + ["own"] * bool(scope.rows)
        kind = self.r.choice(kinds)
        size = self.r.choice(self.sizes)
        if kind == "param":
            return v(self.param(arr(F32, size), "ys")), F32, size
        if kind == "iota":
            return ast.Iota(v(size)), INT, size
        if kind == "own":
            name, size = self.r.choice(scope.rows)
            return self.row(name), F32, size
        if kind == "indirect" and scope.thread_ints:
            table = self.param(arr(INT, "n0"), "idx")
            rows = self.param(arr(F32, "r0", size), "Q")
            return ast.Index(v(rows), (ast.Index(v(table), (call("min", v(self.r.choice(scope.thread_ints)),
                                                                binop("-", v("n0"), i(1))),)),)), F32, size
        if kind == "transposed":
            return self.transposed_row(scope, size), F32, size
        return v(self.param(arr(F32, size), "ys")), F32, size

    def transposed(self, length, rows) -> str:
        """A matrix of `rows` rows of `length`, given transposed (a matrix
        product's B) and transposed back in the prelude: its name there."""
        m = self.param(arr(F32, length, rows), "P")
        t = self.fresh("T")
        self.prelude.append((t, ast.Transpose(v(m))))
        return t

    def transposed_row(self, scope: Scope, size):
        """A row of such a matrix picked by a thread's index, clamped to its rows."""
        t = self.transposed(size, "n0")
        which = v(self.r.choice(scope.thread_ints)) if scope.thread_ints else i(0)
        return ast.Index(v(t), (call("min", which, binop("-", v("n0"), i(1))),))

    def own_transposed_row(self, size, index: str):
        """Row `index` of such a matrix with a row for each point of that map
        index's dimension: a matrix product's row of A or of B."""
        return ast.Index(v(self.transposed(size, self.index_sizes[index])), (v(index),))

    def more_input(self, scope: Scope, size, first):
        """Another array of the stream: a parameter every thread reads, a
        map's row of the same length, or a transposed matrix's row picked by
        a thread's index (with the first input a row too, a matrix product's
        shape)."""
        rows = [name for name, n in scope.rows if n == size and first != self.row(name)]
        kind = self.r.choice(["param"] + ["own"] * bool(rows) + ["transposed"] * bool(scope.thread_ints))
        if kind == "own":
            return self.row(self.r.choice(rows))
        if kind == "transposed":
            return self.transposed_row(scope, size)
        return v(self.param(arr(F32, size), "zs"))

    def stream(self, scope: Scope, depth: int):
        """streamSeq over one to three arrays of one size, with one or two accumulators."""
        if len(scope.thread_ints) > 1 and (self.product or self.chance(0.25)):  # rows picked by two indices
            size = self.r.choice(self.sizes)
            inputs = [(self.own_transposed_row(size, t), F32) for t in scope.thread_ints[-2:]]
        else:
            first, first_t, size = self.stream_input(scope)
            inputs = [(first, first_t)]
            for _ in range(self.r.randint(0, 2)):
                inputs.append((self.more_input(scope, size, first), F32))
        accs = [self.fresh("acc") for _ in range(self.r.choice([1, 1, 2]))]
        chunk, k, kk = self.fresh("c"), self.fresh("k"), self.fresh("kk")
        names = [self.fresh("xc") for _ in inputs]
        inner = scope.copy()
        inner.ints.append(k)
        elems = [ast.Index(v(n), (v(k),)) if t is F32 else call("f32", ast.Index(v(n), (v(k),)))
                 for n, (_, t) in zip(names, inputs)]
        if self.chance(0.3):
            elems.append(self.position_read(scope, size, kk, k))
        term = elems[0]
        for e in elems[1:]:
            term = binop(self.r.choice(["+", "*"]), term, e)
        if inner.floats and self.chance(0.6):
            term = binop("*", term, v(self.r.choice(inner.floats)))
        steps = []
        for n_acc, acc in enumerate(accs):
            step = call("max", v(acc), term) if n_acc == 1 and self.chance(0.5) else binop("+", v(acc), term)
            steps.append(step)
        if depth < 1 and self.chance(0.25):  # a nested stream inside the chunk loop
            inner.floats.extend(accs)
            steps[0] = binop("+", steps[0], binop("*", self.stream(inner, depth + 1), f(0.001)))
        loop = ast.Loop(tuple(ast.LoopParam(a, None) for a in accs), k, v(chunk),
                        steps[0] if len(steps) == 1 else ast.TupleExp(tuple(steps)),
                        v(accs[0]) if len(accs) == 1 else ast.TupleExp(tuple(v(a) for a in accs)))
        ret = F32 if len(accs) == 1 else ast.TTuple((F32, F32))
        params = (ast.Param(INT, kk),) + tuple(ast.Param(arr(t, chunk), n) for n, (_, t) in zip(names, inputs)) \
            + tuple(ast.Param(F32, a) for a in accs)
        inits = tuple(f(0.0) if n == 0 else ast.UnOp("-", f(1000.0)) for n in range(len(accs)))
        stream = ast.StreamSeq(ast.Lambda(ret, params, loop), tuple(e for e, _ in inputs) + inits)
        if len(accs) == 1:
            return stream
        a, b = self.fresh("p"), self.fresh("q")
        return ast.Let((a, b), True, stream, binop("+", v(a), binop("*", v(b), f(0.001))))

    def position_read(self, scope: Scope, size: str, kk: str, k: str):
        """A read that walks the stream's position by index: `x[kk + k]`, a row
        `X[j, kk + k]` or a column `X[kk + k, j]` (j a thread's map index, or
        one clamped into range), sometimes on some steps only."""
        position = binop("+", v(kk), v(k)) if self.chance(0.5) else binop("+", v(k), v(kk))
        kind = self.r.choice(["vector", "row", "column"]) if scope.thread_ints else "vector"
        if kind == "vector":
            read = ast.Index(v(self.param(arr(F32, size), "ws")), (position,))
        else:
            j = self.r.choice(scope.thread_ints)
            extent, index = self.index_sizes[j], v(j)
            if self.chance(0.4):
                extent, index = "n0", call("min", v(j), binop("-", v("n0"), i(1)))
            shape = (extent, size) if kind == "row" else (size, extent)
            x = self.param(arr(F32, *shape), "X")
            read = ast.Index(v(x), (index, position) if kind == "row" else (position, index))
        if self.chance(0.25):
            return ast.If(binop("==", binop("%", position, i(2)), i(0)), read, f(0.5))  # by position: any chunking
        return read

    def helper_call(self, scope: Scope):
        """A call of a helper: scalar arithmetic, or a stream over an array parameter."""
        if self.chance(0.5) or not scope.floats:
            name = self.fresh("h")
            body = binop("+", binop("*", v("p1"), v("p2")), f(1.0))
            self.helpers.append(ast.FunDef(F32, name, (ast.Param(F32, "p1"), ast.Param(F32, "p2")), body))
            return call(name, self.scalar(scope, 1), self.scalar(scope, 1))
        name = self.fresh("g")
        stream = ast.StreamSeq(ast.Lambda(F32, (ast.Param(INT, "kk"), ast.Param(arr(F32, "c"), "yc"),
                                                ast.Param(F32, "acc")),
                                          ast.Loop((ast.LoopParam("acc", None),), "k", v("c"),
                                                   binop("+", v("acc"), binop("*", ast.Index(v("yc"), (v("k"),)),
                                                                               v("w"))), v("acc"))),
                               (v("ys"), v("w")))
        # the accumulator starts at w: the helper's result is w * (1 + sum(ys))
        self.helpers.append(ast.FunDef(F32, name, (ast.Param(arr(F32, "d"), "ys"), ast.Param(F32, "w")), stream))
        array = v(self.param(arr(F32, self.r.choice(self.sizes)), "ys"))
        return call(name, array, self.scalar(scope, 1))


def generate(seed: int) -> ast.Program:
    return Generator(seed).program()
