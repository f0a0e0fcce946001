"""f16 and bf16 (docs/language.md, "16-bit floats"): bf16's host rounding,
the checker's literals and conversions, the interpreter's exact results, and
the CUDA of the programs under tests/programs/float16, which state their
expectations as the analysis programs do:
  -- stream: L:C tiled KIND       the stream starting at L:C is tiled so
  -- reduction: L:C split OPS     the loop at L:C is a reduction split by OPS
  -- exact: yes                   every kernel gives the interpreter's bits
"""
from __future__ import annotations

import re
import subprocess

import numpy as np
import pytest
from conftest import PROGRAMS, header, toolkit_include

from tiler import bfloat16, target
from tiler.analyse import Options
from tiler.analyse.blocks import stream_kind
from tiler.check import check
from tiler.check import typed as T
from tiler.check.types import BF16, F16
from tiler.interp import run
from tiler.pipeline import run_all, run_to
from tiler.render import rename_module
from tiler.runtime.nvcc import nvcc_path
from tiler.syntax import parse
from tiler.tree import descendants

FLOAT16 = sorted((PROGRAMS / "float16").glob("*.fut"))
OPTION_SETS = {"untiled": Options(no_tile=True), "tiled": Options(), "tile16": Options(tile=(16,)),
               "small-shared": Options(max_shared=2048)}
ULP_F16, ULP_BF16 = 2.0**-10, 2.0**-7  # the spacing of each just above 1


def checked(text: str):
    return check(parse(text, "t.fut"))


# ---- bf16 on the host ---------------------------------------------------------------------------


def test_bf16_rounds_to_nearest_with_ties_to_even():
    half = ULP_BF16 / 2
    x = np.array([1 + half, 1 + 3 * half, 1 + half + 2.0**-20, -(1 + half), 1 + ULP_BF16], np.float32)
    assert bfloat16.rounded(x).tolist() == [1.0, 1 + 2 * ULP_BF16, 1 + ULP_BF16, -1.0, 1 + ULP_BF16]


def test_bf16_overflows_to_infinity_past_the_largest_and_its_half_spacing():
    top, half = bfloat16.MAX, 2.0**119
    x = np.array([top, top + half * 0.99, top + half, 3.4e38, np.float32(3.4028235e38), -3.4e38], np.float64)
    assert bfloat16.rounded(x.astype(np.float32)).tolist() == [top, top, np.inf, np.inf, np.inf, -np.inf]
    assert bfloat16.rounded(x).tolist() == [top, top, np.inf, np.inf, np.inf, -np.inf]


def test_bf16_keeps_subnormals_and_nan():
    tiny = 2.0**-133  # the smallest subnormal bf16
    x = np.array([tiny, tiny / 2, 3 * tiny / 2, 2.0**-149, -tiny / 2], np.float32)
    got = bfloat16.rounded(x)
    assert got.tolist() == [tiny, 0.0, 2 * tiny, 0.0, -0.0] and np.signbit(got[-1])
    nans = bfloat16.rounded(np.array([np.nan, -np.nan, np.float32(np.inf)], np.float32))
    assert np.isnan(nans[:2]).all() and nans[2] == np.inf
    bits = np.array([0x7F80FFFF, 0xFFFFFFFF], np.uint32).view(np.float32)  # NaNs the carry would turn into inf, -0
    assert np.isnan(bfloat16.rounded(bits)).all()


def test_bf16_rounds_a_float64_or_an_integer_once():
    # through float32 first, 1 + 2^-8 + 2^-30 would be a tie (and go down), 2^60 + 2^52 + 1 too
    assert bfloat16.rounded(np.float64(1 + 2.0**-8 + 2.0**-30)) == 1 + ULP_BF16
    big = np.array([2**60 + 2**52 + 1, -(2**60 + 2**52 + 1), 2**60 + 2**52, 2**63 - 1], np.int64)
    assert bfloat16.rounded(big).tolist() == [2.0**60 + 2.0**53, -(2.0**60 + 2.0**53), 2.0**60, 2.0**63]
    assert bfloat16.rounded(np.int32(2**24 + 2**16 + 1)) == 2**24 + 2**17
    assert bfloat16.rounded(np.array([True, False])).tolist() == [1.0, 0.0]


