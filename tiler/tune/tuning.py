"""Tuned schedule parameters: the `PROG.tuning` file beside a program.

A tuning file holds one `[[tuned]]` table per device and sizes: the plan
options found fastest there (the command line's `--tile`, `--chunk`,
`--register-tile`, ... by their Python names), the time they took and the
default schedule's time. `compile`, `explain` and `bench` read the file
beside the program (or `--tuning FILE`; `--no-tuning` ignores it) and apply
the parameters the command line left at their defaults:

    [[tuned]]
    device = "NVIDIA H200"
    sizes = { n = 8192, m = 8192 }
    tile = [32]
    chunk = 64
    time_ms = 0.121
    default_ms = 0.130
    date = "2026-11-21"

A table for another device is not used (and `explain` says so). Without a
GPU to ask, the tables are used when they all name one device. A table
tuned under `--fast-math` (`fast_math = true`) applies only to commands
given `--fast-math`, and the others only to commands without it: a tuning
file never changes how a kernel rounds. So with `--tensor-cores`
(`tensor_cores = true`): the matrix units round and add in their own order. Likewise a table tuned with loops
kept as loops (`keep_loops = true`, `tiler tune --keep-loops`) applies only
to commands given `--keep-loops`: its parameters are another kernel's.
"""
from __future__ import annotations

import datetime
import math
from dataclasses import dataclass, fields, replace
from pathlib import Path

from .. import tomlfile
from ..analyse import Options, make_options
from ..analyse.options import CLI_NAMES, OPTIONS, TUNED, contradiction, tile_text
from ..errors import PlainError

SUFFIX = ".tuning"
RECORD = ("device", "sizes", "time_ms", "default_ms", "date", "fast_math", "keep_loops",
          "tensor_cores")  # what the table says about the measurement


@dataclass(frozen=True)
class Tuned:
    """One table: the parameters found fastest on `device` at `sizes`."""

    device: str
    sizes: dict
    parameters: dict  # option name -> value, as make_options takes it
    time_ms: float | None = None
    default_ms: float | None = None
    date: str = ""
    fast_math: bool = False  # tuned under --fast-math: for commands given it, and only them
    keep_loops: bool = False  # tuned under --keep-loops: likewise
    tensor_cores: bool = False  # tuned under --tensor-cores: likewise (the units round differently)


@dataclass(frozen=True)
class Applied:
    """What a command took from a tuning file, for explain."""

    file: str
    tuned: Tuned | None  # None: the file was read, but no table applies
    used: dict  # the parameters applied (the command line's own values win)
    note: str  # why this table, or why none


def tuning_path(program: str) -> Path | None:
    """The tuning file beside a program, when there is one."""
    if program == "-":
        return None
    path = Path(program).with_suffix(SUFFIX)
    return path if path.is_file() else None


