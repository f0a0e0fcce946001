"""What the user steers about a plan (`--tile`, `--no-tile`, `--max-shared`,
`--size`, `--threshold` and the ablations); `explain`, `compile` and `bench`
share one `Options` so that explain shows exactly what compile does."""
from __future__ import annotations

import numbers
from collections.abc import Mapping
from dataclasses import dataclass, fields

from .. import target
from ..errors import PlainError

SHARED_LIMIT = target.STATIC_SHARED_LIMIT


@dataclass(frozen=True)
class Options:
    tile: tuple = ()  # per dimension (None: default), or one size for all
    no_tile: bool = False
    max_shared: int | None = None  # bytes a block may use (--max-shared); None: see shared_limit
    # ablations (the design note's observations; `tiler bench --ablate`):
    copy_along_chunk: bool = False  # lay the chunk on threadIdx.x even where that is uncoalesced
    row_major_tiles: bool = False  # never transpose a tile (and never pad it)
    no_register_tile: bool = False  # one point a thread
    no_vector: bool = False  # scalar global copies
    single_buffer: bool = False  # never double-buffer a register-tiled kernel's tiles
    double_buffer: bool = False  # double-buffer them even past the register budget
    register_tile: tuple = ()  # per dimension, as --register-tile gives it (empty: the plan's choice)
    sizes: tuple = ()  # (size name, value) pairs known before launch: a block need not be wider than its dim
    thresholds: tuple = ()  # (size name, value): run the tiled kernel from this size on (overrides the model)
    chunk: int | None = None  # elements a tiled stream copies at once, instead of the plan's choice
    no_coalesce: bool = False  # leave per-thread rows in global memory (ablation)
    transpose: bool | None = None  # transpose per-thread rows' arrays at launch: always, never, None: where it pays
    no_promote: bool = False  # leave index reads along a stream's position as reads (ablation)
    unroll: int | None = None  # unroll the loop over a staged chunk this many times (None: the compiler decides)
    pack: bool = False  # interleave inputs read at the same index in one shared array
    join_rows: bool | None = None  # stream a loop's rows end to end: always, never, None: where it saves barriers
    no_async: bool = False  # copy tiles through registers, not by cp.async (ablation)
    fast_math: bool = False  # the hardware approximations of math functions (results change)
    interior: bool = False  # blocks wholly inside every dimension run the body without clamps or store guards
    min_blocks: int | None = None  # blocks an SM must hold at once (None: the plan's choice; 0: ptxas's)
    multiprocessors: int = target.MULTIPROCESSORS  # the GPU's SM count (bench and tune read the device's)
    device_shared: int = target.SHARED_LIMIT_ANY_GPU  # the most a block can opt in to (bench and tune read the GPU's)
    no_split: bool = False  # never share a row's reductions among threads (ablation)
    lanes: int | None = None  # threads a row when its reductions are split (None: chosen at launch)
    several_blocks: bool = False  # split rows always by several blocks (of --lanes threads, else 256)
    no_launch_timing: bool = False  # run the model's version without timing it against untiled at a first launch
    # (size name, N): row lengths known only at launch that the plan takes as at most N (plan.py: _bounded);
    # the plan's own choice, never the user's: its kernel runs only where the launch finds them so
    bounds: tuple = ()

    def steers_schedule(self) -> bool:
        """Some option chooses the schedule, or a part of it, instead of the
        plan (an ablation, a tile, a tuned parameter): the launch then runs
        what was asked for, never timing it against the untiled kernel."""
        free = {"sizes", "max_shared", "fast_math", "multiprocessors", "device_shared", "no_launch_timing", "bounds"}
        return any(getattr(self, f.name) != f.default for f in fields(self) if f.name not in free)

    @property
    def launch_timing(self) -> bool:
        """The launch times the plan's tiled version against the untiled kernel
        the first time it meets a set of sizes, and runs the faster from then on."""
        return not (self.no_launch_timing or self.steers_schedule())

    def shared_limit(self, pipelined: bool = False) -> int:
        """The shared memory a block may use: --max-shared's, else 48 KiB
        (static shared memory, on every GPU), but up to the GPU's opt-in
        limit for a register tile copied by cp.async: its stages are what
        hides the loads, and two stages do worse than no cp.async at all."""
        if self.max_shared is not None:
            return self.max_shared
        return self.device_shared if pipelined else SHARED_LIMIT

    def known_size(self, size) -> int | None:
        if isinstance(size, int):
            return size
        return dict(self.sizes).get(getattr(size, "name", None))

    def bounded(self, size) -> bool:
        """Whether the plan takes a bound for this size (known only at launch)."""
        return self.known_size(size) is None and self.row_length(size) is not None

    def row_length(self, size) -> int | None:
        """A row's length as a shared tile is sized: known (`known_size`),
        else the bound the plan assumes for it, else None."""
        known = self.known_size(size)
        return known if known is not None else dict(self.bounds).get(getattr(size, "name", None))

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


