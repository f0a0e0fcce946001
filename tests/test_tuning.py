"""Tuning files (tiler/tuning.py): read by compile, explain and the Python
API, the command line's own values first, another device's table unused."""
from __future__ import annotations

import json
import shutil

import pytest
from conftest import BENCHMARKS, tiler

import tiler as tiler_api
from tiler.analyse import Options
from tiler.errors import PlainError
from tiler.tuning import Tuned, for_program, read, write

TABLE = """[[tuned]]
device = "NVIDIA H200"
sizes = { n = 8192, m = 8192 }
tile = [32]
chunk = 128
time_ms = 0.121
default_ms = 0.130
date = "2026-11-21"
"""


@pytest.fixture
def program(tmp_path):
    path = tmp_path / "matvec.fut"
    shutil.copy(BENCHMARKS / "matvec.fut", path)
    (tmp_path / "matvec.tuning").write_text(TABLE)
    return path


def test_explain_and_compile_apply_the_programs_tuning(program):
    data = json.loads(tiler("explain", program, "--json").stdout)
    assert data["block"]["threads"] == [32] and data["streams"][0]["chunk"] == 128
    assert data["tuning"]["flags"] == "--tile 32 --chunk 128" and data["tuning"]["device"] == "NVIDIA H200"
    launch = json.loads(tiler("compile", program, "--emit", "launch").stdout)
    assert launch["versions"][0]["block"][0] == 32
    text = tiler("explain", program).stdout
    assert "tuned: --tile 32 --chunk 128 from" in text and "0.121 ms there, the default 0.130 ms" in text


def test_the_command_line_wins_and_no_tuning_ignores_it(program):
    data = json.loads(tiler("explain", program, "--json", "--tile", "16").stdout)
    assert data["block"]["threads"] == [16] and data["streams"][0]["chunk"] == 128
    assert data["tuning"]["flags"] == "--chunk 128"
    data = json.loads(tiler("explain", program, "--json", "--no-tuning").stdout)
    assert data["block"]["threads"] == [16] and data["tuning"] is None


def test_another_devices_table_is_not_used(program):
    options, applied = for_program(str(program), Options(), device=lambda: "NVIDIA A100")
    assert options == Options() and applied.tuned is None
    assert applied.note == "tuned on NVIDIA H200, not on this NVIDIA A100: not used"


def test_the_table_at_the_sizes_given_is_chosen(tmp_path):
    small = Tuned("G", {"n": 100}, {"tile": (64,)})
    large = Tuned("G", {"n": 10000}, {"tile": (32,)})
    write(tmp_path / "p.tuning", [small, large], "p.fut")
    (tmp_path / "p.fut").write_text("")
    assert read(tmp_path / "p.tuning") == [small, large]  # written and read back the same
    options, applied = for_program(str(tmp_path / "p.fut"), Options(sizes=(("n", 100),)), device=lambda: "G")
    assert options.tile == (64,) and "at the sizes given" in applied.note
    options, applied = for_program(str(tmp_path / "p.fut"), Options(), device=lambda: "G")
    assert options.tile == (32,) and applied.note == "tuned on this G, at n=10000"


@pytest.mark.parametrize("text, message", [
    ("[[tuned]]\ndevice = \"G\"\nwarp = 3\n", "tuned table 1 has unknown key `warp`"),
    ("[[tuned]]\ntile = [8]\n", "tuned table 1 has no `device`"),
    ("[[tuned]\n", "cannot read the tuning file"),
    ("[[tuned]]\ndevice = \"G\"\nchunk = 0\n", "a chunk is between 1 and 4096"),
])
def test_a_bad_tuning_file_is_a_plain_error(tmp_path, text, message):
    (tmp_path / "p.fut").write_text("")
    (tmp_path / "p.tuning").write_text(text)
    with pytest.raises(PlainError, match=message):
        for_program(str(tmp_path / "p.fut"), Options(), device=lambda: "G")


def test_a_missing_tuning_file_given_is_refused(program):
    done = tiler("explain", program, "--tuning", program.parent / "none.tuning")
    assert done.returncode == 1 and "--tuning" in done.stderr and "no such file" in done.stderr


def test_the_python_api_reads_it_too(program):
    k = tiler_api.compile(program)
    assert k.explain["tuning"]["flags"] == "--tile 32 --chunk 128" and k.launch["versions"][0]["block"][0] == 32
    assert tiler_api.compile(program, tuning=False).explain["tuning"] is None
