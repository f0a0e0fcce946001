"""What the user steers about a plan (`--tile`, `--no-tile`, `--max-shared`,
`--size`, `--threshold` and the ablations); `explain`, `compile` and `bench`
share one `Options` so that explain shows exactly what compile does. The
GPU's facts and the planner's own constraints are apart (context.py)."""
from __future__ import annotations

import numbers
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from enum import Enum

from .. import target
from ..errors import PlainError

SHARED_LIMIT = target.STATIC_SHARED_LIMIT
MAX_MIN_BLOCKS = 32  # an SM holds at most 32 blocks (sm_90)
MAX_UNROLL = 64  # the most --unroll takes (a chunk loop's body copied more often only grows the code)
MAX_CHUNK = 4096  # the longest chunk --chunk takes (one line of 4096 f32 is 16 KiB of shared memory)
MAX_REGISTER_TILE = 64  # points a thread along a dimension
MAX_GROUP_ROWS = 1024  # rows of tiles a group of blocks (more than a wave's blocks only repeats the launch's order)


class Takes(Enum):
    """What a plan option takes, hence its command-line form and its check."""

    FLAG = "True or False"  # --no-vector
    EITHER = "True, False or None"  # --transpose / --no-transpose; None: the plan's choice
    WHOLE = "a whole number"  # --chunk K
    TILE = "sizes per dimension"  # --tile N|N0,N1,...
    TABLE = "size names to whole numbers"  # --size NAME=N, repeatable


class Family(Enum):
    """The tuner's families of plan options, in the order it searches them
    (the order the plan decides them in): each family's values are tried
    together, with the best of the others fixed (tune/autotune.py)."""

    SPLIT = "split"
    TILE = "tile"
    CHUNK = "chunk"
    REGISTER_TILE = "register_tile"
    PACK = "pack"
    BUFFERING = "buffering"
    TRANSPOSE = "transpose"
    JOIN_ROWS = "join_rows"
    UNROLL = "unroll"
    INTERIOR = "interior"
    MIN_BLOCKS = "min_blocks"


@dataclass(frozen=True)
class Ablation:
    """A variant of `tiler bench --ablate`: the option set to `value`, which
    removes (or, where the plan leaves it out, adds) one technique."""

    label: str
    value: object = True


@dataclass(frozen=True)
class Option:
    """How one plan option is given (the command line, the Python API, a
    tuning file) and checked. Every entry point is made from these: a new
    option is one field of `Options` and its consumer."""

    takes: Takes
    flag: str  # the command line's spelling
    help: str
    metavar: str = ""
    most: int | None = None  # WHOLE and TILE: the largest value (None: no bound); WHOLE also `least`
    least: int = 0
    valid: Callable[[int], bool] | None = None  # WHOLE: a test beyond least..most
    words: str = ""  # WHOLE: the values it takes, for the message and the docs
    hint: str = ""
    tuned: bool = False  # a tuning file may set it (so may one for any option of a `family`)
    family: Family | None = None  # the tuner's family it is searched in
    tries: tuple = ()  # the values the tuner tries for it (where the kernel's shape does not decide them)
    ablation: Ablation | None = None  # its variant in `tiler bench --ablate`
    steers: bool = True  # it chooses (part of) the schedule: the launch then runs it without a race
    contradicts: tuple[str, ...] = ()  # options that may not be given with it
    short: str = ""  # a one-letter spelling too (`-s`, as run, bench and tune spell --size)


def _option(default, takes: Takes, flag: str, help: str, **how):
    return field(default=default, metadata={"option": Option(takes, flag, help, **how)})


def _ablation(label: str, value=True):
    """A field that is no plan option (no flag, not in the API) but a variant of `bench --ablate`."""
    return field(default=False, metadata={"ablation": Ablation(label, value)})


