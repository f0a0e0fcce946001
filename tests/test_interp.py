"""The reference interpreter against independent numpy formulas, under
several chunkings, and its semantics (C division, short circuits, masked
branches, located run-time faults)."""
from __future__ import annotations

import numpy as np
import pytest
from conftest import BENCHMARK_NAMES, BENCHMARKS

from tiler.check import check
from tiler.interp import Chunking, RunError, run
from tiler.syntax import parse
from tiler.workload import load_spec, make_inputs, resolve_sizes

CHUNKINGS = [Chunking("whole"), Chunking("fixed", size=1), Chunking("fixed", size=7),
             Chunking("fixed", size=64), Chunking("random", seed=1), Chunking("random", seed=2)]


def nbody(i):
    b = i["bodies"].astype(np.float64)
    return [b.sum() - len(b) * b]


def mm(i):
    return [i["A"].astype(np.float64) @ i["B0"].astype(np.float64)]


def lavamd(i):
    rows = 2.0 * i["AA"].astype(np.float64).sum(axis=1)
    per_i = rows[i["inds_nhbs"]].sum(axis=1)
    return [np.repeat(per_i[:, None], i["AA"].shape[1], axis=1)]


def nbody3d(i):
    p = np.stack([i["xs"], i["ys"], i["zs"]], axis=1).astype(np.float64)
    d = p[None, :, :] - p[:, None, :]
    inv = 1.0 / np.sqrt((d * d).sum(axis=2) + float(i["eps2"]))
    a = (d * (i["ms"].astype(np.float64)[None, :] * inv ** 3)[:, :, None]).sum(axis=1)
    return [a[:, 0], a[:, 1], a[:, 2]]


def lavamd_rodinia(i):
    a2 = 2.0 * float(i["alpha"]) ** 2
    r = {k: i[k].astype(np.float64) for k in ("rv", "rx", "ry", "rz", "qv")}
    out = [np.zeros_like(r["rv"]) for _ in range(4)]
    for bx in range(len(i["nn"])):
        js = i["nei"][bx, :i["nn"][bx]]
        vj, xj, yj, zj, qj = (r[k][js].reshape(-1) for k in ("rv", "rx", "ry", "rz", "qv"))
        vi, xi, yi, zi = (r[k][bx][:, None] for k in ("rv", "rx", "ry", "rz"))
        r2 = vi + vj - (xi * xj + yi * yj + zi * zj)
        vij = np.exp(-a2 * r2)
        fs = 2.0 * vij
        out[0][bx] = (qj * vij).sum(axis=1)
        for k, (c, cj) in enumerate(((xi, xj), (yi, yj), (zi, zj)), 1):
            out[k][bx] = (qj * fs * (c - cj)).sum(axis=1)
    return out


def mriq(i):
    f = {k: i[k].astype(np.float64) for k in i}
    arg = 6.2831853 * (np.outer(f["x"], f["kx"]) + np.outer(f["y"], f["ky"]) + np.outer(f["z"], f["kz"]))
    return [(f["phiMag"] * np.cos(arg)).sum(axis=1), (f["phiMag"] * np.sin(arg)).sum(axis=1)]


def conv2d(i):
    img, filt = i["img"].astype(np.float64), i["filt"].astype(np.float64)
    h, w = img.shape
    rows = np.minimum(np.arange(h)[:, None] + np.arange(5)[None, :], h - 1)  # clamped at the edges
    cols = np.minimum(np.arange(w)[:, None] + np.arange(5)[None, :], w - 1)
    window = img[rows[:, :, None, None], cols[None, None, :, :]]  # [h, 5, w, 5]
    return [np.einsum("irjc,rc->ij", window, filt)]


def blur(i):
    img, wts = i["img"].astype(np.float64), i["wts"].astype(np.float64)
    h = img.shape[0]
    rows = np.clip(np.arange(h)[:, None] + np.arange(15)[None, :] - 7, 0, h - 1)  # [h, 15], clamped
    return [np.einsum("itx,t->ix", img[rows], wts)]


