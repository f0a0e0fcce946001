"""Values while lowering: scalars are kernel-IR expressions, arrays are views.

A `View` is an array in memory without a copy: a buffer, the flat offset of
its first element, and a stride and size per dimension (row-major for
parameters; a prelude transpose swaps two strides; a row fixes the outer
index; a chunk shifts the offset). An iota is a view with no buffer whose
elements are their own flat offsets.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from .. import kir, target
from ..kir.build import add, const, mul, substitute


@dataclass(frozen=True)
class View:
    buffer: str | None  # None: an iota
    offset: object
    strides: tuple
    sizes: tuple
    ctype: str
    space: str = "global"

    def index(self, indices):
        flat = self.offset
        for i, s in zip(indices, self.strides):
            flat = add(flat, mul(i, s))
        if len(indices) < len(self.strides):
            return View(self.buffer, flat, self.strides[len(indices):], self.sizes[len(indices):], self.ctype,
                        self.space)
        return flat if self.buffer is None else kir.Load(self.buffer, flat, self.space)

    def shifted(self, start):
        """The view starting at element `start` of the outer dimension."""
        return dataclasses.replace(self, offset=add(self.offset, mul(start, self.strides[0])))

    def at(self, i):
        """The flat offset of element `i` of the outer dimension."""
        return add(self.offset, mul(i, self.strides[0]))


@dataclass(frozen=True)
class Joined:
    """The rows a loop picks, laid end to end (analyse/joins.py): element q
    is element q % length of `row` as the loop's iteration q / length picks
    it (`row`'s offset is written in the loop's index, `index`)."""

    row: View
    index: str
    length: object

    @property
    def buffer(self) -> str:
        return self.row.buffer

    @property
    def ctype(self) -> str:
        return self.row.ctype

    def at(self, q):
        which = substitute(self.row.offset, {self.index: kir.Bin("/", q, self.length)})
        return add(which, mul(kir.Bin("%", q, self.length), self.row.strides[0]))


def all_of(conds):
    """The conditions joined by `&&` (true where there are none)."""
    out = None
    for c in conds:
        out = c if out is None else kir.Bin("&&", out, c)
    return out if out is not None else const(True, "bool")


def any_of(conds):
    """The conditions joined by `||` (None where there are none)."""
    out = None
    for c in conds:
        out = c if out is None else kir.Bin("||", out, c)
    return out


def both(a, b):
    """`a && b`, either of which may be None (no condition)."""
    return b if a is None else a if b is None else kir.Bin("&&", a, b)


def product(sizes: tuple, wide: bool = False):
    """Sizes (names or numbers) multiplied (64-bit where there are several, or where `wide`)."""
    terms = [const(s) if isinstance(s, int) else kir.Ref(s) for s in sizes]
    out = terms[0] if len(terms) == 1 and not wide else kir.Cast(target.INDEX, terms[0])
    for t in terms[1:]:
        out = kir.Bin("*", out, t)
    return out


def joined(*parts: str) -> str:
    """A version's reasons, the empty ones left out."""
    return "; ".join(p for p in parts if p)


def block_tid(block):
    """The linear thread index within the block (threadIdx.x fastest)."""
    tid = kir.ThreadIdx("x")
    if len(block.spans) > 1:
        tid = add(mul(kir.ThreadIdx("y"), const(block.extents[block.spans[0]])), tid)
    return tid


def clamped(i, last):
    """`i` clamped into [0, last] (a copy's element index into its array:
    an element past an edge is one no executed read uses)."""
    return kir.Call("max", (minimum(i, last), const(0)))


def minimum(a, b):
    """A clamp tiler adds (a thread or a copied row past the end stands in for
    the last): one the CUDA front end cannot rewrite (tiler.cuh says why)."""
    return kir.Call(kir.CLAMP, (a, b))


def blocks_a_row(n, smaller, share: int, most: int):
    """min(ceil(n / share), most) blocks for `n` iterations, an int
    expression (0 for none; a size is at most target.MAX_SIZE, so the sum
    cannot overflow); `smaller(e, m)` spells the minimum (a launch's select,
    a kernel's `min`)."""
    return smaller(kir.Bin("/", add(n, const(share - 1)), const(share)), const(most))


def at_most(e, n):
    """The smaller of two int expressions, as a launch computes it (a select: host code has no `min`)."""
    return kir.Select(kir.Bin("<", e, n), e, n)


def in_kernel_min(e, n):
    """The smaller of two int expressions, as a kernel computes it."""
    return kir.Call("min", (e, n))


def partial_slot(block, row, blocks, rows=None):
    """Where block `block`'s partial result of row `row` lies in a scratch
    array of several blocks a row (`blocks` of them): the row's blocks
    together; with `rows` (the rows side by side, all of them), each
    block's partial results of every row together, so that a warp's
    consecutive rows write and read one run."""
    if rows is not None:
        return add(mul(kir.Cast(target.INDEX, block), rows), row)
    return add(mul(kir.Cast(target.INDEX, row), blocks), block)
