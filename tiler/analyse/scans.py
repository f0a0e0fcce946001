"""A fold per point over the elements up to the point's own position: a scan.

The language has no scan, so a user writes a prefix sum as a map over
positions `i` whose body folds a stream over all n elements, keeping only
those at or before `i`:

    map(fn (int i) => streamSeq(fn (int j0, [int, c] xc, int s) =>
          loop (s) = for j < c do if j0 + j <= i then s + xc[j] else s in s, x, 0), iota(n))

Run as written, that is n^2 / 2 steps (every point walks the whole
stream). Where the guarded update is a reduction (folds.py: `+`, `*`,
`min`, `max`, one a carried value, conditions inside it allowed) whose
term reads nothing that varies with `i`, point i's value is the fold of
the terms at positions 0..i (`<= i`, inclusive) or 0..i-1 (`< i`,
exclusive) from the stream's initial values: one scan of the terms serves
every point. `scan_plan` finds such a loop at the innermost map level's
own code and returns the `Scan` the scan versions are lowered from
(lower/scan.py: blocks fold their share of the positions, then each block
scans its share, starting from the earlier blocks' totals), or `NoScan`
where a loop is masked by the point's position but cannot be scanned, and
why. The condition may be written either way round (`i >= j0 + j`), with
`<` or `<=`, in either branch (`if j0 + j > i then s else s + t`), and
joined by `&&` to a condition of the element alone.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field, replace

from ..check import typed as T
from ..check.types import Binder
from ..tree import descendants
from .folds import Operator, described
from .level_loops import level_loops
from .records import Variance

SCANNED = (Operator.ADD, Operator.MUL, Operator.MIN, Operator.MAX)  # commutative, with an identity
# below this many positions the point's own fold is as fast as two kernels' launches: the other versions run
SCAN_MIN_LENGTH = 256
SCAN_LANES = 256  # threads a block of the scan's kernels
SCAN_SHARE = 256  # positions a block has at least (a round of its lanes)


@dataclass(frozen=True)
class ScanLoop:
    """One loop of a scan: the terms it folds and how."""

    stream: T.Stream = field(repr=False, compare=False)
    loop: T.Loop = field(repr=False, compare=False)
    term: object = field(repr=False, compare=False)  # the loop's body with the position's test taken away
    operators: tuple[Operator, ...]  # one a carried value
    exclusive: bool  # `< i`: the positions before the point's own
    # each carried value: True where both branches update it alike, so that it folds every position (a total)
    whole: tuple[bool, ...]

    @property
    def span(self):
        return self.loop.span

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

    @property
    def span(self):
        return self.loops[0].span

    def of(self, loop: T.Loop) -> ScanLoop | None:
        return next((s for s in self.loops if T.point(s.loop) == T.point(loop)), None)


def scan_plan(kernel: T.Kernel, var: Variance) -> Scan | NoScan | None:
    """The innermost level's folds masked by its position, as a scan, or why
    not; None where no loop of that level's code tests the position."""
    d = len(kernel.levels) - 1
    level = kernel.levels[d]
    position = next((p for p, a in zip(level.params, level.args) if isinstance(a, T.Iota)), None)
    if position is None:
        return None
    reductions, others = level_loops(kernel, d)
    found = [_scan(kernel, var, r, position) for r in reductions if _tests(r.loop, position)]
    found += [NoScan(o.loop, f"it is not a reduction: {o.reason}") for o in others if _tests(o.loop, position)]
    found.sort(key=lambda s: (s.span.line, s.span.col))
    loops = tuple(s for s in found if isinstance(s, ScanLoop))
    if not loops:
        return found[0] if found else None
    ops = described(tuple(op for s in loops for op in s.operators))
    upto = " or ".join(dict.fromkeys("before" if s.exclusive else "up to" for s in loops))
    totals = [t for s in loops for t in s.totals]
    reason = f"each point folds the terms at the positions {upto} its own (by {ops}): one scan of the terms " \
             "serves every point, instead of a walk of the whole stream at each" + \
             (f"; {', '.join(f'`{t}`' for t in totals)}, updated alike on both sides of the test, the total of every "
              "position" if totals else "")
    size = level.size
    return Scan(loops, size if isinstance(size, int) else size.name, reason,
                tuple(s for s in found if isinstance(s, NoScan)))


def _tests(loop: T.Loop, position) -> bool:
    """Whether the loop's body is an `if` whose test reads the point's position."""
    body = _past_lets(loop.body)
    return isinstance(body, T.If) and position in _names(body.cond)


def _scan(kernel: T.Kernel, var: Variance, r, position) -> ScanLoop | NoScan:
    loop, stream, d = r.loop, r.stream, len(kernel.levels) - 1
    if stream is None:
        return NoScan(loop, "it does not walk a stream's chunk")
    if len(kernel.levels) > 3:
        return NoScan(loop, "the map levels around it are more than CUDA's grid has axes for")
    if not r.top:
        return NoScan(loop, "the point's code reaches it only under a branch or inside a loop")
    size = kernel.levels[d].size
    if stream.length is not size and not (isinstance(size, int) and size == stream.length):
        return NoScan(loop, "its stream's length is not the map level's size")
    if any(op not in SCANNED for op in r.operators):
        return NoScan(loop, f"a scan by {described(r.operators)} is not built (only +, *, min and max)")
    masked = _masked(loop, stream, position)
    if isinstance(masked, str):
        return NoScan(loop, masked)
    term, exclusive, whole = masked
    reads = _free(term) - {*loop.params, loop.index, stream.offset, stream.chunk, *stream.chunk_params}
    reads |= {b for a in stream.arrays for b in _free(a)}
    varying = sorted(b.name for b in reads if d in var.of(b))
    if varying:
        return NoScan(loop, f"its term reads `{varying[0]}`, which varies with the point")
    return ScanLoop(stream, loop, term, r.operators, exclusive, whole)


