"""`tiler explain`: golden text and JSON for the benchmarks, the JSON's shape,
and its options. Regenerate the golden files with TILER_UPDATE_GOLDEN=1."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest
from conftest import BENCHMARK_NAMES, BENCHMARKS, ROOT, tiler, transformed

from tiler import kir
from tiler.analyse import Options
from tiler.pipeline import run_all
from tiler.report.explain import explain_data
from tiler.report.explain_text import render_text
from tiler.source import Source

GOLDEN = ROOT / "tests" / "golden" / "explain"
UPDATE = os.environ.get("TILER_UPDATE_GOLDEN") == "1"


def explained(name: str) -> dict:
    path = f"benchmarks/{name}.fut"
    text = (ROOT / path).read_text()
    values = run_all(text, path, until="verify")
    return explain_data(values["analyse"], Source(text, path), values["verify"], versions=values["versions"])


def golden(path, actual: str):
    if UPDATE or not path.exists():
        path.write_text(actual)
    assert actual == path.read_text(), f"{path.name} changed; review and rerun with TILER_UPDATE_GOLDEN=1"


@pytest.mark.parametrize("name", BENCHMARK_NAMES)
def test_golden_explain(name):
    data = explained(name)
    golden(GOLDEN / f"{name}.json", json.dumps(data, indent=2) + "\n")
    golden(GOLDEN / f"{name}.txt", render_text(data, variance=True, width=120))


def test_json_has_the_promised_shape():
    data = explained("mm")
    assert data["dims"] == [{"dim": 0, "size": "m", "line": 7, "column": 3},
                            {"dim": 1, "size": "q", "line": 8, "column": 9}]
    (s,) = data["streams"]
    assert {"line", "column", "inputs", "tiled", "kind", "block", "shared_bytes", "reason"} <= set(s)
    assert [(i["array"], i["invariant_to"]) for i in s["inputs"]] == [("a", [1]), ("b", [0])]
    # 3 TMA stages of two 128 x 32 tiles (the first versions' plan, A's copy transposed by the launch: core_tma.py)
    assert s["tiled"] is True and s["block"] == [16, 16] and s["shared_bytes"] == 3 * 2 * 128 * 32 * 4
    assert s["register_tile"] == [8, 8] and data["block"]["register_tile"]["sizes"] == [8, 8]
    r = data["block"]["register_tile"]
    assert r["asynchronous"] and not r["double_buffer"] and data["block"]["max_shared"] == 227 * 1024
    assert r["global_loads_per_point_step"] == round(2 / 128, 6) and r["shared_reads_per_point_step"] == 0.25
    # a 1-D block: [1, TN], TN the points a thread takes (n-body's body is light: 4); rows a thread
    # stages alone are not coarsened
    assert explained("nbody")["streams"][0]["register_tile"] == [1, 4]
    assert explained("matvec")["streams"][0]["register_tile"] == [1, 1]


def test_streams_are_in_source_order():
    lines = [(s["line"], s["column"]) for s in explained("lavamd")["streams"]]
    assert lines == sorted(lines)


def test_cli_json_and_text():
    result = tiler("explain", BENCHMARKS / "nbody.fut", "--json")
    assert result.returncode == 0 and json.loads(result.stdout)["streams"][0]["tiled"] is True
    # lavaMD's body reads nothing of its element: by default it runs once a row (hoisted), the row's threads
    # sharing its inner sum; left where it was written, the tiled kernel stages the rows a 1-D block shares
    result = tiler("explain", BENCHMARKS / "lavamd.fut")
    assert result.returncode == 0 and "hoisted: the streamSeq at 10:15, written at map level 1, runs at map level 0" \
        in " ".join(result.stdout.split()) and "split, 256 threads a row: when" in result.stdout
    result = tiler("explain", BENCHMARKS / "lavamd.fut", "--no-hoist")
    assert result.returncode == 0 and "tiled (1-D block in a 2-D grid)" in result.stdout
    assert "tiled: when every array has fewer than 2^31 elements and m >= " in result.stdout
    assert "untiled, 64-bit offsets: otherwise" in result.stdout


def test_versions_and_their_thresholds():
    data = json.loads(tiler("explain", BENCHMARKS / "mm.fut", "--json").stdout)
    # (after the versions that split a product's few points among threads; first the one reading A's copy the
    # launch transposes for TMA, its 32-bit vector kernel alone, where q >= 2048: core_tma.py)
    tma, vector, scalar, one_point, untiled, wide, wide_scalar, untiled_wide = \
        [v for v in data["versions"] if not v["lanes"]]
    assert tma["transposed"] == ["A"] and tma["transpose_when"] == [{"size": "q", "op": ">=", "value": 2048}]
    assert tma["multiple_of"] == [{"size": "m", "factor": 4}, {"size": "q", "factor": 4}]
    assert not vector["transposed"] and not wide["transposed"]
    assert {c["size"] for c in vector["condition"]} == {"m", "n"} and untiled["condition"] is None
    assert [v["offsets"] for v in data["versions"] if not v["lanes"]] == ["32-bit"] * 5 + ["64-bit"] * 3
    assert wide["multiple_of"] == vector["multiple_of"] and not wide_scalar["multiple_of"]
    # the 8 x 8 micro-tile where its grid gives every SM a block, one point a thread otherwise
    assert vector["grid_blocks_at_least_sms"] == "ceil(q / 128) * ceil(m / 128)"
    assert one_point["grid_blocks_at_least_sms"] is None and one_point["kernel"] == "tiled"
    assert untiled["elements_below"] == 2**31 and wide["elements_below"] is None
    assert wide["condition"] == vector["condition"] and untiled_wide["kernel"] == "untiled"
    assert vector["multiple_of"] == [{"size": "q", "factor": 4}]  # a's tile is copied element by element
    assert scalar["condition"] == vector["condition"] and not scalar["multiple_of"]
    given = json.loads(tiler("explain", BENCHMARKS / "mm.fut", "--json", "--threshold", "m=64").stdout)
    tiled = next(v for v in given["versions"] if not v["lanes"])
    assert {"size": "m", "dim": 0, "at_least": 64, "overridden": True} in tiled["condition"]
    bad = tiler("explain", BENCHMARKS / "mm.fut", "--threshold", "m=0")
    assert bad.returncode == 1 and "at least 1" in bad.stderr


def test_candidates_are_ranked_by_cost():
    data = json.loads(tiler("explain", BENCHMARKS / "mm.fut", "--json").stdout)
    costs = [c["cost"] for c in data["candidates"]]
    assert costs == sorted(costs) and data["candidates"][0]["spans"] == data["block"]["spans"]
    text = tiler("explain", BENCHMARKS / "mm.fut", "--candidates").stdout
    assert "candidate schedules, best first" in text


def test_cli_plan_options():
    result = tiler("explain", BENCHMARKS / "mm.fut", "--json", "--tile", "16")
    assert json.loads(result.stdout)["block"]["threads"] == [16, 16]
    result = tiler("explain", BENCHMARKS / "mm.fut", "--json", "--no-tile")
    assert all(not s["tiled"] for s in json.loads(result.stdout)["streams"])
    result = tiler("explain", BENCHMARKS / "mm.fut", "--json", "--max-shared", "1000")
    (stream,) = json.loads(result.stdout)["streams"]  # a smaller chunk fits: 1 KiB, not the 2-D block's 8 KiB
    assert stream["tiled"] and stream["chunk"] == 128 and "chunk 128, not 256" in stream["reason"]
    result = tiler("explain", BENCHMARKS / "mm.fut", "--json", "--max-shared", "16")  # not even a chunk of 8
    assert not any(s["tiled"] for s in json.loads(result.stdout)["streams"])


@pytest.mark.parametrize("args, message", [
    (["--tile", "abc"], "--tile expects N or N0,N1"),
    (["--tile", "0"], "between 1 and 1024"),
    (["--max-shared", "-5"], "--max-shared -5: between 0 and"),
])
def test_cli_plan_option_errors(args, message):
    result = tiler("explain", BENCHMARKS / "mm.fut", *args)
    assert result.returncode == 1 and message in result.stderr and "Traceback" not in result.stderr


def test_explain_reports_program_errors_like_check():
    result = tiler("explain", ROOT / "tests/programs/note/nbody.fut")
    assert result.returncode == 1 and "unknown name `i`" in result.stderr


@pytest.mark.parametrize("name", ["nbody", "mm", "lavamd"])
def test_golden_show_transformed(name):
    from tiler.analyse import Options
    from tiler.pipeline import run_all

    path = f"benchmarks/{name}.fut"  # (lavaMD's tiled kernel: where its work was written)
    values = run_all((ROOT / path).read_text(), path, Options(no_hoist=name == "lavamd"), until="versions")
    out = transformed(values)
    assert "copyFastMem(" in out and "shMem_" in out
    golden(GOLDEN / f"{name}.transformed.fut", out)


def test_show_transformed_leaves_untiled_streams_alone():
    result = tiler("explain", ROOT / "tests/programs/analysis/loop_bound.fut", "--show-transformed")
    assert result.returncode == 0 and "copyFastMem" not in result.stdout and "streamSeq(" in result.stdout


def test_a_narrow_terminal_keeps_every_word():
    """At 80 columns (COLUMNS) the inputs are one line each, not a table with cut cells."""
    done = subprocess.run([sys.executable, "-m", "tiler", "explain", str(BENCHMARKS / "lavamd.fut")],
                          capture_output=True, text=True, env={**os.environ, "COLUMNS": "80"}, timeout=120)
    assert done.returncode == 0 and "…" not in done.stdout and "┃" not in done.stdout
    assert "nhbs = iota(p): varies with none; invariant to 0, 1; decision global" in done.stdout


def test_json_says_how_each_input_coalesces():
    data = json.loads(tiler("explain", BENCHMARKS / "matvec.fut", "--json").stdout)
    ac, xc = data["streams"][0]["inputs"]
    assert (ac["coalesce"], ac["for_coalescing"], ac["uncoalesced_in_place"]) == ("shared", True, True)
    assert (xc["coalesce"], xc["for_coalescing"], xc["invariant_to"]) == ("none", False, [0])
    data = json.loads(tiler("explain", BENCHMARKS / "matvec.fut", "--json", "--no-coalesce").stdout)
    ac = data["streams"][0]["inputs"][0]
    assert (ac["coalesce"], ac["staged"], ac["uncoalesced_in_place"]) == ("none", False, True)
    text = tiler("explain", BENCHMARKS / "matvec.fut", "--no-coalesce").stdout
    assert "global, uncoalesced" in text


def test_show_transformed_walks_a_1d_blocks_row_tile_with_one_index():
    out = tiler("explain", BENCHMARKS / "matvec.fut", "--show-transformed").stdout
    assert "-- a copy's elements: e = threadIdx.x + 16 * step, for every step inside the tile" in out
    # row-major (thread row e / 64, element e % 64): cp.async lands each vector whole
    assert "copyFastMem(ac[e % 64], e / 64, e % 64)" in out and "threadIdx.y" not in out


def test_show_transformed_gives_register_tilings_three_steps():
    out = tiler("explain", BENCHMARKS / "mm.fut", "--show-transformed").stdout
    step1, step2, step3 = out.split("-- step ")[1:]
    # (the first versions' plan: A's copy the launch transposes, its tile a box TMA copies, core_tma.py)
    assert step1.startswith("1 of 3") and "copyFastMem(a_c[threadIdx.y]" in step1 and "G0_" not in step1
    # step 2: the kernel with each tiled dim's point the thread's group and lane, copies one line each
    assert "const int gtid0 = tiler_block_y * 128 + (G0_ * 64 + threadIdx.y * 4 + L0_);" in step2
    assert "// copyFastMem: cooperative copy: 128 x 32 tile of A_t into sh_a_c, rows fastest, 4 at a time" in step2
    assert "point_" not in step2 and "cp_async" not in out and "tiler_cp_async" not in out
    # step 3: interchanged (maps over points drawn as loops, A's and B's shared values read once into
    # registers for the other dim's points), then sequentialised (register arrays, unrolled loops)
    interchanged, sequentialised = step3.split("-- After sequentialising")
    assert "const float reg_sh_a_c = sh_a_c[G0_ * 64 + threadIdx.y * 4 + L0_ + k * 128];" in interchanged
    assert "for (int point_01 = 0; point_01 < 64; point_01 += 1) {" in interchanged
    assert "acc_2 = acc_2 + reg_sh_a_c * reg_sh_b_c;" in interchanged
    assert "float acc[64];" in sequentialised and "point_" not in sequentialised


def test_show_transformed_prints_the_rewrites_own_kernel():
    """Steps 2 and 3 are the kernel the rewrites made: the sequentialised
    compute statement is the .cu's own, line for line."""
    values = run_all((BENCHMARKS / "mm.fut").read_text(), "mm.fut")
    out = transformed(values)
    last = out.split("-- After sequentialising")[1]
    lines = [line.strip() for line in last.splitlines() if "reg_sh_a_c[G0_ * 4 + L0_] * reg_sh_b_c[" in line
             or "v_reg_sh_a_c = " in line]
    # (the kernel's own reads its tiles from a ring of TMA's three buffers: the drawing's one buffer at the step's)
    render = values["render"].replace("kk_stage * 4096 + ", "")
    assert len(lines) >= 2 and all(line in render for line in lines)


