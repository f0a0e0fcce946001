"""`tiler compile --emit versions`: the versions stage's records in words,
in the order the launch tests them (before lowering: a version with vector
copies is still one record, which lowering may split in two)."""
from __future__ import annotations

from ..analyse.schedule import describe_share, test_text
from ..source import program_stem
from ..versions.records import (
    RACED_FIRST,
    Aligned,
    All,
    AnyOf,
    AtLeast,
    AtMost,
    Copies,
    Equals,
    FewTiles,
    FillsSMs,
    Fits,
    Gate,
    Kind,
    OnStage,
    RowTest,
    SharedFits,
    Transposing,
    Version,
    Versions,
)


def versions_text(vs: Versions, stem: str = "") -> str:
    """`stem`: the name --name gives the generated symbols (default the program file's)."""
    text = _text(vs)
    old = f"tiler_{program_stem(vs.file)}_"
    return text.replace(old, f"tiler_{stem}_") if stem else text


def _text(vs: Versions) -> str:
    out = [f"versions of {vs.file}, in the order the launch tests them (the first whose condition holds runs)"]
    out += [f"  {note}" for note in vs.notes]
    for n, v in enumerate(vs.versions, 1):
        out.append(f"{n}. {_head(v)}")
        out.append(f"   when: {condition_text(v.condition)}")
        if v.rival is not None:
            first = RACED_FIRST[(v.build.few, v.ahead)][1] if v.build.few or v.ahead else ""
            out.append(f"   raced against {first}{v.rival.name} at the first launch of each set of sizes")
        why = _why(v)
        if why:
            out.append(f"   why: {why}")
    if vs.fission is not None:
        out.append(f"fission: {vs.fission.reason}")
    return "\n".join(out) + "\n"


def _head(v: Version, last: bool = False) -> str:
    """`last`: the record's last kernel (a vector record's scalar one, where it splits in two)."""
    b = v.build
    if v.kind is Kind.FISSIONED:
        return (f"fissioned: the pairs' kernel ({_head(v.pair, last=True)}) as a stage writing {v.scratch}, then the "
                f"fold's ({_head(v.fold, last=True)})")
    parts = [f"{v.kind.value}: {b.name}"]
    if b.k_split:
        block = b.schedule.block
        parts.append(f"split-K: the tiled kernel (block {' x '.join(str(block.extents[d]) for d in block.spans)}, "
                     f"{block.micro_points} point{'s' if block.micro_points > 1 else ''} a thread) with blocks along "
                     f"z sharing the reduction, then "
                     f"{b.lanes} threads a row" + (", rows side by side," if b.columns else "") +
                     " combining their partial results")
    elif b.march:
        m = b.source.plan.march.march
        rows, cols = m.plane
        parts.append(f"block {' x '.join(map(str, m.threads))}, {m.points} consecutive row(s) a thread, {m.chunk} planes "
                     f"of {m.array} a block, each staged with its halo ({rows} x {cols}) in shared memory" +
                     (f", {m.blocks} blocks an SM" if m.blocks else ""))
    elif b.window:
        block = b.schedule.block
        staged = b.schedule.halos
        spacing = "points a block apart" if block.points_apart else "consecutive point(s)"
        shared = f"the window{'s' if len(staged) > 1 else ''} of {', '.join(t.text() for t in staged)} in shared " \
            "memory" if staged else "no shared memory"
        parts.append(f"block {' x '.join(str(block.extents[d]) for d in block.spans)}, {block.micro_points} "
                     f"{spacing} a thread, {shared}")
    elif b.split is not None:
        parts.append(f"{b.lanes} threads a row" + (", rows side by side" if b.columns else "") +
                     (", several blocks a row" if b.several else ""))
    elif b.schedule is not None and b.tiled:
        block = b.schedule.block
        parts.append(f"block {' x '.join(str(block.extents[d]) for d in block.spans)}" +
                     (f", {block.register.points} points a thread" if block.register is not None else ""))
        split = v.copies in (Copies.VECTOR_OR_SCALAR, Copies.VECTOR_OR_SCALAR_WIDE)
        parts.append("copies: scalar where its copies split in two, else as planned" if last and split else
                     f"copies: {v.copies.value if v.copies is not Copies.PLANNED else _copies(b)}")
    parts.append("64-bit offsets" if b.wide else "32-bit offsets")
    if b.transposed:
        parts.append(f"reads {', '.join(sorted(b.transposed))} transposed by the launch")
    return "; ".join(parts)


def _copies(b) -> str:
    return "as planned" if b.vectors else "scalar"


def _why(v: Version) -> str:
    if v.kind is Kind.FISSIONED:
        return "the pairs' values first, into scratch memory; then the fold reads them"
    return "; ".join(p for p in (v.note, v.why) if p)


def condition_text(c, nested: bool = False) -> str:
    """A version's condition in words: its tests, as the launch makes them."""
    if c is None:
        return "always (where no version before it runs)"
    if isinstance(c, All):
        text = " and ".join(condition_text(p, True) for p in c.parts)
        return f"({text})" if nested and len(c.parts) > 1 else text
    if isinstance(c, AnyOf):
        text = " or ".join(condition_text(p, True) for p in c.parts)
        return f"({text})" if nested else text
    return _test_text(c)


def _test_text(c) -> str:
    if isinstance(c, AtLeast):
        return f"{c.threshold.size} >= {c.threshold.value}"
    if isinstance(c, Equals):
        return f"{c.size} = {c.value}"
    if isinstance(c, AtMost):
        return f"{c.size} <= {c.value}"
    if isinstance(c, Gate):
        return f"{c.gate.size} >= {c.gate.least} ({c.gate.what})"
    if isinstance(c, Fits):
        return "every array has fewer than 2^31 elements (" + \
            ", ".join(" * ".join(map(str, s)) for s in c.shapes) + ")"
    if isinstance(c, SharedFits):
        return c.text()
    if isinstance(c, Aligned):
        return "the sizes its 128-bit copies read rows by are multiples of 4 (known once it is lowered)"
    if isinstance(c, FillsSMs):
        return describe_share(c.share)
    if isinstance(c, FewTiles):
        return c.text()
    if isinstance(c, Transposing):
        return test_text(c.test)
    if isinstance(c, RowTest):
        return c.test.text(c.length)
    if isinstance(c, OnStage):
        return f"for the pairs' kernel: {condition_text(c.condition, True)}"
    return repr(c)
