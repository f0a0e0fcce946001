"""Split-K: a product of few outputs and a long reduction, as two kernels.

The tiled kernel (register tiles, shared tiles) is the launch's stage: its
grid gains a z axis of blocks that share each output tile's reduction
(`KStage`), every block folding its share of the iterations from the
operators' identities and storing each of its points' carried values to
scratch memory. The launch's last kernel is the split's kernel of several
blocks a row (split.py) with the same count of blocks a row: it combines a
row's partial results in a fixed order, so results do not depend on the
GPU, then runs the rest of the point (its start values included).
"""
from __future__ import annotations

import dataclasses

from .. import kir
from ..analyse import Analysis, Schedule
from ..analyse.folds import identity
from ..analyse.raster import in_launch_order
from ..analyse.reductions import K_SHARE, MAX_BLOCKS_A_ROW, Split
from ..analyse.split_k import split_k_stream
from ..errors import CompilerBug
from ..kir.build import const
from . import lower_schedule
from .body import ctype_of
from .k_stage import KStage
from .params import size_name
from .split import _row_kernel, partial_scratch


def lower_split_k(analysis: Analysis, split: Split, schedule: Schedule, lanes: int, file: str, columns: bool,
                  vectors: bool, name: str) -> kir.Kernel:
    """The last kernel (`lanes` threads a row) launching the tiled stage first."""
    found = split_k_stream(analysis.kernel, split, schedule)
    if found is None:
        raise CompilerBug("a split-K version of a plan split-K does not apply to")
    stream, loop, reduction = found
    plan = next(s for s in schedule.streams if s.site.stream is stream)
    per = -(-K_SHARE // plan.chunk) * plan.chunk  # whole chunks: every block but a capped row's last has some
    last, several = _row_kernel(analysis, split, lanes, file, False, columns, stage=None, share=per)
    ctypes = tuple(ctype_of(p.type) for p in loop.params)
    starts = tuple(const(identity(op, p.type.kind), c) for op, p, c in zip(reduction.operators, loop.params, ctypes))
    if tuple(several.ctypes) != ctypes:
        raise CompilerBug(f"split-K's stage carries {ctypes}, its last kernel combines {tuple(several.ctypes)}")
    length = stream.length
    stage = KStage(stream.point, length, plan.chunk, starts, several.names, ctypes, per, MAX_BLOCKS_A_ROW, columns)
    # (the stage runs its share on the CUDA cores, not the matrix units: its tiles in the launch's order)
    tiled = lower_schedule(analysis, in_launch_order(schedule), file, vectors, k_stage=stage)
    tiled = dataclasses.replace(tiled, summary=tiled.summary + (
        f"split-K: the blocks along z share each tile's {size_name(length)} iterations (one each {per} while they "
        f"are at most {MAX_BLOCKS_A_ROW} a tile), each storing its points' partial results for the last kernel",))
    params = last.params + tuple(kir.Param(n, c, kir.SCRATCH) for n, c in zip(several.names, ctypes))
    return dataclasses.replace(last, params=params, stages=(tiled,), divisible=tiled.divisible,
                               scratch=partial_scratch(analysis, split, several.names, ctypes, per)).renamed(name)
