"""Folds per point over the positions up to its own, or from it to the
end (`prefix_fold`): a prefix sum, product, minimum, maximum or count as a
user writes one in a language with no scan, the position's test spelled
several ways, as a plain loop or a stream's loop over its chunks
(analyse/scans.py)."""
from __future__ import annotations

from ..syntax import ast
from .trees import F32, INT, arr, binop, call, f, v


class Prefixes:
    def prefix_fold(self, idx: str, size: str, column: tuple | None = None):
        """A fold over a vector of the innermost level's size, masked by the
        point's index `idx`: its scan version against the interpreter. With
        `column` (the innermost level's index and size; `idx` the level's
        outside it), a fold down column k of a matrix, read `M[j, k]` or
        `M[j][k]`."""
        rs = self.scanning
        shape = (size,) if column is None else (size, column[1])
        xs = self.param(arr(F32, *shape), "ps")
        acc, j, kk, chunk, xc = (self.fresh(x) for x in ("pa", "pj", "pkk", "pc", "pxc"))
        if rs.random() < 0.25:
            return self._chain(idx, size, xs, acc, j, column)
        as_stream = rs.random() < 0.5
        x = ast.Index(v(xc if as_stream else xs), (v(j),))
        if column is not None:  # (the element of row j, as one index or a chain)
            x = ast.Index(x.array, (v(j), v(column[0]))) if rs.random() < 0.5 else ast.Index(x, (v(column[0]),))
        pos = binop("+", v(kk), v(j)) if as_stream else v(j)
        op = rs.choice(["+", "+", "min", "max", "*", "count"])
        step = {"+": binop("+", v(acc), x), "min": call("min", v(acc), x), "max": call("max", x, v(acc)),
                "*": binop("*", v(acc), binop("+", f(1.0), binop("*", x, f(0.01)))),
                "count": ast.If(binop("<", x, f(0.25)), binop("+", v(acc), f(1.0)), v(acc))}[op]
        init = {"+": f(0.5), "min": f(1.0e30), "max": ast.UnOp("-", f(1.0e30)), "*": f(1.0), "count": f(0.0)}[op]
        form = rs.choice(["<=", "<", ">=", ">", "kept", "and", "suffix", "after"])
        keep = v(acc)
        if form == "kept":  # the carried value kept in the `then` branch
            body = ast.If(binop(">", pos, v(idx)), keep, step)
        elif form == "and":  # joined to the element's own test
            body = ast.If(binop("&&", binop("<=", pos, v(idx)), binop(">", x, ast.UnOp("-", f(0.5)))), step, keep)
        elif form in ("suffix", "after"):  # from the point's position on, or after it
            body = ast.If(binop(">=" if form == "suffix" else ">", pos, v(idx)), step, keep)
        else:  # `pos <= i`, `pos < i`, or the point first: `i >= pos`, `i > pos`
            first = form in (">=", ">")
            body = ast.If(binop(form, v(idx), pos) if first else binop(form, pos, v(idx)), step, keep)
        if not as_stream:
            return ast.Loop((ast.LoopParam(acc, init),), j, v(size), body, v(acc))
        loop = ast.Loop((ast.LoopParam(acc, None),), j, v(chunk), body, v(acc))
        params = (ast.Param(INT, kk), ast.Param(arr(F32, chunk, *shape[1:]), xc), ast.Param(F32, acc))
        return ast.StreamSeq(ast.Lambda(F32, params, loop), (v(xs), init))

    def _chain(self, idx: str, size: str, xs: str, acc: str, j: str, column: tuple | None):
        """Two running values up to (or before) the point, the second's terms
        reading the first's new or old value: a chain of two scans
        (analyse/chains.py), along the vector or down column `column[0]`."""
        rs = self.scanning
        hi, new = self.fresh("ph"), self.fresh("pn")
        x = ast.Index(v(xs), (v(j),) if column is None else (v(j), v(column[0])))
        kind = rs.choice(["max", "min", "old", "new"])
        second = {"max": call("max", v(hi), v(new)), "min": call("min", v(new), v(hi)),
                  "old": binop("+", v(hi), v(acc)), "new": binop("+", v(hi), binop("*", v(new), f(0.5)))}[kind]
        init = {"max": ast.UnOp("-", f(1.0e30)), "min": f(1.0e30), "old": f(0.0), "new": f(0.25)}[kind]
        update = ast.Let((new,), False, binop("+", v(acc), x), ast.TupleExp((v(new), second)))
        test = binop(rs.choice(["<=", "<"]), v(j), v(idx))
        body = ast.If(test, update, ast.TupleExp((v(acc), v(hi))))
        rest = v(hi) if kind in ("max", "min") else binop("+", v(hi), v(acc))
        return ast.Loop((ast.LoopParam(acc, f(0.5)), ast.LoopParam(hi, init)), j, v(size), body, rest)