@dataclass(frozen=True)
class Options:
    """What the user asks of a plan: the plan options (fields with an
    `Option`) and the bench's ablations. What the GPU is (target.Device) and
    what the planner fixes for itself (context.Constraints) are not here."""

    tile: tuple = _option((), Takes.TILE, "--tile", "Threads a block spans along every dimension (N), or per "
                          "dimension, outermost first ('_' keeps the default).", metavar="N|N0,N1,...",
                          most=target.MAX_THREADS_PER_BLOCK, family=Family.TILE,
                          ablation=Ablation("tile 16", (16,)))
    no_tile: bool = _option(False, Takes.FLAG, "--no-tile", "Plan the untiled kernel.",
                            contradicts=("tile", "register_tile", "lanes", "several_blocks", "no_register_tile",
                                         "chunk", "unroll", "pack", "interior", "single_buffer", "double_buffer",
                                         "join_rows", "no_async", "transpose", "no_coalesce", "no_vector",
                                         "keep_loops", "no_hoist", "no_speculate"))  # each steers only what tiling makes
    max_shared: int | None = _option(None, Takes.WHOLE, "--max-shared", "Shared memory a block may use [default: "
                                     "48 KiB; for a register tile copied by cp.async, what the GPU allows].",
                                     metavar="BYTES", most=target.SHARED_LIMIT_ANY_GPU, steers=False,
                                     words=f"between 0 and {target.SHARED_LIMIT_ANY_GPU} bytes: no GPU gives a "
                                     "block more shared memory")
    # ablations alone (the design note's observations; `tiler bench --ablate`):
    copy_along_chunk: bool = _ablation("uncoalesced copy")  # lay the chunk on threadIdx.x even where uncoalesced
    row_major_tiles: bool = _ablation("row-major tiles, no padding")  # never transpose a tile (and never pad it)
    no_register_tile: bool = _option(False, Takes.FLAG, "--no-register-tile", "One point a thread (no register "
                                     "tile).", family=Family.REGISTER_TILE,
                                     contradicts=("register_tile", "double_buffer"),
                                     ablation=Ablation("no register tile"))
    no_vector: bool = _option(False, Takes.FLAG, "--no-vector", "Scalar global copies (no 128-bit loads).",
                              tuned=True, ablation=Ablation("no vector loads"))
    single_buffer: bool = _option(False, Takes.FLAG, "--single-buffer", "No double buffering of a register-tiled "
                                  "kernel's shared tiles.", family=Family.BUFFERING, tries=(True,),
                                  contradicts=("double_buffer",))
    double_buffer: bool = _option(False, Takes.FLAG, "--double-buffer", "Double-buffer a register-tiled kernel's "
                                  "shared tiles through registers (not cp.async), even past the register budget.",
                                  family=Family.BUFFERING, tries=(True,), ablation=Ablation("double buffering"))
    register_tile: tuple = _option((), Takes.TILE, "--register-tile", "Points a thread computes along every "
                                   "dimension (N), or per dimension, outermost first (1: none); instead of the "
                                   "plan's choice.", metavar="N|N0,N1,...", most=MAX_REGISTER_TILE,
                                   family=Family.REGISTER_TILE)
    window_points: int | None = _option(None, Takes.WHOLE, "--window-points", "Consecutive points a thread takes "
                                        "along a window's dimension in the window version (1: one), or a block's width "
                                        "apart along x where it stages a window in shared memory or in the strided "
                                        "version of a kernel of no window and no loop; it is raced as the default's "
                                        "is.", metavar="N", least=1, most=32,
                                        words="between 1 and 32 points a thread", steers=False)
    no_halo: bool = _option(False, Takes.FLAG, "--no-halo", "Read windows in place in the window version (no tile "
                            "of a window with its halo in shared memory); it is raced as the default's is.",
                            steers=False)
    no_march: bool = _option(False, Takes.FLAG, "--no-march", "No 2.5-D blocking: a 3-D window is not marched "
                             "along its outer dimension with its planes staged in shared memory (the other window "
                             "versions stay).", steers=False)
    no_tma: bool = _option(False, Takes.FLAG, "--no-tma", "Copy the tiles of a product by cp.async with a barrier a "
                           "chunk, not by TMA (one thread's copies, waited on by mbarriers): on sm_90a's warp groups, "
                           "and an f32 product on the CUDA cores (sm_90), whose operand the launch then no longer "
                           "transposes for it.", steers=False, ablation=Ablation("no TMA"))
    sizes: tuple = _option((), Takes.TABLE, "--size", "A size known in advance (repeatable): a block need not be "
                           "wider than its dimension. The kernel still works for any size.", metavar="NAME=N", short="-s",
                           steers=False)
    thresholds: tuple = _option((), Takes.TABLE, "--threshold", "Run the tiled kernel only when size NAME >= N, "
                                "the untiled one below (repeatable; overrides the cost model's threshold; N=1: "
                                "always tiled).", metavar="NAME=N", least=1)
    chunk: int | None = _option(None, Takes.WHOLE, "--chunk", "Elements a tiled stream copies into shared memory "
                                "at once, instead of the plan's choice (halved while the tiles do not fit "
                                "--max-shared).", metavar="K", least=1, most=MAX_CHUNK,
                                words=f"a chunk is between 1 and {MAX_CHUNK} elements", family=Family.CHUNK,
                                tries=(8, 16, 32, 64, 128, 256, 512))
    no_coalesce: bool = _option(False, Takes.FLAG, "--no-coalesce", "Leave rows each thread walks alone in global "
                                "memory (no staging for coalescing).", tuned=True,
                                ablation=Ablation("rows in place (no coalescing)"))
    transpose: bool | None = _option(None, Takes.EITHER, "--transpose", "Have the launch transpose the arrays "
                                     "whose rows threads walk alone, wherever it can (instead of staging the rows "
                                     "in shared memory), or never; by default where the rows cannot be staged and "
                                     "are long enough to pay. --no-transpose also keeps a TF32 product's B in "
                                     "place on sm_90a's warp groups.", family=Family.TRANSPOSE, tries=(True, False),
                                     ablation=Ablation("rows transposed by the launch"))
    no_promote: bool = _option(False, Takes.FLAG, "--no-promote", "Leave index reads along a stream's position "
                               "(B[kk + k, j]) as reads, and loops over whole arrays as loops: make no stream "
                               "inputs of them.", ablation=Ablation("index reads in place (no promotion)"))
    no_hoist: bool = _option(False, Takes.FLAG, "--no-hoist", "Leave work where the program wrote it: a loop or "
                             "a stream that reads nothing of its map's point (a row's maximum in each element's "
                             "body) is by default computed once a row of the map level where it varies, or, in "
                             "a kernel of one level, once a launch where it reads no map level's names.",
                             steers=False, ablation=Ablation("work where written (no hoisting)"))
    no_speculate: bool = _option(False, Takes.FLAG, "--no-speculate", "Leave a stream under an `if` whose test "
                                 "varies with the points (a mask around a dot product) under its `if`. By default "
                                 "it is computed at every point before the `if`, where that is safe, so that a "
                                 "block can stage its inputs; the untiled kernel the launch falls back to (and "
                                 "races, unless an option steers the schedule) is the program as written.", steers=False,
                                 ablation=Ablation("streams under their `if` (no speculation)"))
    keep_loops: bool = _option(False, Takes.FLAG, "--keep-loops", "Leave a plain loop that walks arrays whole "
                               "along its index a loop. By default it is read as a stream over them, so that the "
                               "plan can stage them (a mat-vec or a matrix product written with a loop gets the "
                               "plan of the same program written with streamSeq).", steers=False)
    unroll: int | None = _option(None, Takes.WHOLE, "--unroll", "Unroll the loop over a staged chunk N times (1: "
                                 "never); by default the compiler decides.", metavar="N", least=1, most=MAX_UNROLL,
                                 words=f"between 1 (never unroll) and {MAX_UNROLL}", family=Family.UNROLL,
                                 tries=(1, 2, 4, 8, 16, 32, 64),
                                 ablation=Ablation("no unrolling of a chunk's loop (--unroll 1)", 1))
    pack: bool = _option(False, Takes.FLAG, "--pack", "Interleave staged inputs read at the same index in one "
                         "shared array (one vector read a step).", family=Family.PACK, tries=(True,),
                         ablation=Ablation("packed tiles"))
    join_rows: bool | None = _option(None, Takes.EITHER, "--join-rows", "Stream the rows a loop picks each "
                                     "iteration (a gather: lavaMD's neighbour boxes) end to end, so that a chunk "
                                     "copies several short rows between one pair of barriers; or keep one stream "
                                     "a row [default: where it saves barriers].", family=Family.JOIN_ROWS,
                                     ablation=Ablation("a loop's rows streamed apart (--no-join-rows)", False))
    no_async: bool = _option(False, Takes.FLAG, "--no-async", "Copy a stream's tiles through registers instead of "
                             "by cp.async (the pipeline of the rows a block stages to coalesce, and of a 2-D "
                             "register tile's tiles of rows).", family=Family.BUFFERING, tries=(True,),
                             ablation=Ablation("no cp.async (prefetch through registers)"))
    fast_math: bool = _option(False, Takes.FLAG, "--fast-math", "Use the hardware approximations of sin, cos, exp, "
                              "log, pow, sqrt, rsqrt and f32 division, and reorder float sums and products into "
                              "multiply-adds (faster; results differ from IEEE rounding).", steers=False,
                              ablation=Ablation("fast math"))
    tensor_cores: bool = _option(False, Takes.FLAG, "--tensor-cores", "Compute a register-tiled product (an "
                                 "accumulator plus a staged row element times a staged column element) of f32 or "
                                 "f64 inputs on the matrix units (tensor cores): f32 inputs rounded to TF32 (10-bit "
                                 "mantissas; truncated on sm_90a's warp groups), f64 as f64 (checked within 1e-2 of "
                                 "each output's scale; explain says where and why not). f16 and bf16 inputs summed "
                                 "in f32 use them always, and so do f64 products summed from zero on sm_90, whose "
                                 "instructions round as the loop as written does.",
                                 steers=False, ablation=Ablation("tensor cores"))
    interior: bool = _option(False, Takes.FLAG, "--interior", "Give blocks wholly inside every dimension a copy of "
                             "the body without the bounds clamps and store guards (the blocks at the edges keep "
                             "them).", family=Family.INTERIOR, tries=(True,),
                             ablation=Ablation("interior blocks without clamps"))
    min_blocks: int | None = _option(None, Takes.WHOLE, "--min-blocks", "Blocks an SM must hold at once "
                                     "(__launch_bounds__), which caps a thread's registers; 0 leaves it to ptxas "
                                     "[default: the plan's choice].", metavar="N", most=MAX_MIN_BLOCKS,
                                     words=f"between 0 (ptxas chooses) and {MAX_MIN_BLOCKS} blocks an SM",
                                     family=Family.MIN_BLOCKS, tries=(0, 1, 2, 3, 4),
                                     ablation=Ablation("ptxas's register choice (--min-blocks 0)", 0))
    group_rows: int | None = _option(None, Takes.WHOLE, "--group-rows", "Rows of tiles consecutive blocks take "
                                     "down each column of tiles before the next column (0: the launch's order, a "
                                     "row of tiles at a time) [default: 8 for a product on the TF32, bf16 or f16 "
                                     "matrix units, else 0].", metavar="N", most=MAX_GROUP_ROWS,
                                     words=f"between 0 (the launch's order) and {MAX_GROUP_ROWS} rows of tiles",
                                     tuned=True, ablation=Ablation("blocks in the launch's order (--group-rows 0)", 0))
    no_split: bool = _option(False, Takes.FLAG, "--no-split", "Never share a row's reductions among threads: one "
                             "thread a point computes the lets between map levels itself.", family=Family.SPLIT,
                             tries=(True,), contradicts=("lanes", "several_blocks"),
                             ablation=Ablation("a thread a point, reductions not split (--no-split)"))
    no_fission: bool = _option(False, Takes.FLAG, "--no-fission", "Never fission a fold over rows (an argmin over "
                               "centres) into a kernel computing every (point, row) pair's value and one folding "
                               "them.", steers=False)
    no_scan: bool = _option(False, Takes.FLAG, "--no-scan", "Never run a fold per point over the positions up to "
                            "its own (a prefix sum written as a masked fold) as one scan of its terms: each point "
                            "walks the whole stream.", ablation=Ablation("each point walking its stream (--no-scan)"))
    lanes: int | None = _option(None, Takes.WHOLE, "--lanes", "Threads a row where its reductions are split among "
                                "them (a multiple of 32, up to 1024), instead of the launch's choice.", metavar="N",
                                least=target.WARP, most=target.MAX_THREADS_PER_BLOCK,
                                valid=lambda n: n % target.WARP == 0,
                                words=f"threads a row are whole warps, from {target.WARP} to "
                                f"{target.MAX_THREADS_PER_BLOCK}", hint="give 32, 64, ..., 1024", family=Family.SPLIT,
                                tries=(32, 64, 128, 256, 512, 1024),
                                ablation=Ablation("a block of 1024 a row, never several (--lanes 1024)", 1024))
    several_blocks: bool = _option(False, Takes.FLAG, "--several-blocks", "Run split rows by several blocks each "
                                   "(of --lanes threads, else 256; a kernel each reduction), whatever the rows' "
                                   "count and length.", family=Family.SPLIT, tries=(True,))
    no_launch_timing: bool = _option(False, Takes.FLAG, "--no-launch-timing", "Run the version the cost model picks "
                                     "at every launch, without timing it against the untiled kernel the first time "
                                     "the launch meets a set of sizes.", steers=False)

    def steers_schedule(self) -> bool:
        """Some option chooses the schedule, or a part of it, instead of the
        plan (an ablation, a tile, a tuned parameter): the launch then runs
        what was asked for, never timing it against the untiled kernel."""
        return any(getattr(self, f.name) != f.default for f in fields(self)
                   if "option" not in f.metadata or f.metadata["option"].steers)

    def kernel_stage(self) -> tuple[bool, bool, bool, bool, bool]:
        """How stage `kernel` builds the kernel (kernel_of's promote, loops,
        listed, hoist, speculate): --no-tile's kernel is the program as written."""
        return not self.no_promote, not (self.keep_loops or self.no_tile), not self.no_tile, \
            not (self.no_hoist or self.no_tile), not (self.no_speculate or self.no_tile)

    @property
    def launch_timing(self) -> bool:
        """The launch times the plan's tiled version against the untiled kernel
        the first time it meets a set of sizes, and runs the faster from then on."""
        return not (self.no_launch_timing or self.steers_schedule())

    def known_size(self, size) -> int | None:
        if isinstance(size, int):
            return size
        return dict(self.sizes).get(getattr(size, "name", None))

    def tile_for(self, dim: int, default: int) -> int:
        """One size applies to every dimension; several are per dimension, outermost first."""
        if len(self.tile) == 1 and self.tile[0] is not None:
            return int(self.tile[0])
        if dim < len(self.tile) and self.tile[dim] is not None:
            return int(self.tile[dim])
        return default


