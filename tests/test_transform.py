"""The rewrites are named passes in one list (tiler/transform/), and what
each produced is kept: the module passes as stages of the pipeline, the
register tiling rewrites in the kernel's trace."""
from __future__ import annotations

import pytest
from conftest import BENCHMARK_NAMES, BENCHMARKS

from tiler.analyse import Options
from tiler.pipeline import STAGE_NAMES, run_all
from tiler.transform import PASS, PASSES, Subject
from tiler.transform.register_tile import ONE_POINT, REGISTER_TILING


def test_every_pass_has_its_own_name_and_says_who_runs_it():
    names = [p.name for p in PASSES]
    assert len(set(names)) == len(names) and all(p.runs for p in PASSES)
    assert [p.name for p in PASSES if p.subject is Subject.BODY] == \
        ["unclamp", "matrix units"] + [r.name for r in REGISTER_TILING]


@pytest.mark.parametrize("asked", ["", "fast_math", "interior"])
def test_every_rewrite_a_kernel_records_is_a_pass_and_each_leaves_its_record(asked):
    """Kernels record the passes that changed them, by the passes' own names:
    reassociate only where --fast-math reordered a chain, unclamp where the
    kernel has interior blocks, register tiling's steps where it ran."""
    seen, plain = set(), set()
    for name in BENCHMARK_NAMES:
        values = run_all((BENCHMARKS / f"{name}.fut").read_text(), f"{name}.fut", Options(**({asked: True} if asked else {})))
        for v in values["verify"].versions:
            for k in (v.kernel, *v.kernel.stages):
                assert set(k.rewrites) <= PASS.keys(), (k.name, k.rewrites)
                assert ("unclamp" in k.rewrites) == k.interior, k.name
                assert ("strip-mine" in k.rewrites) == bool(k.trace), k.name
                seen |= set(k.rewrites)
                # (a window version's interior blocks are unclamped whatever was asked: window_tile.py)
                plain |= set() if k.name.endswith("_window") else set(k.rewrites)
    assert ("reassociate" in seen) == (asked == "fast_math") and ("unclamp" in plain) == (asked == "interior")
    assert {"strip-mine", "join rows"} <= seen
    assert ("matrix units" in seen) == (asked != "interior")  # mm_bf16's product (interior blocks: two bodies)


def test_the_module_passes_are_stages_and_the_pipeline_keeps_each_ones_module():
    for p in PASSES:
        if p.subject is Subject.MODULE:
            assert p.name in STAGE_NAMES
    assert STAGE_NAMES.index("lower") < STAGE_NAMES.index("widen") < STAGE_NAMES.index("prune") \
        < STAGE_NAMES.index("verify")
    values = run_all((BENCHMARKS / "mm.fut").read_text(), "mm.fut")
    # the 64-bit versions' offsets are widened by the widen stage, not by lower
    lowered, widened = values["lower"], values["widen"]
    assert [v for v in lowered.versions if v.kernel.wide] and lowered is not widened
    marked = [n for v in widened.versions for n in _nodes(v.kernel.body) if getattr(n, "widen", False)]
    assert marked and not [n for v in lowered.versions for n in _nodes(v.kernel.body) if getattr(n, "widen", False)]
    assert values["prune"] == PASS["prune"].run(widened)


def test_a_register_tiled_kernel_keeps_its_body_after_each_rewrite():
    values = run_all((BENCHMARKS / "mm.fut").read_text(), "mm.fut")
    kernel = values["verify"].main  # (after the splits of a product's few points)
    assert [name for name, _ in kernel.trace] == [ONE_POINT] + [r.name for r in REGISTER_TILING]
    assert kernel.rewrites == tuple(r.name for r in REGISTER_TILING)
    last, body = kernel.trace[-1][1], next(v.kernel.body for v in values["lower"].versions if not v.few)
    # the last step is the kernel's body, in the loop that walks grid y's blocks past CUDA's limit
    assert body[0].var == "tiler_block_y" and body[0].body[:len(last)] == last


def _nodes(body):
    from tiler import kir

    return [n for s in body for n in kir.walk(s)]
