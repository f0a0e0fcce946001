"""tiler from Python: `tiler.compile(program, **options)`.

    import numpy as np, tiler
    k = tiler.compile("benchmarks/mm.fut")          # a path, or the program's text
    print(k.explain["streams"][0]["reason"])       # what `tiler explain --json` says
    k.cuda, k.header, k.launch                       # what `tiler compile` writes
    (c,) = k.run(A=a, B0=b)                          # on the GPU (pycuda), NumPy in and out
    (c,) = k.run(A=cupy.asarray(a), B0=torch_b)      # device arrays in place, outputs left on the device
    (want,) = k.reference(A=a, B0=b)                 # the reference interpreter

The plan options are the command line's, as keywords (`tiler.analyse.
options.OPTIONS` lists them; docs/python-api.md has the table): `tile`
(an int, a tuple per dimension, or the command line's text), `sizes`
(sizes known in advance, a dict), `chunk`, ...; and `name` (`--name`),
`file` and `tuning`. Mistakes raise
`tiler.UserError` (in the program; `.render()` gives the located message)
or `tiler.PlainError` (in an option or an input).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from . import kir
from .analyse import make_options
from .analyse.options import check_size_names
from .deep import call_deep
from .errors import PlainError
from .source import Source

__all__ = ["compile", "Compiled"]

REPR_VERSIONS = 6  # the versions a Compiled's repr names (mm has 13: the rest counted)


@dataclass(frozen=True)
class Compiled:
    """A compiled program: its CUDA and what describes it."""

    file: str
    cuda: str  # the kernels and the host launcher (`tiler compile -o kernel.cu`)
    header: str  # the launcher's C header (`kernel.h`)
    launch: dict  # the launch description (`kernel.launch.json`)
    explain: dict  # the analysis records (`tiler explain --json`)
    module: kir.Module  # the kernel IR: every version and its launch condition
    program: object  # the checked program (for the interpreter)

    def __repr__(self) -> str:  # the dataclass's would print every kernel's CUDA
        names = [v.kernel.name for v in self.module.versions]
        versions = ", ".join(names[:REPR_VERSIONS]) + (f" and {len(names) - REPR_VERSIONS} more"
                                                        if len(names) > REPR_VERSIONS else "")
        sizes = ", ".join(b.name for b in self.program.kernel.sizes)
        return f"<tiler.Compiled {self.file}: sizes {sizes or 'none'}; versions {versions}>"

    def sizes_of(self, inputs: dict) -> dict:
        """main's sizes, read from the arrays given (which must agree on them)."""
        if not isinstance(inputs, dict):
            raise PlainError(f"sizes_of({type(inputs).__name__}): give main's arguments as a dict of name to value",
                             "k.sizes_of({'A': a, 'B0': b})")
        from .interp import bind_sizes
        from .workload import resolve_sizes

        missing = [p.name for p in self.program.kernel.params if p.name not in inputs]
        if missing:
            raise PlainError(f"no value for {', '.join(missing)}",
                             f"main takes {', '.join(p.name for p in self.program.kernel.params)}")
        bind_sizes(self.program.kernel, inputs)
        return resolve_sizes(self.program, {}, None, inputs=inputs)

    def run(self, **inputs) -> tuple:
        """The outputs on the GPU, for main's parameters by name, and the
        launch picks the version as the host launcher would. NumPy arrays
        and scalars are checked and converted as `tiler run -i` does, and the
        outputs come back as NumPy arrays. Arrays already on the GPU (CuPy,
        PyTorch, anything with __cuda_array_interface__ or CUDA DLPack) are
        read in place, and the outputs stay there, made by the library of the
        first of them; the call returns when they are written."""
        from .runtime import Gpu

        host, device = self._split(inputs)
        library = next((device[p.name].library for p in self.program.kernel.params if p.name in device), None)
        outputs, _ = Gpu.get().run(self.module, self.cuda, host | device, self.sizes_of(host | device),
                                   outputs_on=library)
        return outputs

    def reference(self, **inputs) -> tuple:
        """The reference interpreter's outputs for the same inputs (arrays on
        the GPU are copied to the host for it)."""
        from .interp import run

        host, device = self._split(inputs)
        if device:
            from .runtime import Gpu
            from .runtime.interop import to_host

            host |= {name: to_host(d, Gpu.get()) for name, d in device.items()}
        from .workload import check_run_memory

        check_run_memory(self.program, self.sizes_of(host), host)
        return run(self.program, host)

    def _split(self, inputs: dict) -> tuple[dict, dict]:
        """Host values, checked and converted; device arrays, checked and
        read in place (`interop.DeviceArray`)."""
        from .check.types import Array
        from .interp.values import dtype
        from .runtime import interop
        from .workload import check_given

        params = {p.name: p for p in self.program.kernel.params}
        unknown = sorted(set(inputs) - set(params))
        if unknown:
            raise PlainError(f"`{unknown[0]}` is not a parameter of main", f"its parameters are {', '.join(params)}")
        device, scalars = {}, {}
        for name, value in inputs.items():
            if name in params and interop.on_device(value):
                t = params[name].type
                rank = t.rank if isinstance(t, Array) else 0
                d = interop.device_array(name, value)
                interop.check_param(name, dtype(t), rank, d, bfloat16=(t.elem if rank else t).kind == "bf16")
                if rank:
                    device[name] = d
                else:  # a scalar is passed by value: one element read back
                    from .runtime import Gpu

                    scalars[name] = interop.to_host(d, Gpu.get())
        rest = {n: v for n, v in inputs.items() if n not in device} | scalars
        host, _ = check_given(self.program, rest, flag="")
        return host, device


