"""Names in scope while checking, and "did you mean" hints.

`Scope` is one mutable table with an undo log: `bind` returns a mark and
`restore(mark)` undoes every binding made after it, so a deep chain of lets
costs O(1) per name. It remembers which binding each name hid (shadowing),
for hints such as lavaMD's chunk parameter that hides `main`'s array.
"""
from __future__ import annotations

from .types import Binder, Size


class Scope:
    def __init__(self):
        self.vars: dict[str, Binder | int] = {}  # an int: a size name standing for a literal
        self.sizes: dict[str, Size] = {}
        self.order: list[str] = []  # most recent last, for hints
        self.hidden: dict[Binder, Binder] = {}  # a binder -> the one it shadowed (binders are equal only to themselves)
        self._log: list[tuple[dict, str, object]] = []

    def mark(self) -> int:
        return len(self._log)

    def bind(self, name: str, binder: Binder | int) -> None:
        old = self.vars.get(name)
        if isinstance(old, Binder) and isinstance(binder, Binder):
            self.hidden[binder] = old
        self._set(self.vars, name, binder)
        self.order.append(name)

    def bind_size(self, name: str, size: Size) -> None:
        self._set(self.sizes, name, size)
        self.bind(name, size)

    def _set(self, table: dict, name: str, value) -> None:
        self._log.append((table, name, table.get(name, _ABSENT)))
        table[name] = value

    def restore(self, mark: int) -> None:
        while len(self._log) > mark:
            table, name, old = self._log.pop()
            if old is _ABSENT:
                del table[name]
            else:
                table[name] = old
            if table is self.vars:
                self.order.pop()

    def shadowed(self, binder: Binder) -> Binder | None:
        return self.hidden.get(binder)


_ABSENT = object()


def edit_distance(a: str, b: str) -> int:
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        prev = cur
    return prev[-1]


def suggest(name: str, candidates, prefer=lambda c: False) -> str | None:
    """The closest candidate within a small edit distance, preferring recent
    names (candidates come most recent first) and those `prefer` likes."""
    best, best_key = None, None
    limit = max(1, len(name) // 3)
    for rank, cand in enumerate(candidates):
        if cand == name:
            continue
        dist = edit_distance(name.lower(), cand.lower())
        if dist > limit and not (len(name) > 2 and (cand.startswith(name) or name.startswith(cand))):
            continue
        key = (dist, not prefer(cand), rank)
        if best_key is None or key < best_key:
            best, best_key = cand, key
    return best


def declared_at(binder) -> str:
    """Where a name was declared, as a hint (a parameter's type is often the mistake)."""
    span = getattr(binder, "span", None)
    return f"`{binder.name}` is declared at {span.line}:{span.col}" if span is not None and span.line else ""
