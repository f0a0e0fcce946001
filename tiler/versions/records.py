"""The records of a module's versions, as data built from the plan.

A `Build` says how one kernel is lowered (which program, under which
schedule or split, in which flavour: vector or scalar copies, 32- or 64-bit
offsets, inputs read from the launch's transposed copies). A `Version` says
when the launch runs it: its kind, its launch condition as tests (each a
small record: a threshold, a size fixed or bounded, the arrays' element
count, the grid's share of the SMs, ...), its rival and the stages a launch
runs before it. `Versions` is the stage's value: every version in the order
the launch tests them, and the fold fissioned or why not.

Two facts exist only once a kernel is lowered, and the records name them
rather than guess them: which sizes a kernel's 128-bit copies need to be
multiples of 4 (`Aligned`), and the blocks its grid has (`FillsSMs`). A
version whose copies use vectors (`Copies.VECTOR_OR_SCALAR`) becomes, when
lowered, the vector kernel for aligned sizes and the scalar one for the
others, or the one kernel where no size needs testing (lowering.py).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from .. import target
from ..analyse.scans import SCAN_LANES
from ..analyse.schedule import Schedule, Threshold
from ..source import program_stem

ONE_POINT = "_one_point"  # the name of a version with one point a thread (Plan.fewer)
RACED = "_raced"  # the name of the scan's version raced against the untiled kernel (versions/scan.py)
BOUNDED = "_bounded"  # the names of versions whose tiles hold rows of a bounded length (Schedule.bounds)
SCALAR = "_scalar"  # the name of a vector version's twin with scalar copies
LOOPED = "_looped"  # the name of the last fallback of a module compiled knowing sizes (Build.looped)
WIDE_NOTE = "64-bit offsets: an array has 2^31 elements or more"
# what a raced version is raced against before its rival, by (for few points, racing the next version first):
# explain's JSON key (`raced_first`), and the words explain and `--emit versions` say it in
RACED_FIRST = {
    (True, False): ("more points", "the version that runs for more points, then the winner against "),
    (True, True): ("the next version, then more points", "the next version whose condition holds, then the winner "
                   "against the version that runs for more points, then the winner against "),
    (False, True): ("the next version", "the next version whose condition holds, then the winner against "),
}
ALIGNED = "128-bit copies: the rows they read start 16-byte aligned"  # why a vector version runs where it does


class Kind(Enum):
    TILED = "tiled"
    ONE_POINT = "one point a thread"  # the tiled schedule with one point a thread (Plan.fewer)
    UNTILED = "untiled"
    SPLIT = "split"  # rows run by a warp or a block (or several blocks) that share their reductions
    WINDOW = "window"  # points a thread sharing their windows' reads, or windows staged (analyse/window_tile.py)
    # several points a thread, a block's width apart, in a kernel of no window and no loop (window_tile._coarse)
    STRIDED = "strided"
    MARCH = "march"  # a 3-D window marched along its outer dimension, its planes staged (analyse/march.py)
    FISSIONED = "fissioned"  # the pairs' kernel as a stage, then the fold reading its values
    SCAN = "scan"  # a fold per point over the positions up to its own, as one scan of its terms (analyse/scans.py)


class Copies(Enum):
    """How a version's kernel copies its tiles."""

    PLANNED = "as the schedule plans them"
    SCALAR = "scalar"
    # 32-bit offsets: the vector kernel where the sizes keep its rows aligned, then the scalar one (named
    # `_scalar`) for the others; where no size needs testing, the vector kernel alone; where the verifier
    # cannot prove its vectors aligned, the scalar one alone
    VECTOR_OR_SCALAR = "128-bit where the rows stay aligned, else scalar"
    # 64-bit offsets: the same, but where no size needs testing or the vectors are unproven, the scalar
    # kernel alone, under its own name
    VECTOR_OR_SCALAR_WIDE = "128-bit where the rows stay aligned, else scalar (64-bit offsets)"
    VECTOR = "128-bit"  # a lowered version: the vector half
    SCALAR_HALF = "scalar, for the sizes the vector half does not take"  # a lowered version: the scalar half


