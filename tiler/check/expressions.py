"""Type checking of expressions: `ast` expressions -> `typed` expressions.

`ExpChecker.exp(e)` returns a typed expression; a mistake is recorded in
`self.errors` and the expression gets the type `ERROR`, which agrees with
everything, so checking goes on and each mistake is reported once.
"""
from __future__ import annotations

from ..errors import Diagnostic
from ..syntax import ast, pretty
from ..tree import dispatch, methods
from . import typed as T
from .arithmetic import Arithmetic
from .scope import Scope, declared_at, suggest
from .streams import Streams
from .types import (
    BF16,
    BOOL,
    ERROR,
    F16,
    F32,
    F64,
    I32,
    I64,
    Array,
    Binder,
    Tuple,
    agrees,
    flatten,
    holds_array,
    is_scalar,
    match,
    scalar,
    size_text,
    substitute,
    tuple_of,
)

MATH_FLOAT1 = {"sqrt", "rsqrt", "exp", "log", "sin", "cos", "floor"}
MATH = MATH_FLOAT1 | {"pow", "abs", "min", "max"}
CONVERSIONS = {"f32": F32, "f64": F64, "int": I32, "i32": I32, "i64": I64, "f16": F16, "bf16": BF16}
KIND_WORDS = {"param": "the parameter", "size": "the size", "chunk": "the chunk size",
              "offset": "the chunk offset", "let": "the let-bound name", "loop": "the loop variable",
              "index": "the loop index", "result": "the loop result", "lambda": "the lambda parameter",
              "chunkparam": "the streamSeq chunk parameter", "acc": "the accumulator",
              "combine": "the combine parameter"}


def text(node, source=None) -> str:
    """The source text of `node` (or its printed form), shortened for messages."""
    span = node.span
    if source is not None and span.line == span.end_line and span.line > 0:
        out = source.line_text(span.line)[span.col - 1:span.end_col - 1]
    else:
        try:
            out = pretty(node)
        except (TypeError, ValueError):
            return "this expression"
    out = " ".join(out.split())
    return out if len(out) <= 40 else out[:37] + "..."


def describe(b: Binder) -> str:
    return f"{KIND_WORDS.get(b.kind, 'the name')} `{b.name}` ({b.type}, bound at {b.span.short})"


