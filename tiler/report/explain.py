"""`tiler explain`: the analysis records, shown; nothing is recomputed.

`explain_data(analysis, source)` turns the records into plain data (what
`--json` prints); `render_text(data, variance=...)` lays the same data out
for a terminal with rich.
"""
from __future__ import annotations

import io
import math

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from .. import target
from ..analyse import Analysis
from ..analyse.blocks import stream_kind
from ..analyse.records import dims_text
from ..analyse.reductions import tests_text
from ..analyse.registers import REGISTER_BUDGET
from ..analyse.schedule import (
    Math,
    describe_copy,
    describe_pipeline,
    describe_reads,
    describe_share,
    describe_thresholds,
)
from ..check.expressions import text as source_text
from ..check.types import Binder, size_text
from ..source import Source

AXIS_NAMES = {"x": "threadIdx.x", "y": "threadIdx.y", "z": "threadIdx.z"}


def explain_data(a: Analysis, source: Source, module=None) -> dict:
    """`module`: the lowered kernels, whose versions the launch picks between
    (without it, the plan's versions: before vector copies split one)."""
    k, b = a.kernel, a.block
    return {
        "file": source.name,
        "dims": [{"dim": lv.dim, "size": _size(lv.size), "line": lv.span.line, "column": lv.span.col}
                 for lv in k.levels],
        "block": {"spans": list(b.spans), "threads": list(b.extents),
                  "thread_axis": {str(d): ax for d, ax in enumerate(b.thread_axis) if ax},
                  "grid_axis": {str(d): ax for d, ax in enumerate(b.grid_axis)},
                  "interchanged": b.interchanged, "shared_bytes": b.shared_bytes,
                  "max_shared": a.options.shared_limit(b.pipelined), "reason": b.reason,
                  "register_tile": _register_tile(a),
                  "interior": {"unclamped": b.interior, "reason": b.interior_reason},
                  "min_blocks": {"blocks": b.min_blocks, "reason": b.min_blocks_reason}},
        "bounds": [{"size": n, "at_most": v} for n, v in sorted(a.schedule.bounds.items())],
        "promoted": [_promotion(r, source) for r in k.promoted],
        "unused": [{"line": span.line, "column": span.col} for span in sorted(k.unused, key=lambda s: (s.line, s.col))],
        "rows": [_row(r, source) for r in a.schedule.slabs],
        "transposes": [_transposition(t) for t in a.schedule.transposes],
        "streams": [_stream(s, b, source) for s in a.streams],
        "reductions": _reductions(a),
        "versions": _versions(a, module),
        "math": {"fast": a.schedule.math is Math.FAST, "note": target.FAST_MATH_NOTE if a.schedule.math is Math.FAST else
                 "IEEE: CUDA's correctly rounded or documented-accuracy functions (--fast-math: the hardware "
                 "approximations)"},
        "candidates": [_candidate(c) for c in a.plan.candidates],
        "variance": _variance(a),
        "warnings": [],
    }


def _reductions(a: Analysis) -> dict | None:
    """Every loop at a row's level: a reduction (by which operators, split
    among a row's threads or why not) or why it is not one."""
    split = a.plan.split
    if split is None:
        return None
    return {"rows": split.rows, "reason": split.reason,
            "lanes": [{"lanes": c.lanes, "when": [[_test(t) for t in alts] for alts in c.when]}
                      for c in split.choices] if split.active else [],
            "gate": [_test(t) for t in split.gate] if split.active else [],
            "loops": [{"line": r.span.line, "column": r.span.col, "operators": [op.value for op in r.operators],
                       "split": r.split, "length": r.length, "reason": r.reason} for r in split.reductions],
            "not_reductions": [{"line": o.span.line, "column": o.span.col, "reason": o.reason}
                               for o in split.others]}


def _lanes_when(split, lanes: int, several: bool) -> str | None:
    """The launch's test for a split version, in words (None: not one, or it runs otherwise)."""
    if not lanes:
        return None
    choice = next(c for c in split.choices if c.lanes == lanes and c.several == several)
    tests = [tests_text(choice.when, split.length)] if choice.when else []
    tests += [t.text(split.length) for t in split.gate]
    return " and ".join(f"({t})" if " or " in t else t for t in tests) or None


def _test(t) -> dict:
    return {"what": t.what, "op": t.op, "value": t.value, "per_sm": t.per_sm}


def _promotion(r, source: Source) -> dict:
    return {"read": source_text(r.read, source), "line": r.read.span.line, "column": r.read.span.col,
            "array": r.array, "input": r.param or None, "reason": r.reason}