@dataclass(frozen=True)
class Build:
    """One kernel, as lower makes it from one program's analysis."""

    source: object = field(repr=False, compare=False)  # the Analysis of the program it lowers
    file: str  # the program's name, which names the kernel
    tiled: bool
    schedule: Schedule | None = field(default=None, repr=False, compare=False)  # None: a split kernel
    vectors: bool = True  # the schedule's vector copies (False: every copy one element)
    wide: bool = False  # 64-bit flat offsets into arrays of two or more dimensions
    transposed: frozenset = frozenset()  # arrays read from the launch's transposed copies
    split: object = field(default=None, repr=False, compare=False)  # reductions.Split: rows run by `lanes` each
    lanes: int = 0
    several: bool = False  # several blocks a row (a kernel each split reduction)
    columns: bool = False  # rows side by side (reductions.COLUMN_ROWS a block), each row's lanes along y
    # split-K: the tiled `schedule`'s kernel, its blocks along z sharing the reduction, as the stage of the
    # split's last kernel of several blocks a row (lower/split_k.py)
    k_split: bool = False
    # a window version (analyse/window_tile.py): the untiled schedule's block, a micro-tile of consecutive
    # points along the window's dimension sharing its reads in registers, or windows staged in shared memory
    # with their halo (analyse/halo_tile.py)
    window: bool = False
    # a 3-D window marched along its outer dimension, its planes staged (analyse/march.py, lower/march.py)
    march: bool = False
    # a warp a row of a split for few points streaming each point's own rows, for more points than the split's
    # own versions run for (reductions.Split.own_warp, split.own_warp_versions): the plan's kernel can be as
    # fast where the rows are shared
    own_warp: bool = False
    scan: object = field(default=None, repr=False, compare=False)  # scans.Scan: the scan's two kernels (lower/scan.py)
    suffix: str = ""  # added to the kernel's name by its version (SCALAR, ONE_POINT, BOUNDED, LOOPED, RACED)
    # its blocks walk grid y and z in a loop wherever a size could need more blocks than the grid holds, as
    # though no size were given when compiled (the others have none for a size given: Kernel.grid_bounds)
    looped: bool = False

    @property
    def few(self) -> bool:
        """It runs only for launches of few points (a split for few points, split-K among them)."""
        return self.split is not None and self.split.few

    @property
    def ahead(self) -> bool:
        """A first launch races it against the next version whose condition holds first (split-K, window, strided,
        march, a scan a warp a row: a block a row can be as fast where the rows are fewer and a step costs more)."""
        return self.k_split or self.window or self.march or (self.scan is not None and self.lanes == target.WARP) \
            or self.own_warp

    @property
    def strided(self) -> bool:
        """A window version of a kernel that reads no window: its points a block's width apart (window_tile._coarse)."""
        return self.window and self.source.plan.window.elementwise

    @property
    def key(self) -> tuple:
        """What makes two builds one kernel: its name and copies, from the same
        schedule or split (by identity: they are the analysis's own objects,
        alive while its records are, and a schedule holds dicts, so no hash)."""
        return self.name, self.vectors, id(self.schedule), id(self.split), id(self.scan)

    @property
    def name(self) -> str:
        """The kernel's name, as lower names it, with the version's suffix."""
        stem = program_stem(self.file)
        if self.split is not None:
            return f"tiler_{stem}_split{self.lanes}" + ("_cols" if self.columns else "") + \
                ("_blocks" if self.several else "") + ("_k" if self.k_split else "") + \
                ("_wide" if self.wide else "") + self.suffix
        if self.scan is not None:
            return f"tiler_{stem}_scan{self.lanes or SCAN_LANES}" + self.suffix
        kind = "march" if self.march else ("strided" if self.strided else "window") if self.window else \
            "tiled" if self.tiled else "untiled"
        return f"tiler_{stem}_{kind}" + ("_wide" if self.wide else "") + \
            ("_transposed" if self.transposed else "") + self.suffix

    @property
    def fixed(self) -> tuple:
        """(size, value): row lengths the kernel's tiles were sized by (Schedule.fixed)."""
        return tuple(sorted(self.schedule.fixed.items())) if self.schedule is not None else ()

    @property
    def bounds(self) -> tuple:
        """(size, value): row lengths taken as at most a bound (Schedule.bounds)."""
        return tuple(sorted(self.schedule.bounds.items())) if self.schedule is not None else ()


