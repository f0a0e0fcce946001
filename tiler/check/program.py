"""Checking whole programs: functions, helpers, and the kernel shape of `main`.

`check_program(ast.Program) -> (typed.Program | None, diagnostics)`. `main`
(or the only function) must be a host prelude (transposes and scalar lets)
followed by a perfect nest of 1 to 3 maps whose innermost body yields scalars.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..errors import Diagnostic
from ..syntax import ast
from ..tree import child_fields
from . import typed as T
from .expressions import CONVERSIONS, MATH, ExpChecker
from .types import ERROR, I32, Array, Binder, Tuple, agrees, array_of, flatten, is_scalar, scalar

MAX_DIMS = 3


@dataclass(frozen=True)
class Signature:
    params: tuple[Binder, ...]
    ret: object
    span: object = None  # where the helper is defined (for a call's messages)

    def described(self, name: str) -> str:
        """Where the helper is defined and what it takes: a call's hint."""
        where = f"defined at {self.span.line}:{self.span.col} as " if getattr(self.span, "line", 0) else ""
        return f"`{name}` is {where}`{name}({', '.join(f'{p.type} {p.name}' for p in self.params)})`"


def check_program(prog: ast.Program, source=None) -> tuple[T.Program | None, list[Diagnostic]]:
    errors: list[Diagnostic] = []
    funs = _unique_functions(prog, errors)
    entry = _entry(prog, funs, errors)
    if entry is None:
        return None, errors
    signatures = {}
    helpers = {}
    graph = {}
    for f in prog.funs:
        if f.name != entry.name and funs.get(f.name) is f:
            c = ExpChecker(funs, source)
            signatures[f.name] = _signature(c, f)
            errors += c.errors
    for name, sig in signatures.items():
        f = funs[name]
        c = _checker(funs, signatures, source)
        helper = _helper(c, f, sig)
        helpers[name] = helper
        graph[name] = c.calls
        errors += c.errors
    c = _checker(funs, signatures, source)
    c.entry = entry.name
    kernel = KernelShape(c).main(entry)
    graph[entry.name] = c.calls
    errors += c.errors
    errors += _recursion(graph)
    if not errors:
        errors += _too_many_copies(graph, entry.name)
    if errors:
        return None, errors
    return T.Program(prog.file, kernel, helpers, entry.name), []


def _checker(funs, signatures, source) -> ExpChecker:
    c = ExpChecker(funs, source)
    c.signatures = signatures
    return c


BUILTINS = MATH | set(CONVERSIONS)  # calls the checker resolves before helpers


def _unique_functions(prog: ast.Program, errors) -> dict:
    funs = {}
    for f in prog.funs:
        if f.name in BUILTINS:
            errors.append(Diagnostic(f.name_span, f"`{f.name}` is a builtin function: a helper cannot take its name",
                                     f"rename the helper, e.g. `my_{f.name}`"))
        elif f.name in funs:
            errors.append(Diagnostic(f.name_span, f"function `{f.name}` is defined twice",
                                     f"the first is at {funs[f.name].name_span.short}"))
        else:
            funs[f.name] = f
    return funs


def _entry(prog: ast.Program, funs: dict, errors) -> ast.FunDef | None:
    if "main" in funs:
        return funs["main"]
    if len(funs) == 1:
        return prog.funs[0]
    errors.append(Diagnostic(prog.funs[0].name_span, "no function is called `main`",
                             "with several functions, the entry point must be `main`"))
    return None


def _params(c: ExpChecker, params, kind: str, size_names: frozenset = frozenset()) -> tuple[Binder, ...]:
    """`size_names`: main's `int` parameters by these names are sizes too (a
    grid's extent no input array carries): one binder, in scope as both."""
    binders: list = [None] * len(params)
    c._no_duplicates([p.name for p in params], [p.span for p in params])
    for n, p in enumerate(params):
        if p.name in size_names and isinstance(p.type, ast.TScalar) and scalar(p.type.name) == I32:
            binders[n] = Binder(p.name, I32, "size", p.span)
            c.scope.bind_size(p.name, binders[n])
    for n, p in enumerate(params):
        if binders[n] is None:
            binders[n] = Binder(p.name, c.resolve(p.type, fresh="size"), kind, p.span)
    for b in binders:
        if b.name in c.scope.sizes and c.scope.sizes[b.name] is not b:
            hint = "rename one of them" + (f", or declare it `int {b.name}`: an int parameter of main may be a "
                                           "size" if size_names else "")
            c.error(b.span, f"`{b.name}` names both a size and a parameter", hint)
        c.scope.bind(b.name, b)
    return tuple(binders)


