"""Malformed and extreme programs: tiler accepts them (exit 0) or refuses them
with a located error (exit 1), and never fails inside (exit 3), prints a
traceback or takes long.

Every generated program goes through `check`, `explain` and `compile -o`
(click's CliRunner, in this process: a subprocess each would take minutes)
and through `tiler.compile(text)`; a fixed sample also runs as real
subprocesses, so that the console script's exit codes are checked too.
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from click.testing import CliRunner

import tiler
from tiler.cli import main as cli
from tiler.errors import PlainError, UserError
from tiler.runtime.nvcc import nvcc_path

ROOT = Path(__file__).resolve().parent.parent
SECONDS_A_RUN = 5.0  # one command or one API call on one program
TRACEBACK = "Traceback"

# ---------------------------------------------------------------------------
# valid programs the generator starts from (each checked by test_bases_are_valid)

NBODY = """\
fun [f32, n] main(f32 eps, [f32, n] bodies) =
  map(fn f32 (f32 body) =>
        streamSeq(fn f32 (int kk, [f32, chunk] bodies_chunk, f32 acc) =>
                    loop (acc) = for k < chunk do
                      acc + (bodies_chunk[k] - body)
                    in acc
                 , bodies, 0f32)
     , bodies)
"""

MM = """\
fun [[f32, q], m] main([[f32, n], m] A, [[f32, q], n] B0) =
  let B = transpose(B0) in
  map(fn [f32, q] ([f32, n] a) =>
        map(fn f32 ([f32, n] b) =>
              streamSeq(fn f32 (int kk, [f32, chunk] a_c, [f32, chunk] b_c, f32 acc) =>
                          loop (acc) = for k < chunk do
                            acc + a_c[k] * b_c[k]
                          in acc
                       , a, b, 0f32)
           , B)
     , A)
"""

PAIR = """\
fun f32 sq(f32 v) = v * v
fun [f32, n] main([f32, n] xs, [f32, m] ys) =
  let s = 2f32 in
  map(fn f32 (f32 x) =>
        let (p, q) = streamSeq(fn (f32, f32) (int kk, [f32, c] yc, f32 a, f32 b) =>
                    loop (a, b) = for k < c do (a + sq(yc[k] - x), b + s) in (a, b)
                 , ys, 0f32, 0f32) in
        if p > q then p - q else q
     , xs)
"""

GRID = """\
fun [[[f32, p], m], n] main(int n, int m, int p, [f32, k] ws) =
  map(fn [[f32, p], m] (int i) =>
    map(fn [f32, p] (int j) =>
      map(fn f32 (int l) =>
        streamSeq(fn f32 (int kk, [f32, c] wc, f32 acc) =>
          loop (acc) = for q < c do acc + wc[q] * f32(i + j + l) in acc, ws, 0f32), iota(p)), iota(m)), iota(n))
"""

TUPLE_OUT = """\
fun ([f32, n], [f32, n]) main([f32, n] xs) =
  map(fn (f32, f32) (f32 x) => (x, x + 1f32), xs)
