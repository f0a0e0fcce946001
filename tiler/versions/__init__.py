"""Stage `versions`: analysis -> `Versions`, every kernel a module holds and
when the launch runs each, as records (records.py), before anything is
lowered; and the one function that lowers them (lowering.py, stage `lower`).

In launch order: the fissioned versions, where a fold over rows is
fissioned (fission.py); then rows run by a warp or a block where the plan
splits their reductions (split.py); else the schedule's versions
(planned.py): tiled, its scalar-copy twin, one point a thread, the untiled
fallback, each again reading the launch's transposed copies and with
64-bit offsets where those apply, and the bounded plan's before the plan
without the bound. Every tiled version of a default module is raced
against the untiled kernel at a first launch. The records import nothing
of lowering; `lowering.lower_versions` (stage `lower`) does.
"""
from __future__ import annotations

from .. import target
from ..analyse import Analysis, Options, analyse
from ..analyse.schedule import Math
from ..source import program_stem
from .fission import FissionPlan, NoFission, fission_plan, fissioned_versions, fold_file, pairs_file
from .planned import launch_transposed, looped_fallback, plan_versions, reading, sized_grid
from .records import BOUNDED, ONE_POINT, Build, Copies, Kind, Version, Versions
from .scan import scan_versions
from .split import split_versions

__all__ = ["versions_of", "Versions", "Version", "Build", "Kind", "Copies", "FissionPlan",
           "NoFission", "pairs_file", "launch_transposed", "reading", "ONE_POINT", "BOUNDED"]


def versions_of(a: Analysis, file: str = "<input>", fission: bool = True) -> Versions:
    """The program's versions (`fission`: with the fissioned ones first,
    where its fold over rows is fissioned; the fissioned programs' own
    versions are made without)."""
    split = a.plan.split is not None and a.plan.split.active
    own = split_versions(a, file) if split else plan_versions(a, file)
    own = scan_versions(a, file, own) + own
    notes = (f"math: {target.FAST_MATH_NOTE}",) if a.plan.schedule.math is Math.FAST else ()
    units = a.plan.schedule.matrix_units
    if units is not None and units.used:
        notes += (f"matrix units (the tiled versions): {units.reason}" if units.exact else
                  f"matrix units (--tensor-cores): {units.reason}; results differ from the program's order and "
                  "rounding",)
    found = fission_plan(a) if fission and not a.kernel.launch else None  # (its parts would not read the launch's)
    if isinstance(found, FissionPlan):
        pairs = versions_of(found.values, pairs_file(file), fission=False).versions
        folds = versions_of(found.fold, fold_file(file), fission=False).versions
        own = fissioned_versions(found, list(pairs), list(folds), own) + own
    if fission and sized_grid(a):
        own.append(looped_fallback(a, file))
    launch = None
    if a.kernel.launched is not None:  # planned as tiler plans it: the options that steer the main one's schedule
        # are not its (its arithmetic, the sizes given and --no-split are)
        o = a.options
        options = Options(fast_math=o.fast_math, sizes=o.sizes, no_split=o.no_split)
        launched = versions_of(analyse(a.kernel.launched, options, a.device), launch_file(file), fission=False)
        launch = (first_build(launched, False), first_build(launched, True))
    return Versions(a, file, tuple(own), notes, found, launch)


def first_build(launched: Versions, wide: bool) -> Build:
    """The kernel that computes work of no map level's names once a launch
    (one point), with 64-bit offsets or not: a block of 1024 threads sharing
    its reductions (256 with 64-bit offsets, whose 1024 a split for few
    points leaves out), else its untiled kernel. Its module has no other
    version of these offsets where none of its arrays needs them: then one
    of the others."""
    builds = [v.build for v in launched.versions if v.build.wide == wide and not v.build.several] or \
        [v.build for v in launched.versions if not v.build.several]
    return next((b for lanes in (1024, 256) for b in builds if b.lanes == lanes), None) or \
        next((b for b in builds if not b.tiled), builds[-1])

def launch_file(file: str) -> str:
    """The name the once-a-launch kernel's program is lowered under (its kernels are named from it)."""
    return f"{program_stem(file)}_launch.fut"
