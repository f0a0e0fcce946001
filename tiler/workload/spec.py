"""Benchmark metadata and input generation.

A program `prog.fut` may have `prog.toml` beside it (`load_spec`): sizes for
a `test`, `quick` and `full` run (an int, or a formula of other sizes), how
to make each input, and the work done (a FLOP formula). `make_inputs` gives
random inputs for any checked program, following the spec where there is one.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .. import bfloat16, target, tomlfile
from ..check import typed as T
from ..check.types import Array, Binder
from ..errors import PlainError, UserError
from ..interp.values import dtype, narrowed
from ..syntax import ast, parse_expression
from . import memory

DEFAULT_SIZE = 100  # not a multiple of any tile, on purpose
SIZE_SETS = ("test", "quick", "full")
# what a benchmark's [library] table may name, and the library routine each is
# (bench/library.py runs them; "copy" is the copy bandwidth, no library)
LIBRARY_OPS = {"matmul": "cuBLAS SGEMM", "matvec": "cuBLAS SGEMV", "copy": None, "softmax": "torch.softmax(dim=-1)",
               "layernorm": "torch layer_norm (no affine)", "rowsum": "torch.sum(dim=-1)",
               "attention": "torch scaled_dot_product_attention"}


@dataclass(frozen=True)
class Spec:
    path: Path
    title: str = ""
    sizes: dict = field(default_factory=dict)  # set name -> {size name: int | formula}
    inputs: dict = field(default_factory=dict)  # parameter name -> generator table
    flops: str | None = None
    tolerance: float | None = None  # None: not stated (workload.checks.check_tolerance: the outputs' default)
    library: dict = field(default_factory=dict)  # a library doing the same work, for comparison
    text: str = ""  # the file's text: its errors are located in it

    def error(self, table: str, key: str, message: str, hint: str = "") -> UserError:
        """`message` at `key = ...` of `[table]` in the spec's file (a located user error)."""
        return tomlfile.error(self.text, str(self.path), message, key, table, hint=hint)

    def size_set(self, name: str) -> dict:
        if name not in self.sizes:
            raise PlainError(f"{self.path.name} has no [sizes.{name}] table",
                             f"it has {', '.join(self.sizes) or 'none'}")
        return dict(self.sizes[name])


def load_spec(program_path: str | Path) -> Spec | None:
    path = Path(program_path).with_suffix(".toml")
    if not path.is_file():
        return None
    try:
        text = path.read_text()
    except UnicodeDecodeError as exc:
        raise PlainError(f"cannot read {path}: {exc}") from None
    data = tomlfile.load(text, str(path))
    _check_document(data, text, str(path))
    library = data.get("library", {})
    if library and library.get("op") not in LIBRARY_OPS:
        raise PlainError(f"{path.name}: [library] op = {library.get('op')!r} is not one tiler bench runs",
                         f"choose from {', '.join(LIBRARY_OPS)}")
    tolerance = data.get("check", {}).get("tolerance")
    if tolerance is not None and (isinstance(tolerance, bool) or not isinstance(tolerance, (int, float))
                                  or not 0 < tolerance < math.inf):
        raise tomlfile.error(text, str(path), f"tolerance = {tolerance!r}: a positive number", "tolerance", "check",
                             hint="the largest relative difference accepted, e.g. 1e-3")
    spec = Spec(path, data.get("title", ""), data.get("sizes", {}), data.get("inputs", {}),
                data.get("work", {}).get("flops"), None if tolerance is None else float(tolerance), library, text)
    for name, gen in spec.inputs.items():
        _check_generator(spec, name, gen)
    return spec


GENERATORS = ("constant", "uniform", "normal", "integers", "grid_neighbours")
TABLES = {"sizes": "[sizes.test], [sizes.quick], ... each a table of size names", "inputs": "a table of generators, "
          "one an input", "work": "a table: flops = \"2 * m * n\"", "check": "a table: tolerance = 1e-3",
          "library": "a table: op = \"matmul\", operands = [...]"}