"""

BASES = {"nbody": NBODY, "mm": MM, "pair": PAIR, "grid": GRID, "tuple_out": TUPLE_OUT}

# the head of a 1-D kernel over xs and its tail: most hand-written cases put one expression of `x` between them
HEAD = "fun [f32, n] main([f32, n] xs, [f32, m] ys, [[f32, m], n] A, int k) =\n  map(fn f32 (f32 x) =>\n    "
TAIL = "\n  , xs)\n"


def body(expr: str) -> str:
    return HEAD + expr + TAIL


def kernel(ret: str, params: str, expr: str) -> str:
    """A 1-D kernel of element type `ret` over `xs`, main taking `params`."""
    return f"fun [{ret}, n] main({params}) =\n  map(fn {ret} ({ret} x) =>\n    {expr}\n  , xs)\n"


TOKEN = re.compile(r"\s+|--[^\n]*|[A-Za-z_][A-Za-z0-9_']*|\d[\w.]*|=>|<=|>=|==|!=|&&|\|\||.", re.S)


def tokens(text: str) -> list[tuple[int, int]]:
    """(start, end) of every token of `text`, spaces and comments left out."""
    return [(m.start(), m.end()) for m in TOKEN.finditer(text) if not m.group().isspace()
            and not m.group().startswith("--")]


# ---------------------------------------------------------------------------
# the generator: (name, program) pairs; a program is text, or bytes where it is not UTF-8


def _syntax():
    """One construct broken at a time, by hand."""
    cases = {
        "let_no_in": body("let y = x * 2f32 y"),
        "let_no_eq": body("let y x * 2f32 in y"),
        "let_no_name": body("let = x in x"),
        "let_no_value": body("let y = in y"),
        "let_tuple_unclosed": body("let (a, b = (x, x) in a"),
        "let_tuple_no_comma": body("let (a b) = (x, x) in a"),
        "let_nothing_after_in": body("let y = x in"),
        "if_no_then": body("if x > 0f32 x else 0f32"),
        "if_no_else": body("if x > 0f32 then x"),
        "if_no_cond": body("if then x else 0f32"),
        "if_else_empty": body("if x > 0f32 then x else"),
        "if_then_then": body("if x > 0f32 then then x else x"),
        "if_else_if_dangling": body("if x > 0f32 then x else if x < 0f32 then 0f32"),
        "lambda_no_arrow": "fun [f32, n] main([f32, n] xs) =\n  map(fn f32 (f32 x) x, xs)\n",
        "lambda_thin_arrow": "fun [f32, n] main([f32, n] xs) =\n  map(fn f32 (f32 x) -> x, xs)\n",
        "lambda_no_fn": "fun [f32, n] main([f32, n] xs) =\n  map(f32 (f32 x) => x, xs)\n",
        "lambda_no_type": "fun [f32, n] main([f32, n] xs) =\n  map(fn (f32 x) => x, xs)\n",
        "lambda_no_params": "fun [f32, n] main([f32, n] xs) =\n  map(fn f32 => x, xs)\n",
        "lambda_param_no_type": "fun [f32, n] main([f32, n] xs) =\n  map(fn f32 (x) => x, xs)\n",
        "lambda_param_no_name": "fun [f32, n] main([f32, n] xs) =\n  map(fn f32 (f32) => 1f32, xs)\n",
        "lambda_params_no_comma": "fun [f32, n] main([f32, n] xs) =\n  map(fn f32 (f32 x f32 y) => x, xs, xs)\n",
        "lambda_trailing_comma": "fun [f32, n] main([f32, n] xs) =\n  map(fn f32 (f32 x,) => x, xs)\n",
        "map_no_open_paren": "fun [f32, n] main([f32, n] xs) =\n  map fn f32 (f32 x) => x, xs)\n",
        "map_no_close_paren": "fun [f32, n] main([f32, n] xs) =\n  map(fn f32 (f32 x) => x, xs\n",
        "map_no_comma": "fun [f32, n] main([f32, n] xs) =\n  map(fn f32 (f32 x) => x xs)\n",
        "map_no_array": "fun [f32, n] main([f32, n] xs) =\n  map(fn f32 (f32 x) => x)\n",
        "map_empty": "fun [f32, n] main([f32, n] xs) =\n  map()\n",
        "map_double_comma": "fun [f32, n] main([f32, n] xs) =\n  map(fn f32 (f32 x) => x,, xs)\n",
        "map_trailing_comma": "fun [f32, n] main([f32, n] xs) =\n  map(fn f32 (f32 x) => x, xs,)\n",
        "extra_close_paren": body("(x + 1f32))"),
        "extra_open_paren": body("((x + 1f32)"),
        "paren_empty": body("()"),
        "paren_empty_plus": body("x + ()"),
        "index_unclosed": body("ys[0"),
        "index_unopened": body("ys 0]"),
        "index_empty": body("ys[]"),
        "index_trailing_comma": body("A[0,]"),
        "index_double_comma": body("A[0,,1]"),
        "index_on_literal": body("1f32[0]"),
        "index_on_paren": body("(ys)[0]"),
        "index_twice": body("A[0][1]"),
        "type_no_close_bracket": "fun [f32, n] main([f32, n xs) =\n  map(fn f32 (f32 x) => x, xs)\n",
        "type_no_open_bracket": "fun [f32, n] main(f32, n] xs) =\n  map(fn f32 (f32 x) => x, xs)\n",
        "type_no_comma": "fun [f32, n] main([f32 n] xs) =\n  map(fn f32 (f32 x) => x, xs)\n",
        "type_no_size": "fun [f32, n] main([f32] xs) =\n  map(fn f32 (f32 x) => x, xs)\n",
        "type_three_parts": "fun [f32, n] main([f32, n, m] xs) =\n  map(fn f32 (f32 x) => x, xs)\n",
        "type_size_expr": "fun [f32, n] main([f32, n + 1] xs) =\n  map(fn f32 (f32 x) => x, xs)\n",
        "type_negative_size": "fun [f32, n] main([f32, -1] ys, [f32, n] xs) =\n  map(fn f32 (f32 x) => x, xs)\n",
        "type_float_size": "fun [f32, n] main([f32, 2.5] ys, [f32, n] xs) =\n  map(fn f32 (f32 x) => x, xs)\n",
        "type_bool_size": "fun [f32, n] main([f32, true] ys, [f32, n] xs) =\n  map(fn f32 (f32 x) => x, xs)\n",
        "type_unknown_scalar": "fun [f8, n] main([f8, n] xs) =\n  map(fn f8 (f8 x) => x, xs)\n",
        "type_float_word": "fun [float, n] main([float, n] xs) =\n  map(fn float (float x) => x, xs)\n",
        "type_u32": "fun [u32, n] main([u32, n] xs) =\n  map(fn u32 (u32 x) => x, xs)\n",
        "type_empty_tuple": "fun [f32, n] main((), [f32, n] xs) =\n  map(fn f32 (f32 x) => x, xs)\n",
        "type_one_tuple": "fun [f32, n] main((f32) t, [f32, n] xs) =\n  map(fn f32 (f32 x) => x + t, xs)\n",
        "fun_no_eq": "fun [f32, n] main([f32, n] xs)\n  map(fn f32 (f32 x) => x, xs)\n",
        "fun_no_body": "fun [f32, n] main([f32, n] xs) =\n",
        "fun_no_name": "fun [f32, n] ([f32, n] xs) =\n  map(fn f32 (f32 x) => x, xs)\n",
        "fun_no_type": "fun main([f32, n] xs) =\n  map(fn f32 (f32 x) => x, xs)\n",
        "fun_no_params": "fun [f32, n] main =\n  map(fn f32 (f32 x) => x, xs)\n",
        "fun_no_fun": "[f32, n] main([f32, n] xs) =\n  map(fn f32 (f32 x) => x, xs)\n",
        "fun_params_no_comma": "fun [f32, n] main([f32, n] xs [f32, n] ys) =\n  map(fn f32 (f32 x) => x, xs)\n",
        "fun_params_unclosed": "fun [f32, n] main([f32, n] xs =\n  map(fn f32 (f32 x) => x, xs)\n",
        "fun_twice_keyword": "fun fun [f32, n] main([f32, n] xs) =\n  map(fn f32 (f32 x) => x, xs)\n",
        "fun_semicolon": "fun [f32, n] main([f32, n] xs) =\n  map(fn f32 (f32 x) => x, xs);\n",
        "loop_no_for": body("loop (s = x) = k < 3 do s + 1f32 in s"),
        "loop_no_do": body("loop (s = x) = for k < 3 s + 1f32 in s"),
        "loop_no_in": body("loop (s = x) = for k < 3 do s + 1f32"),
        "loop_no_lt": body("loop (s = x) = for k 3 do s + 1f32 in s"),
        "loop_le": body("loop (s = x) = for k <= 3 do s + 1f32 in s"),
        "loop_no_eq": body("loop (s = x) for k < 3 do s + 1f32 in s"),
        "loop_no_parens": body("loop s = x = for k < 3 do s + 1f32 in s"),
        "loop_empty_vars": body("loop () = for k < 3 do x in x"),
        "loop_index_expr": body("loop (s = x) = for (k) < 3 do s in s"),
        "stream_no_close": "fun [f32, n] main([f32, n] xs) =\n  map(fn f32 (f32 x) =>\n"
                           "    streamSeq(fn f32 (int kk, [f32, c] xc, f32 acc) => acc, xs, 0f32, xs)\n",
        "stream_lowercase": body("streamseq(fn f32 (int kk, [f32, c] yc, f32 acc) => acc, ys, 0f32)"),
        "binop_missing_right": body("x +"),
        "binop_missing_left": body("* x"),
        "binop_doubled": body("x * * x"),
        "binop_power": body("x ** 2f32"),
        "binop_single_amp": body("if x > 0f32 & x < 1f32 then x else 0f32"),
        "binop_single_pipe": body("if x > 0f32 | x < 1f32 then x else 0f32"),
        "binop_assign_eq": body("if x = 0f32 then x else 0f32"),
        "binop_chained_compare": body("if 0f32 < x < 1f32 then x else 0f32"),
        "binop_not_eq_spaced": body("if x ! = 0f32 then x else 0f32"),
        "unary_plus": body("+x"),
        "unary_not_float": body("!x"),
        "unary_minus_twice": body("- - x"),
        "unary_minus_bool": body("if -(x > 0f32) then x else x"),
        "call_no_close": body("sqrt(x"),
        "call_empty_arg": body("max(x, )"),
        "call_on_paren": body("(sqrt)(x)"),
        "tuple_trailing_comma": body("let (a, b) = (x, x,) in a"),
        "keyword_case": "FUN [f32, n] main([f32, n] xs) =\n  map(fn f32 (f32 x) => x, xs)\n",
        "two_programs_glued": NBODY + NBODY,
        "garbage_after": NBODY + "garbage\n",
        "number_then_name": body("2x"),
        "float_two_dots": body("x + 1.2.3"),
        "float_trailing_dot": body("x + 1."),
        "float_leading_dot": body("x + .5"),
        "float_exponent_empty": body("x + 1e"),
        "float_exponent_sign_only": body("x + 1e+"),
        "suffix_alone": body("x + f32"),
        "suffix_twice": body("x + 1f32f32"),
        "suffix_i32_on_float": body("x + 1.5i32"),
        "suffix_f16": body("x + 1f16"),
        "suffix_hex": body("x + f32(0x10)"),
        "suffix_underscore": body("x + f32(1_000)"),
        "name_with_prime": body("let x' = x in x'"),
        "name_starting_prime": body("let 'x = x in x"),
        "name_underscore": body("let _ = x in x"),
        "dollar": body("x $ 1f32"),
        "backslash": body("x \\ 1f32"),
        "semicolon_let": body("let y = x; y"),
        "brace_block": body("{ x }"),
        "string_literal": body('"x"'),
        "char_literal": body("'x'"),
        "comment_unterminated_block": body("{- x -} x"),
        "comment_swallows_close": "fun [f32, n] main([f32, n] xs) =\n  map(fn f32 (f32 x) => x, xs) -- )\n",
        "comment_hides_rest": "fun [f32, n] main([f32, n] xs) = -- map(fn f32 (f32 x) => x, xs)\n",
        "comment_no_newline_at_eof": NBODY + "-- the end",
        "no_newline_at_eof": NBODY.rstrip("\n"),
    }
    return cases.items()


def _truncations():
    """Every base program cut at many points: mid-token, between tokens, before the last character."""
    for base, text in BASES.items():
        bounds = sorted({e for _, e in tokens(text)} | {s + 1 for s, e in tokens(text) if e - s > 2})
        step = max(1, len(bounds) // 24)
        for cut in bounds[:-1:step] + [len(text) - 2]:
            yield f"cut_{base}_{cut}", text[:cut]


def _dropped_and_doubled():
    """Each token of nbody deleted, and every fourth one written twice."""
    for i, (s, e) in enumerate(tokens(NBODY)):
        yield f"drop_nbody_{i}", NBODY[:s] + NBODY[e:]
        if i % 4 == 0:
            yield f"double_nbody_{i}", NBODY[:e] + " " + NBODY[s:]
    for i, (s, e) in enumerate(tokens(MM)):
        if i % 3 == 1:
            yield f"drop_mm_{i}", MM[:s] + MM[e:]


def _names():
    yield "unknown_var", body("xx + 1f32")
    yield "unknown_fun", body("sqrtt(x)")
    yield "unknown_size", "fun [f32, q] main([f32, n] xs) =\n  map(fn f32 (f32 x) => x, xs)\n"
    yield "unknown_array", body("zs[0]")
    yield "unknown_in_type_of_lambda", "fun [f32, n] main([f32, n] xs) =\n  map(fn f32 ([f32, zz] x) => x[0], xs)\n"
    yield "unknown_map_array", "fun [f32, n] main([f32, n] xs) =\n  map(fn f32 (f32 x) => x, zs)\n"
    yield "unknown_loop_bound", body("loop (s = x) = for j < zz do s in s")
    yield "unknown_stream_array", body("streamSeq(fn f32 (int kk, [f32, c] zc, f32 acc) => acc, zs, 0f32)")
    yield "use_before_let", body("let a = b in let b = x in a")
    yield "loop_index_after_loop", body("loop (s = x) = for j < 3 do s in s + f32(j)")
    yield "lambda_param_outside", "fun [f32, n] main([f32, n] xs) =\n  let y = x in\n  map(fn f32 (f32 x) => x, xs)\n"
    yield "chunk_outside_stream", body("let r = streamSeq(fn f32 (int kk, [f32, c] yc, f32 acc) => acc, ys, 0f32) "
                                       "in yc[0]")
    yield "chunk_size_outside_stream", body("let r = streamSeq(fn f32 (int kk, [f32, c] yc, f32 acc) => acc, ys, "
                                            "0f32) in f32(c)")
    yield "kk_outside", body("let r = streamSeq(fn f32 (int kk, [f32, c] yc, f32 acc) => acc, ys, 0f32) "
                             "in f32(kk)")
    yield "no_main", "fun f32 f(f32 x) = x\n"
    yield "main_lowercase_other", "fun [f32, n] Main([f32, n] xs) =\n  map(fn f32 (f32 x) => x, xs)\n"
    yield "only_helper_is_entry", "fun [f32, n] go([f32, n] xs) =\n  map(fn f32 (f32 x) => x, xs)\n"
    yield "two_mains", TUPLE_OUT + TUPLE_OUT.replace("x + 1f32", "x")
    yield "main_called_by_helper", ("fun [f32, n] h([f32, n] xs) = main(xs)\n"
                                    "fun [f32, n] main([f32, n] xs) =\n  map(fn f32 (f32 x) => x, xs)\n")
    yield "helper_after_main", ("fun [f32, n] main([f32, n] xs) =\n  map(fn f32 (f32 x) => late(x), xs)\n"
                                "fun f32 late(f32 v) = v + 1f32\n")
    yield "duplicate_param", "fun [f32, n] main([f32, n] xs, [f32, n] xs) =\n  map(fn f32 (f32 x) => x, xs)\n"
    yield "duplicate_lambda_param", "fun [f32, n] main([f32, n] xs) =\n  map(fn f32 (f32 x, f32 x) => x, xs, xs)\n"
    yield "duplicate_loop_var", body("loop (s = x, s = x) = for j < 3 do (s, s) in s")
    yield "duplicate_tuple_pattern", body("let (a, a) = (x, x) in a")
    yield "size_and_param", "fun [f32, n] main([f32, n] xs, f32 n) =\n  map(fn f32 (f32 x) => x, xs)\n"
    yield "long_name", body("let " + "v" * 10_000 + " = x in " + "v" * 10_000)
    yield "long_unknown_name", body("w" * 10_000)
    yield "builtin_as_value", body("sqrt")
    yield "builtin_as_helper", "fun f32 max(f32 a, f32 b) = a\n" + kernel("f32", "[f32, n] xs", "max(x, x)")
    yield "conversion_as_helper", "fun f32 f32(f32 a) = a\n" + kernel("f32", "[f32, n] xs", "x")
    yield "helper_named_map", "fun f32 map(f32 a) = a\n" + kernel("f32", "[f32, n] xs", "x")
    yield "size_used_as_value", kernel("f32", "[f32, n] xs", "x + f32(n)")
    yield "size_used_as_array", kernel("f32", "[f32, n] xs", "n[0]")
    yield "param_used_as_size", "fun [f32, n] main([f32, n] xs, f32 z) =\n  map(fn f32 ([f32, z] x) => x[0], xs)\n"
    yield "array_called", body("ys(0)")
    yield "scalar_called", body("x(0)")
    yield "helper_indexed", "fun f32 h(f32 a) = a\n" + kernel("f32", "[f32, n] xs", "h[0]")


def _shadowing():
    yield "shadow_param_other_type", body("let x = 1 in f32(x)")
    yield "shadow_param_same_type", body("let x = x + 1f32 in x")
    yield "shadow_array_with_scalar", body("let ys = x in ys[0]")
    yield "shadow_array_with_scalar_ok", body("let ys = x in ys")
    yield "shadow_size_by_let", body("let n = 3 in x + f32(n)")
    yield "shadow_size_by_let_then_map", ("fun [f32, n] main([f32, n] xs) =\n  let n = 5 in\n"
                                          "  map(fn f32 (f32 x) => x, xs)\n")
    yield "shadow_loop_index", body("loop (s = x) = for x < 3 do s + 1f32 in s")
    yield "shadow_loop_index_by_let", body("loop (s = x) = for j < 3 do let j = 2f32 in s + j in s")
    yield "shadow_builtin_by_let", body("let sqrt = x in sqrt")
    yield "shadow_builtin_then_call", body("let sqrt = x in sqrt(x)")
    yield "shadow_conversion_by_let", body("let f32 = 1 in x")
    yield "shadow_helper_by_let", "fun f32 h(f32 a) = a\n" + kernel("f32", "[f32, n] xs", "let h = x in h(x)")
    yield "shadow_acc_by_let", body("streamSeq(fn f32 (int kk, [f32, c] yc, f32 acc) => let acc = 1 in "
                                    "f32(acc), ys, 0f32)")
    yield "shadow_chunk_by_param", body("streamSeq(fn f32 (int kk, [f32, c] ys, f32 acc) => acc + ys[0], ys, 0f32)")
    yield "shadow_chunk_size_nested", body(
        "streamSeq(fn f32 (int kk, [f32, c] yc, f32 acc) => streamSeq(fn f32 (int k2, [f32, c] yc2, f32 a2) => "
        "a2 + yc2[0], yc, acc), ys, 0f32)")
    yield "shadow_kk_as_chunk", body("streamSeq(fn f32 (int kk, [f32, kk] yc, f32 acc) => acc, ys, 0f32)")
    yield "shadow_main_param_in_lambda", "fun [f32, n] main([f32, n] xs) =\n  map(fn f32 (f32 xs) => xs, xs)\n"
    yield "shadow_in_nested_map", ("fun [[f32, m], n] main([[f32, m], n] A) =\n"
                                   "  map(fn [f32, m] ([f32, m] a) => map(fn f32 (f32 a) => a, a), A)\n")
    yield "shadow_tuple_let", body("let (x, y) = (1, x) in y")


def _keywords():
    reserved = ["fun", "fn", "let", "in", "loop", "for", "do", "if", "then", "else", "map", "zip", "iota",
                "transpose", "streamSeq", "true", "false"]
    for word in reserved:
        yield f"kw_let_{word}", body(f"let {word} = x in x")
        yield f"kw_param_{word}", f"fun [f32, n] main([f32, n] {word}) =\n  map(fn f32 (f32 x) => x, {word})\n"
        yield f"kw_lambda_{word}", f"fun [f32, n] main([f32, n] xs) =\n  map(fn f32 (f32 {word}) => 1f32, xs)\n"
    for word in ["fun", "let", "if", "map", "true"]:
        yield f"kw_helper_{word}", f"fun f32 {word}(f32 a) = a\n" + kernel("f32", "[f32, n] xs", "x")
        yield f"kw_size_{word}", f"fun [f32, {word}] main([f32, {word}] xs) =\n  map(fn f32 (f32 x) => x, xs)\n"
        yield f"kw_loop_var_{word}", body(f"loop ({word} = x) = for j < 3 do x in x")
    yield "kw_loop_index_in", body("loop (s = x) = for in < 3 do s in s")
    yield "kw_type_as_name", body("let int = 3 in x")
    yield "kw_type_as_param", "fun [f32, n] main([f32, n] f64) =\n  map(fn f32 (f32 x) => x, f64)\n"


def _types():
    lits = {"f32": "1f32", "f64": "1f64", "int": "1", "i64": "1i64", "bool": "true", "i32": "1i32"}
    scalars = ["f32", "f64", "int", "i64", "bool"]
    for t in scalars:
        for u in scalars:
            if t != u:
                yield f"add_{t}_{u}", kernel(t, f"[{t}, n] xs", f"let y = x + {lits[u]} in x")
                yield f"cmp_{t}_{u}", kernel(t, f"[{t}, n] xs", f"if x < {lits[u]} then x else x")
        yield f"and_{t}", kernel(t, f"[{t}, n] xs", f"if x && {lits[t]} then x else x")
        yield f"mod_{t}", kernel(t, f"[{t}, n] xs", f"x % {lits[t]}")
        yield f"neg_{t}", kernel(t, f"[{t}, n] xs", "-x")
        yield f"not_{t}", kernel(t, f"[{t}, n] xs", "!x")
        yield f"sqrt_{t}", kernel(t, f"[{t}, n] xs", "sqrt(x)")
        yield f"min_{t}", kernel(t, f"[{t}, n] xs", "min(x, x)")
        yield f"conv_{t}", kernel(t, f"[{t}, n] xs", f"{t}(f64(x))")
        yield f"return_{t}_as_f32", kernel(t, f"[{t}, n] xs", "1f32")
        yield f"index_with_{t}", body(f"ys[{lits[t]}]")
        yield f"loop_bound_{t}", body(f"loop (s = x) = for j < {lits[t]} do s in s")
        yield f"acc_{t}_from_f32", body(f"streamSeq(fn f32 (int kk, [f32, c] yc, {t} acc) => acc, ys, 0f32)")
    yield "i32_is_int", kernel("int", "[int, n] xs", "x + 1i32")
    yield "if_branches_f32_f64", body("if x > 0f32 then x else 1f64")
    yield "if_cond_float", body("if x then x else x")
    yield "bool_eq_bool", kernel("bool", "[bool, n] xs", "x == true")
    yield "bool_lt_bool", kernel("bool", "[bool, n] xs", "x < true")
    yield "array_plus_scalar", body("ys + x")
    yield "array_as_result", body("ys")
    yield "row_as_result", body("A[0]")
    yield "row_plus_row", body("let r = A[0] + A[1] in x")
    yield "matrix_one_index", body("A[0] * x")
    yield "matrix_three_indices", body("A[0, 1, 2]")
    yield "vector_two_indices", body("ys[0, 1]")
    yield "index_with_tuple", body("ys[(0, 1)]")
    yield "index_with_comparison", body("ys[x > 0f32]")
    yield "rank2_for_rank1_param", ("fun f32 h([f32, d] v) = v[0]\n"
                                    + kernel("f32", "[f32, n] xs, [[f32, m], n] A", "h(A)"))
    yield "rank1_for_rank2_param", ("fun f32 h([[f32, d], e] v) = v[0, 0]\n"
                                    + kernel("f32", "[f32, n] xs, [f32, m] ys", "h(ys)"))
    yield "scalar_for_array_param", "fun f32 h([f32, d] v) = v[0]\n" + kernel("f32", "[f32, n] xs", "h(x)")
    yield "f64_array_for_f32", ("fun f32 h([f32, d] v) = v[0]\n"
                                + kernel("f32", "[f32, n] xs, [f64, m] ys", "h(ys)"))
    yield "lambda_param_wrong_elem", "fun [f32, n] main([f64, n] xs) =\n  map(fn f32 (f32 x) => x, xs)\n"
    yield "lambda_param_wrong_rank", "fun [f32, n] main([f32, n] xs) =\n  map(fn f32 ([f32, n] x) => x[0], xs)\n"
    yield "lambda_result_f64_main_f32", "fun [f32, n] main([f64, n] xs) =\n  map(fn f64 (f64 x) => x, xs)\n"
    yield "main_result_rank3_nest_1", "fun [[[f32, n], n], n] main([f32, n] xs) =\n  map(fn f32 (f32 x) => x, xs)\n"
    yield "main_result_scalar", "fun f32 main([f32, n] xs) =\n  map(fn f32 (f32 x) => x, xs)\n"
    yield "main_result_bool_array", "fun [bool, n] main([f32, n] xs) =\n  map(fn bool (f32 x) => x > 0f32, xs)\n"
    yield "conversion_of_array", body("f32(ys)")
    yield "conversion_two_args", body("f32(x, x)")
    yield "conversion_no_args", body("f32()")
    yield "conversion_of_bool", body("f32(x > 0f32)")
    yield "pow_int", kernel("int", "[int, n] xs", "pow(x, 2)")
    yield "pow_mixed", body("pow(x, 2f64)")
    yield "int_div_zero", kernel("int", "[int, n] xs", "x / 0")
    yield "int_mod_zero", kernel("int", "[int, n] xs", "x % 0")
    yield "float_div_zero", body("x / 0f32")


def _arities():
    for name, args in [("sqrt", "x, x"), ("sqrt", ""), ("max", "x"), ("max", "x, x, x"), ("pow", "x"),
                       ("abs", "x, x"), ("floor", ""), ("exp", "x, x"), ("log", "ys"), ("rsqrt", "(x, x)"),
                       ("i64", "x, x"), ("int", "")]:
        yield f"arity_{name}_{len(args.split(',')) if args else 0}_{len(args)}", body(f"{name}({args})")
    yield "arity_iota_none", body("let r = iota() in x")
    yield "arity_iota_two", body("let r = iota(n, n) in x")
    yield "arity_zip_none", "fun [f32, n] main([f32, n] xs) =\n  map(fn f32 (f32 x) => x, zip())\n"
    yield "arity_zip_one", "fun [f32, n] main([f32, n] xs) =\n  map(fn f32 (f32 x) => x, zip(xs))\n"
    yield "arity_transpose_two", ("fun [f32, n] main([[f32, n], n] A) =\n  let B = transpose(A, A) in\n"
                                  "  map(fn f32 ([f32, n] r) => r[0], B)\n")
    yield "arity_transpose_none", ("fun [f32, n] main([[f32, n], n] A) =\n  let B = transpose() in\n"
                                   "  map(fn f32 ([f32, n] r) => r[0], A)\n")
    yield "arity_helper_none", "fun f32 h(f32 a, f32 b) = a\n" + kernel("f32", "[f32, n] xs", "h()")
    yield "arity_helper_many", "fun f32 h(f32 a) = a\n" + kernel("f32", "[f32, n] xs", "h(x, x, x, x)")
    yield "arity_helper_tuple_arg", "fun f32 h(f32 a, f32 b) = a\n" + kernel("f32", "[f32, n] xs", "h((x, x))")
    yield "arity_helper_zero_params", "fun f32 h() = 1f32\n" + kernel("f32", "[f32, n] xs", "h() + x")
    yield "arity_map_lambda_more", "fun [f32, n] main([f32, n] xs) =\n  map(fn f32 (f32 x, f32 y) => x, xs)\n"
    yield "arity_map_lambda_fewer", "fun [f32, n] main([f32, n] xs) =\n  map(fn f32 () => 1f32, xs, xs)\n"
    yield "arity_map_zip_three", ("fun [f32, n] main([f32, n] xs) =\n"
                                  "  map(fn f32 (f32 a, f32 b) => a, zip(xs, xs, xs))\n")
    yield "arity_main_none", "fun [f32, 4] main() =\n  map(fn f32 (int i) => f32(i), iota(4))\n"
    yield "many_params", ("fun [f32, n] main([f32, n] xs, " + ", ".join(f"f32 p{i}" for i in range(500))
                          + ") =\n  map(fn f32 (f32 x) => x + p499, xs)\n")
    yield "many_arrays", ("fun [f32, n] main([f32, n] xs, " + ", ".join(f"[f32, n] a{i}" for i in range(200))
                          + ") =\n  map(fn f32 (f32 x) => x + a199[0], xs)\n")
    yield "many_zipped", ("fun [f32, n] main(" + ", ".join(f"[f32, n] a{i}" for i in range(100)) + ") =\n"
                          "  map(fn f32 (" + ", ".join(f"f32 e{i}" for i in range(100)) + ") => e0 + e99, "
                          + ", ".join(f"a{i}" for i in range(100)) + ", a0)\n")


def _sizes():
    yield "size_mismatch_map", "fun [f32, n] main([f32, n] xs, [f32, m] ys) =\n  map(fn f32 (f32 x, f32 y) => x + y, xs, ys)\n"
    yield "size_mismatch_zip", ("fun [f32, n] main([f32, n] xs, [f32, m] ys) =\n"
                                "  map(fn f32 (f32 x, f32 y) => x + y, zip(xs, ys))\n")
    yield "size_mismatch_result", "fun [f32, m] main([f32, n] xs, [f32, m] ys) =\n  map(fn f32 (f32 x) => x, xs)\n"
    yield "size_mismatch_stream", body("streamSeq(fn f32 (int kk, [f32, c] yc, [f32, c] xc, f32 acc) => acc, ys, xs, "
                                       "0f32)")
    yield "size_mismatch_inner_map", ("fun [[f32, m], n] main([[f32, m], n] A, [f32, q] zs) =\n"
                                      "  map(fn [f32, m] ([f32, m] a) => map(fn f32 (f32 z) => z, zs), A)\n")
    yield "size_chunk_not_fresh", body("streamSeq(fn f32 (int kk, [f32, m] yc, f32 acc) => acc, ys, 0f32)")
    yield "size_chunk_literal", body("streamSeq(fn f32 (int kk, [f32, 4] yc, f32 acc) => acc, ys, 0f32)")
    yield "size_same_name_two_dims", ("fun [f32, n] main([[f32, n], n] A) =\n"
                                      "  map(fn f32 ([f32, n] a) => a[0], A)\n")
    yield "size_lambda_binds_new", "fun [f32, n] main([[f32, m], n] A) =\n  map(fn f32 ([f32, w] a) => a[0], A)\n"
    yield "size_param_int_and_array", ("fun [f32, n] main(int n, [f32, n] xs) =\n"
                                       "  map(fn f32 (f32 x) => x, xs)\n")
    yield "size_param_i64", "fun [f32, n] main(i64 n) =\n  map(fn f32 (int i) => f32(i), iota(n))\n"
    yield "size_param_f32", "fun [f32, n] main(f32 n) =\n  map(fn f32 (int i) => f32(i), iota(n))\n"
    yield "size_param_unused", "fun [f32, n] main(int q, [f32, n] xs) =\n  map(fn f32 (f32 x) => x, xs)\n"
    yield "size_iota_expr", "fun [f32, n] main(int n) =\n  map(fn f32 (int i) => f32(i), iota(n + 1))\n"
    yield "size_iota_literal_result", "fun [f32, 8] main(int n) =\n  map(fn f32 (int i) => f32(i), iota(8))\n"
    yield "size_iota_literal_mismatch", "fun [f32, 9] main(int n) =\n  map(fn f32 (int i) => f32(i), iota(8))\n"
    for k in ["0", "1", "2", "2147483647", "2147483648", "4294967296", "-0", "00", "07",
              "99999999999999999999999999999999999999999999999999"]:
        yield f"size_lit_param_{k}", (f"fun [f32, n] main([f32, n] xs, [f32, {k}] ys) =\n"
                                      "  map(fn f32 (f32 x) => x + ys[0], xs)\n")
        yield f"size_lit_iota_{k}", f"fun [f32, {k}] main(int q) =\n  map(fn f32 (int i) => f32(i), iota({k}))\n"
        yield f"size_lit_main_{k}", f"fun [f32, {k}] main([f32, {k}] xs) =\n  map(fn f32 (f32 x) => x, xs)\n"
    yield "zero_length_stream", ("fun [f32, n] main([f32, n] xs, [f32, 0] e) =\n  map(fn f32 (f32 x) =>\n"
                                 "    streamSeq(fn f32 (int kk, [f32, c] ec, f32 acc) =>\n"
                                 "      loop (acc) = for j < c do acc + ec[j] in acc, e, x), xs)\n")
    yield "zero_length_2d", ("fun [[f32, 0], n] main([[f32, 0], n] A) =\n"
                             "  map(fn [f32, 0] ([f32, 0] a) => map(fn f32 (f32 v) => v, a), A)\n")
    yield "zero_length_index", ("fun [f32, n] main([f32, n] xs, [f32, 0] e) =\n"
                                "  map(fn f32 (f32 x) => x + e[0], xs)\n")
    yield "iota_negative", "fun [f32, n] main(int n) =\n  map(fn f32 (int i) => f32(i), iota(-1))\n"
    yield "iota_zero_map", "fun [f32, 0] main(int n) =\n  map(fn f32 (int i) => f32(i), iota(0))\n"
    yield "iota_float", "fun [f32, n] main(int n) =\n  map(fn f32 (int i) => f32(i), iota(1.5))\n"
    yield "iota_array", "fun [f32, n] main([f32, n] xs) =\n  map(fn f32 (int i) => f32(i), iota(xs))\n"
    yield "iota_in_prelude", "fun [f32, n] main(int n) =\n  let r = iota(n) in\n  map(fn f32 (int i) => f32(i), r)\n"
    yield "iota_nested", "fun [f32, n] main(int n) =\n  map(fn f32 (int i) => f32(i), iota(iota(n)))\n"
    yield "iota_stream_in_body", body("streamSeq(fn f32 (int kk, [int, c] ic, f32 acc) => "
                                      "loop (acc) = for j < c do acc + f32(ic[j]) in acc, iota(k), 0f32)")
    yield "iota_index", body("f32(iota(n)[0])")


def _literals():
    for digits in (19, 20, 50, 101, 5000):
        big = "9" * digits
        yield f"int_{digits}_digits", kernel("int", "[int, n] xs", f"x + {big}")
        yield f"i64_{digits}_digits", kernel("i64", "[i64, n] xs", f"x + {big}i64")
        yield f"index_{digits}_digits", body(f"ys[{big}]")
        yield f"size_{digits}_digits", f"fun [f32, {big}] main([f32, {big}] xs) =\n  map(fn f32 (f32 x) => x, xs)\n"
        yield f"float_{digits}_digits", body(f"x + {big}.0")
        yield f"float_frac_{digits}_digits", body(f"x + 0.{big}")
        yield f"loop_bound_{digits}_digits", body(f"loop (s = x) = for j < {big} do s in s")
    yield "int_max", kernel("int", "[int, n] xs", "x + 2147483647")
    yield "int_max_plus_one", kernel("int", "[int, n] xs", "x + 2147483648")
    yield "int_min_literal", kernel("int", "[int, n] xs", "x + -2147483648")
    yield "int_min_parenthesised", kernel("int", "[int, n] xs", "x - (2147483647 + 1)")
    yield "i64_max", kernel("i64", "[i64, n] xs", "x + 9223372036854775807i64")
    yield "i64_max_plus_one", kernel("i64", "[i64, n] xs", "x + 9223372036854775808i64")
    yield "i64_min_literal", kernel("i64", "[i64, n] xs", "x + -9223372036854775808i64")
    yield "u64_max", kernel("i64", "[i64, n] xs", "x + 18446744073709551615i64")
    for lit in ["1e999", "1e999f32", "1e999f64", "-1e999", "1e-999", "1e-999f64", "1e38", "3.5e38", "3.4028235e38",
                "3.4028236e38", "1.7976931348623157e308f64", "1.8e308f64", "1e-46", "1e-45", "4.9e-324f64",
                "1e99999999999999999999", "1e-99999999999999999999", "0e0", "0.0e-0", "1E5", "1e+5", "00.5",
                "1" + "0" * 400 + ".0f64", "0." + "0" * 400 + "1f64"]:
        name = re.sub(r"\W", "_", lit[:30])
        yield f"float_{name}_{len(lit)}", kernel("f64" if lit.endswith("f64") else "f32",
                                                 "[f64, n] xs" if lit.endswith("f64") else "[f32, n] xs",
                                                 f"x + {lit}")
    yield "nan_name", body("x + nan")
    yield "inf_name", body("x + inf")
    yield "bool_as_int", kernel("int", "[int, n] xs", "x + true")
    yield "int_conversion_of_huge_float", kernel("int", "[f32, n] xs0, [int, n] xs", "int(3e38) + x")


def _encoding():
    """Bytes and characters around the text."""
    yield "empty", ""
    yield "only_space", "   \n\t\n"
    yield "only_newlines", "\n" * 1000
    yield "only_comment", "-- nothing here\n"
    yield "only_comments_no_newline", "-- a\n-- b"
    yield "only_dashes", "--"
    yield "single_dash", "-"
    yield "bom_then_program", "\ufeff" + NBODY
    yield "bom_only", "\ufeff"
    yield "bom_twice", "\ufeff\ufeff" + NBODY
    yield "bom_in_middle", NBODY.replace("map(", "\ufeffmap(", 1)
    yield "crlf", NBODY.replace("\n", "\r\n")
    yield "crlf_error", body("xx").replace("\n", "\r\n")
    yield "cr_only", NBODY.replace("\n", "\r")
    yield "cr_only_error", body("xx").replace("\n", "\r")
    yield "tabs", NBODY.replace("  ", "\t")
    yield "tabs_error", body("\txx").replace("  ", "\t")
    yield "form_feed", NBODY.replace("\n", "\n\f", 1)
    yield "vertical_tab", NBODY.replace(" ", "\v", 1)
    yield "nul_start", "\0" + NBODY
    yield "nul_middle", NBODY.replace("map(", "map(\0", 1)
    yield "nul_end", NBODY + "\0"
    yield "nul_in_comment", "-- \0\n" + NBODY
    yield "nul_only", "\0" * 10
    yield "nbsp", NBODY.replace(" ", "\u00a0", 3)
    yield "zero_width_space", NBODY.replace("map", "ma\u200bp", 1)
    yield "rtl_override", NBODY.replace("body)", "body\u202e)", 1)
    yield "non_ascii_name", body("let é = x in é")
    yield "greek_name", body("let λ = x in λ")
    yield "cjk_name", body("let 变量 = x in 变量")
    yield "emoji", body("x + 🚀")
    yield "emoji_in_comment", "-- 🚀 naïve ünïcödé\n" + NBODY
    yield "non_ascii_digit", body("x + ٣f32")
    yield "fullwidth_paren", body("sqrt（x）")
    yield "combining_mark", body("let x\u0301 = x in x")
    yield "line_separator", NBODY.replace("\n", "\u2028", 2)
    yield "next_line_char", NBODY.replace("\n", "\u0085", 2)
    yield "escape_sequence", body("x\x1b[31m")
    yield "delete_char", body("x\x7f")
    yield "latin1_bytes", b"-- caf\xe9\n" + NBODY.encode()
    yield "invalid_utf8_start", b"\xff\xfe" + NBODY.encode()
    yield "invalid_utf8_mid", NBODY.encode().replace(b"map(", b"map(\xc3", 1)
    yield "utf16_le", NBODY.encode("utf-16-le")
    yield "utf16_bom", NBODY.encode("utf-16")
    yield "truncated_utf8", body("let é = x in x").encode()[: len(HEAD) + 5]
    yield "overlong_utf8", b"-- \xc0\xaf\n" + NBODY.encode()
    yield "lone_surrogate_utf8", b"-- \xed\xa0\x80\n" + NBODY.encode()
    yield "long_comment_line", "-- " + "x" * 200_000 + "\n" + NBODY
    yield "long_line_of_spaces", " " * 200_000 + NBODY
    yield "many_blank_lines_then_error", "\n" * 50_000 + body("xx")
    yield "error_on_line_20000", "-- c\n" * 20_000 + body("xx")


def _array(rank: int) -> str:
    """The type of a rank-`rank` f32 array, every size `n`."""
    return "f32" if rank == 0 else f"[{_array(rank - 1)}, n]"


def _deep():
    yield "parens_150", body("(" * 150 + "x" + ")" * 150)
    yield "parens_199", body("(" * 199 + "x" + ")" * 199)
    yield "parens_200", body("(" * 200 + "x" + ")" * 200)
    yield "parens_201", body("(" * 201 + "x" + ")" * 201)
    yield "parens_250", body("(" * 250 + "x" + ")" * 250)
    yield "parens_250_unclosed", body("(" * 250 + "x")
    yield "parens_10000_unclosed", body("(" * 10_000)
    yield "brackets_150_index", body("ys[" * 150 + "0" + "]" * 150)
    yield "brackets_250_index", body("ys[" * 250 + "0" + "]" * 250)
    yield "brackets_150_type", ("fun [f32, n] main(" + "[" * 150 + "f32" + ", n]" * 150
                                + " z, [f32, n] xs) =\n  map(fn f32 (f32 x) => x, xs)\n")
    yield "calls_150", body("abs(" * 150 + "x" + ")" * 150)
    yield "calls_250", body("abs(" * 250 + "x" + ")" * 250)
    yield "tuples_150", body("let a = " + "(" * 150 + "x, x" + ")" * 150 + " in x")
    for depth in (50, 300):
        yield f"if_else_chain_{depth}", body("".join(f"if x > {i}f32 then {i}f32 else " for i in range(depth)) + "x")
        yield f"if_then_nest_{depth}", body("".join(f"if x > {i}f32 then " for i in range(depth)) + "x"
                                            + " else 0f32" * depth)
        yield f"if_cond_nest_{depth}", body("if " * depth + "true" + " then true else false" * depth
                                            + " then x else 0f32")
    yield "if_else_chain_300_missing_else", body("".join(f"if x > {i}f32 then {i}f32 else " for i in range(300)))
    yield "lets_2000", body("let v0 = x in " + "".join(f"let v{i + 1} = v{i} + 1f32 in " for i in range(2000))
                            + "v2000")
    yield "lets_300_one_unknown", body("let v0 = x in " + "".join(f"let v{i + 1} = v{i} + 1f32 in "
                                                                  for i in range(300)) + "v301")
    yield "lets_300_type_error_everywhere", body("let v0 = x in " + "".join(f"let v{i + 1} = v{i} + 1 in "
                                                                            for i in range(300)) + "v300")
    yield "prelude_lets_500", ("fun [f32, n] main([f32, n] xs, f32 s) =\n  let v0 = s in\n"
                               + "".join(f"  let v{i + 1} = v{i} * 2f32 in\n" for i in range(500))
                               + "  map(fn f32 (f32 x) => x + v500, xs)\n")
    yield "sum_3000", body(" + ".join(["x"] * 3000))
    yield "sum_1000_mixed_types", body(" + ".join(["x", "1"] * 500))
    yield "product_1000_literals", body(" * ".join(["1.0001f32"] * 1000))
    yield "compare_chain_300", body("if " + " && ".join(["x > 0f32"] * 300) + " then x else 0f32")
    yield "dashes_3000_are_a_comment", body("-" * 3000 + "x")
    yield "minus_3000", body("- " * 3000 + "x")
    yield "minus_1500_in_150_parens", body("- - - - - - - - - - (" * 150 + "x" + ")" * 150)
    yield "not_3000", body("if " + "!" * 3000 + "(x > 0f32) then x else 0f32")
    yield "minus_3000_on_bool", body("if " + "- " * 3000 + "true then x else x")
    for depth in (4, 50):
        inner = "x0"
        for i in range(depth):
            inner = f"map(fn f32 (f32 x{i + 1}) => {inner}, xs)"
        yield f"maps_{depth}_nested", f"fun [f32, n] main([f32, n] xs) =\n  map(fn f32 (f32 x0) => {inner}, xs)\n"
    expr = "x0"
    for rank in range(1, 51):
        expr = f"map(fn {_array(rank - 1)} ({_array(rank - 1)} x{rank - 1}) => {expr}, x{rank})"
    yield "maps_50_typed", f"fun {_array(50)} main({_array(50)} x50) =\n  {expr}\n"
    expr = "x0"
    for rank in range(1, 4):
        expr = f"map(fn {_array(rank - 1)} ({_array(rank - 1)} x{rank - 1}) => {expr}, x{rank})"
    yield "maps_3_typed", f"fun {_array(3)} main({_array(3)} x3) =\n  {expr}\n"
    loops = "s"
    for i in range(25):
        loops = f"loop (s) = for j{i} < 2 do {loops} in s"
    yield "loops_25", body(f"let s = x in {loops}")
    loops = "s + 1f32"
    for i in range(25):
        loops = f"loop (s) = for j{i} < n do {loops} in s"
    yield "loops_25_by_n", body(f"let s = x in {loops}")
    streams = "acc11 + c11[0]"
    for i in range(11, -1, -1):
        arr = "ys" if i == 0 else f"c{i - 1}"
        init = "0f32" if i == 0 else f"acc{i - 1}"
        streams = f"streamSeq(fn f32 (int k{i}, [f32, s{i}] c{i}, f32 acc{i}) => {streams}, {arr}, {init})"
    yield "streams_12", body(streams)
    streams = "acc11 + A[i11, 0]"
    for i in range(11, -1, -1):
        streams = (f"streamSeq(fn f32 (int k{i}, [int, s{i}] c{i}, f32 acc{i}) => "
                   f"loop (acc{i}) = for i{i} < s{i} do {streams} in acc{i}, iota(n), "
                   f"{'0f32' if i == 0 else f'acc{i - 1}'})")
    yield "streams_12_loops", body(streams)
    yield "deep_index_chain", kernel("int", "[int, n] xs", "xs[" * 100 + "x" + "]" * 100)


def _helpers():
    yield "recursive_self", "fun f32 f(f32 v) = f(v)\n" + kernel("f32", "[f32, n] xs", "f(x)")
    yield "recursive_unused", "fun f32 f(f32 v) = f(v)\n" + kernel("f32", "[f32, n] xs", "x")
    yield "recursive_mutual", ("fun f32 f(f32 v) = g(v)\nfun f32 g(f32 v) = f(v)\n"
                               + kernel("f32", "[f32, n] xs", "f(x)"))
    yield "recursive_three", ("fun f32 f(f32 v) = g(v)\nfun f32 g(f32 v) = h(v)\nfun f32 h(f32 v) = f(v)\n"
                              + kernel("f32", "[f32, n] xs", "x + h(x)"))
    yield "recursive_in_stream", ("fun f32 f([f32, d] v) = streamSeq(fn f32 (int kk, [f32, c] vc, f32 acc) => "
                                  "acc + f(vc), v, 0f32)\n" + kernel("f32", "[f32, n] xs", "f(xs)"))
    yield "recursive_main", "fun [f32, n] main([f32, n] xs) =\n  map(fn f32 (f32 x) => x, main(xs))\n"
    chain = "fun f32 h0(f32 v) = v + 1f32\n" + "".join(f"fun f32 h{i}(f32 v) = h{i - 1}(v)\n" for i in range(1, 500))
    yield "helper_chain_500", chain + kernel("f32", "[f32, n] xs", "h499(x)")
    rev = "".join(f"fun f32 h{i}(f32 v) = h{i - 1}(v)\n" for i in range(499, 0, -1)) + "fun f32 h0(f32 v) = v\n"
    yield "helper_chain_500_reversed", rev + kernel("f32", "[f32, n] xs", "h499(x)")
    for levels in (10, 13, 14, 20):
        twice = "fun f32 h0(f32 v) = v * 2f32\n" + "".join(
            f"fun f32 h{i}(f32 v) = h{i - 1}(v) + h{i - 1}(v + 1f32)\n" for i in range(1, levels + 1))
        yield f"helper_twice_{levels}", twice + kernel("f32", "[f32, n] xs", f"h{levels}(x)")
    twice = "fun f32 h0(f32 v) = v * 2f32\n" + "".join(
        f"fun f32 h{i}(f32 v) = h{i - 1}(v) + h{i - 1}(v + 1f32)\n" for i in range(1, 21))
    yield "helper_twice_20_unused", twice + kernel("f32", "[f32, n] xs", "x")
    yield "helper_twice_20_in_prelude", twice + ("fun [f32, n] main([f32, n] xs, f32 s) =\n  let t = h20(s) in\n"
                                                 "  map(fn f32 (f32 x) => x + t, xs)\n")
    thrice = "fun f32 g0(f32 v) = v\n" + "".join(
        f"fun f32 g{i}(f32 v) = g{i - 1}(v) + g{i - 1}(v) + g{i - 1}(v)\n" for i in range(1, 40))
    yield "helper_thrice_39", thrice + kernel("f32", "[f32, n] xs", "g39(x)")
    yield "helper_300_unused", "".join(f"fun f32 u{i}(f32 v) = v\n" for i in range(300)) + NBODY
    yield "helper_returns_tuple", ("fun (f32, f32) two(f32 v) = (v, v)\n"
                                   + kernel("f32", "[f32, n] xs", "let (a, b) = two(x) in a + b"))
    yield "helper_returns_tuple_unpacked", "fun (f32, f32) two(f32 v) = (v, v)\n" + kernel("f32", "[f32, n] xs",
                                                                                           "two(x)")
    yield "helper_tuple_param", ("fun f32 fst((f32, f32) p) = let (a, b) = p in a\n"
                                 + kernel("f32", "[f32, n] xs", "fst((x, x))"))
    yield "helper_returns_array", "fun [f32, d] same([f32, d] v) = v\n" + kernel("f32", "[f32, n] xs",
                                                                               "same(xs)[0]")
    yield "helper_returns_array_let", "fun [f32, d] same([f32, d] v) = v\n" + kernel(
        "f32", "[f32, n] xs", "let r = same(xs) in r[0]")
    yield "helper_with_map", ("fun [f32, d] dbl([f32, d] v) = map(fn f32 (f32 e) => e * 2f32, v)\n"
                              "fun [f32, n] main([f32, n] xs) = dbl(xs)\n")
    yield "helper_with_map_called_in_body", ("fun f32 s([f32, d] v) = let r = map(fn f32 (f32 e) => e, v) in r[0]\n"
                                             + kernel("f32", "[f32, n] xs", "s(xs)"))
    yield "helper_with_transpose", ("fun f32 t([[f32, d], e] v) = let w = transpose(v) in w[0, 0]\n"
                                    + kernel("f32", "[f32, n] xs, [[f32, m], n] A", "t(A)"))
    yield "helper_unused_params", "fun f32 h(f32 a, f32 b, [f32, d] c) = 1f32\n" + kernel("f32", "[f32, n] xs",
                                                                                        "h(x, x, xs)")
    yield "helper_param_named_like_caller", "fun f32 h(f32 x) = x\n" + kernel("f32", "[f32, n] xs", "h(x)")
    yield "helper_size_in_result_only", "fun [f32, d] h(f32 a) = a\n" + kernel("f32", "[f32, n] xs", "h(x)")
    yield "helper_captures_nothing", "fun f32 h(f32 a) = a + x\n" + kernel("f32", "[f32, n] xs", "h(x)")
    yield "helper_stream_of_iota", ("fun f32 tri(int d) = streamSeq(fn f32 (int kk, [int, c] ic, f32 acc) => "
                                    "loop (acc) = for j < c do acc + f32(ic[j]) in acc, iota(d), 0f32)\n"
                                    + kernel("f32", "[f32, n] xs", "x + tri(n)"))


def _forms():
    """The kernel's shape, tuples, streams, transpose and zip used wrongly (or oddly but rightly)."""
    one = "fun [f32, n] main([f32, n] xs) =\n  "
    yield "no_map_scalar_main", "fun f32 main(f32 x) = x\n"
    yield "no_map_array_main", "fun [f32, n] main([f32, n] xs) = xs\n"
    yield "no_map_stream_main", ("fun f32 main([f32, n] xs) =\n  streamSeq(fn f32 (int kk, [f32, c] xc, f32 acc) => "
                                 "acc, xs, 0f32)\n")
    yield "no_map_transpose_main", "fun [[f32, n], m] main([[f32, m], n] A) = transpose(A)\n"
    yield "no_map_iota_main", "fun [int, n] main(int n) = iota(n)\n"
    yield "no_map_literal_main", "fun int main() = 1\n"
    yield "map_in_let_of_main", one + "let ys = map(fn f32 (f32 x) => x, xs) in ys\n"
    yield "map_in_if_of_main", one + "if true then map(fn f32 (f32 x) => x, xs) else xs\n"
    yield "map_after_stream_prelude", (one + "let s = streamSeq(fn f32 (int kk, [f32, c] xc, f32 acc) => acc, xs, "
                                       "0f32) in\n  map(fn f32 (f32 x) => x + s, xs)\n")
    yield "map_over_scalar", "fun [f32, n] main(f32 s, [f32, n] xs) =\n  map(fn f32 (f32 x) => x, s)\n"
    yield "map_over_tuple", one + "map(fn f32 (f32 x) => x, (xs, xs))\n"
    yield "map_over_map", one + "map(fn f32 (f32 x) => x, map(fn f32 (f32 y) => y, xs))\n"
    yield "map_lambda_not_lambda", one + "map(sqrt, xs)\n"
    yield "map_lambda_is_name", one + "map(xs, xs)\n"
    yield "map_with_tuple_elem_param", one + "map(fn f32 ((f32, f32) p) => 1f32, zip(xs, xs))\n"
    yield "map_zip_iota", one + "map(fn f32 (int i, f32 x) => x + f32(i), zip(iota(n), xs))\n"
    yield "map_lambda_returns_tuple_main_not", one + "map(fn (f32, f32) (f32 x) => (x, x), xs)\n"
    yield "main_tuple_lambda_scalar", "fun ([f32, n], [f32, n]) main([f32, n] xs) =\n  map(fn f32 (f32 x) => x, xs)\n"
    yield "main_triple", ("fun ([f32, n], [int, n], [bool, n]) main([f32, n] xs) =\n"
                          "  map(fn (f32, int, bool) (f32 x) => (x, int(x), x > 0f32), xs)\n")
    yield "main_nested_tuple", ("fun (([f32, n], [f32, n]), [f32, n]) main([f32, n] xs) =\n"
                                "  map(fn ((f32, f32), f32) (f32 x) => ((x, x), x), xs)\n")
    yield "main_tuple_2d", ("fun ([[f32, m], n], [[f32, m], n]) main([[f32, m], n] A) =\n"
                            "  map(fn ([f32, m], [f32, m]) ([f32, m] a) =>\n"
                            "    map(fn (f32, f32) (f32 v) => (v, -v), a), A)\n")
    yield "main_tuple_of_16", ("fun (" + ", ".join(["[f32, n]"] * 16) + ") main([f32, n] xs) =\n"
                               "  map(fn (" + ", ".join(["f32"] * 16) + ") (f32 x) => (" + ", ".join(["x"] * 16)
                               + "), xs)\n")
    yield "main_tuple_param", "fun [f32, n] main((f32, f32) t, [f32, n] xs) =\n  map(fn f32 (f32 x) => x, xs)\n"
    yield "main_tuple_array_param", ("fun [f32, n] main(([f32, n], [f32, n]) t) =\n"
                                     "  let (a, b) = t in map(fn f32 (f32 x) => x, a)\n")
    yield "main_array_of_tuples_param", ("fun [f32, n] main([(f32, f32), n] ps) =\n"
                                         "  map(fn f32 ((f32, f32) p) => 1f32, ps)\n")
    yield "main_bool_param", "fun [f32, n] main(bool b, [f32, n] xs) =\n  map(fn f32 (f32 x) => if b then x else -x, xs)\n"
    yield "main_all_params_unused", ("fun [f32, n] main([f32, n] xs, [f32, m] ys, f64 d, bool b, int q) =\n"
                                     "  map(fn f32 (f32 x) => 1f32, xs)\n")
    yield "main_lambda_param_unused", "fun [f32, n] main([f32, n] xs) =\n  map(fn f32 (f32 x) => 0f32, xs)\n"
    yield "scalar_let_between_levels", ("fun [[f32, m], n] main([[f32, m], n] A) =\n"
                                        "  map(fn [f32, m] ([f32, m] a) => let s = a[0] in\n"
                                        "    map(fn f32 (f32 v) => v + s, a), A)\n")
    yield "if_between_levels", ("fun [[f32, m], n] main([[f32, m], n] A) =\n"
                                "  map(fn [f32, m] ([f32, m] a) => if a[0] > 0f32 then\n"
                                "    map(fn f32 (f32 v) => v, a) else map(fn f32 (f32 v) => -v, a), A)\n")
    yield "four_maps", ("fun [[[[f32, a], b], c], d] main([[[[f32, a], b], c], d] X) =\n"
                        "  map(fn [[[f32, a], b], c] ([[[f32, a], b], c] x3) => map(fn [[f32, a], b] ([[f32, a], b] x2) "
                        "=> map(fn [f32, a] ([f32, a] x1) => map(fn f32 (f32 x0) => x0, x1), x2), x3), X)\n")
    # streamSeq lambdas of the wrong shape
    yield "stream_no_params", body("streamSeq(fn f32 () => 1f32, ys, 0f32)")
    yield "stream_only_kk", body("streamSeq(fn f32 (int kk) => 1f32, ys, 0f32)")
    yield "stream_no_acc", body("streamSeq(fn f32 (int kk, [f32, c] yc) => yc[0], ys)")
    yield "stream_no_chunk", body("streamSeq(fn f32 (int kk, f32 acc) => acc, 0f32)")
    yield "stream_kk_array", body("streamSeq(fn f32 ([int, c] kk, [f32, c] yc, f32 acc) => acc, ys, 0f32)")
    yield "stream_kk_i64", body("streamSeq(fn f32 (i64 kk, [f32, c] yc, f32 acc) => acc, ys, 0f32)")
    yield "stream_chunk_scalar", body("streamSeq(fn f32 (int kk, f32 yc, f32 acc) => acc, ys, 0f32)")
    yield "stream_acc_array", body("streamSeq(fn f32 (int kk, [f32, c] yc, [f32, c] acc) => acc[0], ys, ys)")
    yield "stream_acc_tuple", body("streamSeq(fn (f32, f32) (int kk, [f32, c] yc, (f32, f32) acc) => acc, ys, "
                                   "(0f32, 0f32))")
    yield "stream_acc_before_chunk", body("streamSeq(fn f32 (int kk, f32 acc, [f32, c] yc) => acc, 0f32, ys)")
    yield "stream_two_chunk_sizes", body("streamSeq(fn f32 (int kk, [f32, c] yc, [f32, d] xc, f32 acc) => acc, "
                                         "ys, ys, 0f32)")
    yield "stream_chunk_rank2", body("streamSeq(fn f32 (int kk, [[f32, m], c] rc, f32 acc) => acc + rc[0, 0], A, "
                                     "0f32)")
    yield "stream_chunk_rank2_wrong_inner", body("streamSeq(fn f32 (int kk, [[f32, q], c] rc, f32 acc) => acc, A, "
                                                 "0f32)")
    yield "stream_chunk_elem_type", body("streamSeq(fn f32 (int kk, [f64, c] yc, f32 acc) => acc, ys, 0f32)")
    yield "stream_returns_tuple_one_acc", body("streamSeq(fn f32 (int kk, [f32, c] yc, f32 acc) => (acc, acc), ys, "
                                               "0f32)")
    yield "stream_declares_tuple_one_acc", body("streamSeq(fn (f32, f32) (int kk, [f32, c] yc, f32 acc) => acc, "
                                                "ys, 0f32)")
    yield "stream_two_accs_unpacked_wrong", body("let (a, b, c2) = streamSeq(fn (f32, f32) (int kk, [f32, c] yc, "
                                                 "f32 a, f32 b) => (a, b), ys, 0f32, 0f32) in a")
    yield "stream_missing_init", body("streamSeq(fn f32 (int kk, [f32, c] yc, f32 acc) => acc, ys)")
    yield "stream_missing_array", body("streamSeq(fn f32 (int kk, [f32, c] yc, f32 acc) => acc, 0f32)")
    yield "stream_over_scalar", body("streamSeq(fn f32 (int kk, [f32, c] yc, f32 acc) => acc, x, 0f32)")
    yield "stream_over_zip", body("streamSeq(fn f32 (int kk, [f32, c] yc, [f32, c] zc, f32 acc) => acc, "
                                  "zip(ys, ys), 0f32)")
    yield "stream_over_row", body("streamSeq(fn f32 (int kk, [f32, c] rc, f32 acc) => acc + rc[0], A[0], 0f32)")
    yield "stream_over_literal", body("streamSeq(fn f32 (int kk, [f32, c] rc, f32 acc) => acc, 1f32, 0f32)")
    yield "stream_lambda_is_name", body("streamSeq(sqrt, ys, 0f32)")
    yield "stream_no_args", body("streamSeq()")
    yield "stream_only_lambda", body("streamSeq(fn f32 (int kk, [f32, c] yc, f32 acc) => acc)")
    yield "stream_with_map_inside", body("streamSeq(fn f32 (int kk, [f32, c] yc, f32 acc) => "
                                         "let z = map(fn f32 (f32 v) => v, yc) in acc, ys, 0f32)")
    yield "stream_index_past_chunk", body("streamSeq(fn f32 (int kk, [f32, c] yc, f32 acc) => acc + yc[c], ys, "
                                          "0f32)")
    yield "stream_chunk_used_whole", body("streamSeq(fn f32 (int kk, [f32, c] yc, f32 acc) => "
                                          "streamSeq(fn f32 (int k2, [f32, d] y2, f32 a2) => a2 + y2[0], yc, acc), "
                                          "ys, 0f32)")
    yield "stream_kk_used", body("streamSeq(fn f32 (int kk, [f32, c] yc, f32 acc) => acc + f32(kk), ys, 0f32)")
    yield "stream_bool_acc", body("let b = streamSeq(fn bool (int kk, [f32, c] yc, bool acc) => "
                                  "acc && yc[0] > 0f32, ys, true) in if b then x else 0f32")
    yield "stream_int_acc", body("f32(streamSeq(fn int (int kk, [f32, c] yc, int acc) => acc + c, ys, 0))")
    yield "stream_in_loop_bound", body("loop (s = x) = for j < int(streamSeq(fn f32 (int kk, [f32, c] yc, f32 acc) "
                                       "=> acc, ys, 0f32)) do s in s")
    yield "stream_in_if_cond", body("if streamSeq(fn f32 (int kk, [f32, c] yc, f32 acc) => acc, ys, 0f32) > x "
                                    "then x else 0f32")
    # transpose, zip and iota used wrongly
    yield "transpose_1d", "fun [f32, n] main([f32, n] xs) =\n  let t = transpose(xs) in\n  map(fn f32 (f32 x) => x, t)\n"
    yield "transpose_scalar", ("fun [f32, n] main(f32 s, [f32, n] xs) =\n  let t = transpose(s) in\n"
                               "  map(fn f32 (f32 x) => x, xs)\n")
    yield "transpose_twice", ("fun [f32, n] main([[f32, m], n] A) =\n  let t = transpose(transpose(A)) in\n"
                              "  map(fn f32 ([f32, m] a) => a[0], t)\n")
    yield "transpose_of_transpose_let", ("fun [f32, n] main([[f32, m], n] A) =\n  let t = transpose(A) in\n"
                                         "  let u = transpose(t) in\n  map(fn f32 ([f32, m] a) => a[0], u)\n")
    yield "transpose_3d", ("fun [f32, n] main([[[f32, p], m], n] A) =\n  let t = transpose(A) in\n"
                           "  map(fn f32 ([[f32, p], n] a) => a[0, 0], t)\n")
    yield "transpose_wrong_lambda_type", ("fun [f32, n] main([[f32, m], n] A) =\n  let t = transpose(A) in\n"
                                          "  map(fn f32 ([f32, m] a) => a[0], t)\n")
    yield "transpose_unknown", ("fun [f32, n] main([f32, n] xs) =\n  let t = transpose(B) in\n"
                                "  map(fn f32 (f32 x) => x, xs)\n")
    yield "transpose_inline_map_arg", ("fun [f32, m] main([[f32, m], n] A) =\n"
                                       "  map(fn f32 ([f32, n] c) => c[0], transpose(A))\n")
    yield "transpose_in_body", body("let t = transpose(A) in t[0, 0]")
    yield "transpose_of_row", ("fun [f32, n] main([[f32, m], n] A) =\n  let t = transpose(A[0]) in\n"
                               "  map(fn f32 ([f32, m] a) => a[0], A)\n")
    yield "transpose_unused", ("fun [f32, n] main([[f32, m], n] A) =\n  let t = transpose(A) in\n"
                               "  map(fn f32 ([f32, m] a) => a[0], A)\n")
    yield "transpose_shadowed", ("fun [f32, n] main([[f32, m], n] A) =\n  let A = transpose(A) in\n"
                                 "  map(fn f32 ([f32, n] a) => a[0], A)\n")
    yield "zip_scalars", body("let z = zip(x, x) in x")
    yield "zip_in_map_of_scalars", "fun [f32, n] main(f32 s) =\n  map(fn f32 (f32 a, f32 b) => a, zip(s, s))\n"
    yield "zip_nested", one + "map(fn f32 (f32 a, f32 b, f32 c) => a, zip(zip(xs, xs), xs))\n"
    yield "zip_of_rows", ("fun [f32, n] main([[f32, m], n] A) =\n"
                          "  map(fn f32 ([f32, m] a, [f32, m] b) => a[0] + b[0], zip(A, A))\n")
    yield "zip_different_ranks", ("fun [f32, n] main([[f32, m], n] A, [f32, n] xs) =\n"
                                  "  map(fn f32 ([f32, m] a, f32 x) => a[0] + x, zip(A, xs))\n")
    yield "zip_index", body("zip(ys, ys)[0]")
    yield "iota_as_scalar", body("iota(3) + x")
    yield "iota_bool", "fun [f32, n] main(int n) =\n  map(fn f32 (int i) => f32(i), iota(true))\n"
    yield "iota_map_param_float", "fun [f32, n] main(int n) =\n  map(fn f32 (f32 i) => i, iota(n))\n"
    yield "iota_huge", "fun [f32, 2147483648] main(int n) =\n  map(fn f32 (int i) => f32(i), iota(2147483648))\n"
    yield "iota_max", "fun [f32, 2147483647] main(int n) =\n  map(fn f32 (int i) => f32(i), iota(2147483647))\n"
    # tuples in expressions
    yield "tuple_as_result_of_body", body("(x, x)")
    yield "tuple_index", body("let t = (x, x) in t[0]")
    yield "tuple_compare", body("if (x, x) == (x, x) then x else x")
    yield "tuple_arith", body("let (a, b) = (x, x) + (x, x) in a")
    yield "tuple_in_if", body("let (a, b) = if x > 0f32 then (x, x) else (x, -x) in a - b")
    yield "tuple_in_if_mismatch", body("let (a, b) = if x > 0f32 then (x, x) else (x, 1) in a")
    yield "tuple_nested_pattern", body("let ((a, b), c) = ((x, x), x) in a")
    yield "loop_tuple_mismatch", body("loop (s = x, t = x) = for j < 3 do s in s")
    yield "loop_var_array", body("loop (r = ys) = for j < 3 do r in r[0]")
    yield "loop_init_from_stream", body("loop (s = streamSeq(fn f32 (int kk, [f32, c] yc, f32 acc) => acc, ys, "
                                        "0f32)) = for j < 3 do s + 1f32 in s")
    yield "loop_zero_trips", body("loop (s = x) = for j < 0 do s + 1f32 in s")
    yield "loop_negative_trips", body("loop (s = x) = for j < -5 do s + 1f32 in s")
    yield "loop_index_assigned", body("loop (j = 0) = for j < 3 do j + 1 in x")
    yield "prelude_scalar_of_array", ("fun [f32, n] main([f32, n] xs) =\n  let s = xs[0] in\n"
                                      "  map(fn f32 (f32 x) => x + s, xs)\n")
    yield "prelude_row", ("fun [f32, n] main([[f32, m], n] A) =\n  let r = A[0] in\n"
                          "  map(fn f32 ([f32, m] a) => a[0] + r[0], A)\n")
    yield "prelude_if_scalar", ("fun [f32, n] main([f32, n] xs, f32 s) =\n  let t = if s > 0f32 then s else -s in\n"
                                "  map(fn f32 (f32 x) => x * t, xs)\n")
    yield "prelude_loop_scalar", ("fun [f32, n] main([f32, n] xs, f32 s) =\n  let t = loop (a = s) = for j < n do "
                                  "a * 2f32 in a in\n  map(fn f32 (f32 x) => x * t, xs)\n")
    yield "prelude_tuple_let", ("fun [f32, n] main([f32, n] xs, f32 s) =\n  let (a, b) = (s, s) in\n"
                                "  map(fn f32 (f32 x) => x * a * b, xs)\n")