# How the command line names each option (the Python API uses the keywords themselves).
CLI_NAMES = {"tile": "--tile", "register_tile": "--register-tile", "max_shared": "--max-shared",
             "sizes": "--size", "thresholds": "--threshold", "chunk": "--chunk", "unroll": "--unroll",
             "min_blocks": "--min-blocks", "no_tile": "--no-tile", "no_register_tile": "--no-register-tile",
             "single_buffer": "--single-buffer", "double_buffer": "--double-buffer",
             "no_launch_timing": "--no-launch-timing", "no_split": "--no-split", "lanes": "--lanes",
             "several_blocks": "--several-blocks"}
MAX_MIN_BLOCKS = 32  # an SM holds at most 32 blocks (sm_90)
MAX_UNROLL = 64  # the most --unroll takes (a chunk loop's body copied more often only grows the code)
MAX_CHUNK = 4096  # the longest chunk --chunk takes (one line of 4096 f32 is 16 KiB of shared memory)


def make_options(names: dict | None = None, pair=lambda what, name, value: f"{what} {name}={value}", *,
                 tile=None, no_tile: bool = False, max_shared: int | None = None, sizes: dict | None = None,
                 thresholds: dict | None = None, register_tile=None, no_register_tile: bool = False,
                 no_vector: bool = False, single_buffer: bool = False, double_buffer: bool = False,
                 chunk: int | None = None, no_coalesce: bool = False, no_promote: bool = False,
                 unroll: int | None = None, pack: bool = False, fast_math: bool = False,
                 no_async: bool = False, transpose: bool | None = None, interior: bool = False,
                 min_blocks: int | None = None, join_rows: bool | None = None,
                 no_launch_timing: bool = False, no_split: bool = False, lanes: int | None = None,
                 several_blocks: bool = False) -> Options:
    """Options from values, each checked, for the command line and the Python
    API alike: `tile` and `register_tile` as an int, a tuple per dimension or
    the command line's text; `sizes` and `thresholds` as {size name: value}.
    `names` says how messages name each option (`CLI_NAMES`; default: the
    keyword), `pair` how they show one NAME=VALUE of a dict option."""
    def name(key):
        return (names or {}).get(key, key)

    flags = _flags(name, no_tile=no_tile, no_register_tile=no_register_tile, no_vector=no_vector,
                   single_buffer=single_buffer, double_buffer=double_buffer, no_coalesce=no_coalesce,
                   no_promote=no_promote, pack=pack, fast_math=fast_math, no_async=no_async, interior=interior,
                   no_launch_timing=no_launch_timing, transpose=transpose, join_rows=join_rows,
                   no_split=no_split, several_blocks=several_blocks)
    no_tile, no_register_tile, single_buffer, double_buffer = (flags[k] for k in (
        "no_tile", "no_register_tile", "single_buffer", "double_buffer"))
    max_shared, chunk, min_blocks, unroll, lanes = (_whole(v, name(k)) for k, v in (
        ("max_shared", max_shared), ("chunk", chunk), ("min_blocks", min_blocks), ("unroll", unroll),
        ("lanes", lanes)))
    sizes, thresholds = _size_table(sizes, name("sizes")), _size_table(thresholds, name("thresholds"))
    tile, register_tile = _tile_value(tile, name("tile")), _tile_value(register_tile, name("register_tile"))

    for first, second, given in (("no_tile", "tile", no_tile and tile not in (None, "")),
                                  ("no_tile", "register_tile", no_tile and register_tile not in (None, "")),
                                  ("no_register_tile", "register_tile",
                                   no_register_tile and register_tile not in (None, "")),
                                  ("single_buffer", "double_buffer", single_buffer and double_buffer),
                                  ("no_split", "lanes", no_split and lanes is not None),
                                  ("no_tile", "lanes", no_tile and lanes is not None),
                                  ("no_split", "several_blocks", no_split and flags["several_blocks"]),
                                  ("no_tile", "several_blocks", no_tile and flags["several_blocks"])):
        if given:  # a conflict is refused, never settled silently by one of them
            raise PlainError(f"{name(first)} and {name(second)} contradict each other", "give one of them")
    if max_shared is not None and max_shared < 0:
        raise PlainError(f"{name('max_shared')} must not be negative")
    if max_shared is not None and max_shared > target.SHARED_LIMIT_ANY_GPU:
        raise PlainError(f"{name('max_shared')} {max_shared}: no GPU gives a block more than "
                         f"{target.SHARED_LIMIT_ANY_GPU} bytes of shared memory", "give at most that")
    if chunk is not None and not 1 <= chunk <= MAX_CHUNK:
        raise PlainError(f"{name('chunk')} {chunk}: a chunk is between 1 and {MAX_CHUNK} elements")
    if min_blocks is not None and not 0 <= min_blocks <= MAX_MIN_BLOCKS:
        raise PlainError(f"{name('min_blocks')} {min_blocks}: between 0 (ptxas chooses) and {MAX_MIN_BLOCKS} "
                         "blocks an SM")
    if lanes is not None and not (target.WARP <= lanes <= target.MAX_THREADS_PER_BLOCK and lanes % target.WARP == 0):
        raise PlainError(f"{name('lanes')} {lanes}: threads a row are whole warps, from {target.WARP} to "
                         f"{target.MAX_THREADS_PER_BLOCK}", "give 32, 64, ..., 1024")
    if unroll is not None and not 1 <= unroll <= MAX_UNROLL:
        raise PlainError(f"{name('unroll')} {unroll}: between 1 (never unroll) and {MAX_UNROLL}")
    hinted = {}
    for key, given, least in (("sizes", sizes, 0), ("thresholds", thresholds, 1)):
        for size, value in (given or {}).items():
            if value < least:
                raise PlainError(f"{pair(name(key), size, value)}: a size is a whole number of at least {least}")
            if value > target.MAX_SIZE:
                raise PlainError(f"{pair(name(key), size, value)}: a kernel indexes each dimension with an int, "
                                 f"so a size is at most {target.MAX_SIZE:,}")
        hinted[key] = tuple(sorted((given or {}).items()))
    return Options(tile=_tile(tile, name("tile")), max_shared=max_shared, sizes=hinted["sizes"],
                   thresholds=hinted["thresholds"], register_tile=_tile(register_tile, name("register_tile"), 64),
                   chunk=chunk, unroll=unroll, min_blocks=min_blocks, lanes=lanes, **flags)


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


