"""The outputs the README and the guides show are the ones tiler prints now.

A fenced block after `<!-- doctest -->` holds one `$ tiler ...` command and
what it prints (stdout and stderr, 120 columns wide). In the shown output a
line `...` stands for any number of lines, and `...` inside a line for any
text (a register count that depends on the nvcc version). A fenced block
after `<!-- doctest-file: NAME -->` is a file the document's commands read
(the guide's sums.fut). Each document runs in a folder of its own where
`benchmarks/` and `tests/` are this checkout's.
"""
from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from tiler.runtime.nvcc import nvcc_path

ROOT = Path(__file__).resolve().parent.parent
DOCUMENTS = ("README.md", "docs/guide.md", "docs/coalescing.md", "docs/schedule-and-ir.md")
MARK = re.compile(r"<!-- doctest(?:-file: (\S+))? -->\n```\n(.*?)```", re.S)


def _blocks(document: str) -> list[tuple[str | None, str]]:
    """(file name or None for a command, the block's text), in order."""
    return [(m.group(1), m.group(2)) for m in MARK.finditer((ROOT / document).read_text())]


def matches(expected: list[str], actual: list[str]) -> bool:
    """Whether the actual lines are the expected ones, `...` as above."""
    patterns = [None if e.strip() == "..." else re.compile(".*".join(map(re.escape, e.split("...")))) for e in expected]
    seen: dict = {}

    def match(i: int, j: int) -> bool:
        if (i, j) not in seen:
            if i == len(patterns):
                seen[i, j] = j == len(actual)
            elif patterns[i] is None:
                seen[i, j] = any(match(i + 1, k) for k in range(j, len(actual) + 1))
            else:
                seen[i, j] = j < len(actual) and bool(patterns[i].fullmatch(actual[j])) and match(i + 1, j + 1)
        return seen[i, j]

    return match(0, 0)


def test_the_ellipsis_stands_for_lines_and_for_text():
    assert matches(["a", "...", "d ... f"], ["a", "b", "c", "d e f"])
    assert matches(["a", "..."], ["a"]) and not matches(["a", "b"], ["a", "c"])
    assert not matches(["a ... c"], ["a b"]) and not matches(["a"], ["a", "b"])


@pytest.mark.parametrize("document", DOCUMENTS)
def test_the_shown_outputs_are_current(document, tmp_path):
    blocks = _blocks(document)
    if document in ("README.md", "docs/guide.md"):
        assert any(name is None for name, _ in blocks), f"{document} marks no output for this test"
    for link in ("benchmarks", "tests"):
        (tmp_path / link).symlink_to(ROOT / link)
    env = dict(os.environ, COLUMNS="120", PYTHONPATH=str(ROOT), NO_COLOR="1")
    for name, text in blocks:
        if name is not None:
            (tmp_path / name).write_text(text)
            continue
        command, *shown = text.rstrip("\n").split("\n")
        assert command.startswith("$ tiler "), f"{document}: a doctest block starts with `$ tiler ...`: {command}"
        args = shlex.split(command[len("$ tiler "):], comments=True)
        if "--nvcc" in args and nvcc_path() is None:
            continue  # (CI has nvcc)
        done = subprocess.run([sys.executable, "-m", "tiler", *args], cwd=tmp_path, env=env, capture_output=True,
                              text=True, timeout=300)
        actual = [line.rstrip() for line in (done.stdout + done.stderr).rstrip("\n").split("\n")]
        assert matches([line.rstrip() for line in shown], actual), (
            f"{document}: `{command[2:]}` now prints:\n" + "\n".join(actual))
