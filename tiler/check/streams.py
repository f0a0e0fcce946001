"""The `streamSeq` and `streamRed` rules of LANGUAGE.md, for `ExpChecker` (a
mixin, so this module never imports the checker it is part of).

`fn R (int kk, [T1, c] x1, ..., [Tk, c] xk, A1 acc1, ..., Am accm) => body`
over `a1, ..., ak, init1, ..., initm`: the chunk parameters are the array
parameters that share the first one's outer size name `c` (a fresh name:
chunks may have any length); the accumulators are scalars that start as the
initial values and that `body` returns. A `streamRed` puts before that
lambda its combine, `fn (A1, ..., Am) (A1 a1, ..., Am am, A1 b1, ..., Am bm)
=> e`, which reads nothing but its parameters.
"""
from __future__ import annotations

from ..syntax import ast
from ..tree import descendants
from . import typed as T
from .types import ERROR, I32, Array, Binder, Scalar, Tuple, agrees, is_scalar, tuple_of


class Streams:
    def _streamseq(self, e: ast.StreamSeq):
        lam, word = e.lam, _word(e)
        args = self.args(e.args)
        k, chunk_name = self._count_chunk_params(lam.params)
        if not self._shape_ok(e, k, len(args)):
            return T.Lit(0, ERROR, e.span)
        arrays, inits = args[:k], args[k:]
        self.common_length(arrays, "streamed", word)
        mark = self.scope.mark()
        first = lam.params[0]
        offset = Binder(first.name, I32, "offset", first.span)
        self.scope.bind(offset.name, offset)
        chunk = Binder(chunk_name, I32, "chunk", lam.params[1].type.span)
        self.scope.bind_size(chunk_name, chunk)
        chunk_params = tuple(self._chunk_param(p, a, chunk) for p, a in zip(lam.params[1:k + 1], arrays))
        accs = tuple(self._accumulator(p, a) for p, a in zip(lam.params[k + 1:], inits))
        for b in chunk_params + accs:
            self.scope.bind(b.name, b)
        want = tuple_of(a.type for a in accs)
        ret = self.resolve(lam.ret)
        if not any(a.type is ERROR for a in accs) and not agrees(ret, want):
            self.error(lam.ret.span, f"the lambda returns {ret}, but its accumulators are {want}",
                    f"a {word} lambda returns the next value of its accumulators")
        body = self.exp(lam.body)
        if not agrees(body.type, want) and not agrees(body.type, ret):
            self.error(lam.body.span, f"the {word} body must give the next accumulator value ({want}); "
                    f"it gives {body.type}")
        self.scope.restore(mark)
        stype = ERROR if any(a.type is ERROR for a in accs) else want
        combine = None if e.combine is None or stype is ERROR else self._combine(e.combine, accs)
        return T.Stream(offset, chunk, chunk_params, accs, tuple(t for _, t in arrays),
                        tuple(t for _, t in inits), body, stype, e.span, origin=e, combine=combine)

    def _combine(self, lam: ast.Lambda, accs) -> T.Combine | None:
        """A streamRed's combine: two partial results of its accumulators merged into one."""
        types = [a.type for a in accs]
        want = tuple_of(types)
        shape = f"fn {want} ({', '.join(f'{t} {a.name}1' for t, a in zip(types, accs))}, " \
                f"{', '.join(f'{t} {a.name}2' for t, a in zip(types, accs))}) => ..."
        if len(lam.params) != 2 * len(types):
            self.error(lam.span, f"a streamRed's combine merges two partial results of its {len(types)} "
                    f"accumulator{'s' if len(types) > 1 else ''}, so it takes {2 * len(types)} parameters; "
                    f"it takes {len(lam.params)}", f"write `{shape}`")
            return None
        self._no_duplicates([q.name for q in lam.params], [q.span for q in lam.params])
        mark = self.scope.mark()
        params = []
        for q, t in zip(lam.params, types * 2):
            declared = self.resolve(q.type)
            if declared is not ERROR and declared != t:
                self.error(q.type.span, f"combine parameter `{q.name}` is declared {declared}, but the accumulator "
                        f"it merges is {t}", f"the combine takes the accumulators' types twice: `{shape}`")
            b = Binder(q.name, t, "combine", q.span)
            self.scope.bind(b.name, b)
            params.append(b)
        ret = self.resolve(lam.ret)
        if ret is not ERROR and not agrees(ret, want):
            self.error(lam.ret.span, f"the combine returns {ret}, but its accumulators are {want}",
                    "it returns one partial result: a value of each accumulator")
        body = self.exp(lam.body)
        self.scope.restore(mark)
        if body.type is not ERROR and not agrees(body.type, want):
            self.error(lam.body.span, f"the combine must give a partial result ({want}); it gives {body.type}")
            return None
        own = set(params)
        for n in (n for n in descendants(body, T.is_exp) if not isinstance(n, T.Var)):  # what it binds
            own.update(v for v in vars(n).values() if isinstance(v, Binder))
            own.update(b for v in vars(n).values() if isinstance(v, tuple) for b in v if isinstance(b, Binder))
        outside = next((n for n in descendants(body, T.is_exp) if isinstance(n, T.Var) and n.binder not in own
                        and n.type is not ERROR), None)
        if outside is not None:
            self.error(outside.span, f"a streamRed's combine reads only its parameters: `{outside.binder.name}` is "
                    "bound outside it", "it merges two partial results wherever they were made; what it needs "
                    "must come in through the accumulators")
            return None
        return T.Combine(tuple(params), body, lam.span)

    @staticmethod
    def _count_chunk_params(params) -> tuple[int, str | None]:
        k, name = 0, None
        for p in params[1:]:
            if not isinstance(p.type, ast.TArray) or (name is not None and p.type.size != name):
                break
            name = p.type.size
            k += 1
        return k, name

    def _shape_ok(self, e: ast.StreamSeq, k: int, nargs: int) -> bool:
        lam, word = e.lam, _word(e)
        if not lam.params or self.resolve(lam.params[0].type) != I32:
            at = lam.params[0].span if lam.params else lam.span
            self.error(at, f"the first parameter of a {word} lambda is the chunk's start index, an int",
                    "write `fn R (int kk, [T, chunk] xs, A acc) => ...`")
            return False
        if k == 0:
            self.error(lam.params[1].span if len(lam.params) > 1 else lam.span,
                    f"a {word} lambda needs chunk parameters after the index, like `[f32, chunk] xs`")
            return False
        size = lam.params[1].type.size
        if isinstance(size, int) or size in self.scope.sizes and self.scope.sizes[size].kind != "chunk":
            self.error(lam.params[1].type.span, f"the chunk size must be a fresh name, not `{size}`",
                    "chunks may have any length: name it, e.g. `[f32, chunk] xs`")
            return False
        clash = next((q for q in lam.params if q.name == size), None)
        if clash is not None:  # one name for two things: the body could not say which it means
            self.error(clash.span, f"`{size}` is both the chunk size and a parameter of this lambda",
                    "give the chunk size a name of its own, e.g. `[f32, chunk] xs`")
            return False
        self._no_duplicates([q.name for q in lam.params], [q.span for q in lam.params])
        after = lam.params[1 + k] if len(lam.params) > 1 + k else None
        if after is not None and isinstance(after.type, ast.TArray):  # an array cannot be an accumulator
            self.error(after.type.span, f"`{after.name}` is a chunk, but its size `{after.type.size}` is not the chunk "
                    f"size `{size}`", f"every chunk of one {word} has the same size, `{size}`")
            return False
        m = len(lam.params) - 1 - k
        if nargs != k + m:
            self.error(e.span, f"this {word} lambda takes {k} chunk{'s' if k > 1 else ''} and {m} "
                    f"accumulator{'s' if m != 1 else ''}, so {k + m} arguments after it; got {nargs}")
            return False
        if m == 0:
            self.error(lam.span, f"a {word} lambda needs at least one accumulator after its chunks")
            return False
        return True

    def _chunk_param(self, p: ast.Param, arg, chunk: Binder) -> Binder:
        node, a = arg
        if a.type is ERROR or not isinstance(a.type, Array):
            # the declaration still counts, so mistakes in the body are found too
            return Binder(p.name, self.resolve(p.type), "chunkparam", p.span)
        expected = Array(a.type.elem, (chunk,) + a.type.shape[1:])
        declared = self.resolve(p.type, expected)
        if not agrees(declared, expected):
            self.error(p.span, f"chunk parameter `{p.name}` is declared {declared}, but `{self.text(node)}` gives "
                    f"chunks of type {expected}")
            return Binder(p.name, ERROR, "chunkparam", p.span)
        return Binder(p.name, declared, "chunkparam", p.span)

    def _accumulator(self, p: ast.Param, arg) -> Binder:
        node, init = arg
        declared = self.resolve(p.type)
        if declared is ERROR or init.type is ERROR:
            return Binder(p.name, declared, "acc", p.span)
        if not is_scalar(declared) or isinstance(declared, Tuple):
            self.error(p.span, f"accumulators must be scalars; `{p.name}` is {declared}",
                    f"one accumulator a value: `{', '.join(f'{t} {p.name}{i}' for i, t in enumerate(declared.items))}`, "
                    "the body returning them as a tuple" if isinstance(declared, Tuple) and
                    all(isinstance(t, Scalar) for t in declared.items) else "")
            return Binder(p.name, ERROR, "acc", p.span)
        literal = node.operand if isinstance(node, ast.UnOp) and node.op == "-" else node  # (-1000 is a negation)
        if declared != init.type and isinstance(literal, ast.IntLit) and not literal.suffix and declared.is_float:
            self.error(node.span, f"accumulator `{p.name}` is declared {declared} but starts as `{self.text(node)}`, which "
                    "is int", f"write `{self.text(node)}{declared}` (a number without a point or a suffix is an int)")
            return Binder(p.name, ERROR, "acc", p.span)
        if declared != init.type:
            hint = (f"declare it `{init.type} {p.name}`, or start it with a value of type {declared}"
                    if isinstance(init.type, Scalar) else "")
            self.error(p.span, f"accumulator `{p.name}` is declared {declared} but starts as `{self.text(node)}`, "
                    f"which is {init.type}", hint)
            return Binder(p.name, ERROR, "acc", p.span)
        return Binder(p.name, declared, "acc", p.span)


def _word(e: ast.StreamSeq) -> str:
    """What the program wrote: `streamSeq`, or `streamRed` (one with a combine)."""
    return "streamSeq" if e.combine is None else "streamRed"