def _stream(arr, acc="0f32", elem="f32", body=None, c="c", k="kk"):
    """A streamSeq summing the elements of `arr` (or running `body`), one f32 accumulator."""
    body = body or f"loop (acc) = for q < {c} do acc + f32(xc[q]) in acc"
    return f"streamSeq(fn f32 (int {k}, [{elem}, {c}] xc, f32 acc) => {body}, {arr}, {acc})"

def _kernels():
    """Valid kernels of odd shapes, names and sizes: they reach the analysis, lowering and rendering."""
    S = _stream
    yield "k_stream_bool", "fun [f32, n] main([f32, n] xs, [bool, m] bs) =\n  map(fn f32 (f32 x) => " + S("bs", elem="bool") + ", xs)\n"
    yield "k_stream_i64", "fun [f32, n] main([f32, n] xs, [i64, m] bs) =\n  map(fn f32 (f32 x) => " + S("bs", elem="i64") + ", xs)\n"
    yield "k_stream_f64", "fun [f32, n] main([f32, n] xs, [f64, m] bs) =\n  map(fn f32 (f32 x) => " + S("bs", elem="f64") + ", xs)\n"
    yield "k_stream_own_array", "fun [f32, n] main([f32, n] xs) =\n  map(fn f32 (f32 x) => " + S("xs") + ", xs)\n"
    yield "k_stream_iota_0", "fun [f32, n] main([f32, n] xs) =\n  map(fn f32 (f32 x) => " + S("iota(0)", elem="int") + ", xs)\n"
    yield "k_stream_iota_1", "fun [f32, n] main([f32, n] xs) =\n  map(fn f32 (f32 x) => " + S("iota(1)", elem="int") + ", xs)\n"
    yield "k_stream_size_1", "fun [f32, n] main([f32, n] xs, [f32, 1] ys) =\n  map(fn f32 (f32 x) => " + S("ys") + ", xs)\n"
    yield "k_stream_size_max", "fun [f32, n] main([f32, n] xs, [f32, 2147483647] ys) =\n  map(fn f32 (f32 x) => " + S("ys") + ", xs)\n"
    yield "k_map_size_1", "fun [f32, 1] main([f32, 1] xs, [f32, m] ys) =\n  map(fn f32 (f32 x) => " + S("ys") + ", xs)\n"
    yield "k_map_size_max", "fun [f32, 2147483647] main([f32, 2147483647] xs, [f32, m] ys) =\n  map(fn f32 (f32 x) => " + S("ys") + ", xs)\n"
    yield "k_3d_sizes_1", ("fun [[[f32, 1], 1], 1] main([f32, m] ys) =\n  map(fn [[f32, 1], 1] (int i) => map(fn [f32, 1] (int j) => "
                           "map(fn f32 (int l) => " + S("ys") + ", iota(1)), iota(1)), iota(1))\n")
    yield "k_2d_same_array_twice", ("fun [[f32, n], n] main([f32, n] xs) =\n  map(fn [f32, n] (f32 a) => map(fn f32 (f32 b) => "
                                    + S("xs", body="loop (acc) = for q < c do acc + xc[q] * a - b in acc") + ", xs), xs)\n")
    yield "k_2d_transposed_stream", ("fun [[f32, m], n] main([[f32, m], n] A) =\n  let T = transpose(A) in\n"
                                     "  map(fn [f32, m] (int i) => map(fn f32 ([f32, n] col) => " + S("col") + ", T), iota(n))\n")
    yield "k_2d_stream_of_row_of_other", ("fun [[f32, m], n] main([[f32, m], n] A, [[f32, k], m] B) =\n"
                                          "  map(fn [f32, m] (int i) => map(fn f32 (int j) => " + S("B[j]") + ", iota(m)), iota(n))\n")
    yield "k_indirect_row", ("fun [f32, n] main([int, n] idx, [[f32, m], r] A) =\n"
                             "  map(fn f32 (int t) => " + S("A[t]") + ", idx)\n")
    yield "k_indirect_row_twice", ("fun [f32, n] main([int, n] idx, [[f32, m], r] A) =\n"
                                   "  map(fn f32 (int t) => " + S("A[idx[t]]") + ", idx)\n")
    yield "k_row_of_transposed", ("fun [f32, n] main([[f32, m], n] A0) =\n  let A = transpose(A0) in\n"
                                  "  map(fn f32 (int i) => " + S("A[0]") + ", iota(n))\n")
    yield "k_stream_in_if_varying", ("fun [f32, n] main([f32, n] xs, [f32, m] ys) =\n  map(fn f32 (f32 x) => if x > 0f32 then "
                                     + S("ys") + " else 0f32, xs)\n")
    yield "k_stream_in_loop_varying", ("fun [f32, n] main([int, n] xs, [f32, m] ys) =\n  map(fn f32 (int x) => loop (s = 0f32) = for j < x do s + "
                                       + S("ys") + " in s, xs)\n")
    yield "k_stream_in_loop_uniform", ("fun [f32, n] main([f32, n] xs, [f32, m] ys, int r) =\n  map(fn f32 (f32 x) => loop (s = 0f32) = for j < r do s + "
                                       + S("ys") + " in s, xs)\n")
    yield "k_two_streams_same_array", ("fun [f32, n] main([f32, n] xs, [f32, m] ys) =\n  map(fn f32 (f32 x) => "
                                       + S("ys") + " + " + S("ys") + ", xs)\n")
    yield "k_stream_eight_inputs", ("fun [f32, n] main([f32, n] xs, " + ", ".join(f"[f32, m] y{i}" for i in range(8)) + ") =\n"
                                    "  map(fn f32 (f32 x) => streamSeq(fn f32 (int kk, " + ", ".join(f"[f32, c] c{i}" for i in range(8))
                                    + ", f32 acc) => loop (acc) = for q < c do acc + " + " * ".join(f"c{i}[q]" for i in range(8))
                                    + " in acc, " + ", ".join(f"y{i}" for i in range(8)) + ", 0f32), xs)\n")
    yield "k_stream_many_accs", ("fun [f32, n] main([f32, n] xs, [f32, m] ys) =\n  map(fn f32 (f32 x) =>\n"
                                 "    let (" + ", ".join(f"a{i}" for i in range(12)) + ") = streamSeq(fn (" + ", ".join(["f32"] * 12)
                                 + ") (int kk, [f32, c] yc, " + ", ".join(f"f32 a{i}" for i in range(12)) + ") => loop ("
                                 + ", ".join(f"a{i}" for i in range(12)) + ") = for q < c do (" + ", ".join(f"a{i} + yc[q]" for i in range(12))
                                 + ") in (" + ", ".join(f"a{i}" for i in range(12)) + "), ys, " + ", ".join(["x"] * 12) + ") in "
                                 + " + ".join(f"a{i}" for i in range(12)) + ", xs)\n")
    yield "k_stream_mixed_accs", ("fun [f32, n] main([f32, n] xs, [f32, m] ys) =\n  map(fn f32 (f32 x) =>\n"
                                  "    let (a, b, c2, d) = streamSeq(fn (f32, int, bool, f64) (int kk, [f32, c] yc, f32 a, int b, bool c2, f64 d) =>"
                                  " (a + yc[0], b + c, c2 && yc[0] > 0f32, d + f64(yc[0])), ys, 0f32, 0, true, 0f64) in"
                                  " if c2 then a + f32(b) + f32(d) else a, xs)\n")
    yield "k_chunk_as_inner_stream", ("fun [f32, n] main([f32, n] xs, [f32, m] ys) =\n  map(fn f32 (f32 x) => streamSeq(fn f32 (int kk, [f32, c] yc, f32 acc) =>"
                                      " streamSeq(fn f32 (int k2, [f32, d] y2, f32 a2) => loop (a2) = for q < d do a2 + y2[q] in a2, yc, acc), ys, 0f32), xs)\n")
    yield "k_stream_helper_twice", ("fun f32 total([f32, d] v) = " + S("v") + "\n"
                                    "fun [f32, n] main([f32, n] xs, [f32, m] ys) =\n  map(fn f32 (f32 x) => total(ys) + total(xs), xs)\n")
    yield "k_int_output", "fun [int, n] main([int, n] xs) =\n  map(fn int (int x) => x * x % 7, xs)\n"
    yield "k_bool_output_2d", ("fun [[bool, m], n] main([[f32, m], n] A) =\n  map(fn [bool, m] ([f32, m] a) => map(fn bool (f32 v) => v > 0f32, a), A)\n")
    yield "k_i64_sizes_math", ("fun [i64, n] main([i64, n] xs, [f32, m] ys) =\n  map(fn i64 (i64 x) => x * i64(m) + i64(n), xs)\n")
    yield "k_no_stream_3d", ("fun [[[f32, p], m], n] main([[[f32, p], m], n] X) =\n  map(fn [[f32, p], m] ([[f32, p], m] a) => map(fn [f32, p] ([f32, p] b) =>"
                             " map(fn f32 (f32 v) => v * 2f32, b), a), X)\n")
    yield "k_3d_stream_transposed", ("fun [[[f32, q], m], n] main([[f32, k], m] A, [[f32, q], k] B0, int n) =\n  let B = transpose(B0) in\n"
                                     "  map(fn [[f32, q], m] (int z) => map(fn [f32, q] ([f32, k] a) => map(fn f32 ([f32, k] b) =>"
                                     " streamSeq(fn f32 (int kk, [f32, c] ac, [f32, c] bc, f32 acc) => loop (acc) = for t < c do acc + ac[t] * bc[t] in acc, a, b, f32(z)),"
                                     " B), A), iota(n))\n")
    yield "k_stream_index_by_kk", ("fun [f32, n] main([f32, n] xs, [f32, m] ys) =\n  map(fn f32 (f32 x) => streamSeq(fn f32 (int kk, [f32, c] yc, f32 acc) =>"
                                   " acc + ys[kk] + yc[0], ys, 0f32), xs)\n")
    yield "k_stream_whole_array_in_body", ("fun [f32, n] main([f32, n] xs, [f32, m] ys) =\n  map(fn f32 (f32 x) => streamSeq(fn f32 (int kk, [f32, c] yc, f32 acc) =>"
                                           " loop (acc) = for q < m do acc + ys[q] in acc, ys, 0f32), xs)\n")
    yield "k_guarded_index", ("fun [f32, n] main([f32, n] xs, [int, n] idx) =\n  map(fn f32 (f32 x, int i) => if i >= 0 && i < n then xs[i] else x, xs, idx)\n")
    yield "k_prelude_scalar_used_as_loop_bound", ("fun [f32, n] main([f32, n] xs, int r) =\n  let r2 = r * 2 in\n  map(fn f32 (f32 x) => loop (s = x) = for j < r2 do s * 0.5f32 in s, xs)\n")
    yield "k_size_param_is_stream_size", ("fun [f32, n] main(int n, int m) =\n  map(fn f32 (int i) => " + S("iota(m)", elem="int") + ", iota(n))\n")
    yield "k_size_param_literal_iota", ("fun [f32, n] main(int n) =\n  map(fn f32 (int i) => " + S("iota(5)", elem="int") + ", iota(n))\n")
    yield "k_cuda_keyword_names", ("fun [f32, n] main([f32, n] float, [f32, m] threadIdx, int blockDim) =\n"
                                   "  map(fn f32 (f32 return) => streamSeq(fn f32 (int __syncthreads, [f32, struct] class, f32 auto) =>"
                                   " loop (auto) = for template < struct do auto + class[template] * f32(blockDim) in auto, threadIdx, return), float)\n")
    yield "k_prime_names", ("fun [f32, n'] main([f32, n'] x', [f32, m'] y') =\n  map(fn f32 (f32 a') => streamSeq(fn f32 (int k', [f32, c'] c'', f32 acc') =>"
                            " loop (acc') = for q' < c' do acc' + c''[q'] in acc', y', a'), x')\n")
    yield "k_generated_looking_names", ("fun [f32, n] main([f32, n] tid, [f32, m] smem, int tiler_main_launch) =\n"
                                        "  map(fn f32 (f32 tile) => streamSeq(fn f32 (int i0, [f32, chunk] s_smem, f32 acc0) =>"
                                        " loop (acc0) = for blockIdx < chunk do acc0 + s_smem[blockIdx] in acc0, smem, tile), tid)\n")
    yield "k_underscore_names", ("fun [f32, _n] main([f32, _n] _, [f32, __] ___) =\n  map(fn f32 (f32 _x) => streamSeq(fn f32 (int _k, [f32, _c] __c, f32 _a) =>"
                                 " loop (_a) = for _q < _c do _a + __c[_q] in _a, ___, _x), _)\n")
    yield "k_long_names", ("fun [f32, " + "n" * 300 + "] main([f32, " + "n" * 300 + "] " + "x" * 300 + ", [f32, m] ys) =\n  map(fn f32 (f32 "
                           + "e" * 300 + ") => " + S("ys", acc="e" * 300) + ", " + "x" * 300 + ")\n")
    yield "k_float_mod_pow", ("fun [f32, n] main([f32, n] xs) =\n  map(fn f32 (f32 x) => pow(x % 3f32, floor(x)) + rsqrt(abs(x) + 1f32) + exp(log(x)), xs)\n")
    yield "k_f64_everything", ("fun [f64, n] main([f64, n] xs, [f64, m] ys) =\n  map(fn f64 (f64 x) => streamSeq(fn f64 (int kk, [f64, c] yc, f64 acc) =>"
                               " loop (acc) = for q < c do acc + sqrt(abs(yc[q] - x)) in acc, ys, 0f64), xs)\n")
    yield "k_short_circuit_index", ("fun [f32, n] main([f32, n] xs, [f32, m] ys) =\n  map(fn f32 (f32 x) => streamSeq(fn f32 (int kk, [f32, c] yc, f32 acc) =>"
                                    " loop (acc) = for q < c do if q + 1 < c && yc[q + 1] > yc[q] then acc + 1f32 else acc in acc, ys, 0f32), xs)\n")
    yield "k_unused_stream", ("fun [f32, n] main([f32, n] xs, [f32, m] ys) =\n  map(fn f32 (f32 x) => let s = " + S("ys") + " in x, xs)\n")
    yield "k_stream_returns_init", ("fun [f32, n] main([f32, n] xs, [f32, m] ys) =\n  map(fn f32 (f32 x) => streamSeq(fn f32 (int kk, [f32, c] yc, f32 acc) => acc, ys, x), xs)\n")
    yield "k_stream_constant_body", ("fun [f32, n] main([f32, n] xs, [f32, m] ys) =\n  map(fn f32 (f32 x) => streamSeq(fn f32 (int kk, [f32, c] yc, f32 acc) => 1f32, ys, x), xs)\n")
    yield "k_map_over_transposed_at_level0", ("fun [f32, m] main([[f32, m], n] A) =\n  let T = transpose(A) in\n  map(fn f32 ([f32, n] col) => " + S("col") + ", T)\n")
    yield "k_loop_16_vars", ("fun [f32, n] main([f32, n] xs) =\n  map(fn f32 (f32 x) => loop (" + ", ".join(f"v{i} = x" for i in range(16))
                             + ") = for j < 4 do (" + ", ".join(f"v{(i + 1) % 16} * 0.5f32" for i in range(16)) + ") in " + " + ".join(f"v{i}" for i in range(16)) + ", xs)\n")


