"""A point's body inside every edge by a window's extent (analyse/inside.py):
the tests the facts decide are decided, every other one stays."""
from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from conftest import BENCHMARKS, PROGRAMS, ROOT

from tiler import kir
from tiler.analyse.inside import Facts, inside
from tiler.analyse.march import inside_body as _inside_kernel
from tiler.check import typed as T
from tiler.interp import run
from tiler.kir.walkers import statements
from tiler.pipeline import run_to
from tiler.tree import descendants
from tiler.workload import load_spec, make_inputs, resolve_sizes


def edge_tests(k: T.Kernel) -> tuple[int, int]:
    """The `if`s and the `min`s and `max`s left in a kernel's lets and body."""
    nodes = [n for r in [v for lv in k.levels for _, v in lv.lets] + [k.body] for n in descendants(r, T.is_exp)]
    return sum(isinstance(n, T.If) for n in nodes), sum(isinstance(n, T.Builtin) and n.name in ("min", "max")
                                                        for n in nodes)


def inside_of(path):
    a = run_to("analyse", path.read_text(), path.name)
    return a.kernel, _inside_kernel(a.kernel, a.plan.march.march)


def test_a_guarded_star_and_a_clamped_stencil_lose_every_edge_test_inside():
    for path in (BENCHMARKS / "star25.fut", BENCHMARKS / "stencil3d.fut", ROOT / "corpus" / "a_laplace3d_f64.fut"):
        k, fast = inside_of(path)
        assert edge_tests(k) != (0, 0) and edge_tests(fast) == (0, 0), path.name


STAR = (BENCHMARKS / "star25.fut").read_text()


def test_a_test_the_margins_do_not_decide_stays():
    """The star's margins are 4: `z - r >= 1` fails at z = 4, r = 4, and
    `y % 2 == 0` is no affine test; both stay, the others go."""
    text = STAR.replace("(if z - r >= 0 then", "(if z - r >= 1 then") \
        .replace("(if y - r >= 0 then u[z, y - r, x] else 0f32)", "(if y % 2 == 0 then u[z, y - r, x] else 0f32)")
    a = run_to("analyse", text, "star.fut")
    fast = _inside_kernel(a.kernel, a.plan.march.march)
    assert edge_tests(fast) == (2, 0)


def test_comparisons_min_and_max_are_decided_from_the_margins():
    """Points 3 from the start and 6 from the end of a dimension of n: p - 3
    >= 0 is true, p - 4 >= 0 undecided, q + 4 < n true and q + 5 < n
    undecided (q = p + t, t < 3: through a let and a loop of known count),
    p + 5 < n - 1 true (p is at most n - 7); the clamps go."""
    text = """
fun [f32, n] main([f32, n] a) =
  map(fn f32 (int p) =>
        loop (s = 0f32) = for t < 3 do
          let q = p + t in
          s + (if q - 3 >= 0 then 1f32 else 0f32) + (if q + 4 < n then 2f32 else 0f32)
            + (if p - 4 >= 0 then 4f32 else 0f32) + (if q + 5 < n then 8f32 else 0f32)
            + (if p + 5 < n - 1 then 16f32 else 0f32) + a[min(q + 4, n - 1)] + a[max(q - 3, 0)]
        in s,
      iota(n))
"""
    k = run_to("check", text, "one.fut").kernel
    (level,) = k.levels
    facts = Facts({level.params[0]: 0}, {0: level.size}, {0: 3}, {0: 6})
    fast = inside(k.body, facts)
    ifs = [n for n in descendants(fast, T.is_exp) if isinstance(n, T.If)]
    clamps = [n for n in descendants(fast, T.is_exp) if isinstance(n, T.Builtin) and n.name in ("min", "max")]
    # left: p - 4 >= 0 (p may be 3), q + 5 < n (q may be n - 7 + 2 = n - 5)
    assert len(ifs) == 2 and not clamps


def clamped_reads(e, array):
    """`e` with each read of `array` clamped into it (so a body whose edge
    tests were decided for inside points runs at every point)."""
    from tiler.tree import map_children

    if isinstance(e, T.Index) and isinstance(e.array, T.Var) and e.array.binder is array:
        indices = []
        for i, n in zip(e.indices, array.type.shape):
            size = T.Var(n, i.type) if not isinstance(n, int) else T.Lit(n, i.type)
            last = T.BinOp("-", size, T.Lit(1, i.type), i.type)
            indices.append(T.Builtin("min", (T.Builtin("max", (clamped_reads(i, array), T.Lit(0, i.type)), i.type),
                                              last), i.type))
        return dataclasses.replace(e, indices=tuple(indices))
    return map_children(e, lambda c: clamped_reads(c, array), T.is_exp)


