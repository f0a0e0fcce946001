"""Diagnostics: what tiler says when a program (or tiler itself) is wrong.

A `UserError` holds located `Diagnostic`s and renders them as
`file:line:col: message`, the source line, a caret under the fault and a hint.
A `CompilerBug` is a failure after checking: tiler's fault, not the user's.
"""
from __future__ import annotations

from dataclasses import dataclass

from .source import Source, Span


@dataclass(frozen=True)
class Diagnostic:
    span: Span
    message: str
    hint: str = ""


class UserError(Exception):
    """One or more located mistakes in the user's input; exit code 1."""

    def __init__(self, diagnostics, source: Source | None = None):
        self.diagnostics = tuple(sorted(diagnostics, key=lambda d: (d.span.line, d.span.col)))
        self.source = source
        super().__init__(self.diagnostics[0].message if self.diagnostics else "error")

    @classmethod
    def at(cls, span: Span, message: str, hint: str = "", source: Source | None = None):
        return cls([Diagnostic(span, message, hint)], source)

    def with_source(self, source: Source) -> "UserError":
        return self if self.source is not None else UserError(self.diagnostics, source)

    def render(self, limit: int = 10) -> str:
        shown = [render_diagnostic(d, self.source) for d in self.diagnostics[:limit]]
        rest = len(self.diagnostics) - limit
        if rest > 0:
            shown.append(f"... and {rest} more error{'s' if rest > 1 else ''}")
        return "\n\n".join(shown)


class PlainError(Exception):
    """A user error with no source location (bad option, missing file)."""

    def __init__(self, message: str, hint: str = ""):
        self.message, self.hint = message, hint
        super().__init__(message)

    def render(self) -> str:
        return f"{_styled('error:', 'error')} {self.message}" + (f"\n  {_styled('hint:', 'hint')} {self.hint}"
                                                               if self.hint else "")


class CompilerBug(Exception):
    """An internal failure after the program was accepted: tiler's fault."""

    def __init__(self, message: str, span: Span | None = None, stage: str = ""):
        self.span, self.stage = span, stage
        super().__init__(message)

    def render(self) -> str:
        where = f" at {self.span}" if self.span else ""
        stage = f" in stage '{self.stage}'" if self.stage else ""
        return (
            f"internal compiler error{stage}{where}: {self}\n"
            "  this is a bug in tiler, not in your program; please report it with\n"
            "  the .fut file, the command line and `tiler --version`."
        )


# ANSI styles of a diagnostic's parts on a terminal, as gcc and clang colour theirs (`tiler --color`)
_STYLES = {"where": "1", "error": "1;31", "warning": "1;35", "caret": "1;32", "hint": "1;36"}
_COLOR = {"on": False}


def set_color(on: bool) -> None:
    """Colour diagnostics from now on (`tiler --color always`, or `auto` on a terminal)."""
    _COLOR["on"] = on


def colored() -> bool:
    """Whether diagnostics are coloured (click.echo's `color`: it strips styles off a non-terminal otherwise)."""
    return _COLOR["on"]


def _styled(text: str, part: str) -> str:
    return f"\x1b[{_STYLES[part]}m{text}\x1b[0m" if _COLOR["on"] else text


SHOWN_LINE = 160  # the longest source line a message shows whole


def render_diagnostic(d: Diagnostic, source: Source | None, severity: str = "error") -> str:
    lines = [f"{_styled(f'{d.span}:', 'where')} {_styled(f'{severity}:', severity if severity in _STYLES else 'error')} "
             f"{d.message}"]
    line, col = d.span.line, d.span.col
    text = source.line_text(line) if source is not None else ""
    if source is not None and not text.strip():  # at the end of the file, or on a blank line:
        shown = next((n for n in range(min(line, source.line_count), 0, -1) if source.line_text(n).strip()), None)
        if shown is not None:  # the last line with text, the caret after it
            line, text = shown, source.line_text(shown).rstrip()
            col = len(text) + 1
    if text.strip():
        gutter = f"{line:>5} | "
        width = 1
        if d.span.end_line == d.span.line == line:
            width = max(1, d.span.end_col - d.span.col)
        if len(text) > SHOWN_LINE:  # a very long line: the part around the fault, marked where it was cut
            start = max(0, col - 1 - SHOWN_LINE // 2)
            end = min(len(text), start + SHOWN_LINE)
            text = ("..." if start else "") + text[start:end] + ("..." if end < len(text) else "")
            col = col - start + (3 if start else 0)
            width = min(width, SHOWN_LINE)
        # tabs stay tabs (a tab is one column, as in clang), so the caret line copies them to stay aligned
        visible = "".join(ch if ch.isprintable() or ch == "\t" else "?" for ch in text)
        lead = "".join("\t" if ch == "\t" else " " for ch in text[:col - 1])
        lines.append(gutter + visible)
        lines.append(" " * (len(gutter) - 2) + "| " + lead + _styled("^" * width, "caret"))
    if d.hint:
        lines.append(f"  {_styled('hint:', 'hint')} {d.hint}")
    return "\n".join(lines)