def _type_size_names(node) -> frozenset:
    """Every size named in a type annotation anywhere under `node`."""
    names, stack = set(), [node]
    while stack:
        n = stack.pop()
        if isinstance(n, ast.TArray) and isinstance(n.size, str):
            names.add(n.size)
        if isinstance(n, (list, tuple)):
            stack.extend(n)
        elif hasattr(n, "__dataclass_fields__"):
            stack.extend(getattr(n, f) for f in child_fields(type(n)))
    return frozenset(names)


def _signature(c: ExpChecker, f: ast.FunDef) -> Signature:
    params = _params(c, f.params, "param")
    return Signature(params, c.resolve(f.ret), f.span)


def _helper(c: ExpChecker, f: ast.FunDef, sig: Signature) -> T.Helper:
    sizes = []
    for i, p in enumerate(sig.params):
        for d, s in enumerate(p.type.shape if isinstance(p.type, Array) else ()):
            if isinstance(s, Binder) and s.name not in c.scope.sizes:
                c.scope.bind_size(s.name, s)
                sizes.append((s, i, d))
    for b in sig.params:
        c.scope.bind(b.name, b)
    body = c.exp(f.body)
    if not agrees(body.type, sig.ret):
        c.error(f.body.span, f"`{f.name}` is declared to return {sig.ret}, but its body gives {body.type}")
    return T.Helper(f.name, sig.params, tuple(sizes), sig.ret, body, f.span)


def _recursion(graph: dict) -> list[Diagnostic]:
    errors, state = [], {}

    def visit(name):
        state[name] = "open"
        for callee, call in graph.get(name, ()):
            if state.get(callee) == "open":
                errors.append(Diagnostic(call.span, f"recursive call of `{callee}`",
                                         "helpers are inlined into the kernel, so they cannot recurse"))
            elif callee not in state:
                visit(callee)
        state[name] = "done"

    for name in graph:
        if name not in state:
            visit(name)
    return errors


# Every helper call is inlined: a helper calling another twice, twenty levels
# deep, would be copied a million times. Past this many copies the program is
# refused (where a call's copies pass it) instead of compiled for minutes.
MAX_INLINED_COPIES = 10_000


def _too_many_copies(graph: dict, entry: str) -> list[Diagnostic]:
    copies: dict = {}  # function -> helper bodies its calls copy in, all levels (no recursion: checked before)

    def count(name) -> int:
        if name not in copies:
            copies[name] = sum(1 + count(callee) for callee, _ in graph.get(name, ()))
        return copies[name]

    if count(entry) <= MAX_INLINED_COPIES:
        return []
    callee, call = max(graph.get(entry, ()), key=lambda c: count(c[0]))
    here, everywhere = 1 + count(callee), count(entry)
    total = f"; {everywhere:,} for the whole kernel" if everywhere != here else ""
    return [Diagnostic(call.span, f"inlining this call of `{callee}` copies helper bodies {here:,} times{total} "
                                  f"(tiler inlines every call, up to {MAX_INLINED_COPIES:,} copies)",
                       "call each helper once and bind its result with `let`, or write the repetition as a loop")]