def _row(r, source: Source) -> dict:
    """A row each thread reads whole outside any stream, and what became of it."""
    return {"param": r.name, "array": source_text(r.array, source), "dim": r.dim, "length": r.length,
            "staged": r.staged, "coalesce": "shared" if r.staged else "transpose" if r.transposed else "none",
            "rows": r.points, "pitch": r.pitch, "run": r.run, "vector": r.vector, "asynchronous": r.asynchronous,
            "bytes": r.bytes, "reason": r.reason}


def _transposition(t) -> dict:
    """An array whose rows threads read alone: transposed by the launch, or why not."""
    return {"array": t.array, "rows": t.rows, "length": t.length, "transposed": t.chosen,
            "length_at_least": t.min_length, "rows_at_most": t.max_rows, "reason": t.reason}


def _size(size) -> str | int:
    return size if isinstance(size, int) else size.name


def _register_pipeline(r: dict) -> str:
    if r["asynchronous"]:
        return "tiles copied by cp.async, chunks in flight while one is read (no prefetch registers)"
    if r["double_buffer"]:
        return "double-buffered through registers"
    return f"single-buffered (prefetch registers would pass the budget of {REGISTER_BUDGET})"


def _register_tile(a: Analysis) -> dict:
    """The micro-tile, what it costs in registers and what each level of
    memory then serves: global loads and shared reads per point per streamed
    element (per multiply-add in a matrix product)."""
    b, r = a.block, a.block.register
    staged = [(p, s) for s in a.streams if s.tiled for p in s.inputs if p.staged]
    global_loads = sum(1 / p.staging.reuse for p, _ in staged)
    # a packed group's members are one vector read
    shared_reads = sum(1 / math.prod(b.micro(d) for d in p.invariant_to & frozenset(b.spans))
                       / (len(p.staging.pack.members) if p.staging.pack else 1) for p, _ in staged)
    out = {"sizes": [b.micro(d) for d in range(b.rank)], "group": r.group if r else 1,
           "accumulators": r.accumulators if r else 0, "registers_expected": r.registers if r else 0,
           "double_buffer": r.double_buffer if r else False,
           "asynchronous": r.asynchronous if r else False, "reason": b.register_reason,
           "global_loads_per_point_step": round(global_loads, 6),
           "shared_reads_per_point_step": round(shared_reads, 6)}
    return out


def _micro_pair(block) -> list[int]:
    """[TM, TN]: points a thread takes along the outer and the inner spanned dim."""
    spans = sorted(block.spans)
    pair = [block.micro(d) for d in spans]
    return ([1] * (2 - len(pair)) + pair)[-2:]


def _stream(s, block, source: Source) -> dict:
    site = s.site
    return {
        "line": site.span.line, "column": site.span.col,
        "tiled": s.tiled, "kind": stream_kind(s, block), "block": list(block.extents), "chunk": s.chunk, "unroll": s.unroll,
        "register_tile": _micro_pair(block) if s.tiled else [1, 1],
        "shared_bytes": s.shared_bytes, "reason": s.reason,
        "guards": [{"kind": g.kind, "line": g.span.line, "column": g.span.col, "varies_with": sorted(g.variance)}
                   for g in site.guards],
        "inputs": [_input(p, source) for p in s.inputs],
        "join": _join(s.join),
    }


def _join(j) -> dict | None:
    """The loop around the stream whose rows may be streamed end to end."""
    if j is None:
        return None
    return {"joined": j.joined, "line": j.loop.span.line, "column": j.loop.span.col,
            "length": size_text(j.length), "reason": j.reason}


def _input(p, source: Source) -> dict:
    st = p.staging
    out = {"array": source_text(p.array, source), "param": p.name,
           "varies_with": sorted(p.varies_with), "invariant_to": sorted(p.invariant_to),
           "staged": p.staged, "level": st.level.value if st else "global",
           "tile": list(st.tile) if st else [], "layout": st.layout.value if st else "",
           "padding": st.padding if st else 0, "row_length": p.element if p.element > 1 else None,
           "packed": ({"array": st.pack.array, "lane": st.pack.lane, "width": st.pack.width,
                       "members": list(st.pack.members)} if st and st.pack else None),
           "copy": describe_copy(st.copy) + (f"; {describe_pipeline(st)}" if st.buffers > 1 else "") if st else "",
           "reads": describe_reads(st) if st else "",
           "bytes": st.bytes if st and p.copied else 0, "shares": p.shares or None,
           "coalesce": p.coalesce.value, "uncoalesced_in_place": p.uncoalesced,
           "for_coalescing": p.for_coalescing, "reason": p.reason}
    if st:
        out["schedule"] = {"copy_axis": st.copy.axis.value, "coalescing": st.copy.coalescing.value,
                           "reads": st.reads.value, "pitch": st.pitch, "reuse": st.reuse, "vector": st.vector,
                           "buffers": st.buffers, "asynchronous": st.asynchronous}
    return out


