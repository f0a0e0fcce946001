"""pretty(parse(text)) parses back to the same tree: for every program in the
repository, and for generated syntax trees."""
from __future__ import annotations

import pytest
from conftest import BENCHMARKS, PROGRAMS
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tiler.errors import UserError
from tiler.syntax import ast, parse, pretty
from tiler.syntax.grammar import KEYWORDS, SCALAR_TYPES

FILES = sorted(BENCHMARKS.glob("*.fut")) + sorted(PROGRAMS.rglob("*.fut"))


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_program_round_trips(path):
    try:
        tree = parse(path.read_text(), path.name)
    except UserError:
        pytest.skip("a syntax-error test program")
    again = parse(pretty(tree), "printed")
    assert again == tree
    assert pretty(again) == pretty(tree)


def test_two_minus_signs_do_not_become_a_comment():
    tree = ast.UnOp("-", ast.UnOp("-", ast.Var("x")))
    assert pretty(tree) == "-(-x)" and parse("fun f32 main(f32 x) = " + pretty(tree)).funs[0].body == tree


names = st.from_regex(r"[a-z][a-z0-9_']{0,5}", fullmatch=True).filter(
    lambda s: s not in KEYWORDS and s not in SCALAR_TYPES)
sizes = st.one_of(names, st.integers(1, 64))
scalars = st.sampled_from(["f32", "f64", "int", "i32", "i64", "bool"]).map(ast.TScalar)
types = st.recursive(scalars, lambda inner: st.one_of(
    st.builds(ast.TArray, inner.filter(lambda t: not isinstance(t, ast.TTuple)), sizes),
    st.lists(inner, min_size=2, max_size=3).map(lambda ts: ast.TTuple(tuple(ts)))), max_leaves=4)
literals = st.one_of(
    st.builds(ast.IntLit, st.integers(0, 2**31 - 1), st.sampled_from(["", "i32", "i64"])),
    st.builds(ast.FloatLit, st.floats(0, 1e30, allow_nan=False, allow_infinity=False), st.sampled_from(["", "f32", "f64"])),
    st.builds(ast.BoolLit, st.booleans()))
atoms = st.one_of(literals, names.map(ast.Var))
params = st.lists(st.builds(ast.Param, types, names), min_size=1, max_size=3).map(tuple)


def compound(inner):
    tuples = st.lists(inner, min_size=2, max_size=3).map(tuple)
    args = st.lists(inner, min_size=1, max_size=3).map(tuple)
    lam = st.builds(ast.Lambda, types, params, inner)
    return st.one_of(
        st.builds(ast.BinOp, st.sampled_from(["+", "-", "*", "/", "%", "<", "<=", ">", ">=", "==", "!=", "&&", "||"]),
                  inner, inner),
        st.builds(ast.UnOp, st.sampled_from(["-", "!"]), inner),
        st.builds(ast.Index, inner, args),
        st.builds(ast.Call, names, args),
        st.builds(ast.TupleExp, tuples),
        st.builds(lambda ns, val, body: ast.Let(tuple(ns), len(ns) > 1, val, body),
                  st.lists(names, min_size=1, max_size=3), inner, inner),
        st.builds(ast.If, inner, inner, inner),
        st.builds(ast.Loop, st.lists(st.builds(ast.LoopParam, names, st.none() | inner), min_size=1, max_size=2)
                  .map(tuple), names, inner, inner, inner),
        st.builds(ast.Map, lam, args), st.builds(ast.StreamSeq, lam, args),
        st.builds(ast.Zip, args), st.builds(ast.Iota, inner), st.builds(ast.Transpose, inner),
    )


expressions = st.recursive(atoms, compound, max_leaves=12)
programs = st.lists(st.builds(ast.FunDef, types, names, params, expressions), min_size=1, max_size=3).map(
    lambda fs: ast.Program(tuple(fs)))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(programs)
def test_generated_trees_round_trip(tree):
    assert parse(pretty(tree), "generated") == tree
