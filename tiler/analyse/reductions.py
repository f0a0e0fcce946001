"""Reductions, and the lets between map levels computed once a row.

A `loop` (a stream's loop over its chunk, or a plain one) whose every
carried value is combined with one associative, commutative operator
(`acc + t`, `acc * t`, `min(acc, t)`, `max(acc, t)`, where `t` reads no
carried value) is a reduction (folds.py recognises one): its iterations
can be shared among threads, each folding every T-th one from the
operator's identity, and the partial results combined
(`init op (p0 op p1 op ...)`). With `+` and `*` on floats the rounding
order changes.

`split_plan(kernel, options)` finds the deepest map level whose lets (or,
for the innermost level, whose body) hold such a reduction: every level
down to it is a *row*, run by a warp or a block of threads (its lanes)
that split the row's reductions and compute the rest of the row's code
together; the levels inside it become a loop of each lane over every
T-th inner point. A softmax's maximum and sum are then computed once a row
instead of once a point, and a long row's sum by many threads instead of
one. Which lane count runs is chosen at launch by the number of rows
(`Split.choices`); every split version is also timed against the untiled
kernel at a first launch.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from .. import target
from ..check import typed as T
from ..check.types import I32, element_bytes
from ..tree import descendants
from .columns import side_by_side
from .context import Context
from .cost import price
from .folds import Operator, label

# the redundant aliases re-export what lower/split.py and the tests import from here
from .folds import Pick as Pick
from .folds import extreme as extreme
from .folds import identity as identity
from .folds import pick_of as pick_of
from .level_loops import NotReduction as NotReduction
from .level_loops import Reduction, level_loops
from .level_loops import too_few as too_few
from .own_reads import OWN_FEW_POINTS_AN_SM, OWN_LONG_ROW, own_streams
from .records import Variance, dims_text
from .row_tests import Test as Test
from .row_tests import implies

PICKS = (Operator.ARGMIN, Operator.ARGMAX)
# Lanes a row, chosen at launch from the rows and their length (H200, benchmarks/RESULTS.md): a warp a row
# for short rows, when there are enough of them to give every SM WARP_ROWS_AN_SM; a block of 1024 for very
# long rows or too few rows to give every SM FEW_ROWS_AN_SM; else a block of 256. A warp a row re-reads a
# long row (a softmax's three passes) from DRAM, as its many rows in flight overflow the caches.
WARP, BLOCK, WIDE_BLOCK = 32, 256, 1024
SHORT_ROW = 2048  # elements: up to this a warp a row
LONG_ROW = 65536  # elements: from this a block of 1024 a row
WARP_ROWS_AN_SM = 32
FEW_ROWS_AN_SM = 4
ROWS_A_WARP_BLOCK = 8  # rows a block of 32-lane rows holds (a block of 256 threads)
# a row's reduction with nothing computed per inner point is split only from this length on: shorter,
# one thread a row (the tiled kernel) is faster (rows of 64 elements: 0.031 ms against 0.048 a warp a row)
MIN_SPLIT_LENGTH = 256
# ... but where a split for few points streams each point's own rows (a sparse row's column indices and values,
# a neighbour list) one thread a point reads them a row apart, uncoalesced, and the tiled kernel's block must
# hold its threads' rows: a warp a row reads each row in one run. H200 (benchmarks/RESULTS.md, session 36): an
# ELL mat-vec at 4,000,000 rows of 27, 0.86 ms against 1.71 (the untiled kernel, faster than the tiled one);
# 1,000,000 rows of 16, 0.157 against 0.81; neighbour lists of 64-128, 1.2x-2.3x; shorter rows than that
# untried. It runs from this length on where the split's own versions do not (more points), raced against the
# version that would run otherwise (the tiled kernel's faster for 100,000 batches of a 64 x 64 bilinear form:
# the race keeps it).
OWN_WARP_ROW = 16
# Several blocks a row (a kernel a split reduction, then one for the rest of the row): each block of BLOCK
# lanes folds BLOCK_SHARE iterations (so the blocks a row follow from the row's length alone, and a result's
# rounding does not depend on the GPU), where the rows are fewer than the SMs and long enough to pay for a
# second launch: SEVERAL_BLOCKS_ROW where the row only reduces, SEVERAL_BLOCKS_PASSES where its points are
# computed after its reductions (a block a row makes a pass over the row each). H200, benchmarks/RESULTS.md:
# 8 rows of 2^20, a sum 0.020 ms against 0.043 a block a row; a softmax of 8 rows of 2^18 0.037 against 0.092;
# shorter, or rows as many as the SMs, a block a row is as fast or faster.
BLOCK_SHARE = 8192
# at most this many blocks a row (longer rows give each block a larger share): every block of a later kernel
# combines all the blocks' partial results, so their number must stay small beside a block's share
MAX_BLOCKS_A_ROW = 2048
SEVERAL_BLOCKS_ROW = 1 << 20
SEVERAL_BLOCKS_PASSES = 1 << 18
SEVERAL_ROWS_AN_SM = 1
# each of those kernels repeats the row's code up to its reduction, so the module grows with the square of a
# row's split reductions (256 in a row: 258 kernels, 40 s to compile); past this many, a block a row (the
# benchmarks and the corpus split at most 2)
MAX_SEVERAL_REDUCTIONS = 8
# Rows side by side (a column sum: a map over columns, a loop down the rows, each step's reads consecutive in
# memory from one row to the next): a block holds COLUMN_ROWS rows along its warps' lanes, each row's
# COLUMN_LANES lanes down threadIdx.y, so a warp's reads are one run. Several blocks a row, each folding
# COLUMN_SHARE iterations, where the rows give fewer than FEW_COLUMN_ROWS_AN_SM an SM (fewer blocks than SMs)
# and are at least two shares long. H200 (benchmarks/RESULTS.md): 8192 x 8192 column sums 0.078 ms with 32
# lanes a row against 0.086 with 8 and several blocks each; 2000 x 3000, 0.021 against 0.036.
COLUMN_ROWS = 32
COLUMN_LANES = 32
COLUMN_SHARE = 2048
FEW_COLUMN_ROWS_AN_SM = 32
# A reduction at the innermost level reading inputs other points read too (a product's, a mat-vec's shared
# vector) is split only where the points are fewer than this an SM: one thread a point (the tiled kernel,
# which shares those inputs) would leave most of the GPU idle. A first launch races such a version against
# the one that runs for more points (kir.Module.fallback). H200, benchmarks/RESULTS.md: from 32 to 64, the 13
# corpus pairs between them 1.0x to 7.8x faster (a weighted row sum at 8192 rows 0.60 -> 0.18 ms), none slower
# (b_gp_matern_f64 at 8,000 points, 1.8x slower split, keeps its tiled kernel by the race).
FEW_POINTS_AN_SM = 64
# ... and below HEAVY_FEW_POINTS_AN_SM where one iteration of the reduction costs HEAVY_BODY f32 adds or more
# (cost.price: an f64 exp is 40): such a body is the work, and one thread a point leaves an SM's issue slots
# idle well past 64 points (b_mc_option_f64: an f64 exp a path, 16,384 options, 124 an SM; the race at the
# first launch still keeps the tiled kernel where it is faster). 20, not 32 (H200, benchmarks/RESULTS.md): the
# corpus's bodies priced 22 to 29 (n-bodies with a square root and a division or an rsqrt, a softened Coulomb
# sum) ran 1.55x-6.1x faster split at 124 to 182 points an SM, and none of their other sizes moved. 15, not
# 20 (session 38): a 3-D Coulomb lattice's rsqrt body (15) at 124 points an SM 4.1x faster (0.263 -> 0.064 ms),
# a 1-D KDE's exp (16) 1.2x, a nested quadrature's 1.27x at its large size; nothing else moved.
HEAVY_FEW_POINTS_AN_SM = 256
HEAVY_BODY = 15
# Split-K (lower/split_k.py): where a split for few points is a product's (the inputs of its one reduction
# are staged by the tiled kernel for other points too), a version whose tiled kernel's blocks along z share
# each output tile's reduction, one each K_SHARE iterations at least (at most MAX_BLOCKS_A_ROW a tile), from
# K_MIN_LENGTH iterations on; a kernel of the split then combines a row's partial results. A first launch
# races it against the split it would otherwise be, then as the other versions for few points. H200
# (benchmarks/RESULTS.md): X^T Y of 64 x 64 outputs and 32768 rows 0.110 -> 0.058 ms at 256; at 128 as fast
# there and faster for 90 x 90 outputs and 8192 rows (0.054 -> 0.041); 32 x 32 outputs (a 128 x 128 tile
# mostly idle) run the split by the race.
K_SHARE = 128
K_MIN_LENGTH = 4096  # (the shortest reduction timed: 8192)
# ... and for more points, where the plan's tiled kernel's grid would not give 1 in GRID_SHARE SMs a block
# (so that its one-point version would run: 200 x 150 outputs are 4 tiles of 128 x 128), from K_FEW_TILES_LENGTH
# iterations on (8 blocks a tile). H200 (benchmarks/RESULTS.md), the corpus's products with so few tiles:
# 1.16x-4.1x faster at 1,500 to 8,000 iterations; an integer product at 1,200 lost its race (0.63x-0.99x);
# at 256 to 1,000 iterations, or 64 tiles and more, 0.07x-0.88x the version it raced (its last kernel, one row
# an output, then costs more than the blocks along z gain). The race at a first launch keeps the faster.
K_FEW_TILES_LENGTH = 8 * K_SHARE
# ... and rows x their length at most K_MOST_WORK there: the partial results (rows x blocks a row, a block each
# K_SHARE iterations) then number no more than few points' can (64 an SM of 132 x MAX_BLOCKS_A_ROW)
K_MOST_WORK = 2 ** 31
K_OPERATORS = (Operator.ADD, Operator.MUL, Operator.MIN, Operator.MAX)
NO_ARRAY = "it reads no array"
STEERED = "an option chooses the tiled kernel's schedule, and that kernel runs (--lanes N or --several-blocks " \
          "splits as well)"


def share_of(columns: bool) -> int:
    """The iterations each of several blocks a row folds (rows side by side: COLUMN_SHARE)."""
    return COLUMN_SHARE if columns else BLOCK_SHARE


@dataclass(frozen=True)
class LaneChoice:
    lanes: int  # threads a block shares a row among
    when: tuple[tuple[Test, ...], ...]  # any of these, each all of its tests; empty: otherwise
    several: bool = False  # several blocks a row, one each BLOCK_SHARE iterations (a kernel each reduction)
    columns: bool = False  # rows side by side: COLUMN_ROWS a block along x, each row's lanes along y

    @property
    def share(self) -> int:
        return share_of(self.columns)

    @property
    def who(self) -> str:
        if self.columns:
            return f"blocks of {COLUMN_ROWS} rows side by side, {self.lanes} threads" + (
                f" and several blocks (one each {self.share:,} iterations, at most {MAX_BLOCKS_A_ROW:,})"
                if self.several else "")
        if self.several:
            return f"several blocks of {self.lanes} threads (one each {BLOCK_SHARE:,} iterations, at most " \
                   f"{MAX_BLOCKS_A_ROW:,})"
        return "a warp" if self.lanes == WARP else f"a block of {self.lanes} threads"


@dataclass(frozen=True)
class Split:
    rows: int  # map levels 0 .. rows-1 are rows: a warp or a block each (0: no split)
    reductions: tuple[Reduction, ...]
    others: tuple[NotReduction, ...]  # loops at a row's level that are not reductions
    reason: str
    inner: bool = False  # map levels lie inside the rows: their points would recompute the row's lets
    given: int | None = None  # --lanes: the one lane count
    forced: bool = False  # --several-blocks: several blocks a row wherever that can run
    limits: tuple[Test, ...] = ()  # an outer row level walks grid y or z, one block a row: at most 65,535
    # the same with several blocks a row, the row levels on grid y and z (None: a literal size is past them)
    several_limits: tuple[Test, ...] | None = ()
    columns: bool = False  # rows side by side (COLUMN_ROWS a block): their reads run from one row to the next
    few: bool = False  # the split reads inputs other points read too: it runs only for fewer than few_rows an SM
    few_rows: int = FEW_POINTS_AN_SM  # (HEAVY_FEW_POINTS_AN_SM for a heavy body)
    # a split for few points whose reductions stream the point's own elements (own_reads): it also runs for
    # fewer than this many points an SM where the rows are OWN_LONG_ROW long (0: only below few_rows)
    own_rows: int = 0
    # a split for few points whose reductions stream the point's own rows: a warp a row also runs for more
    # points where the rows are OWN_WARP_ROW long or more, raced at a first launch against the plan's own version
    # (versions/split.py; not in a fissioned program's parts)
    own_warp: bool = False

    @property
    def own_warp_tests(self) -> tuple[Test, ...]:
        """Where the own rows' warp version may run: rows of OWN_WARP_ROW or more, within the grid's limits."""
        return (Test("length", ">=", OWN_WARP_ROW),) + self.limits

    @property
    def heavy(self) -> bool:
        """A split for few points whose reductions' step is heavy (HEAVY_BODY): it runs for more points an SM."""
        return self.few and self.few_rows == HEAVY_FEW_POINTS_AN_SM

    @property
    def active(self) -> bool:
        """Some reduction is split: the launch's first versions run rows by warps or blocks."""
        return self.rows > 0

    @property
    def length(self) -> str | int | None:
        """The split reductions' common length, where they share one that is known."""
        lengths = {r.length for r in self.reductions if r.split}
        return lengths.pop() if len(lengths) == 1 and None not in lengths else None

    @property
    def choices(self) -> tuple[LaneChoice, ...]:
        """The lanes a row, in the order the launch tests them (`given`: --lanes)."""
        return self._own_long(self._column_choices() if self.columns else self._row_choices())

    def _row_choices(self) -> tuple[LaneChoice, ...]:
        lanes = self.given or BLOCK
        if self.forced and self.several:  # past the grid's limits (or rows of no length), a block a row
            return (LaneChoice(lanes, ((Test("length", ">=", 1),) + self.several_limits,), True),
                    LaneChoice(lanes, ()))
        if self.forced:
            return (LaneChoice(lanes, ()),)
        if self.given:
            return (LaneChoice(self.given, ()),)
        known = self.length is not None
        warp = (Test("length", "<=", SHORT_ROW), Test("rows", ">=", WARP_ROWS_AN_SM, True)) if known \
            else (Test("rows", ">=", 2 * WARP_ROWS_AN_SM, True),)
        few = (Test("rows", "<", FEW_ROWS_AN_SM, True),)
        wide = ((Test("length", ">=", LONG_ROW),), few) if known else (few,)
        long = SEVERAL_BLOCKS_PASSES if self.inner else SEVERAL_BLOCKS_ROW
        several = (LaneChoice(BLOCK, ((Test("rows", "<", SEVERAL_ROWS_AN_SM, True), Test("length", ">=", long))
                                      + self.several_limits,), True),) if self.several else ()
        warps = () if self.few else (LaneChoice(WARP, (warp,)),)  # (a warp a row wants rows the few never have)
        return warps + several + (LaneChoice(WIDE_BLOCK, wide), LaneChoice(BLOCK, ()))

    def _own_long(self, choices: tuple[LaneChoice, ...]) -> tuple[LaneChoice, ...]:
        """Where the gate lets own streams' rows run for more points
        (`own_rows`), each choice also asks that the rows be few or long
        (lanes given by --lanes, or forced several blocks, alike)."""
        if not self.own_rows:
            return choices
        either = (Test("rows", "<", self.few_rows, True), Test("length", ">=", OWN_LONG_ROW))
        return tuple(replace(c, when=tuple(w for alt in (c.when or ((),)) for w in (
            (alt,) if any(implies(alt, e) for e in either) else tuple(alt + (e,) for e in either)))) for c in choices)

    def _column_choices(self) -> tuple[LaneChoice, ...]:
        """Rows side by side: several blocks a row where the rows are too few
        to keep the GPU busy and long enough, else a block each COLUMN_ROWS
        rows."""
        lanes = self.given or COLUMN_LANES
        one = LaneChoice(lanes, (), columns=True)
        if not self.several or self.given and not self.forced:
            return (one,)
        when = (Test("length", ">=", 1),) if self.forced else \
            (Test("rows", "<", FEW_COLUMN_ROWS_AN_SM, True), Test("length", ">=", 2 * COLUMN_SHARE))
        return LaneChoice(lanes, (when + self.several_limits,), True, True), one

    @property
    def several(self) -> bool:
        """Several blocks can share a row: the split reductions have one known
        length and each is reached by the row's code outside any branch or
        loop body (a kernel can end after it), they are at most
        MAX_SEVERAL_REDUCTIONS, and the blocks of a row fit grid x, with the
        rows on y and z."""
        split = [r for r in self.reductions if r.split]
        return self.length is not None and all(r.top for r in split) and len(split) <= MAX_SEVERAL_REDUCTIONS \
            and self.several_limits is not None

    @property
    def min_length(self) -> Test | None:
        """Rows from MIN_SPLIT_LENGTH on, where a row's reduction is all it
        computes and its length is known at launch; else None."""
        return Test("length", ">=", MIN_SPLIT_LENGTH) if not self.inner and self.length is not None else None

    @property
    def gate(self) -> tuple[Test, ...]:
        """What the launch tests before it runs any split version (else the
        tiled kernel's versions): the rows' length (`min_length`), their
        count (`few`) and the grid's limits. Empty where every launch splits."""
        return self.gate_below(self.own_rows or self.few_rows)

    def gate_below(self, rows: int) -> tuple[Test, ...]:
        """The gate, a split for few points running below `rows` an SM."""
        few = (Test("rows", "<", rows, True),) if self.few else ()
        return ((self.min_length,) if self.min_length else ()) + few + self.limits

    def tests_of(self, choice: LaneChoice) -> tuple[tuple[Test, ...], ...] | None:
        """A lane choice's alternatives of tests without those the gate makes
        already (as a split for few points and its several blocks both test
        the rows); None where one alternative is left empty (it always
        holds)."""
        alts = tuple(tuple(t for t in alt if t not in self.gate) for alt in choice.when)
        return None if not alts or not all(alts) else alts

    @property
    def gated(self) -> bool:
        """Some launches run the tiled kernel's versions instead."""
        return bool(self.gate)


