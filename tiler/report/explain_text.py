"""`tiler explain`'s text: `render_text(data, variance=...)` lays the data
of `explain_data` (explain.py) out for a terminal with rich.
"""
from __future__ import annotations

import io

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from .. import target
from ..analyse.records import dims_text
from ..analyse.registers import REGISTER_BUDGET
from ..analyse.schedule import describe_share
from ..versions.records import RACED_FIRST
from .hoisted import level_text, runs_text

AXIS_NAMES = {"x": "threadIdx.x", "y": "threadIdx.y", "z": "threadIdx.z"}


def _expected(r: dict) -> str:
    """The registers a 2-D micro-tile's thread is expected to use in all (a
    coarsened 1-D block's body sets its own: --nvcc gives ptxas's count)."""
    return f", about {r['registers_expected']} in all" if r["registers_expected"] else ""


def _register_pipeline(r: dict) -> str:
    if r["asynchronous"] and r.get("tma") and r["tma"]["used"]:
        return "tiles copied by TMA, chunks in flight while one is read (no prefetch registers)"
    if r["asynchronous"]:
        return "tiles copied by cp.async, chunks in flight while one is read (no prefetch registers)"
    if r["double_buffer"]:
        return "double-buffered through registers"
    return f"single-buffered (prefetch registers would pass the budget of {REGISTER_BUDGET})"


WIDE_TABLE = 110  # columns the inputs' table needs to keep its words whole


