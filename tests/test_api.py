"""The Python API: tiler.compile and what it returns (GPU runs in test_gpu.py)."""
from __future__ import annotations

import numpy as np
import pytest
from conftest import BENCHMARKS

import tiler


def test_compile_a_path_gives_what_the_command_line_writes():
    k = tiler.compile(BENCHMARKS / "mm.fut")
    assert k.file.endswith("mm.fut") and 'extern "C" cudaError_t tiler_mm_launch(' in k.cuda
    assert "tiler_mm_launch(" in k.header and [v["kernel"] for v in k.launch["versions"]][:2] == \
        ["tiler_mm_tiled", "tiler_mm_tiled_scalar"]
    assert k.explain["streams"][0]["tiled"] and k.explain["block"]["register_tile"]["sizes"]
    assert k.module.main.name == "tiler_mm_tiled"


def test_compile_text_with_options_and_run_the_interpreter():
    k = tiler.compile("fun [f32, n] main([f32, n] xs) = map(fn f32 (f32 x) => x * 2f32, xs)", no_tile=True,
                      file="double.fut")
    assert k.file == "double.fut" and not any(s["tiled"] for s in k.explain["streams"])
    (out,) = k.reference(xs=np.arange(5, dtype=np.float32))
    assert np.array_equal(out, np.arange(5, dtype=np.float32) * 2)
    a, b = np.ones((3, 2), np.float32), np.ones((2, 4), np.float32)
    (c,) = tiler.compile(BENCHMARKS / "mm.fut", tile=8, sizes={"m": 3}).reference(A=a, B0=b)
    assert np.array_equal(c, a @ b)


def test_mistakes_raise_the_command_lines_errors():
    with pytest.raises(tiler.UserError) as bad:
        tiler.compile("fun [f32, n] main([f32, n] xs) = map(fn f32 (f32 x) => x +* 2f32, xs)")
    assert bad.value.render().startswith("<string>:1:59: error: expected an expression")
    with pytest.raises(tiler.PlainError, match="a block has at most 1,024"):
        tiler.compile(BENCHMARKS / "mm.fut", tile=(64, 64))
    with pytest.raises(tiler.PlainError, match="sizes\\['n'\\] = -1"):
        tiler.compile(BENCHMARKS / "mm.fut", sizes={"n": -1})
    with pytest.raises(tiler.PlainError, match="no value for B0"):
        tiler.compile(BENCHMARKS / "mm.fut").reference(A=np.ones((2, 2), np.float32))
    with pytest.raises(tiler.PlainError, match="cannot read"):
        tiler.compile("nope.fut")


def test_an_int_size_is_given_by_name():
    from conftest import PROGRAMS

    k = tiler.compile(PROGRAMS / "analysis" / "int_size.fut")
    xs = np.linspace(0, 1, 5, dtype=np.float32)
    (got,) = k.reference(n=7, h=np.float32(0.1), xs=xs)
    want = [sum(1 / (1 + (np.float32(i) * np.float32(0.1) - x) ** 2) for x in xs) for i in range(7)]
    assert got.shape == (7,) and np.allclose(got, want, rtol=1e-5)
    assert k.sizes_of({"n": 7, "h": 0.1, "xs": xs}) == {"k": 5, "n": 7}
