"""Matrix products for the fuzzer (`tiler fuzz --products`): the shape the
matrix units take (analyse/tensor_cores.py), drawn at random around it, so
that random programs reach each way the units read their tiles. Each
program multiplies A (n x k) by B (k x m):

- the element type: f32, f16, bf16 (each factor read as `f32(x[j])`) or
  f64, summed in f32 or f64;
- A given as it is or transposed (`transpose(A0)`: its tile read
  column-major), B given as rows of Bᵀ or transposed (`transpose(B0)`);
- the factors in either order, the sum starting at zero, a scalar or a
  bias per column, and an epilogue (a scale, a ReLU, a row's own term).

The generator writes the program's text and parses it: the text is what a
failure keeps.
"""
from __future__ import annotations

import random

from ..syntax import ast, parse

TYPES = ("f32", "f16", "bf16", "f64")


def product(seed: int) -> ast.Program:
    """Seed `seed`'s product program."""
    return parse(product_text(seed), f"product{seed}.fut")


def product_text(seed: int) -> str:
    r = random.Random(seed ^ 0x9A7)
    elem = r.choice(TYPES)
    acc = "f64" if elem == "f64" else "f32"
    narrow = elem in ("f16", "bf16")
    params, lets = [], []
    if r.random() < 0.5:
        params.append(f"[[{elem}, n], k] A0")
        lets.append("let A = transpose(A0) in")
    else:
        params.append(f"[[{elem}, k], n] A")
    if r.random() < 0.5:
        params.append(f"[[{elem}, m], k] B0")
        lets.append("let B = transpose(B0) in")
    else:
        params.append(f"[[{elem}, k], m] B")

    def factor(name: str) -> str:
        return f"{acc}({name}[j])" if narrow else f"{name}[j]"

    x, y = factor("ac"), factor("bc")
    term = f"{x} * {y}" if r.random() < 0.5 else f"{y} * {x}"
    step = f"acc + {term}" if r.random() < 0.7 else f"{term} + acc"
    start = r.choice(["zero", "zero", "scalar", "bias"])
    init = f"0{acc}"
    if start == "scalar":
        params.append(f"{acc} s")
        init = "s"
    elif start == "bias":
        params.append(f"[{acc}, m] bias")
        init = "bias[jb]"
    own = r.random() < 0.3  # a term of the row's own after the sum (the output's epilogue reads A's row)
    if own:
        params.append(f"[{acc}, n] rowterm")
    stream = (f"streamSeq(fn {acc} (int kk, [{elem}, c] ac, [{elem}, c] bc, {acc} acc) =>\n"
              f"                          loop (acc) = for j < c do {step} in acc\n"
              f"                       , a, b, {init})")
    epilogue = r.choice(["p", "p", f"p * 0.5{acc}", f"max(p, 0{acc})"])
    if own:
        epilogue = f"{epilogue} + rowterm[ib]"
    inner = f"let p = {stream} in {epilogue}"
    body = (f"  map(fn [{acc}, m] (int ib, [{elem}, k] a) =>\n"
            f"        map(fn {acc} (int jb, [{elem}, k] b) =>\n"
            f"              {inner}\n"
            f"           , zip(iota(m), B))\n"
            f"     , zip(iota(n), A))\n")
    head = f"fun [[{acc}, m], n] main({', '.join(params)}) =\n"
    return head + "".join(f"  {line}\n" for line in lets) + body
