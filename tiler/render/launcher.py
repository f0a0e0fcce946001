"""The host launcher, written in C from what `launcher(module)` decides.

`launcher` is the launcher as data (its parameters, the sizes it refuses,
each version's condition, grid, shared memory, scratch and stages); `body`
writes its statements from that data, one small function a part. What every
launcher shares, the SM count read once a device and the race of a version
against its rival, is fixed C++ in templates/launcher.cuh and race.cuh; the
module's template only lays the pieces out.
"""
from __future__ import annotations

from .. import kir, target, tma
from ..kir.build import rewrite
from ..source import program_stem
from .cexpr import c

__all__ = ["launcher", "launcher_name", "body", "transpose_kernel"]

LAUNCHER_DEVICES = 64  # devices whose SM count the host launcher keeps once read


def launcher_name(m: kir.Module) -> str:
    return f"tiler_{m.stem or program_stem(m.source)}_launch"


def launcher(m: kir.Module) -> dict:
    """What the host launcher does, decided here: its parameters, the sizes it
    refuses, and for each version the condition (with the pointer alignment a
    vector version needs), the grid and the shared memory."""
    host = m.params
    names = {p.source: p.name for p in host if p.role in ("size", "scalar")}  # (a scalar a tile is sized by)
    arrays = {p.source: p.name for p in host if p.pointer}

    def in_params(e):  # conditions name sizes as the program does; the launcher's parameters may differ
        return rewrite(e, lambda x: kir.Ref(names.get(x.name, x.name)) if isinstance(x, kir.Ref) else None)

    versions = []
    for v in m.versions:
        k = v.kernel
        conds = [c(in_params(v.condition))] if v.condition is not None else []
        maps = [p for p in k.params if p.role == kir.TENSOR_MAP]
        if k.divisible or maps:  # 128-bit accesses or TMA: every array the caller gives must start 16-byte aligned too
            # (a launch's transposed copy is the launcher's own allocation, aligned already)
            pointers = " | ".join(f"(unsigned long long){_host_name(p, arrays)}" for p in k.params
                                  if p.pointer and not p.transposed)
            conds.append(f"(({pointers}) & 15) == 0")
        versions.append({"kernel": k.name, "few": v.few and v.races_first, "ahead": v.ahead and v.races_first,
                         "plain": v.plain, "fissioned": v.fissioned, "condition": " && ".join(f"({x})" for x in conds) or None,
                         "grid": _grid_c(k, names), "block": list(k.block), "shared": _shared_c(k, in_params),
                         "raise": k.raised_shared,
                         "args": ", ".join(_host_name(p, arrays) for p in k.params),
                         "maps": [(_local(p.name), _map(p, arrays, names)) for p in maps],
                         "scratch": [_scratch(p, arrays[p.source], names) for p in k.transposes] +
                         [_partials(s, in_params) for s in k.scratch],
                         "stages": [{"kernel": s.name, "once": s.once, "grid": _grid_c(s, names), "block": list(s.block),
                                     "shared": s.dynamic_shared_bytes, "raise": s.raised_shared,
                                     "args": ", ".join(_host_name(p, arrays) for p in s.params)} for s in k.stages]})
    index = {v.kernel.name: i for i, v in enumerate(m.versions)}
    rivals = [index[v.rival] if v.rival else -1 for v in m.versions]
    return {"name": launcher_name(m), "params": ", ".join(_host_param(p) for p in host),
            "timed": m.timed, "rivals": rivals,
            "max_size": target.MAX_SIZE, "sizes": [p for p in host if p.role == "size"],
            "scalars_read": [names[n] for n in m.scalars_read],
            "arrays": [p for p in host if p.pointer], "scalars": [p for p in host if p.role == "scalar"],
            "versions": versions, "multiprocessors": m.reads_multiprocessors}


