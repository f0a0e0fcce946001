"""Warnings: located, listed by explain (and in its JSON for tools), printed
by compile, and errors under --werror (-Werror), where compile writes
nothing."""
from __future__ import annotations

import json

import pytest
from conftest import BENCHMARK_NAMES, BENCHMARKS, tiler

DEAD = """fun [f32, n] main([f32, n] xs, [f32, m] ys) =
  map(fn f32 (f32 x) =>
        let unused = streamSeq(fn f32 (int kk, [f32, c] yc, f32 a) =>
                                 loop (a) = for j < c do a + yc[j] in a
                              , ys, 0f32)
        in x * 2f32
     , xs)
"""


def test_a_stream_nothing_reads_is_a_located_warning_and_an_error_under_werror(tmp_path):
    prog = tmp_path / "dead.fut"
    prog.write_text(DEAD)
    done = tiler("compile", prog, "-o", tmp_path / "dead.cu")
    assert done.returncode == 0 and (tmp_path / "dead.cu").exists()
    assert done.stderr.startswith(f"{prog}:3:22: warning: nothing reads this streamSeq's value: it is removed")
    assert "^" in done.stderr and "hint: use its result" in done.stderr
    for flag in ("--werror", "-Werror"):
        failed = tiler("compile", prog, "-o", tmp_path / "strict.cu", flag)
        assert failed.returncode == 1 and f"{prog}:3:22: error: nothing reads" in failed.stderr
        assert "1 warning treated as errors (--werror)" in failed.stderr and not (tmp_path / "strict.cu").exists()
    data = json.loads(tiler("explain", prog, "--json").stdout)
    assert data["warnings"] == [{"kind": "unused", "line": 3, "column": 22, "hint": "use its result, or delete it",
                                 "message": "nothing reads this streamSeq's value: it is removed"}]
    text = tiler("explain", prog)
    assert text.returncode == 0 and "warnings\n  3:22: nothing reads this streamSeq's value" in text.stdout
    assert tiler("explain", prog, "--json", "--werror").returncode == 1


def test_an_option_the_plan_cannot_take_as_given_is_a_warning():
    done = tiler("compile", BENCHMARKS / "mm.fut", "--chunk", "4096", "-o", "/dev/null")
    assert done.returncode == 0
    assert "mm.fut:9:15: warning: --chunk 4096: this stream takes chunks of" in done.stderr
    assert "would not fit in the" in done.stderr and "hint: give a smaller --chunk" in done.stderr


def test_a_tuning_file_no_table_of_applies_to_is_a_warning(tmp_path):
    prog = tmp_path / "mm.fut"
    prog.write_text((BENCHMARKS / "mm.fut").read_text())
    (tmp_path / "mm.tuning").write_text("[[tuned]]\ndevice = \"Some GPU\"\nfast_math = true\nchunk = 8\n")
    data = json.loads(tiler("explain", prog, "--json").stdout)
    (w,) = data["warnings"]
    assert w["kind"] == "tuning" and w["line"] is None and "no table applies: tuned only with --fast-math" in w["message"]


@pytest.mark.parametrize("name", BENCHMARK_NAMES)
def test_the_benchmarks_compile_without_warnings(name):
    from tiler.analyse import Options
    from tiler.pipeline import run_all
    from tiler.report.warnings import warnings_of

    path = BENCHMARKS / f"{name}.fut"
    assert warnings_of(run_all(path.read_text(), path.name, Options(), until="analyse")["analyse"]) == ()


def test_a_tuned_value_a_given_option_contradicts_is_not_taken_nor_warned_about(tmp_path):
    """--no-register-tile wins over a tuning file's register tile, as over one
    given beside it: no warning blames the user's flag for the file's value."""
    prog = tmp_path / "mm.fut"
    prog.write_text((BENCHMARKS / "mm.fut").read_text())
    (tmp_path / "mm.tuning").write_text("[[tuned]]\ndevice = \"Some GPU\"\nregister_tile = [2, 2]\n")
    data = json.loads(tiler("explain", prog, "--json", "--no-register-tile").stdout)
    assert data["warnings"] == [] and data["block"]["register_tile"]["sizes"] == [1, 1]
    assert tiler("compile", prog, "--no-register-tile", "--werror", "-o", tmp_path / "mm.cu").returncode == 0


