"""The kernel's parameters (sizes, arrays, scalars, outputs) and the views
its code reads them through, shared by every kind of kernel `lower` makes."""
from __future__ import annotations

from .. import kir, target
from ..check import typed as T
from ..check.types import Array
from ..kernel import LAUNCH_OUTPUT, launch_outputs
from ..kir.build import add, const, mul
from ..source import program_stem
from .body import Body, ctype_of
from .values import View


def kernel_name(file: str, tiled: bool) -> str:
    return f"tiler_{program_stem(file)}_{'tiled' if tiled else 'untiled'}"


def bind_prelude(low, k: T.Kernel) -> None:
    """The host prelude's names: a transpose is a view with two strides
    swapped; then the values computed once a launch, each read from the
    scratch array the launch's first kernel wrote it to."""
    for pl in k.prelude:
        if isinstance(pl.value, T.Transpose):
            v, a = low.env[pl.value.source], pl.value.axis
            low.env[pl.binder] = View(v.buffer, v.offset, swap_at(v.strides, a), swap_at(v.sizes, a), v.ctype)
        else:
            low.env[pl.binder] = low.name_value(pl.binder, low.exp(pl.value))
    for b, name in launch_outputs(k).items():
        low.env[b] = low.declare(b.name, ctype_of(b.type), kir.Load(name, const(0)))
        low.launch_scalars.add(low.env[b].name)


def kernel_params(low: Body, k: T.Kernel, factor, fixed: dict, transposed: frozenset) -> list[kir.Param]:
    """`fixed`: sizes the kernel runs at one value of (passed, but read as that
    constant); `transposed`: arrays passed with their last two axes swapped,
    read through a view that swaps them back."""
    params, sizes = [], []
    for s in k.sizes:
        name = low.fresh(s.name)
        low.env[s] = const(fixed[s.name]) if s.name in fixed else kir.Ref(name)
        low.size_names[name] = s.name
        sizes.append(kir.Param(name, "int", "size", s.name))
    for p in k.params:
        if p.kind == "size":  # an int parameter that is a size: passed once, as the size
            continue
        swap = p.name in transposed
        name = low.fresh(f"{p.name}_t" if swap else p.name)
        if isinstance(p.type, Array):
            shape = tuple(size_expr(low, s) for s in p.type.shape)
            names = shape_names(p.type)
            laid = swapped(shape) if swap else shape  # the extents as the array lies in memory
            strides, stride = [], const(1)
            for extent in reversed(laid):
                strides.insert(0, stride)
                stride = mul(stride, factor(extent))
            low.env[p] = View(name, const(0), swapped(tuple(strides)) if swap else tuple(strides), shape,
                              ctype_of(p.type))
            params.append(kir.Param(name, ctype_of(p.type), "input", p.name, swapped(names) if swap else names,
                                    transposed=swap))
            low.arrays[name], low.extents[name] = params[-1], laid
        else:
            low.env[p] = kir.Ref(name)
            low.launch_scalars.add(name)
            params.append(kir.Param(name, ctype_of(p.type), "scalar", p.name))
    shape = tuple(size_name(lv.size) for lv in k.levels)
    for i, t in enumerate(k.outputs):
        named = k.output_names[i] if i < len(k.output_names) else f"out{i}"
        params.append(kir.Param(_own(low, named), ctype_of(t), "output", f"out{i}", shape))
    for b, name in launch_outputs(k).items():  # (the launch's first kernel writes them: its outputs so named)
        params.append(kir.Param(_own(low, name), ctype_of(b.type), kir.SCRATCH, name, (1,)))
    return params + sizes


def _own(low: Body, name: str) -> str:
    """A parameter's name: tiler's own for a value computed once a launch
    (the kernel writing it and those reading it must agree on it), else
    made fresh from the program's."""
    if not name.startswith(LAUNCH_OUTPUT):
        return low.fresh(name)
    low.used.add(name)
    return name


def swap_at(axes: tuple, a: int) -> tuple:
    """Axes `a` and `a + 1` exchanged."""
    return axes[:a] + (axes[a + 1], axes[a]) + axes[a + 2:]


def swapped(axes: tuple) -> tuple:
    """The last two axes exchanged."""
    return axes[:-2] + (axes[-1], axes[-2])


def wide_factor(extent):
    """A size as a factor of a 64-bit flat offset (every size itself fits an int)."""
    return kir.Cast(target.INDEX, extent) if not isinstance(extent, kir.Const) or extent.value > 1 else extent


def size_expr(low: Body, size):
    return const(size) if isinstance(size, int) else low.env[size]


def size_name(size):
    return size if isinstance(size, int) else size.name


def shape_names(t: Array) -> tuple:
    return tuple(size_name(s) for s in t.shape)


def flat_index(indices, sizes, factor):
    """The row-major offset of a point of the map nest in an output array."""
    flat = const(0)
    for g, s in zip(indices, sizes):
        flat = add(mul(flat, factor(s)), g)
    return flat


def output_stores(outputs, flat, values, span) -> tuple:
    """A point's values stored to the output arrays."""
    return tuple(kir.Store(o.name, flat, v, kir.GLOBAL, span) for o, v in zip(outputs, values))
