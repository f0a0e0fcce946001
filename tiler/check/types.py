"""Semantic types of checked programs.

A size is a `Binder` (a named size of `main`, a helper, or a stream's chunk)
or an integer literal, so two sizes are equal exactly when they are the same
binding. `ERROR` stands for the type of an expression already reported as
wrong; it agrees with everything, so one mistake gives one message.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .. import target
from ..source import NO_SPAN, Span

SCALAR_KINDS = ("f32", "f64", "i32", "i64", "bool", "f16", "bf16")
FLOAT_KINDS = ("f32", "f64", "f16", "bf16")
# the 16-bit floats: stored in 16 bits, each operation computed in f32 and rounded back (docs/language.md)
NARROW_KINDS = ("f16", "bf16")
SPELLING = {"i32": "int"}  # how the language writes a kind
ALIASES = {"int": "i32"}


@dataclass(frozen=True, eq=False)
class Binder:
    """One binding of a name; equality is identity, so shadowing is harmless.

    kind: param, size, chunk, offset, let, loop, index, result, lambda."""

    name: str
    type: "Type"
    kind: str
    span: Span = field(default=NO_SPAN, repr=False)

    def __repr__(self) -> str:
        return f"{self.name}@{self.span.short}"


Size = Binder | int


@dataclass(frozen=True)
class Scalar:
    kind: str

    def __str__(self) -> str:
        return SPELLING.get(self.kind, self.kind)

    @property
    def is_float(self) -> bool:
        return self.kind in FLOAT_KINDS

    @property
    def is_narrow(self) -> bool:
        """An f16 or a bf16."""
        return self.kind in NARROW_KINDS

    @property
    def is_int(self) -> bool:
        return self.kind in ("i32", "i64")

    @property
    def is_numeric(self) -> bool:
        return self.kind != "bool"


@dataclass(frozen=True)
class Array:
    elem: Scalar
    shape: tuple[Size, ...]  # outermost first

    def __str__(self) -> str:
        text = str(self.elem)
        for size in reversed(self.shape):
            text = f"[{text}, {size_text(size)}]"
        return text

    @property
    def rank(self) -> int:
        return len(self.shape)

    def row(self, drop: int = 1) -> "Type":
        """The type of `a[i1, ..., i_drop]`."""
        rest = self.shape[drop:]
        return Array(self.elem, rest) if rest else self.elem


def element_bytes(t: "Scalar | Array") -> int:
    """The bytes of one element of an array type, or of a scalar."""
    return target.SIZEOF[target.CTYPE[t.elem.kind if isinstance(t, Array) else t.kind]]  # (numpy's too)


@dataclass(frozen=True)
class Tuple:
    items: tuple["Type", ...]

    def __str__(self) -> str:
        return "(" + ", ".join(str(t) for t in self.items) + ")"


class _Error:
    def __str__(self) -> str:
        return "<error>"

    def __repr__(self) -> str:
        return "ERROR"


ERROR = _Error()
Type = Scalar | Array | Tuple | _Error

F32, F64, I32, I64, BOOL, F16, BF16 = (Scalar(k) for k in SCALAR_KINDS)


def size_text(size: Size) -> str:
    return str(size) if isinstance(size, int) else size.name


def scalar(name: str) -> Scalar:
    return Scalar(ALIASES.get(name, name))


def array_of(t: Type, size: Size) -> Type:
    """The type of a map over `size` elements whose lambda returns `t`."""
    if t is ERROR:
        return ERROR
    if isinstance(t, Tuple):
        return Tuple(tuple(array_of(i, size) for i in t.items))
    if isinstance(t, Array):
        return Array(t.elem, (size,) + t.shape)
    return Array(t, (size,))


def flatten(t: Type) -> tuple[Type, ...]:
    return t.items if isinstance(t, Tuple) else (t,)


def tuple_of(types) -> Type:
    types = tuple(types)
    return types[0] if len(types) == 1 else Tuple(types)


def is_scalar(t: Type) -> bool:
    return isinstance(t, Scalar)


def agrees(a: Type, b: Type) -> bool:
    """Equal, or one of them is the error type."""
    if a is ERROR or b is ERROR:
        return True
    if isinstance(a, Tuple) and isinstance(b, Tuple):
        return len(a.items) == len(b.items) and all(agrees(x, y) for x, y in zip(a.items, b.items))
    return a == b


def substitute(t: Type, sizes: dict) -> Type:
    """Replace size binders by what `sizes` maps them to (helper instantiation)."""
    if isinstance(t, Array):
        return Array(t.elem, tuple(sizes.get(s, s) if isinstance(s, Binder) else s for s in t.shape))
    if isinstance(t, Tuple):
        return Tuple(tuple(substitute(i, sizes) for i in t.items))
    return t


def match(param, arg, sizes: dict) -> bool:
    """Does `arg` fit `param`, binding the helper's sizes in `sizes`?"""
    if isinstance(param, Tuple) or isinstance(arg, Tuple):
        return (isinstance(param, Tuple) and isinstance(arg, Tuple) and len(param.items) == len(arg.items)
                and all(match(p, a, sizes) for p, a in zip(param.items, arg.items)))
    if isinstance(param, Scalar) or isinstance(arg, Scalar):
        return param == arg
    if param.elem != arg.elem or param.rank != arg.rank:
        return False
    for p, a in zip(param.shape, arg.shape):
        if isinstance(p, Binder) and p.kind == "size":
            if sizes.setdefault(p, a) != a:
                return False
        elif p != a:
            return False
    return True


def holds_array(t) -> bool:
    """An array, or a tuple holding one."""
    return isinstance(t, Array) or isinstance(t, Tuple) and any(holds_array(i) for i in t.items)
