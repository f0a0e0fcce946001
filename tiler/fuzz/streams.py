"""The streams a generated program reads: `streamSeq`s over parameters,
rows, `iota`s, transposed or indirectly picked rows (`stream`), streams
whose chunks are rows (`row_stream`), and loops over the rows an index
table picks (`gather_loop`).
"""
from __future__ import annotations

from ..syntax import ast
from .trees import F32, INT, Scope, arr, binop, call, f, i, v


class Streams:
    """The stream-writing part of `generate.Generator` (a mixin): it draws
    from the generator's random numbers and names its parameters and
    variables through it."""

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
            named = self.spelling.random() < 0.5  # the distance bound first (`let d = ... in acc + d`): fissionable
            d = self.fresh("dist") if named else None
            term = v(d) if named else dist
            step = call("min", v(acc), term) if which == "min" else binop("+", v(acc), term)
            step = ast.Let((d,), False, dist, step) if named else step
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
            elem = self.element()
            return v(self.param(arr(elem, size), "ys")), elem, size
        if kind == "iota":
            return ast.Iota(v(size)), INT, size
        if kind == "own":
            name, size = self.r.choice(scope.rows)
            return self.row(name), F32, size
        if kind == "indirect" and scope.thread_ints:
            table = self.param(arr(INT, "n0"), "idx")
            rows = self.param(arr(F32, "r0", size), "Q")
            who = v(self.r.choice(scope.thread_ints))
            at = self.hashed(who, "n0") if self.hashing.random() < 0.3 else call("min", who, binop("-", v("n0"), i(1)))
            return ast.Index(v(rows), (self.row_index(ast.Index(v(table), (at,)), "r0"),)), F32, size
        if kind == "transposed":
            return (*self.transposed_row(scope, size), size)
        elem = self.element()
        return v(self.param(arr(elem, size), "ys")), elem, size

    def hashed(self, x, size: str):
        """A hash of `x` taken into [0, size) as a hash table's slot is: its
        product wraps past 2^31, and the index passes a `%` on the way, so
        the kernels must wrap it too (docs/language.md)."""
        h = binop("%", binop("+", binop("*", x, i(1103515245)), i(12345)), v(size))
        return binop("%", binop("+", h, v(size)), v(size))

    def transposed(self, length, rows) -> tuple[str, ast.TScalar]:
        """A matrix of `rows` rows of `length`, given transposed (a matrix
        product's B) and transposed back in the prelude: its name there, and
        its element type."""
        elem = self.element()
        m = self.param(arr(elem, length, rows), "P")
        t = self.fresh("T")
        self.prelude.append((t, ast.Transpose(v(m))))
        return t, elem

    def transposed_row(self, scope: Scope, size) -> tuple:
        """A row of such a matrix picked by a thread's index, clamped to its
        rows, and its element type."""
        t, elem = self.transposed(size, "n0")
        which = v(self.r.choice(scope.thread_ints)) if scope.thread_ints else i(0)
        return ast.Index(v(t), (call("min", which, binop("-", v("n0"), i(1))),)), elem

    def row_index(self, picked, rows: str):
        """An index table's entry as a row index: as it is, clamped into the
        matrix's rows, or shifted and wrapped into them (each computed from
        the table at the point's index alone: the copy of a block's rows
        computes it for each of its points)."""
        x = self.gathering.random()
        if x < 0.25:
            return call("min", call("max", picked, i(0)), binop("-", v(rows), i(1)))
        if x < 0.5:
            return binop("%", binop("+", picked, i(5)), v(rows))
        return picked

    def gathered_row(self, size, index: str):
        """A row of a matrix picked through an index table read at a map's
        index: a product of gathered rows (an embedding's)."""
        table = self.param(arr(INT, self.index_sizes[index]), "idx")
        rows = self.param(arr(F32, "r0", size), "Q")
        return ast.Index(v(rows), (self.row_index(ast.Index(v(table), (v(index),)), "r0"),))

    def own_transposed_row(self, size, index: str) -> tuple:
        """Row `index` of such a matrix with a row for each point of that map
        index's dimension (a matrix product's row of A or of B), and its
        element type."""
        t, elem = self.transposed(size, self.index_sizes[index])
        return ast.Index(v(t), (v(index),)), elem

    def more_input(self, scope: Scope, size, first) -> tuple:
        """Another array of the stream, and its element type: a parameter
        every thread reads, a map's row of the same length, or a transposed
        matrix's row picked by a thread's index (with the first input a row
        too, a matrix product's shape)."""
        rows = [name for name, n in scope.rows if n == size and first != self.row(name)]
        kind = self.r.choice(["param"] + ["own"] * bool(rows) + ["transposed"] * bool(scope.thread_ints))
        if kind == "own":
            return self.row(self.r.choice(rows)), F32
        if kind == "transposed":
            return self.transposed_row(scope, size)
        elem = self.element()
        return v(self.param(arr(elem, size), "zs")), elem

    def stream(self, scope: Scope, depth: int):
        """streamSeq over one to three arrays of one size, with one or two accumulators."""
        if len(scope.thread_ints) > 1 and (self.product or self.chance(0.25)):  # rows picked by two indices
            size = self.r.choice(self.sizes)
            inputs = [(self.gathered_row(size, t), F32) if n == 0 and self.gathering.random() < 0.3
                      else self.own_transposed_row(size, t) for n, t in enumerate(scope.thread_ints[-2:])]
        else:
            first, first_t, size = self.stream_input(scope)
            inputs = [(first, first_t)]
            for _ in range(self.r.randint(0, 2)):
                inputs.append(self.more_input(scope, size, first))
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
