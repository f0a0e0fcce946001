"""--fast-math's reordering of float sums and products (tiler/lower/reassociate.py):
where each name's loop level comes from, what order a chain takes, and that
the reordered chain is the same value (exactly, in rational arithmetic)."""
from __future__ import annotations

import random
from fractions import Fraction

from conftest import BENCHMARKS

from tiler.analyse import Options
from tiler.check import typed as T
from tiler.check.types import Binder, Scalar
from tiler.pipeline import run_to
from tiler.transform.reassociate import Level, loop_levels, reassociate

F32, I32 = Scalar("f32"), Scalar("i32")


def kernel(name: str) -> T.Kernel:
    return run_to("kernel", (BENCHMARKS / f"{name}.fut").read_text(), f"{name}.fut")


def lets(e, out=None) -> dict[str, object]:
    """Every let-bound name of an expression -> its value."""
    from tiler.tree import children
    out = {} if out is None else out
    if isinstance(e, T.Let):
        for b in e.binders:
            out[b.name] = e.value
    for c in children(e, T.is_exp):
        lets(c, out)
    return out


def show(e) -> str:
    if isinstance(e, T.Var):
        return e.binder.name
    if isinstance(e, T.Lit):
        return repr(e.value)
    if isinstance(e, T.Index):
        return f"{show(e.array)}[{', '.join(show(i) for i in e.indices)}]"
    if isinstance(e, T.UnOp):
        return f"-({show(e.operand)})"
    if isinstance(e, T.BinOp):
        return f"({show(e.lhs)} {e.op} {show(e.rhs)})"
    if isinstance(e, T.Builtin):
        return f"{e.name}({', '.join(show(a) for a in e.args)})"
    return type(e).__name__


def test_a_names_level_is_the_depth_of_the_loops_it_changes_with():
    k = kernel("nbody3d")
    levels = loop_levels(k)
    by_name = {b.name: lv for b, lv in levels.items()}
    assert by_name["xc"] == Level(1)  # the stream's chunk
    assert by_name["j"] == Level(2)  # the loop over the chunk
    assert by_name["dx"] == Level(2)  # reads xc[j]
    loop = next(_loops(k.body))
    assert levels[loop.params[0]] == Level(2, carried=True)  # the loop's accumulator, inside it
    assert "eps2" not in by_name and "xi" not in by_name  # a thread's constants: level 0


def test_a_let_of_outer_values_takes_their_level_not_its_depth():
    x, y = Binder("x", F32, "let"), Binder("y", F32, "let")
    i = Binder("i", I32, "index")
    inner = T.Let((y,), T.BinOp("*", T.Var(x, F32), T.Lit(2.0, F32), F32), T.Var(y, F32), F32)
    loop = T.Loop((), (), i, T.Lit(3, I32), inner, (), T.Lit(0.0, F32), F32)
    body = T.Let((x,), T.Lit(1.0, F32), loop, F32)
    levels = {}
    from tiler.transform.reassociate import _bind
    _bind(body, 0, levels)
    assert levels[y] == Level(0)  # inside the loop, but the same in every iteration


def test_nbody3d_adds_the_softening_first_so_that_every_square_fuses():
    k = kernel("nbody3d")
    d2 = lets(k.body)["d2"]
    assert show(d2) == "((((dx * dx) + (dy * dy)) + (dz * dz)) + eps2)"
    assert show(reassociate(d2, loop_levels(k))) == "(((eps2 + (dx * dx)) + (dy * dy)) + (dz * dz))"


def test_a_carried_accumulator_is_added_last():
    k = kernel("nbody")
    levels = loop_levels(k)
    step = next(e for e in _loops(k.body) if e.params[0].name == "acc").body
    assert show(step) == "(acc + (bodies_chunk[k] - body))"
    assert show(reassociate(step, levels)) == "((-(body) + bodies_chunk[k]) + acc)"


