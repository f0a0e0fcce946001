"""The one function that lowers a program's versions into its module:
`lower_versions(Versions) -> kir.Module`.

Each version's kernel is lowered once (lower/: one kernel for one schedule
or split), its launch condition written as a C expression over size names,
its rival named. What the records leave to the lowered kernel is settled
here: the sizes a kernel's 128-bit copies need to be multiples of 4 (where
there are any, and the verifier proves the copies aligned, the vector
kernel runs for aligned sizes and its scalar twin for the others), and the
blocks its grid has. Each kir.Version keeps the record it came from (`plan`),
with its half of a vector pair, for explain.
"""
from __future__ import annotations

import dataclasses
import re

from .. import kir, target
from ..analyse.scans import SCAN_LANES
from ..errors import CompilerBug
from ..kir.build import ceil_div, const
from ..kir.verify import Fault, check
from ..lower import lower_schedule, lower_several, lower_split
from ..lower.march import lower_march
from ..lower.scan import lower_scan
from ..lower.split_k import lower_split_k
from ..lower.values import all_of, any_of, joined, product
from ..source import program_stem
from .records import (
    ALIGNED,
    LOOPED,
    SCALAR,
    Aligned,
    All,
    AnyOf,
    AtLeast,
    AtMost,
    Build,
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
from .shown import shown_builds


def lower_versions(vs: Versions) -> kir.Module:
    """The module: every version's kernel, in order, under its condition
    (the looped fallback only where the launch can reach it: no version
    before it runs always, and one has grid bounds)."""
    lowering = _Lowering()
    out = [v for version in vs.versions for v in lowering.versions(version)]
    if out[-1].kernel.name.endswith(LOOPED) and (any(v.condition is None for v in out[:-1]) or
                                                 not any(s.grid_bounds for v in out[:-1] for s in v.kernel.launches)):
        out.pop()
    if vs.launch is not None:
        first = [_once(_lowered(b)) for b in vs.launch]
        out = [dataclasses.replace(v, kernel=_launching(v.kernel, first[v.kernel.wide])) for v in out]
    names = [v.kernel.name for v in out]
    if len(set(names)) != len(names):
        raise CompilerBug(f"two versions of {vs.file} would share a kernel's name")
    return kir.Module(vs.file, tuple(out), vs.notes)


class _Lowering:
    """Lowers each Build once (several versions launch the same kernel)."""

    def __init__(self):
        self.kernels: dict[tuple, kir.Kernel] = {}

    def kernel(self, b: Build) -> kir.Kernel:
        if b.key not in self.kernels:
            self.kernels[b.key] = _lowered(b)
        return self.kernels[b.key]

    def versions(self, v: Version) -> list[kir.Version]:
        """The kir versions one record becomes (a vector pair: one or two)."""
        if v.kind is Kind.FISSIONED:
            # (a pairs' kernel taking TMA maps, the matrix units' warp groups reading in place: no launch makes a
            # stage's maps, so that version is left out and the module's own versions run; before, its CUDA did
            # not compile: `mlp --tensor-cores --arch sm_90a -s d=2050`)
            fissioned = self._fissioned(v)
            return [] if any(p.role == kir.TENSOR_MAP for p in fissioned.kernel.stages[0].params) else [fissioned]
        if v.copies in (Copies.VECTOR_OR_SCALAR, Copies.VECTOR_OR_SCALAR_WIDE):
            return self._pair(v)
        return [self._version(v, self.kernel(v.build), v.why, v.copies)]

    def _version(self, v: Version, k: kir.Kernel, why: str, copies: Copies) -> kir.Version:
        """The version of kernel `k` under the record's condition (a scalar
        kernel's without the alignment test), keeping the record, its copies
        resolved."""
        record = dataclasses.replace(v, copies=copies)
        return kir.Version(k, within_grid(condition(record.launch_condition, k), k), why, record.grid_share,
                           v.rival.name if v.rival is not None else "", few=v.build.few, ahead=v.ahead,
                           plan=record)

    def _pair(self, v: Version) -> list[kir.Version]:
        """The vector kernel for sizes that keep its rows aligned, then the
        scalar one; where no size needs testing, or the vectors cannot be
        proven aligned, one of them alone (which, by the offsets: a 32-bit
        version keeps the vector kernel where nothing needs testing)."""
        vector = self.kernel(v.build)
        scalar_build = dataclasses.replace(v.build, vectors=False)
        if v.vector_alone and vector.divisible and _verified(vector):
            return [self._version(v, vector, joined(v.why, ALIGNED), Copies.VECTOR)]
        if v.copies is Copies.VECTOR_OR_SCALAR_WIDE:
            if not vector.divisible or not _verified(vector):  # no vector copies, or unaligned: scalar alone
                return [self._version(v, self.kernel(scalar_build), v.why, Copies.SCALAR)]
            scalar = self.kernel(dataclasses.replace(scalar_build, suffix=SCALAR + scalar_build.suffix))
            return [self._version(v, vector, joined(v.why, ALIGNED), Copies.VECTOR),
                    self._version(v, scalar, joined(v.why, "scalar copies for the other sizes"), Copies.SCALAR_HALF)]
        if not vector.divisible:  # no size to test: the vector kernel alone
            return [self._version(v, vector, joined(v.why, v.note) or "the only version", Copies.PLANNED)]
        scalar = self.kernel(dataclasses.replace(scalar_build, suffix=SCALAR + scalar_build.suffix))
        if not _verified(vector):  # the verifier cannot prove them aligned: the scalar kernel alone
            return [self._version(v, scalar, joined(v.why, v.note) or "the only version", Copies.SCALAR)]
        single = ", in one buffer where two would spill registers" if scalar.shared_bytes < vector.shared_bytes else ""
        why = f"scalar copies for the other sizes{single}" + (f"; {v.why}" if v.fallback else "")
        return [self._version(v, vector, joined(ALIGNED, v.note), Copies.VECTOR),
                self._version(v, scalar, joined(why, v.note), Copies.SCALAR_HALF)]

    def _fissioned(self, v: Version) -> kir.Version:
        """The fold's kernel launching the pairs' as its stage, which writes
        every pair's value into scratch memory the fold reads."""
        fold, pair = self.versions(v.fold)[-1], self.versions(v.pair)[-1]  # a vector record's scalar half
        scratch_name = v.scratch
        pairs_kernel = _pairs_kernel(pair.kernel, scratch_name)
        written = _output(pairs_kernel)
        scratch = kir.Scratch(scratch_name, written.ctype, product(written.shape, wide=True),
                              "the value of every pair, which the fold reads")
        k = fold.kernel
        params = tuple(dataclasses.replace(p, role=kir.SCRATCH) if p.source == scratch_name else p for p in k.params)
        if sum(p.role == kir.SCRATCH for p in params) != 1 or not any(p.name == scratch.name for p in params):
            raise CompilerBug(f"the fold of {v.fold.build.file} does not read the pairs' values as `{scratch.name}`")
        # the first pairs' kernel keeps the fold's name; each other adds its own (unique in the pairs' module)
        prefix = f"tiler_{program_stem(v.pair.build.file)}_"
        suffix = "_" + pairs_kernel.name.removeprefix(prefix) if v.pair_index else ""
        kernel = dataclasses.replace(k, name=k.name + suffix, params=params, stages=(pairs_kernel,),
                                     scratch=(scratch,))
        why = joined("the pairs' values first" + (f" ({pair.why})" if v.pair_index and pair.why else ""), fold.why)
        # the gates, the pairs' kernel's condition (its grid's tests on its own grid), then the fold's
        return kir.Version(kernel, within_grid(condition(v.condition, k, pairs_kernel), kernel), why,
                           grid_share=v.grid_share,
                           rival=v.rival.name if v.rival is not None else "", ahead=v.ahead, fissioned=True, plan=v)


def _once(k: kir.Kernel) -> kir.Kernel:
    """The kernel computing work of no map level's names once a launch, its
    outputs (one element each) the scratch arrays the launch's other kernels
    read them from."""
    return dataclasses.replace(k, params=tuple(dataclasses.replace(p, role=kir.SCRATCH, source=p.name)
                                               if p.role == "output" else p for p in k.params), once=True)


def _launching(k: kir.Kernel, first: kir.Kernel) -> kir.Kernel:
    """Kernel `k` launching `first` before its stages, sharing the scratch
    arrays `first` writes (one value each)."""
    written = [p for p in first.params if p.role == kir.SCRATCH]
    names = {p.name for p in k.params}
    # (its inputs are the launcher's arrays, whatever the kernel's reads of them: a transposed copy's name)
    missing = [p.name for p in first.params if p.role in (kir.SCRATCH, "size", "scalar") and p.name not in names]
    if missing or not written:
        raise CompilerBug(f"{k.name} does not take what the kernel computing its values once a launch does "
                          f"({', '.join(missing)})")
    scratch = tuple(kir.Scratch(p.name, p.ctype, const(1), f"the value of `{re.sub(r'^tiler_launch[0-9]+_', '', p.name)}`"
                                                            ", computed once a launch") for p in written)
    return dataclasses.replace(k, stages=(first,) + k.stages, scratch=k.scratch + scratch)


def _pairs_kernel(k: kir.Kernel, scratch: str) -> kir.Kernel:
    """The pairs' kernel writing `scratch` (its output, as the fold names it)."""
    written = _output(k)
    if written.name != scratch:
        raise CompilerBug(f"the pairs' kernel writes `{written.name}`, not `{scratch}`")
    return dataclasses.replace(k, params=tuple(dataclasses.replace(p, role=kir.SCRATCH) if p is written else p
                                               for p in k.params))


def _output(k: kir.Kernel) -> kir.Param:
    outs = [p for p in k.params if p.role in ("output", kir.SCRATCH)]
    if len(outs) != 1:
        raise CompilerBug(f"the pairs' kernel {k.name} has {len(outs)} outputs")
    return outs[0]


def _lowered(b: Build) -> kir.Kernel:
    """One kernel as lower makes it, named as its version names it."""
    if b.march:
        return lower_march(b.source, b.source.plan.march.march, b.file)
    if b.scan is not None:
        k = lower_scan(b.source, b.scan, b.file, b.lanes or SCAN_LANES)
        return k.renamed(k.name + b.suffix) if b.suffix else k
    if b.k_split:
        k = lower_split_k(b.source, b.split, b.schedule, b.lanes, b.file, b.columns, b.vectors, b.name)
    elif b.split is not None:
        lowering = lower_several if b.several else lower_split
        k = lowering(b.source, b.split, b.lanes, b.file, b.wide, b.columns)
    else:
        k = lower_schedule(b.source, b.schedule, b.file, b.vectors, b.wide, b.transposed, looped=b.looped)
    if b.window:  # (lower names a kernel by its schedule's tiling: a window version is named by its record)
        k = k.renamed(b.name)
        if k.sized_at_launch:  # (the most its launches pass: SharedFits)
            k = dataclasses.replace(k, shared_limit=b.source.plan.window.halos.limit)
    elif b.suffix:
        k = k.renamed(k.name + b.suffix)
    if k.name != b.name:
        raise CompilerBug(f"lower named a kernel {k.name}, its version {b.name}")
    return k


def _verified(vector: kir.Kernel) -> bool:
    """Whether the kernel with vector copies verifies: False where the
    verifier cannot prove its vector accesses aligned (the launch then runs
    the scalar kernel alone); any other problem raises a CompilerBug naming
    the kernel, never a slower kernel."""
    return check(vector, frozenset({Fault.UNALIGNED}))


# ---- conditions: each test as a C expression over size names (and the GPU's SM count) -----------------


def condition(c, k: kir.Kernel, stage: kir.Kernel | None = None):
    """The test `c` as the launch evaluates it for kernel `k` (`stage`: its
    stage's kernel, for tests OnStage); None: always."""
    if c is None:
        return None
    if isinstance(c, All):
        return all_of(condition(p, k, stage) for p in c.parts)
    if isinstance(c, AnyOf):
        return any_of(condition(p, k, stage) for p in c.parts)
    if isinstance(c, OnStage):
        if stage is None:
            raise CompilerBug(f"a test of a stage in a version without one: {c!r}")
        return condition(c.condition, stage)
    if isinstance(c, AtLeast):
        return kir.Bin(">=", kir.Ref(c.threshold.size), const(c.threshold.value))
    if isinstance(c, Equals):
        return kir.Bin("==", kir.Ref(c.size), const(c.value))
    if isinstance(c, AtMost):
        return kir.Bin("<=", kir.Ref(c.size), const(c.value))
    if isinstance(c, Gate):
        return kir.Bin(">=", kir.Ref(c.gate.size), const(c.gate.least))
    if isinstance(c, Fits):
        return all_of(kir.Bin("<=", product(shape, wide=True), const(target.INT_MAX, target.INDEX))
                      for shape in c.shapes)
    if isinstance(c, SharedFits):  # (each extent first: their product could pass 64 bits)
        limit = const(c.limit, target.INDEX)
        return all_of([kir.Bin("<=", e, limit) for e in k.launch_extents()] + [kir.Bin("<=", k.launch_shared(), limit)])
    if isinstance(c, Aligned):
        return all_of(kir.Bin("==", kir.Bin("%", kir.Ref(n), const(w)), const(0)) for n, w in k.divisible)
    if isinstance(c, FillsSMs):
        blocks = _blocks(k) if c.share == 1 else kir.Bin("*", _blocks(k), const(c.share, target.INDEX))
        return kir.Bin(">=", blocks, kir.Ref(target.MULTIPROCESSORS_NAME))
    if isinstance(c, FewTiles):
        tiles = _tiles(c.tiles) if c.share == 1 else kir.Bin("*", _tiles(c.tiles), const(c.share, target.INDEX))
        return kir.Bin("<", tiles, kir.Ref(target.MULTIPROCESSORS_NAME))
    if isinstance(c, Transposing):
        sizes, op, value = c.test
        return kir.Bin(op, product(sizes), const(value, target.INDEX if len(sizes) > 1 else "int"))
    if isinstance(c, RowTest):
        return _row_test(c)
    raise CompilerBug(f"no launch condition for {c!r}")


def within_grid(c, k: kir.Kernel):
    """Condition `c` (None: always) and the sizes at which the grid of each
    of the kernel's launches holds the blocks it walks no loop over
    (Kernel.grid_bounds)."""
    bounds = dict.fromkeys(b for s in k.launches for b in s.grid_bounds)
    if not bounds:
        return c
    return all_of(([c] if c is not None else []) + [kir.Bin("<=", kir.Ref(n), const(v)) for n, v in bounds])


def _row_test(c: RowTest):
    """A split's test on the rows' count, their length or both multiplied (and the GPU's SM count)."""
    t = c.test
    value = const(t.value, target.INDEX)
    if t.per_sm:
        value = kir.Bin("*", kir.Cast(target.INDEX, kir.Ref(target.MULTIPROCESSORS_NAME)), value)
    if t.what in ("length", "work") and c.length is None:
        raise CompilerBug(f"a test of the rows' length where they have none known: {t!r}")
    if t.what == "rows":
        tested = product(c.rows, wide=True)
    elif t.what == "length":
        tested = const(c.length) if isinstance(c.length, int) else kir.Ref(c.length)
    elif t.what == "work":
        tested = product(c.rows + (c.length,), wide=True)
    else:
        tested = kir.Ref(t.what)
    return kir.Bin(t.op, tested, value)


def _tiles(tiles: tuple):
    """The count of `tiles` ((size, points) a dim: ceil(size / points) each), as a launch condition computes
    it (64-bit; a literal size's count folded, a single point's size as it is)."""
    out = None
    for size, points in tiles:
        term = const(-(-size // points)) if isinstance(size, int) else ceil_div(kir.Ref(size), points)
        out = kir.Cast(target.INDEX, term) if out is None else kir.Bin("*", out, term)
    return out if out is not None else const(1)


def _blocks(k: kir.Kernel):
    """The blocks of the kernel's grid, as a launch condition computes them (64-bit): every block a dim has,
    the ones a folded axis loops over included."""
    return _tiles(tuple(axis[:2] for axis in k.grid if axis is not None))


def lower_shown(vs: Versions, synchronous_copies: bool = False) -> list[tuple]:
    """The kernels explain shows being rewritten (shown.py), each lowered
    with its trace: (Shown, kir.Kernel)."""
    return [(s, _lowered(s.build)) for s in shown_builds(vs, synchronous_copies)]
