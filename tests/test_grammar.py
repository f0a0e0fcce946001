"""The grammar of LANGUAGE.md: literals, precedence, every form, spans."""
from __future__ import annotations

import pytest

from tiler.errors import UserError
from tiler.syntax import ast, parse, parse_expression


def exp(text):
    return parse_expression(text)


def v(name):
    return ast.Var(name)


@pytest.mark.parametrize("text, want", [
    ("3", ast.IntLit(3, "")), ("3i32", ast.IntLit(3, "i32")), ("3i64", ast.IntLit(3, "i64")),
    ("2.0", ast.FloatLit(2.0, "")), ("0f32", ast.FloatLit(0.0, "f32")), ("2.0f32", ast.FloatLit(2.0, "f32")),
    ("1e-3f32", ast.FloatLit(0.001, "f32")), ("2.5f64", ast.FloatLit(2.5, "f64")), ("1e3", ast.FloatLit(1000.0, "")),
    ("true", ast.BoolLit(True)), ("false", ast.BoolLit(False)),
])
def test_literals(text, want):
    assert exp(text) == want


@pytest.mark.parametrize("text, want", [
    ("a + b * c", ast.BinOp("+", v("a"), ast.BinOp("*", v("b"), v("c")))),
    ("a - b - c", ast.BinOp("-", ast.BinOp("-", v("a"), v("b")), v("c"))),
    ("a / b % c", ast.BinOp("%", ast.BinOp("/", v("a"), v("b")), v("c"))),
    ("a < b == c", ast.BinOp("==", ast.BinOp("<", v("a"), v("b")), v("c"))),
    ("a || b && c", ast.BinOp("||", v("a"), ast.BinOp("&&", v("b"), v("c")))),
    ("a + b < c && d", ast.BinOp("&&", ast.BinOp("<", ast.BinOp("+", v("a"), v("b")), v("c")), v("d"))),
    ("-a * b", ast.BinOp("*", ast.UnOp("-", v("a")), v("b"))),
    ("!a && b", ast.BinOp("&&", ast.UnOp("!", v("a")), v("b"))),
    ("-x[i]", ast.UnOp("-", ast.Index(v("x"), (v("i"),)))),
    ("(a + b) * c", ast.BinOp("*", ast.BinOp("+", v("a"), v("b")), v("c"))),
    ("a - -b", ast.BinOp("-", v("a"), ast.UnOp("-", v("b")))),
])
def test_precedence_and_associativity(text, want):
    assert exp(text) == want


def test_indexing_full_partial_and_chained():
    assert exp("a[i, j]") == ast.Index(v("a"), (v("i"), v("j")))
    assert exp("a[i][j]") == ast.Index(ast.Index(v("a"), (v("i"),)), (v("j"),))
    assert exp("AA[inds[i, k]]") == ast.Index(v("AA"), (ast.Index(v("inds"), (v("i"), v("k"))),))


def test_calls_tuples_and_builtins():
    assert exp("max(a, f32(b))") == ast.Call("max", (v("a"), ast.Call("f32", (v("b"),))))
    assert exp("(a, b)") == ast.TupleExp((v("a"), v("b")))
    assert exp("iota(n)") == ast.Iota(v("n"))
    assert exp("transpose(b)") == ast.Transpose(v("b"))
    assert exp("zip(a, b)") == ast.Zip((v("a"), v("b")))


def test_let_chains_and_tuple_patterns():
    e = exp("let a = 1 in let (b, c) = (a, a) in b + c")
    assert isinstance(e, ast.Let) and e.names == ("a",) and not e.is_tuple
    assert isinstance(e.body, ast.Let) and e.body.names == ("b", "c") and e.body.is_tuple


def test_let_body_extends_right():
    e = exp("let a = 1 in a + 2")
    assert e.body == ast.BinOp("+", v("a"), ast.IntLit(2))


def test_both_loop_forms():
    e = exp("loop (acc) = for k < n do acc + k in acc")
    assert e.params == (ast.LoopParam("acc", None),) and e.index == "k"
    e = exp("loop (a = 0f32, b = 1f32) = for j < c do (b, a) in a")
    assert [p.name for p in e.params] == ["a", "b"] and e.params[0].init == ast.FloatLit(0.0, "f32")


def test_if_and_lambda_forms():
    e = exp("if a < b then a else b")
    assert isinstance(e, ast.If)
    e = exp("map(fn (f32, f32) (int i, f32 x) => (x, x), zip(iota(n), xs))")
    assert isinstance(e, ast.Map) and isinstance(e.lam.ret, ast.TTuple)
    assert [p.name for p in e.lam.params] == ["i", "x"]
    s = exp("streamSeq(fn f32 (int kk, [f32, c] xc, f32 acc) => acc, xs, 0f32)")
    assert isinstance(s, ast.StreamSeq) and len(s.args) == 2


def test_types_write_the_outer_size_last():
    prog = parse("fun [[f32, m], n] main([[f32, m], n] A, [[int, 27], b] t) = map(fn f32 (f32 x) => x, A)")
    t = prog.funs[0].params[0].type
    assert t.size == "n" and t.elem.size == "m"
    assert prog.funs[0].params[1].type.elem.size == 27


