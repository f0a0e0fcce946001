"""Index reads along a stream's position become stream inputs (stage
`kernel`, tiler/kernel/promote.py), or stay reads with a reason."""
from __future__ import annotations

import json

from conftest import BENCHMARKS, PROGRAMS, tiler

from tiler.analyse import DEFAULT, Options
from tiler.check import typed as T
from tiler.pipeline import run_all, run_to

PRODUCT = """
fun [[f32, q], m] main([[f32, n], m] A, [[f32, q], {rows}] B) =
  map(fn [f32, q] ([f32, n] a) =>
        map(fn f32 (int j) =>
              streamSeq(fn f32 (int kk, [f32, c] ac, f32 acc) =>
                          loop (acc) = for k < c do acc + ac[k] * {read}
                          in acc
                       , a, 0f32)
           , iota(q))
     , A)
"""


def kernel(text: str, options=DEFAULT):
    return run_to("kernel", text, "t.fut", options)


def product(read: str, rows: str = "n"):
    return kernel(PRODUCT.format(read=read, rows=rows))


def stream_of(k: T.Kernel) -> T.Stream:
    found = []

    def walk(e):
        if isinstance(e, T.Stream):
            found.append(e)
        for f in getattr(e, "__dataclass_fields__", {}):
            v = getattr(e, f)
            for x in v if isinstance(v, tuple) else (v,):
                if type(x) in (T.Let, T.Loop, T.Stream, T.If, T.BinOp, T.Index):
                    walk(x)
    walk(k.body)
    return found[0]


def test_a_column_read_becomes_a_row_of_the_transpose():
    k = product("B[kk + k, j]")
    (p,) = k.promoted
    assert p.param == "B_c" and "a column of `B`" in p.reason
    s = stream_of(k)
    assert [b.name for b in s.chunk_params] == ["ac", "B_c"]
    (pl,) = k.prelude
    assert isinstance(pl.value, T.Transpose) and pl.value.source.name == "B"
    assert isinstance(s.arrays[1], T.Index) and s.arrays[1].array.binder is pl.binder


def test_the_promoted_product_is_the_product_written_with_a_transpose():
    """mm_rows (B read by index) and mm (B transposed in the prelude) get the same kernels."""
    def kernels(name):
        cuda = run_all((BENCHMARKS / f"{name}.fut").read_text(), "x.fut")["render"]
        return [line.split("//")[0] for line in cuda.splitlines() if not line.lstrip().startswith("//")]

    rows, mm = kernels("mm_rows"), kernels("mm")
    assert [line.replace("B_c", "b_c") for line in rows] == [line.replace("B0", "B") for line in mm]


def test_no_promote_leaves_the_read():
    k = kernel(PRODUCT.format(read="B[kk + k, j]", rows="n"), Options(no_promote=True))
    assert k.promoted == () and len(stream_of(k).chunk_params) == 1


def test_an_array_whose_extent_is_not_the_streams_is_left():
    (p,) = product("B[kk + k, j]", rows="p").promoted
    assert not p.param and "would not line up" in p.reason


def test_a_conditional_read_with_a_computed_index_is_left():
    (p,) = product("(if j + 1 < q then B[kk + k, j + 1] else 0f32)").promoted
    assert not p.param and "some steps only" in p.reason


def test_an_unconditional_read_with_a_computed_index_is_made_an_input():
    (p,) = product("B[kk + k, q - 1 - j]").promoted
    assert p.param == "B_c"


def test_an_index_that_changes_within_the_stream_is_left():
    (p,) = product("B[kk + k, (k + j) % q]").promoted  # (reading j: the stream stays in the point's body)
    assert not p.param and "changes within the stream" in p.reason


def test_a_read_outside_a_loop_over_the_chunk_is_not_a_candidate():
    """Not promoted; listed, for explain, as a read that uses the position
    otherwise (a stencil's window is the common case)."""
    text = PRODUCT.format(read="B[kk, j]", rows="n")
    (p,) = kernel(text).promoted
    assert p.param == "" and p.reason.startswith("its index uses the stream's position `kk`, but not as `kk + k`")


def test_the_first_index_of_a_3d_array_is_left():
    """Its chunk would be a column of a 2-D slice across the outer axis: no
    swap of the last two axes makes it a row."""
    text = """
fun [f32, m] main([[[f32, m], 4], n] B, [f32, n] w) =
  map(fn f32 (int i) =>
        streamSeq(fn f32 (int kk, [f32, c] wc, f32 acc) =>
                    loop (acc) = for k < c do acc + wc[k] * B[kk + k, 2, i] in acc
                 , w, 0f32)
     , iota(m))
"""
    (p,) = kernel(text).promoted
    assert not p.param and "neither the array's last" in p.reason


def test_two_reads_of_one_column_share_one_input():
    k = kernel((PROGRAMS / "analysis" / "promoted_column.fut").read_text())
    assert [p.param for p in k.promoted] == ["B_c", "B_c"]
    assert [b.name for b in stream_of(k).chunk_params] == ["ac", "B_c"]


