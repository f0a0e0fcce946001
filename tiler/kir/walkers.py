"""Walks over kernel-IR trees, and the value of a launch condition."""
from __future__ import annotations

import dataclasses
import operator

from .nodes import BODIES, MINMAX, Barrier, Bin, Call, Cast, Const, For, If, PointMap, Ref, Select


def c_div(a: int, b: int) -> int:
    """a / b as C (and the language) divides ints: toward zero (a launch's value must be the C launcher's and the
    kernel's)."""
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


_OPS = {"+": operator.add, "-": operator.sub, "*": operator.mul, "<": operator.lt, "<=": operator.le,
        ">": operator.gt, ">=": operator.ge, "==": operator.eq, "!=": operator.ne,
        "&&": lambda a, b: a and b, "||": lambda a, b: a or b, "%": lambda a, b: a - b * c_div(a, b), "/": c_div,
        "^": operator.xor}


def evaluate(e, env: dict):
    """The value of a launch condition (C's integer arithmetic over size names, and scalars' where one names them)."""
    if isinstance(e, Const):
        return e.value
    if isinstance(e, Ref):
        return env[e.name]
    if isinstance(e, Bin):
        return _OPS[e.op](evaluate(e.a, env), evaluate(e.b, env))
    if isinstance(e, Call) and e.fn in MINMAX:
        return (max if e.fn == "max" else min)(evaluate(a, env) for a in e.args)
    if isinstance(e, Cast):
        return evaluate(e.a, env)
    if isinstance(e, Select):
        return evaluate(e.a, env) if evaluate(e.cond, env) else evaluate(e.b, env)
    raise ValueError(f"not a launch condition: {e!r}")


def walk(e):
    """Every node of a kernel-IR tree (expressions and statements), `e` first."""
    if e is None:
        return
    stack = list(e) if isinstance(e, tuple) else [e]
    pop, push, fields = stack.pop, stack.append, _FIELDS  # (bound once: this runs for every node)
    while stack:
        node = pop()
        yield node
        names = fields[type(node)] if type(node) in fields else node_fields(type(node))
        for name in names or ():
            v = getattr(node, name)
            kind = type(v)
            if (fields[kind] if kind in fields else node_fields(kind)) is not None:
                push(v)
            elif isinstance(v, tuple):
                stack.extend(x for x in v if node_fields(type(x)) is not None)


_FIELDS: dict[type, tuple[str, ...] | None] = {}


def node_fields(cls) -> tuple[str, ...] | None:
    """A node class's field names (None: not a node), found once a class
    (`dataclasses.fields` builds its tuple on every call: a third of walking
    a large kernel)."""
    if cls not in _FIELDS:
        _FIELDS[cls] = tuple(f.name for f in dataclasses.fields(cls)) if dataclasses.is_dataclass(cls) else None
    return _FIELDS[cls]


def statements(stmts):
    """Every statement of a body, nested ones included, in order."""
    for s in stmts:
        yield s
        for name in BODIES:
            yield from statements(getattr(s, name, ()))


def blocks_mapped(body: tuple, fn) -> tuple:
    """`fn(statements) -> statements` applied to every block of `body`, the
    blocks nested in its loops and ifs first, then `body` itself."""
    def inner(s):
        if isinstance(s, For):
            return dataclasses.replace(s, body=blocks_mapped(s.body, fn))
        if isinstance(s, If):
            return dataclasses.replace(s, then=blocks_mapped(s.then, fn), else_=blocks_mapped(s.else_, fn))
        return s
    return fn(tuple(inner(s) for s in body))


def has_barrier(stmts) -> bool:
    """Whether a body holds a barrier, nested ones included: a short loop
    around one is not unrolled whole under a register tile (each copy would
    repeat a whole tiled stream's pipeline)."""
    return any(isinstance(s, Barrier) for s in statements(stmts))


def as_loops(body: tuple) -> tuple:
    """`body` with each `PointMap` drawn as a loop over its points (for
    reading: sequentialise unrolls them)."""
    def block(stmts: tuple) -> tuple:
        return tuple(For("point_" + "".join(str(d) for d in sorted(s.dims)), Const(0, "int"), Const(s.points, "int"),
                         Const(1, "int"), as_loops(s.stmts),
                         note=f"the map over the thread's {s.points} points of dims "
                              f"{', '.join(map(str, sorted(s.dims)))}") if isinstance(s, PointMap) else s
                     for s in stmts)
    return blocks_mapped(body, block)
