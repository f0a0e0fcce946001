"""The kernel IR's kernels: a `Kernel` (its parameters, shared
allocations, block and grid, the stages a launch runs before it), a
`Version` (a kernel and the launch condition that selects it) and a
`Module` (a program's versions).
"""
from __future__ import annotations

import dataclasses
import functools
import math
from dataclasses import dataclass, field

from .. import target
from ..source import Span
from .build import rewrite
from .nodes import Bin, Cast, Const, MatrixZero, Ref, TmaBarriers, _span
from .walkers import evaluate, statements, walk


@dataclass(frozen=True)
class Param:
    name: str
    ctype: str
    role: str  # "input" (array), "output" (array), "scalar", "size", "scratch" (the launch's own array)
    source: str = ""  # the .fut name it stands for
    shape: tuple = ()  # size names or numbers, outermost first (arrays)
    # `source` with its last two axes swapped (`shape` is those), copied by the launch into scratch memory first
    transposed: bool = False
    box: tuple = ()  # a TENSOR_MAP's box (innermost first, elements) over the array param `array` (of `shape`)
    array: str = ""
    swizzled: bool = True  # a TENSOR_MAP's boxes land with the 128-byte swizzle (False: as they lie)

    @property
    def pointer(self) -> bool:
        return self.role in ("input", "output")

    @property
    def source_shape(self) -> tuple:
        """The shape of the program's array the parameter holds."""
        return self.shape[:-2] + (self.shape[-1], self.shape[-2]) if self.transposed else self.shape


SCRATCH = "scratch"
TENSOR_MAP = "tensor map"  # a TMA descriptor of an input array, made by the launch and passed by value


@dataclass(frozen=True)
class Scratch:
    """Global memory a launch takes for its kernels' partial results (and
    gives back after them): `count` elements, an expression over size names."""

    name: str  # the kernels' parameter
    ctype: str
    count: object
    why: str = ""


@dataclass(frozen=True)
class SharedAlloc:
    name: str
    ctype: str
    elems: int
    # allocations it shares its bytes with: each is dead wherever this one is live (the matrix units' staging
    # tile over the tiles of the chunks it sums, read only after the last of them: transform/matrix_units.py)
    over: tuple[str, ...] = ()
    align: int = target.DYNAMIC_SHARED_ALIGN  # the byte boundary it starts on (a swizzled tile: target.WGMMA_ALIGN)
    # where the launch decides its elements: their factors (a tile's extent along each axis), expressions
    # over the kernel's sizes and int scalars (`elems` is then 0); such allocations lie in the dynamic buffer
    # after every other, in order
    extents: tuple = ()

    @property
    def bytes(self) -> int:
        return target.SIZEOF[self.ctype] * self.elems

    @property
    def sized_at_launch(self) -> bool:
        return bool(self.extents)

    def launch_bytes(self):
        """Its bytes at a launch as an expression (64-bit), rounded up to whole 16-byte lines."""
        line = target.DYNAMIC_SHARED_ALIGN
        count = Const(target.SIZEOF[self.ctype], target.INDEX)
        for extent in self.extents:
            count = Bin("*", count, Cast(target.INDEX, extent))
        return Bin("*", Bin("/", Bin("+", count, Const(line - 1, target.INDEX)), Const(line, target.INDEX)),
                   Const(line, target.INDEX))