def test_comments_anywhere_and_at_end_without_newline():
    prog = parse("-- head\nfun f32 main(f32 x) = -- trailing\n  x -- the end, no newline")
    assert prog.funs[0].body == v("x")


def test_helper_functions_and_identifiers_with_primes():
    prog = parse("fun f32 sq(f32 x') = x' * x'\nfun [f32, n] main([f32, n] xs) = map(fn f32 (f32 x) => sq(x), xs)")
    assert [f.name for f in prog.funs] == ["sq", "main"]


def test_spans_point_at_the_source():
    prog = parse("fun f32 main(f32 x) =\n  x + y", "p.fut")
    body = prog.funs[0].body
    assert (body.rhs.span.line, body.rhs.span.col) == (2, 7)
    assert (body.op_span.line, body.op_span.col) == (2, 5)
    assert body.rhs.span.file == "p.fut"


@pytest.mark.parametrize("text, line, col, message", [
    ("", 1, 1, "expected a function definition, found an empty file"),
    ("fun f32 main(f32 x) = (x + 1", 1, 29, "expected ')', found the end of the file"),
    ("fun f32 main(f32 x) = x +", 1, 26, "expected an expression"),
    ("fun f32 main(f32 x) = let y = x y", 1, 33, "expected 'in', found `y`"),
    ("fun f32 main(f32 x) =\n  x\nfun", 3, 4, "expected a type"),
    ("fun f32 main(f32 x) = 1.5.2", 1, 26, "unexpected `.`"),
])
def test_syntax_errors_are_located_where_the_fault_is(text, line, col, message):
    with pytest.raises(UserError) as info:
        parse(text, "t.fut")
    d = info.value.diagnostics[0]
    assert (d.span.line, d.span.col) == (line, col), d
    assert d.message.startswith(message), d.message


@pytest.mark.parametrize("text, col, message, hint", [
    ("fun f32 main(f32 x) = max(x, )", 28, "expected ')', found `,`", ""),  # a comma before no argument
    ("fun f32 main(f32 x) = let y = x inx", 33, "expected 'in', found `inx`",  # the whole name
     "a `let` or `loop` ends with `in` and what follows: `loop (acc) = for k < n do body in acc`"),
    ("fun f32 fn(f32 x) = x", 9, "expected a name (`fn` is a keyword), found `fn`",
     "`fn` is a keyword and cannot be used as a name"),
    ("fun [f32, n] main([f32, n] xs) = map(fn (f32, [f32 n]) (f32 x) => (x, x), xs)", 52, "expected ',', found `n`",
     ""),  # an error in a tuple result type: not told to give one
    ("fun [f32, n] main([f32, n] xs) = map(fn (f32 f32) (f32 x) => x, xs)", 46, "expected ')', found `f32`", ""),
    ("fun f32 main(f32 x) = if x = 1f32 then x else x", 28, "expected 'then', found `=`", "comparison is `==`"),
    ("fun f32 main(f32 x) = let in = x in x", 27, "expected a name or a tuple of names, found `in`",
     "`in` is a keyword and cannot be used as a name"),
])
def test_syntax_errors_say_what_was_expected(text, col, message, hint):
    with pytest.raises(UserError) as info:
        parse(text, "t.fut")
    d = info.value.diagnostics[0]
    assert (d.span.col, d.message, d.hint) == (col, message, hint)


def test_runaway_nesting_is_refused_with_a_location():
    with pytest.raises(UserError) as info:
        parse("fun f32 main(f32 x) = " + "(" * 300 + "x" + ")" * 300)
    assert "nested more than" in info.value.diagnostics[0].message


def test_the_largest_f32_as_numpy_prints_it_is_a_literal():
    """3.4028235e38 rounds to float32's largest value; the next printable
    value up rounds to infinity and is refused."""
    from tiler.check import check

    text = "fun [f32, n] main([f32, n] xs) =\n  map(fn f32 (f32 x) => f32({}) * x, xs)\n"
    check(parse(text.format("3.4028235e38f32"), "max.fut"))
    with pytest.raises(UserError, match="does not fit in f32"):
        check(parse(text.format("3.4028236e38f32"), "over.fut"))


def test_literals_out_of_range_are_all_reported_in_order():
    """The checker judges every literal's range, so none hides another."""
    from tiler.check import check

    text = "fun [f32, n] main([f32, n] xs) =\n  map(fn f32 (f32 x) => f32(99999999999999999999) + 1e999f32 * x, xs)\n"
    from tiler.source import Source

    with pytest.raises(UserError) as caught:
        check(parse(text, "two.fut"), Source(text, "two.fut"))
    found = [(d.span.col, d.message) for d in caught.value.diagnostics]
    assert found == [(29, "integer literal 99999999999999999999 does not fit in int"),
                     (53, "float literal 1e999f32 does not fit in f32")]
    long = "9" * 5000  # past what is converted at all: still the checker's, in order
    text = f"fun [f32, n] main([f32, n] xs) =\n  map(fn f32 (f32 x) => x + 1e999f32 + f32({long}), xs)\n"
    with pytest.raises(UserError) as caught:
        check(parse(text, "long.fut"), Source(text, "long.fut"))
    found = [(d.span.col, d.message) for d in caught.value.diagnostics]
    assert found == [(29, "float literal 1e999f32 does not fit in f32"),
                     (44, "integer literal of 5,000 digits does not fit in i64")]