def test_bf16_bits_are_float32s_upper_half():
    x = np.array([1.0, -2.0, 1 + ULP_BF16, np.inf], np.float32)
    bits = bfloat16.to_bits(x)
    assert bits.dtype == np.uint16 and bits.tolist() == [0x3F80, 0xC000, 0x3F81, 0x7F80]
    assert bfloat16.from_bits(bits).tolist() == x.tolist()


# ---- the checker ------------------------------------------------------------------------------


def _literals(text: str) -> list:
    return [(n.value, n.type) for n in descendants(checked(text).kernel.body, T.is_exp) if isinstance(n, T.Lit)]


def test_a_16_bit_literal_stands_for_its_rounded_value():
    text = "fun [f32, n] main([f32, n] xs) =\n  map(fn f32 (f32 x) => x + f32(0.1f16) + f32(1.00390625bf16), xs)\n"
    assert _literals(text) == [(0.0999755859375, F16), (1.0, BF16)]


def test_conversions_and_builtins_take_16_bit_floats():
    prog = checked("fun [f16, n] main([bf16, n] xs) =\n"
                   "  map(fn f16 (bf16 x) => f16(sqrt(abs(x)) + bf16(int(x)) + bf16(i64(3))) * f16(f64(x)), xs)\n")
    assert prog.kernel.outputs == (F16,)  # (one element a point)
    conversions = [n.name for n in descendants(prog.kernel.body, T.is_exp) if isinstance(n, T.Builtin)]
    assert {"f16", "bf16", "i32", "i64", "f64", "sqrt", "abs"} <= set(conversions)


# ---- the interpreter: exact results -----------------------------------------------------------


def _one(text: str, **inputs):
    (out,) = run(checked(text), inputs)
    return out


def _binary(kind: str, op: str):
    return f"fun [{kind}, n] main([{kind}, n] xs, [{kind}, n] ys) =\n  map(fn {kind} ({kind} x, {kind} y) => x {op} y, xs, ys)\n"


def test_f16_arithmetic_rounds_each_result_to_nearest_even():
    x = np.array([1, 1, 65504, 2.0**-24, 1], np.float16)
    y = np.array([2.0**-11, 3 * 2.0**-11, 16, 2.0**-24, -1 - 2.0**-10], np.float16)
    got = _one(_binary("f16", "+"), xs=x, ys=y)
    assert got.dtype == np.float16 and got.tolist() == [1.0, 1 + 2 * ULP_F16, np.inf, 2.0**-23, -ULP_F16]
    prod = _one(_binary("f16", "*"), xs=np.array([2.0**-24, 1 + ULP_F16], np.float16),
                ys=np.array([0.5, 1 + ULP_F16], np.float16))
    assert prod.tolist() == [0.0, 1 + 2 * ULP_F16]  # half the smallest subnormal is a tie: 0; (1 + u)^2 = 1 + 2u + u^2
    quotient = _one(_binary("f16", "/"), xs=np.array([1, 1], np.float16), ys=np.array([3, 0], np.float16))
    assert quotient.tolist() == [float(np.float16(1 / 3)), np.inf]