def test_show_transformed_keeps_a_1d_strips_point_values_and_enclosing_streams():
    out = tiler("explain", BENCHMARKS / "nbody3d.fut", "--show-transformed", "--register-tile", "2").stdout.split(
        "step 3 of 3")[1]
    assert "const float dx = sh_xc[j] - xi;" in out.split("-- After sequentialising")[0]
    assert "float ax[2];" in out.split("-- After sequentialising")[1]
    out = tiler("explain", BENCHMARKS / "lavamd.fut", "--show-transformed", "--no-hoist").stdout.split(
        "step 3 of 3")[1]
    # rows joined: the loop is one stream over p rows of m, its chunks of 512 copied once for the block
    assert "const int joined = p * m;" in out and "for (int kk2 = 0; kk2 < joined - 511; kk2 += 512) {" in out


def test_show_transformed_writes_promoted_reads_as_the_chunks_they_became():
    out = tiler("explain", BENCHMARKS / "mm_rows.fut", "--show-transformed").stdout
    step1 = out.split("step 2 of 3")[0]
    assert "acc + shMem_a_c[k, threadIdx.y] * shMem_B_c[k, threadIdx.x]" in step1
    assert "a, transpose(B)[j], 0.0f32)" in step1
    assert "128 x 32 tile of B into sh_B_c" in out.split("step 3 of 3")[1]