class ExpChecker(Arithmetic, Streams):
    """Checks expressions of a kernel body or a helper function (literals and
    operators: arithmetic.py)."""

    def __init__(self, helpers: dict, source=None):
        self.source = source
        self.helpers = helpers  # name -> ast.FunDef | T.Helper signature (see program.py)
        self.signatures: dict = {}
        self.scope = Scope()
        self.errors: list[Diagnostic] = []
        self.calls: list[tuple[str, ast.Call]] = []  # helper calls made, for the recursion check
        self._dispatch = dispatch(type(self), _METHODS)

    # ---- reporting -----------------------------------------------------------

    def text(self, node) -> str:
        return text(node, self.source)

    def error(self, span, message: str, hint: str = ""):
        self.errors.append(Diagnostic(span, message, hint))
        return ERROR

    # ---- types written in the source --------------------------------------------

    def resolve(self, t, against=None, fresh: str | None = None):
        """The semantic type of a type expression.

        Size names in scope are looked up. An unknown name is bound to the
        size at the same place in `against` (lambda parameters), or reported.
        `fresh` names the size kind to create for unknown names (main and
        helper parameters bind their sizes)."""
        if isinstance(t, ast.TScalar):
            return scalar(t.name)
        if isinstance(t, ast.TTuple):
            parts = against.items if isinstance(against, Tuple) and len(against.items) == len(t.items) else None
            return Tuple(tuple(self.resolve(i, parts[n] if parts else None, fresh) for n, i in enumerate(t.items)))
        inner_against = against.row() if isinstance(against, Array) else None
        elem = self.resolve(t.elem, inner_against, fresh)
        if elem is ERROR:
            return ERROR
        if isinstance(elem, Tuple):
            self.size(t, against.shape[0] if isinstance(against, Array) else None, fresh)  # bound all the same:
            return self.error(t.span, "arrays of tuples are not supported",  # its uses are not unknown sizes
                              "use one array per component (zip them where you map or stream)")
        size = self.size(t, against.shape[0] if isinstance(against, Array) else None, fresh)
        if size is ERROR:
            return ERROR
        shape = (size,) + (elem.shape if isinstance(elem, Array) else ())
        return Array(elem.elem if isinstance(elem, Array) else elem, shape)

    def size(self, t: ast.TArray, against, fresh: str | None):
        if isinstance(t.size, int):
            return t.size
        if t.size in self.scope.sizes:
            return self.scope.sizes[t.size]
        if t.size in self.scope.vars and isinstance(self.scope.vars[t.size], Binder):
            b = self.scope.vars[t.size]
            return self.error(t.span, f"`{t.size}` is {describe(b)}, not a size",
                              "sizes are named in parameter types, like `[f32, n] xs`")
        if fresh:
            size = Binder(t.size, I32, fresh, t.span)
        elif against is not None:
            size = against
        else:
            hint = suggest(t.size, list(self.scope.sizes))
            return self.error(t.span, f"unknown size `{t.size}`",
                              f"did you mean `{hint}`?" if hint else "sizes are bound by parameter types")
        self.scope.bind_size(t.size, size)
        return size

    # ---- expressions ----------------------------------------------------------

    def exp(self, e):
        return self._dispatch[type(e)](self, e)

    def _boollit(self, e: ast.BoolLit):
        return T.Lit(e.value, BOOL, e.span)

    def _var(self, e: ast.Var):
        b = self.scope.vars.get(e.name)
        if isinstance(b, int):
            return T.Lit(b, I32, e.span)
        if b is None:
            return T.Var(Binder(e.name, ERROR, "unknown", e.span), self._unknown(e), e.span)
        return T.Var(b, b.type, e.span)

    def _unknown(self, e: ast.Var):
        if e.name in self.helpers or e.name in MATH or e.name in CONVERSIONS:
            return self.error(e.span, f"`{e.name}` is a function, not a value", f"call it: {e.name}(...)")
        names = list(reversed(self.scope.order))
        vars_ = self.scope.vars

        def is_int(name):
            b = vars_.get(name)
            return isinstance(b, Binder) and b.type in (I32, I64)

        near = suggest(e.name, names, is_int)
        hint = ""
        if near is not None:
            b = vars_[near]
            hint = f"did you mean `{near}`, {describe(b)}?" if isinstance(b, Binder) else f"did you mean `{near}`?"
        return self.error(e.span, f"unknown name `{e.name}`", hint)

    def _tupleexp(self, e: ast.TupleExp):
        items = tuple(self.exp(i) for i in e.items)
        for i in items:
            if isinstance(i.type, (Tuple, Array)):
                self.error(i.span, "tuples hold scalars only", "a tuple is a lambda result, accumulator or loop value")
        bad = any(i.type is ERROR for i in items)
        return T.TupleE(items, ERROR if bad else Tuple(tuple(i.type for i in items)), e.span)

    def _index(self, e: ast.Index):
        arr = self.exp(e.array)
        idx = tuple(self.exp(i) for i in e.indices)
        for i, node in zip(idx, e.indices):
            if i.type is not ERROR and i.type not in (I32, I64):
                self.error(node.span, f"an index must be an int, got {i.type}",
                           f"convert it: int({self.text(node)})" if is_scalar(i.type) and i.type.is_float else "")
        t = arr.type
        if t is ERROR:
            return T.Index(arr, idx, ERROR, e.span)
        if not isinstance(t, Array):
            return T.Index(arr, idx, self.error(e.array.span, f"`{self.text(e.array)}` is {t}, not an array"), e.span)
        if len(idx) > t.rank:
            dims = f"{t.rank} dimension{'s' if t.rank > 1 else ''}"
            return T.Index(arr, idx, self.error(
                e.span, f"`{self.text(e.array)}` has {dims} ({t}) but is indexed with {len(idx)} indices",
                self._shadow_hint(arr, len(idx))), e.span)
        return T.Index(arr, idx, t.row(len(idx)), e.span)

    def _shadow_hint(self, arr, rank: int) -> str:
        if not isinstance(arr, T.Var):
            return ""
        hidden = self.scope.shadowed(arr.binder)
        if hidden is None:
            return ""
        return (f"`{arr.binder.name}` here is {describe(arr.binder)}, which hides {describe(hidden)}; "
                "rename one of them")

    def _call(self, e: ast.Call):
        args = tuple(self.exp(a) for a in e.args)
        if e.func in CONVERSIONS:
            return self._conversion(e, args)
        if e.func in MATH:
            return self._math(e, args)
        if e.func in self.signatures:
            return self._helper_call(e, args)
        if e.func in self.helpers:  # a function with no signature: the entry point
            return T.Call(e.func, args, self.error(e.func_span, f"`{e.func}` is the entry point and cannot be called"),
                          e.span)
        known = list(self.signatures) + sorted(MATH) + sorted(CONVERSIONS)
        near = suggest(e.func, known)
        why = "a value, not a function" if e.func in self.scope.vars else "unknown"
        return T.Call(e.func, args, self.error(e.func_span, f"`{e.func}` is {why}",
                                                f"did you mean `{near}`?" if near else ""), e.span)

    def _arity(self, e: ast.Call, args, n: int) -> bool:
        if len(args) != n:
            self.error(e.span, f"`{e.func}` takes {n} argument{'s' if n > 1 else ''}, got {len(args)}")
            return False
        return True

    def _conversion(self, e: ast.Call, args):
        to = CONVERSIONS[e.func]
        if not self._arity(e, args, 1) or args[0].type is ERROR:
            return T.Builtin(e.func, args, ERROR if len(args) != 1 else to, e.span)
        if not is_scalar(args[0].type):
            return T.Builtin(e.func, args, self.error(e.args[0].span, f"`{e.func}` converts scalars, "
                                                      f"got {args[0].type}"), e.span)
        return T.Builtin(to.kind, args, to, e.span)

    def _math(self, e: ast.Call, args):
        n = 2 if e.func in ("pow", "min", "max") else 1
        if not self._arity(e, args, n) or any(a.type is ERROR for a in args):
            return T.Builtin(e.func, args, ERROR, e.span)
        t = args[0].type
        for a, node in zip(args, e.args):
            if not is_scalar(a.type) or not a.type.is_numeric:
                return T.Builtin(e.func, args, self.error(node.span, f"`{e.func}` needs a number, got {a.type}"), e.span)
            if a.type != t:
                return T.Builtin(e.func, args, self.error(e.span, f"`{e.func}` needs arguments of one type, "
                                                          f"got {t} and {a.type}"), e.span)
        if (e.func in MATH_FLOAT1 or e.func == "pow") and not t.is_float:
            return T.Builtin(e.func, args, self.error(e.args[0].span, f"`{e.func}` needs a float, got {t}",
                                                      f"convert it: {e.func}(f32({self.text(e.args[0])}))"), e.span)
        return T.Builtin(e.func, args, t, e.span)

    def _helper_call(self, e: ast.Call, args):
        sig = self.signatures[e.func]
        self.calls.append((e.func, e))
        if len(args) != len(sig.params):
            return T.Call(e.func, args, self.error(e.span, f"`{e.func}` takes {len(sig.params)} argument(s), got "
                                                   f"{len(args)}", sig.described(e.func)), e.span)
        sizes: dict = {}
        for a, p, node in zip(args, sig.params, e.args):
            if a.type is ERROR:
                return T.Call(e.func, args, ERROR, e.span)
            if not match(p.type, a.type, sizes):
                return T.Call(e.func, args, self.error(
                    node.span, f"argument `{self.text(node)}` of `{e.func}` is {a.type}, but parameter "
                    f"`{p.name}` is {substitute(p.type, sizes)}"), e.span)
        return T.Call(e.func, args, substitute(sig.ret, sizes), e.span)

    def _let(self, e: ast.Let):
        chain = []  # walk a chain of lets without recursion: programs may have thousands
        mark = self.scope.mark()
        while isinstance(e, ast.Let):
            value = self.exp(e.value)
            binders = self._let_binders(e, value)
            for b in binders:
                self.scope.bind(b.name, b)
            chain.append((binders, value, e.span))
            e = e.body
        body = self.exp(e)
        self.scope.restore(mark)
        for binders, value, span in reversed(chain):
            body = T.Let(binders, value, body, body.type, span)
        return body

    def _let_binders(self, e: ast.Let, value):
        spans = e.name_spans or (e.span,) * len(e.names)
        self._no_duplicates(e.names, spans)
        t = value.type
        if len(e.names) == 1:
            if isinstance(t, Tuple):
                self.error(e.span, f"a tuple of {len(t.items)} values must be taken apart",
                           f"write `let ({', '.join(['x' + str(i) for i in range(len(t.items))])}) = ...`")
                t = ERROR
            return (Binder(e.names[0], t, "let", spans[0]),)
        items = flatten(t) if t is not ERROR else (ERROR,) * len(e.names)
        if len(items) != len(e.names):
            self.error(e.span, f"the pattern has {len(e.names)} names but the value is {t}")
            items = (ERROR,) * len(e.names)
        return tuple(Binder(n, it, "let", s) for n, it, s in zip(e.names, items, spans))

    def _no_duplicates(self, names, spans) -> None:
        seen = set()
        for n, s in zip(names, spans):
            if n in seen:
                self.error(s, f"`{n}` is bound twice here")
            seen.add(n)

    def _if(self, e: ast.If):
        cond, then, else_ = self.exp(e.cond), self.exp(e.then), self.exp(e.else_)
        if cond.type is not ERROR and cond.type != BOOL:
            self.error(e.cond.span, f"the condition of `if` must be bool, got {cond.type}",
                       f"compare it: {self.text(e.cond)} != 0" if is_scalar(cond.type) else "")
        t = then.type if then.type is not ERROR else else_.type
        if not agrees(then.type, else_.type):
            t = self.error(e.span, f"the branches of `if` differ: {then.type} and {else_.type}")
        elif holds_array(t):  # a kernel reads an array where the program names it: it cannot pick one at run time
            t = self.error(e.span, f"an `if` cannot choose between arrays (its branches are {t})",
                           "choose between their elements instead: `if c then xs[i] else ys[i]`")
        return T.If(cond, then, else_, t, e.span)

    def _loop(self, e: ast.Loop):
        inits = tuple(self._loop_init(p) for p in e.params)
        self._no_duplicates([p.name for p in e.params], [p.span for p in e.params])
        bound = self.exp(e.bound)
        if bound.type is not ERROR and bound.type not in (I32, I64):
            self.error(e.bound.span, f"a loop bound must be an int, got {bound.type}")
        mark = self.scope.mark()
        params = tuple(Binder(p.name, i.type, "loop", p.span) for p, i in zip(e.params, inits))
        index = Binder(e.index, bound.type if bound.type in (I32, I64) else I32, "index", e.index_span)
        for b in params + (index,):
            self.scope.bind(b.name, b)
        body = self.exp(e.body)
        self.scope.restore(mark)
        want = tuple_of(p.type for p in params)
        if not agrees(body.type, want):
            names = ", ".join(p.name for p in params)
            self.error(e.body.span, f"the loop body must give the next value of ({names}), "
                       f"of type {want}; it gives {body.type}")
        results = tuple(Binder(p.name, p.type, "result", p.span) for p in params)
        mark = self.scope.mark()
        for b in results:
            self.scope.bind(b.name, b)
        rest = self.exp(e.rest)
        self.scope.restore(mark)
        return T.Loop(params, inits, index, bound, body, results, rest, rest.type, e.span)

    def _loop_init(self, p: ast.LoopParam):
        if p.init is not None:
            init = self.exp(p.init)
        elif p.name in self.scope.vars:
            init = self._var(ast.Var(p.name, p.span))
        else:
            return T.Lit(0, self.error(p.span, f"loop variable `{p.name}` has no start value: "
                                       f"no `{p.name}` is in scope", f"write `loop ({p.name} = 0f32)`"), p.span)
        if init.type is not ERROR and not is_scalar(init.type):
            self.error(p.span, f"loop variables must be scalars; `{p.name}` is {init.type}")
            return T.Lit(0, ERROR, p.span)
        return init

    def _zip(self, e: ast.Zip):
        self.error(e.span, "`zip` can only be an argument of `map` or `streamSeq`")
        return T.Lit(0, ERROR, e.span)

    def _transpose(self, e: ast.Transpose):
        self.error(e.span, "`transpose` is only allowed in the host prelude, before the map nest",
                   "bind it in main: `let bt = transpose(b) in map(...)`")
        return T.Lit(0, ERROR, e.span)

    def _map(self, e: ast.Map):
        self.error(e.span, "`map` inside the kernel body: a kernel is one perfect map nest of 1 to 3 levels",
                   "write this as a `streamSeq` (or a `loop`) over the array")
        return T.Lit(0, ERROR, e.span)

    def _iota(self, e: ast.Iota):
        n = self.exp(e.arg)
        if n.type is ERROR:
            return T.Iota(n, ERROR, e.span)
        if n.type != I32:
            hint = ""
            if isinstance(n.type, Array):
                names = " or ".join(f"iota({size_text(s)})" for s in n.type.shape)
                hint = f"iota counts up to a size; the sizes of `{self.text(e.arg)}` give {names}"
            return T.Iota(n, self.error(e.arg.span, f"iota takes a size (an int), got {n.type}", hint), e.span)
        if isinstance(n, T.Lit):
            size = n.value
        elif isinstance(n, T.Var) and n.binder.kind in ("size", "chunk"):
            size = n.binder
        else:
            size = Binder(f"iota({self.text(e.arg)})", I32, "anon", e.span)
        return T.Iota(n, Array(I32, (size,)), e.span)

    def args(self, exps) -> list:
        """Map and stream arguments, with `zip(a, b)` spread into `a, b`."""
        out = []
        for a in exps:
            if isinstance(a, ast.Zip):
                out.extend(self.args(a.args))
            else:
                out.append((a, self.exp(a)))
        return out

    def common_length(self, args, verb: str, word: str):
        """The outer size shared by the arrays a map or stream goes over
        (`verb`: "mapped" or "streamed"; `word`: what goes over them)."""
        length = first = None
        for node, a in args:
            if a.type is ERROR:
                continue
            if not isinstance(a.type, Array):
                self.error(node.span, f"{word} goes over arrays; `{self.text(node)}` is {a.type}")
            elif length is None:
                length, first = a.type.shape[0], node
            elif a.type.shape[0] != length:
                self.error(node.span, f"arrays {verb} together must have one length: `{self.text(node)}` has "
                           f"{size_name(a.type.shape[0])}, `{self.text(first)}` has {size_name(length)}",
                           declared_at(self.scope.vars.get(node.name) if isinstance(node, ast.Var) else None))
        return length


def size_name(s) -> str:
    return str(s) if isinstance(s, int) else f"`{s.name}`"


_METHODS = methods(ExpChecker, ast.Exp)  # each node class's method, checked when the module loads
