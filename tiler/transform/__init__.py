"""Stage `transform`: analysis -> analysis, the kernel rewritten as the
schedule asks, before it is lowered.

Rewrites are data: each `Rewrite` names itself, says from the schedule
whether it applies, and maps the analysed kernel to a new one. They run in
the order of `REWRITES`; which ran is kept with the result, for `explain`.
No rewrite applies to the whole analysis yet, so the list is empty. The
two rewrites tiler makes depend on the version being lowered, so lower runs
them on each schedule's kernel and records them in the kernel
(`kir.Kernel.rewrites`, which explain lists):

- join rows (`join_rows.py`), on the kernel program: a loop the schedule
  joins becomes one stream over its rows laid end to end;
- register tiling's three steps (the note's strip-mine, interchange and
  sequentialise, `register_tile.py`), on the kernel IR that lower writes for
  one point a thread, where the per-point body and the uniform copies and
  barriers can be told apart.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Callable

from ..analyse import Analysis, Schedule


@dataclass(frozen=True)
class Rewrite:
    name: str
    applies: Callable[[Schedule], bool]
    run: Callable[[Analysis], Analysis]


REWRITES: tuple[Rewrite, ...] = ()


def transform(analysis: Analysis, rewrites: tuple[Rewrite, ...] = REWRITES) -> Analysis:
    applied = []
    for r in rewrites:
        if r.applies(analysis.schedule):
            analysis = r.run(analysis)
            applied.append(r.name)
    return dataclasses.replace(analysis, rewrites=analysis.rewrites + tuple(applied))