def _flags(name, **given) -> dict:
    """The on/off options as bools (`transpose` and `join_rows` may also be None: the plan's choice)."""
    out = {}
    for key, value in given.items():
        if type(value).__name__ == "bool_":  # NumPy's
            value = bool(value)
        if not isinstance(value, bool) and not (value is None and key in ("transpose", "join_rows")):
            either = "True, False or None" if key in ("transpose", "join_rows") else "True or False"
            raise PlainError(f"{name(key)} {value!r}: {either}")
        out[key] = value
    return out


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
    if value is None or value == "":
        return ()
    text = value if isinstance(value, str) else tile_text((value,) if isinstance(value, int) else tuple(value))
    return parse_tile(text, flag, limit)


def check_size_names(sizes, options: Options, names: dict | None = None) -> None:
    """The sizes known in advance and the thresholds a user gave name sizes
    of the program (`sizes`: its size binders); a misspelt one would be
    ignored, so it is refused with the real names. (The bench and the tuner
    pass a spec's derived sizes too: they do not call this.)"""
    real = sorted(b.name for b in sizes)
    for key, given in (("sizes", options.sizes), ("thresholds", options.thresholds)):
        for name, _ in given:
            if name not in real:
                raise PlainError(f"{(names or {}).get(key, key)} {name}: `{name}` is not a size of this program",
                                 f"its sizes are {', '.join(real)}" if real else "it has no sizes")