def test_common_factors_group_first_and_a_sign_goes_into_a_constant():
    k = kernel("lavamd_rodinia")
    levels = loop_levels(k)
    named = lets(k.body)
    assert show(reassociate(named["r2"], levels)) == (
        "((((vi + vj[j]) - (xi * xj[j])) - (yi * yj[j])) - (zi * zj[j]))")
    inner = [e for e in _loops(k.body) if e.params[0].name == "fv"][-1]  # the loop over a chunk
    force = _result(inner.body).items[1]
    assert show(reassociate(force, levels)) == "(((q * fs) * (xi - xj[j])) + fx)"
    power = named["vij"].args[0]  # exp(-(a2 * r2)): the sign joins a constant factor once there is one
    scaled = T.BinOp("*", power, T.Lit(1.5, F32), F32)
    assert show(reassociate(scaled, levels)) == "((a2 * -1.5) * r2)"


def test_without_fast_math_the_program_order_stays():
    src = (BENCHMARKS / "nbody3d.fut").read_text()
    ieee = run_to("render", src, "nbody3d.fut", Options(register_tile=(2,)))  # 2 points a thread: G0_
    fast = run_to("render", src, "nbody3d.fut", Options(fast_math=True, register_tile=(2,)))
    assert "dx[G0_] * dx[G0_] + dy[G0_] * dy[G0_] + dz[G0_] * dz[G0_] + eps2;" in ieee
    assert "eps2 + dx[G0_] * dx[G0_] + dy[G0_] * dy[G0_] + dz[G0_] * dz[G0_];" in fast
    lavamd = run_to("render", (BENCHMARKS / "lavamd_rodinia.fut").read_text(), "lavamd_rodinia.fut",
                    Options(fast_math=True))
    assert "tiler_exp2_approx(a2 * -1.4426950408889634f * r2" in lavamd and "__expf" not in lavamd


def test_integer_arithmetic_is_never_reordered():
    a, b = (T.Var(Binder(n, I32, "let"), I32) for n in "ab")
    e = T.BinOp("+", T.BinOp("*", a, b, I32), T.Lit(1, I32), I32)
    assert reassociate(e, {}) is e


def _result(e):
    while isinstance(e, T.Let):
        e = e.body
    return e


def _loops(e):
    from tiler.tree import children
    if isinstance(e, T.Loop):
        yield e
    for c in children(e, T.is_exp):
        yield from _loops(c)


# ---- the same value, exactly --------------------------------------------------------------------------


def _random_chain(rng: random.Random, leaves: list, depth: int):
    if depth == 0 or rng.random() < 0.25:
        return rng.choice(leaves)
    kind = rng.choice(["+", "-", "*", "*", "neg"])
    if kind == "neg":
        return T.UnOp("-", _random_chain(rng, leaves, depth - 1), F32)
    return T.BinOp(kind, _random_chain(rng, leaves, depth - 1), _random_chain(rng, leaves, depth - 1), F32)


def _value(e, env: dict) -> Fraction:
    if isinstance(e, T.Var):
        return env[e.binder]
    if isinstance(e, T.Lit):
        return Fraction(e.value)
    if isinstance(e, T.UnOp):
        return -_value(e.operand, env)
    a, b = _value(e.lhs, env), _value(e.rhs, env)
    return a + b if e.op == "+" else a - b if e.op == "-" else a * b


def test_a_reordered_chain_is_the_same_value_in_exact_arithmetic():
    rng = random.Random(5)
    binders = [Binder(f"v{i}", F32, "let") for i in range(6)]
    levels = {b: Level(rng.randrange(3), carried=rng.random() < 0.2) for b in binders}
    leaves = [T.Var(b, F32) for b in binders] + [T.Lit(2.5, F32), T.Lit(-3.0, F32)]
    for _ in range(500):
        e = _random_chain(rng, leaves, 5)
        env = {b: Fraction(rng.randint(-50, 50), rng.randint(1, 9)) for b in binders}
        assert _value(reassociate(e, levels), env) == _value(e, env), show(e)