def test_show_transformed_shows_a_fissioned_folds_pairs_kernel():
    """k-means' fold is fissioned: after the fold's own drawing, the pairs'
    kernel (every point-centre distance, register-tiled) as the rewrites made it."""
    out = tiler("explain", BENCHMARKS / "kmeans.fut", "--show-transformed").stdout
    own, pairs = out.split("-- the fissioned versions")
    assert "copyFastMem(cc[e / 64, e % 64]" in own and "G0_" not in own
    assert "into scratch memory first (dist_all)" in pairs
    assert "// copyFastMem: cooperative copy: 128 x 16 tile of centres into sh_cc_c, chunk fastest" in pairs
    assert "point_01" in pairs and "-- After sequentialising" in pairs
    assert "and synchronous (--show-rewrites prints the kernel's own, pipelined)" in pairs.replace("\n-- ", " ")
    plain = tiler("explain", BENCHMARKS / "kmeans.fut", "--show-transformed", "--no-fission").stdout
    assert "fissioned" not in plain
    # a grid too small for the register tile: the pairs' kernel one point a thread, shown once (a review
    # found it left out)
    small = tiler("explain", BENCHMARKS / "kmeans.fut", "--size", "k=128", "--size", "n=3",
                  "--show-transformed").stdout.split("-- the fissioned versions")[1]
    assert "one point a thread (no register tile)" in small.replace("\n-- ", " ") and "dist_all[gtid0 * k + gtid1] = s2;" in small
    assert "G0_" not in small and "point_" not in small


