"""What the bench, the tuner and the corpus share about checking a kernel:
the seeds of the inputs, the tolerance an option set's results get, and
every version compared with the interpreter before anything is timed."""
from __future__ import annotations

import math

from ..analyse import Options
from ..analyse.tensor_cores import MATRIX_TOLERANCE
from ..check import typed as T
from ..check.types import Scalar
from ..compare import compare
from ..errors import PlainError
from ..interp import run as interpret
from ..tree import descendants
from .spec import Spec, make_inputs, resolve_sizes

INPUT_SEED, CHECK_SEED = 1, 2  # the timed inputs; the small sizes every version is checked at first
# how far --fast-math's results may stray (relative to an output's largest
# magnitude), from the untiled IEEE kernel and from the float64 interpreter:
# the approximations' own error (sin and cos: 2^-21 absolute on [-pi, pi],
# growing with the argument; exp and pow: 2 ulp plus 2 ulp a unit of the
# argument's size) summed over a stream of thousands of terms
FAST_MATH_TOLERANCE = 1e-2
# how far --tensor-cores' results may stray, likewise: TF32 rounds each f32
# input to a 10-bit mantissa (2^-11 relative), and the units add each chunk's
# products in their own order; over long sums of terms of mixed signs the
# error grows against the output's largest magnitude (analyse/tensor_cores.py)
TENSOR_CORES_TOLERANCE = MATRIX_TOLERANCE
DEFAULT_TOLERANCE = 1e-3
# where the spec states none, an output of a 16-bit type gets more: its
# values' spacing near 1 (2^-10 for f16, 2^-7 for bf16) ten times over, as a
# tiled kernel's reduction in another order rounds each of its partial sums
NARROW_TOLERANCE = {"f16": 1e-2, "bf16": 5e-2}


def check_tolerance(prog, spec: Spec | None) -> float:
    """The largest relative difference the program's outputs may show: the
    spec's `[check] tolerance`, else the default for its outputs' types."""
    if spec is not None and spec.tolerance is not None:
        return spec.tolerance
    return narrow_tolerance(prog, spec) or DEFAULT_TOLERANCE


# a sum kept in f16 or bf16 rounds each partial result to 11 or 8 bits, so two orders of a long one (a tiled
# kernel's threads' shares, the untiled kernel's one chain) can differ past the type's default tolerance
NARROW_HINT = ("16-bit outputs: a long f16 or bf16 accumulation rounds every partial sum, so versions that add in "
               "another order differ more the longer it is. Accumulate in f32 (an f32 accumulator over f32(x) "
               "terms), or state the difference you accept as `[check] tolerance` in the program's .toml")


def accumulates_narrow(prog) -> bool:
    """Whether a loop of the program (a stream's over its chunk, or a plain
    one, in main or a helper) carries an f16 or bf16 value."""
    k = prog.kernel
    roots = [k.body, *(v for lv in k.levels for _, v in lv.lets), *(h.body for h in prog.helpers.values())]
    return any(isinstance(n, T.Loop) and any(isinstance(p.type, Scalar) and p.type.is_narrow for p in n.params)
               for root in roots for n in descendants(root, T.is_exp))


def narrow_tolerance(prog, spec: Spec | None) -> float | None:
    """Where the spec states no tolerance, a program's with 16-bit outputs
    (NARROW_TOLERANCE, the widest of its outputs'); else None."""
    if spec is not None and spec.tolerance is not None:
        return None
    kinds = [(t.elem if hasattr(t, "elem") else t).kind for t in prog.kernel.outputs]
    return max((NARROW_TOLERANCE[k] for k in kinds if k in NARROW_TOLERANCE), default=None)


def tolerance(options: Options, spec: Spec | None, prog=None) -> float | None:
    """The check's tolerance where the options or the outputs' types change
    results (None: compare_outputs's, the spec's or the default)."""
    narrow = narrow_tolerance(prog, spec) if prog is not None else None
    looser = max(FAST_MATH_TOLERANCE if options.fast_math else 0.0,
                 TENSOR_CORES_TOLERANCE if options.tensor_cores else 0.0)
    if not looser:
        return narrow
    return max(looser, narrow or (spec.tolerance if spec and spec.tolerance else 0.0))


def check_small(prog, spec: Spec | None, compiled: dict, gpu) -> None:
    """Every version of every variant against the interpreter at the spec's
    test sizes (within the tolerance its options allow)."""
    sizes = resolve_sizes(prog, {}, spec, "test")
    inputs = make_inputs(prog, sizes, spec, seed=CHECK_SEED)
    want = interpret(prog, inputs)
    for label, values in compiled.items():
        for k in values["verify"].kernels:
            if not k.runs_at(sizes):
                continue  # checked at the bench's own sizes, where the launch picks it
            got, _ = gpu.run(k, values["render"], inputs, sizes)
            compare_outputs(got, want, spec, f"{prog.file}: {label} ({k.name}) against the interpreter at {sizes}",
                            tolerance(values["analyse"].options, spec, prog), prog)


def compare_outputs(got, want, spec: Spec | None, what: str, tolerance: float | None = None, prog=None) -> str:
    """'ok' with the worst relative difference (and the tolerance where a
    variant states its own), or a stop with where and how much (`prog`:
    whose 16-bit outputs may explain it, said in a hint)."""
    agreement = compare(got, want, tolerance or (spec.tolerance if spec and spec.tolerance else DEFAULT_TOLERANCE))
    if not agreement.ok:
        # (said only of a finite difference: an element left unwritten, or a NaN, is no rounding's)
        rounding = prog is not None and math.isfinite(agreement.worst) and narrow_tolerance(prog, spec) is not None \
            and accumulates_narrow(prog)
        raise PlainError(f"{what}: {agreement.message}", NARROW_HINT if rounding else "")
    return f"ok {agreement.worst:.0e}" + (f" (within {tolerance:g})" if tolerance else "")


def spearman(xs: list, ys: list) -> float | None:
    """The correlation of the ranks of two equally long lists (ties share
    their mean rank); None where either has no spread."""
    cost_ranks, time_ranks = _ranks(list(xs)), _ranks(list(ys))
    n = len(cost_ranks)
    mean = (n + 1) / 2
    cov = sum((a - mean) * (b - mean) for a, b in zip(cost_ranks, time_ranks))
    var_a = sum((a - mean) ** 2 for a in cost_ranks)
    var_b = sum((b - mean) ** 2 for b in time_ranks)
    return None if var_a == 0 or var_b == 0 else cov / (var_a * var_b) ** 0.5


def _ranks(values: list) -> list[float]:
    """1-based ranks, ties sharing their mean rank."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    ranks = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return ranks