def parse_tile(text: str, flag: str = "--tile", limit: int = target.MAX_THREADS_PER_BLOCK) -> tuple:
    """`N` or `N0,N1,...` ('_' keeps a dimension's default), as `--tile` (or
    `--register-tile`) takes it."""
    parts = [t.strip() for t in text.split(",")]
    if all(t in ("", "_") for t in parts):  # `--tile ''`, `--tile ,`: no size at all, which is no choice
        raise PlainError(f"{flag} `{text}` gives no size", f"{flag} N, or N0,N1,... ('_' keeps a dimension's default)")
    try:
        sizes = tuple(None if t in ("", "_") else int(t) for t in parts)
    except ValueError:
        raise PlainError(f"{flag} expects N or N0,N1,... (whole numbers), got `{text}`") from None
    if any(t is not None and not 1 <= t <= limit for t in sizes):
        raise PlainError(f"{flag} {text}: between 1 and {limit} along a dimension")
    return sizes


def tile_text(sizes: tuple) -> str:
    """Sizes per dimension as `--tile` takes them (`None`: `_`)."""
    return ",".join("_" if t is None else str(t) for t in sizes)


# the plan options, in the order the command line's help lists them: name -> how it is given
OPTIONS: dict[str, Option] = {f.name: f.metadata["option"] for f in fields(Options) if "option" in f.metadata}
CLI_NAMES = {name: o.flag for name, o in OPTIONS.items()}  # how the command line names each option
TUNED = tuple(name for name, o in OPTIONS.items() if o.tuned or o.family)  # the plan options a tuning file may set
# `tiler bench --ablate`'s variants, in the order the options are declared: each sets one field
ABLATIONS: dict[str, dict] = {a.label: {f.name: a.value} for f in fields(Options)
                              if (a := f.metadata.get("ablation") or getattr(f.metadata.get("option"), "ablation",
                                                                               None))}