def split_plan(kernel: T.Kernel, var: Variance, ctx: Context, schedule=None) -> Split | None:
    """The rows and the reductions they split (`rows` 0: none is, and
    `reason` says why), or None where splitting is off. A reduction at the
    innermost level whose inputs other points read too (a product's, an
    n-body's) is left to the tiled kernel, which stages them for those
    points, except for few points (`Split.few`: fewer than FEW_POINTS_AN_SM
    an SM, HEAVY_FEW_POINTS_AN_SM for a heavy body, where one thread a point
    would leave the GPU idle): the split versions run for those launches,
    the tiled kernel's for the others."""
    if ctx.options.no_split or not kernel.levels:
        return None
    found = [level_loops(kernel, lv.dim) if var.may_hold(T.Loop) else ([], []) for lv in kernel.levels]
    others = tuple(o for _, outs in found for o in outs)
    chosen = ctx.options.lanes is not None or ctx.options.several_blocks  # the threads a row are the user's
    if not chosen and ctx.options.steers_schedule():
        return _unsplit([r for reds, _ in found for r in reds], others, STEERED)
    last = len(kernel.levels) - 1
    own = {T.point(r.loop): _shared(r.loop, var, frozenset(range(last + 1))) for r in found[last][0] if r.split}
    kept = list(found)
    found[last] = ([replace(r, split=False, reason=own[T.point(r.loop)]) if own.get(T.point(r.loop)) else r
                    for r in found[last][0]], found[last][1])
    split = _rows(kernel, var, ctx, schedule, found, others, chosen)
    if split.active or not any(why and why != NO_ARRAY for why in own.values()):
        return split
    # the inputs other points read too, shared by the tiled kernel's block: but where the points are too few to
    # fill the GPU one a thread, the split versions run instead
    rows = HEAVY_FEW_POINTS_AN_SM if _heavy([r for r in kept[last][0] if T.point(r.loop) in own]) \
        else FEW_POINTS_AN_SM
    few = _rows(kernel, var, ctx, schedule, kept, others, chosen, few=rows)
    streams_own = few.active and few.length is not None and \
        own_streams(kernel, var, [r.loop for r in few.reductions if r.split])
    own_rows = OWN_FEW_POINTS_AN_SM if streams_own and OWN_FEW_POINTS_AN_SM > rows else 0
    points = _known_points(kernel, ctx)
    if points is not None and points >= max(rows, own_rows) * ctx.device.multiprocessors:
        return split  # sizes given when compiling: never few
    if own_rows:
        few = replace(few, own_rows=own_rows, reason=few.reason + f"; also where the points are fewer than {own_rows} "
                      f"an SM and the rows {OWN_LONG_ROW:,} long or more: each step reads an element no other "
                      "point reads, so one thread a point keeps too few bytes in flight")
    # (not where lanes are given, nor for columns side by side, which have their own lanes a column; a version
    # only the race at a first launch can judge: not without launch timing)
    if streams_own and not chosen and not few.columns and ctx.options.launch_timing:
        few = replace(few, own_warp=True)
    return few if few.active else split


