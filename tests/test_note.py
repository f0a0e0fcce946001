"""The design note's three programs, verbatim, give precise errors; the
corrected benchmarks that keep their structure check."""
from __future__ import annotations

import pytest
from conftest import BENCHMARKS, PROGRAMS, errors_of, load, tiler

NOTE = PROGRAMS / "note"


def test_nbody_unbound_i_with_hint_k():
    d = errors_of(NOTE / "nbody.fut").diagnostics[0]
    assert (d.span.line, d.span.col) == (5, 21)
    assert d.message == "unknown name `i`"
    assert "did you mean `k`" in d.hint and "loop index" in d.hint


def test_mm_int_accumulator_started_with_f32():
    d = errors_of(NOTE / "mm.fut").diagnostics[0]
    assert (d.span.line, d.span.col) == (5, 65)  # `int acc`
    assert "accumulator `acc` is declared int but starts as `0f32`, which is f32" in d.message
    assert "f32 acc" in d.hint


def test_lavamd_two_indices_on_rebound_chunk():
    err = errors_of(NOTE / "lavamd.fut")
    d = err.diagnostics[0]
    assert (d.span.line, d.span.col) == (6, 11)  # inds_nhbs[i, k1]
    assert "`inds_nhbs` has 1 dimension" in d.message and "indexed with 2 indices" in d.message
    assert "hides the parameter `inds_nhbs`" in d.hint
    later = [x.message for x in err.diagnostics[1:]]
    assert any("chunk parameter `invar_AArow_chunk` is declared [int, chunk2]" in m for m in later)
    assert any(m.startswith("iota takes a size") for m in later)


@pytest.mark.parametrize("name", ["nbody", "mm", "lavamd"])
def test_note_programs_exit_1_without_traceback(name):
    result = tiler("check", NOTE / f"{name}.fut")
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert result.stderr.startswith(str(NOTE / f"{name}.fut") + ":")


def test_corrected_programs_keep_the_notes_structure():
    nbody = load(BENCHMARKS / "nbody.fut").kernel
    assert len(nbody.levels) == 1 and nbody.levels[0].args[0].binder.name == "bodies"
    mm = load(BENCHMARKS / "mm.fut").kernel
    assert [pl.binder.name for pl in mm.prelude] == ["B"] and len(mm.levels) == 2
    lavamd = load(BENCHMARKS / "lavamd.fut").kernel
    assert len(lavamd.levels) == 2
    assert "streamSeq" in (BENCHMARKS / "lavamd.fut").read_text().split("loop")[1]  # streamed inside the loop
