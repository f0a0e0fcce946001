"""`tiler explain`: the analysis records, shown; nothing is recomputed.

`explain_data(analysis, source)` turns the records into plain data (what
`--json` prints); `render_text(data, variance=...)` (explain_text.py) lays
the same data out for a terminal with rich.
"""
from __future__ import annotations

import math

from .. import kir, target
from ..analyse import Analysis
from ..analyse.blocks import stream_kind
from ..analyse.folds import described
from ..analyse.own_reads import OWN_LONG_ROW
from ..analyse.reductions import OWN_WARP_ROW
from ..analyse.registers import expected_registers
from ..analyse.row_tests import tests_text
from ..analyse.scans import Scan
from ..analyse.schedule import Math, describe_copy, describe_pipeline, describe_reads, describe_thresholds, test_text
from ..analyse.windows import WINDOW_REASON, windows
from ..check.expressions import text as source_text
from ..check.types import Binder, size_text
from ..source import Source
from ..versions.planned import has_march_version, has_window_version
from ..versions.records import RACED_FIRST, AtMost, Fits, Kind, SharedFits, leaves, without
from .versions import condition_text
from .warnings import warnings_of


def explain_data(a: Analysis, source: Source, module=None, applied=None, versions=None) -> dict:
    """`module`: the lowered kernels, whose versions the launch picks between,
    each with the record it was lowered from (without it, the plan's
    versions: before vector copies split one); `versions`: the records'
    stage (the fold fissioned, or why not); `applied`: the tuning file
    read, for its warning."""
    k, b = a.kernel, a.block
    return {
        "file": source.name,
        "dims": [{"dim": lv.dim, "size": _size(lv.size), "line": lv.span.line, "column": lv.span.col}
                 for lv in k.levels],
        "block": {"spans": list(b.spans), "threads": list(b.extents),
                  "thread_axis": {str(d): ax for d, ax in enumerate(b.thread_axis) if ax},
                  "grid_axis": {str(d): ax for d, ax in enumerate(b.grid_axis)},
                  "interchanged": b.interchanged, "shared_bytes": b.shared_bytes,
                  "max_shared": a.context.shared_limit(b.pipelined), "reason": b.reason,
                  "register_tile": _register_tile(a),
                  "interior": {"unclamped": b.interior, "reason": b.interior_reason},
                  "min_blocks": {"blocks": b.min_blocks, "reason": b.min_blocks_reason},
                  "group_rows": {"rows": b.group_rows, "reason": b.group_rows_reason}},
        "bounds": [{"size": n, "at_most": v} for n, v in sorted(a.schedule.bounds.items())],
        "hoisted": [{"what": h.what, "line": h.span.line, "column": h.span.col, "written_at": h.written,
                     "runs_at": h.runs, "reads": list(h.reads), "reason": h.reason} for h in k.hoisted],
        "promoted": [_promotion(r, source) for r in k.promoted],
        **({"speculated": [{"line": r.stream.line, "column": r.stream.col, "branch_line": r.branch.line,
                            "branch_column": r.branch.col, "lets": list(r.names), "dims": list(r.dims),
                            "reason": r.reason} for r in k.speculated]} if k.speculated else {}),
        "counted": [{"line": c.span.line, "column": c.span.col, "index": c.index, "count": c.count}
                    for c in k.counted],
        "windows": [_window(w, source, a.plan.window, has_window_version(a)) | _marched(w, a) for w in windows(k)],
        "unused": [{"line": span.line, "column": span.col} for span in sorted(k.unused, key=lambda s: (s.line, s.col))],
        "streamable_loops": [{"line": x.span.line, "column": x.span.col, "arrays": list(x.arrays),
                              "stays": x.stays or None} for x in k.streamable],
        "rows": [_row(r, source) for r in a.schedule.slabs],
        "transposes": [_transposition(t) for t in a.schedule.transposes],
        "streams": [_stream(s, b, source) for s in a.streams],
        "reductions": _reductions(a),
        "scan": _scan(a),
        "fission": _fission(versions.fission if versions is not None else None, module),
        "versions": _versions(a, module),
        "math": {"fast": a.schedule.math is Math.FAST, "note": target.FAST_MATH_NOTE if a.schedule.math is Math.FAST else
                 "IEEE: CUDA's correctly rounded or documented-accuracy functions (--fast-math: the hardware "
                 "approximations)"},
        "candidates": [_candidate(c) for c in a.plan.candidates],
        "variance": _variance(a),
        "warnings": [w.record() for w in warnings_of(a, applied)],
    }


