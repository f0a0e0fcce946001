"""The peer a user would run instead: a corpus program's PyTorch twin.

`NAME.py` beside `NAME.fut` defines `torch_twin(...)`: main's parameters in
order (arrays as torch tensors on one device, scalars as Python numbers),
returning main's outputs (a tensor, or a tuple of them in order), written as
a user would write it in PyTorch (whole-tensor operations, no Python loop
over elements). `twin_outputs` runs it on NumPy inputs; `check_twin` compares
it with the reference interpreter, as the bench compares a kernel.
"""
from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np

from ..check import typed as T
from ..check.types import Array
from ..compare import compare
from ..errors import PlainError

TWIN = "torch_twin"  # the function a twin's file defines


def twin_path(program: Path) -> Path:
    """Where a program's twin lives: beside it, `NAME.py`."""
    return Path(program).with_suffix(".py")


def load_twin(program: Path):
    """The twin's function, or None where the program has no twin file."""
    path = twin_path(program)
    if not path.is_file():
        return None
    spec = importlib.util.spec_from_file_location(f"tiler_twin_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    fn = getattr(module, TWIN, None)
    if not callable(fn):
        raise PlainError(f"{path}: defines no function `{TWIN}`")
    return fn


def twin_arguments(program: T.Program, inputs: dict, device: str = "cpu") -> list:
    """main's parameters in order: arrays as tensors on `device`, scalars as Python numbers."""
    import torch

    out = []
    for p in program.kernel.params:
        value = inputs[p.name]
        if isinstance(p.type, Array):
            out.append(torch.from_numpy(np.ascontiguousarray(value)).to(device))
        else:
            out.append(np.asarray(value).item())
    return out


def twin_outputs(fn, program: T.Program, inputs: dict, device: str = "cpu") -> tuple:
    """The twin's outputs, as NumPy arrays (a tuple, one an output of main)."""
    got = fn(*twin_arguments(program, inputs, device))
    got = got if isinstance(got, (tuple, list)) else (got,)
    return tuple(g.detach().cpu().numpy() if hasattr(g, "detach") else np.asarray(g) for g in got)


def check_twin(fn, program: T.Program, inputs: dict, want: tuple, rtol: float, what: str) -> float:
    """The twin's largest relative difference from the interpreter's `want`;
    a PlainError naming `what` where they disagree past `rtol`."""
    got = twin_outputs(fn, program, inputs)
    if len(got) != len(want):
        raise PlainError(f"{what}: the twin returns {len(got)} outputs, main {len(want)}")
    agreement = compare(got, want, rtol)
    if not agreement.ok:
        raise PlainError(f"{what}: the twin disagrees with the interpreter: {agreement.message}")
    return agreement.worst
