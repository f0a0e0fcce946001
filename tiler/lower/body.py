"""Lowering of typed expressions to kernel-IR statements.

`Body.exp(e)` appends the statements that compute `e` to the current block
and returns its value: an expression for a scalar, a `View` for an array, a
tuple for a tuple. Streams are lowered in streams.py, as the plan says.
"""
from __future__ import annotations

from .. import kir
from ..analyse.views import mentions
from ..check import typed as T
from ..check.types import Array, Binder, Scalar, flatten
from ..errors import CompilerBug
from ..kir.build import Names, const, fresh_name
from ..target import (
    CTYPE,
    CUDA_DEFINED,
    CXX_KEYWORDS,
    FAST_MATH,
    FAST_MATH_SCALED,
    LAUNCHER_NAMES,
    MATH,
    RESERVED,
    UNSIGNED,
    WRAPPING,
    c_name,
    math_function,
)
from ..target import VECTOR as VECTOR_TYPES
from ..transform.reassociate import is_float_arithmetic, reassociate
from ..transform.register_tile import RESERVED as MICRO_RESERVED
from ..tree import children, dispatch, methods
from . import narrow
from .copies import COUNTER, LINEAR, VECTOR
from .values import View

# names a kernel's own never take: C++'s and CUDA's (target.py), the math
# functions and vector types it calls by name, and tiler's own
C_RESERVED = (CXX_KEYWORDS | CUDA_DEFINED | {f for table in (*MATH.values(), *FAST_MATH.values()) for f in table.values()}
              | set(VECTOR_TYPES.values()) | {"min", "max", "tid", "in_range", COUNTER, LINEAR, VECTOR}
              | RESERVED | MICRO_RESERVED | LAUNCHER_NAMES)


def ctype_of(t) -> str:
    if isinstance(t, Scalar):
        return CTYPE[t.kind]
    if isinstance(t, Array):
        return CTYPE[t.elem.kind]
    raise CompilerBug(f"no C type for {t}")


