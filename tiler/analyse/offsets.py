"""A window's offsets (windows.py): a read's index less its point's, as a
constant, loop and stream indices over their ranges, and values fixed for
the launch; and the words for those fixed values."""
from __future__ import annotations

from dataclasses import dataclass

from ..check import typed as T


@dataclass(frozen=True)
class Position:
    """A stream's offset (`kind` "offset") or the index of a loop over its
    chunk ("chunk"): within the stream's `length`; an offset and a chunk
    index of one stream, added, walk that length once."""

    stream: int
    kind: str
    length: object


@dataclass(frozen=True)
class Offset:
    """An index's offset from its point: a constant plus loop indices, each
    a coefficient times an index in [0, bound) (a number, or a size's
    name where the bound is known only at launch), plus values fixed for the
    launch (`symbols`)."""

    const: int = 0
    terms: tuple = ()  # (coefficient, bound)
    symbols: tuple = ()  # (coefficient, name)

    @property
    def low(self) -> int | None:
        return self._end(lambda c: c < 0)

    @property
    def high(self) -> int | None:
        return self._end(lambda c: c > 0)

    def _end(self, side) -> int | None:
        if self.symbols or any(not isinstance(b, int) for c, b in self.terms if side(c)):
            return None
        return self.const + sum(c * (b - 1) for c, b in self.terms if side(c))

    def values(self) -> set | None:
        """Every value the offset takes (None: a symbol, or a bound known only at launch)."""
        if self.symbols or any(not isinstance(b, int) for _, b in self.terms):
            return None
        out = {self.const}
        for c, b in self.terms:
            out = {x + c * t for x in out for t in range(b)}
        return out

    @property
    def still(self) -> bool:
        """The point's own index: no offset at all."""
        return self.const == 0 and not self.terms and not self.symbols

    def plus(self, other: "Offset") -> "Offset":
        return Offset(self.const + other.const, self.terms + other.terms, self.symbols + other.symbols)

    def scaled(self, c: int) -> "Offset":
        return Offset(self.const * c, tuple((k * c, b) for k, b in self.terms),
                      tuple((k * c, n) for k, n in self.symbols))

    def merged(self) -> "Offset":
        """The same, each symbol's coefficients summed into one, those that cancel left out."""
        named: dict = {}
        for c, name in self.symbols:
            named[name] = named.get(name, 0) + c
        return Offset(self.const, self.terms, tuple((c, name) for name, c in named.items() if c))

    def streamed(self) -> "Offset":
        """Stream positions as ranges: a stream's offset and one index of a
        loop over its chunk, with the same coefficient, walk its length once;
        any other (an offset alone, a second chunk index) its length each."""
        terms, pending = [], [(c, b) for c, b in self.terms if isinstance(b, Position) and b.kind == "chunk"]
        for c, b in self.terms:
            if isinstance(b, Position) and b.kind == "offset":
                mate = next(((cc, bb) for cc, bb in pending if cc == c and bb.stream == b.stream), None)
                if mate is not None:
                    pending.remove(mate)
                terms.append((c, b.length))
            elif not isinstance(b, Position):
                terms.append((c, b))
        return Offset(self.const, tuple(terms) + tuple((c, b.length) for c, b in pending), self.symbols)


def fixed_text(e) -> str:
    """A fixed value in words, for explain: a name, or `kw / 2`."""
    if isinstance(e, T.Var):
        return e.binder.name
    if isinstance(e, T.Lit):
        return str(e.value)
    if isinstance(e, T.BinOp):
        return f"{fixed_text(e.lhs)} {e.op} {fixed_text(e.rhs)}"
    return "a value"


def tree_text(tree, nested: bool = False) -> str:
    """A fixed value's tree (Window.atoms) in words: `kh / 2`, `(n + 1) / 2`."""
    if isinstance(tree, tuple):
        op, a, b = tree
        text = f"{tree_text(a, True)} {op} {tree_text(b, True)}"
        return f"({text})" if nested else text
    return f"({tree})" if isinstance(tree, int) and tree < 0 and nested else str(getattr(tree, "name", tree))