class KernelShape:
    """Splits `main` into prelude and map nest, checking each part."""

    def __init__(self, c: ExpChecker):
        self.c = c

    def main(self, f: ast.FunDef) -> T.Kernel | None:
        c = self.c
        params = _params(c, f.params, "param", _type_size_names(f) if f.type_sizes is None else f.type_sizes)
        for b in params:  # the launcher passes arrays and scalars: a tuple has no C type to pass it as
            if isinstance(b.type, Tuple):
                c.error(b.span, f"main's parameter `{b.name}` is a tuple {b.type}: main takes arrays and scalars",
                        "pass the tuple's parts as parameters of their own")
        sizes = tuple(dict.fromkeys(s for p in params
                                    for s in ((p,) if p.kind == "size" else getattr(p.type, "shape", ()))
                                    if isinstance(s, Binder)))
        ret = c.resolve(f.ret)
        prelude, nest = self.prelude(f.body)
        if not isinstance(nest, ast.Map):
            c.error(nest.span, "main must end in the kernel: a nest of 1 to 3 `map`s",
                    "main's body is a prelude of lets (transposes and scalars) and then one map")
            return None
        levels, body, result = self.level(nest, 0)
        if not agrees(result, ret):
            c.error(f.ret.span, f"main is declared to return {ret}, but its map nest gives {result}")
        if body is None:
            return None
        return T.Kernel(params, sizes, tuple(prelude), tuple(levels), body,
                        flatten(body.type), f.span)

    def prelude(self, e):
        c, lets = self.c, []
        while isinstance(e, ast.Let) and not isinstance(e.value, ast.Map):
            if len(e.names) != 1:
                c.error(e.span, "a prelude `let` binds one name")
            value = self.transpose(e.value) if isinstance(e.value, ast.Transpose) else c.exp(e.value)
            t = value.type
            if t is not ERROR and not isinstance(value, T.Transpose) and not is_scalar(t):
                c.error(e.value.span, f"the host prelude may only bind transposes and scalars; "
                        f"`{e.names[0]}` would be {t}", "compute it inside the kernel instead")
            b = Binder(e.names[0], t, "let", e.name_spans[0] if e.name_spans else e.span)
            c.scope.bind(b.name, b)
            lets.append(T.PreludeLet(b, value))
            e = e.body
        if isinstance(e, ast.Let):
            c.error(e.span, "the kernel's map nest must be main's result, not bound by `let`",
                    "end main with the map: `... in map(...)`")
        return lets, e

    def transpose(self, e: ast.Transpose):
        c = self.c
        src = c.exp(e.arg)
        if src.type is ERROR:
            return T.Transpose(Binder("?", ERROR, "unknown"), ERROR, e.span)
        if not isinstance(src, T.Var) or not isinstance(src.type, Array) or src.type.rank < 2:
            c.error(e.arg.span, f"transpose takes an array of rank 2 or more in scope, got `{c.text(e.arg)}` "
                    f"({src.type})")
            return T.Transpose(Binder("?", ERROR, "unknown"), ERROR, e.span)
        s = src.type.shape
        return T.Transpose(src.binder, Array(src.type.elem, (s[1], s[0]) + s[2:]), e.span)

    def level(self, e: ast.Map, dim: int):
        c = self.c
        args = c.args(e.args)
        size = c.common_length(args, "mapped", "map")
        lam = e.lam
        mark = c.scope.mark()
        params = self.lambda_params(e, args)
        lets, tail = _peel_lets(lam.body)
        if isinstance(tail, ast.Map) and dim + 1 < MAX_DIMS:
            typed_lets = [self.level_let(let) for let in lets]
            inner, body, result = self.level(tail, dim + 1)
        else:
            if isinstance(tail, ast.Map):
                c.error(tail.span, f"a kernel has at most {MAX_DIMS} parallel dimensions (map levels)",
                        "write this map as a `streamSeq` or a `loop`")
            typed_lets, inner = [], []
            body = c.exp(lam.body)
            result = body.type
            if result is not ERROR and not all(is_scalar(t) for t in flatten(result)):
                c.error(lam.body.span, f"the kernel body must give scalars, one per output array; it gives {result}")
                result = ERROR
        declared = c.resolve(lam.ret)
        if not agrees(declared, result):
            c.error(lam.ret.span, f"the lambda is declared to return {declared}, but gives {result}")
        c.scope.restore(mark)
        level = T.MapLevel(dim, size, params, tuple(a for _, a in args), tuple(typed_lets), e.span)
        return [level] + inner, body, array_of(result, size) if size is not None else ERROR

    def lambda_params(self, e: ast.Map, args) -> tuple[Binder, ...]:
        c, lam = self.c, e.lam
        if len(lam.params) != len(args):
            c.error(lam.span, f"the lambda takes {len(lam.params)} parameter(s), but map gives it "
                    f"{len(args)} array(s)", "zip(a, b) gives the lambda one parameter per array")
        c._no_duplicates([p.name for p in lam.params], [p.span for p in lam.params])
        binders = []
        for i, p in enumerate(lam.params):
            row = args[i][1].type.row() if i < len(args) and isinstance(args[i][1].type, Array) else None
            declared = c.resolve(p.type, row)
            if row is not None and not agrees(declared, row):
                c.error(p.span, f"parameter `{p.name}` is declared {declared}, but the elements of "
                        f"`{c.text(args[i][0])}` are {row}")
                declared = ERROR
            binders.append(Binder(p.name, declared, "lambda", p.span))
        for b in binders:
            c.scope.bind(b.name, b)
        return tuple(binders)

    def level_let(self, let: ast.Let):
        c = self.c
        value = c.exp(let.value)
        binders = c._let_binders(let, value)
        for b in binders:
            if b.type is not ERROR and not is_scalar(b.type):
                c.error(let.value.span, f"only scalar lets may stand between two map levels; `{b.name}` is {b.type}",
                        "move it into the innermost lambda")
            c.scope.bind(b.name, b)
        return binders, value


def _peel_lets(e):
    lets = []
    while isinstance(e, ast.Let):
        lets.append(e)
        e = e.body
    return lets, e


__all__ = ["check_program"]
