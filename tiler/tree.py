"""Generic rebuilding of frozen trees (the syntax tree, the typed IR).

`map_children(node, f, is_child)` is `node` with `f` applied to every child:
a field holding a child, or a tuple of children. Fields that are not
children (names, binders, types) are kept as they are. `children(node,
is_child)` lists the same children, and `descendants(node, is_child)`
the node and everything below it; `child_fields(cls)` names the fields
that may hold children.
"""
from __future__ import annotations

import dataclasses
import gc
import typing
from contextlib import contextmanager

# annotations of fields that never hold a child (a span, a type, a binder, a name or a number)
LEAVES = frozenset({"Span", "Type", "Binder", "str", "int", "bool", "float", "str | int", "tuple[str, ...]",
                    "tuple[Span, ...]", "tuple[Binder, ...]", "tuple[Type, ...]"})


def child_fields(cls) -> tuple[str, ...]:
    """The fields of a node class that may hold children, found once
    (dataclasses.fields builds its tuple on every call, and testing every
    span and type for a child was most of a 50,000-node program's kernel
    stage)."""
    names = _NAMES.get(cls)
    if names is None:
        names = _NAMES[cls] = tuple(f.name for f in dataclasses.fields(cls) if str(f.type).strip() not in LEAVES)
    return names


_NAMES: dict[type, tuple[str, ...]] = {}


def map_children(node, f, is_child):
    changes = {}
    for name in child_fields(type(node)):
        value = getattr(node, name)
        if is_child(value):
            new = f(value)
            if new is not value:
                changes[name] = new
        elif isinstance(value, tuple) and value and all(is_child(v) for v in value):
            new = tuple(f(v) for v in value)
            if any(a is not b for a, b in zip(new, value)):
                changes[name] = new
    return _replaced(node, changes) if changes else node  # unchanged children: the node itself


def _replaced(node, changes: dict):
    """`dataclasses.replace(node, **changes)` for the trees' frozen nodes
    (no __post_init__, no slots), without calling __init__ on every field."""
    new = object.__new__(type(node))
    new.__dict__.update(node.__dict__)
    new.__dict__.update(changes)
    return new


def children(node, is_child):
    for name in child_fields(type(node)):
        value = getattr(node, name)
        if is_child(value):
            yield value
        elif isinstance(value, tuple):
            yield from (v for v in value if is_child(v))


def descendants(node, is_child):
    """`node` and every child below it, depth first. With a stack, not
    recursion: a chain of `yield from` costs its depth for every node, and
    a 50,000-term sum is a tree 50,000 deep."""
    stack = [node]
    pop, extend, names_of = stack.pop, stack.extend, _NAMES  # (bound once: this runs for every node)
    while stack:
        n = pop()
        yield n
        kids = []
        for name in names_of.get(type(n)) or child_fields(type(n)):
            value = getattr(n, name)
            if is_child(value):
                kids.append(value)
            elif isinstance(value, tuple):
                kids.extend(v for v in value if is_child(v))
        kids.reverse()
        extend(kids)


def methods(visitor: type, union, prefix: str = "_") -> dict[type, str]:
    """The name of `visitor`'s method for each node class of `union` (`_binop`
    for BinOp), which `dispatch` turns into each (sub)class's functions (a
    subclass's override wins). Built when the visitor's module loads, so that a node
    class the visitor has no method for fails then, naming both, rather
    than on the first program that uses it."""
    table = {}
    for node in typing.get_args(union) or (union,):
        name = prefix + node.__name__.lower()
        if not callable(getattr(visitor, name, None)):
            raise TypeError(f"{visitor.__name__} has no method {name} for {node.__name__} nodes")
        table[node] = name
    return table


def dispatch(visitor: type, table: dict[type, str]) -> dict[type, object]:
    """For each node class, the function `visitor`'s class (or a subclass,
    whose overrides win) runs for it: `methods`' names looked up once a
    class, not at every node (a tenth of checking a large program). Plain
    functions, called with the visitor: a table of bound methods held by the
    visitor would be a cycle through it, which the collection at exit would
    walk with everything the visitor holds."""
    key = (visitor, id(table))
    if key not in _DISPATCH:
        _DISPATCH[key] = {node: getattr(visitor, name) for node, name in table.items()}
    return _DISPATCH[key]


_DISPATCH: dict[tuple, dict[type, object]] = {}


def quick_constructors(namespace: dict) -> None:
    """Give the frozen dataclasses defined in a module (its `globals()`) a
    faster constructor. A frozen dataclass's own sets each field through
    `__dataclass_builtins_object__.__setattr__`, two lookups a field: most
    of the cost of making a node, and a stage makes one for every node of
    the program. This one calls `object.__setattr__` bound once. (Filling
    `__dict__` directly is faster still, but gives each node a dictionary
    of its own, and every later read of a field slower.) Only the speed
    changes: fields, defaults, equality, hashing and the refusal of later
    changes stay the dataclass's."""
    module = namespace["__name__"]
    for cls in list(namespace.values()):
        if isinstance(cls, type) and cls.__module__ == module and dataclasses.is_dataclass(cls) \
                and cls.__dataclass_params__.frozen and "__slots__" not in vars(cls) \
                and not hasattr(cls, "__post_init__") and _generated(vars(cls).get("__init__")):
            cls.__init__ = _frozen_constructor(cls)


def _generated(init) -> bool:
    """Whether a class's own constructor is the one dataclasses wrote (a
    constructor written in the class stays: dataclasses keeps it too)."""
    return init is not None and getattr(getattr(init, "__code__", None), "co_filename", "") == "<string>"


def _frozen_constructor(cls):
    fields = dataclasses.fields(cls)
    if len(fields) != len(cls.__dataclass_fields__) or \
            any(not f.init or f.kw_only or f.default_factory is not dataclasses.MISSING or f.name in _OWN_NAMES
                for f in fields):  # (an InitVar, a keyword-only field, a factory: the dataclass's constructor)
        return cls.__init__
    defaults = {f"_default_{f.name}": f.default for f in fields if f.default is not dataclasses.MISSING}
    defaults["_tiler_set"] = object.__setattr__
    params = ", ".join(f.name if f.default is dataclasses.MISSING else f"{f.name}=_default_{f.name}" for f in fields)
    stores = "".join(f"\n    _tiler_set(_tiler_self, {f.name!r}, {f.name})" for f in fields) or "\n    pass"
    code = f"def __init__(_tiler_self{', ' if params else ''}{params}):{stores}\n"
    exec(code, defaults)  # (as dataclasses itself builds its constructors)
    init = defaults["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    return init


_OWN_NAMES = frozenset({"_tiler_self", "_tiler_set"})  # the generated constructor's own names

@contextmanager
def no_cycle_collection():
    """The cycle collector off meanwhile: the trees hold no cycles (reference
    counts free them), and the collector would walk every live node again
    each time allocations pass its thresholds: a third of the compile time
    of a 1 MB expression, a half of a 50,000-term sum's."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()
