"""The range of an integer index expression over every thread of a block
and every iteration of the loops around it, by interval arithmetic: what the
verifier bounds a matrix operation's footprint in its shared tiles with.
`None` where an operand's range is not known at compile time (a size, a
load, an operation left out here)."""
from __future__ import annotations

from .nodes import MINMAX, Bin, Call, Cast, Const, For, Ref, Select, ThreadIdx

AXES = {"x": 0, "y": 1, "z": 2}
INT32 = (-(1 << 31), (1 << 31) - 1)  # an int index's values: a range past them could wrap


def value_range(e, block: tuple, loops: dict, defs: dict) -> tuple[int, int] | None:
    """(lowest, highest) value of `e`: threadIdx within `block`, a loop's
    variable (`loops`: name -> For) within its constant bounds, a constant
    (`defs`: name -> its value) as its value; None past 32-bit integers. The
    names are kir's, each bound once in a kernel (lower's fresh names)."""
    found = _range(e, block, loops, defs)
    return found if found is not None and INT32[0] <= found[0] and found[1] <= INT32[1] else None


def _range(e, block: tuple, loops: dict, defs: dict) -> tuple[int, int] | None:
    def r(x):
        return value_range(x, block, loops, defs)

    if isinstance(e, Const):
        return (e.value, e.value) if isinstance(e.value, int) and not isinstance(e.value, bool) else None
    if isinstance(e, ThreadIdx):
        return 0, block[AXES[e.axis]] - 1
    if isinstance(e, Cast):
        return r(e.a) if e.ctype in ("int", "long long") else None
    if isinstance(e, Select):
        a, b = r(e.a), r(e.b)
        return None if a is None or b is None else (min(a[0], b[0]), max(a[1], b[1]))
    if isinstance(e, Call) and e.fn in MINMAX and len(e.args) == 2:
        a, b = r(e.args[0]), r(e.args[1])
        if a is None or b is None:
            return None
        pick = max if e.fn == "max" else min
        return pick(a[0], b[0]), pick(a[1], b[1])
    if isinstance(e, Ref):
        if e.name in loops:
            return _loop_range(loops[e.name], r)
        return r(defs[e.name]) if e.name in defs else None
    if isinstance(e, Bin):
        a, b = r(e.a), r(e.b)
        return None if a is None or b is None else _combined(e.op, a, b)
    return None


def _loop_range(loop: For, r) -> tuple[int, int] | None:
    start, stop, step = r(loop.start), r(loop.stop), r(loop.step)
    if None in (start, stop, step) or step[0] <= 0:
        return None
    return start[0], max(start[0], stop[1] - 1)


def _combined(op: str, a: tuple, b: tuple) -> tuple[int, int] | None:
    if op == "+":
        return a[0] + b[0], a[1] + b[1]
    if op == "-":
        return a[0] - b[1], a[1] - b[0]
    if op == "*":
        ends = [x * y for x in a for y in b]
        return min(ends), max(ends)
    if op in ("/", "%") and b[0] == b[1] and b[0] > 0 and a[0] >= 0:  # C's truncation is floor here
        c = b[0]
        return (a[0] // c, a[1] // c) if op == "/" else \
            ((a[0] % c, a[1] % c) if a[0] // c == a[1] // c else (0, c - 1))
    if op == "^" and a[0] >= 0 and b[0] >= 0:  # within the bits of the larger
        return 0, (1 << max(a[1], b[1]).bit_length()) - 1
    return None