def read(path: Path) -> list[Tuned]:
    try:
        text = path.read_text()
    except (OSError, UnicodeDecodeError) as exc:
        raise PlainError(f"cannot read the tuning file {path}: {exc}") from None

    def wrong(message: str, key: str, n: int = 0, hint: str = ""):  # at table n's `key` (0: top level)
        return tomlfile.error(text, str(path), message, key, "tuned" if n else "", n or 1, hint)

    data = tomlfile.load(text, str(path), "cannot read the tuning file")
    stray = sorted(set(data) - {"tuned"})
    if stray:  # a parameter outside any table would be read by nothing
        raise wrong(f"`{stray[0]}` is outside every [[tuned]] table", stray[0],
                    "put it in a table under [[tuned]], beside the device it was tuned on")
    tables = data.get("tuned", [])
    if not isinstance(tables, list) or not all(isinstance(t, dict) for t in tables):
        raise wrong("`tuned` must be a list of tables ([[tuned]])", "tuned")
    out = []
    for n, t in enumerate(tables, 1):
        unknown = set(t) - set(TUNED) - set(RECORD)
        if unknown or "device" not in t:
            key = sorted(unknown)[0] if unknown else "device"
            raise wrong(f"tuned table {n} has " + (f"unknown key `{key}`" if unknown else "no `device`"), key, n,
                        f"a table holds device, sizes, time_ms, default_ms, date and {', '.join(TUNED)}")
        for flag in ("fast_math", "keep_loops", "tensor_cores"):
            if not isinstance(t.get(flag, False), bool):
                raise wrong(f"tuned table {n}: `{flag}` must be true or false", flag, n)
        for key in ("time_ms", "default_ms"):  # what the tuner measured: a number of milliseconds, if given
            value = t.get(key)
            if value is not None and (isinstance(value, bool) or not isinstance(value, (int, float))
                                      or not math.isfinite(value) or value < 0):
                raise wrong(f"tuned table {n}: `{key}` must be a number of milliseconds", key, n,
                            f"e.g. {key} = 1.25")
        if not isinstance(t.get("device", ""), str) or not isinstance(t.get("date", ""), (str, datetime.date)):
            key = "device" if not isinstance(t.get("device", ""), str) else "date"
            raise wrong(f"tuned table {n}: `{key}` must be text", key, n, f'e.g. {key} = "NVIDIA H200"'
                        if key == "device" else 'e.g. date = "2026-11-28"')
        sizes = t.get("sizes", {})
        if not isinstance(sizes, dict) or not all(isinstance(v, int) and not isinstance(v, bool)
                                                  for v in sizes.values()):
            raise wrong(f"tuned table {n}: `sizes` must be a table of size names to whole numbers", "sizes", n,
                        "e.g. sizes = { n = 4096 }")
        params = {k: (tuple(v) if isinstance(v, list) else v) for k, v in t.items() if k in TUNED}
        for key, value in params.items():  # each value checked as the command line's would be, and located
            try:
                make_options(**{key: value})
            except PlainError as exc:
                raise wrong(f"tuned table {n}: {exc.message}", key, n, exc.hint) from None
        clash = contradiction(params)  # and together: a table whose values contradict each other applies to nothing
        if clash:
            raise wrong(f"tuned table {n}: `{clash[0]}` and `{clash[1]}` contradict each other", clash[1], n,
                        "keep one of them")
        out.append(Tuned(str(t["device"]), dict(sizes), params, t.get("time_ms"), t.get("default_ms"),
                         str(t.get("date", "")), t.get("fast_math") is True, t.get("keep_loops") is True,
                         t.get("tensor_cores") is True))
    return out


def write(path: Path, tables: list[Tuned], program: str) -> None:
    """The tables as a tuning file (every other table of the file is kept by the caller)."""
    lines = [f"# tiler tuning for {program}: read by tiler compile, explain and bench", ""]
    for t in tables:
        lines.append("[[tuned]]")
        lines.append(f"device = {_toml(t.device)}")
        lines.append("sizes = { " + ", ".join(f"{k} = {v}" for k, v in t.sizes.items()) + " }")
        lines += ["fast_math = true"] if t.fast_math else []
        lines += ["keep_loops = true"] if t.keep_loops else []
        lines += ["tensor_cores = true"] if t.tensor_cores else []
        lines += [f"{k} = {_toml(v)}" for k, v in t.parameters.items()]
        lines += [f"{k} = {_toml(v)}" for k, v in (("time_ms", t.time_ms), ("default_ms", t.default_ms),
                                                   ("date", t.date)) if v not in (None, "")]
        lines.append("")
    path.write_text("\n".join(lines))


def merged(old: list[Tuned], new: Tuned) -> list[Tuned]:
    """A file's tables with `new` in place of the one for the same device, sizes and math."""
    key = (new.device, new.sizes, new.fast_math, new.keep_loops, new.tensor_cores)
    return [t for t in old if (t.device, t.sizes, t.fast_math, t.keep_loops, t.tensor_cores) != key] + [new]