def _grid_c(k: kir.Kernel, names: dict) -> list[str]:
    """The kernel's grid in C, over the launcher's parameters."""
    def blocks(a):
        n = str(-(-a[0] // a[1])) if isinstance(a[0], int) else names.get(a[0], a[0]) if a[1] == 1 else \
            f"({names.get(a[0], a[0])} + {a[1] - 1}) / {a[1]}"
        return f"({n} < {a[2]} ? {n} : {a[2]})" if len(a) > 2 else n
    return ["1" if a is None else blocks(a) for a in k.grid]


def _shared_c(k: kir.Kernel, in_params):
    """The dynamic shared memory a launch of `k` passes: a number, or C over
    the launcher's parameters where the launch sizes some of it."""
    return c(in_params(k.launch_shared())) if k.sized_at_launch else k.dynamic_shared_bytes


def _partials(s: kir.Scratch, in_params) -> dict:
    """Scratch memory for a kernel's partial results, in the launcher."""
    return {"name": s.name, "ctype": s.ctype, "why": s.why, "bytes": f"sizeof({s.ctype}) * ({c(in_params(s.count))})",
            "transpose": False}


def _host_name(p: kir.Param, arrays: dict) -> str:
    """What the launcher passes for a kernel parameter: its own array for an
    input, a name of its own for what it makes (a transposed copy, a tensor
    map: _local), else the kernel's name (an output, a size)."""
    if p.transposed or p.role == kir.TENSOR_MAP:
        return _local(p.name)
    return p.name if p.role != "input" else arrays[p.source]


def _local(name: str) -> str:
    """The launcher's variable for something it makes: prefixed as no
    parameter of the program's can be (the C names of those never start so),
    so that a copy `B_t` never hides a program's own array `B_t`."""
    return f"tiler_{name}"


def _map(p: kir.Param, arrays: dict, names: dict) -> str:
    """The call that makes a TENSOR_MAP parameter of its array (false where the driver refuses it)."""
    def size(s):
        return str(s) if isinstance(s, int) else names.get(s, s)
    rows, cols = (size(s) for s in p.shape)
    return f"{tma.MAKE}(&{_local(p.name)}, {arrays[p.source] if p.source else _local(p.array)}, " \
           f"{tma.DATA_TYPES[p.ctype]}, " \
           f"{target.SIZEOF[p.ctype]}, {cols}, {rows}, {p.box[0]}, {p.box[1]}, {tma.swizzle(p.swizzled)})"


def _scratch(p: kir.Param, source: str, names: dict) -> dict:
    """A transposed input in the launcher: its scratch array, bytes, and the
    transposition's extents and grid, in C over the launcher's parameters."""
    def size(s):
        return str(s) if isinstance(s, int) else names.get(s, s)

    *lead, rows, cols = [size(s) for s in p.source_shape]
    batch = " * ".join(f"({x})" for x in lead) or "1"
    count = " * ".join([f"({target.INDEX}){rows}", cols] + [f"({x})" for x in lead])
    grid = target.transpose_grid_c(rows, cols, batch if lead else None)
    return {"name": _local(p.name), "source": source, "ctype": p.ctype, "rows": rows, "cols": cols, "batch": batch,
            "bytes": f"sizeof({p.ctype}) * {count}", "grid": grid, "transpose": True,
            "why": f"`{source}` with its last two axes swapped"}


def _host_param(p: kir.Param) -> str:
    return param(p, restrict="")


def param(p: kir.Param, restrict: str = target.RESTRICT + " ") -> str:
    """A kernel's parameter (arrays `__restrict__`); the host launcher's drop it."""
    if p.role == "input":
        return f"const {p.ctype}* {restrict}{p.name}"
    if p.role in ("output", kir.SCRATCH):
        return f"{p.ctype}* {restrict}{p.name}"
    if p.role == kir.TENSOR_MAP:
        return f"{tma.PARAM} {p.name}"
    return f"{p.ctype} {p.name}"


# ---- the launcher's statements ----------------------------------------------------


def body(host: dict) -> str:
    """The launcher's statements: the sizes checked, the version picked by
    its condition (and raced against its rival where it has one), launched."""
    lines = [f"  if ({p.name} < 0 || {p.name} > {host['max_size']}) return {target.INVALID_VALUE};" for p in host["sizes"]]
    if host["multiprocessors"] or host["timed"]:
        lines += ["  int tiler_device = 0;", f"  {target.GET_DEVICE.format(device='tiler_device')};"]
    if host["multiprocessors"]:
        lines += ["  // the GPU's SM count: some versions run only where their grid fills it",
                  f"  const int {target.MULTIPROCESSORS_NAME} = "
                  f"tiler_multiprocessor_count<{LAUNCHER_DEVICES}>(tiler_device);"]
    lines += ["  // launches version `tiler_v` (numbered as at the top), raising its shared memory limit first if "
              "`tiler_raise`",
              f"  auto tiler_run = [&](int tiler_v, bool tiler_raise) -> {target.ERROR} {{", "    switch (tiler_v) {"]
    for n, v in enumerate(host["versions"]):
        lines += [f"    case {n}: {{  // {v['kernel']}", *_case(v), "    }"]
    lines += ["    }", f"    return {target.INVALID_VALUE};", "  };", "  int tiler_version = -1;"]
    lines += [f"  if (tiler_version < 0{' && ' + v['condition'] if v['condition'] else ''}) tiler_version = {n};"
              for n, v in enumerate(host["versions"])]
    if host["versions"][-1]["condition"]:
        lines.append(f"  if (tiler_version < 0) return {target.INVALID_VALUE};")
    if any(v["few"] for v in host["versions"]):  # what runs for more points, which a version for few races first
        lines += ["  int tiler_plain = -1;"]
        lines += [f"  if (tiler_plain < 0{' && ' + v['condition'] if v['condition'] else ''}) tiler_plain = {n};"
                  for n, v in enumerate(host["versions"]) if v["plain"]]
    if any(v["ahead"] for v in host["versions"]):  # the next version whose condition holds, which a split-K,
        # window or fissioned version races first (not a fissioned one: they race the kernel as written)
        lines += ["  int tiler_next = -1;"]
        lines += [f"  if (tiler_next < 0 && tiler_version < {n}{' && ' + v['condition'] if v['condition'] else ''}) "
                  f"tiler_next = {n};" for n, v in enumerate(host["versions"]) if n > 0 and not v["fissioned"]]
    if host["timed"]:
        lines += _race(host)
    lines.append("  return tiler_run(tiler_version, true);")
    return "\n".join(lines) + "\n"


def _case(v: dict) -> list[str]:
    """One version's launch in the launcher's `switch`: its scratch taken,
    the launch's transpositions and stages run before it, its scratch given
    back; each step only if the last succeeded."""
    grid, block = ", ".join(v["grid"]), ", ".join(str(b) for b in v["block"])
    launch = f"{v['kernel']}<<<tiler_grid, tiler_block, {v['shared']}, stream>>>({v['args']});"
    lines = [f"      const dim3 tiler_grid({grid}), tiler_block({block});",
             f"      if (tiler_grid.x == 0 || tiler_grid.y == 0 || tiler_grid.z == 0) return {target.SUCCESS};"]
    if not v["scratch"]:
        for name, make in v["maps"]:  # (the kernel's TMA maps, made of their arrays first)
            lines += [f"      {tma.MAP_TYPE} {name};", f"      if (!{make}) return {target.INVALID_VALUE};"]
    if v["raise"]:
        lines.append(f"      if (tiler_raise) "
                     f"{target.RAISE_DYNAMIC_SHARED.format(kernel=v['kernel'], bytes=v['raise'])};")
    if not v["scratch"]:
        return lines + [f"      {launch}", f"      return {target.LAST_ERROR};"]
    ok = f"tiler_err == {target.SUCCESS}"
    lines.append(f"      {target.ERROR} tiler_err = {target.SUCCESS};")
    for s in v["scratch"]:
        lines += [f"      {s['ctype']}* {s['name']} = nullptr;  // {s['why']}",
                  f"      if ({ok}) tiler_err = {target.SCRATCH_ALLOC.format(name=s['name'], bytes=s['bytes'])};"]
    lines.append(f"      if ({ok}) {{")
    for name, make in v["maps"]:  # (made once the scratch they may map, a transposed copy, is taken)
        lines += [f"        {tma.MAP_TYPE} {name};", f"        if (!{make}) tiler_err = {target.INVALID_VALUE};"]
    if v["maps"]:
        lines.append(f"        if ({ok}) {{")
    inner = len(lines)
    for s in v["scratch"]:
        if s["transpose"]:
            lines += [f"        if ({s['bytes']} > 0)",
                      f"          {target.transpose_kernel(s['ctype'])}<<<dim3({', '.join(s['grid'])}), "
                      f"dim3({target.TRANSPOSE_TILE}, {target.TRANSPOSE_ROWS}), 0, stream>>>({s['source']}, "
                      f"{s['name']}, {s['rows']}, {s['cols']}, {s['batch']});"]
    for n, st in enumerate(v["stages"]):
        # a stage of the main kernel's block and arguments (a split reduction's) is launched as it is
        block = "tiler_block" if st["block"] == v["block"] else f"dim3({', '.join(str(b) for b in st['block'])})"
        what = "work of no map level's names, once a launch" if st["once"] else \
            "its blocks' partial results (none for no iterations)"
        lines += [f"        if ({ok}) {{  // stage {n}: {what}",
                  f"          const dim3 tiler_stage({', '.join(st['grid'])});"]
        if st["raise"]:
            lines.append(f"          if (tiler_raise) "
                         f"{target.RAISE_DYNAMIC_SHARED.format(kernel=st['kernel'], bytes=st['raise'])};")
        lines += [f"          if (tiler_stage.x > 0) {st['kernel']}<<<tiler_stage, {block}, {st['shared']}, "
                  f"stream>>>({st['args']});",
                  f"          tiler_err = {target.LAST_ERROR};", "        }"]
    if v["stages"]:
        lines += [f"        if ({ok}) {{", f"          {launch}", f"          tiler_err = {target.LAST_ERROR};",
                  "        }"]
    else:
        lines += [f"        {launch}", f"        tiler_err = {target.LAST_ERROR};"]
    if v["maps"]:  # (what runs once the maps are made, a level deeper)
        lines[inner:] = ["  " + line for line in lines[inner:]] + ["        }"]
    lines.append("      }")
    lines += [f"      if ({s['name']}) {target.SCRATCH_FREE.format(name=s['name'])};" for s in v["scratch"]]
    return lines + ["      return tiler_err;"]


def _race(host: dict) -> list[str]:
    """A version with a rival races it the first time the launcher meets its
    sizes on a device (race.cuh), and the winner runs from then on. A race
    whose two versions an earlier race of the same launch timed already (a
    split-K version that beat the next version, which is also the version
    for more points it would race next) is not run again."""
    key = [p.name for p in host["sizes"]] + host["scalars_read"] + ["tiler_device", "tiler_version"]

    def race(when: str, rival: str, what: str) -> list[str]:  # (each block's static table: its own races)
        return [f"  if ({when}) {{  // {what}",
                f"    const int tiler_against = {rival}, tiler_before = tiler_version;",
                "    if (tiler_against != tiler_raced) {",
                f"      const long long tiler_key[] = {{{', '.join(key)}}};",
                f"      static tiler_races<{len(key)}, {target.TIMED_SIZES}> tiler_table;  // the winners of its races",
                f"      const {target.ERROR} tiler_err = tiler_race<{target.TIMED_ROUNDS}>(tiler_table, tiler_key, "
                f"tiler_version, {rival}, {target.TIMED_MARGIN}f, stream, tiler_run, &tiler_version);",
                f"      if (tiler_err != {target.SUCCESS}) return tiler_err;",
                "      tiler_raced = tiler_version == tiler_before ? tiler_against : tiler_before;",
                "    }",
                "  }"]
    lines = ["  int tiler_raced = -1;  // the version the last race timed beside the one it left running"]
    if any(v["ahead"] for v in host["versions"]):
        ahead = ", ".join("1" if v["ahead"] else "0" for v in host["versions"])
        lines += [f"  static const bool tiler_ahead[] = {{{ahead}}};  // versions raced ahead of the next (split-K, "
                  "window, strided, march, a warp a row, fissioned)"]
        lines += race("tiler_ahead[tiler_version] && tiler_next >= 0", "tiler_next",
                      "a version raced ahead against the next version whose condition holds first")
    if any(v["few"] for v in host["versions"]):
        few = ", ".join("1" if v["few"] else "0" for v in host["versions"])
        lines += [f"  static const bool tiler_few[] = {{{few}}};  // versions for few points"]
        lines += race("tiler_few[tiler_version] && tiler_plain >= 0", "tiler_plain",
                      "a version for few points against the one for more points first")
    return lines + [f"  static const int tiler_rivals[] = {{{', '.join(str(r) for r in host['rivals'])}}};  "
                    "// the version each is raced against (-1: none)"] + \
        race("tiler_rivals[tiler_version] >= 0", "tiler_rivals[tiler_version]", "then against its rival")


def transpose_kernel(ctype: str) -> str:
    """The launch's transposition of an input of `ctype` elements, as a kernel
    of its own (tiler.cuh's tiler_transpose), guarded so that modules sharing
    a translation unit define it once a type."""
    name = target.transpose_kernel(ctype)
    return "\n".join([
        f"#ifndef {name.upper()}", f"#define {name.upper()}",
        "// the launch runs this before a kernel that reads an input transposed (tiler.cuh says how)",
        f"{target.KERNEL} {target.LAUNCH_BOUNDS}({target.TRANSPOSE_TILE * target.TRANSPOSE_ROWS})",
        f"{name}(const {ctype}* {target.RESTRICT} in, {ctype}* {target.RESTRICT} out, int rows, int cols, int batch)",
        "{", f"  tiler_transpose<{target.TRANSPOSE_TILE}, {target.TRANSPOSE_ROWS}>(in, out, rows, cols, batch);", "}",
        "#endif"])
