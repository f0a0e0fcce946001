"""A launch's arguments packed once (runtime/launches.py): each argument's
format as the kernel's C parameter lies in memory; an idle GPU warmed before
timings. (The launches themselves
run in every GPU test.)"""
from __future__ import annotations

import struct

import numpy as np
import pytest

from tiler import tma
from tiler.runtime import launches
from tiler.runtime.launches import Clock, argument, prepared


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


class Driver:  # (what Clock.warm uses of pycuda.driver), counting the copies
    class Error(Exception):
        pass

    class Context:
        @staticmethod
        def synchronize():
            pass

    def __init__(self, room: bool = True):
        self.room, self.copies, self.freed = room, [], 0

    def mem_alloc(self, nbytes):
        if not self.room:
            raise Driver.Error("out of memory")
        driver = self

        class Freed(Allocation):
            def free(self):
                driver.freed += 1
        return Freed()

    def memcpy_dtod(self, dst, src, nbytes):
        self.copies.append((dst - src, nbytes))


def test_an_idle_gpu_is_kept_busy_before_a_timing_and_a_busy_one_is_not(monkeypatch):
    monkeypatch.setattr(launches, "WARM_S", 0.01)
    clock, drv = Clock(), Driver()
    clock.warm(drv)  # never launched on: idle
    assert drv.copies and drv.freed == 1 and all(c == (launches.WARM_BYTES // 2,) * 2 for c in drv.copies)
    copies = len(drv.copies)
    clock.ran()
    clock.warm(drv)  # just ran
    assert len(drv.copies) == copies
    clock.busy -= launches.IDLE_S  # idle again
    clock.warm(drv)
    assert len(drv.copies) > copies and drv.freed == 2


def test_a_gpu_with_no_room_for_the_copies_is_timed_cold():
    clock, drv = Clock(), Driver(room=False)
    clock.warm(drv)
    assert not drv.copies and clock.busy == float("-inf")
