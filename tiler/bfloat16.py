"""bfloat16 on the host, where numpy has no such type.

A bf16 value is held in a float32 whose value bf16 represents exactly:
bf16 is float32's upper 16 bits (a sign, float32's 8 exponent bits, 7 of
its 23 fraction bits), so every bf16 is a float32 and arithmetic on such
float32s, rounded back with `rounded` after each operation, is bf16's
arithmetic. On the device a bf16 is those 16 bits (`to_bits`, `from_bits`).

Every rounding is to nearest, ties to even, as CUDA's `__float2bfloat16_rn`
and its conversions from double and the integers do: past the largest
finite bf16 (MAX) a value rounds to infinity, below the smallest normal one
it rounds to a subnormal (bf16 keeps float32's subnormals, with 7 bits),
and a NaN stays a NaN.
"""
from __future__ import annotations

import numpy as np

MAX = 3.3895313892515355e38  # the largest finite bf16: (2 - 2^-7) * 2^127
PRECISION = 8  # significant bits, the leading one included
MIN_EXPONENT = -126  # of the smallest normal bf16, 2^-126 (float32's)
QUIET_NAN = 0x7FC0  # the bits of the NaN a rounding gives (its sign kept)


def rounded(values) -> np.ndarray:
    """`values` (a scalar or an array of any numeric dtype) rounded to the
    nearest bf16, as float32."""
    a = np.asarray(values)
    if a.dtype == np.float32:
        return _from_float32(a)
    if a.dtype.kind == "f":
        return _from_float64(a.astype(np.float64))
    if a.dtype.kind in "iub":
        return _from_integers(a)
    raise TypeError(f"no bf16 rounding of {a.dtype} values")


def to_bits(values) -> np.ndarray:
    """The 16 bits of each value rounded to bf16 (uint16): what the device holds."""
    return (rounded(values).reshape(np.shape(values)).view(np.uint32) >> np.uint32(16)).astype(np.uint16)


def from_bits(bits) -> np.ndarray:
    """bf16 values from their 16 bits, as float32 (exact)."""
    return (np.asarray(bits, np.uint16).astype(np.uint32) << np.uint32(16)).view(np.float32)


def _from_float32(a: np.ndarray) -> np.ndarray:
    """Round to nearest even on the bits: add just under half of the 16 bits
    dropped, plus the lowest bit kept (a tie then carries only into an odd
    neighbour), and drop them. A carry out of the fraction raises the
    exponent, which is the right answer (up to infinity past MAX); a NaN
    would carry into the sign or become infinity, so it is set apart."""
    bits = np.ascontiguousarray(a, np.float32).view(np.uint32)
    carry = np.uint32(0x7FFF) + ((bits >> np.uint32(16)) & np.uint32(1))
    kept = (bits + carry) & np.uint32(0xFFFF0000)
    nan = (bits & np.uint32(0x7FFFFFFF)) > np.uint32(0x7F800000)
    kept = np.where(nan, (bits & np.uint32(0x80000000)) | np.uint32(QUIET_NAN << 16), kept)
    return kept.astype(np.uint32).view(np.float32).reshape(a.shape)


def _from_float64(a: np.ndarray) -> np.ndarray:
    """Round a float64 once, straight to bf16 (through float32 would round
    twice: 1 + 2^-8 + 2^-30 is a tie once rounded to float32, and then goes
    down). Scaled by a power of two, each value's bf16 spacing becomes 1,
    where `rint` rounds to nearest even exactly; infinities and NaNs pass
    through."""
    _, exponent = np.frexp(a)  # a = m * 2^exponent, 1/2 <= |m| < 1
    spacing = np.maximum(exponent, MIN_EXPONENT + 1) - PRECISION  # the log2 of a bf16's spacing there
    with np.errstate(invalid="ignore", over="ignore"):
        near = np.ldexp(np.rint(np.ldexp(a, -spacing)), spacing)
        near = np.where(np.abs(near) > MAX, np.copysign(np.inf, a), near)
    return near.astype(np.float32)


def _from_integers(a: np.ndarray) -> np.ndarray:
    """Integers: exact in float64 below 2^53, and rounded from there once;
    a larger int64 (which float64 itself would round) is rounded exactly in
    Python's integers."""
    wide = a.astype(np.float64)
    out = _from_float64(wide)
    if a.dtype.itemsize < 8 or a.dtype.kind == "b":
        return out
    large = np.abs(wide) >= 2.0**53
    if np.any(large):
        out = np.array(out, copy=True)
        out[large] = [_integer(int(v)) for v in a[large]]
    return out


def _integer(n: int) -> float:
    """One integer rounded to bf16 (past 2^53: below MAX, so finite)."""
    magnitude = abs(n)
    drop = magnitude.bit_length() - PRECISION
    kept, rest = divmod(magnitude, 1 << drop)
    half = 1 << (drop - 1)
    if rest > half or (rest == half and kept & 1):
        kept += 1
    value = float(kept << drop)
    return -value if n < 0 else value