def _reductions(a: Analysis) -> dict | None:
    """Every loop at a row's level: a reduction (by which operators, split
    among a row's threads or why not) or why it is not one."""
    split = a.plan.split
    if split is None:
        return None
    return {"rows": split.rows, "reason": split.reason,
            "lanes": [{"lanes": c.lanes, "several": c.several, "columns": c.columns,
                       "when": [[_test(t) for t in alts] for alts in c.when]}
                      for c in split.choices] if split.active else [],
            "gate": [_test(t) for t in split.gate] if split.active else [],
            # a split for few points whose reductions stream the points' own elements also runs for more points
            # where the rows are long (reductions.Split.own_rows)
            "own_streams": {"points_an_sm": split.own_rows, "length": OWN_LONG_ROW, "few_points_an_sm": split.few_rows}
            if split.active and split.own_rows else None,
            # ... and a warp a row for more points from this length on, raced (reductions.Split.own_warp)
            "own_warp": {"length": OWN_WARP_ROW} if split.active and split.own_warp else None,
            "loops": [{"line": r.span.line, "column": r.span.col, "operators": [op.value for op in r.operators],
                       "described": described(r.operators),
                       "split": r.split, "length": r.length, "reason": r.reason} for r in split.reductions],
            "not_reductions": [{"line": o.span.line, "column": o.span.col, "reason": o.reason}
                               for o in split.others]}


def _scan(a: Analysis) -> dict | None:
    """The loops of a fold per point over the positions up to its own, run as a scan (or why not)."""
    scan = a.plan.scan
    if scan is None:
        return None
    scanned = scan.loops if isinstance(scan, Scan) else ()
    left = scan.left if isinstance(scan, Scan) else (scan,)
    return {"scanned": bool(scanned), "reason": scan.reason if scanned else None,
            "down_columns": scan.columns(a.kernel) if scanned else None,
            "loops": [{"line": s.span.line, "column": s.span.col, "operators": [op.value for op in s.operators],
                       "suffix": s.suffix, "exclusive": s.exclusive, "totals": list(s.totals),
                       # (the carried values scanned one level after another: one level where none reads another's)
                       "chain": [[p.name for n, p in enumerate(s.loop.params) if s.level(n) == level]
                                 for level in range(s.depth)]} for s in scanned],
            "not_scanned": [{"line": o.span.line, "column": o.span.col, "reason": o.reason} for o in left]}


def _fission(f, module) -> dict | None:
    """A fold over rows fissioned into the pairs' kernel and the fold's (or why not)."""
    if f is None:
        return None
    if not hasattr(f, "values"):  # (versions.NoFission)
        return {"fissioned": False, "reason": f.reason}
    if module is not None and not any(v.fissioned for v in module.versions):  # (versions/lowering.py left them out)
        return {"fissioned": False, "reason": "the pairs' kernel would copy its tiles by TMA in place, and no launch "
                                              "makes a stage's TMA maps: the kernel as written runs"}
    b = f.values.block
    tile = b.register.sizes if b.register is not None else None
    return {"fissioned": True, "reason": f.reason, "scratch": f.fission.scratch,
            "when": [{"size": g.size, "at_least": g.least, "what": g.what} for g in f.gates],
            "pairs": {"threads": list(b.extents), "register_tile": list(tile) if tile else None,
                      "shared_bytes": b.shared_bytes, "reason": b.reason},
            "fold": _reductions(f.fold)}