def family_members(family: Family) -> tuple[str, ...]:
    """The plan options of a tuner's family, in the order they are declared."""
    return tuple(name for name, o in OPTIONS.items() if o.family is family)


def make_options(names: dict | None = None, pair=lambda what, name, value: f"{what} {name}={value}",
                 **given) -> Options:
    """Options from values, each checked, for the command line, the Python
    API and tuning files alike (`OPTIONS` says what each takes): a TILE as
    an int, a tuple per dimension or the command line's text; a TABLE as
    {size name: value}. `names` says how messages name each option
    (`CLI_NAMES`; default: the keyword), `pair` how they show one
    NAME=VALUE of a table."""
    def name(key):
        return (names or {}).get(key, key)

    unknown = sorted(set(given) - set(OPTIONS))
    if unknown:
        raise PlainError(f"{unknown[0]}: not a plan option", f"the options are {', '.join(OPTIONS)}")
    values = {key: _checked(key, OPTIONS[key], value, name(key), pair) for key, value in given.items()}
    clash = contradiction(values)  # a conflict is refused, never settled silently by one of them
    if clash:
        raise PlainError(f"{name(clash[0])} and {name(clash[1])} contradict each other", "give one of them")
    return Options(**values)


def contradiction(values: dict) -> tuple[str, str] | None:
    """The first two options given among `values` that contradict each other."""
    for key, value in values.items():
        for other in OPTIONS[key].contradicts:
            if _given(value) and _given(values.get(other)):
                return key, other
    return None