class Body:
    def __init__(self, levels: dict | None = None):
        # --fast-math, given as the loop level of every name (reassociate.loop_levels): the hardware
        # approximations of math functions and f32 division, and float sums and products reordered
        self.levels = levels
        self.reassociated = False  # whether a chain changed its order (the kernel then records the rewrite)
        self.env: dict[Binder, object] = {}
        self.unrolls: dict[Binder, int] = {}  # a tiled stream's chunk size -> how often loops over it unroll
        self.tiled_chunks: set[Binder] = set()  # the chunk sizes of tiled streams (loops over them may be jammed)
        self.loop_depth = 0  # loops (and chunk loops) around the statements being lowered
        # the kernel's input arrays by name and their extents as laid out (kernel_params), and the tensor maps
        # its TMA copies read, by (array, box) (lower/tma_pipeline.py)
        self.arrays: dict[str, kir.Param] = {}
        self.extents: dict[str, tuple] = {}
        self.tensor_maps: dict[tuple, kir.Param] = {}
        self.grid_loop = False  # its blocks walk grid y or z in a loop (lower/__init__.py)
        self.indexing = 0  # index expressions being lowered, inside one another
        self._dispatch = dispatch(type(self), _METHODS)
        self.out: list = []
        self.used = Names(C_RESERVED)
        self.definitions: dict[str, object] = {}  # a named scalar -> the expression it holds (never reassigned)

    @property
    def fast_math(self) -> bool:
        return self.levels is not None

    # ---- names and blocks ------------------------------------------------------

    def fresh(self, base: str) -> str:
        return fresh_name(c_name(base), self.used)  # (names C++ and CUDA spell exactly are C_RESERVED: a suffix)

    def emit(self, stmt) -> None:
        self.out.append(stmt)

    def in_loop(self, fn):
        """Run `fn` as the body of a loop (see copies.copy_async's `repeated`)."""
        self.loop_depth += 1
        try:
            return fn()
        finally:
            self.loop_depth -= 1

    def block(self, fn):
        """Run `fn` with a fresh statement list; return (its statements, its value)."""
        saved, self.out = self.out, []
        try:
            value = fn()
            return tuple(self.out), value
        finally:
            self.out = saved

    def declare(self, base: str, ctype: str, init, span=None, const_=True) -> kir.Ref:
        name = self.fresh(base)
        self.emit(kir.Decl(name, ctype, init, const_, span))
        return kir.Ref(name)

    # ---- expressions ------------------------------------------------------------

    def exp(self, e):
        if self.indexing and not _into_index(e):
            # an index's value passes through this node otherwise than by + - *, min and max (a `%`, an
            # `if`): an overflow below it is no longer the index's own, so it wraps as a value's does
            self.indexing, saved = 0, self.indexing
            try:
                return self._dispatch[type(e)](self, e)
            finally:
                self.indexing = saved
        return self._dispatch[type(e)](self, e)

    def _lit(self, e: T.Lit):
        return const(e.value, ctype_of(e.type))

    def _var(self, e: T.Var):
        if e.binder not in self.env:
            raise CompilerBug(f"`{e.binder.name}` has no value while lowering", e.span, "lower")
        return self.env[e.binder]

    def _tuplee(self, e: T.TupleE):
        return tuple(self.exp(i) for i in e.items)

    def _binop(self, e: T.BinOp):
        if e.op in ("&&", "||"):
            return self._logic(e)
        if e.lhs.type.is_narrow:
            return narrow.operation(e.op, self.exp(e.lhs), self.exp(e.rhs), ctype_of(e.lhs.type))
        if self.levels is not None and is_float_arithmetic(e):
            return self._arithmetic(self._reassociate(e))
        a, b = self.exp(e.lhs), self.exp(e.rhs)
        ctype = ctype_of(e.lhs.type)
        if e.op in ("%", "/") and ctype in ("float", "double"):
            fn = math_function(ctype, e.op, self.fast_math)
            if fn is not None:
                return kir.Call(fn, (a, b))
        return kir.Bin(e.op, a, b, self._wraps(e.op, ctype))

    def _wraps(self, op: str, ctype: str) -> str | None:
        """The C type whose arithmetic a program's integer `op` wraps around
        in (target.WRAPPING); not where its value becomes an index by + - *,
        min and max alone (`x[i * n + j]`, `img[min(i + r, h - 1)]`): there
        a result past the type's range is the program's error
        (docs/language.md), and signed arithmetic lets nvcc fold the index
        into the 64-bit address."""
        return ctype if op in WRAPPING and ctype in UNSIGNED and not self.indexing else None

    def _logic(self, e: T.BinOp):
        a = self.exp(e.lhs)
        stmts, b = self.block(lambda: self.exp(e.rhs))
        if not stmts:
            return kir.Bin(e.op, a, b)
        result = self.declare("cond", "bool", a, e.span, const_=False)
        test = result if e.op == "&&" else kir.Un("!", result)
        self.emit(kir.If(test, stmts + (kir.Assign(result.name, b),), (), e.span))
        return result

    def _unop(self, e: T.UnOp):
        if e.op == "-" and e.type.is_narrow:
            return narrow.negated(self.exp(e.operand), ctype_of(e.type))
        if self.levels is not None and is_float_arithmetic(e):
            return self._arithmetic(self._reassociate(e))
        return kir.Un(e.op, self.exp(e.operand), self._wraps(e.op, ctype_of(e.type)) if e.op == "-" else None)

    def _reassociate(self, e):
        reordered = reassociate(e, self.levels)
        self.reassociated |= reordered != e  # (typed nodes compare by structure, spans aside)
        return reordered

    def _arithmetic(self, e):
        """A reordered chain of float sums and products, as it stands (its
        operands that are not float arithmetic are lowered as usual)."""
        if not is_float_arithmetic(e):
            return self.exp(e)
        if isinstance(e, T.UnOp):
            return kir.Un("-", self._arithmetic(e.operand))
        return kir.Bin(e.op, self._arithmetic(e.lhs), self._arithmetic(e.rhs))

    def _index(self, e: T.Index):
        view = self.exp(e.array)
        self.indexing += 1
        try:
            return view.index([self.exp(i) for i in e.indices])
        finally:
            self.indexing -= 1

    def _builtin(self, e: T.Builtin):
        if e.name in CTYPE:
            to, source = CTYPE[e.name], ctype_of(e.args[0].type)
            if narrow.is_narrow(to) or narrow.is_narrow(source):
                return narrow.converted(self.exp(e.args[0]), to, source)
            return kir.Cast(to, self.exp(e.args[0]))
        ctype = ctype_of(e.args[0].type)
        if narrow.is_narrow(ctype):
            return narrow.builtin(e.name, tuple(self.exp(a) for a in e.args), ctype)
        scaled = FAST_MATH_SCALED.get(ctype, {}).get(e.name) if self.levels is not None else None
        if scaled is not None:  # f(x) = g(x * c): the product joins the argument's chain
            fn, factor = scaled
            x = e.args[0]
            product = T.BinOp("*", x, T.Lit(factor, x.type, e.span), x.type, e.span)
            return kir.Call(fn, (self._arithmetic(self._reassociate(product)),))
        args = tuple(self.exp(a) for a in e.args)
        return kir.Call(math_function(ctype, e.name, self.fast_math), args)

    def _call(self, e: T.Call):
        raise CompilerBug(f"call of `{e.func}` was not inlined", e.span, "lower")

    def _joinrows(self, e: T.JoinRows):  # (Streams._joined lowers a stream's joined rows together)
        raise CompilerBug("rows joined outside a stream's inputs", e.span, "lower")

    def _iota(self, e: T.Iota):
        return View(None, const(0), (const(1),), (self.exp(e.count),), "int")

    def _let(self, e: T.Let):
        while isinstance(e, T.Let):
            if self.indexing and not all(_only_into_index(e.body, b) for b in e.binders):
                # a name inside an index that also reaches it some other way: its value wraps
                self.indexing, saved = 0, self.indexing
                try:
                    value = self.exp(e.value)
                finally:
                    self.indexing = saved
            else:  # (inside an index, a helper's parameter the index uses by + - *, min and max alone)
                value = self.exp(e.value)
            self.bind(e.binders, value, e.span)
            e = e.body
        return self.exp(e)

    def bind(self, binders, value, span=None) -> None:
        values = value if len(binders) > 1 else (value,)
        for b, v in zip(binders, values):
            self.env[b] = self.name_value(b, v, span)

    def name_value(self, b: Binder, v, span=None):
        """Scalars get a C variable (unless already one); arrays stay views."""
        if isinstance(v, (View, tuple)) or isinstance(v, (kir.Ref, kir.Const)):
            return v
        named = self.declare(b.name, ctype_of(b.type), v, span)
        self.definitions[named.name] = v
        return named

    def _if(self, e: T.If):
        cond = self.exp(e.cond)
        then_stmts, then = self.block(lambda: self.exp(e.then))
        else_stmts, else_ = self.block(lambda: self.exp(e.else_))
        parts_t, parts_e = value_parts(then), value_parts(else_)
        if any(isinstance(p, View) for p in parts_t + parts_e):
            raise CompilerBug("code generation does not support arrays chosen by `if` yet", e.span, "lower")
        if not then_stmts and not else_stmts:
            out = tuple(kir.Select(cond, a, b) for a, b in zip(parts_t, parts_e))
            return out if isinstance(then, tuple) else out[0]
        types = flatten(e.type)
        results = [self.fresh("sel") for _ in parts_t]
        for name, t in zip(results, types):
            self.emit(kir.Decl(name, ctype_of(t), None, False, e.span))
        self.emit(kir.If(cond, then_stmts + tuple(kir.Assign(n, v) for n, v in zip(results, parts_t)),
                         else_stmts + tuple(kir.Assign(n, v) for n, v in zip(results, parts_e)), e.span))
        refs = tuple(kir.Ref(n) for n in results)
        return refs if isinstance(then, tuple) else refs[0]

    def _loop(self, e: T.Loop):
        inits = [self.exp(i) for i in e.inits]
        bound = self.exp(e.bound)
        params = [self.declare(p.name, ctype_of(p.type), v, e.span, const_=False) for p, v in zip(e.params, inits)]
        for p, r in zip(e.params, params):
            self.env[p] = r
        if _jammable(e, self.env, self.tiled_chunks):
            return self._jammed(e, bound, params)
        index = self.fresh(e.index.name)
        self.env[e.index] = kir.Ref(index)
        stmts, nexts = self.in_loop(lambda: self.block(lambda: self._carry(e.body, e.params, params)))
        unroll = self.unrolls.get(e.bound.binder) if isinstance(e.bound, T.Var) else None
        self.emit(kir.For(index, const(0), bound, const(1), stmts, e.span, unroll=unroll))
        for b, r in zip(e.results, params):
            self.env[b] = r
        return self.exp(e.rest)

    def _jammed(self, e: T.Loop, bound, params):
        """The loop unrolled JAM times and jammed (_jammable): each step
        computes JAM iterations' inner loops in one loop, every element of
        theirs in turn, then finishes those iterations in order. Each inner
        loop's own arithmetic and order are unchanged, so are the results; a
        row the iterations share is read once a step for all of them."""
        let, inner = e.body, e.body.value
        step = self.fresh(e.index.name)

        def iterations():
            accs = []
            for u in range(JAM):
                self.env[e.index] = kir.Bin("+", kir.Ref(step), const(u))
                values = [self.exp(i) for i in inner.inits]
                accs.append([self.declare(p.name, ctype_of(p.type), v, inner.span, const_=False)
                             for p, v in zip(inner.params, values)])
            count = self.exp(inner.bound)
            index = self.fresh(inner.index.name)
            self.env[inner.index] = kir.Ref(index)

            def elements():
                for u in range(JAM):
                    self.env[e.index] = kir.Bin("+", kir.Ref(step), const(u))
                    for p, r in zip(inner.params, accs[u]):
                        self.env[p] = r
                    self._carry(inner.body, inner.params, accs[u])
            stmts, _ = self.block(elements)
            self.emit(kir.For(index, const(0), count, const(1), stmts, inner.span,
                              note=f"{JAM} iterations of the loop at {e.span.short} at once"))
            for u in range(JAM):
                self.env[e.index] = kir.Bin("+", kir.Ref(step), const(u))
                for b, r in zip(inner.results, accs[u]):
                    self.env[b] = r
                self.bind(let.binders, self.exp(inner.rest), let.span)
                self._carry(let.body, e.params, params)
        stmts, _ = self.block(iterations)
        whole = isinstance(bound, kir.Const) and bound.value % JAM == 0
        stop = bound if whole else self.declare(f"{e.index.name}_jammed", "int",
                                                kir.Bin("-", bound, kir.Bin("%", bound, const(JAM))))
        self.emit(kir.For(step, const(0), stop, const(JAM), stmts, e.span,
                          note=f"{JAM} iterations a step, their inner loops jammed"))
        if not whole:  # the last iterations, fewer than JAM, one at a time
            index = self.fresh(e.index.name)
            self.env[e.index] = kir.Ref(index)
            rest, _ = self.block(lambda: self._carry(e.body, e.params, params))
            self.emit(kir.For(index, stop, bound, const(1), rest, e.span))
        for b, r in zip(e.results, params):
            self.env[b] = r
        return self.exp(e.rest)

    def _carry(self, body, binders, refs):
        """Evaluate a loop or stream body and assign its values to the carried variables."""
        values = value_parts(self.exp(body))
        temps = [self.declare(f"{b.name}_next", ctype_of(b.type), v) if len(refs) > 1 else v
                 for b, v in zip(binders, values)]
        for r, t in zip(refs, temps):
            self.emit(kir.Assign(r.name, t))

    def _stream(self, e: T.Stream):
        raise NotImplementedError  # provided by streams.Streams