def test_a_fresh_name_does_not_meet_the_programs():
    text = PRODUCT.replace("f32 acc", "f32 B_c").replace("acc", "B_c").format(read="B[kk + k, j]", rows="n")
    (p,) = kernel(text).promoted
    assert p.param == "B_c2"


def test_explain_lists_every_read_and_what_became_of_it():
    path = PROGRAMS / "analysis" / "promoted_row.fut"
    data = json.loads(tiler("explain", path, "--json").stdout)
    assert [(r["read"], r["input"]) for r in data["promoted"]] == [("A[i, kk + k]", "A_c"), ("x[kk + k]", "x_c")]
    text = tiler("explain", BENCHMARKS / "mm_rows.fut").stdout
    assert "index read B[kk + k, j] at 12:44: made stream input B_c: a column of `B`" in " ".join(text.split())


def test_a_column_of_a_batch_of_matrices_becomes_a_row_of_a_view_with_its_last_axes_swapped():
    """Found on an unseen program: a batched product reading `B[b, kk + t, j]`
    staged only A's row and read B from global memory on every step."""
    path = PROGRAMS / "analysis" / "promoted_batch_column.fut"
    k = kernel(path.read_text())
    (p,) = k.promoted
    assert p.param == "B_c" and "a column of `B`" in p.reason
    (pl,) = k.prelude
    assert isinstance(pl.value, T.Transpose) and pl.value.axis == 1
    assert [str(s) if isinstance(s, int) else s.name for s in pl.binder.type.shape] == ["nb", "q", "p"]
    s = stream_of(k)
    assert isinstance(s.arrays[1], T.Index) and [i.binder.name for i in s.arrays[1].indices] == ["b", "j"]
    a = run_to("analyse", path.read_text(), path.name, DEFAULT)
    (stream,) = a.schedule.streams
    assert stream.tiled and all(i.staged for i in stream.inputs)


def test_a_stencils_window_is_listed_as_a_read_with_its_reason():
    """A read whose index moves with the stream and with each point (a
    clamped window) is no chunk of a row or column: explain lists it."""
    text = """
fun int clampi(int i, int n) = min(max(i, 0), n - 1)

fun [f32, n] main([f32, n] x, [f32, k] w) =
  map(fn f32 (int i) =>
        streamSeq(fn f32 (int kk, [f32, c] wc, f32 acc) =>
                    loop (acc) = for j < c do acc + wc[j] * x[clampi(i + kk + j - k / 2, n)] in acc
                 , w, 0f32)
     , iota(n))
"""
    (p,) = kernel(text).promoted
    assert p.array == "x" and p.param == "" and "a stencil's, stays a read" in p.reason


def test_a_column_of_a_maps_element_of_an_array_of_mains_becomes_a_row_of_its_transposed_element():
    """`b[k, j]`, `b` the outer map's element of main's B: that map gains an
    element of B's view with its last two axes swapped, and the chunk is its
    row j; the kernel stage's program computes what the source does."""
    from tiler.check import check
    from tiler.fuzz.properties import CHUNKINGS, _kernel_stage
    from tiler.interp import run
    from tiler.syntax import parse
    from tiler.workload import make_inputs

    path = PROGRAMS / "analysis" / "batched_element_column.fut"
    k = kernel(path.read_text())
    (_, p) = k.promoted
    assert p.param == "b_c" and "a column of `b`" in p.reason
    (pl,) = k.prelude
    assert isinstance(pl.value, T.Transpose) and pl.value.source.name == "B" and pl.value.axis == 1
    outer = k.levels[0]
    assert [b.name for b in outer.params] == ["a", "b", "b_t"] and outer.args[2].binder is pl.binder
    s = stream_of(k)
    assert isinstance(s.arrays[1], T.Index) and s.arrays[1].array.binder is outer.params[2]
    prog = check(parse(path.read_text(), path.name))
    for seed in (1, 2):
        inputs = make_inputs(prog, {"nb": 2 + seed, "n": 5 + seed, "m": 7, "p": 9 + 4 * seed}, None, seed=seed)
        results = [run(prog, inputs, c, seed) for c in CHUNKINGS]
        assert _kernel_stage(prog, inputs, results, seed, path.read_text()) == []


def test_a_column_of_an_element_of_a_maps_element_is_left():
    """`b` an element of `bb`, itself a map's element: only a map's element
    of an array of main's is read through a transposed view."""
    text = """
fun [[[f32, m], nb], nc] main([f32, p] x, [[[[f32, m], p], nb], nc] B) =
  map(fn [[f32, m], nb] ([[[f32, m], p], nb] bb) =>
    map(fn [f32, m] ([[f32, m], p] b) =>
      map(fn f32 (int j) =>
            loop (acc = 0f32) = for k < p do acc + x[k] * b[k, j] in acc,
          iota(m)),
      bb),
    B)
"""
    (p,) = [p for p in kernel(text).promoted if p.array == "b"]
    assert not p.param and "neither the array's last" in p.reason, p.reason


