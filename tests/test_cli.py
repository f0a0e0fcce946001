"""The command line: exit codes, located errors, never a traceback."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from conftest import BENCHMARKS, PROGRAMS, ROOT, tiler

NBODY = BENCHMARKS / "nbody.fut"


def no_traceback(result):
    assert "Traceback" not in result.stdout + result.stderr
    return result


def test_version_and_help():
    result = tiler("--version")
    assert result.returncode == 0 and "tiler, version" in result.stdout
    for command in ([], ["check"], ["run"]):
        result = tiler(*command, "--help")
        assert result.returncode == 0 and "Usage:" in result.stdout


def test_docs_list_show_and_locate_the_shipped_documents():
    """The language reference and the guides ship with the package: `tiler
    docs` lists them, `tiler docs TOPIC` prints one, `--path` says where."""
    listed = tiler("docs")
    assert listed.returncode == 0 and re.search(r"^language +The input language$", listed.stdout, re.M)
    shown = tiler("docs", "language")
    assert shown.returncode == 0 and shown.stdout == (ROOT / "docs" / "language.md").read_text() + "\n"
    path = tiler("docs", "guide", "--path").stdout.strip()
    assert path.endswith("guide.md") and Path(path).read_text() == (ROOT / "docs" / "guide.md").read_text()  # (an sdist copies)
    example = tiler("docs", "examples/mm_host.cu", "--path").stdout.strip()  # (the README's host program)
    assert Path(example).read_text() == (ROOT / "docs" / "examples" / "mm_host.cu").read_text()
    assert re.search(r"^examples/mm_host.cu +Calling a tiler kernel from your own program", listed.stdout, re.M)
    bad = tiler("docs", "langauge")
    assert bad.returncode == 1 and "error: no document `langauge`" in bad.stderr and "language-notes" in bad.stderr
    assert "tiler docs language" in tiler("--help").stdout


def test_check_is_silent_on_a_good_program():
    result = tiler("check", NBODY)
    assert (result.returncode, result.stdout, result.stderr) == (0, "", "")


@pytest.mark.parametrize("content, message", [
    (b"", "expected a function definition, found an empty file"),
    (b"   \n-- only a comment", "expected a function definition, found only comments"),
    (bytes(range(256)) * 4, "the file is not UTF-8 text"),
    (b"fun f32 main(f32 x) = x\x00", "unexpected character U+0000"),
    (b"{- a block comment is not the language -}", "unexpected character '{'"),
    (b"fun f32 main(f32 x) = " + b"(" * 5000 + b"x" + b")" * 5000, "brackets nested more than"),
])
def test_bad_files_get_located_errors(tmp_path, content, message):
    path = tmp_path / "bad.fut"
    path.write_bytes(content)
    result = no_traceback(tiler("check", path))
    assert result.returncode == 1
    assert result.stderr.startswith(f"{path}:") and message in result.stderr


def test_random_binary_junk(tmp_path):
    for seed in range(5):
        path = tmp_path / f"junk{seed}.fut"
        path.write_bytes(np.random.default_rng(seed).integers(0, 256, 3000, dtype=np.uint8).tobytes())
        result = no_traceback(tiler("check", path))
        assert result.returncode == 1 and result.stderr.startswith(f"{path}:")


def test_a_comment_that_runs_to_the_end_of_the_file(tmp_path):
    path = tmp_path / "c.fut"
    path.write_text(NBODY.read_text().rstrip("\n") + "  -- a comment with no newline after it")
    assert tiler("check", path).returncode == 0


def test_missing_file_and_directory():
    result = no_traceback(tiler("check", "no/such/file.fut"))
    assert result.returncode == 1 and "cannot read no/such/file.fut" in result.stderr
    result = no_traceback(tiler("check", BENCHMARKS))
    assert result.returncode == 1 and "is a directory" in result.stderr


def long_program(lines: int, mistake: bool = False) -> str:
    out = ["fun [f32, n] main([f32, n] xs) =", "  map(fn f32 (f32 x) =>", "    let v0 = x in"]
    out += [f"    let v{i} = v{i - 1} * 0.5f32 + x in" for i in range(1, lines - 4)]
    out.append(f"    v{lines - 5} + {'y' if mistake else 'x'}, xs)")
    return "\n".join(out) + "\n"


@pytest.mark.slow
def test_a_ten_thousand_line_program(tmp_path):
    path = tmp_path / "long.fut"
    path.write_text(long_program(10_000))
    assert no_traceback(tiler("check", path)).returncode == 0
    result = no_traceback(tiler("run", path, "--size", "n=8"))
    assert result.returncode == 0 and "out0" in result.stdout
    path.write_text(long_program(10_000, mistake=True))
    result = no_traceback(tiler("check", path))
    assert result.returncode == 1 and f"{path}:9999:" in result.stderr and "unknown name `y`" in result.stderr


def test_deeply_nested_conditionals(tmp_path):
    body = "x"
    for i in range(2000):
        body = f"if x > {i}f32 then {i}f32 else {body}"
    path = tmp_path / "deep.fut"
    path.write_text("fun [f32, n] main([f32, n] xs) =\n  map(fn f32 (f32 x) => " + body + ", xs)\n")
    assert no_traceback(tiler("check", path)).returncode == 0


def test_run_summarises_and_saves(tmp_path):
    out = tmp_path / "out.npz"
    result = no_traceback(tiler("run", NBODY, "--size", "n=64", "--chunk", "10", "-o", out))
    assert result.returncode == 0 and "n=64" in result.stdout and "out0" in result.stdout
    saved = np.load(out)
    assert saved["out0"].shape == (64,) and saved["out0"].dtype == np.float32


def test_run_reads_given_inputs(tmp_path):
    bodies = np.arange(5, dtype=np.float32)
    np.save(tmp_path / "b.npy", bodies)
    out = tmp_path / "o.npz"
    result = no_traceback(tiler("run", NBODY, "--input", f"bodies={tmp_path / 'b.npy'}", "-o", out))
    assert result.returncode == 0
    assert np.load(out)["out0"].tolist() == (bodies.sum() - 5 * bodies).tolist()


@pytest.mark.parametrize("args, message", [
    (["--size", "n"], "--size expects NAME=VALUE"),
    (["--size", "n=abc"], "a size is a whole number"),
    (["--size", "zz=3"], "`zz` is not a size of this program"),
    (["--chunk", "0"], "--chunk"),
    (["--input", "nope=x.npy"], "cannot read x.npy"),
    (["-o", "/no/such/dir/o.npz"], "cannot write /no/such/dir/o.npz"),
])
def test_run_option_errors(args, message):
    result = no_traceback(tiler("run", NBODY, "--size", "n=8", *args) if args[0] != "--size"
                          else tiler("run", NBODY, *args))
    assert result.returncode == 1 and message in result.stderr


def test_run_time_fault_is_located(tmp_path):
    path = tmp_path / "oob.fut"
    path.write_text("fun [f32, n] main([f32, n] xs) =\n  map(fn f32 (int i) => xs[i + 1], iota(n))\n")
    result = no_traceback(tiler("run", path, "--size", "n=4"))
    assert result.returncode == 1
    assert result.stderr.startswith(f"{path}:2:28: error: index 4 is out of range") and "^" in result.stderr


def test_unexpected_failures_are_reported_as_compiler_bugs(monkeypatch, capsys):
    from click.testing import CliRunner

    from tiler import cli, pipeline

    def broken(*args):
        raise KeyError("boom")

    monkeypatch.setattr(pipeline, "run_to", broken)
    result = CliRunner().invoke(cli.main, ["check", str(NBODY)])
    assert result.exit_code == cli.EXIT_BUG
    assert "internal compiler error" in result.output and "KeyError" in result.output
    assert os.environ.get("TILER_NO_SUCH") is None


def test_check_splits_exposes_a_split_dependent_program(tmp_path):
    passed = tiler("run", NBODY, "--size", "n=50", "--check-splits")
    assert passed.returncode == 0 and "the same outputs with chunks of 1, 7 and random:1" in passed.stdout  # (it says)
    path = tmp_path / "count.fut"  # counts chunks: depends on the split
    path.write_text("fun [int, n] main([int, n] xs) = map(fn int (int x) =>"
                    " streamSeq(fn int (int kk, [int, c] xc, int acc) => acc + 1, xs, 0), xs)\n")
    result = no_traceback(tiler("run", path, "--size", "n=20", "--check-splits"))
    assert result.returncode == 1 and "out0 depends on how a stream splits its arrays" in result.stderr
    assert "(the streams: line 1:" in result.stderr  # (where to look)


@pytest.fixture(scope="module")
def npy(tmp_path_factory):
    """Array files of every kind a user might pass by mistake."""
    d = tmp_path_factory.mktemp("npy")
    files = {"vec5": np.ones(5, np.float32), "int5": np.ones(5, np.int32), "huge": np.full(8, 2**40, np.int64),
             "small64": np.ones(8, np.int64), "f64": np.full(8, 0.1), "int8": np.arange(8, dtype=np.int32)}
    for name, a in files.items():
        np.save(d / f"{name}.npy", a)
    (d / "text.npy").write_text("hello")
    return d


@pytest.mark.parametrize("args, message", [
    (["benchmarks/nbody3d.fut", "-s", "n=5", "-i", "eps2={vec5}"],
     "`eps2` is f32, but the file holds an array of shape (5,)"),
    (["benchmarks/lavamd_rodinia.fut", "-s", "boxes1d=1", "-i", "alpha={int5}"], "`alpha` is f32, but the file holds"),
    (["benchmarks/lavamd_rodinia.fut", "-s", "boxes1d=2", "-i", "nn={huge}"],
     "the value 1099511627776 does not fit `nn`'s type, int32"),
    (["benchmarks/lavamd_rodinia.fut", "-s", "boxes1d=2", "-i", "nn={f64}"], "`nn` holds int32, not float64"),
    (["benchmarks/nbody3d.fut", "-i", "xs={text}"], "text.npy is not a .npy array file"),
    (["benchmarks/nbody3d.fut", "-s", "n=5", "-i", "xs={int8}"], "--size n=5, but the array given for `xs` has n = 8"),
    (["benchmarks/nbody.fut", "-s", "n=-5"], "size n = -5: a size is an int, from 0 to 2,147,483,647"),
    (["benchmarks/nbody.fut", "-s", "n=3000000000"], "size n = 3,000,000,000: a size is an int"),
    (["benchmarks/mm.fut", "-s", "m=100000", "-s", "n=100000", "-s", "q=100000"], "the interpreter needs at least 409.8 GiB"),
    (["benchmarks/nbody.fut", "--seed", "-1"], "-1 is not in the range x>=0"),
])
def test_run_refuses_bad_arguments(npy, args, message):
    result = no_traceback(tiler("run", *(a.format(**{p.stem: p for p in npy.iterdir()}) for a in args)))
    assert result.returncode == 1 and message in result.stderr, result.stderr


def test_run_says_when_it_converts_an_input(npy):
    result = no_traceback(tiler("run", "benchmarks/lavamd_rodinia.fut", "-s", "boxes1d=2", "-i",
                                f"nn={npy / 'small64.npy'}"))
    assert result.returncode == 0 and "note: --input nn: int64 values converted to int32" in result.stderr


@pytest.mark.parametrize("args, message", [
    (["compile", "benchmarks/mm.fut", "--size", "n=-1"], "--size n=-1: a size is a whole number of at least 0"),
    (["compile", "benchmarks/nbody.fut", "--size", "n=3000000000"], "so a size is at most 2,146,435,072"),
    (["compile", "benchmarks/mm.fut", "--tile", "64,64"], "a block of 64 x 64 threads has 4,096; a block has at most"),
    (["compile", "benchmarks/nbody.fut", "--tile", "1,2,3,4"], "4 sizes for a kernel of 1 dimension"),
    (["compile", "benchmarks/nbody.fut", "--arch", "sm_00"], "--arch sm_00: not a GPU architecture"),
    (["fuzz", "2", "--seed", "-5"], "-5 is not in the range 0<=x<="),
    (["fuzz", "2", "--narrow", "--products"], "--narrow and --products write different programs"),
    (["explain", "benchmarks/matvec.fut", "--chunk", "0"], "--chunk 0: a chunk is between 1 and 4096 elements"),
])
def test_commands_refuse_bad_values(args, message):
    result = no_traceback(tiler(*args))
    assert result.returncode == 1 and message in result.stderr, result.stderr


def test_a_byte_order_mark_is_accepted_and_tabs_keep_their_columns(tmp_path):
    path = tmp_path / "bom.fut"
    path.write_bytes(b"\xef\xbb\xbf" + NBODY.read_bytes())
    assert tiler("check", path).returncode == 0
    path.write_text("fun [f32, n] main([f32, n] xs) =\n\tmap(fn f32 (f32 x) =>\tx +* 1.0f32, xs)\n")
    lines = tiler("check", path).stderr.splitlines()
    assert lines[0].endswith(":2:27: error: expected an expression, found `*`")
    assert lines[1].endswith("| \tmap(fn f32 (f32 x) =>\tx +* 1.0f32, xs)")  # the tab echoed as it is
    assert lines[2].endswith("| \t" + " " * 21 + "\t   ^")  # the caret under the `*`, tabs copied


def test_an_error_at_the_end_of_the_file_shows_the_last_line(tmp_path):
    path = tmp_path / "cut.fut"
    path.write_text("fun [f32, n] main([f32, n] xs) =\n  map(fn f32 (f32 x) =>\n\n")
    lines = tiler("check", path).stderr.splitlines()
    assert "found the end of the file" in lines[0]
    assert lines[1] == "    2 |   map(fn f32 (f32 x) =>" and lines[2] == "      |                        ^"


def test_a_dash_reads_the_program_from_standard_input(tmp_path):
    text = NBODY.read_text()
    done = subprocess.run([sys.executable, "-m", "tiler", "explain", "-"], input=text, capture_output=True,
                          text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0 and done.stdout.startswith("<stdin>: a 1-D kernel")
    done = subprocess.run([sys.executable, "-m", "tiler", "check", "-"], input="fun f32 main(f32 x) = x +* 1f32",
                          capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 1 and done.stderr.startswith("<stdin>:1:26: error: expected an expression")


def test_emit_writes_to_the_output_file(tmp_path):
    out = tmp_path / "nbody.kir"
    result = no_traceback(tiler("compile", NBODY, "--emit", "kir", "-o", out))
    assert result.returncode == 0 and result.stdout == "" and out.read_text().startswith("Module source=")


def test_an_int_parameter_of_main_is_a_size(tmp_path):
    """Its value comes from --size, the arrays carrying it must agree, and
    another parameter type naming a size is still refused."""
    path = PROGRAMS / "analysis" / "int_size.fut"
    done = tiler("run", path, "-s", "n=7", "-s", "k=5")
    assert done.returncode == 0 and "(7,)" in done.stdout, done.stderr
    bad = tmp_path / "bad.fut"
    bad.write_text("fun [f32, n] main(f32 n, [f32, n] xs) =\n  map(fn f32 (f32 x) => x * n, xs)\n")
    done = tiler("check", bad)
    assert done.returncode == 1 and "`n` names both a size and a parameter" in done.stderr
    assert "declare it `int n`: an int parameter of main may be a size" in done.stderr
    ok = tmp_path / "ok.fut"
    ok.write_text("fun [f32, n] main(int n, [f32, n] xs) =\n  map(fn f32 (f32 x) => x * f32(n), xs)\n")
    np.save(tmp_path / "n9.npy", np.int32(9))
    np.save(tmp_path / "x5.npy", np.ones(5, np.float32))
    done = no_traceback(tiler("run", ok, "-i", f"xs={tmp_path / 'x5.npy'}", "-i", f"n={tmp_path / 'n9.npy'}"))
    assert done.returncode == 1 and "size `n` is 9 by `n` but 5 by `xs`" in done.stderr
    done = tiler("run", ok, "-i", f"xs={tmp_path / 'x5.npy'}")
    assert done.returncode == 0 and "5, 5, 5" in done.stdout


def test_an_int_size_is_passed_to_the_kernel_once():
    from tiler.pipeline import run_all

    path = PROGRAMS / "analysis" / "int_size.fut"
    module = run_all(path.read_text(), path.name)["verify"]
    roles = [(p.role, p.source) for p in module.main.params]
    assert roles == [("scalar", "h"), ("input", "xs"), ("output", "out0"), ("size", "n"), ("size", "k")]


def test_unroll_marks_the_loops_over_a_staged_chunk_and_explain_says_so():
    cuda = tiler("compile", BENCHMARKS / "mriq.fut", "--unroll", "8").stdout
    lines = cuda.splitlines()
    # the tiled kernels' loops over a full chunk (256) and over the last one (c); not the untiled kernel's
    chunk_loops = [n for n, line in enumerate(lines) if re.search(r"for \(int k(_\d+)? = 0; k(_\d+)? < (256|c);", line)]
    assert len(chunk_loops) >= 2 and all(lines[n - 1].strip() == "#pragma unroll 8" for n in chunk_loops)
    assert cuda.count("#pragma unroll 8") == len(chunk_loops)
    assert "#pragma unroll 8" not in tiler("compile", BENCHMARKS / "mriq.fut").stdout
    assert "its loop unrolled 8 times" in tiler("explain", BENCHMARKS / "mriq.fut", "--unroll", "8").stdout
    done = tiler("compile", BENCHMARKS / "mriq.fut", "--unroll", "0")
    assert done.returncode == 1 and done.stderr.strip() == "error: --unroll 0: between 1 (never unroll) and 64"


def test_compile_refuses_to_write_over_the_program_or_to_lose_the_kernels(tmp_path):
    prog = tmp_path / "v.fut"
    prog.write_text((BENCHMARKS / "matvec.fut").read_text())
    before = prog.read_text()
    r = tiler("compile", str(prog), "-o", str(prog))
    assert r.returncode == 1 and "would write over the program" in r.stderr and prog.read_text() == before
    r = tiler("compile", str(prog), "-o", str(tmp_path / "kernel.h"))
    assert r.returncode == 1 and "-o names the CUDA file" in r.stderr and "-o " in r.stderr
    assert not (tmp_path / "kernel.h").exists()
    r = tiler("compile", str(prog), "--emit", "header", "-o", str(tmp_path / "kernel.h"))
    assert r.returncode == 0 and "tiler" in (tmp_path / "kernel.h").read_text()


def test_fuzz_makes_its_failures_folder_only_for_failures_and_says_when_nvcc_is_missing(tmp_path):
    out = tmp_path / "ff"
    r = subprocess.run([sys.executable, "-m", "tiler", "fuzz", "2", "--mutations", "0", "--out", str(out)],
                       capture_output=True, text=True, timeout=300, env={**os.environ, "PATH": str(tmp_path)})
    assert r.returncode == 0 and "2 programs, 0 failures" in r.stdout and not out.exists()
    assert "nvcc is not on PATH" in r.stderr
    assert "nvcc built" not in r.stdout and "no kernel was compiled with it" in r.stdout  # no claim it ran


def test_conflicting_flags_and_unknown_size_names_are_refused():
    mm = BENCHMARKS / "mm.fut"
    for args, said in (
            (["explain", mm, "--json", "--show-transformed"], "--json and --show-transformed cannot be used together"),
            (["compile", mm, "--stop-after", "parse", "--emit", "cuda"], "--stop-after and --emit cannot be used"),
            (["compile", mm, "--emit", "header", "--nvcc"], "--emit and --nvcc cannot be used together"),
            (["compile", mm, "--no-tile", "--tile", "16"], "--no-tile and --tile contradict each other"),
            (["explain", mm, "--single-buffer", "--double-buffer"], "--single-buffer and --double-buffer contradict"),
            (["compile", mm, "--size", "zz=10"], "--size zz: `zz` is not a size of this program"),
            (["explain", mm, "--threshold", "zz=10"], "--threshold zz: `zz` is not a size of this program"),
            (["explain", mm, "--max-shared", "300000", "--chunk", "4096"],
             "--max-shared 300000: between 0 and 232448 bytes: no GPU gives a block more"),
            (["compile", mm, "--no-tile", "--chunk", "32"], "--no-tile and --chunk contradict each other"),
            (["compile", mm, "--no-tile", "--pack"], "--no-tile and --pack contradict each other"),
            (["explain", mm, "--no-register-tile", "--double-buffer"],
             "--no-register-tile and --double-buffer contradict each other"),
            (["compile", mm, "--no-tuning", "--tuning", "t.tuning"], "--tuning and --no-tuning contradict"),
            (["compile", mm, "--emit", "cuda", "--emit", "header"], "--emit is given twice, as cuda and header"),
            (["explain", mm, "--tile", "16", "--tile=32"], "--tile is given twice, as 16 and 32: give it once"),
            (["compile", mm, "-ok.cu", "-o", "j.cu"], "-o is given twice, as k.cu and j.cu"),
            (["explain", mm, "--transpose", "--no-transpose"], "--transpose and --no-transpose contradict")):
        r = tiler(*args)
        assert r.returncode == 1 and said in r.stderr and "Traceback" not in r.stderr, (args, r.stderr)
    assert "its sizes are m, n, q" in tiler("compile", mm, "--size", "zz=10").stderr
    for same in (["--werror", "-Werror"], ["--tile", "16", "--tile=16"], ["--size", "n=5", "--size", "m=6"]):
        assert tiler("explain", mm, *same).returncode == 0, same  # one flag's two spellings, a value again


def test_the_api_refuses_an_unknown_size_and_contradicting_options():
    import tiler as api

    with pytest.raises(api.PlainError, match="`zz` is not a size of this program"):
        api.compile(BENCHMARKS / "mm.fut", sizes={"zz": 10})
    with pytest.raises(api.PlainError, match="no_tile and tile contradict"):
        api.compile(BENCHMARKS / "mm.fut", no_tile=True, tile=16)
    with pytest.raises(api.PlainError, match="no_tile and chunk contradict"):
        api.compile(BENCHMARKS / "mm.fut", no_tile=True, chunk=32)


def test_the_api_refuses_an_input_main_does_not_take():
    import numpy as np

    import tiler as api

    k = api.compile(BENCHMARKS / "mm.fut")
    a, b = np.ones((3, 4), np.float32), np.ones((4, 5), np.float32)
    assert k.reference(A=a, B0=b)[0].shape == (3, 5)
    with pytest.raises(api.PlainError, match="`C` is not a parameter of main") as e:
        k.reference(A=a, B0=b, C=1)
    assert e.value.hint == "its parameters are A, B0"


def test_ctrl_c_exits_130_and_bare_tiler_prints_the_help():
    import signal
    import time

    bare = subprocess.run([sys.executable, "-m", "tiler"], capture_output=True, text=True, timeout=60)
    assert bare.returncode == 0 and "Usage:" in bare.stdout and "compile" in bare.stdout
    slow = subprocess.Popen([sys.executable, "-c", "from tiler.cli import entry; import sys; "
                             "sys.argv = ['tiler', 'run', sys.argv[1], '--sizes-from', 'full']; entry()",
                             str(BENCHMARKS / "lavamd_rodinia.fut")], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True,
                            # a shell's background job ignores SIGINT, and a child inherits that: as a user's does not
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    time.sleep(3)  # the interpreter is well into lavaMD's full size (a minute's work)
    slow.send_signal(signal.SIGINT)
    _, err = slow.communicate(timeout=60)
    assert slow.returncode == 130 and "interrupted" in err and "Traceback" not in err


def test_the_commit_recorded_is_tilers_own_never_the_users_repository(tmp_path):
    from tiler.cli.bench import _is_tilers_checkout

    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "my-project"\n')
    assert not _is_tilers_checkout(tmp_path.resolve())  # a user's repository (a copy installed inside it, say)
    assert not _is_tilers_checkout((ROOT / "tiler").resolve())  # not the top of the checkout
    if (ROOT / ".git").exists():
        assert _is_tilers_checkout(ROOT.resolve())


def test_a_compiled_programs_repr_is_short():
    import tiler as api

    shown = repr(api.compile(BENCHMARKS / "mm.fut"))
    assert shown.startswith("<tiler.Compiled ") and "mm.fut" in shown and "tiler_mm_tiled" in shown
    assert len(shown) < 400


def test_empty_streams_and_sizes_of_zero_compile(tmp_path):
    """A stream over an array of no elements, and a size given as 0: both
    compile (the stream is left untiled and says why), never an internal error."""
    empty = tmp_path / "empty.fut"
    empty.write_text("fun [f32, n] main([f32, n] xs, [f32, 0] ys) =\n  map(fn f32 (f32 x) =>\n"
                     "    streamSeq(fn f32 (int kk, [f32, c] yc, f32 acc) =>\n"
                     "      loop (acc) = for k < c do acc + yc[k] * x in acc, ys, 0f32), xs)\n")
    r = tiler("explain", empty)
    assert r.returncode == 0 and "the stream is empty: there is nothing to stage" in r.stdout, r.stderr
    for args in ((empty, "-o", tmp_path / "e.cu"), (BENCHMARKS / "nbody.fut", "--size", "n=0", "-o", tmp_path / "n.cu")):
        r = tiler("compile", *args)
        assert r.returncode == 0, r.stderr


def test_bad_paths_and_files_are_user_errors(tmp_path):
    """Paths the system refuses, broken .npy files, and outputs that cannot
    go where asked: each a message and exit 1, never an internal error, and
    nothing written anywhere else."""
    import numpy as np

    nbody = BENCHMARKS / "nbody.fut"
    empty, huge = tmp_path / "empty.npy", tmp_path / "huge.npy"
    empty.write_bytes(b"")
    header = np.lib.format.header_data_from_array_1_0(np.zeros(3, np.float32))
    with open(huge, "wb") as f:  # a header that claims 10^11 elements, and no data
        np.lib.format.write_array_header_1_0(f, {**header, "shape": (10**11,)})
    (tmp_path / "a_file").write_text("x")
    for args, said in ((["explain", ""], "the path is empty"),
                       (["explain", "a" * 5000], "cannot look at it: File name too long"),
                       (["run", nbody, "-i", f"bodies={empty}"], "is not a .npy array file, or not a whole one"),
                       (["run", nbody, "-i", f"bodies={huge}"], "is not a .npy array file, or not a whole one"),
                       (["fuzz", "1", "--out", tmp_path / "a_file"], "is a file, not a folder"),
                       (["run", nbody, "-o", tmp_path], "cannot write")):
        r = tiler(*args)
        assert r.returncode == 1 and said in r.stderr and "internal compiler error" not in r.stderr, (args, r.stderr)
    r = tiler("run", nbody, "-o", tmp_path / "outputs")
    assert r.returncode == 0 and (tmp_path / "outputs").is_file() and not (tmp_path / "outputs.npz").exists()
    assert list(np.load(tmp_path / "outputs")) == ["out0"]


@pytest.mark.parametrize("sizes, inputs, check, said", [
    ('n = "10 / 0"', "", "", "2:5: error: cannot compute size n = '10 / 0': division by zero"),
    ("n = 100", "bodies = { uniform = [1.0] }", "", "6:10: error: uniform = [1.0]: two finite numbers"),
    ("n = 100", "bodies = { uniform = [1.0, -1.0] }", "", "6:10: error: uniform = [1.0, -1.0] at these sizes"),
    ("n = 100", "bodies = { uniform = [nan, inf] }", "", "6:10: error: uniform = [nan, inf]: two finite numbers"),
    ("n = 100", "bodies = { normal = [0.0, -1.0] }", "", "6:10: error: normal = [0.0, -1.0]: a mean and a standard"),
    ("n = 100", "bodies = { constant = \"x\" }", "", "6:10: error: constant = 'x': a finite number"),
    ("n = 100", "", 'tolerance = "x"', "8:13: error: tolerance = 'x': a positive number"),
    ("n = = 1", "", "", "2:5: error: Invalid value")],
    ids=["zero-division", "uniform-one", "uniform-reversed", "uniform-nan", "normal-negative", "constant-text",
         "tolerance-text", "toml-syntax"])
def test_a_bad_benchmark_spec_is_a_located_error(tmp_path, sizes, inputs, check, said):
    """Each mistake in a program's .toml is `file:line:col: error:` at the value, exit 1."""
    program = tmp_path / "p.fut"
    program.write_text((BENCHMARKS / "nbody.fut").read_text())
    bodies = inputs or "bodies = { uniform = [-1.0, 1.0] }"
    (tmp_path / "p.toml").write_text(f"[sizes.test]\n{sizes}\n\n[inputs]\neps = {{ constant = 0.01 }}\n{bodies}\n"
                                     f"[check]\n{check}\n")
    r = tiler("run", program, "--sizes-from", "test")
    assert r.returncode == 1 and f"{tmp_path / 'p.toml'}:{said}" in r.stderr, r.stderr