def _versions(a: Analysis, module) -> list[dict]:
    """The kernels the launch chooses between, in order, with their
    conditions: the thresholds (a size at least a value) of a tiled kernel,
    the sizes its vector copies need to be multiples of, the row lengths its
    tiles were sized for, and (where some array may pass 2^31 elements)
    whether its offsets are 32- or 64-bit. A kernel whose tiles hold rows of
    a bounded length comes from the plan; the others, then, from the plan
    without the bound (Plan.unbounded)."""
    def conds(plan):
        return [{"size": t.size, "dim": t.dim, "at_least": t.value, "overridden": t.overridden}
                for t in plan.thresholds] or None

    def tests(plan):
        return [{"size": " * ".join(map(str, sizes)), "op": op, "value": value} for t in plan.schedule.transposed
                for sizes, op, value in t.launch_tests()]

    if module is None:  # before lowering: the plan's versions
        kernels = [(a.tiled, (), (), (), describe_thresholds(a.plan.thresholds) if conds(a.plan) else "", False, (),
                    None)]
        kernels += [(False, (), (), (), "the untiled fallback", False, (), None)] if conds(a.plan) else []
    else:
        kernels = [(v.kernel.tiled, v.kernel.divisible, v.kernel.fixed, v.kernel.bounds, v.why, v.kernel.wide,
                    tuple(p.source for p in v.kernel.transposes), v) for v in module.versions]
    sized = any(k[5] for k in kernels)
    out = []
    for n, (tiled, divisible, fixed, bounds, why, wide, transposed, version) in enumerate(kernels):
        plan = a.plan.unbounded if a.plan.unbounded is not None and not bounds else a.plan
        share = version.grid_share if version is not None else 0
        last = n == len(kernels) - 1 and len(kernels) > 1
        lanes = version.kernel.lanes if version is not None else 0
        stages = len(version.kernel.stages) if version is not None else 0
        kind = "split" if lanes else "tiled" if tiled else "untiled"
        out.append({"kernel": kind, "lanes": lanes or None,
                    "lanes_when": _lanes_when(a.plan.split, lanes, bool(stages)),
                    "blocks_a_row": _grid_blocks(version.kernel.stages[0], x_only=True) if stages else None,
                    "kernels": stages + 1 if stages else None,
                    "condition": None if last or not tiled or lanes else conds(plan),
                    "multiple_of": [{"size": s, "factor": f} for s, f in divisible],
                    "equal_to": [{"size": s, "value": v} for s, v in fixed],
                    "at_most": [{"size": s, "value": v} for s, v in bounds],
                    "offsets": "64-bit" if wide else "32-bit",
                    "elements_below": target.INT_MAX + 1 if sized and not wide else None,
                    "transposed": list(transposed), "transpose_when": tests(plan) if transposed else [], "why": why,
                    "grid_blocks_at_least_sms": _grid_blocks(version.kernel) if share else None,
                    "grid_share": share or None,
                    "timed_against": "untiled" if version is not None and version.rival else None})
    return out


def _grid_blocks(k, x_only: bool = False) -> str:
    """The blocks along x a launch runs (several blocks a row: at most so
    many); else every block the kernel's dims have, as the launch conditions
    count them (a loop walks those past grid y's or z's limit)."""
    return " * ".join(f for f in k.grid_formulas(capped=x_only)[:1 if x_only else 3] if f != "1") or "1"


def _candidate(c) -> dict:
    b = c.block
    return {"spans": list(b.spans), "threads": [b.extents[d] for d in b.spans], "cost": round(c.cost, 6),
            "staged": sum(p.staged for s in c.streams for p in s.inputs), "shared_bytes": b.shared_bytes}


def _variance(a: Analysis) -> list[dict]:
    rows = [(b, v) for b, v in a.variance.table.items() if isinstance(b, Binder) and b.span.line > 0]
    rows.sort(key=lambda bv: (bv[0].span.line, bv[0].span.col, bv[0].name))
    return [{"name": b.name, "kind": b.kind, "type": str(b.type), "line": b.span.line, "column": b.span.col,
             "varies_with": sorted(v)} for b, v in rows]