def _lanes_when(split, choice) -> str | None:
    """The launch's test for a split version, in words (None: not one, or it runs otherwise)."""
    if choice is None:
        return None
    alts = split.tests_of(choice)
    tests = [tests_text(alts, split.length)] if alts else []
    tests += [t.text(split.length) for t in split.gate]
    return " and ".join(f"({t})" if " or " in t else t for t in tests) or None


def _test(t) -> dict:
    return {"what": t.what, "op": t.op, "value": t.value, "per_sm": t.per_sm}


def _promotion(r, source: Source) -> dict:
    return {"read": source_text(r.read, source), "line": r.read.span.line, "column": r.read.span.col,
            "array": r.array, "input": r.param or None, "reason": r.reason,
            "for": [r.site.line, r.site.col] if r.site is not None else None}


def _window(w, source: Source, tile, made: bool) -> dict:
    """An array whose reads move with the points (analyse/windows.py), and
    whether the window version (`made`: the module has it) shares its reads
    among a thread's points (analyse/window_tile.py)."""
    first = w.reads[0]
    staged = tile is not None and w.array in tile.staged
    planned = tile is not None and tile.schedule is not None and (w.array in tile.arrays or staged)
    shared = planned and made
    return {"array": w.array, "read": source_text(first, source), "line": first.span.line,
            "column": first.span.col, "reads": len(w.reads),
            "axes": [{"axis": a.axis, "dim": a.dim, "low": a.low, "high": a.high, "halo": a.halo,
                      "edges": list(a.edges), "bounds": list(a.bounds), "text": a.text()} for a in w.axes],
            "staged": staged and made, "registers": shared and tile.dim is not None and w.array in tile.arrays,
            "reason": f"{tile.reason}, in a version raced first" if shared else
            f"{WINDOW_REASON}; no window version: it runs only raced, and launch timing is off (--no-launch-timing, "
            "or an option that steers the schedule)" if planned else
            f"{WINDOW_REASON}: not shared in registers: {tile.reason}" if tile is not None and w.array in tile.arrays
            else WINDOW_REASON}


def _marched(w, a) -> dict:
    """Whether the window is marched along its outer dimension (analyse/march.py), and why or why not (no
    entry where the kernel has no window spanning three dimensions)."""
    marching = a.plan.march
    if marching is None:
        return {}
    m = marching.march
    if m is not None and m.array == w.array:
        made = has_march_version(a)
        return {"marched": made, "march_reason": marching.reason if made else
                "no march version: it runs only raced, and launch timing is off (--no-launch-timing, or an option "
                "that steers the schedule)"}
    if m is not None or len({a.dim for a in w.axes}) < 3:  # (only a window along three dimensions is marched)
        return {}
    why = dict(marching.refusals).get(w.array) if marching.refusals else marching.reason
    return {"marched": False, "march_reason": why} if why else {}


def _march_version(a: Analysis) -> dict:
    """A march version's shape (analyse/march.py)."""
    m = a.plan.march.march
    return {"array": m.array, "dim": m.dims[0], "threads": list(m.threads), "rows_a_thread": m.points,
            "planes_a_block": m.chunk, "plane": list(m.plane), "queue": m.depth, "shared_bytes": m.shared_bytes,
            "blocks_an_sm": m.blocks, "inside_body": m.inside}


def _row(r, source: Source) -> dict:
    """A row each thread reads whole outside any stream, and what became of it."""
    return {"param": r.name, "array": source_text(r.array, source), "dim": r.dim, "length": r.length,
            "staged": r.staged, "coalesce": "shared" if r.staged else "transpose" if r.transposed else "none",
            "rows": r.points, "pitch": r.pitch, "run": r.run, "vector": r.vector, "asynchronous": r.asynchronous,
            "bytes": r.bytes, "reason": r.reason}


def _transposition(t) -> dict:
    """An array whose rows threads read alone: transposed by the launch, or why not."""
    return {"array": t.array, "rows": t.rows, "length": t.length, "transposed": t.chosen,
            "length_at_least": t.min_length, "rows_at_most": t.max_rows, "for_matrix_units": t.units,
            "units_when": [test_text(test) for test in t.units_tests], "reason": t.reason}