def _given(value) -> bool:
    return value not in (None, False, "", ())


def _checked(key: str, option: Option, value, flag: str, pair):
    """One option's value as `Options` holds it, or a PlainError naming it."""
    if option.takes in (Takes.FLAG, Takes.EITHER):
        return _flag(value, flag, option.takes)
    if option.takes is Takes.TILE:
        return _tile(_tile_value(value, flag), flag, option.most)
    if option.takes is Takes.TABLE:
        return _table(_size_table(value, flag), key, option, flag, pair)
    whole = _whole(value, flag)
    if whole is None:
        return None
    fits = option.least <= whole and (option.most is None or whole <= option.most)
    if not fits or (option.valid is not None and not option.valid(whole)):
        raise PlainError(f"{flag} {whole}: {option.words}", option.hint)
    return whole


def _table(table: dict | None, key: str, option: Option, flag: str, pair) -> tuple:
    for size, value in (table or {}).items():
        if value < option.least:
            raise PlainError(f"{pair(flag, size, value)}: a size is a whole number of at least {option.least}")
        if value > target.MAX_SIZE:
            raise PlainError(f"{pair(flag, size, value)}: a kernel indexes each dimension with an int, "
                             f"so a size is at most {target.MAX_SIZE:,}")
    return tuple(sorted((table or {}).items()))


