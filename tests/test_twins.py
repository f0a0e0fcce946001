"""Every corpus program's and benchmark's PyTorch twin (NAME.py beside
it) computes what the program computes: run on the CPU at the program's `test` sizes and compared
with the reference interpreter. Skipped where torch is not installed (CI);
`tiler corpus --peer` times the twins on the GPU."""
from __future__ import annotations

from pathlib import Path

import pytest

from tiler.bench.corpus import programs
from tiler.bench.peer import check_twin, load_twin, twin_path
from tiler.check import check
from tiler.interp import run
from tiler.syntax import parse
from tiler.workload import load_spec, make_inputs, resolve_sizes
from tiler.workload.checks import check_tolerance

ROOT = Path(__file__).resolve().parent.parent
TWINNED = [p for folder in (ROOT / "corpus", ROOT / "benchmarks") for p in programs(folder) if twin_path(p).is_file()]


def test_the_window_benchmarks_have_twins():
    assert {p.stem for p in TWINNED} >= {"blur", "conv1d", "conv1d31", "conv2d", "stencil3d", "star25"}


@pytest.mark.parametrize("path", TWINNED, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_twin_agrees_with_the_interpreter(path):
    pytest.importorskip("torch")
    prog = check(parse(path.read_text(), path.name))
    spec = load_spec(path)
    sizes = resolve_sizes(prog, {}, spec, "test")
    inputs = make_inputs(prog, sizes, spec, seed=2)
    want = run(prog, inputs)
    check_twin(load_twin(path), prog, inputs, want, max(check_tolerance(prog, spec), 1e-3), path.stem)