# ---- text ---------------------------------------------------------------------


WIDE_TABLE = 110  # columns the inputs' table needs to keep its words whole


def render_text(data: dict, variance: bool = False, width: int = 120, candidates: bool = False) -> str:
    out = io.StringIO()
    console = Console(file=out, width=width, highlight=False, emoji=False)
    _header(console, data)
    _promotions_text(console, data["promoted"])
    _unused_text(console, data.get("unused", []))
    _rows_text(console, data.get("rows", []))
    _transposes_text(console, data.get("transposes", []))
    for s in data["streams"]:
        _stream_text(console, s)
    _reductions_text(console, data.get("reductions"))
    _versions_text(console, data["versions"])
    if candidates:
        _candidates_text(console, data["candidates"])
    if variance:
        _variance_text(console, data["variance"])
    if data["warnings"]:
        console.print("[bold yellow]warnings[/]")
        for w in data["warnings"]:
            console.print(f"  {w}")
    return out.getvalue()


def _header(console: Console, data: dict) -> None:
    dims = data["dims"]
    console.print(f"[bold]{data['file']}[/]: a {len(dims)}-D kernel")
    for d in dims:
        console.print(f"  dimension {d['dim']}: size {d['size']} (the map at {d['line']}:{d['column']})")
    tuning = data.get("tuning")
    if tuning and tuning["flags"]:
        console.print(escape(f"tuned: {tuning['flags']} from {tuning['file']} ({tuning['note']}"
                             + _tuned_times(tuning) + ")"))
    elif tuning and tuning["device"] is None:
        console.print(escape(f"tuning: {tuning['file']} not used: {tuning['note']}"))
    elif tuning:
        why = "the command line sets what it tuned" if tuning["tuned_flags"] else "the default schedule was fastest"
        console.print(escape(f"tuning: {tuning['file']}: {why} ({tuning['note']}" + _tuned_times(tuning) + ")"))
    r = data.get("reductions")
    if r and r["rows"]:
        length = next((t["value"] for t in r["gate"] if t["what"] == "length"), None)
        which = "the tiled kernel's, which runs for rows shorter than that" if length else \
            "the tiled kernel's, which runs where the rows do not fit the grid" if r["gate"] else \
            "the tiled kernel's, which no version runs"
        console.print(f"rows split: each row of map level{'s' if r['rows'] > 1 else ''} 0"
                      f"{' to ' + str(r['rows'] - 1) if r['rows'] > 1 else ''} is run by a warp or a block that "
                      f"shares its reductions (`reductions` below"
                      + (f", for rows of {length} elements and more" if length else "")
                      + f"); the block and streams below are {which}")
    if data.get("bounds"):
        sizes = " and ".join(f"{x['size']} <= {x['at_most']}" for x in data["bounds"])
        console.print(f"rows of a length known only at launch: the plan below holds them in shared memory for {sizes}"
                      f" (lines of at most {', '.join(str(x['at_most']) for x in data['bounds'])} elements); "
                      "longer rows run the versions of the plan without that bound (`versions` below; "
                      "--size NAME=N plans for one length)")
    b = data["block"]
    threads = " x ".join(str(b["threads"][d]) for d in b["spans"])
    axes = ", ".join(f"dim {d} -> {AXIS_NAMES[a]}" for d, a in sorted(b["thread_axis"].items(),
                                                                       key=lambda kv: kv[1]))
    grid = ", ".join(f"dim {d} -> blockIdx.{a}" for d, a in sorted(b["grid_axis"].items(), key=lambda kv: kv[1]))
    console.print(f"block: {threads} threads ({axes}); grid: {grid}")
    console.print(f"  {b['reason']}")
    console.print(f"  shared memory: {b['shared_bytes']} of {b['max_shared']} bytes a block")
    console.print(escape(f"  interior blocks: {b['interior']['reason']}"))
    blocks = b["min_blocks"]["blocks"]
    console.print(escape(f"  blocks an SM: {f'at least {blocks}: ' if blocks else ''}{b['min_blocks']['reason']}"))
    r = b["register_tile"]
    if r["accumulators"]:
        micro = " x ".join(str(r["sizes"][d]) for d in sorted(b["spans"]))
        groups = f", in groups of {r['group']}" if r["group"] > 1 else ""
        console.print(f"register tile: {micro} points a thread (dims {dims_text(sorted(b['spans']))}){groups}; "
                      f"{r['accumulators']} accumulator registers, about "
                      f"{r['registers_expected']} in all; "
                      + _register_pipeline(r))
        console.print(f"  {escape(r['reason'])}")
    else:
        console.print(f"register tile: none: {escape(r['reason'])}")
    if any(s["tiled"] for s in data["streams"]):
        console.print(f"  reuse: per point and streamed element, {r['global_loads_per_point_step']:.4g} global "
                      f"loads and {r['shared_reads_per_point_step']:.4g} shared reads")
    if data["math"]["fast"]:
        console.print(escape(f"math: {data['math']['note']}"))


