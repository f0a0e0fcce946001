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
among a row's threads); in a kernel of three levels over `iota`s, a 3-D
star around the point, clamped or guarded at the edges (a stencil tiler
marches). The
body's lets mostly reach an output (stage `kernel` removes what nothing
reads, so a dead one, left now and then, tests that instead). Values
stay small: streams only add (or take maxima), divisions are by a positive
denominator, and indices are in range by construction (index arrays hold
values below every size, as `tiler.workload` makes them).

The streams are written by `streams.Streams` and the windows' reads by
`windows.Windows`, which `Generator` extends; `trees` holds the shorthands
for syntax trees and the `Scope`.
"""
from __future__ import annotations

import functools
import random

from ..syntax import ast
from .prefixes import Prefixes
from .streams import Streams
from .trees import BF16, F16, F32, INT, Scope, arr, binop, call, f, i, v
from .windows import Windows

# with `narrow`: how often a streamed parameter's elements are f16 or bf16, and a scalar leaf passes through one
NARROW_ARRAYS, NARROW_LEAVES = 0.35, 0.15


class Generator(Streams, Windows, Prefixes):
    def __init__(self, seed: int, narrow: bool = False):
        self.r = random.Random(seed)
        # how a program is spelled draws from its own stream: a seed's program keeps its shape as spellings are added
        self.spelling = random.Random(-1 - seed)
        self.reducing = random.Random(seed ^ 0x5EED)  # reductions between levels: likewise their own stream
        self.hashing = random.Random(seed ^ 0x4A54)  # integer hashes among the leaves: likewise
        self.gathering = random.Random(seed ^ 0x6A7E)  # rows gathered through a clamped or wrapped index: likewise
        self.algebra = random.Random(seed ^ 0xA16E)  # reductions known by their algebra, columns: likewise
        self.windowing = random.Random(seed ^ 0x5717)  # reads in a window around the point: likewise
        self.stenciling = random.Random(seed ^ 0x57E2)  # a 3-D star around the point, three levels deep: likewise
        self.counting = random.Random(seed ^ 0xC047)  # Welford's count taken from the loop's index: likewise
        self.tupling = random.Random(seed ^ 0x7091E)  # a count's `if` as one value of a pair's: likewise
        self.scanning = random.Random(seed ^ 0x5CA4)  # a fold masked by the point's own position: likewise
        # f16 and bf16 (only with `narrow`: the f32 program of each seed stays the one it always was, and the
        # 16-bit one has its shape): which arrays hold them and which leaves pass through them; likewise
        self.narrowing = random.Random(seed ^ 0x16B16) if narrow else None
        self.n = 0
        self.params: list[ast.Param] = []
        self.sizes = ["s0", "s1"]  # sizes of streamed arrays
        self.helpers: list[ast.FunDef] = []
        self.prelude: list[tuple[str, ast.Exp]] = []
        self.index_sizes: dict[str, str] = {}  # a map index -> the size of its dimension
        self.product = False  # a 2-D kernel whose streams all go over rows picked by both indices
        self.indexed_rows: dict[str, tuple[str, str]] = {}  # a thread's row spelled M[i]: row -> (M, i)

    def element(self) -> ast.TScalar:
        """A streamed parameter's element type: f32, or with `narrow` now and
        then f16 or bf16 (its stream reads each element as `f32(x[k])`)."""
        if self.narrowing is None or self.narrowing.random() >= NARROW_ARRAYS:
            return F32
        return self.narrowing.choice([F16, BF16])

    def narrowed(self, e):
        """An f32 leaf, with `narrow` now and then rounded through f16 or bf16
        and back, with an operation of that type on a literal of it on the
        way (`f32(bf16(x) * 1.5bf16)`). The leaves are small: f16's range holds them."""
        if self.narrowing is None or self.narrowing.random() >= NARROW_LEAVES:
            return e
        kind = self.narrowing.choice(["f16", "bf16"])
        x = call(kind, e)
        if self.narrowing.random() < 0.6:
            literal = ast.FloatLit(self.narrowing.choice([0.5, 1.5, 0.1, 3.0]), kind)
            x = binop(self.narrowing.choice(["+", "-", "*", "/"]), x, literal)
        return call("f32", x)

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
        if self.algebra.random() < 0.35:
            return self.algebraic(scope)
        op = rr.choice(["+", "*", "min", "max", "argmin"])
        array, length = self.reduced_array(rr, scope)
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
        fold = ast.Lambda(F32, params, loop)
        if rr.random() < 0.5:
            return ast.StreamSeq(fold, (array, init))
        # a streamRed whose combine is the loop's own operator, from its identity
        a, b = self.fresh("ca"), self.fresh("cb")
        combine = ast.Lambda(F32, (ast.Param(F32, a), ast.Param(F32, b)), binop(op, v(a), v(b)) if op in "+*"
                             else call(op, v(a), v(b)))
        identity = {"+": f(0.0), "*": f(1.0), "min": f(1.0e30), "max": ast.UnOp("-", f(1.0e30))}[op]
        return ast.StreamSeq(fold, (array, identity), combine=combine)

    def reduced_array(self, rng, scope: Scope):
        """What a reduction walks, drawn from `rng`: a row of the level's own
        (seven times in ten where there is one), or a vector every row reads;
        with its length."""
        if scope.rows and rng.random() < 0.7:
            row, length = rng.choice(scope.rows)
            return self.row(row), length
        length = rng.choice(self.sizes)
        return v(self.param(arr(F32, length), "ys")), length

    def algebraic(self, scope: Scope):
        """A row's reduction known by its algebra rather than one operator: a
        count under an `if`, a decreasing sum, Welford's count, mean and M2,
        an online maximum with a sum of exponentials rescaled to it, or one
        a streamRed's combine states (`reduced`)."""
        ra = self.algebra
        array, length = self.reduced_array(ra, scope)
        k, y = self.fresh("k"), self.fresh("y")
        bound = v(length) if isinstance(length, str) else i(length)
        x = ast.Index(array, (v(k),))
        form = ra.choice(["count", "minus", "welford", "online", "online_if", "first", "range", "first", "range"])
        if form in ("first", "range"):
            return self.reduced(form, array)
        if form == "count" and self.tupling.random() < 0.5:
            return self.count_beside_min(x, k, bound)
        if form == "count":
            c = self.fresh("cnt")
            loop = ast.Loop((ast.LoopParam(c, i(0)),), k, bound,
                            ast.If(binop("<", x, f(0.25)), binop("+", v(c), i(1)), v(c)), v(c))
            return ast.Let((c,), False, loop, call("f32", v(c)))
        if form == "minus":
            a = self.fresh("dec")
            return ast.Loop((ast.LoopParam(a, f(0.5)),), k, bound, binop("-", v(a), binop("*", x, f(0.5))), v(a))
        if form == "welford" and self.counting.random() < 0.5:
            return self.welford_by_index(x, k, bound)
        if form == "welford":
            n, mu, q, n2, d, mu2 = (self.fresh(b) for b in ("wn", "wmu", "wq", "wn", "wd", "wmu"))
            step = ast.Let((y,), False, x, ast.Let((n2,), False, binop("+", v(n), f(1.0)), ast.Let(
                (d,), False, binop("-", v(y), v(mu)), ast.Let((mu2,), False, binop("+", v(mu), binop("/", v(d), v(n2))),
                                                              ast.TupleExp((v(n2), v(mu2), binop("+", v(q), binop(
                                                                  "*", v(d), binop("-", v(y), v(mu2))))))))))
            loop = ast.Loop((ast.LoopParam(n, f(0.0)), ast.LoopParam(mu, f(0.0)), ast.LoopParam(q, f(0.0))), k, bound,
                            step, ast.TupleExp((v(n), v(mu), v(q))))
            return ast.Let((n, mu, q), True, loop, binop("+", v(mu), binop("*", v(q), f(0.001))))
        m, t, nm = self.fresh("om"), self.fresh("os"), self.fresh("onm")
        if form == "online":
            step = ast.Let((nm,), False, call("max", v(m), v(y)), ast.TupleExp((v(nm), binop(
                "+", binop("*", v(t), call("exp", binop("-", v(m), v(nm)))), call("exp", binop("-", v(y), v(nm)))))))
        else:
            step = ast.If(binop(">", v(y), v(m)),
                          ast.TupleExp((v(y), binop("+", binop("*", v(t), call("exp", binop("-", v(m), v(y)))), f(1.0)))),
                          ast.TupleExp((v(m), binop("+", v(t), call("exp", binop("-", v(y), v(m)))))))
        loop = ast.Loop((ast.LoopParam(m, ast.UnOp("-", f(1.0e30))), ast.LoopParam(t, f(0.0))), k, bound,
                        ast.Let((y,), False, x, step), ast.TupleExp((v(m), v(t))))
        return ast.Let((m, t), True, loop, binop("+", v(m), binop("*", v(t), f(0.01))))

    def count_beside_min(self, x, k: str, bound):
        """A minimum and a count carried together, the count's `if` giving
        that value alone (`(min(lo, y), if y < t then c + 1 else c)`)."""
        y, lo, c = self.fresh("y"), self.fresh("lo"), self.fresh("cnt")
        step = ast.Let((y,), False, x, ast.TupleExp((call("min", v(lo), v(y)), ast.If(
            binop("<", v(y), f(0.25)), binop("+", v(c), i(1)), v(c)))))
        loop = ast.Loop((ast.LoopParam(lo, f(1.0e30)), ast.LoopParam(c, i(0))), k, bound, step,
                        ast.TupleExp((v(lo), v(c))))
        return ast.Let((lo, c), True, loop, binop("+", v(lo), call("f32", v(c))))

    def welford_by_index(self, x, k: str, bound):
        """Welford's mean and M2 whose count is the loop's index plus one
        (`d / f32(k + 1)`): the kernel stage carries the count."""
        y, mu, q, d, mu2 = (self.fresh(b) for b in ("y", "wmu", "wq", "wd", "wmu"))
        count = call("f32", binop("+", v(k), i(1)))
        step = ast.Let((y,), False, x, ast.Let((d,), False, binop("-", v(y), v(mu)), ast.Let(
            (mu2,), False, binop("+", v(mu), binop("/", v(d), count)),
            ast.TupleExp((v(mu2), binop("+", v(q), binop("*", v(d), binop("-", v(y), v(mu2)))))))))
        loop = ast.Loop((ast.LoopParam(mu, f(0.0)), ast.LoopParam(q, f(0.0))), k, bound, step,
                        ast.TupleExp((v(mu), v(q))))
        return ast.Let((mu, q), True, loop, binop("+", v(mu), binop("*", v(q), f(0.001))))

    def reduced(self, form: str, array):
        """A streamRed no operator of tiler's algebra describes (each update
        reads a carried value in its test): the first position past a
        threshold (merged by `min`), or the range of the elements (the
        smallest and the largest, merged by `min` and `max`)."""
        k, kk, c, xs = self.fresh("k"), self.fresh("kk"), self.fresh("c"), self.fresh("xs")
        x = ast.Index(v(xs), (v(k),))
        if form == "first":
            a, b, p, never = self.fresh("fa"), self.fresh("fb"), self.fresh("first"), i(2147483647)
            combine = ast.Lambda(INT, (ast.Param(INT, a), ast.Param(INT, b)), call("min", v(a), v(b)))
            step = ast.If(binop("&&", binop("==", v(p), never), binop(">", x, f(0.25))), binop("+", v(kk), v(k)), v(p))
            fold = ast.Lambda(INT, (ast.Param(INT, kk), ast.Param(arr(F32, c), xs), ast.Param(INT, p)),
                              ast.Loop((ast.LoopParam(p, None),), k, v(c), step, v(p)))
            stream = ast.StreamSeq(fold, (array, never), combine=combine)
            return ast.Let((p,), False, stream, ast.If(binop("==", v(p), never), ast.UnOp("-", f(1.0)), call("f32", v(p))))
        lo, hi, l1, h1, l2, h2 = (self.fresh(n) for n in ("lo", "hi", "l", "h", "l", "h"))
        pair = ast.TTuple((F32, F32))
        combine = ast.Lambda(pair, tuple(ast.Param(F32, n) for n in (l1, h1, l2, h2)),
                             ast.TupleExp((call("min", v(l1), v(l2)), call("max", v(h1), v(h2)))))
        step = ast.TupleExp((ast.If(binop("<", x, v(lo)), x, v(lo)), ast.If(binop(">", x, v(hi)), x, v(hi))))
        fold = ast.Lambda(pair, (ast.Param(INT, kk), ast.Param(arr(F32, c), xs), ast.Param(F32, lo), ast.Param(F32, hi)),
                          ast.Loop((ast.LoopParam(lo, None), ast.LoopParam(hi, None)), k, v(c), step,
                                   ast.TupleExp((v(lo), v(hi)))))
        stream = ast.StreamSeq(fold, (array, f(1.0e30), ast.UnOp("-", f(1.0e30))), combine=combine)
        return ast.Let((lo, hi), True, stream, binop("-", v(hi), v(lo)))

    def column_loop(self, scope: Scope):
        """A sum down a column, `M[r, j]` for a map index j: the rows of a
        matrix whose columns the map's points are (side by side when split)."""
        j = self.algebra.choice(scope.thread_ints)
        length = self.algebra.choice(self.sizes)
        m = self.param(arr(F32, length, self.index_sizes[j]), "C")
        s, r = self.fresh("cs"), self.fresh("r")
        return ast.Loop((ast.LoopParam(s, f(0.0)),), r, v(length),
                        binop("+", v(s), ast.Index(v(m), (v(r), v(j)))), v(s))

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
        if len(scope.thread_ints) == 3 and self.stenciling.random() < 0.3:
            return self.star_loop(scope)
        own = [x for x in scope.thread_ints if self.index_sizes.get(x) == sizes[-1]]
        outer = [x for x in scope.thread_ints if len(sizes) > 1 and self.index_sizes.get(x) == sizes[-2]]
        if own and self.scanning.random() < 0.15:
            down = outer and self.scanning.random() < 0.4  # (down the columns: the level outside's positions)
            return self.prefix_fold(outer[0], sizes[-2], (own[0], sizes[-1])) if down else \
                self.prefix_fold(own[0], sizes[-1])
        if scope.thread_ints and self.windowing.random() < 0.08:
            return self.window_loop(scope)
        if scope.thread_ints and self.algebra.random() < 0.1:
            return self.column_loop(scope)
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
            choices += [call("f32", self.int_leaf(k)) for k in scope.ints]
            return self.narrowed(self.r.choice(choices))
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

    def int_leaf(self, k: str):
        """An int in scope, or now and then a hash of it whose product wraps
        around past 2^31 (docs/language.md), taken modulo a table's length as
        an index would be (negative where the product wrapped)."""
        if self.hashing.random() >= 0.2:
            return v(k)
        return binop("%", binop("+", binop("*", v(k), i(1103515245)), i(12345)), i(1024))

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


def generate(seed: int, narrow: bool = False) -> ast.Program:
    """Seed's program; with `narrow`, the same program with some of its
    streamed arrays and scalar leaves in f16 or bf16."""
    return Generator(seed, narrow).program()