# iterations of a loop computed at once where their inner loops are jammed
# (H200, k-means' centres around a row of d <= 64 read at launch: 0.628 ms
# one at a time, 0.440 two, 0.357 four, 0.336 eight; the row's length known
# when compiling: 0.256)
JAM = 8


def _jammable(e: T.Loop, env: dict, chunks: set) -> bool:
    """Whether the loop may be unrolled and jammed around the loop its body
    starts with (`let s = loop ... for f < n do ... in rest`): it walks a
    tiled stream's chunk (whose rows are in shared memory), the inner loop's
    count is known only at launch (a constant one nvcc unrolls and keeps in
    registers itself) and the same in every iteration, and the inner loop
    reads nothing the outer one carries, so each iteration's inner loop can
    run before the iterations before it finish."""
    if not (isinstance(e.bound, T.Var) and e.bound.binder in chunks):
        return False
    if not (isinstance(e.body, T.Let) and isinstance(e.body.value, T.Loop)):
        return False
    inner = e.body.value
    if not isinstance(inner.bound, T.Var) or isinstance(env.get(inner.bound.binder), kir.Const) or \
            mentions(inner.bound, e.index):
        return False
    parts = (inner.bound, inner.body, inner.rest, *inner.inits)
    return not any(mentions(x, p) for x in parts for p in e.params)