def test_compiles_writing_the_same_files_at_once_leave_one_whole_set(tmp_path):
    """Two programs compiled to the same -o at once, a few times: the .cu,
    .h and .launch.json always come from one program; and where one file of
    the set cannot be written (a folder in the header's place), nothing of
    the set is left."""
    import json as json_module

    out = tmp_path / "k.cu"
    runs = [[sys.executable, "-m", "tiler", "compile", str(BENCHMARKS / f"{name}.fut"), "-o", str(out)]
            for name in ("mm", "nbody")]
    for _ in range(3):
        procs = [subprocess.Popen(r, stdout=subprocess.PIPE, stderr=subprocess.PIPE) for r in runs]
        assert all(p.wait(timeout=120) == 0 for p in procs)
        source = json_module.loads((tmp_path / "k.launch.json").read_text())["source"]
        assert f"from {source}" in out.read_text() and f"from {source}" in (tmp_path / "k.h").read_text()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["k.cu", "k.h", "k.launch.json"]
    fresh = tmp_path / "fresh"
    fresh.mkdir()
    (fresh / "k.h").mkdir()
    r = tiler("compile", BENCHMARKS / "mm.fut", "-o", fresh / "k.cu")
    assert r.returncode == 1 and "cannot write" in r.stderr
    assert [p.name for p in fresh.iterdir()] == ["k.h"]