def _cuda_names():
    """Names tiler accepts that are words of C++ or CUDA: the CUDA must rename them (test_cuda_of_odd_names)."""
    one = "fun [f32, n] main([f32, n] xs) =\n  map(fn f32 (f32 {0}) => {1}, xs)\n"
    yield "cuda_renamed_words", ("fun [f32, n] main([f32, n] float, [f32, m] threadIdx, int blockDim) =\n"
                                 "  map(fn f32 (f32 return) => streamSeq(fn f32 (int class, [f32, struct] auto, "
                                 "f32 int2) => loop (int2) = for template < struct do int2 + auto[template] * "
                                 "f32(blockDim) + sqrt(return) in int2, threadIdx, return), float)\n")
    yield "cuda_word_and", one.format("and", "and")
    yield "cuda_word_nullptr", one.format("nullptr", "nullptr")
    yield "cuda_word_shared", one.format("__shared__", "__shared__")
    yield "cuda_word_NAN", one.format("NAN", "NAN")
    yield "cuda_word_sqrtf", one.format("sqrtf", "sqrt(sqrtf)")
    yield "cuda_word_dim3", "fun [f32, n] main([f32, n] dim3) =\n  map(fn f32 (f32 x) => x, dim3)\n"
    for word in ("linux", "typeof", "M_PI", "M_PIf", "INT_MIN", "EOF", "CHAR_BIT", "errno", "stdout"):
        yield f"cuda_word_macro_{word}", one.format(word, f"{word} * 2f32")
    yield "cuda_word_syncthreads", ("fun [f32, n] main([f32, n] xs, [f32, m] ys) =\n  map(fn f32 (f32 x) =>\n"
                                    "    streamSeq(fn f32 (int __syncthreads, [f32, c] yc, f32 acc) =>\n"
                                    "      loop (acc) = for q < c do acc + yc[q] * x in acc, ys, 0f32), xs)\n")