def _toml(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(v, (tuple, list)):
        return "[" + ", ".join(_toml(x) for x in v) + "]"
    return repr(v)


def pick(tables: list[Tuned], device: str | None, sizes: dict, fast_math: bool = False,
         keep_loops: bool = False, tensor_cores: bool = False) -> tuple[Tuned | None, str]:
    """The table for this device (None: no GPU to ask) and math (tuned with
    --fast-math or without, as asked) and, among several, the one tuned at
    exactly `sizes` (the --size hints), else the one at the largest sizes;
    with why."""
    same_math = [t for t in tables if t.fast_math == fast_math]
    if tables and not same_math:
        return None, ("tuned without --fast-math: not used with it" if fast_math else
                      "tuned only with --fast-math: not used without it")
    tables = same_math
    same_loops = [t for t in tables if t.keep_loops == keep_loops]
    if tables and not same_loops:
        return None, ("tuned with loops read as streams: not used with --keep-loops" if keep_loops else
                      "tuned only with --keep-loops: not used without it")
    tables = same_loops
    same_units = [t for t in tables if t.tensor_cores == tensor_cores]
    if tables and not same_units:
        return None, ("tuned without --tensor-cores: not used with it" if tensor_cores else
                      "tuned only with --tensor-cores: not used without it")
    tables = same_units
    if device is None:
        devices = {t.device for t in tables}
        if len(devices) != 1:
            return None, f"tuned on {', '.join(sorted(devices)) or 'no device'}; with no GPU here to ask, none is used"
        mine, why = tables, f"tuned on {next(iter(devices))} (no GPU here to compare with)"
    else:
        mine = [t for t in tables if t.device == device]
        if not mine:
            others = ", ".join(sorted({t.device for t in tables}))
            return None, f"tuned on {others}, not on this {device}: not used"
        why = f"tuned on this {device}"
    exact = [t for t in mine if sizes and t.sizes == sizes]
    if exact:
        return exact[-1], f"{why} at the sizes given"
    chosen = max(mine, key=lambda t: math.prod(t.sizes.values()) if t.sizes else 0)
    at = ", ".join(f"{k}={v}" for k, v in chosen.sizes.items())
    return chosen, f"{why}" + (f", at {at}" if at else "")


def apply(options: Options, tuned: Tuned) -> tuple[Options, dict]:
    """The tuned parameters the command line left at their defaults, and
    that contradict none it gave (--no-register-tile wins over a tuned
    register tile, as it would over one given beside it)."""
    default = Options()
    checked = make_options(**tuned.parameters)
    given = {f.name for f in fields(Options) if getattr(options, f.name) != getattr(default, f.name)}
    used = {}
    for f in fields(Options):
        if f.name in tuned.parameters and f.name not in given and not _contradicted(f.name, given):
            used[f.name] = getattr(checked, f.name)
    return replace(options, **used), {k: tuned.parameters[k] for k in used}


def _contradicted(name: str, given: set) -> bool:
    """Whether an option the command line gave contradicts `name`, or `name` it."""
    return any(g in OPTIONS and (name in OPTIONS[g].contradicts or g in OPTIONS[name].contradicts) for g in given)


def flags(used: dict) -> str:
    """The parameters as the command line gives them."""
    out = []
    for k, v in used.items():
        flag = CLI_NAMES[k]
        if isinstance(v, bool):  # False is a flag of its own where the default is neither (None)
            out.append(flag if v else f"--no-{flag[2:]}" if getattr(Options(), k) is None else "")
        else:
            out.append(f"{flag} {tile_text(tuple(v)) if isinstance(v, (tuple, list)) else v}")
    return " ".join(o for o in out if o)


def for_program(program: str, options: Options, file: str | None = None, off: bool = False,
                device=None) -> tuple[Options, Applied | None]:
    """The options with a tuning applied: from `file`, else the program's
    own `.tuning`; none with `off`. `device`: a function giving this GPU's
    name, or None without one (asked only when there is a file)."""
    path = Path(file) if file else tuning_path(program)
    if off or path is None:
        return options, None
    if file and not path.is_file():
        raise PlainError(f"--tuning {file}: no such file")
    tuned, note = pick(read(path), (device or current_device)(), dict(options.sizes), options.fast_math,
                        options.keep_loops, options.tensor_cores)
    if tuned is None:
        return options, Applied(str(path), None, {}, note)
    options, used = apply(options, tuned)
    return options, Applied(str(path), tuned, used, note)


def current_device() -> str | None:
    """This GPU's name, or None when there is none to ask."""
    from ..runtime import Gpu, gpu_unavailable

    return None if gpu_unavailable() is not None else Gpu.get().name


def describe(applied: Applied | None) -> dict | None:
    """explain's record of it."""
    if applied is None:
        return None
    t = applied.tuned
    return {"file": applied.file, "used": {k: list(v) if isinstance(v, tuple) else v for k, v in applied.used.items()},
            "flags": flags(applied.used), "tuned_flags": flags(t.parameters) if t else "",
            "device": t.device if t else None, "sizes": t.sizes if t else None,
            "time_ms": t.time_ms if t else None, "default_ms": t.default_ms if t else None, "note": applied.note}
