"""The compiler's stages, as data.

Each `Stage` has a name, what it takes and gives, and its entry function
(one per package, in pipeline order). `run_to(name, text, file)` runs the
stages up to and including `name`; the command line's `--emit` and
`--stop-after` choices are made from `STAGES`.
"""
from __future__ import annotations

import contextlib
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from . import target
from .analyse import DEFAULT, Context, analyse
from .check import check
from .errors import CompilerBug, PlainError, UserError
from .kernel import kernel_of
from .kir.verify import check_module
from .render import render
from .resources import shipped_program
from .source import Source, program_stem
from .syntax import deepest, parse
from .transform import PASS
from .tree import no_cycle_collection
from .versions import versions_of
from .versions.lowering import lower_shown, lower_versions


@dataclass(frozen=True)
class Stage:
    name: str
    description: str
    run: Callable  # (value of the previous stage, Source, Context: the user's options and the GPU) -> value
    emit: str  # what `--emit` calls its value


STAGES: tuple[Stage, ...] = (
    Stage("parse", "program text -> syntax tree (tiler.syntax)", lambda text, src, opt: parse(text, src.name), "ast"),
    Stage("check", "syntax tree -> typed program: names, types, sizes, kernel shape (tiler.check)",
          lambda tree, src, opt: check(tree, src), "typed"),
    Stage("kernel", "typed program -> one kernel with every helper inlined, and index reads along a stream's "
                    "position (and a plain loop's along its index, unless --keep-loops) made stream inputs "
                    "(tiler.kernel)",
          lambda prog, src, ctx: kernel_of(prog, *ctx.options.kernel_stage()),
          "kernel"),
    Stage("analyse", "kernel -> variance of every name and a tiling plan with reasons (tiler.analyse)",
          lambda kernel, src, ctx: analyse(kernel, ctx.options, ctx.device), "analysis"),
    Stage("versions", "analysis -> the module's versions as records: each kernel's schedule and flavour (copies, "
                      "offsets, transposed reads), its launch condition as tests, its rival and stages, and a fold "
                      "over rows fissioned or why not (tiler.versions)",
          lambda analysis, src, opt: versions_of(analysis, src.name), "versions"),
    Stage("lower", "versions -> kernel IR module: each version's kernel lowered (its loops, loads, shared tiles, "
                   "copies, barriers) under its condition (tiler.versions.lower_versions, tiler.lower)",
          lambda versions, src, opt: _named(lower_versions(versions), src), "lowered"),
    Stage("widen", "kernel IR -> kernel IR with each int-by-int product that starts a 64-bit offset one widening "
                   "multiply (the pass `widen`, tiler.transform.widen)",
          lambda module, src, opt: PASS["widen"].run(module), "widened"),
    Stage("prune", "kernel IR -> kernel IR without what reaches no store (the pass `prune`, tiler.transform.prune)",
          lambda module, src, opt: PASS["prune"].run(module), "pruned"),
    Stage("verify", "kernel IR -> the same, checked: barriers, shared reads, register arrays, vector accesses, "
                    "limits (tiler.kir.verify)",
          lambda module, src, opt: check_module(module), "kir"),
    Stage("render", "kernel IR module -> CUDA text from the Jinja templates (tiler.render)",
          lambda kernel, src, opt: render(kernel), "cuda"),
)
STAGE_NAMES = tuple(s.name for s in STAGES)
# launch and header: the render stage's launch description, and the C header of its host launcher
EMITS = tuple(s.emit for s in STAGES) + ("launch", "header")
FRONT = ("parse", "check")  # a failure here may be the user's; after them, it is tiler's
DEEP = 100  # nesting past which running out of recursion is the program's depth, not a defect of tiler's
# the most nested loops, ifs and brackets (lets aside) any program may have: every stage follows this many (a
# stage after check takes more room a level than check, so check refuses past it too: what it accepts compiles)
FOLLOWED = 16_384


STDIN = "-"  # a program path that means: read the program from standard input
MAX_PROGRAM_BYTES = 64 * 2**20  # a program file's most (a generated one of a million lets is a few MiB)
STDIN_NAME = "<stdin>"


def read_program(path: str) -> tuple[str, str]:
    """The text of a program file (`-`: standard input; where no such file
    exists, a shipped benchmark's name: `mm`), or a clear error for a missing
    or binary file."""
    shipped = shipped_program(path) if path != STDIN else None
    if shipped is not None:
        return shipped.read_text(), _shipped_label(shipped)
    try:
        if path != STDIN and (Path(path).is_char_device() or Path(path).is_block_device() or Path(path).is_socket()):
            raise PlainError(f"{path} is a device, not a file: a program is a file of text",
                             "give the program's file, or - to read it from standard input")
        with (open(path, "rb") if path != STDIN else contextlib.nullcontext(sys.stdin.buffer)) as f:
            data = f.read(MAX_PROGRAM_BYTES + 1)  # (never more: /dev/zero on standard input ends here too)
    except IsADirectoryError:
        raise PlainError(f"{path} is a directory, not a program") from None
    except OSError as exc:
        raise PlainError(f"cannot read {path}: {exc.strerror or exc}") from None
    if len(data) > MAX_PROGRAM_BYTES:
        raise PlainError(f"{path if path != STDIN else 'standard input'} holds more than "
                         f"{MAX_PROGRAM_BYTES // 2**20} MiB: no kernel program is that long", "is it the right file?")
    try:
        return data.decode("utf-8"), STDIN_NAME if path == STDIN else path
    except UnicodeDecodeError as exc:
        text = data[:exc.start].decode("utf-8", errors="replace")
        source = Source(text + "?", path)
        span = source.span(len(source.text) - 1)  # the "?": where the bad byte is
        raise UserError.at(span, f"the file is not UTF-8 text: byte 0x{data[exc.start]:02x}",
                           "tiler programs are plain text", source) from None


