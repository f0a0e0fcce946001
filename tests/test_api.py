"""The Python API: tiler.compile and what it returns (GPU runs in test_gpu.py)."""
from __future__ import annotations

import re

import numpy as np
import pytest
from conftest import BENCHMARKS

import tiler


def test_compile_a_path_gives_what_the_command_line_writes():
    k = tiler.compile(BENCHMARKS / "mm.fut")
    assert k.file.endswith("mm.fut") and 'extern "C" cudaError_t tiler_mm_launch(' in k.cuda
    # (first the version whose tiles TMA copies from A's transposed copy, core_tma.py, then those reading A in place)
    assert "tiler_mm_launch(" in k.header and [v["kernel"] for v in k.launch["versions"]
                                                if "_split" not in v["kernel"]][:3] == \
        ["tiler_mm_tiled_transposed", "tiler_mm_tiled", "tiler_mm_tiled_scalar"]
    assert k.explain["streams"][0]["tiled"] and k.explain["block"]["register_tile"]["sizes"]
    assert k.module.main.name == "tiler_mm_tiled_transposed"


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


class _FakeDeviceArray:
    """What a CuPy array shows through __cuda_array_interface__ (no GPU needed:
    these inputs are refused before anything is launched)."""

    def __init__(self, shape, typestr="<f4", strides=None):
        self.__cuda_array_interface__ = {"shape": shape, "typestr": typestr, "strides": strides,
                                         "data": (0x7F0000000000, False), "version": 3}


def test_device_arrays_are_checked_before_any_launch():
    from tiler.runtime import interop

    k = tiler.compile(BENCHMARKS / "mm.fut")
    b = np.ones((37, 8), np.float32)
    with pytest.raises(tiler.PlainError, match="`A` holds float32, not float64") as bad:
        k.run(A=_FakeDeviceArray((16, 37), "<f8"), B0=b)
    assert "astype" in bad.value.render()
    with pytest.raises(tiler.PlainError, match="not C-contiguous"):
        k.run(A=_FakeDeviceArray((16, 37), strides=(296, 4)), B0=b)
    with pytest.raises(tiler.PlainError, match="rank 2"):
        k.run(A=_FakeDeviceArray((16,)), B0=b)
    # a contiguous array described by its strides is read in place; a size-1 dimension's stride is free
    d = interop.device_array("A", _FakeDeviceArray((1, 37), strides=(4, 4)))
    assert (d.pointer, d.shape, d.nbytes, d.library) == (0x7F0000000000, (1, 37), 148, "")
    assert not interop.on_device(np.ones(3)) and interop.on_device(_FakeDeviceArray((3,)))


def test_arrays_that_disagree_on_a_size_are_refused_before_a_launch():
    """The GPU reads B0 with A's n: a B0 with fewer rows would be read past its end."""
    k = tiler.compile(BENCHMARKS / "mm.fut")
    with pytest.raises(tiler.PlainError, match="size `n` is 37 by `A` but 30 by `B0`"):
        k.sizes_of({"A": np.ones((16, 37), np.float32), "B0": np.ones((30, 8), np.float32)})


def test_the_api_names_a_wrong_argument_and_takes_numpy_integers():
    """Each bad value is a PlainError naming the argument and what it takes;
    NumPy's integers are integers (and never bools)."""
    import numpy as np

    import tiler
    from tiler.errors import PlainError

    mm = BENCHMARKS / "mm.fut"
    for kwargs, said in ((dict(tile=1.5), "tile 1.5: a whole number, a tuple of them"),
                         (dict(sizes="n=5"), "sizes 'n=5': a dict of size names"),
                         (dict(thresholds=[1]), "thresholds [1]: a dict of size names"),
                         (dict(sizes={"n": True}), "sizes 'n': True: a size name and a whole number"),
                         (dict(chunk=True), "chunk True: a whole number, not a bool"),
                         (dict(no_tile="yes"), "no_tile 'yes': True or False"),
                         (dict(transpose="x"), "transpose 'x': True, False or None"),
                         (dict(max_shared="x"), "max_shared 'x': a whole number, not a str")):
        with pytest.raises(PlainError, match=re.escape(said)):
            tiler.compile(mm, **kwargs)
    k = tiler.compile(mm, tile=np.int64(16), chunk=np.int32(64), sizes={"n": np.int64(500)},
                      register_tile=(np.int64(4), 8))
    assert "__global__" in k.cuda


def test_the_api_refuses_a_file_or_name_that_is_not_text_and_takes_the_defaults_given_back():
    import tiler
    from tiler.errors import PlainError

    for kw in ({"file": 3}, {"name": 3}):
        with pytest.raises(PlainError):
            tiler.compile(BENCHMARKS / "mm.fut", **kw)
    # an option's own default, given back, is no option: the race stays on, --no-tile alone
    assert tiler.compile(BENCHMARKS / "mm.fut", tile=(), register_tile=()).module.timed
    assert not tiler.compile(BENCHMARKS / "mm.fut", no_tile=True, tile=()).explain["streams"][0]["tiled"]
