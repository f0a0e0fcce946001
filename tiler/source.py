"""Source text and spans.

Takes the text of a `.fut` file; gives `Span`s (file, line, column, end) that
every later IR carries, so any stage can point back at the source.
"""
from __future__ import annotations

import bisect
import re
from dataclasses import FrozenInstanceError


class Span:
    """A range of source text; lines and columns count from 1. Immutable,
    compared and ordered by its fields. Written by hand, not as a frozen
    dataclass: the parser makes two spans a token, and a frozen dataclass's
    constructor took a sixth of the time of parsing a large program."""

    __slots__ = ("file", "line", "col", "end_line", "end_col")
    file: str
    line: int
    col: int
    end_line: int
    end_col: int

    def __init__(self, file: str, line: int, col: int, end_line: int, end_col: int):
        _set(self, "file", file)
        _set(self, "line", line)
        _set(self, "col", col)
        _set(self, "end_line", end_line)
        _set(self, "end_col", end_col)

    def __setattr__(self, name, value):
        raise FrozenInstanceError(f"cannot assign to field {name!r}")  # (as a frozen dataclass says it)

    def __delattr__(self, name):
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def _key(self) -> tuple:
        return self.file, self.line, self.col, self.end_line, self.end_col

    def __reduce__(self):
        return Span, self._key()

    def __eq__(self, other):
        return self._key() == other._key() if type(other) is Span else NotImplemented

    def __lt__(self, other):
        return self._key() < other._key() if type(other) is Span else NotImplemented

    def __le__(self, other):
        return self._key() <= other._key() if type(other) is Span else NotImplemented

    def __gt__(self, other):
        return self._key() > other._key() if type(other) is Span else NotImplemented

    def __ge__(self, other):
        return self._key() >= other._key() if type(other) is Span else NotImplemented

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return f"Span(file={self.file!r}, line={self.line!r}, col={self.col!r}, end_line={self.end_line!r}, " \
               f"end_col={self.end_col!r})"

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"

    @property
    def short(self) -> str:
        return f"{self.line}:{self.col}"


_set = object.__setattr__  # (Span's own __setattr__ refuses every change)


NO_SPAN = Span("<none>", 0, 0, 0, 0)


_NEWLINE = re.compile("\n")
BOM = "\ufeff"  # a UTF-8 byte-order mark some editors write at the start of a file


class Source:
    """A file's text with fast offset -> (line, column) conversion. The text
    is the file's without a leading byte-order mark: every stage reads
    `source.text`, so spans and the source lines messages show agree."""

    def __init__(self, text: str, name: str = "<input>", stem: str = ""):
        text = text.removeprefix(BOM)
        if "\r" in text:  # a lone CR ends a line (classic Mac), as \n and \r\n do: one character for one, spans agree
            text = re.sub(r"\r(?!\n)", "\n", text)
        self.text = text
        self.name = name
        self.stem = stem  # the generated symbols' name (--name); "": the file's
        self._line_starts: list[int] | None = None  # where each line starts, found when first asked

    @property
    def line_starts(self) -> list[int]:
        """The offset at which each line starts (the parser's spans use them too)."""
        if self._line_starts is None:
            self._line_starts = [0] + [m.end() for m in _NEWLINE.finditer(self.text)]
        return self._line_starts

    def position(self, offset: int) -> tuple[int, int]:
        offset = max(0, min(offset, len(self.text)))
        line = bisect.bisect_right(self.line_starts, offset)
        return line, offset - self.line_starts[line - 1] + 1

    def span(self, start: int, end: int | None = None) -> Span:
        line, col = self.position(start)
        end_line, end_col = self.position(start + 1 if end is None else max(end, start + 1))
        return Span(self.name, line, col, end_line, end_col)

    @property
    def line_count(self) -> int:
        return len(self.line_starts)

    def line_text(self, line: int) -> str:
        if not 1 <= line <= len(self.line_starts):
            return ""
        start = self.line_starts[line - 1]
        end = self.text.find("\n", start)
        return (self.text[start:] if end < 0 else self.text[start:end]).removesuffix("\r")  # (a \r\n line's \r)


def program_stem(file: str) -> str:
    """The program's name in C identifiers (`benchmarks/mm.fut`: mm; `<stdin>`: stdin)."""
    return re.sub(r"\W", "_", file.rsplit("/", 1)[-1].rsplit(".", 1)[0]).strip("_") or "kernel"
