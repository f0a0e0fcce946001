"""A launch's arguments packed once (runtime/launches.py): each argument's
format as the kernel's C parameter lies in memory. (The launches themselves
run in every GPU test.)"""
from __future__ import annotations

import struct

import numpy as np
import pytest

from tiler import tma
from tiler.runtime.launches import argument, prepared


class Allocation:  # (what pycuda's DeviceAllocation gives: its address as an int)
    def __int__(self):
        return 0x7F0000001000


class Function:
    def __init__(self):
        self.formats, self.calls = None, []

    def prepare(self, formats):
        self.formats = formats

    def prepared_call(self, grid, block, *values, shared_size=0):
        self.calls.append((grid, block, values, shared_size))


def test_each_argument_packs_as_its_c_parameter():
    args = [tma.by_value(bytes(range(128))), Allocation(), np.int32(-7), np.float64(0.5), np.uint16(0x3F80),
            np.uintp(12345)]
    formats, values = zip(*map(argument, args))
    assert formats == ("128s", "P", "i", "d", "H", "L")
    packed = struct.pack("".join(formats), *values)
    assert packed[:128] == bytes(range(128))
    assert struct.unpack_from("P", packed, 128) == (0x7F0000001000,)
    assert struct.unpack_from("i", packed, 136) == (-7,)
    assert struct.unpack_from("d", packed, 144) == (0.5,)


def test_a_call_prepares_its_function_once_and_passes_the_values_each_launch():
    fn = Function()
    call = prepared(fn, [Allocation(), np.int32(3)], (4, 2, 1), (16, 16, 1), 4096)
    call()
    call()
    assert fn.formats == ["P", "i"]
    assert fn.calls == [((4, 2, 1), (16, 16, 1), (0x7F0000001000, np.int32(3)), 4096)] * 2


def test_a_python_number_is_refused_not_packed_as_an_address():
    with pytest.raises(TypeError, match="NumPy scalar"):
        argument(3)