def _heavy(reductions) -> bool:
    """An iteration of these reductions costs HEAVY_BODY f32 adds or more."""
    return sum(price(e) for r in reductions for e in descendants(r.loop.body, T.is_exp)
               if isinstance(e, (T.BinOp, T.UnOp, T.Builtin))) >= HEAVY_BODY


def _shares_bytes(reductions: list, ctx: Context) -> int:
    """The shared memory rows side by side take for their shares: a
    COLUMN_ROWS x lanes array for each carried value (a pick's iteration
    too) of each reduction."""
    lanes = ctx.options.lanes or COLUMN_LANES
    values = [element_bytes(p.type) for r in reductions for p in r.loop.params] + \
        [element_bytes(I32) for r in reductions if r.operators[0] in PICKS]
    return sum(values) * lanes * COLUMN_ROWS


def _known_points(kernel: T.Kernel, ctx: Context) -> int | None:
    """The kernel's points, where every map level's size is known when compiling."""
    points = 1
    for lv in kernel.levels:
        size = ctx.options.known_size(lv.size)
        if size is None:
            return None
        points *= size
    return points


def _rows(kernel: T.Kernel, var: Variance, ctx: Context, schedule, found: list, others: tuple, chosen: bool,
          few: int = 0) -> Split:
    """The split of the reductions `found` marks split (each level's
    reductions and loops that are not); `few`: the split versions run only
    where the points are fewer than `few` an SM (0: every launch)."""
    last = len(kernel.levels) - 1
    deepest = max((d for d, (reds, _) in enumerate(found) if any(r.split for r in reds)), default=None)
    grid = _grid_limits(kernel, deepest, 0) if deepest is not None else None
    wide = grid[0] if grid else []
    if grid is None or wide:
        everything = tuple(r for reds, _ in found for r in reds)
        reason = "no loop of the kernel is a reduction" if not everything else \
            "no reduction is worth sharing among threads" if deepest is None else \
            f"the rows would need {deepest + 1} grid axes; CUDA has {len(target.AXES)}" if not wide else \
            f"the rows would need {wide[0][0].size:,} blocks along grid {wide[0][1]}; CUDA allows " \
            f"{target.MAX_GRID[wide[0][1]]:,}"
        return _unsplit(everything, others, reason)
    inside = "it lies inside the row, in a map whose points the row's threads share"
    reductions = tuple(r if r.level <= deepest else replace(r, split=False, reason=inside)
                       for reds, _ in found for r in reds)
    inner = last - deepest
    ops = sorted({label(op) for r in reductions if r.split for op in r.operators})
    reason = f"a row's reductions ({', '.join(ops)}) are shared by the threads of a warp or block"
    if few:
        heavy = f", each step costing {HEAVY_BODY} f32 adds or more" if few != FEW_POINTS_AN_SM else ""
        reason += f" where the points are fewer than {few} an SM (one a thread would leave the GPU idle{heavy}); " \
                  "more points run the tiled kernel, which shares the inputs other points read too"
    if inner:
        reason += "; the lets between map levels run once a row, and its threads share the " + \
                  ("inner level's points" if inner == 1 else f"{inner} inner levels' points")
    blocks = _grid_limits(kernel, deepest, 1)  # several blocks a row: the blocks on x, the rows on y and z
    split = Split(deepest + 1, reductions, others, reason, bool(inner), ctx.options.lanes, ctx.options.several_blocks,
                  grid[1], None if blocks is None or blocks[0] else blocks[1], few=bool(few),
                  few_rows=few or FEW_POINTS_AN_SM)
    if ctx.options.several_blocks and not split.several:
        split = replace(split, reason=split.reason + "; --several-blocks: " + _why_one_block(split))
    split_loops = [r for r in reductions if r.split]
    # rows side by side meet at barriers: every split reduction reached alike by the block's 32 rows (not in a
    # branch one row takes), and their shares within the static shared memory a block has
    if not inner and (ctx.options.lanes or 0) * COLUMN_ROWS <= target.MAX_THREADS_PER_BLOCK \
            and all(r.top for r in split_loops) and _shares_bytes(split_loops, ctx) <= target.STATIC_SHARED_LIMIT \
            and side_by_side(kernel, var, {T.point(r.loop) for r in split_loops}):
        split = replace(split, columns=True, reason=split.reason + f"; each step's reads lie next to the next row's, "
                        f"so a block holds {COLUMN_ROWS} rows side by side, their threads down the block")
    staged = _staged_elsewhere(split, schedule) if inner and not chosen else ""
    if staged:
        return _unsplit([r for reds, _ in found for r in reds], others, staged, deepest)
    length = dict(ctx.options.sizes).get(split.length) if isinstance(split.length, str) else split.length
    if split.min_length and length is not None and length < MIN_SPLIT_LENGTH:  # known when compiling (--size)
        return _unsplit(reductions, others, f"its {length} iterations are too few to share among threads")
    return split


