"""Workloads: a program's sizes and inputs (spec.py: its `.toml`, random
inputs; memory.py: the memory a run takes), and how a kernel is checked before it is timed (checks.py). The
bench, the tuner, the corpus and the fuzzer share them."""
from __future__ import annotations

from .memory import available_bytes, check_run_memory, gib, input_bytes
from .spec import (
    DEFAULT_SIZE,
    LIBRARY_OPS,
    SIZE_SETS,
    Spec,
    check_given,
    evaluate,
    flops,
    grid_neighbours,
    load_spec,
    make_inputs,
    resolve_sizes,
    scalar_input_hint,
    split_given,
)

__all__ = ["DEFAULT_SIZE", "LIBRARY_OPS", "SIZE_SETS", "Spec", "available_bytes", "check_run_memory", "check_given", "evaluate", "flops",
           "gib", "grid_neighbours", "input_bytes", "load_spec", "make_inputs", "resolve_sizes", "scalar_input_hint", "split_given"]
