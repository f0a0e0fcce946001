"""Every rewrite tiler makes once a program is analysed, as a named pass:
one list (`PASSES`), each pass saying what it rewrites, who runs it and
where what it produced is kept.

- join rows (`join_rows.py`), a kernel program under a schedule: each loop
  the schedule joins becomes one stream over its rows laid end to end. Run
  by lower for each schedule it lowers; the kernel records it.
- reassociate (`reassociate.py`), a float chain, under `--fast-math` only:
  sums and products reordered into multiply-adds as lower writes them; the
  kernel records it where a chain's order changed.
- unclamp (`unclamp.py`), a lowered body: for the blocks a schedule finds
  inside every dim, the body without tiler's clamps and store guard; lower
  runs it on the kernel's body before register tiling, and records it.
- matrix units (`matrix_units.py`), a lowered body: a register-tiled
  product's full chunks as warp-wide matrix instructions (16-bit inputs
  always, f64 ones summed from zero on sm_90 too, f32 and other f64 under
  `--tensor-cores`); lower runs it before register
  tiling's steps where the plan put the product on the units, and records it.
- strip-mine, interchange, sequentialise (`register_tile.py`), a kernel's
  body, the design note's register tiling: run by lower on the body it
  writes for one point a thread; the kernel keeps the body after each
  (`kir.Kernel.trace`), which `explain --show-rewrites` and
  `--show-transformed` print.
- widen (`widen.py`) and prune (`prune.py`), a lowered module: stages of
  the pipeline of their own, which keeps each one's module (`--emit`).

The kernel stage's own rewrites (helpers inlined, dead lets removed, loops
read as streams, reads promoted to stream inputs, a thread's own rows) are
not here: they put every program in the one form the analysis reads,
whatever the schedule (tiler/kernel/).
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Callable

from .join_rows import join_rows
from .matrix_units import NAME as MATRIX_UNITS
from .matrix_units import on_matrix_units
from .prune import prune
from .reassociate import reassociate
from .register_tile import REGISTER_TILING
from .unclamp import unclamped
from .widen import widened_module


class Subject(Enum):
    """What a pass rewrites, which fixes how it is called (its `run`):
    PROGRAM: (T.Kernel, Schedule) -> (T.Kernel, Schedule, names of the
    rewrites made); CHAIN: (T.Exp, loop levels) -> T.Exp; BODY: kir
    statements (and what the rewrite needs) -> kir statements; MODULE:
    kir.Module -> kir.Module."""

    PROGRAM = "a kernel program under a schedule"
    CHAIN = "a chain of float sums or products, as it is lowered"
    BODY = "a lowered kernel's body"
    MODULE = "a lowered module"


@dataclass(frozen=True)
class Pass:
    name: str
    subject: Subject
    run: Callable
    runs: str  # who runs it, and where what it produced is kept


PASSES: tuple[Pass, ...] = (
    Pass("join rows", Subject.PROGRAM, join_rows, "lower, for each schedule it lowers (kir.Kernel.rewrites)"),
    Pass("reassociate", Subject.CHAIN, reassociate, "lower, under --fast-math (kir.Kernel.rewrites)"),
    Pass("unclamp", Subject.BODY, unclamped, "lower, where the schedule has interior blocks (kir.Kernel.rewrites)"),
    Pass(MATRIX_UNITS, Subject.BODY, on_matrix_units, "lower, where the plan puts a register-tiled product on the "
         "matrix units (kir.Kernel.rewrites)"),
    *(Pass(r.name, Subject.BODY, r.run, "lower, on a register-tiled kernel's body (kir.Kernel.trace)")
      for r in REGISTER_TILING),
    Pass("widen", Subject.MODULE, widened_module, "the pipeline: stage `widen`"),
    Pass("prune", Subject.MODULE, lambda module: module.replace_kernels(prune), "the pipeline: stage `prune`"),
)
PASS = {p.name: p for p in PASSES}

__all__ = ["PASSES", "PASS", "Pass", "Subject"]
