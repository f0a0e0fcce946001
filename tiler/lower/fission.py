"""The fissioned versions (analyse/fission.py): the pairs' kernel as a
stage, writing scratch memory, then a kernel of the fold reading it.

Each of the two kernel programs is lowered as any program is. The pairs'
kernel contributes its 32-bit tiled versions that read in place (the
register-tiled one, for grids that fill the GPU, then one point a thread
for smaller ones), each with its launch condition; the fold its 32-bit
versions that read in place in one kernel (those that split rows among
threads, then its last, which runs at any size). A fissioned version is a
pair of them, the fold's kernel launching the pairs' as its stage: the
pairs' kernels keep one name in every version, so the CUDA defines each
once (kir.Module.functions). The fissioned versions come first, under the
plan's gates; the module's own versions follow for every launch they do
not take.
"""
from __future__ import annotations

import dataclasses

from .. import kir
from ..analyse.fission import FissionPlan
from ..errors import CompilerBug
from ..kir.build import const
from .params import program_stem
from .values import all_of, joined, product

MOST_SPLIT = 3  # the fold's split versions kept (a warp, 1024 threads, 256 threads a row)


def with_fission(module: kir.Module, analysis, lower, file: str) -> kir.Module:
    """`module` with the fissioned versions first, where the analysis
    fissions a fold (else as it is); `lower` lowers an analysis."""
    plan = analysis.fission
    if not isinstance(plan, FissionPlan):
        return module
    stem = program_stem(file)
    pairs = _pairs_versions(lower(plan.values, pairs_file(file)), plan.fission.scratch)
    folds = _fold_versions(lower(plan.fold, f"{stem}_fold.fut"))
    gate = all_of([kir.Bin(">=", kir.Ref(g.size), const(g.least)) for g in plan.gates]) if plan.gates else None
    rival = next((v.rival for v in module.versions if v.rival and not v.kernel.wide), "")
    first = pairs[0].kernel
    scratch = kir.Scratch(plan.fission.scratch, _output(first).ctype, product(_output(first).shape, wide=True),
                          "the value of every pair, which the fold reads")
    out = []
    for fold in folds:
        k = fold.kernel
        params = tuple(dataclasses.replace(p, role=kir.SCRATCH) if p.source == plan.fission.scratch else p
                       for p in k.params)
        if sum(p.role == kir.SCRATCH for p in params) != 1 or not any(p.name == scratch.name for p in params):
            raise CompilerBug(f"the fold of {file} does not read the pairs' values as `{scratch.name}`")
        for n, pair in enumerate(pairs):
            # the first pairs' kernel keeps the fold's name; each other adds its own (unique in the pairs' module)
            suffix = "_" + pair.kernel.name.removeprefix(f"tiler_{stem}_pairs_") if n else ""
            conds = [c for c in (gate, pair.condition, fold.condition) if c is not None]
            out.append(kir.Version(
                dataclasses.replace(k, name=k.name + suffix, params=params, stages=(pair.kernel,),
                                    scratch=(scratch,)),
                all_of(conds) if conds else None,
                joined("the pairs' values first" + (f" ({pair.why})" if n and pair.why else ""), fold.why),
                grid_share=pair.grid_share, rival=rival, fissioned=True))
    names = [v.kernel.name for v in out + list(module.versions)]
    if len(set(names)) != len(names):
        raise CompilerBug(f"two versions of {file} would share a kernel's name")
    return dataclasses.replace(module, versions=tuple(out) + module.versions)


def pairs_file(file: str) -> str:
    """The name the pairs' program is lowered under (its kernels are named from it)."""
    return f"{program_stem(file)}_pairs.fut"


def _pairs_versions(m: kir.Module, scratch: str) -> list[kir.Version]:
    """The pairs' versions the fissioned ones launch: tiled, 32-bit, in
    place, in one kernel, at any row length (the first is the plan's; the
    others, one point a thread, for smaller grids), each writing `scratch`."""
    out = []
    for v in m.versions:
        k = v.kernel
        if k.tiled and not (k.wide or k.transposes or k.stages or k.divisible or k.fixed or k.bounds):
            written = _output(k)
            if written.name != scratch:
                raise CompilerBug(f"the pairs' kernel writes `{written.name}`, not `{scratch}`")
            params = tuple(dataclasses.replace(p, role=kir.SCRATCH) if p is written else p for p in k.params)
            out.append(dataclasses.replace(v, kernel=dataclasses.replace(k, params=params)))
    if not out:
        raise CompilerBug("the pairs' kernel has no tiled version that reads in place with scalar copies")
    return out


def _fold_versions(m: kir.Module) -> list[kir.Version]:
    """The fold's 32-bit versions that read in place in one kernel: those
    that split rows among threads, then its last (it runs at any size).
    Its tiled versions (rows staged to coalesce) are left out: they spilled
    when they were tried (before a chunk's copies shared their unroll) and
    have not been timed as a fold of pairs since."""
    ok = [v for v in m.versions if not (v.kernel.wide or v.kernel.transposes or v.kernel.stages or
                                        v.kernel.fixed or v.kernel.bounds)]
    return [v for v in ok[:-1] if v.kernel.lanes][:MOST_SPLIT] + ok[-1:]


def _output(k: kir.Kernel) -> kir.Param:
    outs = [p for p in k.params if p.role in ("output", kir.SCRATCH)]
    if len(outs) != 1:
        raise CompilerBug(f"the pairs' kernel {k.name} has {len(outs)} outputs")
    return outs[0]