def _toml_text(value) -> str:
    """A value as TOML writes it (true, 1979-05-27), for messages."""
    return str(value).lower() if isinstance(value, bool) else value.isoformat() if hasattr(value, "isoformat") \
        else repr(value)


def _check_document(data: dict, text: str, path: str) -> None:
    """Every value of a program's .toml of the type and range it must have,
    or a located error: its tables are tables, a size a whole number (or a
    formula of other sizes) an int can hold, the title text."""
    for key, value in data.items():
        if key == "title":
            if not isinstance(value, str):
                raise tomlfile.error(text, path, "title must be text", "title", hint='e.g. title = "row sums"')
        elif key in TABLES:
            if not isinstance(value, dict):
                raise tomlfile.error(text, path, f"`{key}` must be {TABLES[key]}", key)
        else:
            raise tomlfile.error(text, path, f"unknown key `{key}`", key,
                                 hint=f"a program's .toml holds title, {', '.join(TABLES)}")
    for name, table in data.get("sizes", {}).items():
        if not isinstance(table, dict):
            raise tomlfile.error(text, path, f"sizes.{name} must be a table of size names to whole numbers", name,
                                 "sizes", hint=f"[sizes.{name}] then one `n = 1024` a line")
        for size, value in table.items():
            if isinstance(value, str):
                continue  # a formula: evaluated, and checked, at its sizes
            if isinstance(value, bool) or not isinstance(value, int):
                raise tomlfile.error(text, path, f"{size} = {_toml_text(value)}: a size is a whole number (or a "
                                     "formula in quotes)", size, f"sizes.{name}", hint=f"e.g. {size} = 1024")
            if not 0 <= value <= target.INT_MAX:
                raise tomlfile.error(text, path, f"{size} = {value:,}: a size is an int, from 0 to "
                                     f"{target.INT_MAX:,}", size, f"sizes.{name}")
    for name, value in data.get("work", {}).items():
        if name != "flops" or not (isinstance(value, str) or isinstance(value, (int, float)) and
                                   not isinstance(value, bool)):
            raise tomlfile.error(text, path, f"work: `{name}` = {value!r}: work holds flops, a number or a formula",
                                 name, "work")
    library = data.get("library", {})
    if "operands" in library and not (isinstance(library["operands"], list)
                                      and all(isinstance(x, str) for x in library["operands"])):
        raise tomlfile.error(text, path, "library operands must be a list of parameter names", "operands", "library")


def _check_generator(spec: Spec, name: str, gen) -> None:
    """What can be checked before the sizes are known: the generator's kind and its values' form."""
    def number(x) -> bool:
        return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)

    if not isinstance(gen, dict) or not any(k in gen for k in GENERATORS):
        raise spec.error("inputs", name, f"the input `{name}` has no generator", f"use {', '.join(GENERATORS)}")
    for kind in ("uniform", "normal", "integers"):
        if kind in gen and not (isinstance(gen[kind], list) and len(gen[kind]) == 2
                                and all(number(x) or isinstance(x, str) for x in gen[kind])):
            raise spec.error("inputs", name, f"{kind} = {gen[kind]!r}: two finite numbers (or size formulas)",
                             f"e.g. {{ {kind} = [0, 10] }}")
    if "normal" in gen and (not all(number(x) for x in gen["normal"]) or gen["normal"][1] < 0):
        raise spec.error("inputs", name, f"normal = {gen['normal']!r}: a mean and a standard deviation of at least 0")
    if "constant" in gen and not (number(gen["constant"]) or isinstance(gen["constant"], bool)):
        raise spec.error("inputs", name, f"constant = {gen['constant']!r}: a finite number")


def evaluate(formula, env: dict[str, int]) -> int | float:
    """An int, or a formula over sizes in the language's own syntax."""
    if isinstance(formula, (int, float)):
        return formula
    try:
        return _eval(parse_expression(str(formula)), env)
    except UserError as exc:
        raise PlainError(f"bad formula `{formula}`: {exc.diagnostics[0].message}") from None


