"""The names of the kernel stage's rewrites: every name a kernel binds, and
a fresh name beside them (promote.py's stream inputs, fission.py's two
programs); which binders an expression binds and reads is check/binders.py."""
from __future__ import annotations

from ..check import typed as T
from ..check.binders import bound


def kernel_names(k: T.Kernel) -> set:
    """Every name the kernel binds (a new one must not meet them)."""
    names = {b.name for b in (*k.params, *k.sizes)} | {pl.binder.name for pl in k.prelude} | \
        {b.name for bs, v in k.launch for b in (*bs, *bound(v))}
    for lv in k.levels:
        names |= {p.name for p in lv.params} | {b.name for bs, v in lv.lets for b in (*bs, *bound(v))}
    return names | {b.name for b in bound(k.body)}


def fresh(base: str, names: set) -> str:
    """`base`, or `base2`, `base3`, ...: the first not in `names`, which it joins."""
    name, n = base, 1
    while name in names:
        n += 1
        name = f"{base}{n}"
    names.add(name)
    return name
