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
# a form's timed calls take about this long at most: a twin slow enough to pass it (a Python loop over a
# series) is timed fewer times (never under MIN_CALLS) than the default kernel it is compared with
BUDGET_MS, MIN_CALLS = 1000.0, 3


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


# ---- timing the twin beside tiler (`tiler corpus --peer`) ---------------------------------------------------

EAGER, COMPILED = "torch eager", "torch.compile"
PEERS = (EAGER, COMPILED)


def torch_for_peers():
    """PyTorch, with TF32 off (tiler computes in the program's own precision), or a PlainError."""
    try:
        import torch
    except ImportError:
        raise PlainError("--peer times each program's PyTorch twin: PyTorch is not installed",
                         "pip install torch (a CUDA build)") from None
    if not torch.cuda.is_available():
        raise PlainError("--peer times the PyTorch twins on the GPU: torch sees no CUDA device")
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    torch.set_float32_matmul_precision("highest")
    return torch


class Peers:
    """A program's twin, eager and under torch.compile (compiled once, for
    each shape it meets), checked before it is timed. `compiled=False`:
    eager only (its compilation took too long to warm); a torch.compile that
    raises is left out likewise, and `left_out` says why. `notes`: where a
    form's output differed from tiler's at a timed size (taken by the caller)."""

    def __init__(self, fn, program: T.Program, compiled: bool = True):
        self.torch = torch_for_peers()
        self.fn, self.program = fn, program
        # dynamic=False: one compile specialised to each shape, as a user compiling for the shape they run gets;
        # by default a second shape (the small check comes first) recompiles for any shape, slower code
        self.compiled = self.torch.compile(fn, dynamic=False) if compiled else None
        self.left_out = None if compiled else f"{COMPILED}: not timed, its compilation took too long"
        self.notes: list[str] = []

    def forms(self) -> tuple:
        return ((EAGER, self.fn),) + (((COMPILED, self.compiled),) if self.compiled is not None else ())

    def _outputs(self, label: str, fn, args) -> tuple | None:
        """The form's outputs; None where torch.compile itself failed (then left out, with a note)."""
        try:
            got = fn(*args)
        except Exception as exc:  # noqa: BLE001 - torch.compile's own failures (Dynamo, inductor), not the twin's
            if label != COMPILED:
                raise
            self.compiled = None
            self.left_out = f"{COMPILED}: not timed, it failed: {type(exc).__name__}: {str(exc)[:160]}"
            return None
        return got if isinstance(got, (tuple, list)) else (got,)

    def _timed(self, times: list, call, *args) -> None:
        """`call(*args)`, its ms (CUDA events) appended to `times`."""
        torch = self.torch
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        call(*args)
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))

    def check(self, inputs: dict, want: tuple, rtol: float, what: str) -> None:
        """Both forms against the interpreter's outputs (`want`), on the GPU."""
        args = twin_arguments(self.program, inputs, "cuda")
        for label, fn in self.forms():
            got = self._outputs(label, fn, args)
            if got is None:
                continue
            agreement = compare(tuple(g.detach().cpu().numpy() for g in got), want, rtol)
            if not agreement.ok:
                raise PlainError(f"{what}: the twin ({label}) disagrees with the interpreter: {agreement.message}")

    def time(self, inputs: dict, repeat: int, reference: tuple, rtol: float, what: str) -> dict[str, float]:
        """The median ms of each form at these inputs (`times`)."""
        return {label: sorted(ts)[len(ts) // 2] for label, ts in self.times(inputs, repeat, reference, rtol,
                                                                              what).items()}

    def times(self, inputs: dict, repeat: int, reference: tuple, rtol: float, what: str) -> dict[str, list]:
        """Each form's times in ms at these inputs (CUDA events, after two
        warm-up calls, which compile): `repeat` calls, or fewer (at least
        MIN_CALLS, where `repeat` allows) once they have taken BUDGET_MS. Each output is compared with
        `reference` (tiler's) first: the twins were checked against the
        interpreter at the test sizes, so a difference here (an argmin's near
        tie, a count at a boundary, summed in another order) is a note, and
        the form is timed all the same."""
        args = twin_arguments(self.program, inputs, "cuda")
        out = {}
        for label, fn in self.forms():
            got = self._outputs(label, fn, args)  # (the first call compiles)
            if got is None:
                continue
            got = self._outputs(label, fn, args)
            if got is None:
                continue
            agreement = compare(tuple(g.detach().cpu().numpy() for g in got), reference, rtol)
            if not agreement.ok:
                self.notes.append(f"{what}: {label} differs from tiler: {agreement.message}")
            times: list[float] = []
            while len(times) < repeat and (len(times) < MIN_CALLS or sum(times) < BUDGET_MS):
                self._timed(times, fn, *args)
            out[label] = times
        del args
        return out


def checked_peers(path, prog: T.Program, spec, compiled: bool = True) -> Peers | None:
    """The program's twin, checked against the interpreter at its test sizes
    on the GPU (None: it has none); `compiled`: under torch.compile too."""
    from ..interp import run as interpret
    from ..workload import make_inputs, resolve_sizes
    from ..workload.checks import CHECK_SEED, check_tolerance

    fn = load_twin(path)
    if fn is None:
        return None
    peers = Peers(fn, prog, compiled)
    sizes = resolve_sizes(prog, {}, spec, "test")
    inputs = make_inputs(prog, sizes, spec, seed=CHECK_SEED)
    within = max(check_tolerance(prog, spec), 1e-3)  # (a program without a .toml: its outputs' default)
    peers.check(inputs, interpret(prog, inputs), within, f"{Path(path).stem} at {sizes}")
    return peers


def ratio(record: dict, default: str = "default") -> float | None:
    """The better peer's time over tiler's default (above 1: tiler is faster)."""
    ms = record.get("ms", {})
    peers = [ms[p] for p in PEERS if ms.get(p)]
    return min(peers) / ms[default] if peers and ms.get(default) else None


def peer_summary(records: list[dict], default: str = "default") -> str:
    """The median ratio, how many are below 0.5x and 0.67x, and the worst."""
    pairs = sorted(((r, x) for r in records if (x := ratio(r, default)) is not None), key=lambda rx: rx[1])
    if not pairs:
        return "against the peer: nothing timed"
    xs = [x for _, x in pairs]
    median = xs[len(xs) // 2] if len(xs) % 2 else (xs[len(xs) // 2 - 1] + xs[len(xs) // 2]) / 2
    lines = [f"against the better of torch eager and torch.compile (TF32 off): {len(xs)} (program, size) pairs, "
             f"median {median:.2f}x (above 1: tiler faster), {sum(x < 0.5 for x in xs)} below 0.5x, "
             f"{sum(x < 2 / 3 for x in xs)} below 0.67x, {sum(x >= 1 for x in xs)} at 1x or more"]
    lines += [f"  {r['program']} {r['size_set']}: {x:.2f}x (tiler {r['ms'][default]:.3g} ms, eager "
              f"{r['ms'].get(EAGER, float('nan')):.3g}, compiled {r['ms'].get(COMPILED, float('nan')):.3g})"
              for r, x in pairs[:15]]
    return "\n".join(lines)