def test_a_shipped_benchmark_is_found_by_name_outside_a_checkout(tmp_path):
    """`tiler explain mm` (and `benchmarks/mm.fut`, as the docs write it) from
    any directory; a file of that name that exists wins."""
    r = tiler("explain", "mm", cwd=tmp_path)
    label = r.stdout.split(": a 2-D kernel")[0]
    assert r.returncode == 0 and label.endswith("benchmarks/mm.fut") and os.path.isabs(label), r.stderr
    assert Path(label).read_text() == (BENCHMARKS / "mm.fut").read_text()  # the shipped file, named where it is
    (tmp_path / "benchmarks").mkdir()
    (tmp_path / "benchmarks" / "mm.fut").write_text("fun [f32, n] main([f32, n] xs) = map(fn f32 (f32 x) => x, xs)\n")
    assert tiler("explain", "mm", cwd=tmp_path).stdout.startswith(label + ": a 2-D kernel")  # not the other file's
    assert tiler("explain", "mm", cwd=ROOT).stdout.startswith("benchmarks/mm.fut: a 2-D kernel")  # a checkout's
    r = tiler("compile", "benchmarks/softmax.fut", "--emit", "launch", cwd=tmp_path)
    assert r.returncode == 0 and "tiler_softmax_split32" in r.stdout, r.stderr
    (tmp_path / "mm.fut").write_text("fun [f32, n] main([f32, n] xs) = map(fn f32 (f32 x) => x, xs)\n")
    r = tiler("explain", "mm.fut", cwd=tmp_path)
    assert r.returncode == 0 and r.stdout.startswith("mm.fut: a 1-D kernel")
    r = tiler("explain", "nosuch", cwd=tmp_path)
    assert r.returncode == 1 and "cannot read nosuch" in r.stderr