def stencil3d(i):
    u, alpha = i["u"].astype(np.float64), float(i["alpha"])
    padded = np.pad(u, 1, mode="edge")  # a neighbour past a face is the face's own value
    c = padded[1:-1, 1:-1, 1:-1]
    lap = (padded[:-2, 1:-1, 1:-1] + padded[2:, 1:-1, 1:-1] + padded[1:-1, :-2, 1:-1] + padded[1:-1, 2:, 1:-1]
           + padded[1:-1, 1:-1, :-2] + padded[1:-1, 1:-1, 2:] - 6 * c)
    return [c + alpha * lap]


def _depthwise(i):
    x, w = i["X"].astype(np.float64), i["W"].astype(np.float64)
    taps = w.shape[1]
    padded = np.pad(x, ((0, 0), (taps // 2, taps // 2)))  # zero past either end
    return [sum(w[:, t, None] * padded[:, t:t + x.shape[1]] for t in range(taps))]


def star25(i):
    u, c = i["u"].astype(np.float64), i["c"].astype(np.float64)
    p = np.pad(u, 4)  # a skipped neighbour adds 0
    nz, ny, nx = u.shape
    out = c[0] * u
    for r in range(1, 5):
        out = out + c[r] * (p[4 - r:4 - r + nz, 4:4 + ny, 4:4 + nx] + p[4 + r:4 + r + nz, 4:4 + ny, 4:4 + nx]
                            + p[4:4 + nz, 4 - r:4 - r + ny, 4:4 + nx] + p[4:4 + nz, 4 + r:4 + r + ny, 4:4 + nx]
                            + p[4:4 + nz, 4:4 + ny, 4 - r:4 - r + nx] + p[4:4 + nz, 4:4 + ny, 4 + r:4 + r + nx])
    return [out]


def aat(i):
    a = i["A"].astype(np.float64)
    return [a @ a.T]


def mm_rows(i):
    return [i["A"].astype(np.float64) @ i["B"].astype(np.float64)]


def matvec(i):
    return [i["A"].astype(np.float64) @ i["x"].astype(np.float64)]


def rowsum(i):
    return [i["A"].astype(np.float64).sum(axis=1)]


def colsum(i):
    return [i["A"].astype(np.float64).sum(axis=0)]


def rowcount(i):
    return [(i["A"] < np.float32(0.25)).sum(axis=1).astype(np.int32)]


def rownorm(i):
    a = i["A"].astype(np.float64)
    return [(a * a).sum(axis=1)]


def rowsum3d(i):
    return [i["X"].astype(np.float64).sum(axis=2)]


def softmax(i):
    x = i["X"].astype(np.float64)
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return [e / e.sum(axis=1, keepdims=True)]


def layernorm(i):
    x = i["X"].astype(np.float64)
    mean = x.mean(axis=1, keepdims=True)
    return [(x - mean) / np.sqrt(((x - mean) ** 2).mean(axis=1, keepdims=True) + 1e-5)]


def kmeans(i):
    """The nearest centre's index (the first of equal ones, as np.argmin)."""
    p, c = i["points"].astype(np.float64), i["centres"].astype(np.float64)
    return [np.argmin(((p[:, None, :] - c[None, :, :]) ** 2).sum(axis=2), axis=1).astype(np.int32)]


def embed_scores(i):
    e, f = i["E"].astype(np.float64), i["F"].astype(np.float64)
    qa, qb = np.clip(i["ids_a"], 0, len(e) - 1), np.clip(i["ids_b"], 0, len(f) - 1)
    return [e[qa] @ f[qb].T]


def mlp(i):
    x, w1 = i["X"].astype(np.float64), i["W1"].astype(np.float64)
    return [np.maximum(x @ w1.T + i["b1"], 0) @ i["w2"].astype(np.float64)]


def attention(i):
    """softmax(Q K^T / 8) V per head (inputs hold bf16 values; the sums in f64 here)."""
    q, k, v = (i[n].astype(np.float64) for n in "QKV")
    s = q @ k.transpose(0, 2, 1) / 8
    p = np.exp(s - s.max(axis=2, keepdims=True))
    return [(p / p.sum(axis=2, keepdims=True)) @ v]


FORMULAS = {"nbody": nbody, "mm": mm, "lavamd": lavamd, "nbody3d": nbody3d,
            "lavamd_rodinia": lavamd_rodinia, "mriq": mriq, "conv2d": conv2d, "aat": aat, "mm_rows": mm_rows,
            "matvec": matvec, "rowsum": rowsum, "rownorm": rownorm, "kmeans": kmeans, "softmax": softmax,
            "layernorm": layernorm, "rowsum3d": rowsum3d, "colsum": colsum, "rowcount": rowcount, "blur": blur,
            "stencil3d": stencil3d, "conv1d": _depthwise, "conv1d31": _depthwise, "star25": star25,
            "embed_scores": embed_scores, "mlp": mlp, "mm_bf16": mm, "mm_f64": mm, "attention_bf16": attention}


def test_every_benchmark_has_a_formula():
    assert sorted(FORMULAS) == BENCHMARK_NAMES


def setup(name, seed=0):
    path = BENCHMARKS / f"{name}.fut"
    prog = check(parse(path.read_text(), path.name))
    spec = load_spec(path)
    sizes = resolve_sizes(prog, {}, spec, "test")
    return prog, make_inputs(prog, sizes, spec, seed)


def close(got, want, scale):
    """Within f32 rounding of a sum whose terms are of size `scale`."""
    err = np.abs(got.astype(np.float64) - want)
    return float(err.max()) <= 1e-4 * float(scale) + 1e-6


@pytest.mark.parametrize("name", BENCHMARK_NAMES)
@pytest.mark.parametrize("chunking", CHUNKINGS, ids=str)
def test_benchmark_matches_numpy(name, chunking):
    prog, inputs = setup(name)
    outs = run(prog, inputs, chunking, seed=7)
    want = FORMULAS[name](inputs)
    assert len(outs) == len(want)
    held = {"f64": np.float64, "i64": np.int64, "i32": np.int32}  # (16-bit values are held as float32)
    for got, ref, t in zip(outs, want, prog.kernel.outputs):
        assert got.shape == ref.shape and got.dtype == held.get(t.kind, np.float32), (got.dtype, t)
        scale = max(1.0, float(np.abs(ref).max())) * 10
        assert close(got, ref, scale), (name, float(np.abs(got - ref).max()))


def test_large_sizes_run_fast_enough_to_be_an_oracle():
    import time
    for name, sizes in (("nbody", {"n": 2048}), ("mm", {"m": 256, "n": 256, "q": 256})):
        path = BENCHMARKS / f"{name}.fut"
        prog = check(parse(path.read_text(), path.name))
        inputs = make_inputs(prog, resolve_sizes(prog, sizes, load_spec(path)), load_spec(path), 1)
        start = time.perf_counter()
        run(prog, inputs)
        assert time.perf_counter() - start < 10


def program(text):
    return check(parse(text, "t.fut"))


def test_integer_division_and_remainder_round_toward_zero_like_c():
    p = program("fun ([int, n], [int, n]) main([int, n] a, [int, n] b) ="
                " map(fn (int, int) (int x, int y) => (x / y, x % y), a, b)")
    a = np.array([7, -7, 7, -7, 0], dtype=np.int32)
    b = np.array([2, 2, -2, -2, 3], dtype=np.int32)
    q, r = run(p, {"a": a, "b": b})
    assert q.tolist() == [3, -3, -3, 3, 0] and r.tolist() == [1, -1, 1, -1, 0]


CONVERTED = np.array([np.nan, np.inf, -np.inf, 3e9, -3e9, 2.75, -2.75, 2147483520.0, -2147483648.0], np.float32)
CONVERSIONS = ("fun ([int, n], [i64, n], [int, n]) main([f32, n] x) =\n"
               "  map(fn (int, i64, int) (f32 v) => (int(v), i64(v * 4e9f32), int(f64(v) * 2f64)), x)")


def test_a_float_past_an_integer_types_range_converts_to_its_nearest_end():
    """As the GPU's conversion (PTX cvt.rzi) does. NaN gives 0 from an f32
    to a 32-bit int, else the type's smallest value (NumPy on x86 gives the
    smallest value for all of these)."""
    i32, i64, from_f64 = run(program(CONVERSIONS), {"x": CONVERTED})
    top, bottom = 2**31 - 1, -2**31
    assert i32.tolist() == [0, top, bottom, top, bottom, 2, -2, 2147483520, bottom]
    assert i64.tolist()[:3] == [-2**63, 2**63 - 1, -2**63] and i64.tolist()[5] == 11000000512  # (2.75 x 4e9 in f32)
    assert from_f64.tolist() == [bottom, top, bottom, top, bottom, 5, -5, top, bottom]


def test_division_by_zero_is_located():
    p = program("fun [int, n] main([int, n] a) =\n  map(fn int (int x) => 10 / x, a)")
    with pytest.raises(RunError) as info:
        run(p, {"a": np.array([1, 0, 2], dtype=np.int32)})
    d = info.value.diagnostics[0]
    assert d.message.startswith("division by zero") and "dim 0 = 1" in d.message
    assert (d.span.line, d.span.col) == (2, 25)


def test_out_of_range_index_is_reported_at_the_index_expression():
    p = program("fun [f32, n] main([f32, n] xs) =\n  map(fn f32 (int i) => xs[i + 1], iota(n))")
    with pytest.raises(RunError) as info:
        run(p, {"xs": np.ones(5, dtype=np.float32)})
    d = info.value.diagnostics[0]
    assert d.message == "index 5 is out of range for a dimension of size 5 (in the thread at dim 0 = 4)"
    assert (d.span.line, d.span.col) == (2, 28)


def test_branches_and_short_circuits_only_run_where_taken():
    p = program("fun ([f32, n], [bool, n]) main([f32, n] xs) = map(fn (f32, bool) (int i) =>"
                " (if i + 1 < n then xs[i + 1] else 0f32, i > 0 && xs[i - 1] > 0f32), iota(n))")
    xs = np.array([1, -2, 3], dtype=np.float32)
    nxt, pos = run(p, {"xs": xs})
    assert nxt.tolist() == [-2, 3, 0] and pos.tolist() == [False, True, False]


def test_loops_whose_bound_varies_between_threads():
    p = program("fun [int, n] main([int, n] counts) ="
                " map(fn int (int c) => loop (s = 0) = for k < c do s + k in s, counts)")
    (out,) = run(p, {"counts": np.array([0, 1, 4, 3], dtype=np.int32)})
    assert out.tolist() == [0, 0, 6, 3]


def test_streams_over_a_threads_own_iota_fall_back_to_one_thread_at_a_time():
    p = program("fun [int, n] main([int, n] counts) = map(fn int (int c) =>"
                " streamSeq(fn int (int kk, [int, ch] is, int acc) =>"
                " loop (acc) = for k < ch do acc + is[k] in acc, iota(c), 0), counts)")
    (out,) = run(p, {"counts": np.array([0, 1, 4, 5], dtype=np.int32)}, Chunking("fixed", size=2))
    assert out.tolist() == [0, 0, 6, 10]


def test_helpers_with_sizes_and_transposes():
    p = program("""
fun f32 dot([f32, d] x, [f32, d] y) =
  streamSeq(fn f32 (int kk, [f32, c] xc, [f32, c] yc, f32 acc) =>
              loop (acc) = for k < c do acc + xc[k] * yc[k] in acc, x, y, 0f32)
fun [[f32, q], m] main([[f32, n], m] A, [[f32, q], n] B0) =
  let B = transpose(B0) in
  map(fn [f32, q] ([f32, n] a) => map(fn f32 ([f32, n] b) => dot(a, b), B), A)
""")
    rng = np.random.default_rng(0)
    A, B0 = rng.standard_normal((5, 3)).astype(np.float32), rng.standard_normal((3, 4)).astype(np.float32)
    (C,) = run(p, {"A": A, "B0": B0})
    assert np.allclose(C, A @ B0, atol=1e-5)


def test_mismatched_input_sizes_are_refused_clearly():
    from tiler.errors import PlainError
    p = program("fun [f32, n] main([f32, n] xs, [f32, n] ys) = map(fn f32 (f32 x, f32 y) => x + y, xs, ys)")
    with pytest.raises(PlainError, match="size `n` is 3 by `xs` but 4 by `ys`"):
        run(p, {"xs": np.zeros(3, np.float32), "ys": np.zeros(4, np.float32)})


def test_a_sample_of_rows_in_float64():
    prog, inputs = setup("mm")
    (full,) = run(prog, inputs)
    (some,) = run(prog, inputs, rows=[0, 7, 99], wide=True)
    assert some.dtype == np.float64 and some.shape == (3, full.shape[1])
    want = inputs["A"].astype(np.float64)[[0, 7, 99]] @ inputs["B0"].astype(np.float64)
    assert np.allclose(some, want, rtol=1e-12, atol=1e-12)
    assert np.allclose(some, full[[0, 7, 99]], atol=1e-4)


def test_fused_rounds_a_product_and_a_sum_once_as_a_gpu_fma_does():
    """(1 + 2^-12)^2 - (1 + 2^-11) is 2^-24: float32 loses it when the
    product is rounded first, a fused multiply-add keeps it."""
    prog = check(parse("fun [f32, n] main([f32, n] a, [f32, n] c) =\n"
                       "  map(fn f32 (f32 x, f32 y) => x * x - y, zip(a, c))\n", "fma.fut"))
    inputs = {"a": np.full(3, 1 + 2.0**-12, np.float32), "c": np.full(3, 1 + 2.0**-11, np.float32)}
    (plain,), (fused,) = run(prog, inputs), run(prog, inputs, fused=True)
    assert (plain == 0).all() and (fused == np.float32(2.0**-24)).all()



def test_a_run_reports_the_fraction_done_as_its_outer_loops_iterate():
    """tiler run shows it on long runs: the outer two levels of loops and
    streams report, an inner loop's iterations counting within one of the
    outer loop's (lavaMD: 27 neighbour boxes, each a stream of chunks)."""
    from tiler.interp import Chunking, run

    text = """fun [f32, n] main([f32, n] xs, [f32, m] ys) =
  map(fn f32 (f32 x) =>
        loop (acc = 0f32) = for i < 4 do
          streamSeq(fn f32 (int kk, [f32, c] yc, f32 a) =>
                      loop (a) = for j < c do a + x * yc[j] in a
                   , ys, acc)
        in acc
     , xs)
"""
    prog = check(parse(text, "p.fut"))
    seen = []
    run(prog, {"xs": np.ones(3, np.float32), "ys": np.ones(10, np.float32)}, Chunking("fixed", size=5),
        progress=lambda done, where: seen.append((done, where)))
    fractions = [f for f, _ in seen]
    assert fractions == sorted(fractions) and fractions[-1] == 1.0 and len(seen) == 4 * 2 + 4  # 2 chunks each
    assert seen[0] == (0.125, "the loop at 3:9")  # the first chunk of the first of 4 iterations


def test_loops_one_after_another_report_each_its_own_progress_and_threads_one_at_a_time_theirs():
    from tiler.interp import run

    both = """fun [f32, n] main([f32, n] xs) =
  map(fn f32 (f32 x) =>
        loop (s = 0f32) = for i < 4 do s + x in
        loop (t = s) = for j < 2 do t * x in t
     , xs)
"""
    seen = []
    run(check(parse(both, "p.fut")), {"xs": np.ones(3, np.float32)}, progress=lambda f, w: seen.append((f, w)))
    assert seen == [(0.25, "the loop at 3:9"), (0.5, "the loop at 3:9"), (0.75, "the loop at 3:9"),
                    (1.0, "the loop at 3:9"), (0.5, "the loop at 4:9"), (1.0, "the loop at 4:9")]
    own = """fun [f32, n] main([int, n] cs) =
  map(fn f32 (int c) => streamSeq(fn f32 (int k0, [int, q] ic, f32 s) => loop (s) = for i < q do s + 1f32 in s,
                                  iota(c), 0f32), cs)
"""  # an iota of a count that differs between threads: the map's points one at a time
    seen = []
    run(check(parse(own, "p.fut")), {"cs": np.array([1, 2, 3, 4])}, progress=lambda f, w: seen.append((f, w)))
    fractions = [f for f, w in seen if w == "the points of the map at 2:3"]
    assert len(fractions) == len(seen) and fractions == sorted(fractions) and set(fractions) == {0.25, 0.5, 0.75, 1.0}
