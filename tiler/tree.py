"""Generic rebuilding of frozen trees (the syntax tree, the typed IR).

`map_children(node, f, is_child)` is `node` with `f` applied to every child:
a field holding a child, or a tuple of children. Fields that are not
children (names, binders, types) are kept as they are. `children(node,
is_child)` lists the same children, and `descendants(node, is_child)`
the node and everything below it.
"""
from __future__ import annotations

import dataclasses
import typing


def map_children(node, f, is_child):
    changes = {}
    for field in dataclasses.fields(node):
        value = getattr(node, field.name)
        if is_child(value):
            changes[field.name] = f(value)
        elif isinstance(value, tuple) and value and all(is_child(v) for v in value):
            changes[field.name] = tuple(f(v) for v in value)
    return dataclasses.replace(node, **changes) if changes else node


def children(node, is_child):
    for field in dataclasses.fields(node):
        value = getattr(node, field.name)
        if is_child(value):
            yield value
        elif isinstance(value, tuple):
            yield from (v for v in value if is_child(v))


def descendants(node, is_child):
    """`node` and every child below it, depth first. With a stack, not
    recursion: a chain of `yield from` costs its depth for every node, and
    a 50,000-term sum is a tree 50,000 deep."""
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(reversed(tuple(children(n, is_child))))


def methods(visitor: type, union, prefix: str = "_") -> dict[type, str]:
    """The name of `visitor`'s method for each node class of `union` (`_binop`
    for BinOp), looked up by the node's class at each visit (a subclass's
    override wins). Built when the visitor's module loads, so that a node
    class the visitor has no method for fails then, naming both, rather
    than on the first program that uses it."""
    table = {}
    for node in typing.get_args(union) or (union,):
        name = prefix + node.__name__.lower()
        if not callable(getattr(visitor, name, None)):
            raise TypeError(f"{visitor.__name__} has no method {name} for {node.__name__} nodes")
        table[node] = name
    return table