def test_the_api_compiles_a_shipped_benchmark_by_name():
    import tiler as api

    assert any(k.lanes for k in api.compile("softmax").module.kernels)


def test_name_sets_the_generated_symbols(tmp_path):
    """A program read from standard input would be `tiler_stdin_launch`; --name
    names the launcher and every kernel (and the rivals the launch races)."""
    src = (BENCHMARKS / "softmax.fut").read_text()
    r = subprocess.run([sys.executable, "-m", "tiler", "compile", "-", "--name", "soft_max", "-o",
                        str(tmp_path / "k.cu")], input=src, capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert r.returncode == 0, r.stderr
    cuda, launch = (tmp_path / "k.cu").read_text(), json.loads((tmp_path / "k.launch.json").read_text())
    assert "tiler_soft_max_launch(" in (tmp_path / "k.h").read_text() and "tiler_stdin" not in cuda
    assert all(v["kernel"].startswith("tiler_soft_max_") for v in launch["versions"])
    r = tiler("compile", BENCHMARKS / "mm.fut", "--name", "a__b")
    assert r.returncode == 1 and "single underscores" in r.stderr


def test_the_api_takes_the_name_too():
    import tiler as api

    c = api.compile(BENCHMARKS / "rowsum.fut", name="sums")
    assert all(k.name.startswith("tiler_sums_") for k in c.module.kernels) and "tiler_sums_launch(" in c.header
    assert all(v.rival.startswith("tiler_sums_") for v in c.module.versions if v.rival)


def test_fuzz_runs_side_by_side_share_the_failures_folder(tmp_path, monkeypatch):
    """Its probe of --out is removed again, unless another run meanwhile
    removed it or wrote in it (8 parallel runs: one said "cannot make a
    folder there" when another had removed the probe first)."""
    from pathlib import Path

    from tiler.cli.files import _check_folder

    def gone(self):
        raise FileNotFoundError(2, "No such file or directory")

    monkeypatch.setattr(Path, "rmdir", gone)
    _check_folder(str(tmp_path / "fuzz-failures"), "--out")  # no error


def test_a_scalar_parameters_value_is_given_on_the_command_line_as_its_type(tmp_path):
    """`tiler run prog.fut -s eps=0.01`: a scalar parameter's value, as its
    type (a float, an int, a bool), beside the sizes; a wrong one is said with
    an example of a right one."""
    import numpy as np

    prog = tmp_path / "scale.fut"
    prog.write_text("fun [f32, n] main(f32 alpha, int k, bool on, [f32, n] xs) =\n"
                    "  map(fn f32 (f32 x) => if on then alpha * x + f32(k) else x, xs)\n")
    np.save(tmp_path / "xs.npy", np.ones(5, np.float32))
    xs = f"xs={tmp_path / 'xs.npy'}"
    right = tiler("run", prog, "-s", "alpha=0.5", "-s", "k=2", "-s", "on=true", "-i", xs, "-o", tmp_path / "o.npz")
    assert right.returncode == 0, right.stderr
    assert np.load(tmp_path / "o.npz")["out0"].tolist() == [2.5] * 5
    for given, said in (("alpha=abc", "`alpha` is f32, and `abc` is not one"), ("k=0.5", "`k` is int"),
                        ("on=2", "`on` is bool"), ("k=99999999999", "past the range of int"),
                        ("alpha=1e300", "past the range of f32"), ("n=1.5", "a size is a whole number")):
        wrong = tiler("run", prog, "-s", given, "-i", xs)
        assert wrong.returncode == 1 and said in wrong.stderr and "hint:" in wrong.stderr + "hint:", wrong.stderr
    np.save(tmp_path / "alpha.npy", np.float32(2))
    both = tiler("run", prog, "-s", "alpha=2", "-i", f"alpha={tmp_path / 'alpha.npy'}", "-i", xs)
    assert both.returncode == 1 and "both give `alpha` a value" in both.stderr


def test_a_scalar_parameter_given_to_explain_as_a_size_is_refused_as_one(tmp_path):
    prog = tmp_path / "scale.fut"
    prog.write_text("fun [int, n] main(int shift, [int, n] xs) = map(fn int (int x) => x + shift, xs)\n")
    refused = tiler("explain", prog, "-s", "shift=2")
    assert refused.returncode == 1 and "`shift` is a scalar parameter, not a size" in refused.stderr
    assert tiler("run", prog, "-s", "shift=2").returncode == 0  # run takes its value


def _tiler_process(*args: str, stdout) -> subprocess.Popen:
    path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)
    return subprocess.Popen([sys.executable, "-m", "tiler", *map(str, args)], cwd=ROOT, stdout=stdout,
                            stderr=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": path})


@pytest.mark.parametrize("args", [("explain", "benchmarks/mm.fut"), ("docs", "language"), ("bench", "--list"),
                                  ("compile", "benchmarks/nbody.fut", "--emit", "kir")])
def test_a_reader_that_went_away_ends_the_command_quietly(args):
    """`tiler explain mm | head -1`: no internal error, no traceback, the status a Unix tool whose reader closed
    the pipe has (128 + SIGPIPE)."""
    p = _tiler_process(*args, stdout=subprocess.PIPE)
    p.stdout.close()  # the reader goes away before anything is read
    err = p.stderr.read()
    assert p.wait(timeout=120) in (0, 141) and err == "", err  # (0: it wrote everything before the close)


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full on this system")
@pytest.mark.parametrize("args", [("explain", "benchmarks/mm.fut"), ("explain", "benchmarks/mm.fut", "--json"),
                                  ("compile", "benchmarks/mm.fut", "--emit", "kir"), ("docs", "language"),
                                  ("--help",), ("bench", "--list")])
def test_a_full_output_is_one_line_of_error_and_exit_1(args):
    with open("/dev/full", "w") as full:
        p = _tiler_process(*args, stdout=full)
        err = p.stderr.read()
        code = p.wait(timeout=120)
    assert code == 1 and err.strip() == "error: cannot write the output: No space left on device", err


def test_a_shipped_benchmark_named_from_elsewhere_reads_its_own_toml(tmp_path):
    """`tiler run mm` outside the checkout: the sizes of the benchmark's own
    .toml (not 100 for every size), its tables by --sizes-from, and never a
    stray .toml of that name in the current folder."""
    (tmp_path / "nbody.toml").write_text('[sizes.test]\nn = 7\n')  # a stray file of the user's, not the benchmark
    ran = tiler("run", "mm", cwd=tmp_path)
    assert ran.returncode == 0 and "sizes m=100, n=70, q=130" in ran.stdout, ran.stdout + ran.stderr
    quick = tiler("run", "mm", "--sizes-from", "quick", cwd=tmp_path)
    assert "sizes m=1024, n=1024, q=1024" in quick.stdout, quick.stderr
    body = tiler("run", "nbody", cwd=tmp_path)
    assert "sizes n=1000" in body.stdout and "n=7" not in body.stdout, body.stdout
    missing = tiler("run", "mm", "--sizes-from", "huge", cwd=tmp_path)
    assert missing.returncode == 1 and "mm.toml has no [sizes.huge] table" in missing.stderr
    plain = tmp_path / "plain.fut"
    plain.write_text("fun [f32, n] main([f32, n] xs) = map(fn f32 (f32 x) => x, xs)\n")
    none = tiler("run", plain, "--sizes-from", "quick", cwd=tmp_path)
    assert none.returncode == 1 and "there is no plain.toml beside the program" in none.stderr


SLIPS = [
    ("fun [f32, n] main([f32, n] xs) =\n  map(fn f32 (f32 x) => streamseq(fn f32 (int kk, [f32, c] xc, f32 a) => a, xs, "
     "0f32), xs)\n", "hint: did you mean `streamSeq`?"),
    ("fun [float, n] main([f32, n] xs) = map(fn f32 (f32 x) => x, xs)\n", "hint: tiler spells it `f32`"),
    ("fun [double, n] main([f32, n] xs) = map(fn f32 (f32 x) => x, xs)\n", "hint: tiler spells it `f64`"),
    ("fun f32 h(f32 a, f32 b) = a + b\nfun [f32, n] main([f32, n] xs) = map(fn f32 (f32 x) => h(x), xs)\n",
     "hint: `h` is defined at 1:1 as `h(f32 a, f32 b)`"),
]


MORE_SLIPS = [  # located errors with a hint, or a message that says the fix
    ("fun [int, n] main([int, n] xs) = map(fn int (int x) => x << 2, xs)\n", "tiler has no shift operators"),
    ("fun [int, n] main([int, n] xs) = map(fn int (int x) => x >> 1, xs)\n", "tiler has no shift operators"),
    ("fun [int, n] main([int, n] xs) = map(fn int (int x) => x + 7 / 0, xs)\n", "integer division by zero"),
    ("fun [int, n] main([int, n] xs) = map(fn int (int x) => x % 0, xs)\n", "integer remainder by zero"),
]


@pytest.mark.parametrize("text, hint", SLIPS + MORE_SLIPS,
                         ids=["streamseq", "float", "double", "arity", "shift left", "shift right", "div 0", "rem 0"])
def test_the_likeliest_slips_get_a_hint_that_fixes_them(tmp_path, text, hint):
    prog = tmp_path / "slip.fut"
    prog.write_text(text)
    done = tiler("check", prog)
    assert done.returncode == 1 and hint in done.stderr, done.stderr


def test_explain_json_gives_a_broken_programs_errors_as_json(tmp_path):
    prog = tmp_path / "slip.fut"
    prog.write_text(SLIPS[1][0])
    done = tiler("explain", prog, "--json")
    (error,) = json.loads(done.stdout)["errors"]
    assert done.returncode == 1 and (error["line"], error["column"]) == (1, 6) and "`float`" in error["message"]
    assert "tiler spells it `f32`" in error["hint"] and "error:" in done.stderr  # (a person reads stderr)
    missing = tiler("explain", tmp_path / "none.fut", "--json")
    assert missing.returncode == 1 and "cannot read" in json.loads(missing.stdout)["errors"][0]["message"]


def test_diagnostics_are_coloured_as_asked(tmp_path):
    prog = tmp_path / "slip.fut"
    prog.write_text(SLIPS[1][0])
    assert "\x1b[1;31merror:" in tiler("--color", "always", "check", prog).stderr
    assert "\x1b[" not in tiler("--color", "never", "check", prog).stderr
    assert "\x1b[" not in tiler("check", prog).stderr  # auto: standard error is no terminal here


@pytest.mark.parametrize("program, said", [(123, "tiler.compile(int)"), (b"fun", "tiler.compile(bytes)"),
                                           (None, "tiler.compile(NoneType)"), ([1], "tiler.compile(list)"),
                                           ("mynbody", "no such file or shipped benchmark: mynbody")])
def test_the_api_says_what_a_program_is_given_as(program, said):
    import tiler as api

    with pytest.raises(api.PlainError, match=re.escape(said)):
        api.compile(program)


def test_the_api_takes_any_path_object_and_refuses_a_tuning_that_is_no_path(tmp_path):
    import tiler as api

    class Where:  # an os.PathLike that is no pathlib.Path
        def __fspath__(self):
            return str(BENCHMARKS / "nbody.fut")

    assert api.compile(Where()).file.endswith("nbody.fut")
    for tuning in (True, 0, 1, ""):
        with pytest.raises(api.PlainError, match="a tuning file's path"):
            api.compile("nbody", tuning=tuning)
    missing = Path(tmp_path / "none.tuning")
    with pytest.raises(api.PlainError):
        api.compile("nbody", tuning=missing)  # (a path object is read as the same str would be)


@pytest.mark.parametrize("entry, said", [("time_ms = [1, 2]", "`time_ms` must be a number of milliseconds"),
                                         ('default_ms = "abc"', "`default_ms` must be a number of milliseconds"),
                                         ("time_ms = {a = 1}", "`time_ms` must be a number"),
                                         ("time_ms = 1979-05-27", "`time_ms` must be a number"),
                                         ("device = 5", "`device` must be text")])
def test_a_tuning_files_records_of_the_wrong_type_are_located_errors(tmp_path, entry, said):
    prog = tmp_path / "nb.fut"
    prog.write_text((BENCHMARKS / "nbody.fut").read_text())
    device = "" if entry.startswith("device") else 'device = "X"\n'
    (tmp_path / "nb.tuning").write_text(f"[[tuned]]\n{device}sizes = {{n = 1000}}\n{entry}\ntile = [128]\n")
    done = tiler("explain", prog)
    assert done.returncode == 1 and said in done.stderr and "nb.tuning:" in done.stderr, done.stderr


def test_a_run_past_the_machines_memory_is_refused_with_the_figure(tmp_path, monkeypatch):
    from click.testing import CliRunner

    from tiler.cli import main
    from tiler.workload import memory

    prog = tmp_path / "outer.fut"
    prog.write_text("fun [[f32, m], n] main([f32, n] a, [f32, m] b) =\n"
                    "  map(fn [f32, m] (f32 x) => map(fn f32 (f32 y) => x * y, b), a)\n")
    monkeypatch.setattr(memory, "available_bytes", lambda: 2**30)  # a machine with 1 GiB free
    done = CliRunner().invoke(main, ["run", str(prog), "-s", "n=20000", "-s", "m=20000"])
    assert done.exit_code == 1 and "the interpreter needs at least" in done.output and "1.0 GiB free" in done.output
    assert CliRunner().invoke(main, ["run", str(prog), "-s", "n=100", "-s", "m=100"]).exit_code == 0


def test_fuzz_refuses_a_count_no_machine_could_run():
    done = tiler("fuzz", "99999999999999999999")
    assert done.returncode == 1 and "is not in the range" in done.stderr and "Traceback" not in done.stderr


def test_no_output_may_write_over_a_file_the_command_reads(tmp_path):
    """Each output tiler writes is refused before anything is computed where
    it names the program, an input, or (compile) the header or launch file
    beside the CUDA that would land on the program."""
    import numpy as np

    prog = tmp_path / "victim.fut"
    text = (BENCHMARKS / "nbody.fut").read_text()
    prog.write_text(text)
    np.save(tmp_path / "bodies.npy", np.ones(4, np.float32))
    header = tmp_path / "k.h"
    header.write_text(text)
    tuned = tmp_path / "p.tuning"
    tuned.write_text(text)
    refused = [("run", prog, "-s", "n=4", "-o", prog),
               ("run", prog, "-i", f"bodies={tmp_path / 'bodies.npy'}", "-o", tmp_path / "bodies.npy"),
               ("compile", header, "-o", tmp_path / "k.cu"),  # k.h is the program and the header beside k.cu
               ("compile", prog, "-o", prog),
               ("tune", tuned),  # p.tuning is the program and the tuning file it would write
               ("bench", prog, "--json", prog)]
    for args in refused:
        done = tiler(*args)
        assert done.returncode == 1 and "would write over" in done.stderr, (args, done.stderr)
    assert prog.read_text() == text and header.read_text() == text and tuned.read_text() == text
    assert np.load(tmp_path / "bodies.npy").tolist() == [1.0] * 4


def test_compile_to_a_device_writes_nothing_beside_it(tmp_path):
    before = set(Path("/dev").iterdir())
    assert tiler("compile", BENCHMARKS / "nbody.fut", "-o", "/dev/null").returncode == 0
    assert set(Path("/dev").iterdir()) == before  # no /dev/null.h, no /dev/null.launch.json


def test_run_writes_its_archive_to_standard_output_for_dash():
    import io

    import numpy as np

    path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)
    done = subprocess.run([sys.executable, "-m", "tiler", "run", "benchmarks/nbody.fut", "-s", "n=4", "-o", "-"],
                          cwd=ROOT, capture_output=True, env={**os.environ, "PYTHONPATH": path})
    assert done.returncode == 0 and np.load(io.BytesIO(done.stdout))["out0"].shape == (4,)
    assert b"sizes n=4" in done.stderr  # the summary goes to standard error


