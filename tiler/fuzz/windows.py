"""The reads of a random program's windows (generate.py's `Generator`
extends this): a 1-D sum over a window around a point, and a 3-D star
around the point of three map levels."""
from __future__ import annotations

from ..syntax import ast
from .trees import F32, Scope, arr, binop, call, f, i, v


class Windows:
    def window_loop(self, scope: Scope):
        """A sum over a window around the point along one map index j:
        `X[j + t - r]` for t < 2r + 1 (or t < a size), kept inside X by a
        clamp, a guard that skips the read, or a wrap."""
        rw = self.windowing
        j = rw.choice(scope.thread_ints)
        size = self.index_sizes[j]
        x = self.param(arr(F32, size), "W")
        s, t, q = self.fresh("ws"), self.fresh("t"), self.fresh("q")
        radius = rw.choice([1, 2, 3])
        bound = i(2 * radius + 1) if rw.random() < 0.8 else v(rw.choice(self.sizes))
        at = binop("-", binop("+", v(j), v(t)), i(radius))
        edge = rw.choice(["clamp", "guard", "wrap"])
        if edge == "clamp":
            step = binop("+", v(s), ast.Index(v(x), (call("min", call("max", at, i(0)), binop("-", v(size), i(1))),)))
        elif edge == "wrap":  # (a wide window may pass the array more than once: wrapped from the far side too)
            wrapped = binop("%", binop("+", binop("%", at, v(size)), v(size)), v(size))
            step = binop("+", v(s), binop("*", ast.Index(v(x), (wrapped,)), f(0.5)))
        else:
            inside = binop("&&", binop(">=", v(q), i(0)), binop("<", v(q), v(size)))
            step = ast.Let((q,), False, at, ast.If(inside, binop("+", v(s), ast.Index(v(x), (v(q),))), v(s)))
        return ast.Loop((ast.LoopParam(s, f(0.0)),), t, bound, step, v(s))

    def star_loop(self, scope: Scope):
        """A 3-D star around the point of three map levels (z, y, x): `S[z,
        y, x]` plus, for each offset o up to a radius, the six neighbours
        `S[z - o, y, x]` ... `S[z, y, x + o]`, kept inside S by a clamp or a
        guard that reads 0 past an edge (a stencil analyse/march.py marches)."""
        rs = self.stenciling
        dims = scope.thread_ints[:3]
        sizes = [self.index_sizes[d] for d in dims]
        x = self.param(arr(F32, *sizes), "S")
        s, t, o = self.fresh("ss"), self.fresh("t"), self.fresh("o")
        radius, clamp = rs.choice([1, 2, 4]), rs.random() < 0.5
        terms = []
        for axis in range(3):
            for sign in ("-", "+"):
                at = binop(sign, v(dims[axis]), v(o))
                last = binop("-", v(sizes[axis]), i(1))
                index = [v(d) for d in dims]
                index[axis] = call("min", call("max", at, i(0)), last) if clamp else at
                read = ast.Index(v(x), tuple(index))
                inside = binop(">=", at, i(0)) if sign == "-" else binop("<", at, v(sizes[axis]))
                terms.append(read if clamp else ast.If(inside, read, f(0.0)))
        step = terms[0]
        for term in terms[1:]:
            step = binop("+", step, term)
        body = ast.Let((o,), False, binop("+", v(t), i(1)),
                       binop("+", v(s), binop("*", step, f(rs.choice([0.5, 0.25, 0.125])))))
        centre = ast.Index(v(x), tuple(v(d) for d in dims))
        return ast.Loop((ast.LoopParam(s, centre),), t, i(radius), body, v(s))