# ---- launch conditions as data: each test lowers to a C expression over size names (lowering.py) ----


@dataclass(frozen=True)
class AtLeast:
    """A threshold: below it the cost model finds the untiled kernel cheaper (or --threshold)."""

    threshold: Threshold


@dataclass(frozen=True)
class Equals:
    """The kernel's tiles hold rows of this length, the size given when it was compiled."""

    size: str
    value: int


@dataclass(frozen=True)
class AtMost:
    """A size at most a value: the kernel's tiles hold rows of at most this
    length, or its grid stays within CUDA's blocks along an axis."""

    size: str
    value: int


@dataclass(frozen=True)
class Fits:
    """Every array of two or more dimensions (its shape, by size names) has fewer than 2^31 elements."""

    shapes: tuple


@dataclass(frozen=True)
class SharedFits:
    """The lowered kernel's shared memory, some of it sized by the launch
    (a halo tile of a window whose extent is known only then), is at most
    `limit` bytes."""

    limit: int
    tiles: tuple[str, ...] = ()  # the arrays whose windows it stages

    def text(self) -> str:
        return f"the window tile{'s' if len(self.tiles) > 1 else ''} of {', '.join(self.tiles)}, sized at launch, " \
            f"fit{'' if len(self.tiles) > 1 else 's'} in {self.limit:,} bytes of shared memory"


@dataclass(frozen=True)
class Aligned:
    """The sizes the lowered kernel's 128-bit copies need to be multiples of 4 are (Kernel.divisible)."""


@dataclass(frozen=True)
class FillsSMs:
    """The lowered kernel's grid has a block for at least 1 in `share` of the GPU's SMs."""

    share: int


@dataclass(frozen=True)
class FewTiles:
    """The plan's tiled kernel's grid would not give a block to 1 in `share`
    of the GPU's SMs: its tiles, each `(size, points)` pair a dim's size and
    the points a block takes along it, times `share` are fewer than the SMs."""

    tiles: tuple
    share: int

    def text(self) -> str:
        extent = " x ".join(str(points) for _, points in reversed(self.tiles))
        count = " * ".join(f"ceil({size} / {points})" for size, points in self.tiles)
        who = "the GPU's SMs" if self.share == 1 else f"1 in {self.share} of the GPU's SMs"
        return f"the plan's tiled kernel's tiles of {extent} outputs ({count}) are fewer than {who}"


@dataclass(frozen=True)
class Transposing:
    """A test the launch makes before it transposes inputs: (sizes multiplied, op, value)."""

    test: tuple


@dataclass(frozen=True)
class RowTest:
    """A test of a split on the rows' count or length (row_tests.Test); `rows`: the row levels' sizes."""

    test: object
    rows: tuple
    length: object


@dataclass(frozen=True)
class Gate:
    """A gate of the fissioned versions (fission.Gate): `size >= least`."""

    gate: object


@dataclass(frozen=True)
class All:
    """Every part holds (`&&`, folded from the left; a nested All stays a group)."""

    parts: tuple


@dataclass(frozen=True)
class AnyOf:
    """One of the parts holds (`||`, folded from the left)."""

    parts: tuple


def both(a, b):
    """`a && b`, either of which may be None (no condition)."""
    return b if a is None else a if b is None else All((a, b))


def all_of(parts) -> object | None:
    """Every part (None where there is none; one part is itself)."""
    parts = tuple(parts)
    return None if not parts else parts[0] if len(parts) == 1 else All(parts)


def any_of(parts) -> object | None:
    """One of the parts (None where there is none; one part is itself)."""
    parts = tuple(parts)
    return None if not parts else parts[0] if len(parts) == 1 else AnyOf(parts)


def without_aligned(condition):
    """The condition of a vector version's scalar half: the alignment test
    (always added innermost, by `both`) left out."""
    return without(condition, Aligned)