def _eval(e, env):
    if isinstance(e, (ast.IntLit, ast.FloatLit)):
        return e.value
    if isinstance(e, ast.Var):
        if e.name not in env:
            raise PlainError(f"formula uses `{e.name}`, which is not a known size")
        return env[e.name]
    if isinstance(e, ast.UnOp) and e.op == "-":
        return -_eval(e.operand, env)
    if isinstance(e, ast.BinOp) and e.op in "+-*/%":
        a, b = _eval(e.lhs, env), _eval(e.rhs, env)
        if e.op in "/%" and b == 0:
            raise PlainError("division by zero")
        return {"+": a + b, "-": a - b, "*": a * b, "/": a // b if isinstance(a, int) and isinstance(b, int) else a / b,
                "%": a % b}[e.op]
    raise PlainError("formulas may use numbers, sizes, + - * / % and parentheses")


def resolve_sizes(program: T.Program, given: dict[str, int], spec: Spec | None, size_set: str = "test",
                  inputs: dict | None = None) -> dict[str, int]:
    """Every size of `main` by name: from given inputs, `given`, the spec, or the default."""
    k = program.kernel
    known: dict[str, int] = {}
    for p in k.params:
        if inputs and p.name in inputs and p.kind == "size":
            known[p.name] = int(inputs[p.name])
        if inputs and p.name in inputs and isinstance(p.type, Array):
            for s, n in zip(p.type.shape, np.shape(inputs[p.name])):
                if isinstance(s, Binder):
                    known.setdefault(s.name, int(n))
                    if s.name in given and given[s.name] != n:
                        raise PlainError(f"--size {s.name}={given[s.name]}, but the array given for `{p.name}` has "
                                         f"{s.name} = {n}", f"leave out --size {s.name}: the input sets it")
    names = {s.name for s in k.sizes}
    table = spec.size_set(size_set) if spec and size_set in spec.sizes else {}
    scalars = {p.name: p for p in k.scalar_params}
    for name in given:  # a size of the program, or one its spec derives sizes from (boxes1d)
        if name in scalars:
            raise PlainError(f"`{name}` is a scalar parameter, not a size", scalar_input_hint(scalars[name]))
        if name not in names and name not in table:
            raise PlainError(f"`{name}` is not a size of this program", f"its sizes are {', '.join(sorted(names))}")
    env = dict(known)
    env.update(given)
    pending = {n: f for n, f in table.items() if n not in env}
    why: dict[str, str] = {}
    for _ in range(len(pending) + 1):  # formulas may refer to each other in any order
        for name, formula in list(pending.items()):
            try:
                env[name] = int(evaluate(formula, env))
                del pending[name]
            except PlainError as exc:
                why[name] = exc.message
    if pending:
        first = next(iter(pending))
        raise spec.error(f"sizes.{size_set}", first, f"cannot compute size {first} = {pending[first]!r}: {why[first]}")
    sizes = {n: int(env.get(n, DEFAULT_SIZE)) for n in sorted(names)} | {
        n: int(v) for n, v in env.items() if n not in names}
    for name in names:
        if not 0 <= sizes[name] <= target.INT_MAX:
            raise PlainError(f"size {name} = {sizes[name]:,}: a size is an int, from 0 to {target.INT_MAX:,}")
    return sizes


def check_given(program: T.Program, given: dict, flag: str = "--input") -> tuple[dict, list[str]]:
    """Arrays given for parameters (`tiler run -i`; the API's keywords, whose
    messages name them without `flag`), checked against their types: the
    rank must match, and values convert only where they keep their meaning.
    Returns the converted arrays and a note for each conversion."""
    out, notes = {}, []
    for p in program.kernel.params:
        if p.name not in given:
            continue
        try:
            a = np.asarray(given[p.name])
        except ValueError:  # rows of different lengths: no array at all
            raise PlainError(f"{_named(flag, p.name)}: not an array: its rows have different lengths",
                             f"`{p.name}` is {p.type}") from None
        rank = p.type.rank if isinstance(p.type, Array) else 0
        held = f"an array of shape {a.shape} ({a.dtype})" if a.ndim else f"a single {a.dtype}"
        if a.ndim != rank:
            hint = "give a single value (numpy.float32(value)), or save one: numpy.save(path, numpy.float32(value))" \
                if rank == 0 else f"give an array with {rank} dimension{'s' if rank > 1 else ''}"
            holder = "the file holds" if flag else "it is"  # the CLI reads files; the API is given values
            raise PlainError(f"{_named(flag, p.name)}: `{p.name}` is {p.type}, but {holder} {held}", hint)
        try:
            out[p.name], note = _converted(p, a)
        except PlainError as exc:
            raise PlainError(exc.message.replace(f"--input {p.name}", _named(flag, p.name), 1), exc.hint) from None
        if note:
            notes.append(f"{_named(flag, p.name)}: {note}")
    return out, notes


