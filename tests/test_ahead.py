"""A split's lanes load the reads of AHEAD iterations before folding them (lower/ahead.py)."""
from __future__ import annotations

import re

from conftest import ROOT

from tiler.analyse import Options
from tiler.check import typed as T
from tiler.lower.ahead import AHEAD, AHEAD_BYTES, branches, iterations_ahead, read_ahead
from tiler.pipeline import run_all, run_to
from tiler.tree import descendants

CORPUS = ROOT / "corpus"


def loops_of(text: str) -> list:
    k = run_to("kernel", text, "a.fut")
    return [e for e in descendants(k.body, T.is_exp) if isinstance(e, T.Loop)]


def test_the_reads_every_iteration_makes_at_its_own_index_are_loaded_ahead():
    (loop,) = loops_of("""
fun [f32, n] main([[f32, m], n] A, [f32, m] w, [int, m] at) =
  map(fn f32 ([f32, m] row) =>
        loop (s = 0f32) = for j < m do
          let t = row[j] * w[j] in
          let u = if t > 0f32 then w[at[j] % m] else 0f32 in
          s + t / (u + 1f32) + w[min(j, m - 1)]
        in s,
      A)
""")
    reads = read_ahead(loop)
    texts = sorted(r.array.binder.name if isinstance(r.array, T.Var) else "?" for r in reads)
    # row[j] and w[j] (made chunks of stream inputs: row_c, w_c) and w[min(j, m - 1)]; not w[at[j] % m], which
    # only the `if`'s branch makes
    assert texts == ["row_c", "w", "w_c"], texts


def test_a_read_of_what_the_step_carries_is_not_loaded_ahead():
    (loop,) = loops_of("""
fun [int, n] main([int, m] next, [int, n] start) =
  map(fn int (int s0) => loop (p = s0) = for j < m do next[p] + int(f32(j) / 3f32) in p, start)
""")
    assert branches(loop) and read_ahead(loop) == []


def test_a_step_that_does_not_branch_loads_nothing_ahead():
    """Its loads issue ahead without help (row sums, layer norms and column sums ran slower loaded ahead)."""
    (loop,) = loops_of("""
fun [f32, n] main([[f32, m], n] A, [f32, m] w) =
  map(fn f32 ([f32, m] row) => loop (s = 0f32) = for j < m do s + row[j] * w[j] + exp(row[j]) in s, A)
""")
    assert not branches(loop) and read_ahead(loop) == []


def test_a_split_column_welford_loads_its_elements_first():
    path = CORPUS / "c_col_welford_f32.fut"
    cuda = run_all(path.read_text(), path.name, Options())["render"]
    lane = cuda[cuda.index("tiler_c_col_welford_f32_split32_cols("):]
    lane = lane[lane.index("this lane's share"):]
    loads = [line for line in lane.splitlines()[1:AHEAD + 1]]
    assert all("_ahead" in line and "obs[" in line for line in loads), loads
    assert "? obs[" in loads[1] and ": 0.0f;" in loads[1]  # past the row's end: a zero never folded
    assert f"{AHEAD} at a time, their reads loaded first" in lane.splitlines()[0]


HELPER_INDEX = (ROOT / "tests/programs/analysis/split_helper_index.fut").read_text()


def test_a_read_whose_index_calls_a_helper_is_not_loaded_ahead():
    """The helper's lets lower to statements an iteration's bounds test would not guard (at[j] past the row's
    end); the row's own element still is, and the bytes of reads inside an index count."""
    (loop,) = loops_of(HELPER_INDEX)
    assert [r.array.binder.name for r in read_ahead(loop)] == ["row_c"]
    cuda = run_all(HELPER_INDEX, "a.fut", Options())["render"]
    splits = [k for k in cuda.split('extern "C" __global__')[1:] if "this lane's share" in k]
    assert splits and any("their reads loaded first" in k for k in splits)
    for kernel in splits:  # a lane's later iteration's `at` read: only inside that iteration's bounds test
        lines = kernel.splitlines()
        for i, line in enumerate(lines):
            later = re.search(r"\bat\[(\w+) \+ (\d+)\]", line)
            if later:
                test = next(t for t in reversed(lines[:i]) if t.strip().startswith("if ("))
                assert f"if ({later[1]} + {later[2]} < " in test, (test, line)


def test_the_reads_inside_an_index_count_toward_the_bytes_ahead():
    (loop,) = loops_of("""
fun [f32, n] main([[f32, m], n] A, [f32, k] w, [int, m] at) =
  map(fn f32 ([f32, m] row) => loop (s = 0f32) = for j < m do s + row[j] / w[at[j]] in s, A)
""")
    reads = read_ahead(loop)  # row[j] and w[at[j]], with at[j]: 12 bytes an iteration, one in AHEAD_BYTES
    assert len(reads) == 2 and AHEAD_BYTES // 12 < 2 and iterations_ahead(reads) == 0