def _size(size) -> str | int:
    return size if isinstance(size, int) else size.name


def _register_tile(a: Analysis) -> dict:
    """The micro-tile, what it costs in registers and what each level of
    memory then serves: global loads and shared reads per point per streamed
    element (per multiply-add in a matrix product)."""
    b, r = a.block, a.block.register
    staged = [(p, s) for s in a.streams if s.tiled for p in s.inputs if p.staged]
    # an input each point reads at its own index is loaded once a point: its copy shares nothing
    global_loads = sum(1.0 if p.staging.own else 1 / p.staging.reuse for p, _ in staged)
    # a packed group's members are one vector read
    shared_reads = sum(1 / (1 if p.staging.own else math.prod(b.micro(d) for d in p.invariant_to & frozenset(b.spans)))
                       / (len(p.staging.pack.members) if p.staging.pack else 1) for p, _ in staged)
    out = {"sizes": [b.micro(d) for d in range(b.rank)], "group": r.group if r else 1,
           "accumulators": r.accumulators if r else 0, "registers_expected": expected_registers(a.schedule, a.variance),
           "double_buffer": r.double_buffer if r else False,
           "asynchronous": r.asynchronous if r else False, "reason": b.register_reason,
           "global_loads_per_point_step": round(global_loads, 6),
           "shared_reads_per_point_step": round(shared_reads, 6),
           "matrix_units": _matrix_units(a.schedule.matrix_units),
           # whether a product on the CUDA cores copies its tiles by TMA (analyse/core_tma.py); None: not asked
           "tma": None if a.schedule.tma is None else _tma(a.schedule.tma)}
    return out


def _tma(t) -> dict:
    """TMA copies' record; where used, whether the last chunk runs whole over the zeros past the arrays' ends."""
    out = {"used": t.used, "reason": t.reason}
    return out | {"whole_chunks": t.whole_chunks, "last_chunk": t.last_chunk} if t.used else out


def _matrix_units(units) -> dict | None:
    """Whether the register-tiled product runs on the matrix units (tensor
    cores), and why or why not; None where there is no 2-D register tile."""
    if units is None:
        return None
    shape = units.shape
    return {"used": units.used, "exact": units.exact, "reason": units.reason, "precision": units.precision or None,
            "instruction": [shape.m, shape.n, shape.k] if shape else None,
            "warps": list(shape.warps) if shape else None, "fragments": list(shape.fragments) if shape else None}


def _micro_pair(block) -> list[int]:
    """[TM, TN]: points a thread takes along the outer and the inner spanned dim."""
    spans = sorted(block.spans)
    pair = [block.micro(d) for d in spans]
    return ([1] * (2 - len(pair)) + pair)[-2:]


def _stream(s, block, source: Source) -> dict:
    site = s.site
    return {
        "line": site.span.line, "column": site.span.col, "written": "loop" if site.stream.loop else
        "streamSeq" if site.stream.combine is None else "streamRed",
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
           "tile": list(st.tile) if st else [], "layout": (st.layout.value + (", swizzled" if st.swizzled else "")) if st else "",
           "padding": st.padding if st else 0, "row_length": p.element if p.element > 1 else None,
           "packed": ({"array": st.pack.array, "lane": st.pack.lane, "width": st.pack.width,
                       "members": list(st.pack.members)} if st and st.pack else None),
           "copy": describe_copy(st.copy) + (f"; {describe_pipeline(st)}" if st.buffers > 1 else "") if st else "",
           "reads": describe_reads(st) if st else "",
           "bytes": st.bytes if st and p.copied else 0, "shares": p.shares or None,
           "coalesce": p.coalesce.value, "uncoalesced_in_place": p.uncoalesced,
           "for_coalescing": p.for_coalescing,
           "refusal": p.refusal.name.lower() if p.refusal else None,  # why it is read in place, for tools
           "reason": p.reason}
    if st:
        out["schedule"] = {"copy_axis": st.copy.axis.value, "coalescing": st.copy.coalescing.value,
                           "reads": st.reads.value, "pitch": st.pitch, "reuse": st.reuse, "vector": st.vector,
                           "buffers": st.buffers, "asynchronous": st.asynchronous}
    return out