def docs_table() -> str:
    """The Python API's table of plan options (docs/python-api.md holds it; a test compares)."""
    rows = ["| keyword | command line | takes | what it does |", "|---|---|---|---|"]
    for name, o in OPTIONS.items():
        flag = f"`{o.flag}`, `--no-{o.flag[2:]}`" if o.takes is Takes.EITHER else f"`{o.flag}`"
        takes = {Takes.FLAG: "bool", Takes.EITHER: "True, False or None (the plan's choice)",
                 Takes.WHOLE: f"an int ({o.words}); None: the plan's choice",
                 Takes.TILE: f"an int (every dimension, at most {o.most}), a tuple per dimension (None keeps the "
                             "default) or text like `\"16,_\"`",
                 Takes.TABLE: f"a dict of size names to ints of at least {o.least}, e.g. `{{\"n\": 1024}}`"}[o.takes]
        rows.append(f"| `{name}` | {flag} | {takes} | {o.help} |")
    return "\n".join(rows) + "\n"


# ---- the API's values, checked before their ranges: a wrong type is the caller's mistake, named ----------------

def _integer(value) -> int | None:
    """`value` as an int where it is a whole number (NumPy's included; a bool is not one)."""
    return int(value) if isinstance(value, numbers.Integral) and not isinstance(value, bool) else None


