"""Side files in TOML (a benchmark's `.toml`, a `.tuning` file), with their
mistakes located like a program's: `load` turns a syntax error into a
`file:line:col: error:`, and `error` places a message at a key's value."""
from __future__ import annotations

import re
import tomllib

from .errors import UserError
from .source import Source, Span


def load(text: str, name: str, what: str = "") -> dict:
    """The parsed file; a syntax error is a located UserError (`what`, if
    given, leads its message: "cannot read the tuning file: ...")."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:  # "... (at line L, column C)"
        source, reason = Source(text, name), str(exc)
        where = re.search(r"\(at line (\d+), column (\d+)\)", reason)
        offset = 0
        if where is not None:
            line, col = int(where.group(1)), int(where.group(2))
            offset = sum(len(x) for x in source.text.splitlines(keepends=True)[:line - 1]) + col - 1
            reason = reason[:where.start()].strip()
        span = source.span(min(offset, max(len(source.text) - 1, 0)))
        raise UserError.at(span, f"{what}: {reason}" if what else reason, "", source) from None


def error(text: str, name: str, message: str, key: str, table: str = "", nth: int = 1, hint: str = "") -> UserError:
    """`message` at `key = ...` (see value_span), as a located UserError."""
    source = Source(text, name)
    return UserError.at(value_span(source, key, table, nth), message, hint, source)


def value_span(source: Source, key: str, table: str = "", nth: int = 1) -> Span:
    """Where `key = value` is in a TOML file: in `[table]`, or in the nth
    `[[table]]` of an array of tables ("": before any table). The value's
    span, else the table's header, else the file's start: for errors in side
    files, located like errors in programs."""
    current, seen, offset, header = "", 0, 0, None
    for line in source.text.splitlines(keepends=True):
        opened = re.match(r"\s*(\[\[?)\s*([^\]]+?)\s*\]", line)
        if opened:
            current = opened.group(2)
            seen += current == table and opened.group(1) == "[["
            if current == table and header is None and (opened.group(1) == "[" or seen == nth):
                header = source.span(offset + opened.start(2), offset + opened.end(2))
        elif current == table and (seen in (0, nth) or not table):
            found = re.match(rf"\s*{re.escape(key)}\s*=\s*", line)
            if found:
                return source.span(offset + found.end(), offset + len(line.rstrip()))
        offset += len(line)
    return header or source.span(0)