def test_bf16_arithmetic_and_sqrt_round_to_bf16():
    x, y = np.array([1, 1, 1, 2], np.float32), np.array([2.0**-8, 3 * 2.0**-8, 3, 3], np.float32)
    got = _one(_binary("bf16", "+"), xs=x, ys=y)
    assert got.dtype == np.float32 and got.tolist() == [1.0, 1 + 2 * ULP_BF16, 4.0, 5.0]
    assert _one(_binary("bf16", "/"), xs=x, ys=y)[2] == 0.333984375  # 1/3 to 8 bits
    root = _one("fun [bf16, n] main([bf16, n] xs) =\n  map(fn bf16 (bf16 x) => sqrt(x), xs)\n",
                xs=np.array([2, 1 + ULP_BF16], np.float32))
    assert root.tolist() == [1.4140625, 1.0]  # sqrt(1 + 2^-7) = 1 + 2^-8 - ..., below the tie


def test_inputs_are_rounded_to_their_16_bit_type():
    text = "fun [bf16, n] main([bf16, n] xs) =\n  map(fn bf16 (bf16 x) => x, xs)\n"
    assert _one(text, xs=np.array([1 + 2.0**-8 + 2.0**-12, 0.1], np.float64)).tolist() == \
        [1 + ULP_BF16, 0.10009765625]


def test_conversions_round_to_nearest_even_in_one_step():
    text = ("fun [f16, n] main([f64, n] xs, [f32, n] ys, [i64, n] zs) =\n"
            "  map(fn f16 (f64 x, f32 y, i64 z) => f16(x) + f16(bf16(y)) * f16(z), xs, ys, zs)\n")
    got = _one(text, xs=np.array([1 + 2.0**-11 + 2.0**-40, 70000, 0]), ys=np.array([0, 0, 1 + 2.0**-8], np.float32),
               zs=np.array([1, 1, 3], np.int64))
    assert got.tolist() == [1 + ULP_F16, np.inf, 3.0]  # 1 + 2^-8 rounds to bf16's 1 (a tie), then 1 * 3
    back = ("fun [f32, n] main([f16, n] xs, [bf16, n] ys) =\n"
            "  map(fn f32 (f16 x, bf16 y) => f32(x) + f32(int(y)) + f32(f64(y)), xs, ys)\n")
    assert _one(back, xs=np.array([0.1], np.float16), ys=np.array([-2.75], np.float32)).tolist() == \
        [np.float32(float(np.float16(0.1)) - 2 - 2.75)]


def test_f32_accumulation_of_16_bit_inputs():
    text = ("fun [f32, n] main([[f16, m], n] A, [bf16, m] b) =\n"
            "  map(fn f32 ([f16, m] a) =>\n"
            "        streamSeq(fn f32 (int kk, [f16, c] ac, [bf16, c] bc, f32 acc) =>\n"
            "                    loop (acc) = for k < c do acc + f32(ac[k]) * f32(bc[k]) in acc\n"
            "                 , a, b, 0f32), A)\n")
    a = np.array([[1, 2.0**-11], [0.5, 0.25]], np.float16)
    b = np.array([1, 1], np.float32)
    assert _one(text, A=a, b=b).tolist() == [1 + 2.0**-11, 0.75]  # no f16 rounding of the sum


# ---- analysis and CUDA of the programs ------------------------------------------------------------


@pytest.mark.parametrize("path", FLOAT16, ids=lambda p: p.stem)
def test_program_expectations(path):
    want = header(path)
    a = run_to("analyse", path.read_text(), path.name, Options())
    streams = {f"{s.site.span.line}:{s.site.span.col}": s for s in a.streams}
    for line in want.get("stream", []):
        pos, state, kind = line.split(maxsplit=2)
        assert streams[pos].tiled == (state == "tiled") and stream_kind(streams[pos], a.block) == kind, pos
    loops = {f"{r.span.line}:{r.span.col}": r for r in a.plan.split.reductions} if a.plan.split else {}
    for line in want.get("reduction", []):
        pos, verdict, ops = line.split(maxsplit=2)
        assert loops[pos].split and ",".join(op.value for op in loops[pos].operators) == ops


def test_the_programs_cover_the_forms():
    assert {"map_f16", "map_bf16", "rowsum_bf16", "mm_f16", "mm_mixed", "matvec_bf16"} <= {p.stem for p in FLOAT16}


