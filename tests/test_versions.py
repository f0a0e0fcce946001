"""The versions stage: every kernel a module holds, and when the launch
runs it, as records made from the plan before anything is lowered; one
function lowers them; explain and `--emit versions` read them."""
from __future__ import annotations

import pytest
from conftest import BENCHMARK_NAMES, BENCHMARKS, tiler

from tiler.pipeline import run_all
from tiler.render.cexpr import c
from tiler.source import program_stem
from tiler.versions import Copies, Kind
from tiler.versions.lowering import condition
from tiler.versions.records import SCALAR, Aligned, All, without_aligned


def _values(name: str) -> dict:
    return run_all((BENCHMARKS / f"{name}.fut").read_text(), f"benchmarks/{name}.fut")


@pytest.mark.parametrize("name", BENCHMARK_NAMES)
def test_every_kernel_of_the_module_comes_from_a_record_in_order(name):
    values = _values(name)
    records, module = values["versions"].versions, values["verify"]
    order = []
    for v in module.versions:
        rec = v.plan
        assert rec is not None, v.kernel.name
        base = rec.fold if rec.kind is Kind.FISSIONED else rec
        expected = base.build.name
        if v.plan.copies is Copies.SCALAR_HALF or (rec.kind is Kind.FISSIONED and base.copies is Copies.SCALAR_HALF):
            expected = base.build.name.replace(base.build.suffix, "") + SCALAR + base.build.suffix \
                if base.build.suffix else base.build.name + SCALAR
        if rec.kind is Kind.FISSIONED and rec.pair_index:  # a later pair's kernel adds its own name to the fold's
            expected += "_" + v.kernel.stages[0].name.removeprefix(f"tiler_{program_stem(rec.pair.build.file)}_")
        assert v.kernel.name == expected, (v.kernel.name, expected)
        index = next(i for i, r in enumerate(records) if r.kind is rec.kind and r.build.key[:2] == rec.build.key[:2]
                     and (r.fold is None or r.pair_index == rec.pair_index))
        order.append(index)
    assert order == sorted(order), "the module's versions come in the records' order"
    assert set(order) == set(range(len(records))), "every record is lowered"


@pytest.mark.parametrize("name", BENCHMARK_NAMES)
def test_each_kernels_launch_condition_is_its_records_own(name):
    """The launch tests exactly what the record says (its scalar half: without
    the alignment test; a fissioned kernel: its stage's tests on its stage)."""
    for v in _values(name)["verify"].versions:
        stage = v.kernel.stages[0] if v.fissioned else None
        assert condition(v.plan.launch_condition, v.kernel, stage) == v.condition, v.kernel.name


def test_a_vector_records_scalar_half_is_its_condition_without_the_alignment_test():
    values = _values("mm")
    # (after the TMA version, whose vector kernel runs alone: core_tma.py)
    tma, vector, scalar = [v for v in values["verify"].versions if not v.kernel.lanes][:3]
    assert tma.plan.copies is Copies.VECTOR and tma.plan.vector_alone and "q % 4 == 0" in c(tma.condition)
    assert vector.plan.copies is Copies.VECTOR and scalar.plan.copies is Copies.SCALAR_HALF
    assert scalar.kernel.name == vector.kernel.name + SCALAR

    assert "q % 4 == 0" in c(vector.condition) and "% 4" not in c(scalar.condition)
    t = object()
    assert without_aligned(All((t, Aligned()))) is t and without_aligned(Aligned()) is None
    assert without_aligned(All((t, All((t, Aligned()))))) == All((t, t))


def test_emit_versions_lists_the_records_in_launch_order():
    out = tiler("compile", BENCHMARKS / "mm.fut", "--emit", "versions").stdout
    records = _values("mm")["versions"].versions
    numbered = [line for line in out.splitlines() if line[:1].isdigit()]
    assert len(numbered) == len(records)
    assert numbered[0].startswith("1. split: tiler_mm_split32_cols_blocks_k;") and "split-K" in numbered[0]
    assert numbered[1].startswith("2. split: tiler_mm_split32_cols_blocks;")  # few points: their loops split
    tma, tiled = [line for line in numbered if ". tiled: " in line][:2]
    assert tma.split(". ")[1].startswith("tiled: tiler_mm_tiled_transposed;") and "reads A transposed" in tma
    assert tiled.split(". ")[1].startswith("tiled: tiler_mm_tiled;") and "128-bit where the rows stay aligned" in tiled
    assert "raced against tiler_mm_untiled" in out and "m >= 5 and n >= 5" in out


def test_fissioned_versions_take_each_pairs_record_and_launch_its_last_half():
    values = _values("kmeans")
    vs = values["versions"]
    fissioned = [r for r in vs.versions if r.kind is Kind.FISSIONED]
    assert fissioned and vs.versions[:len(fissioned)] == tuple(fissioned)
    for v in (v for v in values["verify"].versions if v.fissioned):
        (stage,) = v.kernel.stages
        assert stage.name.startswith(v.plan.pair.build.name) and not stage.divisible  # the scalar half (or alone)
        assert v.plan.scratch == v.kernel.scratch[0].name
