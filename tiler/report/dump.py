"""A readable dump of any frozen IR (for `tiler compile --emit typed|kernel|kir`)."""
from __future__ import annotations

import dataclasses

from ..check.types import Binder

SKIP = {"span", "op_span", "func_span", "name_spans", "index_span", "type"}


def dump(node, indent: str = "") -> str:
    out: list[str] = []
    _dump(node, indent, out, "")
    return "\n".join(out) + "\n"


def _dump(node, ind: str, out: list, label: str) -> None:
    head = f"{ind}{label}"
    if isinstance(node, Binder):
        out.append(f"{head}{node.name}@{node.span.short} : {node.type}")
    elif dataclasses.is_dataclass(node) and not isinstance(node, type):
        # (a field kept out of repr is a link back to another stage's value: the plan, the source node, the trace)
        fields = [(f.name, getattr(node, f.name)) for f in dataclasses.fields(node) if f.name not in SKIP and f.repr]
        simple = [(n, v) for n, v in fields if _simple(v)]
        nested = [(n, v) for n, v in fields if not _simple(v)]
        kind = f" : {node.type}" if hasattr(node, "type") and not isinstance(node.type, str) else ""
        out.append(f"{head}{type(node).__name__}" + "".join(f" {n}={v!r}" for n, v in simple) + kind)
        for n, v in nested:
            _dump(v, ind + "  ", out, f"{n}: ")
    elif isinstance(node, (tuple, list)):
        out.append(f"{head}[{len(node)}]")
        for v in node:
            _dump(v, ind + "  ", out, "- ")
    elif isinstance(node, dict):
        out.append(f"{head}{{{len(node)}}}")
        for k, v in node.items():
            _dump(v, ind + "  ", out, f"{k}: ")
    else:
        out.append(f"{head}{node!r}")


def _simple(v) -> bool:
    return isinstance(v, (str, int, float, bool, type(None))) or (
        isinstance(v, tuple) and all(isinstance(x, (str, int, float, bool)) for x in v))