def compile(program: str | Path, *, file: str | None = None, tuning: str | bool | None = None,
            name: str | None = None, **options) -> Compiled:
    """Compile a program (a path to a `.fut` file, or its text; `file` names
    text in messages) as `tiler compile` does. `tuning`: a tuning file, or
    False for none; by default a path's own `.tuning` (tiler/tune/tuning.py).
    `name`: the name in the generated symbols (`tiler_NAME_launch`), as
    `--name` gives it."""
    from .pipeline import symbol_name
    from .render import header, launch

    symbol = symbol_name(name, "name")
    text, shown, path = _program(program, file)
    options = make_options(pair=lambda what, size, value: f"{what}[{size!r}] = {value!r}", **options)
    from .tune.tuning import describe, for_program

    options, applied = for_program(path, options, _tuning_file(tuning), tuning is False)
    # the room for deep programs the command line gives itself (a chain of ten thousand lets is legal)
    values, explained = call_deep(_compiled, text, shown, options, symbol, applied)
    module = values["verify"]
    explained |= {"tuning": describe(applied)}
    return Compiled(shown, values["render"], header(module), launch(module), explained, module, values["check"])


def _compiled(text: str, name: str, options, stem: str = "", applied=None) -> tuple[dict, dict]:
    """Every stage's value, and what explain says of them (both recurse over the program)."""
    from .pipeline import run_all
    from .report.explain import explain_data

    values = run_all(text, name, options, stem=stem)
    check_size_names(values["check"].kernel, options)
    return values, explain_data(values["analyse"], Source(text, name), values["verify"], applied, values["versions"])


def _tuning_file(tuning) -> str | None:
    """`tuning`: a tuning file's path (a str or a path object), False for
    none, None for the program's own; anything else is refused."""
    import os

    if tuning is None or tuning is False:
        return None
    if isinstance(tuning, os.PathLike):
        return os.fspath(tuning)
    if isinstance(tuning, str) and tuning:
        return tuning
    raise PlainError(f"tuning={tuning!r}: a tuning file's path, False for none, or None (the program's own "
                     "PROG.tuning where there is one)")


def _program(program, file: str | None) -> tuple[str, str, str]:
    """A path (a `pathlib.Path` or other path object, or a str naming a file
    or a shipped benchmark: read as the command line reads it), or the
    program's text (a str holding a `fun`); anything else is refused. Its
    text, the name messages give it, and its path ("-" for text: no
    tuning file of its own)."""
    import os

    from .pipeline import read_program
    from .resources import shipped_program

    if file is not None and not isinstance(file, str):
        raise PlainError(f"file {file!r}: the name messages give a program passed as text, a str")
    if isinstance(program, os.PathLike):
        text, name = read_program(os.fspath(program))
        return text, file or name, os.fspath(program)
    if not isinstance(program, str):
        raise PlainError(f"tiler.compile({type(program).__name__}): a program is its text (a str) or a path "
                         "(a str or a pathlib.Path)", "decode bytes first: program.decode('utf-8')"
                         if isinstance(program, (bytes, bytearray)) else "")
    if "\n" not in program and (program.endswith(".fut") or shipped_program(program) is not None
                                 or not re.search(r"\bfun\b", program)):
        if shipped_program(program) is None and not os.path.exists(program) and not program.endswith(".fut") \
                and os.sep not in program:  # (a .fut path that is not there: read_program says it cannot be read)
            raise PlainError(f"no such file or shipped benchmark: {program}",
                             "a program is given as its text (holding `fun ... main`), a path to a .fut file, "
                             "or a benchmark's name (tiler bench --list); pass pathlib.Path(...) for a file")
        text, name = read_program(program)
        return text, file or name, program
    return program, file or "<string>", "-"