def _promotions_text(console: Console, rows: list[dict]) -> None:
    """The index reads along a stream's position: made inputs, or why not."""
    if rows:
        console.print()
    for r in rows:
        what = f"made stream input {r['input']}: {r['reason']}" if r["input"] else f"left as a read: {r['reason']}"
        console.print(escape(f"index read {r['read']} at {r['line']}:{r['column']}: {what}"))


def _unused_text(console: Console, spans: list[dict]) -> None:
    """The streams removed because nothing reads their values."""
    if spans:
        console.print()
    for s in spans:
        console.print(f"streamSeq at {s['line']}:{s['column']}: removed: nothing reads its value (nvcc would drop "
                      "it from an untiled kernel, but not a staged copy's barriers)")


def _rows_text(console: Console, rows: list[dict]) -> None:
    """The rows threads read whole outside any stream: staged, or why not."""
    if rows:
        console.print()
    for r in rows:
        what = f"staged, {r['rows']} x {r['length']} in shared memory, {r['bytes']} bytes" if r["staged"] \
            else "read in place"
        console.print(escape(f"row {r['param']} of {r['array']} (dim {r['dim']}): {what}: {r['reason']}"))


def _transposes_text(console: Console, rows: list[dict]) -> None:
    """The arrays whose rows threads read alone: transposed by the launch, or why not."""
    if rows:
        console.print()
    for t in rows:
        what = "transposed by the launch" if t["transposed"] else "not transposed"
        console.print(escape(f"array {t['array']} [{t['rows']}, {t['length']}]: {what}: {t['reason']}"))


def _tuned_times(tuning: dict) -> str:
    if tuning["time_ms"] is None or tuning["default_ms"] is None:
        return ""
    return f": {tuning['time_ms']:.3f} ms there, the default {tuning['default_ms']:.3f} ms"


def _stream_text(console: Console, s: dict) -> None:
    unrolled = f", its loop unrolled {s['unroll']} times" if s.get("unroll") else ""
    state = f"tiled ({s['kind']}), chunk {s['chunk']}{unrolled}, {s['shared_bytes']} bytes" if s["tiled"] \
        else "not tiled"
    console.print(f"\n[bold]streamSeq at {s['line']}:{s['column']}[/]: {state}")
    for g in s["guards"]:
        console.print(f"  on the way: a {escape(g['kind'])} at {g['line']}:{g['column']}, varies with "
                      f"{dims_text(g['varies_with'])}")
    if s.get("join"):
        j = s["join"]
        state = "joined" if j["joined"] else "apart"
        console.print(escape(f"  rows {state}: the loop at {j['line']}:{j['column']} streams rows of {j['length']} "
                             f"each iteration: {j['reason']}"))
    headers = ("input", "array", "varies with", "invariant to", "decision", "tile", "layout", "copy", "reads")
    rows = []
    for i in s["inputs"]:
        tile = " x ".join(map(str, i["tile"] + ([i["row_length"]] if i["row_length"] else []))) if i["tile"] else "-"
        layout = i["layout"] + (f" +{i['padding']}" if i["padding"] else "") if i["staged"] else "-"
        if i.get("packed"):
            layout += f", packed {i['packed']['lane']}/{i['packed']['width']}"
        rows.append((i["param"], i["array"], dims_text(i["varies_with"]), dims_text(i["invariant_to"]),
                     _decision(i), tile, layout, i["copy"] or "-", i["reads"] or "-"))
    if console.width >= WIDE_TABLE:
        table = Table(*headers, show_lines=False, pad_edge=False)
        for cells in rows:
            table.add_row(*map(escape, cells))
        console.print(table)
    else:  # a narrow terminal: one line an input, every word whole
        for cells in rows:
            console.print(escape(f"  {cells[0]} = {cells[1]}: " + "; ".join(
                f"{h} {c}" for h, c in zip(headers[2:], cells[2:]) if c != "-")))
    for i in s["inputs"]:
        console.print(escape(f"  {i['param']}: {i['reason']}"))


