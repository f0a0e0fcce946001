"""Values of the reference interpreter and how streams are split.

A value inside the kernel is a numpy array whose first `B` axes are the
kernel's parallel dimensions (length 1 where it does not vary), followed by
its own axes. `Chunking` says how a `streamSeq` splits its arrays.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import bfloat16
from ..check.types import Array, Scalar, Type
from ..errors import Diagnostic, UserError
from ..source import Span

# a bf16 is held in a float32 whose value bf16 represents exactly (tiler/bfloat16.py): numpy has no bfloat16
DTYPES = {"f32": np.float32, "f64": np.float64, "i32": np.int32, "i64": np.int64, "bool": np.bool_,
          "f16": np.float16, "bf16": np.float32}


WIDE = dict(DTYPES, f32=np.float64)  # a float64 reference for f32 programs


def dtype(t: Type, wide: bool = False):
    table = WIDE if wide else DTYPES
    if isinstance(t, Array):
        return np.dtype(table[t.elem.kind])
    if isinstance(t, Scalar):
        return np.dtype(table[t.kind])
    raise TypeError(f"no dtype for {t}")


def narrowed(kind: str, values) -> np.ndarray:
    """Values of any numeric dtype rounded to a 16-bit float (to nearest,
    ties to even), as the interpreter holds that kind."""
    if kind == "f16":
        return np.asarray(values).astype(np.float16)
    return bfloat16.rounded(values)


class RunError(UserError):
    """The program did something wrong while running (index out of range)."""

    def __init__(self, span: Span, message: str, hint: str = ""):
        super().__init__([Diagnostic(span, message, hint)])


class NonUniform(Exception):
    """A size differs between the lanes of a vectorised evaluation."""


@dataclass(frozen=True)
class Chunking:
    """How streams are split: `whole` (one chunk), `fixed` (`size` each) or
    `random` (random lengths from `seed`). A program whose result depends on
    the split is wrong, and running several splits exposes it."""

    kind: str = "whole"
    size: int = 0
    seed: int = 0

    @classmethod
    def parse(cls, text: str) -> "Chunking":
        if text in ("whole", "one"):
            return cls("whole")
        if text.startswith("random"):
            _, _, seed = text.partition(":")
            return cls("random", seed=int(seed or 0))
        size = int(text)
        if size < 1:
            raise ValueError("a chunk size must be at least 1")
        return cls("fixed", size=size)

    def __str__(self) -> str:
        return {"whole": "whole", "fixed": str(self.size), "random": f"random:{self.seed}"}[self.kind]

    def splits(self, n: int, rng: np.random.Generator) -> list[tuple[int, int]]:
        """Consecutive (start, length) chunks covering [0, n)."""
        if n == 0:
            return []
        if self.kind == "whole":
            return [(0, n)]
        if self.kind == "fixed":
            return [(s, min(self.size, n - s)) for s in range(0, n, self.size)]
        out, start = [], 0
        while start < n:
            length = int(rng.integers(1, max(2, n // 3 + 1)))
            length = min(length, n - start)
            out.append((start, length))
            start += length
        return out