def test_show_transformed_keeps_a_uniform_branch_around_the_points():
    out = tiler("explain", ROOT / "tests/programs/analysis/uniform_branch.fut", "--show-transformed").stdout
    interchanged = out.split("step 3 of 3")[1].split("-- After sequentialising")[0]
    assert interchanged.lstrip("-").count("if (mode > 0) {") == 1 and "point_0" in interchanged
    plain = tiler("explain", BENCHMARKS / "matvec.fut", "--show-transformed").stdout
    assert "step 1 of 3" not in plain  # no register tile: the block-tiled program alone


def test_json_says_why_an_input_is_read_in_place_as_one_word():
    data = json.loads(tiler("explain", BENCHMARKS / "matvec.fut", "--json", "--no-coalesce").stdout)
    (stream,) = data["streams"]
    assert [i["refusal"] for i in stream["inputs"]] == ["coalescing_off", None]
    tiled = json.loads(tiler("explain", BENCHMARKS / "mm.fut", "--json").stdout)
    assert all(i["refusal"] is None for s in tiled["streams"] for i in s["inputs"])


@pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc is not on PATH")
def test_nvcc_gives_ptxas_report_for_every_version():
    """explain --nvcc: each version's kernels as ptxas built them, their
    shared memory the plan's; the micro-tile's "about N" near ptxas's N."""
    done = tiler("explain", "benchmarks/mm.fut", "--nvcc", "--json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["arch"] == "sm_90"
    for v in data["versions"]:
        for k in v["ptxas"]:  # (several blocks a point: a kernel each stage)
            assert k["shared_bytes"] == k["planned_shared_bytes"] and not k["spill_stores"]
    first = next(v for v in data["versions"] if not v["lanes"])["ptxas"][0]["registers"]
    assert abs(data["block"]["register_tile"]["registers_expected"] - first) <= 0.15 * first
    text = tiler("explain", "benchmarks/mm.fut", "--nvcc").stdout
    assert f"ptxas: {first} registers, no spills" in text and "49920 of dynamic shared memory" in text


def test_a_coarsened_block_claims_no_register_count():
    """A 1-D block's registers are its body's, which the plan does not
    count (ptxas's, with --nvcc): explain states its accumulators only."""
    data = explained("lavamd")
    assert data["block"]["register_tile"]["registers_expected"] is None
    assert "in all" not in render_text(data, variance=False, width=120)


def _explained(path) -> str:
    return tiler("explain", str(path)).stdout + tiler("compile", str(path), "--emit", "launch").stdout


def test_a_condition_two_transposed_arrays_share_is_tested_once():
    """b_ell_spmv_f64 transposes cols and vals at the same sizes: one test, in explain and in the launch."""
    shown = _explained(ROOT / "corpus" / "b_ell_spmv_f64.fut")
    assert "maxd >= 2048" in shown and shown.count("maxd >= 2048 and n <= 16896 and maxd") == 0
    assert "maxd >= 2048 && n <= 16896 && maxd" not in shown


def test_reuse_is_what_the_kernel_does():
    """A register tile's reads are said once an input (an input every point shares, for all of them); a
    tile each thread reads at its own index serves nobody else; the matrix product's wording is its own."""
    sq = """fun [[f32, m], n] main([[f32, m], n] A, [f32, k] w) =
  map(fn [f32, m] ([f32, m] row) =>
        map(fn f32 (f32 x) =>
              streamSeq(fn f32 (int kk, [f32, ch] wc, [f32, ch] vc, f32 acc) =>
                          loop (acc) = for j < ch do acc + wc[j] * vc[j] * x in acc
                       , w, w, 0f32)
           , row)
     , A)
"""
    data = explain_data(run_all(sq, "sq.fut")["analyse"], Source(sq, "sq.fut"))
    reason = data["block"]["register_tile"]["reason"]
    assert reason.count("wc is read once") == 1 and "wc is read once for the 64 points along dims 0 and 1" in reason
    assert "product's" not in data["block"]["min_blocks"]["reason"]
    vecmat = (ROOT / "corpus" / "a_vecmat_stream_f32.fut").read_text()  # (its chunk of rows, read as written)
    data = explain_data(run_all(vecmat, "v.fut", Options(no_promote=True))["analyse"], Source(vecmat, "v.fut"))
    (stream,) = data["streams"]
    rows = next(i for i in stream["inputs"] if i["param"] == "rows")
    assert "each element is read by one of them only, at its own index" in rows["reason"]
    assert "every thread reads every staged element" not in data["block"]["min_blocks"]["reason"]
    assert "each point reads its own elements of rows" in data["block"]["register_tile"]["reason"]
    assert data["block"]["register_tile"]["global_loads_per_point_step"] > 1  # rows: one load a point


@pytest.mark.parametrize("path, args", [
    (BENCHMARKS / "kmeans.fut", ("--size", "d=34")), (BENCHMARKS / "mm.fut", ()),
    (ROOT / "corpus" / "b_ell_spmv_f64.fut", ()), (ROOT / "tests" / "programs" / "analysis" / "branch.fut", ()),
    (ROOT / "corpus" / "a_vecmat_stream_f32.fut", ())], ids=["kmeans-d34", "mm", "ell", "branch", "vecmat"])
def test_every_version_line_says_the_launchs_condition(path, args):
    """Each version the launch holds has its line, with every size the
    launch tests (a row length fixed at compile time as `d = 34`), no empty
    condition and no test twice."""
    text = tiler("explain", path, *args).stdout
    launch = json.loads(tiler("compile", path, *args, "--emit", "launch").stdout)
    lines = [line for line in text.split("\nversions", 1)[1].splitlines()[1:] if line.startswith("  ")]
    named = [line for line in lines if ": when " in line or ": otherwise" in line or "at every size" in text]
    assert len(named) >= len(launch["versions"]) or "at every size" in text
    assert "when  (" not in text and "when ()" not in text
    for line in lines:
        tests = line.split(": when ", 1)[1].split(" (")[0].split(" and ") if ": when " in line else []
        assert len(tests) == len(set(tests)), line
    if args:
        assert all("d = 34" in line for line in lines if line.lstrip().startswith("tiled"))
        assert all("d == 34" in (v["condition"] or "") for v in launch["versions"]
                   if v["tiled"] and "_split" not in v["kernel"])  # (a split reads rows whole, of any length)


DRAWN = sorted(BENCHMARKS.glob("*.fut")) + sorted((ROOT / "tests/programs/analysis").glob("*.fut"))


@pytest.mark.parametrize("path", DRAWN, ids=lambda p: p.stem)
def test_every_tile_the_drawing_shows_is_one_the_cuda_declares(path):
    """--show-transformed draws the plan from the syntax tree, lower builds
    the CUDA from the kernel: each `fast memory: shMem_X[a][b]` drawn must
    be a shared array `sh_X` of a * b elements in some version, so that the
    drawing cannot drift from the kernels unnoticed."""
    import math
    import re

    values = run_all(path.read_text(), str(path))
    drawn = {(name, math.prod(int(d) for d in re.findall(r"\d+", dims))) for name, dims in
             re.findall(r"fast memory: shMem_(\w+)((?:\[\d+\])+)", transformed(values))}
    declared = {(a.name.removeprefix("sh_"), a.elems) for k in values["verify"].kernels for a in k.shared}
    for k in values["verify"].kernels:  # (a CUDA-core product's TMA ring: its stages' tiles in one array)
        stages = next((s.stages for s in kir.statements(k.body) if isinstance(s, kir.TmaBarriers)), 1)
        rings = {x.shared for s in kir.statements(k.body) if isinstance(s, kir.TmaIssue) for x in s.copies
                 if not isinstance(x.offset, int)}
        declared |= {(a.name.removeprefix("sh_"), a.elems // stages) for a in k.shared if a.name in rings}
    assert drawn <= declared, (drawn - declared, declared)