def value_parts(v) -> tuple:
    return v if isinstance(v, tuple) else (v,)


_METHODS = methods(Body, T.Exp)  # each node class's method, checked when the module loads


def _into_index(e) -> bool:
    """Whether an index's value passes through `e` by + - *, min and max
    alone (or `e` is a name, a literal, or a let, whose value Body._let
    judges by how its name is used): see Body._wraps."""
    if isinstance(e, T.BinOp):
        return e.op in WRAPPING
    if isinstance(e, T.UnOp):
        return e.op == "-"
    if isinstance(e, T.Builtin):
        return e.name in ("min", "max")  # a clamp to an edge (`img[min(i + r, h - 1)]`)
    return isinstance(e, (T.Var, T.Lit, T.Let))  # (a let's value: Body._let asks how its name is used)


def _only_into_index(e, binder, direct: bool = True) -> bool:
    """Whether every use of `binder` in `e` (inside an index) reaches an
    index by + - *, min and max alone: an inlined helper's parameter that
    its body clamps (`min(max(v, 0), hi - 1)`) does; one it takes `% m`
    of does not."""
    if isinstance(e, T.Var):
        return direct or e.binder is not binder
    if isinstance(e, T.Index):  # each index is an index of its own
        return _only_into_index(e.array, binder, False) and all(_only_into_index(i, binder) for i in e.indices)
    if isinstance(e, T.Let):  # the inner name's value is as direct as that name's uses
        inner = direct and all(_only_into_index(e.body, b) for b in e.binders)
        return _only_into_index(e.value, binder, inner) and _only_into_index(e.body, binder, direct)
    keeps = direct and _into_index(e)
    return all(_only_into_index(c, binder, keeps) for c in children(e, T.is_exp))
