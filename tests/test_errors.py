"""Every checker and parser error program gives its located message and hint.

Each program under tests/programs/errors states its expected first error as
`-- error: LINE:COL: message` (a prefix of the message) and may state
`-- hint: text` (a part of the hint)."""
from __future__ import annotations

import pytest
from conftest import PROGRAMS, errors_of, header, tiler

ERROR_PROGRAMS = sorted((PROGRAMS / "errors").glob("*.fut"))


@pytest.mark.parametrize("path", ERROR_PROGRAMS, ids=lambda p: p.stem)
def test_first_error(path):
    want = header(path)
    assert "error" in want, f"{path.name} states no expected error"
    position, _, message = want["error"][0].partition(": ")
    line, col = map(int, position.split(":"))
    first = errors_of(path).diagnostics[0]
    assert (first.span.line, first.span.col) == (line, col), first
    assert first.message.startswith(message), first.message
    for hint in want.get("hint", []):
        assert hint in first.hint, first.hint


def test_error_programs_cover_the_checker():
    assert len(ERROR_PROGRAMS) >= 50


@pytest.mark.parametrize("name", ["unknown_name", "acc_type", "syntax_missing_paren", "recursion"])
def test_cli_reports_error_with_source_line_and_caret(name):
    path = PROGRAMS / "errors" / f"{name}.fut"
    result = tiler("check", path)
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    first = result.stderr.splitlines()
    position, _, message = header(path)["error"][0].partition(": ")
    assert first[0].startswith(f"{path}:{position}: error: {message}")
    assert first[1].lstrip().split("|", 1)[0].strip().isdigit()  # the source line, numbered
    assert first[2].strip().startswith("|") and "^" in first[2]  # the caret line