def _beyond():
    """Past the sizes the language reference promises."""
    # a let whose value is a let, ten thousand deep: accepted (the pyparsing parser ran out of recursion on it,
    # a located error; tiler.compile raised RecursionError before that)
    yield "let_values_10000", body("let a = " * 10_000 + "x" + " in x" * 10_000)
    # 1,500 nested loops: the CUDA indents each level further, so it grows with the square of the depth
    yield "loops_1500", body("let s = x in " + "loop (s) = for j < 2 do " * 1500 + "s" + " in s" * 1500)
    # thirty thousand comparisons joined by ||: 360 KB, linear, but seconds a command
    yield "or_chain_3000", body("if " + " || ".join(["x > 0f32"] * 3_000) + " then x else 0f32")


def programs() -> list[tuple[str, str | bytes]]:
    """Every adversarial program, named, in a fixed order; the first of two equal texts is kept."""
    seen, out = set(), []
    for group in (BASES.items(), _syntax(), _truncations(), _dropped_and_doubled(), _names(), _shadowing(),
                  _keywords(), _types(), _arities(), _sizes(), _literals(), _encoding(), _deep(), _helpers(),
                  _forms(), _kernels(), _cuda_names(), _beyond()):
        for name, text in group:
            if text not in seen:
                seen.add(text)
                out.append((name, text))
    return out


