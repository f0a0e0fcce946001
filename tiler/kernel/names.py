"""The binders of the kernel stage's rewrites: which an expression binds,
which it reads, every name a kernel binds, and a fresh name beside them
(promote.py's stream inputs, fission.py's two programs)."""
from __future__ import annotations

from ..check import typed as T
from ..tree import descendants


def bound(e) -> set:
    """Every binder bound in `e`: by its lets, loops and streams."""
    out: set = set()
    for n in descendants(e, T.is_exp):
        if isinstance(n, T.Let):
            out.update(n.binders)
        elif isinstance(n, T.Loop):
            out.update((*n.params, n.index, *n.results))
        elif isinstance(n, T.Stream):
            out.update((n.offset, n.chunk, *n.chunk_params, *n.acc_params))
    return out


def used(e) -> set:
    """The binders `e` refers to."""
    return {n.binder for n in descendants(e, T.is_exp) if isinstance(n, T.Var)}


def free(e) -> set:
    """The binders `e` reads but does not bind."""
    return used(e) - bound(e)


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
