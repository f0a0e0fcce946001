"""`tiler bench` without a GPU, and its options (the timings themselves are
measured on a GPU and recorded in benchmarks/RESULTS.md, never asserted)."""
from __future__ import annotations

import pytest
from conftest import tiler

from tiler.bench import ABLATIONS, benchmark_names, variants
from tiler.runtime import gpu_unavailable


def test_every_benchmark_can_be_benched():
    assert benchmark_names() == ["aat", "attention_bf16", "blur", "colsum", "conv1d", "conv1d31", "conv2d", "embed_scores", "kmeans", "lavamd",
                                 "lavamd_rodinia", "layernorm", "matvec", "mlp", "mm", "mm_bf16", "mm_f64", "mm_rows", "mriq", "nbody", "nbody3d",
                                 "rowcount", "rownorm", "rowsum", "rowsum3d", "softmax", "star25", "stencil3d"]


def test_variants_and_ablations():
    labels = [v.label for v in variants(("16",), ablate=True)]
    assert labels[:3] == ["untiled", "tiled", "tiled --tile 16"]
    assert len(labels) == 3 + len(ABLATIONS) + 1
    # the last: the program as compiled without --size, its sizes read at launch
    (last,) = [v for v in variants((), ablate=True) if not v.hinted]
    assert "known only at launch" in last.label and all(v.hinted for v in variants((), ablate=False))


@pytest.mark.skipif(gpu_unavailable() is None, reason="a GPU is present")
def test_without_a_gpu_bench_says_so_in_one_line():
    result = tiler("bench", "nbody")
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert result.stderr.startswith("error: no GPU:") and len(result.stderr.strip().splitlines()) <= 2


@pytest.mark.parametrize("args, message", [
    (["nope"], "no benchmark called `nope`"),
    (["nbody", "--repeat", "0"], "--repeat must be at least 1"),
    (["missing.fut"], "cannot read missing.fut"),
    (["benchmarks/matvec.fut", "-i", "q={x5}"], "--input q: no program benched has a parameter `q`"),
    (["benchmarks/matvec.fut", "-i", "A={x5}"], "--input A: `A` is [[f32, m], n], but the file holds an array of shape (5,)"),
    (["{bad}"], "bad.fut:1:"),
])
def test_bench_option_errors(tmp_path, args, message):
    """Checked before any GPU work: the same messages with a GPU or without."""
    import numpy as np

    np.save(tmp_path / "x5.npy", np.ones(5, np.float32))
    (tmp_path / "bad.fut").write_text("fun f32 main(f32 x) = x +* 1f32\n")
    names = {"x5": tmp_path / "x5.npy", "bad": tmp_path / "bad.fut"}
    result = tiler("bench", *(a.format(**names) for a in args))
    assert result.returncode == 1 and message in result.stderr, result.stderr


def test_bench_json_says_what_makes_it_reproducible():
    import json

    from tiler import __version__
    from tiler.bench import Row
    from tiler.cli.bench import BENCH_SCHEMA, _bench_json

    result = {"benchmark": "mm", "sizes": {"m": 8}, "flops": 1024, "device": "GPU", "tiler": __version__,
              "repeat": 3, "rows": [Row("tiled", "16 x 16", [1.0, 1.5, 2.0])]}
    run = json.loads(_bench_json([result], {"device": "GPU", "compute_capability": "9.0", "build_arch": "sm_90a"}))
    assert run["schema"] == BENCH_SCHEMA and run["tiler"] == __version__ and run["date"].startswith("20")
    assert run["environment"]["compute_capability"] == "9.0" and run["environment"]["build_arch"] == "sm_90a"
    assert run["input_seed"] == 1
    assert run["commit"] is None or len(run["commit"].rstrip("+")) == 40
    (mm,) = run["results"]
    assert mm["sizes"] == {"m": 8} and mm["variants"][0]["times_ms"] == [1.0, 1.5, 2.0]


def test_a_library_the_bench_cannot_run_is_refused(tmp_path):
    from tiler.errors import PlainError
    from tiler.workload import load_spec

    (tmp_path / "p.toml").write_text('[library]\nop = "gemv"\n')
    with pytest.raises(PlainError, match="op = 'gemv' is not one tiler bench runs"):
        load_spec(tmp_path / "p.fut")


def test_list_names_every_benchmark_with_its_sizes_without_a_gpu():
    done = tiler("bench", "--list")
    assert done.returncode == 0, done.stderr
    for name in benchmark_names():
        assert any(line.startswith(f"{name} ") for line in done.stdout.splitlines()), name
    assert "quick: m=1024, n=1024, q=1024; full: m=4096, n=4096, q=4096" in done.stdout  # mm's
    refused = tiler("bench", "--list", "mm")
    assert refused.returncode == 1 and "give it no names" in refused.stderr


def test_a_users_own_script_beside_a_program_is_not_run_as_a_twin(tmp_path, monkeypatch):
    """`tiler bench prog.fut` with a prog.py that defines no `torch_twin`
    (a user's own host script, say): no twin rows, and the script is not
    run, even where PyTorch sees a GPU."""
    import tiler.bench
    from tiler.bench import _twin_rows

    monkeypatch.setattr(tiler.bench, "_torch_on_gpu", lambda: True)
    program = tmp_path / "prog.fut"
    program.write_text("fun [f32, n] main([f32, n] a) = map(fn f32 (f32 x) => x, a)\n")
    (tmp_path / "prog.py").write_text("raise SystemExit('a user script must not run')\n")
    assert _twin_rows(program, None, None, {}, 1, (), "prog") == []


def test_the_library_row_names_cublas_by_the_operands_type_and_tf32_only_for_f32():
    import numpy as np

    from tiler.bench.library import _named, library_row

    assert _named("cuBLAS SGEMM", ("f32", "f32")) == "cuBLAS SGEMM"
    assert _named("cuBLAS SGEMM", ("f64", "f64")) == "cuBLAS DGEMM"
    assert _named("cuBLAS SGEMM", ("bf16", "bf16")) == "cuBLAS GEMM"
    assert _named("torch.softmax(dim=-1)", ("f64",)) == "torch.softmax(dim=-1)"
    a = np.zeros((2, 2))
    lib = {"op": "matmul", "operands": ["A", "B"]}
    # under --tensor-cores the TF32 row is for f32 products alone (no GPU needed to decline the others)
    assert library_row(lib, {"A": a, "B": a}, 1, None, None, 0, 1e-2, {"A": "f64", "B": "f64"}) is None
