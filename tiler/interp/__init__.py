"""The reference interpreter: the oracle for every GPU result.

`run(program, inputs, chunking, seed)` evaluates a checked program on numpy
inputs (a dict from `main`'s parameter names) and returns its output arrays.
The map nest is evaluated for all threads at once (see evaluate.py); if a
size differs between threads (`iota` of a thread's own count) it falls back
to one thread at a time.
"""
from __future__ import annotations

import numpy as np

from ..check import typed as T
from ..check.types import I32, Array, Binder
from ..compare import compare
from ..errors import PlainError
from .evaluate import Evaluator
from .values import Chunking, NonUniform, RunError, dtype, narrowed

__all__ = ["run", "run_splits", "Chunking", "RunError", "bind_sizes", "SPLITS"]

# splits that expose a result depending on how streams are chunked
SPLITS = (Chunking("whole"), Chunking("fixed", size=1), Chunking("fixed", size=7), Chunking("random", seed=1))


WHOLE = Chunking()  # one chunk a stream


def run(program: T.Program, inputs: dict, chunking: Chunking = WHOLE, seed: int = 0,
        rows=None, wide: bool = False, fused: bool = False, progress=None, jitter: bool = False) -> tuple:
    """The outputs; `rows` (indices along dimension 0) evaluates only those
    points of the outermost map, so a reference is affordable at full sizes;
    `wide` computes f32 in float64; `fused` rounds f32 `a * b + c` once;
    `jitter` (with `wide`) moves every f32 result float32 would round by a
    share of float32's rounding hashed from the value and `seed`
    (Evaluator._rounded);
    `progress` is called with the fraction done, and where, as the outer
    loops and streams iterate (Evaluator.progress)."""
    k = program.kernel
    with np.errstate(all="ignore"):
        try:
            ev = _start(program, inputs, chunking, seed, wide, fused, jitter)
            ev.progress = progress
            return _nest(ev, k, rows)
        except NonUniform:
            ev = _start(program, inputs, chunking, seed, wide, fused, jitter)
            ev.progress = progress
            outs = _nest_by_thread(ev, k)
            return outs if rows is None else tuple(o[np.asarray(rows)] for o in outs)


def run_splits(program: T.Program, inputs: dict, seed: int = 0, rtol: float = 1e-4):
    """Run under every chunking of SPLITS. Returns the first run's outputs and,
    if another split disagrees beyond rounding, (that chunking, its Agreement)."""
    first = run(program, inputs, SPLITS[0], seed)
    for chunking in SPLITS[1:]:
        agreement = compare(run(program, inputs, chunking, seed), first, rtol)
        if not agreement.ok:
            return first, (chunking, agreement)
    return first, None


def bind_sizes(kernel: T.Kernel, inputs: dict) -> dict[Binder, int]:
    """The value of every named size of `main`, from the input shapes."""
    sizes: dict[Binder, int] = {}
    first: dict[Binder, str] = {}
    for p in kernel.params:
        if p.name not in inputs:
            raise PlainError(f"no input for parameter `{p.name}` ({p.type})")
        if p.kind == "size":  # an int parameter that is a size
            n = int(inputs[p.name])
            if sizes.setdefault(p, n) != n:
                raise PlainError(f"size `{p.name}` is {sizes[p]} by `{first[p]}` but {n} by `{p.name}`")
            first.setdefault(p, p.name)
            continue
        if not isinstance(p.type, Array):
            continue
        shape = np.shape(inputs[p.name])
        if len(shape) != p.type.rank:
            raise PlainError(f"input `{p.name}` has {len(shape)} dimension(s), but the parameter is {p.type}")
        for s, n in zip(p.type.shape, shape):
            if isinstance(s, int):
                if s != n:
                    raise PlainError(f"input `{p.name}` has a dimension of {n} where {p.type} says {s}")
            elif sizes.setdefault(s, n) != n:
                raise PlainError(f"size `{s.name}` is {sizes[s]} by `{first[s]}` but {n} by `{p.name}`")
            first.setdefault(s, p.name)
    return sizes