def render_text(data: dict, variance: bool = False, width: int = 120, candidates: bool = False) -> str:
    out = io.StringIO()
    console = Console(file=out, width=width, highlight=False, emoji=False)
    _header(console, data)
    _speculated_text(console, data.get("speculated", []))
    _hoisted_text(console, data.get("hoisted", []))
    _promotions_text(console, data["promoted"])
    _counted_text(console, data.get("counted", []))
    _windows_text(console, data.get("windows", []))
    _unused_text(console, data.get("unused", []))
    _streamable_text(console, data.get("streamable_loops", []))
    _rows_text(console, data.get("rows", []))
    _transposes_text(console, data.get("transposes", []))
    for s in data["streams"]:
        _stream_text(console, s)
    _reductions_text(console, data.get("reductions"))
    _scan_text(console, data.get("scan"))
    _fission_text(console, data.get("fission"))
    _versions_text(console, data["versions"])
    if candidates:
        _candidates_text(console, data["candidates"])
    if variance:
        _variance_text(console, data["variance"])
    if data["warnings"]:
        console.print()
        console.print("[bold yellow]warnings[/]")
        for w in data["warnings"]:
            where = f"{w['line']}:{w['column']}: " if w["line"] is not None else ""
            console.print(f"  {where}{escape(w['message'])}" + (f" (hint: {escape(w['hint'])})" if w["hint"] else ""))
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
        few = next((t["value"] for t in r["gate"] if t["what"] == "rows" and t["op"] == "<"), None)
        own = r.get("own_streams")
        if own:  # (the gate's bound is the long rows'; shorter rows split below the few points' own)
            few = f"{own['few_points_an_sm']} an SM, or {own['points_an_sm']} where the rows are {own['length']:,} " \
                  "long or more"
        elif few:
            few = f"{few} an SM"
        which = f"the tiled kernel's, which runs for more points{' or shorter rows' if length else ''}" if few else \
            "the tiled kernel's, which runs for rows shorter than that" if length else \
            "the tiled kernel's, which runs where the rows do not fit the grid" if r["gate"] else \
            "the tiled kernel's, which no version runs"
        console.print(f"rows split: each row of map level{'s' if r['rows'] > 1 else ''} 0"
                      f"{' to ' + str(r['rows'] - 1) if r['rows'] > 1 else ''} is run by a warp or a block that "
                      f"shares its reductions (`reductions` below"
                      + (f", for rows of {length} elements and more" if length else "")
                      + (f", where the points are fewer than {few}" if few else "")
                      + (f"; a warp a row for more points where the rows are {r['own_warp']['length']} long or "
                         "more, raced against the version that would otherwise run" if r.get("own_warp") else "")
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
    console.print(escape(f"  tile order: {b['group_rows']['reason']}"))
    r = b["register_tile"]
    if r["accumulators"]:
        micro = " x ".join(str(r["sizes"][d]) for d in sorted(b["spans"]))
        groups = f", in groups of {r['group']}" if r["group"] > 1 else ""
        console.print(f"register tile: {micro} points a thread (dims {dims_text(sorted(b['spans']))}){groups}; "
                      f"{r['accumulators']} accumulator registers{_expected(r)}; " + _register_pipeline(r))
        console.print(f"  {escape(r['reason'])}")
    else:
        console.print(f"register tile: none: {escape(r['reason'])}")
    units = r["matrix_units"]
    if units is not None:
        console.print(escape(f"  matrix units: {'used' if units['used'] else 'not used'}: {units['reason']}"))
    if r.get("tma") is not None:
        console.print(escape(f"  TMA copies: {'used' if r['tma']['used'] else 'not used'}: {r['tma']['reason']}"))
        if r["tma"]["used"]:
            last = "run whole" if r["tma"]["whole_chunks"] else "run to the stream's end"
            console.print(escape(f"    last chunk: {last}: {r['tma']['last_chunk']}"))
    if any(s["tiled"] for s in data["streams"]):
        console.print(f"  reuse: per point and streamed element, {r['global_loads_per_point_step']:.4g} global "
                      f"loads and {r['shared_reads_per_point_step']:.4g} shared reads")
    if data["math"]["fast"]:
        console.print(escape(f"math: {data['math']['note']}"))


def _speculated_text(console: Console, rows: list[dict]) -> None:
    """The streams computed at every point, before the `if` they were under."""
    if rows:
        console.print()
    for r in rows:
        lets = ", ".join(f"`{n}`" for n in r["lets"])
        console.print(escape(f"speculated: the stream at {r['line']}:{r['column']} (with {lets}), under the `if` at "
                             f"{r['branch_line']}:{r['branch_column']}, runs at every point: {r['reason']}"))


def _hoisted_text(console: Console, rows: list[dict]) -> None:
    """The work moved to the map level where it varies, or why it stays."""
    if rows:
        console.print()
    for r in rows:
        where = f"{r['what']} at {r['line']}:{r['column']}"
        written = level_text(r["written_at"])
        if r["runs_at"] == r["written_at"]:
            console.print(escape(f"work in place: {where} ({written}): {r['reason']}"))
        else:
            written = f"in {written}" if r["written_at"] < 0 else f"at {written}"
            console.print(escape(f"hoisted: {where}, written {written}, runs {runs_text(r['runs_at'])}: "
                                 f"{r['reason']}"))


def _promotions_text(console: Console, rows: list[dict]) -> None:
    """The index reads along a stream's position: made inputs, or why not."""
    if rows:
        console.print()
    for r in rows:
        what = f"made stream input {r['input']}: {r['reason']}" if r["input"] else f"left as a read: {r['reason']}"
        twice = sum(x["line"] == r["line"] and x["column"] == r["column"] for x in rows) > 1
        where = f", for the loop or stream at {r['for'][0]}:{r['for'][1]}" if twice and r.get("for") else ""
        console.print(escape(f"index read {r['read']} at {r['line']}:{r['column']}{where}: {what}"))


def _windows_text(console: Console, rows: list[dict]) -> None:
    """The arrays whose reads move with the points (a stencil's, a convolution's), and what became of them."""
    if rows:
        console.print()
    for w in rows:
        reads = f" and {w['reads'] - 1} more read(s) of it" if w["reads"] > 1 else ""
        console.print(escape(f"window: {w['read']} at {w['line']}:{w['column']}{reads}: "
                             + "; ".join(a["text"] for a in w["axes"]) + f"; {w['reason']}"))
        if "marched" in w:
            console.print(escape(f"  {'marched' if w['marched'] else 'not marched'}: {w['march_reason']}"))


def _streamable_text(console: Console, loops: list[dict]) -> None:
    """The loops that read arrays at their index and stay loops: why, or
    (under --keep-loops) what reading them as streams would stage."""
    if loops:
        console.print()
    for x in loops:
        arrays = ", ".join(f"`{a}`" for a in x["arrays"])
        said = f"it reads arrays at its index, but stays a loop: {x['stays']}" if x.get("stays") else (
            f"it walks {arrays} whole along its index, as a stream would; it stays a loop under --keep-loops "
            "(without it, it is read as a stream, so that the plan may stage its reads)")
        console.print(escape(f"loop at {x['line']}:{x['column']}: {said}"))


def _counted_text(console: Console, loops: list[dict]) -> None:
    """The loops whose index also counted their elements: the count carried."""
    if loops:
        console.print()
    for x in loops:
        console.print(escape(f"loop at {x['line']}:{x['column']}: its index `{x['index']}` also counts the elements "
                             f"folded so far: that count is carried (`{x['count']}`, equal to `{x['index']}` in the "
                             "loop as written), so that a share of the loop split among threads counts its own "
                             "elements, and the loop is a reduction (`reductions` below)"))


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
    said = {}  # (two arrays transposed for one reason, as both operands of a product: the reason once)
    for t in rows:
        what = "transposed by the launch" if t["transposed"] else "not transposed"
        why = t["reason"] if t["reason"] not in said else f"with {said[t['reason']]}, as above"
        said.setdefault(t["reason"], t["array"])
        if t.get("units_when"):  # (a module compiled knowing sizes runs at any: smaller launches read it in place)
            why += (f" (copied at launches where {' and '.join(t['units_when'])} and the grid has a block for every "
                    "SM; the others read it in place)")
        console.print(escape(f"array {t['array']} [{t['rows']}, {t['length']}]: {what}: {why}"))


def _tuned_times(tuning: dict) -> str:
    if tuning["time_ms"] is None or tuning["default_ms"] is None:
        return ""
    return f": {tuning['time_ms']:.3f} ms there, the default {tuning['default_ms']:.3f} ms"


def _stream_text(console: Console, s: dict) -> None:
    unrolled = f", its loop unrolled {s['unroll']} times" if s.get("unroll") else ""
    state = f"tiled ({s['kind']}), chunk {s['chunk']}{unrolled}, {s['shared_bytes']} bytes" if s["tiled"] \
        else "not tiled"
    written = s.get("written", "streamSeq")
    read_as = " (read as a streamSeq over the arrays it walks)" if written == "loop" else ""
    console.print(f"\n[bold]{written} at {s['line']}:{s['column']}[/]{read_as}: {state}")
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


def _fission_text(console: Console, f: dict | None) -> None:
    if f is None:
        return
    if not f["fissioned"]:
        console.print(f"\n[bold]fission[/]: none: {f['reason']}")
        return
    when = " and ".join(f"{w['size']} >= {w['at_least']} ({w['what']})" for w in f["when"]) or "at every size"
    p = f["pairs"]
    tile = " x ".join(map(str, p["register_tile"])) + " pairs a thread" if p["register_tile"] else "one pair a thread"
    console.print(f"\n[bold]fission[/]: {f['reason']}; the fissioned versions run when {when}")
    console.print(f"  the pairs' kernel: {' x '.join(map(str, p['threads']))} threads, {tile}, "
                  f"{p['shared_bytes']} bytes of shared memory ({p['reason']})")
    fold = f["fold"]
    if fold is not None and fold["loops"]:
        console.print(f"  the fold: {fold['reason']}")


def _reductions_text(console: Console, r: dict | None) -> None:
    if r is None or not (r["loops"] or r["not_reductions"]):
        return
    rows = "map level 0" if r["rows"] == 1 else f"map levels 0 to {r['rows'] - 1}"
    console.print(f"\n[bold]reductions[/]: {r['reason']}" + (f" (rows: {rows})" if r["rows"] else ""))
    for loop in r["loops"]:
        state = "split among a row's threads" if loop["split"] else f"not split: {loop['reason']}"
        console.print(f"  loop at {loop['line']}:{loop['column']}: a reduction by {loop['described']}; {state}")
    for o in r["not_reductions"]:
        console.print(f"  loop at {o['line']}:{o['column']}: not a reduction: {o['reason']}")


def _scan_text(console: Console, s: dict | None) -> None:
    if s is None:
        return
    if s["scanned"]:
        where = " and ".join(f"{x['line']}:{x['column']}" for x in s["loops"])
        console.print(f"\n[bold]scan[/]: loop{'s' if len(s['loops']) > 1 else ''} at {where}: {escape(s['reason'])}")
    else:
        console.print("\n[bold]scan[/]: none")
    for o in s["not_scanned"]:
        console.print(f"  loop at {o['line']}:{o['column']} not scanned: {escape(o['reason'])}")


def _versions_text(console: Console, versions: list[dict]) -> None:
    if len(versions) < 2:  # one kernel, run at every size
        if versions:
            console.print(f"\n[bold]versions[/]: one, {versions[0]['kernel']}, at every size")
        for line in _ptxas_lines(versions[0] if versions else {}):
            console.print(f"  {line}")
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
        conds += [f"{g['size']} >= {g['at_least']}" for g in v.get("fission_when", ())]
        conds += [f"{c['size']} >= {c['at_least']}" for c in v["condition"] or ()]
        conds += [f"{c['size']} {c['op']} {c['value']}" for c in v.get("transpose_when", ())]
        if v.get("grid_share"):
            conds.append(describe_share(v["grid_share"], v["grid_blocks_at_least_sms"]))
        conds += [f"{m['size']} a multiple of {m['factor']}" for m in v["multiple_of"]]
        conds += [f"{e['size']} = {e['value']}" for e in v.get("equal_to", ())]
        conds += [f"{e['size']} <= {e['value']}" for e in v.get("at_most", ())]
        conds += [f"{e['size']} <= {e['value']:,} (the blocks its grid holds: compiled knowing "
                  f"{e['size']}, it has no loop past them)" for e in v.get("grid_at_most", ())]
        conds += [v["lanes_when"]] if v.get("lanes_when") else []
        conds += [v["shared_fits"]["text"]] if v.get("shared_fits") else []
        name = _version_name(v) + (", vector copies" if v["multiple_of"] else "") + \
            (", 64-bit offsets" if v["offsets"] == "64-bit" else "") + \
            "".join(f", {a} transposed" for a in v.get("transposed", ())) + \
            (", after a kernel of one point computing work of no map level's names" if v.get("once_a_launch") else "")
        raced = f"; raced against {RACED_FIRST_WORDS.get(v.get('raced_first'), '')}the untiled kernel" \
            if v.get("timed_against") else ""
        if n == len(versions) - 1 or not conds:
            console.print(f"  {name}: otherwise ({v['why']}{raced})" if v["why"] else f"  {name}: otherwise")
        else:
            console.print(f"  {name}: when {' and '.join(conds)} ({v['why']}{raced})")
        if v.get("rewrites"):  # the transforms that rewrote its body (its pairs' kernel's, fissioned)
            console.print(f"    rewritten by: {', '.join(v['rewrites'])}")
        if v.get("tma_copies"):
            freed = "a barrier a chunk frees its buffer" if v.get("tma_barrier") else "no barrier a chunk"
            console.print(f"    tiles copied by TMA: {', '.join(v['tma_copies'])} (waited on by mbarriers, {freed})")
        for line in _ptxas_lines(v):
            console.print(f"    {line}")


# what a version is raced against before the untiled kernel, by explain's JSON `raced_first`
RACED_FIRST_WORDS = dict(RACED_FIRST.values())


def _version_name(v: dict) -> str:
    """What kind of kernel a version runs: a split-K's tiled kernel and its last kernel, a split's lanes and
    kernels, a fissioned fold (its two kernels named so)."""
    if v.get("k_split"):
        return f"split-K, the tiled kernel with {v['blocks_a_tile']} blocks a tile along z, then {v['lanes']} " \
               f"threads a row"
    if v.get("march"):
        m = v["march"]
        rows = f"{m['rows_a_thread']} rows" if m["rows_a_thread"] > 1 else "1 row"
        return f"march, {rows} a thread, {m['planes_a_block']} planes of {m['array']} a block"
    if v.get("points_a_thread"):
        staged = f", {', '.join(v['staged_windows'])} staged with the halo" if v.get("staged_windows") else ""
        points = v["points_a_thread"]
        spacing = "a block's width apart" if v.get("points_apart") else "consecutive"
        return (f"{v['kernel']}, {points} points a thread, {spacing}" if points > 1 else
                f"{v['kernel']}, one point a thread") + staged
    if v.get("scan_down_columns"):
        return f"scan down columns, a thread a column, {v['shares_a_column']} shares of each column in " \
               f"{v['kernels']} kernels"
    if v.get("kernels") and not v.get("fissioned"):
        return f"{v['kernel']}, {v['blocks_a_row']} blocks of {v['lanes']} threads a row in {v['kernels']} kernels"
    return ("fissioned, the fold " if v.get("fissioned") else "") + v["kernel"] + \
        (f", {v['lanes']} threads a row" if v.get("lanes") else "") + \
        (f", {v['rows_a_block']} rows a block" if v.get("rows_a_block") else "")


def _ptxas_lines(version: dict) -> list[str]:
    """ptxas's report on a version's kernels (explain --nvcc), a line each."""
    lines = []
    for k in version.get("ptxas", ()):
        spills = "no spills" if not (k["spill_stores"] or k["spill_loads"]) else \
            f"{k['spill_stores']} bytes of spill stores, {k['spill_loads']} of spill loads"
        planned = "as planned" if k["shared_bytes"] == k["planned_shared_bytes"] else \
            f"the plan said {k['planned_shared_bytes']}"
        who = f"{k['kernel']}: " if len(version["ptxas"]) > 1 else ""
        dynamic = ", and dynamic shared memory the launch sizes" if k.get("shared_sized_at_launch") else \
            f", and {k['dynamic_shared_bytes']} of dynamic shared memory at launch" if k["dynamic_shared_bytes"] else ""
        lines.append(f"ptxas: {who}{k['registers']} registers, {spills}, {k['shared_bytes']} bytes of static shared "
                     f"memory ({planned}){dynamic}")
    return lines


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