ROWS_CHUNK = """
fun [f32, m] main([f32, n] x, [[f32, m], n] A) =
  map(fn f32 (int j) =>
        streamSeq(fn f32 (int kk, [f32, c] xc, [[f32, m], c] rows, f32 acc) =>
                    loop (acc) = for k < c do acc + xc[k] * {read} in acc,
                  x, A, 0f32),
      iota(m))
"""


def test_a_chunk_of_rows_read_at_one_column_becomes_that_columns_chunk():
    """`rows[k, j]` of a chunk of A's rows is A[kk + k, j]: a chunk of A's
    column j, as if the program had read it so; the chunk of rows, read
    nowhere else, is no input any more."""
    k = kernel(ROWS_CHUNK.format(read="rows[k, j]"))
    (p,) = k.promoted
    assert p.param == "A_c" and "a column of `A`" in p.reason
    s = stream_of(k)
    assert [b.name for b in s.chunk_params] == ["xc", "A_c"]
    assert isinstance(s.arrays[1], T.Index) and s.arrays[1].array.binder is k.prelude[0].binder


def test_a_chunk_of_rows_also_read_otherwise_stays_an_input():
    k = kernel(ROWS_CHUNK.format(read="rows[k, j] + rows[k, (j + k) % m]"))
    (p,) = [p for p in k.promoted if p.param]
    assert p.param == "A_c"
    assert [b.name for b in stream_of(k).chunk_params] == ["xc", "rows", "A_c"]


def test_a_row_of_the_chunk_walked_by_an_inner_loop_is_no_candidate():
    """k-means' centres: `cs[k, f]` with f an inner loop's index reads the
    chunk's rows whole: the chunk of rows is the input as written."""
    text = """
fun [f32, n] main([[f32, d], n] P, [[f32, d], c0] C) =
  map(fn f32 ([f32, d] pt) =>
        streamSeq(fn f32 (int kk, [[f32, d], c] cs, f32 best) =>
                    loop (best) = for k < c do
                      let dist = loop (s = 0f32) = for f < d do s + (pt[f] - cs[k, f]) * (pt[f] - cs[k, f]) in s
                      in min(best, dist)
                    in best,
                  C, 1e30f32),
      P)
"""
    k = kernel(text)
    assert not any(p.array == "C" for p in k.promoted)
    assert [b.name for b in stream_of(k).chunk_params][0] == "cs"


def test_a_chunk_of_rows_read_at_fixed_columns_is_no_candidate():
    """`pc[k, 0]`, `pc[k, 1]`, `pc[k, 2]` of a chunk of 3-D points: every
    point reads the same few columns, and the chunk of rows is copied whole
    (three transposed columns would read it three times, strided)."""
    k = kernel(ROWS_CHUNK.format(read="(rows[k, 0] + rows[k, 1] + rows[k, 2]) * f32(j)"))
    assert k.promoted == ()
    assert [b.name for b in stream_of(k).chunk_params] == ["xc", "rows"]


def test_a_chunk_of_rows_no_longer_than_a_warp_stays_a_chunk_of_rows():
    """Rows of a constant 32 read at the point's column (attention's values,
    `vc[j, e]`, e over 32 features): a block spans the 32 whole, so the
    chunk's rows are staged as written and nothing is promoted."""
    text = ROWS_CHUNK.replace("[[f32, m], n] A", "[[f32, 32], n] A").replace("[[f32, m], c] rows", "[[f32, 32], c] rows")
    text = text.replace("fun [f32, m] main", "fun [f32, 32] main").replace("iota(m)", "iota(32)")
    k = kernel(text.format(read="rows[k, j]"))
    assert not [p for p in k.promoted if p.param]
    assert [b.name for b in stream_of(k).chunk_params] == ["xc", "rows"]


COLUMN_LOOP = """
fun [f64, m] main([[f64, m], n] X) =
  map(fn f64 (int k) =>
        loop (acc = 0f64) = for j < n do {body}
        in acc
     , iota(m))
"""


def test_an_element_read_as_a_chain_is_the_element_and_a_row_read_is_no_element():
    """`X[j][k]` is `X[j, k]`: a column of X, its chunk of elements; a row
    `X[j]` is no element, and no chunk of elements stands for it (a row
    read once became a chunk of X's transpose, indexed as a row: column j
    of X read as row j)."""
    for body in ("acc + X[j][k]", "acc + X[j, k]"):
        s = stream_of(kernel(COLUMN_LOOP.format(body=body)))
        (array,) = s.arrays
        assert isinstance(array, T.Index) and array.array.binder.name == "X_t"  # X_t[k]: column k of X
        assert s.chunk_params[0].type.shape == (s.chunk,) and array.type.rank == 1
    k = kernel(COLUMN_LOOP.format(body="let r = X[j] in acc + r[k]"))
    for s in [e for e in _streams(k.body)]:
        for p, a in zip(s.chunk_params, s.arrays):
            assert p.type.rank == a.type.rank, "a chunk parameter that is not its array's chunk"


def _streams(e) -> list:
    from tiler.tree import descendants

    return [n for n in descendants(e, T.is_exp) if isinstance(n, T.Stream)]