PROGRAMS = programs()


# ---------------------------------------------------------------------------
# running one program


def _write(folder: Path, name: str, program: str | bytes) -> Path:
    path = folder / f"{name}.fut"
    path.write_bytes(program if isinstance(program, bytes) else program.encode("utf-8"))
    return path


def _located(text: str, name: str) -> bool:
    """A user error names the file, line and column first, as the README promises."""
    return re.match(re.escape(name) + r":\d+:\d+: error: ", text) is not None


def _cli(runner: CliRunner, path: Path, args: list[str]) -> tuple[int, float, str]:
    """One command in this process: (exit code, seconds, what is wrong or '')."""
    start = time.perf_counter()
    result = runner.invoke(cli, args, env={"COLUMNS": "120"})
    seconds = time.perf_counter() - start
    code, problem = result.exit_code, ""
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        # CliRunner turns an escaped exception into exit 1: it must not pass for a user error
        problem = f"escaped {type(result.exception).__name__}: {str(result.exception)[:600]}"
    elif code not in (0, 1):
        problem = f"exit {code}: {result.stderr.strip()[:600]}"
    elif TRACEBACK in result.output:
        problem = "a traceback in the output"
    elif code == 1 and not _located(result.stderr, str(path)):
        problem = f"an error without file:line:col: {result.stderr.strip()[:300]}"
    elif seconds > SECONDS_A_RUN:
        problem = f"took {seconds:.1f} s"
    return code, seconds, problem


