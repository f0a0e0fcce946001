"""Reads the march's step makes at every step, made once before it
(lower/invariant.py): which loads move, their clamps, and which stay."""
from __future__ import annotations

from conftest import BENCHMARKS
from test_march import march_of

from tiler import kir
from tiler.kir.build import const
from tiler.kir.walkers import walk
from tiler.lower.invariant import HOIST_LIMIT, Input, hoisted


def march_loop(text: str) -> tuple[tuple, kir.For]:
    """(the march kernel's statements before its loop over planes, that loop)."""
    kernel = march_of(text)["verify"].versions[0].kernel
    assert kernel.name.endswith("_march")
    at = max(i for i, s in enumerate(kernel.body) if isinstance(s, kir.For))
    return kernel.body[:at], kernel.body[at]


def global_loads(stmts, buffer: str) -> list:
    return [x for s in stmts for x in walk(s) if isinstance(x, kir.Load) and x.buffer == buffer
            and x.space == kir.GLOBAL]


def test_the_stars_coefficients_are_read_once_before_the_march():
    """c[0] and c[q + 1] for the 4 trips of q: a register and an array of 4
    that only constants index (the verifier checks it), shared by every row's
    body and by both the inside and the edge bodies."""
    before, loop = march_loop((BENCHMARKS / "star25.fut").read_text())
    assert global_loads(loop.body, "c") == []
    assert len(global_loads(before, "c")) == 2
    held = [s for s in before if isinstance(s, kir.ArrayDecl)]
    assert [(a.name, a.elems) for a in held] == [("c_held_2", 4)]
    assert any(isinstance(s, kir.Decl) and s.name == "c_held" and s.init == kir.Load("c", const(0)) for s in before)


STAR = """
fun [[[f32, nx], ny], nz] main([[[f32, nx], ny], nz] u, [f32, k] w, [f32, nx] g, [f32, nz] h) =
  map(fn [[f32, nx], ny] (int z) =>
    map(fn [f32, nx] (int y) =>
      map(fn f32 (int x) =>
            (if z > 0 then u[z - 1, y, x] * w[0] else 0f32)
              + (if y > 0 then u[z, y - 1, x] else 0f32) * g[x]
              + (if x > 0 then u[z, y, x - 1] else 0f32) * h[z] + u[z, y, x],
          iota(nx)),
        iota(ny)),
      iota(nz))
"""


def test_a_read_under_an_edge_test_is_clamped_and_guarded_and_one_along_the_march_stays():
    """w[0] is read only where z > 0: made before the march at an index
    clamped into w, none where w is empty (k is a size); g[x] varies with
    the thread alone and moves too; h[z] varies with the step and stays."""
    before, loop = march_loop(STAR)
    assert global_loads(loop.body, "w") == global_loads(loop.body, "g") == []
    assert len(global_loads(loop.body, "h")) >= 1
    (w,) = [s for s in before if isinstance(s, kir.Decl) and global_loads((s,), "w")]
    assert isinstance(w.init, kir.Select) and w.init.cond == kir.Bin(">", kir.Ref("k"), const(0))
    assert any(isinstance(x, kir.Call) and x.fn == "max" for x in walk(w.init.a))


def test_loads_past_the_register_limit_stay_in_the_loop():
    """c's 4 values move; d's HOIST_LIMIT more would pass the limit and stay."""
    def summed(buffer, n, var):
        return kir.For(var, const(0), const(n), const(1),
                       (kir.Assign("acc", kir.Bin("+", kir.Ref("acc"), kir.Load(buffer, kir.Ref(var)))),),
                       unroll=kir.FULL)
    loop = kir.For("z", const(0), kir.Ref("nz"), const(1), (summed("c", 4, "q"), summed("d", HOIST_LIMIT, "p")))
    names = iter(f"v{i}" for i in range(10))
    inputs = {"c": Input(const(4), "float"), "d": Input(const(HOIST_LIMIT), "float")}
    before, after = hoisted(loop, inputs, lambda base: next(names))
    assert [(s.name, s.elems) for s in before if isinstance(s, kir.ArrayDecl)] == [("v0", 4)]
    assert global_loads(after.body, "c") == [] and len(global_loads(after.body, "d")) == 1


def test_a_load_whose_index_a_loop_changes_or_that_is_no_input_stays():
    """An index read from a name the loop assigns, or a loop not unrolled whole, or a buffer that is not a
    read-only input: each load stays where it is."""
    body = (kir.Assign("i", kir.Bin("+", kir.Ref("i"), const(1))),
            kir.Assign("acc", kir.Load("c", kir.Ref("i"))),
            kir.For("q", const(0), const(4), const(1), (kir.Assign("acc", kir.Load("c", kir.Ref("q"))),)),
            kir.Assign("acc", kir.Load("out", const(0))))
    loop = kir.For("z", const(0), kir.Ref("nz"), const(1), body)
    before, after = hoisted(loop, {"c": Input(const(8), "float")}, lambda base: base)
    assert before == () and after == loop


def test_a_loop_of_step_two_and_a_name_declared_again_keep_their_loads():
    """An unrolled loop whose index steps by 2 is no slot an index (its
    loads stay); a name declared invariant in one branch and again, varying,
    in another is not taken for the first."""
    stepped = kir.For("j", const(0), const(8), const(2), (kir.Assign("acc", kir.Load("c", kir.Ref("j"))),),
                      unroll=kir.FULL)
    again = kir.If(kir.Ref("flag"), (kir.Decl("a", "int", const(1), True), kir.Assign("acc", kir.Load("c", kir.Ref("a")))),
                   (kir.Decl("a", "int", kir.Ref("z"), True), kir.Assign("acc", kir.Load("c", kir.Ref("a")))))
    loop = kir.For("z", const(0), kir.Ref("nz"), const(1), (stepped, again))
    before, after = hoisted(loop, {"c": Input(const(8), "float")}, lambda base: base + "_h")
    assert len(global_loads(after.body, "c")) == 2  # the stepped loop's and the varying branch's
    assert [s.init for s in before if isinstance(s, kir.Decl)] == [kir.Load("c", const(1))]


def test_double_values_count_two_registers_each():
    """8 f64 values are 16 registers: a second array of them passes the limit and stays."""
    def summed(buffer, var):
        return kir.For(var, const(0), const(8), const(1), (kir.Assign("acc", kir.Load(buffer, kir.Ref(var))),),
                       unroll=kir.FULL)
    loop = kir.For("z", const(0), kir.Ref("nz"), const(1), (summed("c", "q"), summed("d", "p")))
    names = iter(f"v{i}" for i in range(10))
    inputs = {"c": Input(const(8), "double"), "d": Input(const(8), "double")}
    before, after = hoisted(loop, inputs, lambda base: next(names))
    assert [(s.name, s.elems) for s in before if isinstance(s, kir.ArrayDecl)] == [("v0", 8)]
    assert global_loads(after.body, "c") == [] and len(global_loads(after.body, "d")) == 1
