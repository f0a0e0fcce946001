"""Compile time grows about linearly with a program's size and nesting.

Each program is compiled (or, for a 1 MB expression, parsed) at two sizes,
the second four times (or, for nesting, twice as deep as) the first; the
test fails where the time grows like a square or worse. The bounds are
ratios with a wide margin (linear would be 4x, a square 16x; a doubling per
level of nesting would be thousands of times), so a slow or busy machine
does not fail them.
"""
from __future__ import annotations

import time

import pytest

from tiler.deep import call_deep
from tiler.pipeline import run_all
from tiler.syntax import parse

GROWTH = 9.0  # the most the time may grow when the program grows 4x (or twice as deep)


def chained_lets(n: int) -> str:
    lets = "".join(f"    let v{i} = v{i - 1} * 1.0001f32 + x in\n" for i in range(1, n))
    return f"fun [f32, n] main([f32, n] xs) =\n  map(fn f32 (f32 x) =>\n    let v0 = x in\n{lets}    v{n - 1}\n  , xs)\n"


def long_sum(n: int) -> str:
    terms = " + ".join(f"x * {i}f32" for i in range(n))
    return f"fun [f32, n] main([f32, n] xs) =\n  map(fn f32 (f32 x) => {terms}, xs)\n"


def grouped_sum(n: int) -> str:
    """A sum of `n` terms in parenthesised groups of 100: 68,000 terms are a 1 MB expression."""
    groups = (" + ".join(f"x * {i}f32" for i in range(start, min(start + 100, n))) for start in range(0, n, 100))
    return f"fun [f32, n] main([f32, n] xs) =\n  map(fn f32 (f32 x) => ({') + ('.join(groups)}), xs)\n"


def nested_loops(depth: int) -> str:
    e = "acc + x * 0.5f32"
    for i in reversed(range(depth)):
        e = f"(loop (acc) = for i{i} < 2 do {e} in acc)"
    return f"fun [f32, n] main([f32, n] xs) =\n  map(fn f32 (f32 x) =>\n    let acc = 0f32 in {e}\n  , xs)\n"


def nested_streams(depth: int) -> str:
    last = depth - 1
    e = f"loop (a{last}) = for k{last} < c{last} do a{last} + xc{last}[k{last}] * x in a{last}"
    for i in reversed(range(last)):
        inner = f"streamSeq(fn f32 (int kk{i + 1}, [f32, c{i + 1}] xc{i + 1}, f32 a{i + 1}) => {e}, ys, 0f32)"
        e = f"loop (a{i}) = for k{i} < c{i} do a{i} + xc{i}[k{i}] * {inner} in a{i}"
    return (f"fun [f32, n] main([f32, n] xs, [f32, m] ys) =\n  map(fn f32 (f32 x) =>\n"
            f"    streamSeq(fn f32 (int kk0, [f32, c0] xc0, f32 a0) => {e}, ys, 0f32)\n  , xs)\n")


def streams_in_a_row(n: int) -> str:
    """`n` streams over a row, each starting from the last one's result."""
    lets = "".join(f"    let s{i} = streamSeq(fn f32 (int kk, [f32, c] rc, f32 acc) => loop (acc) = for k < c do "
                   f"acc + rc[k] in acc, r, s{i - 1}) in\n" for i in range(1, n + 1))
    return f"fun [f32, n] main([[f32, m], n] A) =\n  map(fn f32 ([f32, m] r) =>\n    let s0 = 0f32 in\n{lets}    s{n}\n  , A)\n"


def stream_over_inputs(n: int) -> str:
    """One stream over the rows of `n` matrices."""
    arrays = ", ".join(f"[[f32, m], n] A{i}" for i in range(n))
    rows, chunks = ", ".join(f"[f32, m] r{i}" for i in range(n)), ", ".join(f"[f32, c] x{i}" for i in range(n))
    terms = " + ".join(f"x{i}[k]" for i in range(n))
    return (f"fun [f32, n] main({arrays}) =\n  map(fn f32 ({rows}) =>\n    streamSeq(fn f32 (int kk, {chunks}, f32 acc) => "
            f"loop (acc) = for k < c do acc + {terms} in acc, {', '.join(f'r{i}' for i in range(n))}, 0f32)\n"
            f"  , {', '.join(f'A{i}' for i in range(n))})\n")


def seconds(stage, text: str) -> float:
    """How long `stage(text, file)` takes, with the room the command line and the API give."""
    best = float("inf")
    for _ in range(2):  # the faster of two: a first run pays for imports and caches
        start = time.perf_counter()
        call_deep(stage, text, "scaling.fut")
        best = min(best, time.perf_counter() - start)
    return best


def test_parse_time_grows_about_linearly_to_a_megabyte():
    """The parser alone, on a 1 MB expression and on one a quarter of its size."""
    small, large = grouped_sum(17_000), grouped_sum(68_000)
    assert len(large) > 1_000_000
    a, b = seconds(parse, small), seconds(parse, large)
    assert b <= GROWTH * max(a, 0.05), f"parsing {len(small):,} characters took {a:.2f} s, {len(large):,} took {b:.2f} s"


