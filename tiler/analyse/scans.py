"""A fold per point over the positions up to its own: a scan.

The language has no scan, so a user writes a prefix sum as a map over
positions `i` whose body folds a stream over all n elements, keeping only
those at or before `i`:

    map(fn (int i) => streamSeq(fn (int j0, [int, c] xc, int s) =>
          loop (s) = for j < c do if j0 + j <= i then s + xc[j] else s in s, x, 0), iota(n))

Run as written, that is n^2 / 2 steps (every point walks the whole
stream). Where the guarded update is a reduction (folds.py: `+`, `*`,
`min`, `max`, one a carried value, conditions inside it allowed) whose
term reads nothing that varies with `i`, point i's value is the fold of
the terms at positions 0..i (`<= i`), 0..i-1 (`< i`), i..n-1 (`>= i`, a
suffix) or i+1..n-1 (`> i`) from the stream's initial values: one scan of
the terms serves every point. A carried value both branches update alike
folds every position (a total). `scan_plan` finds the loops so masked at
the innermost map level's own code and returns the `Scan` its version is
lowered from (lower/scan.py: blocks fold their share of the positions,
then each block scans its share, starting from the earlier blocks'
totals; a suffix's positions walked from the end), or, for each loop it
leaves, `NoScan` and why. The test may be written either way round
(`i >= j0 + j`), with `<` or `<=`, in either branch (`if j0 + j > i then s
else s + t`), through `let`s of one name (`let p = j0 + j in`), and joined
by `&&` to a condition of the element alone (or nested inside it). A
loop that is no reduction because its values' updates read each other's
running values may still be a chain of scans, one level after another
(chains.py), along the positions up to each point's.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field, replace

from .. import target
from ..check import typed as T
from ..check.binders import free
from ..check.types import Binder
from ..tree import descendants
from .chains import chain_of
from .folds import Operator, described
from .level_loops import NotReduction, level_loops
from .records import Variance

SCANNED = (Operator.ADD, Operator.MUL, Operator.MIN, Operator.MAX)  # commutative, with an identity
# below this many positions the point's own fold is as fast as two kernels' launches: the other versions run
SCAN_MIN_LENGTH = 256
# from this many positions the scan runs without a race against the untiled kernel, whose n^2 / 2 steps then
# take 12.6x to 197x the scan's time (H200, three corpus programs; 0.73x to 1.0x at 256 and 512 positions,
# where the race keeps the untiled kernel: benchmarks/RESULTS.md)
SCAN_UNRACED = 16384
# many rows: each point's own walk is then rows x m^2 / 2 steps, and from this many rows of SHORT_ROW_LENGTH
# positions a block a row runs raced too, where a value is a total (no warp a row: below) (H200, 100,000 rows:
# 0.37 against the untiled kernel's 0.58 ms at 128 positions, 0.38 against 1.26 at 192, and 0.36 against 0.16
# at 64: experiments/verify/short_rows.py)
MANY_ROWS = 16384
SHORT_ROW_LENGTH = 128
SCAN_LANES = 256  # threads a block of the scan's kernels
WARP_SCAN_ROWS = 8  # rows a block of the scan's kernel of a warp a row (lower/scan.py)
# ... which runs for rows of at most WARP_SCAN_LONGEST positions where there are WARP_SCAN_MIN_ROWS and more, and
# for rows of any length from WARP_SCAN_MANY_ROWS. H200 (experiments/verify/warp_scan.py, three programs): faster
# than a block a row at every size timed, from 512 rows of 2,048 positions (1.4x) to 100,000 rows of 128 (7.7x:
# 0.047 against 0.37 ms), 2,048 rows of 16,384 (2.7x), 4,096 of 65,536 (4.0x) and 16,384 of 32,768 (4.5x), at
# copy bandwidth with many rows; faster than the untiled kernel from 32 positions at 2,048 rows
WARP_SCAN_LONGEST = 4096
WARP_SCAN_MIN_ROWS = 1024
WARP_SCAN_MANY_ROWS = 2048
# a scan down columns: a thread a column, so many columns a block, each column's positions shared among at
# most COLUMN_SCAN_BLOCKS blocks of COLUMN_SCAN_SHARE positions at least (lower/scan_columns.py)
COLUMN_SCAN_LANES = 128
COLUMN_SCAN_SHARE = 64
COLUMN_SCAN_BLOCKS = 256
SCAN_SHARE = 256  # positions a block has at least (a round of its lanes)
MAX_LETS = 16  # `let`s followed into the position's test, one through another
MAX_SIZE_MARGIN = 2**31 - 1 - target.MAX_SIZE  # a constant of the test: a position or point plus it stays an int


@dataclass(frozen=True)
class ScanLoop:
    """One loop of a scan: the terms it folds and how."""

    stream: T.Stream = field(repr=False, compare=False)
    loop: T.Loop = field(repr=False, compare=False)
    term: object = field(repr=False, compare=False)  # the loop's body with the position's test taken away
    operators: tuple[Operator, ...]  # one a carried value
    suffix: bool  # the positions from the point's own to the end (`j >= i`), not from the start
    exclusive: bool  # the point's own position left out (`j < i`, `j > i`)
    # each carried value: True where both branches update it alike, so that it folds every position (a total)
    whole: tuple[bool, ...]
    # each carried value's place in a chain: 0 where its terms read no carried value, else one more than the
    # greatest of those they read (scanned after them: `peak = max(peak, bal + x)` after `bal = bal + x`)
    levels: tuple[int, ...] = ()

    @property
    def span(self):
        return self.loop.span

    @property
    def depth(self) -> int:
        """The scans one after another that its chain needs (1: its values' terms read none of them)."""
        return max(self.levels, default=0) + 1

    def level(self, n: int) -> int:
        return self.levels[n] if self.levels else 0

    @property
    def totals(self) -> tuple[str, ...]:
        return tuple(p.name for p, w in zip(self.loop.params, self.whole) if w)


@dataclass(frozen=True)
class NoScan:
    """A loop whose updates the point's position masks, not scanned, and why."""

    loop: T.Loop = field(repr=False, compare=False)
    reason: str

    @property
    def span(self):
        return self.loop.span


@dataclass(frozen=True)
class Scan:
    """The innermost level's loops scanned, in the order its code meets them."""

    loops: tuple[ScanLoop, ...]
    length: str | int  # the positions: a size's name or a number (the innermost map level's size too)
    reason: str
    left: tuple[NoScan, ...] = ()  # its other loops masked by the position, each walked by every point, and why
    level: int = 0  # the map level whose points are the positions: the innermost, or the one outside it (columns)

    @property
    def span(self):
        return self.loops[0].span

    def columns(self, kernel: T.Kernel) -> bool:
        """Its positions are the level outside the innermost's: a scan down each column."""
        return self.level < len(kernel.levels) - 1

    @property
    def suffix(self) -> bool:
        """Its loops fold the positions from each point's own to the end (its kernels walk them backwards)."""
        return self.loops[0].suffix

    def of(self, loop: T.Loop) -> ScanLoop | None:
        return next((s for s in self.loops if T.point(s.loop) == T.point(loop)), None)


def scan_plan(kernel: T.Kernel, var: Variance) -> Scan | NoScan | None:
    """The innermost level's folds masked by the position of its own point
    (a scan along each row), else by the level outside it's (a scan down
    each column: the innermost level's points are the columns), as a scan,
    or why not; None where no loop of that level's code tests either."""
    last = len(kernel.levels) - 1
    found = _plan(kernel, var, last)
    if not isinstance(found, Scan) and last >= 1:
        columns = _plan(kernel, var, last - 1)
        found = columns if isinstance(columns, Scan) or found is None else found
    return found if found is not None else _outer(kernel)


def _outer(kernel: T.Kernel) -> NoScan | None:
    """A fold masked by an outer level's position in that level's own code
    (moved there because it reads nothing of the levels inside): not
    scanned, and why."""
    lets = _lets(kernel)
    for d in range(len(kernel.levels) - 1):
        position = _position(kernel.levels[d])
        reductions, others = level_loops(kernel, d) if position is not None else ([], [])
        for r in reductions + others:
            if _tests(r.loop, r.stream, position, lets):
                return NoScan(r.loop, f"it reads nothing of the map levels inside level {d}, so it runs once a "
                                      "row, in that level's own code, where a scan is not built")
    return None


def _plan(kernel: T.Kernel, var: Variance, d: int) -> Scan | NoScan | None:
    """The scan along map level `d`'s positions, or why not."""
    level = kernel.levels[d]
    position = _position(level)
    if position is None:
        return None
    reductions, others = level_loops(kernel, len(kernel.levels) - 1)
    lets = _lets(kernel)
    found = [_scan(kernel, var, r, position, lets, d) for r in reductions + others
             if _tests(r.loop, r.stream, position, lets)]
    found.sort(key=lambda s: (s.span.line, s.span.col))
    loops = [s for s in found if isinstance(s, ScanLoop)]
    if not loops:
        return found[0] if found else None
    first = loops[0]  # (one kernel walks the positions one way: from the start for prefixes, from the end else)
    found = [NoScan(s.loop, f"it folds the positions {_side(s)}, and the loop at {first.span.line}:"
                            f"{first.span.col} those {_side(first)}: one scan walks them one way") if
             isinstance(s, ScanLoop) and s.suffix != first.suffix else s for s in found]
    loops = tuple(s for s in found if isinstance(s, ScanLoop))
    ops = described(tuple(op for s in loops for op in s.operators))
    upto = " or ".join(dict.fromkeys(_side(s) for s in loops))
    totals = [t for s in loops for t in s.totals]
    down = " down each column (the innermost level's points)" if d < len(kernel.levels) - 1 else ""
    reason = f"each point folds the terms at the positions {upto} (by {ops}): one scan of the terms{down} " \
             "serves every point, instead of a walk of the whole stream at each" + \
             (f"; {', '.join(f'`{t}`' for t in totals)}, updated alike on both sides of the test, the total of every "
              "position" if totals else "") + "".join(_chained(s) for s in loops)
    size = level.size
    return Scan(loops, size if isinstance(size, int) else size.name, reason,
                tuple(s for s in found if isinstance(s, NoScan)), d)


def _chained(s: ScanLoop) -> str:
    """A chain's scans in words: which values come after which."""
    if s.depth == 1:
        return ""
    names = [p.name for p in s.loop.params]
    order = "; then ".join(", ".join(f"`{names[n]}`" for n in range(len(names)) if s.level(n) == k)
                           for k in range(s.depth))
    return f"; the terms of the loop at {s.span.line}:{s.span.col} read its values' running values: {s.depth} " \
           f"scans one after another ({order}), each position's terms computed from the scans before"


def _position(level):
    """A map level's point that is its position (a map over `iota`), or None."""
    return next((p for p, a in zip(level.params, level.args) if isinstance(a, T.Iota)), None)


def _side(s: ScanLoop) -> str:
    """Where a loop's positions lie from the point's own, in words."""
    return ("after its own" if s.exclusive else "from its own to the end") if s.suffix else \
        ("before its own" if s.exclusive else "up to its own")


def _tests(loop: T.Loop, stream: T.Stream | None, position, lets: dict) -> bool:
    """Whether the loop's body is an `if` whose test (or a side of its
    `&&`) compares the loop's index with the point's position."""
    body = _past_lets(loop.body)
    return isinstance(body, T.If) and any(_compares(t, loop, stream, position, lets) for t in _sides(body.cond))


def _sides(test) -> tuple:
    """A test's sides joined by `&&`, or the test alone."""
    return (test.lhs, test.rhs) if isinstance(test, T.BinOp) and test.op == "&&" else (test,)


def _compares(test, loop: T.Loop, stream: T.Stream | None, position, lets: dict) -> bool:
    """Whether `test` compares the loop's index with the point's position,
    each on its own side (`j <= i`, `j - i < 0`; not a window's `i + t - 3
    >= 0`)."""
    if not (isinstance(test, T.BinOp) and test.op in ("<", "<=", ">", ">=")):
        return False
    pair = frozenset({loop.index} | ({stream.offset} if stream is not None else set()))
    lhs, rhs = _linear(test.lhs, lets, pair), _linear(test.rhs, lets, pair)
    if lhs is None or rhs is None:
        return False
    index = lhs.get(loop.index, 0) - rhs.get(loop.index, 0)
    return bool(index) and index == rhs.get(position, 0) - lhs.get(position, 0)


def _scan(kernel: T.Kernel, var: Variance, r, position, lets: dict, d: int) -> ScanLoop | NoScan:
    """The loop `r` (a Reduction, or a NotReduction whose guarded update may
    be a chain) as a scan along level `d`, or why not."""
    loop, stream = r.loop, r.stream
    # (the body with the position's test taken away, or why it is no such test; a chain is read from it)
    masked = _masked(loop, stream, position, lets) if stream is not None else None
    operators, levels, fed = (), (), frozenset()
    if isinstance(r, NotReduction):
        chain = _chain(r, masked)
        if isinstance(chain, NoScan):
            return chain
        operators, levels, fed = chain
    if stream is None:
        return NoScan(loop, "it does not walk a whole array (a stream over it, or `for j < n` over n elements)")
    if len(kernel.levels) > 3 or (d < len(kernel.levels) - 1 and d > 1):
        return NoScan(loop, "the map levels around it are more than CUDA's grid has axes for")
    if not r.top:
        return NoScan(loop, "the point's code reaches it only under a branch or inside a loop")
    size = kernel.levels[d].size
    if stream.length is not size and not (isinstance(size, int) and size == stream.length):
        return NoScan(loop, "its stream's length is not the map level's size")
    operators = operators or r.operators
    if any(op not in SCANNED for op in operators):
        return NoScan(loop, f"a scan by {described(operators)} is not built (only +, *, min and max)")
    if isinstance(masked, str):
        return NoScan(loop, masked)
    term, suffix, exclusive, whole = masked
    refused = _refused_chain(levels, suffix, whole)
    if refused:
        return NoScan(loop, refused)
    reads = free(term) - {*loop.params, loop.index, stream.offset, stream.chunk, *stream.chunk_params}
    reads |= {b for a in stream.arrays for b in free(a)}
    varying = sorted(b.name for b in reads if d in var.of(b))
    if varying:
        return NoScan(loop, f"its term reads `{varying[0]}`, which varies with the point")
    # (a chain's terms read running values from their start values: those must be every point's)
    starts = set()
    for b in (b for n in fed for b in free(loop.inits[n])):
        starts |= free(stream.inits[stream.acc_params.index(b)]) if b in stream.acc_params else {b}
    varying = sorted(b.name for b in starts if d in var.of(b))
    if varying:
        return NoScan(loop, f"the start values of the running values its terms read vary with the point "
                            f"(`{varying[0]}`), so no one scan serves every point")
    return ScanLoop(stream, loop, term, operators, suffix, exclusive, whole, levels)


def _chain(r: NotReduction, masked) -> tuple | NoScan:
    """A loop that is no reduction as written, whose update under the
    position's test (`masked`: _masked's) is a chain of running values
    (chains.py): its operators, levels and the values others read, or why
    not."""
    if not isinstance(masked, tuple):
        return NoScan(r.loop, f"it is not a reduction: {r.reason}")
    chain = chain_of(r.loop, masked[0])
    if isinstance(chain, str):
        return NoScan(r.loop, f"it is not a reduction: {r.reason}; nor, its test taken away, a chain of running "
                              f"values: {chain}")
    return chain


def _refused_chain(levels: tuple, suffix: bool, whole: tuple) -> str:
    """Why a chain of these levels is not built, or "" (one of a single level is a plain scan)."""
    if max(levels, default=0) == 0:
        return ""
    if suffix:
        return "its values' terms read each other's running values from the point's own position on: those " \
               "depend on where each point starts, so no one scan serves them"
    if any(whole):
        return "a total beside running values whose terms read each other's is not built"
    return ""


def _masked(loop: T.Loop, stream: T.Stream, position, lets: dict) -> tuple | str:
    """The loop's body with the position's test taken away (its lets, then
    the guarded update, under the element's own condition where one is
    joined by `&&`), whether the terms folded are those after the point's
    position (a suffix) and whether they leave out its own, and which
    carried values the other branch updates alike (folding every position:
    a total); or why the body is not such a test."""
    body = _past_lets(loop.body)
    test, rest = body.cond, None
    if len(_sides(test)) == 2:  # one side the position's test, the other the element's
        sides = [s for s in _sides(test) if _compares(s, loop, stream, position, lets)]
        if len(sides) != 1:
            return "both sides of its `&&` test the point's position"
        test, rest = sides[0], test.rhs if sides[0] is test.lhs else test.lhs
    bound = _bound(test, stream, loop, position, lets)
    if bound is None:
        return "its test is not the stream's position against the point's (`j0 + j <= i`, `< i`, ...)"
    at_most, c = bound
    then_, else_ = _items(body.then, loop), _items(body.else_, loop)
    if then_ is None or else_ is None:
        return "its branches do not each give the carried values one by one"
    kept = {branch: tuple(_kept(v, p) for v, p in zip(items, loop.params)) for branch, items in (("then", then_),
                                                                                               ("else", else_))}
    alike = tuple(_alike(a, b) for a, b in zip(then_, else_))
    if all(k or a for k, a in zip(kept["else"], alike)):  # the `then` branch updates
        update, whole, suffix = body.then, tuple(a and not k for k, a in zip(kept["else"], alike)), not at_most
    elif all(k or a for k, a in zip(kept["then"], alike)) and rest is None:  # the `else` branch: the test negated
        # (not pos <= i + c: pos >= i + c + 1; not pos >= i + c: pos <= i + c - 1)
        update, whole, suffix = body.else_, tuple(a and not k for k, a in zip(kept["then"], alike)), at_most
        c = c + 1 if at_most else c - 1
    elif all(k or a for k, a in zip(kept["then"], alike)):
        return "it updates where its `&&` test fails, which leaves no run of positions"
    else:
        return "neither branch of its test keeps or updates alike each carried value"
    if all(whole):
        return "no carried value depends on its test"
    if (c if suffix else -c) not in (0, 1):
        return "its test leaves out more than the point's own position, which is not built" \
            if (c > 1 if suffix else c < -1) else \
            "its test reaches past the point's own position to the other side, which is not built"
    if c != 0 and any(whole):  # (the scan leaves out the term at the last position walked, a total's part too)
        return "a total beside a prefix that leaves out the point's own position is not built"
    if rest is not None:
        update = T.If(rest, update, body.else_, body.type, body.span)
    return _with_body(loop.body, update), suffix, c != 0, whole


def _items(e, loop: T.Loop) -> tuple | None:
    """A branch's value for each carried value, where it gives them one by
    one (after its lets; an `if` inside it gives, for each, the value
    itself where both its branches keep it, else an `if` of the two)."""
    e = _past_lets(e)
    if isinstance(e, T.If) and len(loop.params) > 1:
        then, else_ = _items(e.then, loop), _items(e.else_, loop)
        if then is None or else_ is None:
            return None
        return tuple(a if _kept(a, p) and _kept(b, p) else T.If(e.cond, a, b, p.type, e.span)
                     for a, b, p in zip(then, else_, loop.params))
    items = e.items if isinstance(e, T.TupleE) and len(loop.params) > 1 else (e,)
    return items if len(items) == len(loop.params) else None


def _kept(e, param) -> bool:
    return isinstance(e, T.Var) and e.binder is param


def _alike(a, b) -> bool:
    """The same expression, wherever each is written: node by node, binders by identity."""
    if type(a) is not type(b):
        return False
    if isinstance(a, tuple):
        return len(a) == len(b) and all(_alike(x, y) for x, y in zip(a, b))
    if dataclasses.is_dataclass(a) and not isinstance(a, Binder) and T.is_exp(a):
        return all(_alike(getattr(a, f.name), getattr(b, f.name)) for f in dataclasses.fields(a)
                   if f.name not in ("span", "point", "origin"))
    return a is b if isinstance(a, Binder) else a == b


def _bound(test, stream: T.Stream, loop: T.Loop, position, lets: dict) -> tuple[bool, int] | None:
    """`test` as pos <= i + c (True, c) or pos >= i + c (False, c), pos the
    stream's position (its offset plus the loop's index) and i the point's."""
    if not (isinstance(test, T.BinOp) and test.op in ("<", "<=", ">", ">=")):
        return None
    pair = frozenset({stream.offset, loop.index})
    lhs, rhs = _linear(test.lhs, lets, pair), _linear(test.rhs, lets, pair)
    if lhs is None or rhs is None or not all(_exact(side, {stream.offset, loop.index, position}) for side in (lhs, rhs)):
        return None
    if test.op in (">", ">="):
        lhs, rhs = rhs, lhs
    terms = dict(lhs)  # lhs - rhs <= limit
    for b, k in rhs.items():
        terms[b] = terms.get(b, 0) - k
    limit = 0 if test.op in ("<=", ">=") else -1
    a, a2 = terms.pop(stream.offset, 0), terms.pop(loop.index, 0)
    b, k = terms.pop(position, 0), terms.pop(None, 0)
    if a != a2 or any(terms.values()):
        return None
    if (a, b) == (1, -1):  # pos - i + k <= limit
        return True, limit - k
    if (a, b) == (-1, 1):  # i - pos + k <= limit: pos >= i + k - limit
        return False, k - limit
    return None


def _exact(side: dict, names: set) -> bool:
    """Whether one side of the test is computed exactly by the program's
    ints, as its linear form reads it: only the position and the point's,
    each once, and a constant too small to take a position past 2^31
    (sizes are at most target.MAX_SIZE)."""
    return all(b in names and k in (-1, 0, 1) for b, k in side.items() if b is not None) and \
        abs(side.get(None, 0)) < MAX_SIZE_MARGIN


def _linear(e, lets: dict, pair: frozenset, depth: int = 0) -> dict | None:
    """An int expression as {binder: coefficient, None: constant}, seeing
    through the `let`s of one name it reads (`let p = j0 + j in`); None
    where it is not linear (`pair`: the binders whose sum is the position,
    a stream's offset and its loop's index)."""
    if isinstance(e, T.Var) and e.binder in lets and depth < MAX_LETS:
        return _linear(lets[e.binder], lets, pair, depth + 1)
    if isinstance(e, T.Var):
        return {e.binder: 1}
    if isinstance(e, T.Lit) and isinstance(e.value, int) and not isinstance(e.value, bool):
        return {None: e.value}
    if isinstance(e, T.Builtin) and e.name in ("i32", "i64", "int") and len(e.args) == 1:
        # (exact where what it converts is: one name, a position or a point, plus a small constant)
        inner = _linear(e.args[0], lets, pair, depth)
        if inner is None:
            return None
        named = {b: k for b, k in inner.items() if b is not None and k}
        if len(named) == 2 and set(named) == pair and len(set(named.values())) == 1:
            named = dict([next(iter(named.items()))])  # (the stream's offset plus its loop's index: one position)
        return inner if len(named) <= 1 and _exact(inner, set(inner) - {None}) else None
    if isinstance(e, T.BinOp) and e.op in ("+", "-", "*"):
        lhs, rhs = _linear(e.lhs, lets, pair, depth), _linear(e.rhs, lets, pair, depth)
        if lhs is None or rhs is None:
            return None
        if e.op == "*":  # (a constant factor)
            factor, other = (lhs, rhs) if set(lhs) <= {None} else (rhs, lhs)
            return {b: k * factor.get(None, 0) for b, k in other.items()} if set(factor) <= {None} else None
        out = dict(lhs)
        for b, k in rhs.items():
            out[b] = out.get(b, 0) + (k if e.op == "+" else -k)
        return out
    return None


def _lets(kernel: T.Kernel) -> dict:
    """The value of each `let` of one name in the innermost level's code, by its binder."""
    out = {bs[0]: value for bs, value in kernel.levels[-1].lets if len(bs) == 1}
    for n in descendants(kernel.body, T.is_exp):
        if isinstance(n, T.Let) and len(n.binders) == 1:
            out[n.binders[0]] = n.value
    return out


def _past_lets(e):
    while isinstance(e, T.Let):
        e = e.body
    return e


def _with_body(e, update):
    """The lets of `e`, then `update` in place of what they end in."""
    return replace(e, body=_with_body(e.body, update)) if isinstance(e, T.Let) else update