def _api(program: str | bytes, path: Path) -> tuple[int, float, str]:
    """tiler.compile on the text (on the file, for bytes that are not UTF-8): 0 compiled, 1 refused."""
    start = time.perf_counter()
    code, problem = 0, ""
    try:
        compiled = tiler.compile(program if isinstance(program, str) else path, file="adv.fut")
        if not compiled.cuda:
            problem = "compiled to no CUDA"
    except UserError as exc:
        code = 1
        try:
            shown = exc.render()
        except Exception as bug:  # noqa: BLE001 - a message that cannot be shown is a finding too
            problem = f"UserError.render raised {type(bug).__name__}: {bug}"
        else:
            # text is named by `file`; a file that is not UTF-8 text is named by its path
            if not exc.diagnostics or not (_located(shown, "adv.fut") or _located(shown, str(path))):
                problem = f"a UserError without file:line:col: {shown[:300]}"
    except PlainError as exc:
        code = 1
        if TRACEBACK in exc.render():
            problem = "a traceback in a PlainError"
    except Exception as exc:  # noqa: BLE001 - CompilerBug, RecursionError, TypeError...: what this test hunts
        code, problem = 3, f"raised {type(exc).__name__}: {str(exc)[:600]}"
    seconds = time.perf_counter() - start
    if not problem and seconds > SECONDS_A_RUN:
        problem = f"took {seconds:.1f} s"
    return code, seconds, problem