def _grid_limits(kernel: T.Kernel, deepest: int, shift: int) -> tuple[list, tuple[Test, ...]] | None:
    """The row levels 0 .. deepest on the grid, the deepest along axis
    `shift` (x; y with several blocks a row) and each outer one on the next:
    the levels of a literal size past their axis's limit, with that axis,
    and a launch test for each named size on y or z (x's limit no size
    reaches). None where the levels need more axes than CUDA has."""
    if deepest + shift >= len(target.AXES):
        return None
    on = [(lv, target.AXES[deepest - lv.dim + shift]) for lv in kernel.levels[:deepest + 1]]
    on = [(lv, axis) for lv, axis in on if axis != "x"]
    over = [(lv, axis) for lv, axis in on if isinstance(lv.size, int) and lv.size > target.MAX_GRID[axis]]
    return over, tuple(Test(lv.size.name, "<=", target.MAX_GRID[axis]) for lv, axis in on
                       if not isinstance(lv.size, int))


def _why_one_block(split: Split) -> str:
    """Why a row keeps one block though --several-blocks asks for several."""
    if split.length is None:
        return "the reductions have no one length the launch knows, so a block a row"
    if not all(r.top for r in split.reductions if r.split):
        return "a reduction lies in an `if`'s branch or a loop's body, where a kernel cannot end, so a block a row"
    if sum(r.split for r in split.reductions) > MAX_SEVERAL_REDUCTIONS:
        return f"more than {MAX_SEVERAL_REDUCTIONS} reductions a row (a kernel each, every one repeating the row's " \
               "code before it), so a block a row"
    return "the rows would need more grid axes, or more blocks along one, than CUDA has, so a block a row"