@pytest.mark.parametrize("path", FLOAT16, ids=lambda p: p.stem)
def test_a_module_includes_the_headers_of_the_16_bit_types_it_uses(path):
    cuda = run_all(path.read_text(), path.name)["render"]
    kernels = cuda[cuda.index('extern "C"'):]
    for ctype, narrow in target.NARROW.items():
        assert (f"#include <{narrow.header}>" in cuda) == (ctype in kernels), ctype


def test_16_bit_tiles_move_in_128_bit_vectors_and_never_by_cp_async():
    """Eight 2-byte elements a copy step and a register tile's read (where
    the sizes are multiples of 8; a scalar version runs elsewhere); never
    cp.async, which cannot move one 2-byte element, and explain says so;
    the f16 product's register tile asks for one block an SM."""
    path = PROGRAMS / "float16" / "mm_f16.fut"
    values = run_all(path.read_text(), path.name)
    plan = values["analyse"]
    staged = [p for s in plan.streams for p in s.inputs if p.staged]
    assert staged and all(p.staging.vector == 8 and not p.staging.asynchronous for p in staged)
    assert all("not by cp.async" in p.reason for p in staged)
    assert plan.block.min_blocks == 1
    kernels = values["render"][values["render"].index('extern "C"'):]
    assert "*reinterpret_cast<const tiler_vec<__half, 8>*>(&sh_ac[" in kernels and "tiler_cp_async" not in kernels
    assert any(k.divisible for k in values["verify"].kernels) and len(values["verify"].kernels) > 1


def test_other_programs_include_no_16_bit_header():
    cuda = run_all("fun [f32, n] main([f32, n] xs) =\n  map(fn f32 (f32 x) => x + 1f32, xs)\n", "p.fut")["render"]
    assert "cuda_fp16" not in cuda and "cuda_bf16" not in cuda


# what CUDA's headers define for 16-bit types beyond their conversion functions: with these, an operator on
# __half (or a conversion by a cast) is no longer defined, so the kernels compile only if they use none
NO_NATIVE_16_BIT = ["-D__CUDA_NO_HALF_OPERATORS__", "-D__CUDA_NO_HALF_CONVERSIONS__",
                    "-D__CUDA_NO_BFLOAT16_OPERATORS__", "-D__CUDA_NO_BFLOAT16_CONVERSIONS__"]