def _whole(value, flag: str):
    if value is None:
        return None
    whole = _integer(value)
    if whole is None:
        raise PlainError(f"{flag} {value!r}: a whole number, not a {type(value).__name__}")
    return whole


def _flag(value, flag: str, takes: Takes):
    """An on/off option as a bool (NumPy's too); an EITHER may also be None: the plan's choice."""
    if type(value).__name__ == "bool_":  # NumPy's
        value = bool(value)
    if not isinstance(value, bool) and not (value is None and takes is Takes.EITHER):
        raise PlainError(f"{flag} {value!r}: {takes.value}")
    return value


def _size_table(value, flag: str) -> dict | None:
    """{size name: whole number}, NumPy's integers taken as ints."""
    if value is None:
        return None
    if not isinstance(value, Mapping):
        raise PlainError(f"{flag} {value!r}: a dict of size names to whole numbers, e.g. {{'n': 1024}}")
    table = {}
    for key, v in value.items():
        whole = _integer(v)
        if not isinstance(key, str) or whole is None:
            raise PlainError(f"{flag} {key!r}: {v!r}: a size name and a whole number, e.g. {{'n': 1024}}")
        table[key] = whole
    return table


def _tile_value(value, flag: str):
    """A tile as an int, a tuple of ints (None keeps a dimension's default) or text; NumPy's integers too."""
    if value is None or isinstance(value, str):
        return value
    whole = _integer(value)
    if whole is not None:
        return whole
    if isinstance(value, (tuple, list)) and all(v is None or _integer(v) is not None for v in value):
        return tuple(None if v is None else _integer(v) for v in value)
    raise PlainError(f"{flag} {value!r}: a whole number, a tuple of them (one a dimension) or text such as '16,64'")


def _tile(value, flag: str, limit: int = target.MAX_THREADS_PER_BLOCK) -> tuple:
    if value is None or value == ():  # (the field's own default, given back)
        return ()
    text = value if isinstance(value, str) else tile_text((value,) if isinstance(value, int) else tuple(value))
    return parse_tile(text, flag, limit)


def check_size_names(kernel, options: Options, names: dict | None = None) -> None:
    """The sizes known in advance and the thresholds a user gave name sizes
    of the program (`kernel`: its checked kernel); a misspelt one would be
    ignored, so it is refused with the real names, and a scalar parameter
    named as a size is said to be one. (The bench and the tuner pass a
    spec's derived sizes too: they do not call this.)"""
    real = sorted(b.name for b in kernel.sizes)
    scalars = {p.name for p in kernel.scalar_params}
    for key, given in (("sizes", options.sizes), ("thresholds", options.thresholds)):
        for name, _ in given:
            if name in scalars:
                raise PlainError(f"{(names or {}).get(key, key)} {name}: `{name}` is a scalar parameter, not a size",
                                 "a plan needs no value of it: leave it out")
            if name not in real:
                raise PlainError(f"{(names or {}).get(key, key)} {name}: `{name}` is not a size of this program",
                                 f"its sizes are {', '.join(real)}" if real else "it has no sizes")