def test_a_full_disk_leaves_every_earlier_output_as_it_was(tmp_path, monkeypatch):
    """Fault injection: every write runs out of space (ENOSPC). run's archive
    and compile's three files are each written beside their place first, so
    the earlier ones stay whole and no temporary file is left."""
    import errno

    from click.testing import CliRunner

    from tiler.cli import main

    out = tmp_path / "out.npz"
    cu = tmp_path / "k.cu"
    for path in (out, cu, tmp_path / "k.h", tmp_path / "k.launch.json"):
        path.write_bytes(b"earlier")
    real = os.fdopen

    class Full:
        def __init__(self, f):
            self.f = f

        def write(self, data):
            raise OSError(errno.ENOSPC, "No space left on device")

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.f.close()

    monkeypatch.setattr(os, "fdopen", lambda fd, mode="r", *a, **k: Full(real(fd, mode, *a, **k)))
    ran = CliRunner().invoke(main, ["run", str(BENCHMARKS / "nbody.fut"), "-s", "n=4", "-o", str(out)])
    compiled = CliRunner().invoke(main, ["compile", str(BENCHMARKS / "nbody.fut"), "-o", str(cu)])
    for done in (ran, compiled):
        assert done.exit_code == 1 and "No space left on device" in done.output, done.output
    assert all(p.read_bytes() == b"earlier" for p in tmp_path.iterdir())
    assert sorted(p.name for p in tmp_path.iterdir()) == ["k.cu", "k.h", "k.launch.json", "out.npz"]