@pytest.mark.parametrize("make, small, large", [(chained_lets, 300, 1200), (long_sum, 500, 2000),
                                                (nested_loops, 8, 16), (nested_streams, 5, 10),
                                                (streams_in_a_row, 64, 256), (stream_over_inputs, 64, 256)],
                         ids=["lets", "sum", "loops", "streams", "streams-in-a-row", "stream-inputs"])
def test_compile_time_grows_about_linearly(make, small, large):
    a, b = seconds(run_all, make(small)), seconds(run_all, make(large))
    assert b <= GROWTH * max(a, 0.05), f"{make.__name__}: {small} took {a:.2f} s, {large} took {b:.2f} s"


def test_deeply_nested_streams_tile_only_the_outer_ones():
    """Each tiled stream emits its body twice: past MAX_TILED_NESTING, inner
    streams stay in global memory (and explain says why), so 20 nested
    streams compile to a kernel of bounded size."""
    from tiler.analyse.settle import MAX_TILED_NESTING

    values = call_deep(run_all, nested_streams(20), "deep.fut")
    streams = values["analyse"].plan.schedule.streams
    tiled = [s.tiled for s in streams]
    assert tiled[:MAX_TILED_NESTING] == [True] * MAX_TILED_NESTING and not any(tiled[MAX_TILED_NESTING:])
    assert "inside 3 tiled streams" in streams[MAX_TILED_NESTING].reason
    assert len(values["render"]) < 400_000


def test_the_api_compiles_what_the_command_line_does():
    """tiler.compile gives itself the command line's room: a 2,000-let chain
    and a 3,000-term sum (recursion past Python's default limit)."""
    import tiler

    for text in (chained_lets(2000), long_sum(3000)):
        k = tiler.compile(text)
        assert "__global__" in k.cuda


def test_a_program_nested_past_what_tiler_follows_is_a_located_error(tmp_path):
    """An if-chain 100,000 deep (legal, but past the recursion tiler has
    room for: the parser alone takes three calls a level) is refused where
    it is deepest, never a compiler bug."""
    from click.testing import CliRunner

    from tiler.cli import main

    body = "".join(f"if x > {i}f32 then {i}f32 else " for i in range(100_000)) + "x"
    path = tmp_path / "deep.fut"
    path.write_text(f"fun f32 pick(f32 x) =\n  let y = x in {body}\n"
                    "fun [f32, n] main([f32, n] xs) =\n  map(fn f32 (f32 x) => let z = x in pick(z), xs)\n")
    result = CliRunner().invoke(main, ["explain", str(path)])
    assert result.exit_code == 1, result.output
    assert f"{path}:2:" in result.output and "nested too deeply for tiler to follow (about 100,000 levels here; at most 16,384" in result.output


def test_check_refuses_the_nesting_the_later_stages_cannot_follow(tmp_path):
    """What `check` accepts, `explain` compiles: past FOLLOWED nested loops
    both refuse it at the same place (check alone would follow further)."""
    from click.testing import CliRunner

    from tiler.cli import main
    from tiler.pipeline import FOLLOWED

    e = "acc + x"
    for i in range(FOLLOWED + 1):
        e = f"loop (acc) = for i{i} < 2 do {e} in acc"
    path = tmp_path / "loops.fut"
    path.write_text(f"fun [f32, n] main([f32, n] xs) =\n  map(fn f32 (f32 x) =>\n    let acc = 0f32 in {e}\n  , xs)\n")
    said = [CliRunner().invoke(main, [command, str(path)]) for command in ("check", "explain")]
    assert [r.exit_code for r in said] == [1, 1] and said[0].output == said[1].output
    assert f"at most {FOLLOWED:,} loops" in said[0].output


def test_quick_constructors_change_only_the_speed():
    """tree.quick_constructors: a frozen dataclass keeps its fields, defaults,
    equality, hashing and its refusal of changes; a constructor written in
    the class, an InitVar, and fields named like the generated code's own
    names keep the dataclass's constructor."""
    import dataclasses
    from dataclasses import InitVar, dataclass

    from tiler.tree import quick_constructors

    @dataclass(frozen=True)
    class Plain:
        a: int
        b: str = "b"

    @dataclass(frozen=True)
    class Written:
        x: int

        def __init__(self, v):
            object.__setattr__(self, "x", 2 * v)

    @dataclass(frozen=True)
    class WithInitVar:
        x: int
        scale: InitVar[int] = 1

    @dataclass(frozen=True)
    class OwnNames:
        _tiler_self: int

    namespace = {"__name__": __name__, "Plain": Plain, "Written": Written, "WithInitVar": WithInitVar,
                 "OwnNames": OwnNames}
    before = Plain.__init__
    quick_constructors(namespace)
    assert Plain.__init__ is not before  # (the one class that gets the faster constructor)
    assert Plain(1) == Plain(1, "b") and hash(Plain(1)) == hash(Plain(1, "b")) and Plain(2, "c").b == "c"
    assert dataclasses.replace(Plain(1), b="z") == Plain(1, "z")
    with pytest.raises(dataclasses.FrozenInstanceError):
        Plain(1).a = 2
    assert Written(3).x == 6 and WithInitVar(1, 5).x == 1 and OwnNames(4)._tiler_self == 4