def _start(program: T.Program, inputs: dict, chunking: Chunking, seed: int, wide: bool = False,
           fused: bool = False, jitter: bool = False) -> Evaluator:
    k = program.kernel
    B = len(k.levels)
    ev = Evaluator(B, program.helpers, chunking, seed, wide, fused, jitter)
    for size, n in bind_sizes(k, inputs).items():
        ev.env[size] = ev.scalar(n, I32)
    for p in k.params:
        ev.env[p] = _input(p, inputs[p.name], B, wide)
    for pl in k.prelude:
        if isinstance(pl.value, T.Transpose):
            ev.env[pl.binder] = np.swapaxes(ev.env[pl.value.source], B + pl.value.axis, B + pl.value.axis + 1)
        else:
            ev.env[pl.binder] = ev.ev(pl.value)
    for binders, value in k.launch:  # (stage `kernel`'s work of no map level's names)
        ev.bind(binders, ev.ev(value))
    return ev


def _input(p: Binder, value, B: int, wide: bool = False) -> np.ndarray:
    want = dtype(p.type, wide)
    v = np.asarray(value)
    if not np.can_cast(v.dtype, want, "same_kind") and not (v.dtype.kind in "iub" and want.kind == "f"):
        raise PlainError(f"input `{p.name}` holds {v.dtype} values, but the parameter is {p.type}")
    elem = p.type.elem if isinstance(p.type, Array) else p.type
    v = narrowed(elem.kind, v) if elem.is_narrow else v.astype(want, copy=False)
    return v.reshape((1,) * B + v.shape)


def _spread(a: np.ndarray, d: int, B: int) -> np.ndarray:
    """A map argument's elements laid along batch axis `d` (a view)."""
    return np.moveaxis(np.squeeze(a, axis=d), B - 1, d)


def _nest(ev: Evaluator, k: T.Kernel, rows=None) -> tuple:
    B, shape = ev.B, []
    for level in k.levels:
        args = [ev.ev(a) for a in level.args]
        if level.dim == 0 and rows is not None:  # only the sampled points of the outer map
            args = [np.take(a, np.asarray(rows), axis=B) for a in args]
        shape.append(args[0].shape[B])
        for p, a in zip(level.params, args):
            ev.env[p] = _spread(a, level.dim, B)
        for binders, value in level.lets:
            ev.bind(binders, ev.ev(value))
    out = ev.ev(k.body)
    outs = out if isinstance(out, tuple) else (out,)
    return tuple(np.broadcast_to(o, tuple(shape)).astype(dtype(t, ev.wide)) for o, t in zip(outs, k.outputs))


def _nest_by_thread(ev: Evaluator, k: T.Kernel) -> tuple:
    B = ev.B
    results: dict[tuple, tuple] = {}
    shape = [0] * B

    def level(i: int, point: tuple):
        if i == len(k.levels):
            out = ev.ev(k.body)
            results[point] = tuple(o.reshape(-1)[0] for o in (out if isinstance(out, tuple) else (out,)))
            return
        lv = k.levels[i]
        args = [ev.ev(a) for a in lv.args]
        shape[i] = args[0].shape[B]
        points = ev.enter(shape[i], f"the points of the map at {lv.span.short}") if i == 0 else None
        for j in range(shape[i]):
            for p, a in zip(lv.params, args):
                ev.env[p] = a[(slice(None),) * B + (j,)]
            for binders, value in lv.lets:
                ev.bind(binders, ev.ev(value))
            level(i + 1, point + (j,))
            if points is not None:  # a thread at a time: the outer map's points are the progress
                ev.step(points)
        if points is not None:
            ev.leave()

    level(0, ())
    outs = tuple(np.zeros(tuple(shape), dtype=dtype(t, ev.wide)) for t in k.outputs)
    for point, values in results.items():
        for o, v in zip(outs, values):
            o[point] = v
    return outs