def _named(flag: str, name: str) -> str:
    return f"{flag} {name}" if flag else f"`{name}`"


def _converted(p: Binder, a: np.ndarray):
    want = dtype(p.type)
    if _element(p).kind == "bf16" and a.dtype.kind in "biuf":  # (held in float32: each value rounded to bf16)
        rounded = _range_checked(p, a, bfloat16.MAX) if a.dtype.kind == "f" else a
        converted = narrowed("bf16", rounded)
        exact = bool(np.all(converted.astype(np.float64) == a.astype(np.float64))) if a.size else True
        return converted, "" if exact and a.dtype == want else \
            f"{a.dtype} values rounded to bf16" if not exact else f"{a.dtype} values converted to bf16 (each exact)"
    if a.dtype == want:
        return a, ""
    kind = a.dtype.kind
    fix = f"save it as {want} (numpy: array.astype(numpy.{want}))"
    if want.kind == "b" or kind not in "biuf":
        raise PlainError(f"--input {p.name}: `{p.name}` holds {want}, but the array holds {a.dtype}", fix)
    if want.kind == "i":
        if kind == "f":
            raise PlainError(f"--input {p.name}: `{p.name}` holds {want}, not {a.dtype}: tiler does not turn "
                             "floating-point data into integers", fix)
        info = np.iinfo(want)
        if a.size and (a.min() < info.min or a.max() > info.max):
            bad = a.max() if a.max() > info.max else a.min()
            raise PlainError(f"--input {p.name}: the value {bad} does not fit `{p.name}`'s type, {want}", fix)
        return a.astype(want), f"{a.dtype} values converted to {want} (each fits)"
    if kind == "f" and a.size:
        top = float(np.finfo(want).max)
        finite = a[np.isfinite(a)]
        if finite.size and float(np.max(np.abs(finite))) > top:
            bad = finite.flat[int(np.argmax(np.abs(finite)))]
            raise PlainError(f"--input {p.name}: the value {bad:.6g} is past the range of `{p.name}`'s type, {want} "
                             f"(at most {top:.4g})", "scale the data, or give the parameter a wider type")
    with np.errstate(all="ignore"):  # (a 64-bit integer past a float's precision rounds, which the note says)
        converted = a.astype(want)
        exact = bool(np.all(converted.astype(a.dtype) == a)) if a.size else True
    return converted, f"{a.dtype} values converted to {want}" + ("" if exact else ", some rounded")


def _element(p: Binder):
    return p.type.elem if isinstance(p.type, Array) else p.type


def _range_checked(p: Binder, a: np.ndarray, top: float) -> np.ndarray:
    finite = a[np.isfinite(a)]
    if finite.size and float(np.max(np.abs(finite))) > top:
        bad = finite.flat[int(np.argmax(np.abs(finite)))]
        raise PlainError(f"--input {p.name}: the value {bad:.6g} is past the range of `{p.name}`'s type, "
                         f"{_element(p)} (at most {top:.4g})", "scale the data, or give the parameter a wider type")
    return a


