"""A split-K launch's stage, as lower_schedule writes it (split_k.py): the
tiled kernel's blocks along z each fold a share of one stream's
iterations, and store their points' carried values where the launch's
last kernel reads them."""
from __future__ import annotations

import functools
from dataclasses import dataclass

from .. import kir
from ..errors import CompilerBug
from ..kir.build import add, const, mul
from .params import flat_index, size_name
from .values import blocks_a_row, in_kernel_min, partial_slot


@dataclass(frozen=True)
class KShare:
    """A split-K stage's stream (its program point): block z of the grid
    folds `share` of its iterations (an int expression, a multiple of the
    chunk), from block z times that on, starting from `starts` (its
    operators' identities)."""

    stream: int
    share: object
    starts: tuple


@dataclass(frozen=True)
class KStage:
    """The stage of a split-K launch, as lower_schedule writes it: the
    blocks along z share stream `stream`'s `length` iterations, one each
    `per` (a multiple of the `chunk`) while they are at most `most` a row,
    then as many as the longer shares need (each a whole number of chunks:
    some may be left with none); each folds its share from `starts` and
    stores its points' carried values to scratch arrays `names`, where the
    launch's last kernel (split.py, several blocks a row, counting the
    blocks alike) reads them."""

    stream: int  # the stream's program point
    length: object  # its iterations: a size's Binder or a number
    chunk: int
    starts: tuple  # kir constants, one a carried value
    names: tuple[str, ...]
    ctypes: tuple[str, ...]
    per: int  # iterations a block folds while the blocks a row are fewer than `most`
    most: int  # blocks a row, at most
    columns: bool  # the last kernel's rows lie side by side: a block's partial results lie together

    def blocks(self, n):
        """The blocks a row (along z) for `n` iterations, as the last kernel counts them."""
        return blocks_a_row(n, in_kernel_min, self.per, self.most)

    def share(self, n):
        """Iterations a block folds: the row's among its blocks, rounded up to whole chunks."""
        each = add(kir.Bin("/", kir.Bin("-", n, const(1)), self.blocks(n)), const(1))
        return mul(kir.Bin("/", add(each, const(self.chunk - 1)), const(self.chunk)), const(self.chunk))

    def stores(self, gtids, sizes, n, values, span) -> tuple:
        """A point's carried values, where the last kernel reads block z's
        partial result of its row (split.Several.slot; `n`: the stream's length)."""
        if values is None or len(values) != len(self.names):
            raise CompilerBug("a split-K stage did not fold its stream")
        rows = functools.reduce(mul, sizes) if self.columns else None
        slot = partial_slot(kir.BlockIdx("z"), flat_index(gtids, sizes, lambda extent: extent), self.blocks(n), rows)
        return tuple(kir.Store(name, slot, v, kir.GLOBAL, span) for name, v in zip(self.names, values))

    def grid(self, axes: tuple) -> tuple:
        """The tiled kernel's grid with the blocks a row along z."""
        if axes[2] is not None:
            raise CompilerBug("a split-K stage's grid has no free z axis")
        return axes[:2] + ((size_name(self.length), self.per, self.most),)