@pytest.mark.nvcc
@pytest.mark.skipif(nvcc_path() is None, reason="nvcc is not on PATH")
def test_nvcc_compiles_every_version_with_conversions_alone_no_spills_and_the_planned_shared_memory(tmp_path):
    units, planned = [], {}
    for i, path in enumerate(FLOAT16):
        for name, options in OPTION_SETS.items():
            if options.no_tile:  # (every other set's module holds the untiled kernel as its fallback)
                continue
            values = run_all(path.read_text(), path.name, options)
            cuda, kernels = rename_module(values["render"], values["verify"], f"tiler_h{i}_{name.replace('-', '_')}")
            units.append(cuda)
            planned |= {s.name: s.static_shared_bytes for k in kernels for s in k.launches}
    source = tmp_path / "float16.cu"
    source.write_text("\n".join(units))
    done = subprocess.run([nvcc_path(), "-arch=sm_90", "-cubin", "-Xptxas", "-v", *NO_NATIVE_16_BIT, "-o",
                           str(tmp_path / "float16.cubin"), str(source)], capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    reports = {block.split("'")[1]: block
               for block in (done.stdout + done.stderr).split("ptxas info    : Compiling entry function ")[1:]}
    for name, shared in planned.items():
        report = reports[name]
        assert "0 bytes spill stores" in report and "0 bytes spill loads" in report, (name, report)
        smem = re.search(r"(\d+) bytes smem", report)
        assert (int(smem.group(1)) if smem else 0) == shared, (name, report)


# ---- inputs, tolerances and the device's layout ----------------------------------------------------


def _program(name: str):
    path = PROGRAMS / "float16" / f"{name}.fut"
    return check(parse(path.read_text(), path.name))


def test_random_and_given_inputs_hold_16_bit_values():
    from tiler.workload import check_given, make_inputs

    inputs = make_inputs(_program("mm_mixed"), {"n": 3, "k": 5, "m": 4}, seed=1)
    a, b = inputs["A"], inputs["B"]
    assert a.dtype == np.float16 and b.dtype == np.float32 and (bfloat16.rounded(b) == b).all()
    given, notes = check_given(_program("matvec_bf16"), {"x": np.array([1 + 2.0**-9, 2], np.float64)}, flag="")
    assert given["x"].tolist() == [1.0, 2.0] and notes == ["`x`: float64 values rounded to bf16"]
    with pytest.raises(Exception, match="past the range of `x`'s type, bf16"):
        check_given(_program("matvec_bf16"), {"x": np.array([3.4e38], np.float32)}, flag="")


def test_a_16_bit_output_is_compared_within_its_types_default():
    from tiler.workload.checks import DEFAULT_TOLERANCE, NARROW_TOLERANCE, check_tolerance

    assert check_tolerance(_program("mm_f16"), None) == NARROW_TOLERANCE["f16"]
    assert check_tolerance(_program("rowsum_bf16"), None) == NARROW_TOLERANCE["bf16"]
    assert check_tolerance(_program("mm_mixed"), None) == DEFAULT_TOLERANCE  # (its outputs are f32)


def test_the_device_holds_a_bf16_as_its_bits():
    from tiler.runtime import device_layout, device_scalar, host_layout

    x = np.array([1 + 2.0**-8 + 2.0**-12, -2.0], np.float32)
    bits = device_layout("__nv_bfloat16", x)
    assert bits.dtype == np.uint16 and bits.tolist() == [0x3F81, 0xC000]
    assert host_layout("__nv_bfloat16", bits).tolist() == [1 + ULP_BF16, -2.0]
    assert device_layout("__half", x).dtype == np.float16 and device_scalar("__nv_bfloat16", 1.0) == 0x3F80


def test_a_16_bit_scalar_argument_is_packed_as_its_bits():
    """pycuda packs a launch's scalars with its own copy of `struct`, which
    has no code for a half (NumPy's float16 is "e"): an f16 scalar goes as
    its 16 bits."""
    import struct

    from tiler.runtime import device_scalar

    for ctype, value, bits in [("__half", -0.8125, 0xBA80), ("__nv_bfloat16", -0.8125, 0xBF50)]:
        arg = device_scalar(ctype, value)
        assert isinstance(arg, np.number) and arg.dtype == np.uint16 and int(arg) == bits
        assert struct.unpack("H", struct.pack(arg.dtype.char, arg)) == (bits,)


class _FakeTorchBf16:
    """What a CUDA torch.bfloat16 tensor shows (no GPU needed): PyTorch calls its elements "<f2" in the
    interface, float16's name, so tiler reads its dtype and takes its bits through an int16 view."""

    dtype = "torch.bfloat16"
    is_cuda = True

    def __init__(self, shape):
        self.shape = shape

    def view(self, dtype):
        assert dtype == "int16"
        face = {"shape": self.shape, "typestr": "<i2", "strides": None, "data": (0x7F0000000000, False), "version": 3}
        return type("View", (), {"__cuda_array_interface__": face})()


_FakeTorchBf16.__module__ = "torch.fake"


def test_a_torch_bfloat16_tensor_is_read_in_place_for_a_bf16_parameter(monkeypatch):
    import sys
    import types

    from tiler.errors import PlainError
    from tiler.runtime import interop

    monkeypatch.setitem(sys.modules, "torch", types.SimpleNamespace(int16="int16"))
    assert interop.on_device(_FakeTorchBf16((5,)))
    d = interop.device_array("x", _FakeTorchBf16((5,)))
    assert d.bfloat16 and d.dtype == np.uint16 and d.nbytes == 10
    interop.check_param("x", np.dtype(np.float32), 1, d, bfloat16=True)
    with pytest.raises(PlainError, match="holds float16, not bfloat16"):
        interop.check_param("x", np.dtype(np.float16), 1, d)
    half = type("Half", (), {"__cuda_array_interface__": {"shape": (5,), "typestr": "<f2", "strides": None,
                                                          "data": (0x7F0000000000, False), "version": 3}})()
    interop.check_param("x", np.dtype(np.float16), 1, interop.device_array("x", half))  # CuPy's float16
    with pytest.raises(PlainError, match="holds bf16, not float16") as refused:
        interop.check_param("x", np.dtype(np.float32), 1, interop.device_array("x", half), bfloat16=True)
    assert "torch.bfloat16" in refused.value.hint


def test_a_16_bit_module_compiles_under_nvrtc_given_the_toolkits_headers():
    """NVRTC (CuPy's RawModule, cuda-python) finds cuda_fp16.h and cuda_bf16.h
    in the toolkit's include folder, given as an include path."""
    import ctypes

    from test_nvrtc import NVRTC

    include = toolkit_include()
    if NVRTC is None or include is None:
        pytest.skip("libnvrtc or the CUDA toolkit's headers not found")
    path = PROGRAMS / "float16" / "mm_mixed.fut"
    source = run_all(path.read_text(), path.name)["render"].encode()
    prog = ctypes.c_void_p()
    assert NVRTC.nvrtcCreateProgram(ctypes.byref(prog), source, b"mm_mixed.cu", 0, None, None) == 0
    options = [b"--gpu-architecture=sm_90", b"--std=c++17", f"--include-path={include}".encode()]
    status = NVRTC.nvrtcCompileProgram(prog, len(options), (ctypes.c_char_p * len(options))(*options))
    size = ctypes.c_size_t()
    NVRTC.nvrtcGetProgramLogSize(prog, ctypes.byref(size))
    log = ctypes.create_string_buffer(size.value)
    NVRTC.nvrtcGetProgramLog(prog, log)
    NVRTC.nvrtcDestroyProgram(ctypes.byref(prog))
    assert status == 0, log.value.decode(errors="replace")[-2000:]


def test_a_16_bit_output_that_differs_says_why_long_sums_may_and_what_to_do():
    """rowsum_bf16's tiled sums of 3,001 terms differed from the untiled
    kernel's by 11.2 at a scale of 118 on an H200 (bf16 partial sums in
    another order): the stop says so in a hint; an f32 program's does not."""
    from tiler.errors import PlainError
    from tiler.workload.checks import NARROW_HINT, compare_outputs

    got, want = (np.array([-50.25], np.float32),), (np.array([-61.5], np.float32),)
    with pytest.raises(PlainError) as bf16:
        compare_outputs(got, want, None, "rowsum_bf16: tiled against untiled", 5e-2, _program("rowsum_bf16"))
    assert bf16.value.hint == NARROW_HINT and "[check] tolerance" in bf16.value.hint
    with pytest.raises(PlainError) as mixed:
        compare_outputs(got, want, None, "mm_mixed: tiled against untiled", None, _program("mm_mixed"))
    assert mixed.value.hint == ""  # (its outputs are f32)
    with pytest.raises(PlainError) as elementwise:
        compare_outputs(got, want, None, "map_f16: tiled against untiled", 1e-2, _program("map_f16"))
    assert elementwise.value.hint == ""  # (no loop carries a 16-bit value: no sum to reorder)
    with pytest.raises(PlainError) as unwritten:
        compare_outputs((np.array([np.nan], np.float32),), want, None, "rowsum_bf16", 5e-2, _program("rowsum_bf16"))
    assert "not written" in unwritten.value.message and unwritten.value.hint == ""