def without(condition, kind: type):
    """The condition with the tests of this kind that it asks besides the rest left out (None where none
    is left); one alternative of an AnyOf stays whole."""
    if isinstance(condition, kind):
        return None
    if isinstance(condition, All):
        return all_of(p for p in (without(p, kind) for p in condition.parts) if p is not None)
    return condition


@dataclass(frozen=True)
class OnStage:
    """Tests of a fissioned version's stage (the pairs' kernel): resolved against that kernel, not the fold's."""

    condition: object


def leaves(condition):
    """The tests of a condition, in order."""
    if condition is None:
        return
    if isinstance(condition, (All, AnyOf)):
        for part in condition.parts:
            yield from leaves(part)
    elif isinstance(condition, OnStage):
        yield from leaves(condition.condition)
    else:
        yield condition


@dataclass(frozen=True)
class Version:
    """One version of a module: the first whose condition holds at a launch runs."""

    kind: Kind
    build: Build
    condition: object = None  # a test, All or AnyOf of them; None: always
    why: str = ""
    copies: Copies = Copies.PLANNED
    rival: Build | None = None  # the untiled kernel it is raced against at a first launch
    choice: object = None  # reductions.LaneChoice: the lanes a row of a split version, and when
    note: str = ""  # what the version's reasons add (a vector pair's halves each say it)
    fallback: bool = False  # its schedule runs the untiled kernel below some size (a pair's scalar half says so)
    # a fissioned version: the fold's version and the pairs' one it launches first, and which pair it is
    fold: "Version | None" = None
    pair: "Version | None" = None
    pair_index: int = 0
    scratch: str = ""  # a fissioned version: the array its stage writes and its kernel reads
    # a vector pair's vector kernel alone, the sizes its copies cannot take left to the versions that follow
    # (reading the launch's copies for TMA, analyse/core_tma.py: the copies pay only where TMA copies)
    vector_alone: bool = False

    @property
    def tiled(self) -> bool:
        return self.build.tiled

    @property
    def ahead(self) -> bool:
        """A first launch races it against the next version whose condition
        holds first: a split-K or window version's build, and a fissioned
        version (the next that is not fissioned: the kernel as written)."""
        return self.build.ahead or self.kind is Kind.FISSIONED

    @property
    def launch_condition(self):
        """The condition the launch tests for this kernel: a vector record's
        scalar half (or the kernel alone where no size needs testing) lacks
        the alignment test."""
        return self.condition if self.copies is Copies.VECTOR else without_aligned(self.condition)

    @property
    def thresholds(self) -> tuple:
        """The plan's thresholds it runs from (a fissioned version: its fold's)."""
        own = self.fold.condition if self.fold is not None else self.condition
        return tuple(t.threshold for t in leaves(own) if isinstance(t, AtLeast))

    @property
    def transposing(self) -> tuple:
        """The launch's tests before it transposes the inputs this version reads transposed."""
        return tuple(t.test for t in leaves(self.condition) if isinstance(t, Transposing))

    @property
    def gates(self) -> tuple:
        """A fissioned version's own tests (fission.Gating)."""
        return tuple(t.gate for t in leaves(self.condition) if isinstance(t, Gate))

    @property
    def grid_share(self) -> int:
        """Its condition asks that its grid (a fissioned one's: its stage's) give a block to 1 in this many SMs."""
        return next((t.share for t in leaves(self.condition) if isinstance(t, FillsSMs)), 0)


@dataclass(frozen=True)
class Versions:
    """The stage's value: a program's versions, in the order the launch tests them."""

    analysis: object = field(repr=False)  # the program's Analysis
    file: str
    versions: tuple[Version, ...]
    notes: tuple[str, ...] = ()  # what holds for every version (--fast-math)
    # a fold over rows fissioned into a kernel of its pairs' values and one folding them (fission.FissionPlan),
    # or found and not fissioned (fission.NoFission, its reason); None: the kernel has no such fold
    fission: object = None
    # the builds of the kernel that computes the work of no map level's names once a launch (the analysis's
    # kernel.launched), with 32- and 64-bit offsets, which every version launches first; None: no such work
    launch: tuple[Build, Build] | None = None