def test_werror_prints_the_warnings_as_errors_in_every_output(tmp_path):
    prog = tmp_path / "dead.fut"
    prog.write_text(DEAD)
    for args in (["explain", prog, "--show-transformed"], ["compile", prog, "--stop-after", "render"]):
        done = tiler(*args, "--werror")
        assert done.returncode == 1 and f"{prog}:3:22: error: nothing reads" in done.stderr, args
        assert "1 warning treated as errors (--werror)" in done.stderr


LOOP_PAST_CHUNK = """fun [f32, n] main([[f32, m], n] A, [f32, m] x) =
  map(fn f32 ([f32, m] row) =>
        streamSeq(fn f32 (int kk, [f32, c] rc, [f32, c] xc, f32 acc) =>
                    loop (acc) = for k < m do acc + rc[k] * xc[k] in acc
                 , row, x, 0f32)
     , A)
"""
AT_OFFSET = LOOP_PAST_CHUNK.replace("for k < m do acc + rc[k] * xc[k]", "for k < c do acc + rc[kk + k] * xc[k]")


@pytest.mark.parametrize("text, line, column, start", [
    (LOOP_PAST_CHUNK, 4, 53, "`rc` has `c` elements (a chunk), read here for `k` up to the whole array's length"),
    (AT_OFFSET, 4, 53, "`rc` is a chunk, read here at the stream's offset `kk`")],
    ids=["loop-to-m", "at-kk"])
def test_a_chunk_read_as_if_it_were_the_whole_array_is_a_warning(tmp_path, text, line, column, start):
    """A newcomer's mistake that `tiler run`'s whole chunks hide (the
    program seems right there) and that makes the kernels read past their
    shared tiles: check, run, compile and explain all say so, located."""
    prog = tmp_path / "chunk.fut"
    prog.write_text(text)
    for command in (("check", prog), ("run", prog), ("compile", prog, "-o", tmp_path / "chunk.cu")):
        done = tiler(*command)
        assert done.returncode == 0 and done.stderr.startswith(f"{prog}:{line}:{column}: warning: {start}"), command
    assert tiler("compile", prog, "-o", tmp_path / "strict.cu", "--werror").returncode == 1
    for spelling in ("--werror", "-Werror"):  # check takes them too, as the README says
        strict = tiler("check", prog, spelling)
        assert strict.returncode == 1 and f"{line}:{column}: error: {start}" in strict.stderr, strict.stderr
    kinds = [w["kind"] for w in json.loads(tiler("explain", prog, "--json").stdout)["warnings"]]
    assert kinds == ["chunk"] * (2 if text is LOOP_PAST_CHUNK else 1)
    fixed = text.replace("for k < m", "for k < c").replace("rc[kk + k]", "rc[k]")
    prog.write_text(fixed)
    assert tiler("check", prog).stderr == "" and tiler("compile", prog, "-o", tmp_path / "ok.cu").stderr == ""


@pytest.mark.parametrize("body", [
    "let len = c in loop (acc) = for k < len do acc + rc[k] * xc[k] in acc",  # the chunk's length, renamed
    "loop (acc) = for k < m do if k < c then acc + rc[k] * xc[k] else acc in acc",  # guarded
], ids=["renamed-length", "guarded"])
def test_legal_chunk_reads_are_not_warned_about(tmp_path, body):
    prog = tmp_path / "legal.fut"
    prog.write_text(LOOP_PAST_CHUNK.replace("loop (acc) = for k < m do acc + rc[k] * xc[k] in acc", body))
    assert tiler("run", prog, "--check-splits").returncode == 0  # (legal: the same for every split)
    assert tiler("check", prog).stderr == ""


def test_a_helpers_chunk_mistake_is_warned_once_however_often_it_is_called(tmp_path):
    prog = tmp_path / "helper.fut"
    prog.write_text("""fun f32 dotbad([f32, m] row, [f32, m] x) =
  streamSeq(fn f32 (int kk, [f32, c] rc, [f32, c] xc, f32 acc) =>
              loop (acc) = for k < c do acc + rc[kk + k] * xc[k] in acc, row, x, 0f32)
fun [f32, n] main([[f32, m], n] A, [f32, m] x) = map(fn f32 ([f32, m] row) => dotbad(row, x) + dotbad(x, row), A)
""")
    assert tiler("check", prog).stderr.count("warning:") == 1