def _versions(a: Analysis, module) -> list[dict]:
    """The kernels the launch chooses between, in order, with their
    conditions, each read from the record it was lowered from
    (versions.records.Version): the thresholds (a size at least a value) of
    a tiled kernel, the sizes its vector copies need to be multiples of,
    the row lengths its tiles were sized for, and (where some array may
    pass 2^31 elements) whether its offsets are 32- or 64-bit."""
    def conds(thresholds):
        return [{"size": t.size, "dim": t.dim, "at_least": t.value, "overridden": t.overridden}
                for t in thresholds] or None

    if module is None:  # before lowering: the plan's versions (a bounded plan's condition: the plan without it)
        plan = a.plan.unbounded or a.plan
        out = [_plain(a.tiled, describe_thresholds(a.plan.thresholds) if a.plan.thresholds else "",
                      conds(plan.thresholds))]
        return out + ([_plain(False, "the untiled fallback", None)] if a.plan.thresholds else [])
    sized = any(v.kernel.wide for v in module.versions)
    out = []
    for n, version in enumerate(module.versions):
        k, rec = version.kernel, version.plan
        fissioned = version.fissioned
        last = n == len(module.versions) - 1 and len(module.versions) > 1
        stages = len(k.split_stages) if not fissioned else 0
        split = rec.fold.build.split if fissioned else rec.build.split
        kind = KIND_NAMES[(rec.fold if fissioned else rec).kind]
        k_split = not fissioned and rec.build.k_split
        own_warp = not fissioned and rec.build.own_warp  # (not under the split's gate: its own tests)
        window = rec.kind in (Kind.WINDOW, Kind.STRIDED)
        out.append({"kernel": kind, "lanes": k.lanes or None, "fissioned": fissioned,
                    "fission_when": [{"size": g.size, "at_least": g.least} for g in rec.gates],
                    "lanes_when": condition_text(without(rec.condition, Fits), True) if rec.kind is Kind.SCAN else
                    (condition_text(without(without(rec.condition, Fits), AtMost), True) if k_split or own_warp else
                     _lanes_when(split, rec.choice)) if k.lanes else None,
                    "blocks_a_row": _row_blocks(k.split_stages[0]) if stages and not k_split and
                    not _down_columns(rec) else None,
                    "scan_down_columns": _down_columns(rec) or None,
                    # (a scan a warp a row: its rows a block, along threadIdx.y)
                    "rows_a_block": k.block[1] if rec.kind is Kind.SCAN and k.block[1] > 1 else None,
                    "shares_a_column": k.grid_formulas(capped=True)[1] if _down_columns(rec) else None,
                    "k_split": k_split,
                    "blocks_a_tile": k.split_stages[0].grid_formulas()[2] if k_split else None,
                    "kernels": 2 if fissioned else stages + 1 if stages else None,
                    "condition": None if last or not k.tiled or k.lanes else conds(rec.thresholds),
                    "multiple_of": [{"size": s, "factor": f} for s, f in k.divisible],
                    "equal_to": [{"size": s, "value": v} for s, v in k.fixed],
                    # (a split-K version's bounds are its tiled stage's)
                    "at_most": [{"size": s, "value": v} for s, v in (k.split_stages[0] if k_split else k).bounds],
                    # (its grid's blocks along y or z, which no loop walks: sizes given when compiled)
                    "grid_at_most": [{"size": s, "value": v}
                                     for s, v in dict.fromkeys(b for st in k.launches for b in st.grid_bounds)],
                    "offsets": "64-bit" if k.wide else "32-bit",
                    "elements_below": target.INT_MAX + 1 if sized and not k.wide else None,
                    "transposed": [p.source for p in k.transposes],
                    "transpose_when": [{"size": " * ".join(map(str, sizes)), "op": op, "value": value}
                                       for sizes, op, value in rec.transposing] if k.transposes else [],
                    "why": version.why,
                    "grid_blocks_at_least_sms": _grid_blocks(k.stages[0] if fissioned else k)
                    if version.grid_share else None,
                    "grid_share": version.grid_share or None,
                    "timed_against": "untiled" if version.rival else None,
                    "raced_first": RACED_FIRST[(version.few, version.ahead)][0] if version.races_first else None,
                    "points_a_thread": rec.build.schedule.block.micro_points if window else None,
                    "staged_windows": [t.array for t in rec.build.schedule.halos] if window else None,
                    "points_apart": rec.build.schedule.block.points_apart if window else None,
                    # a halo tile the launch sizes: the version runs only where the tiles fit in these bytes
                    "shared_fits": next(({"tiles": list(t.tiles), "bytes": t.limit, "text": t.text()} for t in leaves(rec.condition)
                                         if isinstance(t, SharedFits)), None) if not fissioned else None,
                    "march": _march_version(a) if rec.kind is Kind.MARCH else None,
                    "once_a_launch": any(st.once for st in k.stages),
                    "rewrites": list((k.stages[0] if fissioned else k).rewrites),
                    # the arrays whose tiles TMA copies (lower/tma_pipeline.py), and whether a block-wide barrier
                    # frees each buffer (a product on the CUDA cores': its maps unswizzled)
                    "tma_copies": list(dict.fromkeys(p.array for p in k.params if p.role == kir.TENSOR_MAP)),
                    "tma_barrier": any(p.role == kir.TENSOR_MAP and not p.swizzled for p in k.params)})
    return out


