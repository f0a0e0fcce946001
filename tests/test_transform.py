"""The transform stage runs the rewrites the schedule asks for, in order,
and records which ran."""
from __future__ import annotations

import dataclasses

from conftest import BENCHMARKS

from tiler.pipeline import STAGE_NAMES, run_all
from tiler.transform import Rewrite, transform


def analysed():
    path = BENCHMARKS / "mm.fut"
    return run_all(path.read_text(), "mm.fut", until="analyse")["analyse"]


def test_transform_sits_between_analyse_and_lower():
    assert STAGE_NAMES.index("analyse") + 1 == STAGE_NAMES.index("transform") == STAGE_NAMES.index("lower") - 1


def test_rewrites_run_in_order_when_the_schedule_asks():
    def mark(tag):
        return lambda a: dataclasses.replace(a, options=dataclasses.replace(a.options, sizes=a.options.sizes + (tag,)))

    rewrites = (Rewrite("first", lambda s: s.tiled, mark(("first", 1))),
                Rewrite("never", lambda s: False, mark(("never", 1))),
                Rewrite("second", lambda s: True, mark(("second", 2))))
    out = transform(analysed(), rewrites)
    assert out.rewrites == ("first", "second")
    assert out.options.sizes == (("first", 1), ("second", 2))


def test_no_rewrite_leaves_the_analysis_as_it_is():
    a = analysed()
    assert transform(a) == a