def _unsplit(reductions, others, reason: str, past: int | None = None) -> Split:
    """No rows: every reduction unsplit, with `reason` where it has none of
    its own, and in every one at a level deeper than `past`."""
    return Split(0, tuple(replace(r, split=False, reason=reason if not r.reason or past is not None and r.level > past
                                  else r.reason) for r in reductions), others, reason)


def _staged_elsewhere(split: Split, schedule) -> str:
    """Why a row's threads should not take over the inner points: a stream
    the tiled kernel stages that is not one of the split reductions (a
    product in the inner map, whose rows the tiled kernel shares among its
    threads), or ""."""
    loops = {T.point(r.loop) for r in split.reductions if r.split}
    for s in schedule.streams if schedule is not None else ():
        body = s.site.stream.body
        while isinstance(body, T.Let):
            body = body.body
        if s.tiled and not (isinstance(body, T.Loop) and T.point(body) in loops):
            return f"the stream at {s.site.span.line}:{s.site.span.col} is tiled, its inputs shared in shared " \
                   f"memory by a block of the inner map's points: splitting the rows would read them from " \
                   f"global memory (--lanes N splits anyway)"
    return ""


def _shared(loop: T.Loop, var: Variance, rows: frozenset) -> str:
    """Why a reduction's reads are not the row's own (another point reads
    them too), or "" where every array it reads varies with every row dim."""
    reads = [n for n in descendants(loop.body, T.is_exp) if isinstance(n, T.Index)]
    if not reads:
        return NO_ARRAY
    for n in reads:
        array = n.array
        dims = var.of(array.binder) if isinstance(array, T.Var) else frozenset()
        if not rows <= dims:
            name = array.binder.name if isinstance(array, T.Var) else "an array"
            moving = frozenset().union(*(var.of(v.binder) for i in n.indices for v in descendants(i, T.is_exp)
                                         if isinstance(v, T.Var)))
            if rows <= dims | moving:  # the array is no row's own, but its index moves with the point
                return f"`{name}` is no row's own array (read at an index that moves with dimension " \
                       f"{dims_text(rows - dims)}, as a window's or a gather's): other rows may read the same elements"
            return f"`{name}` does not vary with dimension {dims_text(rows - dims)}: other rows read it too, " \
                   f"and the tiled kernel shares it among them"
    return ""