def make_inputs(program: T.Program, sizes: dict[str, int], spec: Spec | None = None, seed: int = 0,
                given: dict | None = None) -> dict:
    """Inputs for every parameter of `main`: given ones kept, the rest random."""
    memory.check_input_memory(program, sizes, given)
    rng = np.random.default_rng(seed)
    out = dict(given or {})
    smallest = min([v for v in sizes.values() if v > 0] or [1])
    for p in program.kernel.params:
        if p.name in out:
            continue
        if p.kind == "size":  # an int parameter that is a size: its value is the size
            out[p.name] = np.int32(sizes[p.name])
            continue
        if not isinstance(p.type, Array) and p.name in sizes:  # a scalar the spec's size table gives a value
            value = sizes[p.name]
            out[p.name] = narrowed(p.type.kind, value)[()] if p.type.is_narrow else dtype(p.type).type(value)
            continue
        gen = (spec.inputs.get(p.name) if spec else None) or {}
        shape = tuple(sizes[s.name] if isinstance(s, Binder) else s for s in p.type.shape) \
            if isinstance(p.type, Array) else ()
        out[p.name] = _generate(p, gen, shape, sizes, smallest, rng, spec)
    return out


def _bad_generator(spec: Spec | None, name: str, message: str) -> Exception:
    """A generator's values that turn out wrong at these sizes: located in the spec where there is one."""
    return spec.error("inputs", name, message) if spec else PlainError(message)


def _generate(p: Binder, gen: dict, shape: tuple, sizes: dict, smallest: int, rng, spec: Spec | None = None):
    want = dtype(p.type)
    if "constant" in gen:
        _within(spec, p, want, gen["constant"], gen["constant"], "constant")
        value = np.full(shape, gen["constant"], dtype=want)
    elif "uniform" in gen:
        lo, hi = (evaluate(x, sizes) for x in gen["uniform"])
        if not (math.isfinite(lo) and math.isfinite(hi) and lo <= hi and math.isfinite(hi - lo)):
            raise _bad_generator(spec, p.name, f"uniform = [{lo}, {hi}] at these sizes: not a finite range from low "
                                 "to high")
        value = rng.uniform(lo, hi, shape)
    elif "normal" in gen:
        mean, std = gen["normal"]
        value = rng.normal(mean, std, shape)
    elif "integers" in gen:
        lo, hi = (evaluate(x, sizes) for x in gen["integers"])
        if not all(isinstance(x, int) or float(x).is_integer() for x in (lo, hi)):
            raise _bad_generator(spec, p.name, f"integers = [{lo}, {hi}]: whole numbers (from low, up to but not high)")
        lo, hi = int(lo), int(hi)
        if not -2**63 <= lo < hi <= 2**63:
            raise _bad_generator(spec, p.name, f"integers = [{lo:,}, {hi:,}]: past the 64-bit integers the generator "
                                 "draws from")
        if lo >= hi:
            raise _bad_generator(spec, p.name, f"integers = [{lo}, {hi}] at these sizes: empty (from low, up to but "
                                 "not high)")
        _within(spec, p, want, lo, hi - 1, "integers")
        value = rng.integers(lo, hi, shape)
    elif "grid_neighbours" in gen:
        table, count = grid_neighbours(int(evaluate(gen["grid_neighbours"], sizes)))
        value = table if gen.get("part", "table") == "table" else count
    elif gen:
        raise PlainError(f"unknown input generator for `{p.name}`: {sorted(gen)}", f"use {', '.join(GENERATORS)}")
    elif want.kind == "f":
        value = rng.uniform(-1.0, 1.0, shape)
    elif want.kind == "b":
        value = rng.integers(0, 2, shape).astype(bool)
    else:  # ints: valid indices into any dimension of the program
        value = rng.integers(0, smallest, shape)
    elem = _element(p)
    value = narrowed(elem.kind, np.asarray(value)) if elem.is_narrow else np.asarray(value).astype(want)
    if value.shape != shape:
        raise PlainError(f"the generator for `{p.name}` gives shape {value.shape}, but {p.type} needs {shape}")
    return value if shape else want.type(value)