def test_no_command_reads_an_unbounded_stream(tmp_path):
    """A device is refused as a program, standard input is read up to a
    limit, and an .npy whose header claims a huge array of empty elements is
    refused from its header (it made `run` spin forever)."""
    import struct

    for device in ("/dev/zero", "/dev/urandom"):
        if Path(device).exists():
            done = tiler("check", device, timeout=30)
            assert done.returncode == 1 and "is a device, not a file" in done.stderr
    path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)
    flood = subprocess.run([sys.executable, "-m", "tiler", "check", "-"], input=b"\0" * (65 * 2**20),
                           capture_output=True, timeout=60, env={**os.environ, "PYTHONPATH": path})
    assert flood.returncode == 1 and b"holds more than 64 MiB" in flood.stderr
    header = "{'descr': '|V0', 'fortran_order': False, 'shape': (1000000000000,), }"
    header += " " * (118 - len(header)) + "\n"
    (tmp_path / "v0.npy").write_bytes(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
    prog = tmp_path / "idx.fut"
    prog.write_text("fun [int, n] main([int, n] idx) = map(fn int (int i) => i, idx)\n")
    done = tiler("run", prog, "-i", f"idx={tmp_path / 'v0.npy'}", timeout=30)
    assert done.returncode == 1 and "not numbers" in done.stderr


def test_an_npz_archive_named_npy_is_said_to_be_one(tmp_path):
    import numpy as np

    np.savez(tmp_path / "z.npz", a=np.ones(3))
    (tmp_path / "z.npy").write_bytes((tmp_path / "z.npz").read_bytes())
    prog = tmp_path / "idx.fut"
    prog.write_text("fun [int, n] main([int, n] idx) = map(fn int (int i) => i, idx)\n")
    done = tiler("run", prog, "-i", f"idx={tmp_path / 'z.npy'}")
    assert done.returncode == 1 and "is a zip archive" in done.stderr


@pytest.mark.parametrize("body, said", [
    ("check = 5", "`check` must be a table"), ("library = [1]", "`library` must be a table"),
    ("inputs = 5", "`inputs` must be a table of generators"), ("sizes = 5", "`sizes` must be"),
    ("[sizes]\ntest = [1, 2]", "sizes.test must be a table"), ("[sizes.test]\nn = inf", "n = inf: a size is a whole"),
    ("[sizes.test]\nn = 1979-05-27", "n = 1979-05-27: a size is a whole"), ("[sizes.test]\nn = 5.7", "n = 5.7"),
    ("[sizes.test]\nn = true", "n = true"), ("[sizes.test]\nn = 3000000000", "a size is an int"),
    ("[inputs]\nbodies = { integers = [0, 1e30] }", "past the 64-bit integers"),
    ("[inputs]\neps = { constant = -1e300 }", "past the range of f32"),
    ("[inputs]\nbodies = { uniform = [-1e308, 1e308] }", "not a finite range"),
    ("title = 5", "title must be text"), ("nonsense = 1", "unknown key `nonsense`")])
def test_every_value_of_a_programs_toml_is_checked_and_located(tmp_path, body, said):
    prog = tmp_path / "sp.fut"
    prog.write_text((BENCHMARKS / "nbody.fut").read_text())
    (tmp_path / "sp.toml").write_text(body + "\n")
    done = tiler("run", prog)
    assert done.returncode == 1 and said in done.stderr and "sp.toml:" in done.stderr, done.stderr


def test_an_integer_input_past_its_types_range_is_refused_not_wrapped(tmp_path):
    prog = tmp_path / "ii.fut"
    prog.write_text("fun [int, n] main([int, n] idx) = map(fn int (int i) => i, idx)\n")
    (tmp_path / "ii.toml").write_text("[inputs]\nidx = { integers = [0, 9223372036854775807] }\n")
    done = tiler("run", prog)
    assert done.returncode == 1 and "past the range of int" in done.stderr


def test_an_array_of_tuples_is_the_one_error_its_size_still_bound(tmp_path):
    prog = tmp_path / "tup.fut"
    prog.write_text("fun [f32, n] main([(f32, f32), n] xs) =\n"
                    "  map(fn f32 ((f32, f32) p) => let (a, b) = p in a + b, xs)\n")
    done = tiler("check", prog)
    assert done.returncode == 1 and "arrays of tuples are not supported" in done.stderr
    assert "unknown size" not in done.stderr, done.stderr


def test_line_endings_of_every_system_read_alike(tmp_path):
    """CR alone (classic Mac), CRLF and LF end lines alike: a leading comment
    ends at its line's end, and a shown line carries no stray CR."""
    body = ["-- a comment", "fun [f32, n] main([f32, n] xs) =", "  map(fn f32 (f32 x) => x + y, xs)", ""]
    for end in ("\r", "\r\n", "\n"):
        prog = tmp_path / "ends.fut"
        prog.write_bytes(end.join(body).encode())
        done = tiler("check", prog)
        assert done.returncode == 1 and ":3:29: error: unknown name `y`" in done.stderr, (repr(end), done.stderr)
        assert "xs)?" not in done.stderr and "\r" not in done.stderr


def test_the_smallest_int_can_be_written():
    done = tiler("run", PROGRAMS / "regress" / "int_min_literal.fut", "-s", "n=3")
    assert done.returncode == 0, done.stderr