def examine(name: str, program: str | bytes, folder: Path, runner: CliRunner, first_problem: bool = False) -> dict:
    """Run check, explain, compile -o and tiler.compile on one program. 'problems' lists what is wrong;
    with `first_problem`, the runs stop at the first (a known failure need not be shown twice)."""
    path = _write(folder, name, program)
    out = folder / f"{name}.cu"
    steps = {"check": lambda: _cli(runner, path, ["check", str(path)]),
             "explain": lambda: _cli(runner, path, ["explain", str(path)]),
             "compile": lambda: _cli(runner, path, ["compile", str(path), "-o", str(out)]),
             "api": lambda: _api(program, path)}
    codes, seconds, problems = {}, {}, []
    for step, run in steps.items():
        codes[step], seconds[step], problem = run()
        if problem:
            problems.append(f"{step}: {problem}")
            if first_problem:
                break
    if not problems:
        # one front end: nothing accepts what check refuses, and both ways of compiling agree
        if codes["check"] == 1 and 0 in (codes["explain"], codes["compile"], codes["api"]):
            problems.append(f"check refused it, yet {codes}")
        if codes["compile"] != codes["api"]:
            problems.append(f"`compile` and tiler.compile disagree: {codes}")
        if codes["compile"] == 0 and not out.stat().st_size:
            problems.append("compile wrote an empty .cu")
    return {"name": name, "codes": codes, "seconds": seconds, "problems": problems}


# ---------------------------------------------------------------------------
# the tests

CHUNKS = 12
RESULTS: dict[str, dict] = {}  # name -> examine's result, kept for the summary test
REGULAR = PROGRAMS


@pytest.fixture(scope="module")
def runner():
    return CliRunner()


@pytest.mark.parametrize("chunk", range(CHUNKS), ids=lambda c: f"chunk{c:02d}")
def test_programs_are_accepted_or_refused_with_a_location(chunk, tmp_path, runner):
    failures = []
    for name, program in REGULAR[chunk::CHUNKS]:
        result = examine(name, program, tmp_path, runner)
        RESULTS[name] = result
        if result["problems"]:
            failures.append(f"{name}: " + "; ".join(result["problems"]))
    assert not failures, f"{len(failures)} program(s) failed:\n" + "\n".join(failures)


@pytest.mark.nvcc
@pytest.mark.skipif(nvcc_path() is None, reason="nvcc is not on PATH")
@pytest.mark.parametrize("name", [name for name, _ in PROGRAMS if name.startswith("cuda_")])
def test_cuda_of_odd_names(name, tmp_path):
    """A name the language allows must not break the CUDA: nvcc (front end only, a fraction of a second)
    takes what tiler.compile gives."""
    cuda = tmp_path / f"{name}.cu"
    cuda.write_text(tiler.compile(dict(PROGRAMS)[name]).cuda)
    done = subprocess.run([nvcc_path(), "-arch=sm_90", "--ptx", str(cuda), "-o", str(tmp_path / "out.ptx")],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]


# The real console script on a fixed sample: its exit codes, no traceback, and the same answer as CliRunner.
SAMPLE = ["nbody", "grid", "tuple_out", "empty", "bom_then_program", "crlf", "nul_middle", "invalid_utf8_mid",
          "parens_250", "if_else_chain_300", "helper_twice_20", "int_5000_digits"]


def _subprocess(args: list[str]) -> tuple[int, float, str]:
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "tiler", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=120, env={**os.environ, "COLUMNS": "120"})
    return done.returncode, time.perf_counter() - start, done.stderr


def test_the_console_script_on_a_sample(tmp_path, runner):
    programs = dict(PROGRAMS)
    jobs = []
    for name in SAMPLE:
        path = _write(tmp_path, name, programs[name])
        for args in (["check", str(path)], ["explain", str(path)], ["compile", str(path), "-o", str(tmp_path / "o.cu")]):
            jobs.append((name, path, args))
    # two at a time: each waits mostly for Python to start
    with ThreadPoolExecutor(2) as pool:
        answers = list(pool.map(lambda job: _subprocess(job[2]), jobs))
    failures = []
    for (name, path, args), (code, seconds, stderr) in zip(jobs, answers):
        in_process = runner.invoke(cli, args, env={"COLUMNS": "120"}).exit_code
        where = f"{name} `{args[0]}`"
        if code not in (0, 1):
            failures.append(f"{where}: exit {code}: {stderr[-600:]}")
        elif TRACEBACK in stderr:
            failures.append(f"{where}: a traceback")
        elif code == 1 and not _located(stderr, str(path)):
            failures.append(f"{where}: an error without file:line:col: {stderr[:300]}")
        elif code != in_process:
            failures.append(f"{where}: exit {code}, but {in_process} in this process")
        elif seconds > SECONDS_A_RUN:
            failures.append(f"{where}: took {seconds:.1f} s")
    assert not failures, "\n".join(failures)
    assert {code for code, _, _ in answers} == {0, 1}  # the sample has both outcomes


def test_the_programs_are_many_distinct_and_small():
    assert programs() == PROGRAMS  # deterministic
    names = [name for name, _ in PROGRAMS]
    assert len(PROGRAMS) >= 277
    assert len(set(names)) == len(names)
    assert len({text for _, text in PROGRAMS}) == len(PROGRAMS)
    assert max(len(text) for _, text in PROGRAMS) < 1_000_000
    assert set(SAMPLE) <= set(names)
    # tiler.compile reads a one-line text ending in .fut as a path
    assert not [n for n, t in PROGRAMS if isinstance(t, str) and "\n" not in t and t.endswith(".fut")]


@pytest.mark.parametrize("name", BASES)
def test_bases_are_valid(name, runner, tmp_path):
    """The truncations and token drops mean something only if what they start from is accepted."""
    assert examine(name, BASES[name], tmp_path, runner)["codes"] == {"check": 0, "explain": 0, "compile": 0,
                                                                    "api": 0}


def test_both_outcomes_occur_often(tmp_path, runner):
    """Runs last: the chunks above must not have passed by accepting, or refusing, everything."""
    for name, program in REGULAR:  # when the chunks were deselected
        if name not in RESULTS:
            RESULTS[name] = examine(name, program, tmp_path, runner)
    outcomes = [result["codes"]["check"] for result in RESULTS.values()]
    accepted, refused = outcomes.count(0), outcomes.count(1)
    assert accepted >= 150 and refused >= 500, (accepted, refused)
    compiled = sum(result["codes"].get("compile") == 0 for result in RESULTS.values())
    assert compiled >= 150
    slowest = sorted(((s, name, step) for name, r in RESULTS.items() for step, s in r["seconds"].items()),
                     reverse=True)[:5]
    print(f"\n{len(PROGRAMS)} programs: {accepted} accepted, {refused} refused; slowest runs: "
          + ", ".join(f"{name} {step} {s:.2f} s" for s, name, step in slowest))