def _within(spec: Spec | None, p: Binder, want, lo, hi, kind: str) -> None:
    """A generator's values that the parameter's type can hold (an int past
    it would wrap, a float past it be infinite), or a located error."""
    elem = p.type.elem if isinstance(p.type, Array) else p.type
    if want.kind in "iu":
        info = np.iinfo(want)
        if not info.min <= lo <= hi <= info.max:
            raise _bad_generator(spec, p.name, f"{kind} gives values past the range of {elem} ({info.min:,} to "
                                 f"{info.max:,})")
    elif want.kind == "f" and not isinstance(lo, bool):
        top = float(np.finfo(want).max)
        if not (abs(lo) <= top and abs(hi) <= top):
            raise _bad_generator(spec, p.name, f"{kind} gives values past the range of {elem} (at most {top:.4g})")


def grid_neighbours(boxes1d: int) -> tuple[np.ndarray, np.ndarray]:
    """For a cube of boxes1d^3 boxes: each box's row lists the box itself and
    then its up to 26 neighbours (Rodinia lavaMD's layout); `count` says how
    many entries of the row are used (the rest are 0)."""
    n = boxes1d ** 3
    table = np.zeros((n, 27), dtype=np.int32)
    count = np.zeros(n, dtype=np.int32)
    for box in range(n):
        z, y, x = box // (boxes1d * boxes1d), (box // boxes1d) % boxes1d, box % boxes1d
        row = [box]
        for dz in (-1, 0, 1):
            for dy in (-1, 0, 1):
                for dx in (-1, 0, 1):
                    zz, yy, xx = z + dz, y + dy, x + dx
                    if (dz, dy, dx) != (0, 0, 0) and all(0 <= c < boxes1d for c in (zz, yy, xx)):
                        row.append((zz * boxes1d + yy) * boxes1d + xx)
        table[box, :len(row)] = row
        count[box] = len(row)
    return table, count


def flops(spec: Spec | None, sizes: dict[str, int]) -> float | None:
    return float(evaluate(spec.flops, sizes)) if spec and spec.flops else None


def scalar_input_hint(p: Binder) -> str:
    """How to give a scalar parameter a value."""
    return (f"run, bench and tune take its value as -s {p.name}={_example(p)} (or -i {p.name}=FILE.npy, a 0-d "
            f"array); in a plan it needs no value")


def _example(p: Binder) -> str:
    kind = dtype(p.type).kind
    return "0.5" if kind == "f" else "true" if kind == "b" else "3"


def split_given(program: T.Program, given: dict[str, str], what: str = "-s") -> tuple[dict[str, int], dict]:
    """`-s NAME=VALUE` as the command line gives it, split: the sizes (whole
    numbers) and the values of main's scalar parameters, each as its type
    (a float; an int, within its range; true or false), or a PlainError."""
    scalars = {p.name: p for p in program.kernel.scalar_params}
    sizes, values = {}, {}
    for name, text in given.items():
        p = scalars.get(name)
        if p is None:
            try:
                sizes[name] = int(text)
            except ValueError:
                raise PlainError(f"{what} {name}={text}: a size is a whole number", f"for example {what} {name}=1024"
                                 ) from None
            continue
        values[name] = _scalar(p, text, what)
    return sizes, values


def _scalar(p: Binder, text: str, what: str):
    """A scalar parameter's value from its text, as the parameter's type."""
    want = dtype(p.type)
    words = {"true": True, "false": False}
    try:
        if want.kind == "b":
            if text.lower() not in words:
                raise ValueError
            return want.type(words[text.lower()])
        if want.kind == "f":
            value = float(text)
            top = bfloat16.MAX if p.type.kind == "bf16" else np.finfo(want).max
            if math.isfinite(value) and abs(value) > top:
                raise PlainError(f"{what} {p.name}={text}: past the range of {p.type} (at most {top:.4g})")
            return narrowed("bf16", value)[()] if p.type.kind == "bf16" else want.type(value)
        value = int(text)
    except ValueError:
        raise PlainError(f"{what} {p.name}={text}: `{p.name}` is {p.type}, and `{text}` is not one",
                         f"for example {what} {p.name}={_example(p)}") from None
    info = np.iinfo(want)
    if not info.min <= value <= info.max:
        raise PlainError(f"{what} {p.name}={text}: past the range of {p.type} ({info.min:,} to {info.max:,})")
    return want.type(value)