KIND_NAMES = {Kind.TILED: "tiled", Kind.ONE_POINT: "tiled", Kind.UNTILED: "untiled", Kind.SPLIT: "split",
              Kind.WINDOW: "window", Kind.STRIDED: "strided", Kind.MARCH: "march", Kind.SCAN: "scan"}


def _plain(tiled: bool, why: str, condition) -> dict:
    """A version of the plan before lowering (`--emit analysis`)."""
    return {"kernel": "tiled" if tiled else "untiled", "lanes": None, "fissioned": False, "fission_when": [],
            "lanes_when": None, "blocks_a_row": None, "kernels": None, "condition": condition if tiled else None,
            "multiple_of": [], "equal_to": [], "at_most": [], "grid_at_most": [], "offsets": "32-bit", "elements_below": None,
            "transposed": [], "transpose_when": [], "why": why, "grid_blocks_at_least_sms": None, "grid_share": None,
            "timed_against": None, "rewrites": []}


def _down_columns(rec) -> bool:
    """A scan version's positions are the level outside the innermost: a thread a column."""
    return rec.kind is Kind.SCAN and rec.build.scan.columns(rec.build.source.kernel)


def _row_blocks(k) -> str:
    """The blocks a row of several: along the axis whose count is capped (x,
    or y where a scan's rows are on x)."""
    axis = next((n for n, a in enumerate(k.grid) if a is not None and len(a) > 2), 0)
    return k.grid_formulas(capped=True)[axis]


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


def with_ptxas(data: dict, module, reports: dict, arch: str) -> None:
    """Each version's kernels as ptxas built them (explain --nvcc): its
    registers, spills and shared memory beside the plan's."""
    data["arch"] = arch
    for v, version in zip(data["versions"], module.versions):
        v["ptxas"] = [{"kernel": k.name, "registers": reports[k.name].registers,
                       "spill_stores": reports[k.name].spill_stores, "spill_loads": reports[k.name].spill_loads,
                       "shared_bytes": reports[k.name].shared_bytes, "planned_shared_bytes": k.static_shared_bytes,
                       "dynamic_shared_bytes": k.dynamic_shared_bytes, "shared_sized_at_launch": bool(k.sized_at_launch)}
                      for k in version.kernel.launches]