def _masked(loop: T.Loop, stream: T.Stream, position) -> tuple[object, bool, tuple[bool, ...]] | str:
    """The loop's body with the position's test taken away (its lets, then
    the guarded update, under the element's own condition where one is
    joined by `&&`), whether the test leaves out the point's own position,
    and which carried values the other branch updates alike (folding every
    position: a total); or why the body is not such a test."""
    body = _past_lets(loop.body)
    test, rest = body.cond, None
    if isinstance(test, T.BinOp) and test.op == "&&":  # one side the position's test, the other the element's
        sides = [s for s in (test.lhs, test.rhs) if position in _names(s)]
        if len(sides) != 1:
            return "both sides of its `&&` test the point's position"
        test, rest = sides[0], test.rhs if sides[0] is test.lhs else test.lhs
    bound = _bound(test, stream, loop, position)
    if bound is None:
        return "its test is not the stream's position against the point's (`j0 + j <= i`, `< i`, ...)"
    at_most, c = bound
    then_, else_ = _items(body.then, loop), _items(body.else_, loop)
    if then_ is None or else_ is None:
        return "its branches do not each give the carried values one by one"
    kept = {branch: tuple(_kept(v, p) for v, p in zip(items, loop.params)) for branch, items in (("then", then_),
                                                                                               ("else", else_))}
    alike = tuple(_alike(a, b) for a, b in zip(then_, else_))
    masked_then = all(k or a for k, a in zip(kept["else"], alike))  # `if pos <= i + c then update else keep`
    masked_else = all(k or a for k, a in zip(kept["then"], alike))  # `if pos >= i + c then keep else update`
    if at_most and masked_then:
        update, whole = body.then, tuple(a and not k for k, a in zip(kept["else"], alike))
    elif not at_most and masked_else and rest is None:  # pos <= i + c - 1
        update, whole, c = body.else_, tuple(a and not k for k, a in zip(kept["then"], alike)), c - 1
    elif (at_most and masked_else) or (not at_most and masked_then):
        return "it folds the positions after the point's (a suffix), which is not built"
    else:
        return "neither branch of its test keeps or updates alike each carried value"
    if all(whole):
        return "no carried value depends on its test"
    if c not in (0, -1):
        return "its test reaches past the positions up to the point's own (`j0 + j <= i + 1`), which is not built" \
            if c > 0 else "its test leaves out more than the point's own position, which is not built"
    if rest is not None:
        update = T.If(rest, update, body.else_, body.type, body.span)
    return _with_body(loop.body, update), c == -1, whole


def _items(e, loop: T.Loop) -> tuple | None:
    """A branch's value for each carried value, where it gives them one by one."""
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


def _bound(test, stream: T.Stream, loop: T.Loop, position) -> tuple[bool, int] | None:
    """`test` as pos <= i + c (True, c) or pos >= i + c (False, c), pos the
    stream's position (its offset plus the loop's index) and i the point's."""
    if not (isinstance(test, T.BinOp) and test.op in ("<", "<=", ">", ">=")):
        return None
    lhs, rhs = _linear(test.lhs), _linear(test.rhs)
    if lhs is None or rhs is None:
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


def _linear(e) -> dict | None:
    """An int expression as {binder: coefficient, None: constant}, or None where it is not linear."""
    if isinstance(e, T.Var):
        return {e.binder: 1}
    if isinstance(e, T.Lit) and isinstance(e.value, int) and not isinstance(e.value, bool):
        return {None: e.value}
    if isinstance(e, T.Builtin) and e.name in ("i32", "i64", "int") and len(e.args) == 1:
        return _linear(e.args[0])  # (a position and a point index are never negative, nor past 2^31)
    if isinstance(e, T.BinOp) and e.op in ("+", "-"):
        lhs, rhs = _linear(e.lhs), _linear(e.rhs)
        if lhs is None or rhs is None:
            return None
        out = dict(lhs)
        for b, k in rhs.items():
            out[b] = out.get(b, 0) + (k if e.op == "+" else -k)
        return out
    if isinstance(e, T.BinOp) and e.op == "*":
        lhs, rhs = _linear(e.lhs), _linear(e.rhs)
        for factor, other in ((lhs, rhs), (rhs, lhs)):
            if factor is not None and other is not None and set(factor) == {None}:
                return {b: k * factor[None] for b, k in other.items()}
    return None


def _past_lets(e):
    while isinstance(e, T.Let):
        e = e.body
    return e


def _with_body(e, update):
    """The lets of `e`, then `update` in place of what they end in."""
    return replace(e, body=_with_body(e.body, update)) if isinstance(e, T.Let) else update


def _names(e) -> set:
    return {n.binder for n in descendants(e, T.is_exp) if isinstance(n, T.Var)}


def _free(e) -> set:
    """The binders `e` reads that it does not bind itself."""
    bound = set()
    for n in descendants(e, T.is_exp):
        if isinstance(n, T.Let):
            bound.update(n.binders)
        elif isinstance(n, T.Loop):
            bound.update((*n.params, n.index, *n.results))
        elif isinstance(n, T.Stream):
            bound.update((n.offset, n.chunk, *n.chunk_params, *n.acc_params))
    return _names(e) - bound