def _decision(i: dict) -> str:
    if i["for_coalescing"]:
        return "shared, to coalesce"
    if i["coalesce"] == "transpose":
        return "global, transposed"
    if not i["staged"] and i["uncoalesced_in_place"]:
        return "global, uncoalesced"
    return "shared" if i["staged"] else "global"


def _reductions_text(console: Console, r: dict | None) -> None:
    if r is None or not (r["loops"] or r["not_reductions"]):
        return
    rows = "map level 0" if r["rows"] == 1 else f"map levels 0 to {r['rows'] - 1}"
    console.print(f"\n[bold]reductions[/]: {r['reason']}" + (f" (rows: {rows})" if r["rows"] else ""))
    for loop in r["loops"]:
        ops = ", ".join(dict.fromkeys(loop["operators"]))  # a pick's pair is one argmin
        state = "split among a row's threads" if loop["split"] else f"not split: {loop['reason']}"
        console.print(f"  loop at {loop['line']}:{loop['column']}: a reduction by {ops}; {state}")
    for o in r["not_reductions"]:
        console.print(f"  loop at {o['line']}:{o['column']}: not a reduction: {o['reason']}")


def _versions_text(console: Console, versions: list[dict]) -> None:
    if len(versions) < 2:
        return
    console.print("\n[bold]versions[/] (the launch runs the first whose condition holds)")
    if any(v.get("timed_against") for v in versions):
        console.print(f"  A version 'raced against the untiled kernel' is timed against it the first time the "
                      f"launch meets a set of sizes on a GPU ({target.TIMED_ROUNDS} launches each after a "
                      f"warm-up), and the faster runs at those sizes from then on: the cost model cannot tell "
                      f"every program that tiling slows down, and the race makes sure it never does "
                      f"(--no-launch-timing: the conditions alone).")
    for n, v in enumerate(versions):
        conds = ["every array has fewer than 2^31 elements"] if v["elements_below"] else []
        conds += [f"{c['size']} >= {c['at_least']}" for c in v["condition"] or ()]
        conds += [f"{c['size']} {c['op']} {c['value']}" for c in v.get("transpose_when", ())]
        if v.get("grid_share"):
            conds.append(describe_share(v["grid_share"], v["grid_blocks_at_least_sms"]))
        conds += [f"{m['size']} a multiple of {m['factor']}" for m in v["multiple_of"]]
        conds += [f"{e['size']} = {e['value']}" for e in v.get("equal_to", ())]
        conds += [f"{e['size']} <= {e['value']}" for e in v.get("at_most", ())]
        conds += [v["lanes_when"]] if v.get("lanes_when") else []
        name = v["kernel"] + (f", {v['lanes']} threads a row" if v.get("lanes") and not v.get("kernels") else "") + \
            (f", {v['blocks_a_row']} blocks of {v['lanes']} threads a row in {v['kernels']} kernels"
             if v.get("kernels") else "") + \
            (", vector copies" if v["multiple_of"] else "") + \
            (", 64-bit offsets" if v["offsets"] == "64-bit" else "") + \
            "".join(f", {a} transposed" for a in v.get("transposed", ()))
        raced = "; raced against the untiled kernel" if v.get("timed_against") else ""
        if n == len(versions) - 1 or not conds:
            console.print(f"  {name}: otherwise ({v['why']}{raced})" if v["why"] else f"  {name}: otherwise")
        else:
            console.print(f"  {name}: when {' and '.join(conds)} ({v['why']}{raced})")


def _candidates_text(console: Console, rows: list[dict]) -> None:
    table = Table("rank", "block spans", "threads", "staged inputs", "shared bytes", "cost (loads/element)",
                  title="candidate schedules, best first", pad_edge=False)
    for n, c in enumerate(rows, 1):
        table.add_row(str(n), dims_text(c["spans"]), " x ".join(map(str, reversed(c["threads"]))), str(c["staged"]),
                      str(c["shared_bytes"]), f"{c['cost']:.4g}")
    console.print(table)


def _variance_text(console: Console, rows: list[dict]) -> None:
    table = Table("name", "bound at", "kind", "type", "varies with", title="variance", pad_edge=False)
    for r in rows:
        cells = (r["name"], f"{r['line']}:{r['column']}", r["kind"], r["type"], dims_text(r["varies_with"]))
        table.add_row(*map(escape, cells))
    console.print(table)