def program_file(path: str) -> Path | None:
    """The file a program argument names, where its `.toml` lies beside it:
    a shipped benchmark's where no file of that name exists (`mm`), else the
    path as given; None for standard input."""
    if path == STDIN:
        return None
    return shipped_program(path) or Path(path)


def _shipped_label(shipped: Path) -> str:
    """`benchmarks/NAME` where that names this very file (a checkout's);
    else the shipped file's own path, so that no location points at another
    file of that name."""
    short = Path("benchmarks") / shipped.name
    try:
        if short.samefile(shipped):
            return str(short)
    except OSError:
        pass
    return str(shipped)


def _too_deep(source: Source, lets: bool = True) -> UserError:
    depth, offset = deepest(source.text, lets)
    most = "" if lets else f"; at most {FOLLOWED:,} loops, ifs, lambdas and brackets, lets aside"
    return UserError.at(source.span(offset), f"the program is nested too deeply for tiler to follow "
                        f"(about {depth:,} levels here{most})",
                        "bind inner parts to names with `let` (a chain of lets is followed much further) "
                        "or split the work into helper functions", source)


def _named(module, source: Source):
    """The module's symbols named by --name, where it was given."""
    return module.named(source.stem, program_stem(source.name)) if source.stem else module


def symbol_name(name: str | None, flag: str = "--name") -> str:
    """A --name value, checked: it goes into C identifiers (`tiler_NAME_launch`)."""
    if name is None:
        return ""
    if not isinstance(name, str) or not re.fullmatch(r"[A-Za-z][A-Za-z0-9_]{0,63}", name) or "__" in name:
        raise PlainError(f"{flag} {name!r}: the generated symbols are tiler_NAME_launch and tiler_NAME_tiled, so "
                         "NAME is a letter, then letters, digits and single underscores (64 at most)",
                         "for example --name my_kernel")
    return name


def run_to(name: str, text: str, file: str = "<input>", options=DEFAULT, device: target.Device = target.DEFAULT_DEVICE):
    """The value of stage `name` for a program's text; user errors carry the source."""
    return run_all(text, file, options, until=name, device=device)[name]


def run_all(text: str, file: str = "<input>", options=DEFAULT, until: str = "render", stem: str = "",
            device: target.Device = target.DEFAULT_DEVICE) -> dict:
    """Every stage's value up to `until`, by stage name (`stem`: the name in
    the generated symbols, default the file's; `device`: the GPU planned for,
    the defaults where none is at hand). A user error carries the source; a
    failure after `check` is a compiler bug, except running out of recursion
    on a program nested DEEP or more: a located user error."""
    source = Source(text, file, stem)
    context = Context(options, device)
    if deepest(source.text, lets=False)[0] > FOLLOWED:
        raise _too_deep(source, lets=False)
    value, values = source.text, {}
    for stage in STAGES:
        try:
            with no_cycle_collection():  # the trees hold no cycles
                value = stage.run(value, source, context)
        except UserError as exc:
            raise exc.with_source(source) from None
        except RecursionError as exc:
            if deepest(source.text)[0] >= DEEP:  # a limit of tiler's, met by a deeply nested program: say where
                raise _too_deep(source) from None
            if stage.name in FRONT:
                raise
            raise CompilerBug(f"RecursionError: {exc}", stage=stage.name) from exc  # a shallow program: a defect
        except (CompilerBug, PlainError):  # a PlainError is about the options, not tiler
            raise
        except Exception as exc:  # noqa: BLE001 - after checking, any failure is tiler's
            if stage.name in FRONT:
                raise
            raise CompilerBug(f"{type(exc).__name__}: {exc}", stage=stage.name) from exc
        values[stage.name] = value
        if stage.name == until:
            return values
    raise ValueError(f"no stage called {until!r}; stages: {', '.join(STAGE_NAMES)}")


def shown_synchronous(values: dict) -> list[tuple]:
    """For `explain --show-transformed`: the plan's first kernel (and a
    fissioned fold's pairs' kernel) lowered once more with every copy
    synchronous, which the register tiling rewrites do not touch, each with
    its trace: (versions.shown.Shown, kir.Kernel). The module's own kernels
    keep their pipelines; this is the one kernel the pipeline lowers for
    explain alone."""
    return lower_shown(values["versions"], synchronous_copies=True)