@dataclass(frozen=True)
class Kernel:
    name: str
    params: tuple[Param, ...]
    shared: tuple[SharedAlloc, ...]
    body: tuple
    block: tuple[int, int, int]  # threads along x, y, z
    # per axis x, y, z: (size name or number, threads along it), with at most so many blocks a third item; or None
    grid: tuple
    tiled: bool
    source: str
    summary: tuple[str, ...]  # the plan, in words, for the header comment
    span: Span | None = _span()
    divisible: tuple = ()  # (size name, k): the launch guarantees k divides the size
    wide: bool = False  # flat offsets into arrays of two or more dimensions are 64-bit
    fixed: tuple = ()  # (size name, value): shared tiles sized for this value; the launch runs it only there
    bounds: tuple = ()  # (size name, value): shared tiles hold rows this long at most; the launch runs it only there
    interior: bool = False  # blocks inside every dim run a copy of the body without clamps (transform/unclamp.py)
    occupancy: int | None = None  # the blocks an SM the plan asks for (BlockPlan.min_blocks); None: ptxas's choice
    lanes: int = 0  # threads a row that share its reductions (lower/split.py); 0: a thread a point
    # kernels the launch runs before this one, in order, with their own grids; they share `scratch` with it
    stages: tuple["Kernel", ...] = ()
    scratch: tuple[Scratch, ...] = ()
    rewrites: tuple[str, ...] = ()  # the transforms that rewrote its body, in order (tiler/transform/)
    # (step, body): its body as lower wrote it for one point a thread, then after each register tiling
    # rewrite (transform/register_tile.py); () where none ran. Explain reads it (--show-rewrites)
    trace: tuple = field(default=(), repr=False, compare=False)
    once: bool = False  # it computes work of no map level's names once a launch (the first of another's stages)
    # where the launch sizes some of its shared memory: the most it passes (its version's condition), which
    # the launch raises the kernel's limit to (a limit that changed with each launch's bytes would make a
    # launch on another thread fail between this one's raise and its launch)
    shared_limit: int = 0
    # (size name, value): a dim on grid y or z with no loop over its blocks (its size given when compiled):
    # the launch runs it only where the size is at most the grid's blocks along the axis times a block's points
    grid_bounds: tuple = ()

    @property
    def split_stages(self) -> tuple["Kernel", ...]:
        """Its stages but the one computing work of no map level's names: a split's or a fissioned fold's pairs'."""
        return tuple(s for s in self.stages if not s.once)

    @property
    def launches(self) -> tuple["Kernel", ...]:
        """What a launch of this kernel runs: its stages, then itself."""
        return self.stages + (self,)

    def renamed_by(self, rename) -> "Kernel":
        """The kernel and its stages named `rename(name)` (a stage several versions launch: one name in each)."""
        return dataclasses.replace(self, name=rename(self.name),
                                   stages=tuple(dataclasses.replace(s, name=rename(s.name)) for s in self.stages))

    def renamed(self, name: str) -> "Kernel":
        """The kernel called `name`, its stages after it (`<name>_stage<i>`)."""
        return dataclasses.replace(self, name=name, stages=tuple(
            dataclasses.replace(s, name=stage_name(name, i)) for i, s in enumerate(self.stages)))

    @property
    def transposes(self) -> tuple[Param, ...]:
        """The inputs the launch transposes before this kernel runs."""
        return tuple(p for p in self.params if p.transposed)

    @property
    def min_blocks(self) -> int | None:
        """The blocks an SM must hold at once (`__launch_bounds__`' second
        bound), or None to leave it to ptxas: the plan's (occupancy.py). A
        64-bit version asks for one: ptxas then gives it the registers its
        wider offsets need rather than spill them to keep two blocks (a
        register-tiled kernel did, by 32 bytes); it runs only on arrays past
        2^31 elements."""
        return 1 if self.wide else self.occupancy

    @property
    def shared_bytes(self) -> int:
        # each array starts 16-byte aligned, static (`__align__(16)`, as ptxas lays them out) and dynamic
        # (shared_offsets) alike: the bytes up to the last one's end
        return max((offset + a.bytes for a, offset in self.shared_offsets() if not a.sized_at_launch), default=0)

    @property
    def dynamic_shared(self) -> bool:
        """Over 48 KiB, shared memory must be dynamic (and the launch must
        raise its limit); so must allocations that share bytes, which static
        arrays cannot, and those the launch sizes."""
        return self.shared_bytes > target.STATIC_SHARED_LIMIT or any(a.over for a in self.shared) or \
            self.shared_align > target.DYNAMIC_SHARED_ALIGN or self.sized_at_launch

    @property
    def sized_at_launch(self) -> tuple[SharedAlloc, ...]:
        """Its shared allocations whose elements the launch decides."""
        return tuple(a for a in self.shared if a.sized_at_launch)

    def launch_extents(self) -> tuple:
        """The extents of its allocations sized at launch, over the program's names (each at most a launch's
        bytes: a test of them first keeps their product from passing 64 bits)."""
        return tuple(self._sourced(e) for a in self.sized_at_launch for e in a.extents)

    def _sourced(self, e):
        """`e` over the program's names for its sizes and scalars (the launch's), not the kernel's."""
        sources = {p.name: p.source for p in self.params if p.role in ("size", "scalar")}
        return rewrite(e, lambda x: Ref(sources.get(x.name, x.name)) if isinstance(x, Ref) else None)

    def launch_shared(self):
        """The dynamic shared memory a launch passes, in bytes, as an
        expression over the program's size names, and its int scalars'
        where a tile's extent is computed from one (a Const where no
        allocation is sized at launch)."""
        fixed = self.dynamic_shared_bytes
        if not self.sized_at_launch:
            return Const(fixed, "int")
        line = target.DYNAMIC_SHARED_ALIGN
        out = Const(-(-fixed // line) * line, target.INDEX) if fixed else None
        for a in self.sized_at_launch:
            out = a.launch_bytes() if out is None else Bin("+", out, a.launch_bytes())
        return self._sourced(out)

    @property
    def scalars_read(self) -> tuple[str, ...]:
        """The program's scalars its launches' shared memory is sized by (Module.scalars_read)."""
        names = {p.source for k in self.launches for p in k.params if p.role == "scalar"}
        return tuple(sorted({n.name for k in self.launches for n in walk(k.launch_shared())
                             if isinstance(n, Ref) and n.name in names}))

    def launch_values(self, sizes: dict, inputs: dict) -> dict:
        """The sizes, and the values of the scalars its shared memory is sized by, by name."""
        return with_scalars(sizes, inputs, self.scalars_read)

    @property
    def raised_shared(self) -> int:
        """The dynamic shared memory limit a launch raises the kernel's to (0:
        none): its fixed bytes, or for one the launch sizes, the most it may
        pass where that is over the 48 KiB every launch may take."""
        if self.sized_at_launch:
            return self.shared_limit if self.shared_limit > target.STATIC_SHARED_LIMIT else 0
        return self.dynamic_shared_bytes

    def shared_at(self, sizes: dict) -> int:
        """The dynamic shared memory a launch at these sizes (by name) passes, in bytes."""
        return int(evaluate(self.launch_shared(), sizes))

    @property
    def static_shared_bytes(self) -> int:
        """As ptxas counts: tiles where not dynamic, TMA's mbarriers rounded up to 16 bytes (3 took 32, 6 took 48)."""
        bars = sum(s.bytes for s in walk(self.body) if isinstance(s, TmaBarriers))  # (no recursion: 1,500 loops)
        return (0 if self.dynamic_shared else self.shared_bytes) + -(-bars // 16) * 16

    @property
    def dynamic_shared_bytes(self) -> int:
        """What the launch passes as its dynamic shared memory (with the
        slack that finding a wider boundary in the buffer may skip)."""
        return self.shared_bytes + target.alignment_slack(self.shared_align) if self.dynamic_shared else 0

    def shared_offsets(self) -> list[tuple]:
        """(allocation, byte offset) in the dynamic buffer, each aligned, in
        the kernel's order; the allocations one shares its bytes with come
        first, the sharing one at their start, and the rest after the longer
        of the two; those sized at launch last, each offset an expression
        over the kernel's sizes."""
        def up(offset: int, align: int) -> int:
            return (offset + align - 1) // align * align
        covered = {n for a in self.shared for n in a.over}
        sharing = [a for a in self.shared if a.over]
        first = [a for a in self.shared if a.name in covered]
        at, offset = {}, 0
        for a in first:
            at[a.name] = up(offset, a.align)
            offset = at[a.name] + up(a.bytes, target.DYNAMIC_SHARED_ALIGN)
        for a in sharing:
            at[a.name], offset = 0, max(offset, up(a.bytes, target.DYNAMIC_SHARED_ALIGN))
        for a in self.shared:
            if a.name not in at and not a.sized_at_launch:
                at[a.name] = up(offset, a.align)
                offset = at[a.name] + up(a.bytes, target.DYNAMIC_SHARED_ALIGN)
        placed = Const(up(offset, target.DYNAMIC_SHARED_ALIGN), target.INDEX)
        for a in self.sized_at_launch:
            at[a.name] = placed
            placed = Bin("+", placed, a.launch_bytes())
        return [(a, at[a.name]) for a in self.shared]

    @property
    def shared_align(self) -> int:
        """The boundary the dynamic buffer starts on: its most demanding allocation's."""
        return max((a.align for a in self.shared), default=target.DYNAMIC_SHARED_ALIGN)

    @property
    def shared_declaration(self) -> str:
        """A static shared array's qualifiers."""
        return target.SHARED

    @property
    def dynamic_shared_declaration(self) -> str:
        """The dynamic buffer, and where its allocations start a boundary
        wider than its own, the first such boundary in it."""
        if self.shared_align == target.DYNAMIC_SHARED_ALIGN:
            return target.DYNAMIC_SHARED
        return f"{target.DYNAMIC_SHARED};\n  {target.ALIGNED_SHARED.format(mask=self.shared_align - 1)}"

    @property
    def shared_base(self) -> str:
        """What the dynamic buffer's allocations are placed from."""
        return target.DYNAMIC_SHARED_BUFFER if self.shared_align == target.DYNAMIC_SHARED_ALIGN else \
            target.ALIGNED_SHARED_BUFFER

    @property
    def matrix_units(self) -> bool:
        """Its body runs the matrix units (tensor cores): the module includes mma.cuh."""
        return any(isinstance(s, MatrixZero) for s in statements(self.body))

    @property
    def threads(self) -> int:
        return self.block[0] * self.block[1] * self.block[2]

    def runs_at(self, sizes: dict) -> bool:
        """Whether the kernel may be launched at these sizes (its vector
        accesses stay aligned: every `divisible` fact holds; the sizes its
        tiles were sized by are these, and within its tiles' bounds), and so
        may each of its stages (split-K's stage of tiles bounded at d <= 64)."""
        return all(sizes[name] % k == 0 for name, k in self.divisible) and \
            all(sizes[name] == v for name, v in self.fixed) and all(sizes[name] <= v for name, v in self.bounds) and \
            all(sizes[name] <= v for name, v in self.grid_bounds) and \
            all(s.runs_at(sizes) for s in self.stages)

    def grid_dims(self, sizes: dict) -> tuple[int, int, int]:
        """Blocks along x, y, z for the sizes of a launch (by size name)."""
        def blocks(a):
            n = math.ceil((sizes[a[0]] if isinstance(a[0], str) else a[0]) / a[1])
            return min(n, a[2]) if len(a) > 2 else n
        return tuple(1 if a is None else blocks(a) for a in self.grid)

    def grid_formulas(self, capped: bool = True) -> list[str]:
        """Blocks along x, y, z as formulas of the sizes; `capped` off: the
        blocks a dim has, where a loop walks those past an axis's limit."""
        def formula(a):
            text = str(a[0]) if a[1] == 1 else f"ceil({a[0]} / {a[1]})"
            return f"min({text}, {a[2]})" if len(a) > 2 and capped else text
        return ["1" if a is None else formula(a) for a in self.grid]


def with_scalars(sizes: dict, inputs: dict, names: tuple) -> dict:
    """The sizes and the int scalars `names` of a launch's inputs, by name (what its conditions and shared
    memory are evaluated over)."""
    return {**sizes, **{n: int(inputs[n]) for n in names}}


def stage_name(kernel: str, i: int) -> str:
    """The name of a kernel's `i`-th stage."""
    return f"{kernel}_stage{i}"


@dataclass(frozen=True)
class Version:
    """One kernel of a module and when it runs: the first version whose
    condition holds for the launch's sizes is launched."""

    kernel: Kernel
    condition: object = None  # an expression over size names (Refs); None: always
    why: str = ""
    # the condition asks that the grid give a block to at least 1 in `grid_share` of the GPU's SMs (it names
    # target.MULTIPROCESSORS_NAME); 0: it does not
    grid_share: int = 0
    # the kernel (a version of the module, by name) the launch times this one against the first time it meets
    # a set of sizes, running the faster for those sizes from then on; "": none
    rival: str = ""
    # its stage computes a fold's values for every pair into scratch memory, which its kernel folds
    fissioned: bool = False
    # it runs only for launches of few points (a split of reductions over inputs other points read too,
    # reductions.FEW_POINTS_AN_SM): the plan's own versions follow it
    few: bool = False
    # a split-K or window version: a first launch races it against the next version whose condition holds
    # (the split for few points it would otherwise be, or the plan's version) before the version for more
    # points and its rival (Module.ahead)
    ahead: bool = False
    # the record it was lowered from (versions.records.Version: its kind, its tests as data), for explain
    plan: object = field(default=None, repr=False, compare=False)

    @property
    def races_first(self) -> bool:
        """A raced version (launch timing on) that a first launch races
        against another before its rival: the next version whose condition
        holds (`ahead`: Module.ahead), then, for few points, the version for
        more points (`few`: Module.fallback); the C launcher does the same."""
        return (self.few or self.ahead) and bool(self.rival)

    @property
    def plain(self) -> bool:
        """One of the plan's versions for more points: neither for few points
        nor racing the next version first (Module.main, Module.fallback)."""
        return not self.few and not self.ahead


@dataclass(frozen=True)
class Module:
    source: str
    versions: tuple[Version, ...]
    notes: tuple[str, ...] = ()  # what holds for every version (--fast-math), for the header comment
    stem: str = ""  # the name in its kernels' and launcher's symbols (--name); "": the program file's

    @property
    def kernels(self) -> tuple[Kernel, ...]:
        """The versions' kernels (each launched with its stages)."""
        return tuple(v.kernel for v in self.versions)

    @property
    def functions(self) -> tuple[Kernel, ...]:
        """Every kernel the CUDA defines: each version's stages, then its
        kernel; a stage several versions launch (a fissioned version's pairs' kernel) once."""
        first: dict[str, Kernel] = {}
        for s in (s for k in self.kernels for s in k.launches):
            first.setdefault(s.name, s)
        return tuple(first.values())

    @property
    def reads_multiprocessors(self) -> bool:
        """Some version's condition asks for the GPU's SM count."""
        return any(v.grid_share or any(isinstance(n, Ref) and n.name == target.MULTIPROCESSORS_NAME
                                       for n in walk(v.condition)) for v in self.versions)

    @functools.cached_property
    def scalars_read(self) -> tuple[str, ...]:
        """The program's scalar parameters a launch's choice or its shared
        memory depends on (a window's length passed as an int): the launch
        evaluates its conditions over them as over the sizes, and a race's
        winner is remembered by them too."""
        names = {p.source for p in self.params if p.role == "scalar"}
        found = {n.name for v in self.versions for n in walk(v.condition) if isinstance(n, Ref) and n.name in names}
        return tuple(sorted(found.union(*(v.kernel.scalars_read for v in self.versions))))

    def launch_values(self, sizes: dict, inputs: dict) -> dict:
        """The sizes, and the values of the scalars the launch reads (`scalars_read`), by name."""
        return with_scalars(sizes, inputs, self.scalars_read)

    @property
    def main(self) -> Kernel:
        """The version the plan is for (the others are fallbacks, or, before
        it, splits that run only for few points and a fissioned fold's
        versions, made from two other programs' plans)."""
        return next((v.kernel for v in self.versions if v.plain and not v.fissioned), self.versions[0].kernel)

    @property
    def params(self) -> tuple[Param, ...]:
        """What a launch is given: every array as the program has it (a
        version that reads an input transposed gets the launch's copy)."""
        plain = next((k for k in self.kernels if not k.transposes), None)
        if plain is None:
            raise ValueError(f"every version of {self.main.name} reads an input transposed")
        return tuple(p for p in plain.params if p.role not in (SCRATCH, TENSOR_MAP))

    @property
    def timed(self) -> bool:
        """Some version is timed against a rival at a first launch."""
        return any(v.rival for v in self.versions)

    def select(self, sizes: dict, multiprocessors: int = target.MULTIPROCESSORS) -> Kernel:
        """The version whose condition picks it for a launch at these sizes on
        a GPU of this many SMs (before any timing against its rival)."""
        return self.versions[self.picked(sizes, multiprocessors)].kernel

    def picked(self, sizes: dict, multiprocessors: int = target.MULTIPROCESSORS) -> int:
        """The index of the first version whose condition holds."""
        for i, v in enumerate(self.versions):
            if self.holds(v, sizes, multiprocessors):
                return i
        raise ValueError(f"no version of {self.main.name} runs at {sizes}")

    def fallback(self, sizes: dict, multiprocessors: int = target.MULTIPROCESSORS) -> Kernel | None:
        """Where the conditions pick a version for few points that is raced
        (launch timing on): the kernel of the first version for more points
        whose condition holds (neither for few points nor racing the next
        version first: the plan's own), which a first launch races it against
        before its rival; else None."""
        picked = self.versions[self.picked(sizes, multiprocessors)]
        if not (picked.few and picked.races_first):
            return None
        return next((v.kernel for v in self.versions if v.plain and self.holds(v, sizes, multiprocessors)), None)

    def ahead(self, sizes: dict, multiprocessors: int = target.MULTIPROCESSORS) -> Kernel | None:
        """Where the conditions pick a raced version that races the next one
        first (Version.ahead): the kernel of the first later version whose
        condition holds (not a fissioned one: a fissioned version races the
        kernel as written); else None."""
        n = self.picked(sizes, multiprocessors)
        if not (self.versions[n].ahead and self.versions[n].races_first):
            return None
        return next((v.kernel for v in self.versions[n + 1:] if not v.fissioned and self.holds(v, sizes, multiprocessors)),
                    None)

    @staticmethod
    def holds(v: Version, sizes: dict, multiprocessors: int = target.MULTIPROCESSORS) -> bool:
        """Whether a version's launch condition holds at these sizes on a GPU of this many SMs."""
        return v.condition is None or bool(evaluate(v.condition, {**sizes, target.MULTIPROCESSORS_NAME: multiprocessors}))

    def version(self, kernel: Kernel) -> Version:
        """The version that launches `kernel`."""
        return next(v for v in self.versions if v.kernel.name == kernel.name)

    def rival(self, kernel: Kernel) -> Kernel | None:
        """The kernel a launch times `kernel` against, if any."""
        name = next((v.rival for v in self.versions if v.kernel.name == kernel.name), "")
        return next((v.kernel for v in self.versions if v.kernel.name == name), None) if name else None

    def named(self, stem: str, old: str) -> "Module":
        """The module with `old`, the program file's name in every kernel's
        symbol (`tiler_<old>_tiled`), replaced by `stem`, and its launcher named so."""
        def rename(name: str) -> str:
            return f"tiler_{stem}_" + name.removeprefix(f"tiler_{old}_") if name else name
        versions = tuple(dataclasses.replace(v, kernel=v.kernel.renamed_by(rename),
                                             rival=rename(v.rival)) for v in self.versions)
        return dataclasses.replace(self, versions=versions, stem=stem)

    def replace_kernels(self, fn) -> "Module":
        """The module with `fn` applied to every kernel (passes over kernels)."""
        return dataclasses.replace(self, versions=tuple(dataclasses.replace(v, kernel=fn(v.kernel))
                                                        for v in self.versions))
