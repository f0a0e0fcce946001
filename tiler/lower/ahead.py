"""Reads a split's lanes load ahead of the step that folds them.

A lane of a split reduction walks its share of a row, one iteration in
`lanes`, folding each element into its share. nvcc issues a load no sooner
than the branch before it, and a step's arithmetic often branches: an IEEE
float division's slow path, a square root's. A lane then keeps one load in
flight and waits for each (c_col_welford_f32: LDG, MUFU.RCP, BRA, CALL an
element, 2 TB/s). So the lane loop takes AHEAD iterations at a time and
loads the reads of all of them first, each past the row's end replaced by a
zero it never folds, then folds them one by one: measured on an H200
(session 38), a column Welford 1.1x-1.4x faster. Only where the step does
such arithmetic (BRANCHING): a step without it has its loads issued ahead
already, and loading ahead made row sums, layer norms and column sums 5-16%
slower.

Only the reads every iteration makes (none under an `if`'s branch, the
right side of `&&` or `||`, or an inner loop or stream), of one element, at
an index of nothing the step binds but the loop's index, whose index binds
nothing itself (a helper called in it lowers to statements that an
iteration's bounds test would not guard): those the program itself reads at
every index of the row, so loading them early reads nothing it would not.
"""
from __future__ import annotations

from ..check import typed as T
from ..check.binders import bound, free
from ..check.types import Scalar, element_bytes
from ..tree import children, descendants

# Operations whose IEEE lowering branches to a slow path (a float division's, a square root's, a remainder's,
# the trigonometric functions' and pow's argument reductions)
BRANCHING = frozenset({"/", "%", "sqrt", "sin", "cos", "pow"})
BINDS = (T.Let, T.Loop, T.Stream)  # nodes that lower to statements (a helper's call in an index: its lets)
AHEAD = 4  # a lane's iterations whose reads it loads before folding them, at most
# ... and the bytes loaded ahead at most, of elements of 4 bytes at most: more stayed live across the math
# functions' calls and spilled (an f64 division's or exponential's; 1,024-thread blocks cap a thread at 64
# registers: c_row_welford_f64, b_newton_expsum_f64, b_gp_matern_f64, b_mri_q)
AHEAD_BYTES = 16


def iterations_ahead(reads: list) -> int:
    """The iterations a lane loads ahead (AHEAD, fewer where their reads, and the reads in their indices, pass
    AHEAD_BYTES; 0: one at a time)."""
    sizes = [element_bytes(n.type) for r in reads for n in descendants(r, T.is_exp) if isinstance(n, T.Index)]
    if not sizes or max(sizes) > 4:
        return 0
    n = min(AHEAD, AHEAD_BYTES // sum(sizes))
    return n if n >= 2 else 0


def branches(loop: T.Loop) -> bool:
    """Whether `loop`'s step does float arithmetic whose IEEE lowering branches (BRANCHING)."""
    def floats(e) -> bool:
        return getattr(getattr(e, "type", None), "kind", "").startswith(("f", "bf"))
    return any(isinstance(e, (T.BinOp, T.UnOp, T.Builtin)) and
               (e.op if isinstance(e, (T.BinOp, T.UnOp)) else e.name) in BRANCHING and floats(e)
               for e in descendants(loop.body, T.is_exp))


def read_ahead(loop: T.Loop) -> list:
    """The reads of `loop`'s step a lane may load ahead (outermost first: not one inside another): none where
    the step does not branch."""
    if not branches(loop):
        return []
    inside = bound(loop.body) | set(loop.params)
    out: list = []

    def walk(e) -> None:
        if isinstance(e, T.Index) and isinstance(e.type, Scalar) and e.type.kind != "bool" and \
                not free(e) & inside:
            if not any(isinstance(n, BINDS) for n in descendants(e, T.is_exp)):
                out.append(e)  # (an index that binds lowers to statements its iteration's bounds test would not guard)
        elif isinstance(e, (T.Loop, T.Stream)):
            return
        elif isinstance(e, T.If):
            walk(e.cond)
        elif isinstance(e, T.BinOp) and e.op in ("&&", "||"):
            walk(e.lhs)
        else:
            for c in children(e, T.is_exp):
                walk(c)
    walk(loop.body)
    return out