@pytest.mark.parametrize("path", [BENCHMARKS / "star25.fut", BENCHMARKS / "stencil3d.fut",
                                  ROOT / "corpus" / "a_laplace3d_f64.fut", ROOT / "corpus" / "d_stencil3d_7pt_f32.fut",
                                  ROOT / "corpus" / "d_stencil3d_25pt_f64.fut",
                                  PROGRAMS / "windows" / "march_wrap.fut"], ids=lambda p: p.stem)
def test_the_body_inside_gives_the_programs_values_at_every_point_inside(path):
    """The interpreter runs the program and its body with the edge tests
    decided (its reads clamped, so that it runs at the edges too): at every
    point the margins put inside, the outputs are the same, bit for bit."""
    prog = run_to("check", path.read_text(), path.name)
    a = run_to("analyse", path.read_text(), path.name)
    m = a.plan.march.march
    fast = _inside_kernel(a.kernel, m)
    fast = dataclasses.replace(fast, body=clamped_reads(fast.body, m.binder),
                               levels=tuple(dataclasses.replace(lv, lets=tuple(
                                   (bs, clamped_reads(v, m.binder)) for bs, v in lv.lets)) for lv in fast.levels))
    sizes = {"nz": 13, "ny": 17, "nx": 19}
    spec = load_spec(path)
    inputs = make_inputs(prog, resolve_sizes(prog, sizes, spec, "test"), spec, seed=5)
    want = run(prog, inputs)[0]
    got = run(T.Program(path.name, fast, {}), inputs)[0]
    margins = list(zip(m.queue, m.rows, m.cols))
    low, high = [-lo for lo in margins[0]], list(margins[1])
    inside_points = tuple(slice(lo, n - hi) for lo, hi, n in zip(low, high, want.shape))
    assert np.array_equal(got[inside_points], want[inside_points])


def test_the_march_runs_a_second_body_only_where_it_removes_a_branch():
    """The guarded star's reads under edge tests go inside (a second body
    for the steps inside); the clamped 7-point stencil's tests are clamps
    alone, and its march keeps one body (the second cost it a block an SM)."""
    for path, second in ((BENCHMARKS / "star25.fut", True), (ROOT / "corpus" / "d_stencil3d_7pt_f32.fut", False),
                         (ROOT / "corpus" / "a_laplace3d_f64.fut", False)):
        kernel = run_to("verify", path.read_text(), path.name).versions[0].kernel
        assert kernel.name.endswith("_march")
        names = {s.name for s in statements(kernel.body) if isinstance(s, kir.Decl)}
        assert ("block_inside" in names) == second, path.name
    # an `if` that picks a value and guards no read: one body still
    text = (ROOT / "corpus" / "d_stencil3d_7pt_f32.fut").read_text().replace("c + alpha * lap",
                                                                              "c + alpha * lap + (if x > 0 then 1f32 else 0f32)")
    kernel = run_to("verify", text, "value_if.fut").versions[0].kernel
    assert kernel.name.endswith("_march") and "block_inside" not in {
        s.name for s in statements(kernel.body) if isinstance(s, kir.Decl)}


def test_a_test_whose_operand_may_wrap_stays():
    """`z + 2147483647 > 0` wraps negative for z >= 1 and `z * 1000003 > 0`
    from z = 2148 (int arithmetic wraps): neither is decided; the star's
    own tests, whose operands stay within an int for every size, are."""
    text = STAR.replace("acc + c[r] * s", "acc + c[r] * s + (if z + 2147483647 > 0 then 1f32 else 0f32)"
                        " + (if z * 1000003 > 0 then 1f32 else 0f32)")
    a = run_to("analyse", text, "star.fut")
    assert edge_tests(_inside_kernel(a.kernel, a.plan.march.march)) == (2, 0)


def test_a_size_shared_by_the_three_dimensions_cancels_against_each_of_them():
    """A cube's star (`[[[f32, n], n], n]`): `z + r < n` and `y + r < n` are
    decided like `x + r < n`."""
    text = STAR.replace("nx], ny], nz]", "n], n], n]").replace("[f32, nx], ny]", "[f32, n], n]") \
        .replace("[f32, nx]", "[f32, n]").replace("iota(nx)", "iota(n)").replace("iota(ny)", "iota(n)") \
        .replace("iota(nz)", "iota(n)").replace("< nz", "< n").replace("< ny", "< n").replace("< nx", "< n")
    a = run_to("analyse", text, "cube.fut")
    assert "nz" not in text and a.plan.march.march is not None
    assert edge_tests(_inside_kernel(a.kernel, a.plan.march.march)) == (0, 0)
