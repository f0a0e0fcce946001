"""Running generated kernels on an NVIDIA GPU through pycuda (the `gpu` extra).

pycuda is imported here only, lazily: compiling and explaining never need it.
`gpu_unavailable()` says in one line why no GPU can be used (or None);
`Gpu` holds the device (in its primary context, so CuPy or PyTorch can share
the process), compiles CUDA with a cache keyed by source, options and
toolkit, and launches a `kir.Module` (the version its condition picks for
the sizes, or the faster of it and its rival, raced at the first launch at
those sizes) or one `kir.Kernel` on numpy inputs with its outputs poisoned
first.
"""
from __future__ import annotations

import atexit
import functools
import hashlib
from dataclasses import dataclass

import numpy as np

from .. import bfloat16, kir, target, tma
from ..errors import CompilerBug, PlainError
from . import interop
from .launches import Clock, prepared

# each C type's elements as the device holds them: a bf16 is its 16 bits (NumPy has no bfloat16)
BF16 = target.CTYPE["bf16"]
POISON = {"float": np.float32(np.nan), "double": np.float64(np.nan), "int": np.int32(-123456789),
          "long long": np.int64(-123456789), "bool": np.bool_(True), "__half": np.float16(np.nan),
          BF16: np.uint16(bfloat16.QUIET_NAN)}
NUMPY = {"float": np.float32, "double": np.float64, "int": np.int32, "long long": np.int64, "bool": np.bool_,
         "__half": np.float16, BF16: np.uint16}


def device_layout(ctype: str, values) -> np.ndarray:
    """Host values (as the interpreter holds them) as the device holds them:
    a bf16's float32 rounded to bf16 and taken as its 16 bits."""
    if ctype == BF16:
        return np.ascontiguousarray(bfloat16.to_bits(values))
    return np.ascontiguousarray(values, dtype=NUMPY[ctype])


def device_scalar(ctype: str, value):
    """A scalar argument as the kernel takes it: a 16-bit float as its bits
    (pycuda packs arguments with its own copy of `struct`, which has no
    half-precision code)."""
    if ctype == BF16:
        return np.uint16(bfloat16.to_bits(value))
    if ctype == "__half":
        return np.float16(value).view(np.uint16)
    return NUMPY[ctype](value)


def host_layout(ctype: str, values: np.ndarray) -> np.ndarray:
    """Device values back as the interpreter holds them (a bf16 as a float32)."""
    return bfloat16.from_bits(values) if ctype == BF16 else values


def gpu_unavailable() -> str | None:
    """None when a GPU can be used; else which step fails, in words."""
    import importlib.util

    if importlib.util.find_spec("pycuda") is None:
        return ("pycuda is not installed (with the CUDA toolkit on the machine: pip install 'tiler-compiler[gpu]', "
                "or pip install -e '.[gpu]' in tiler's checkout)")
    try:
        import pycuda.driver as drv
    except ImportError as exc:  # installed, but its extension or the driver library does not load
        return f"pycuda is installed but does not load: {exc} (is the NVIDIA driver installed, libcuda.so.1 found?)"
    try:
        drv.init()
        if drv.Device.count() == 0:
            return "no CUDA device is visible"
    except Exception as exc:  # noqa: BLE001 - any driver failure means: no GPU here
        return f"the CUDA driver cannot be used: {exc}"
    return None


class Gpu:
    _instance = None

    @classmethod
    def get(cls) -> "Gpu":
        if cls._instance is None:
            reason = gpu_unavailable()
            if reason:
                raise PlainError(f"no GPU: {reason}")
            cls._instance = cls()
        return cls._instance

    def __init__(self):
        import pycuda.driver as drv

        self.drv = drv
        self.device = drv.Device(0)
        self.context = self.device.retain_primary_context()
        atexit.register(self._release)
        major, minor = self.device.compute_capability()
        self.capability = f"{major}.{minor}"
        self.arch = target.native_arch(major, minor)
        self.name = self.device.name()
        self.max_shared = self.device.get_attribute(drv.device_attribute.MAX_SHARED_MEMORY_PER_BLOCK)
        self.max_shared_optin = self.device.get_attribute(drv.device_attribute.MAX_SHARED_MEMORY_PER_BLOCK_OPTIN)
        self.sm_count = self.device.get_attribute(drv.device_attribute.MULTIPROCESSOR_COUNT)
        self.block_registers = self.device.get_attribute(drv.device_attribute.MAX_REGISTERS_PER_BLOCK)
        self._modules: dict[str, object] = {}
        self.races: dict[tuple, Race] = {}  # (CUDA, version the conditions pick, sizes): how its first launch went
        self.clock = Clock()  # warms an idle GPU before a timing or a race (launches.py)

    @property
    def described(self) -> target.Device:
        """This GPU as a plan sees it (its SM count, the shared memory and the
        registers a block may use)."""
        return target.Device(self.name, self.arch, self.sm_count, self.max_shared_optin, self.block_registers)

    def environment(self) -> dict:
        """What makes a timing reproducible: the device and the software under it."""
        import pycuda

        def safe(fn):
            try:
                return fn()
            except Exception:  # noqa: BLE001 - a missing detail is left out, not fatal
                return None

        return {"device": self.name, "compute_capability": self.capability, "build_arch": self.arch,
                "sm_count": self.sm_count,
                "driver_version": safe(self.drv.get_driver_version),
                "cuda_version": safe(lambda: ".".join(map(str, self.drv.get_version()))),
                "pycuda_version": getattr(pycuda, "VERSION_TEXT", None)}

    def _release(self) -> None:
        """Unload the compiled modules while the context can be pushed."""
        try:
            with self.active():
                self._modules.clear()
        except Exception:  # noqa: BLE001 - at exit, nothing more can be done
            pass

    def active(self):
        """The context, pushed for the length of one operation: nothing stays
        on pycuda's stack (pycuda aborts at exit if something does)."""
        return _Pushed(self.context)

    def function(self, cuda: str, name: str, options: tuple[str, ...] = ()):
        with self.active():
            return self._function(cuda, name, options)

    def _key(self, cuda: str, options: tuple[str, ...] = ()) -> str:
        return _module_key(cuda, self.arch, tuple(options), str(self.drv.get_version()))

    def loaded(self, cuda: str) -> bool:
        """Whether the module of `cuda` is built and loaded (`prepare` left it
        out where nvcc refused it or ran past its time)."""
        return self._key(cuda) in self._modules

    def prepare(self, sources, workers: int | None = None, images: dict | None = None) -> None:
        """Compile many CUDA sources at once (nvcc runs side by side, one a
        core), so that later launches find their modules loaded; a source
        nvcc refuses is left for `function` to report. `images` (source ->
        cubin for this GPU's arch) are loaded as they are, not built again."""
        for _ in self.prepared(sources, workers, images):
            pass

    def prepared(self, sources, workers: int | None = None, images: dict | None = None):
        """`prepare`, yielding each source as soon as its module is loaded
        (or nvcc refused it), in the order nvcc finishes them: a caller can
        launch one batch's kernels while nvcc builds the others."""
        from concurrent.futures import ThreadPoolExecutor, as_completed

        from .nvcc import cores, cubin

        images = images or {}
        todo = {self._key(c): c for c in sources}
        for key in [k for k in todo if k in self._modules]:
            yield todo.pop(key)
        with ThreadPoolExecutor(workers or cores()) as pool:
            building = {pool.submit(lambda c: images.get(c) or cubin(c, self.arch), c): k for k, c in todo.items()}
            for done in as_completed(building):
                image = done.result()
                if image is not None:
                    with self.active():
                        self._modules[building[done]] = self.drv.module_from_buffer(image)
                yield todo[building[done]]

    def _function(self, cuda: str, name: str, options: tuple[str, ...]):
        from pycuda.compiler import SourceModule

        key = self._key(cuda, options)
        if key not in self._modules:
            try:
                self._modules[key] = SourceModule(cuda, arch=self.arch, no_extern_c=True, options=list(options))
            except Exception as exc:  # noqa: BLE001 - pycuda's CompileError carries nvcc's log
                import tempfile

                with tempfile.NamedTemporaryFile("w", suffix=".cu", prefix=f"{name}-", delete=False) as f:
                    f.write(cuda)
                raise PlainError(f"nvcc could not compile {name} (the CUDA is in {f.name}):\n{exc}",
                                 f"reproduce with: nvcc -arch={self.arch} -cubin {f.name}") from None
        return self._modules[key].get_function(name)

    def upload(self, inputs: dict, program=None) -> "DeviceInputs":
        """Copy the input arrays to the device once, for many launches (each
        as its parameter of `program`'s holds it: a bf16's as its bits)."""
        ctypes = {} if program is None else {p.name: target.CTYPE[(p.type.elem if hasattr(p.type, "elem") else
                                                                    p.type).kind] for p in program.kernel.params}
        with self.active():
            arrays = {name: device_layout(ctypes[name], v) if name in ctypes else np.ascontiguousarray(v)
                      for name, v in inputs.items() if np.ndim(v) > 0}
            return DeviceInputs({name: (self.drv.to_device(a), a.nbytes, a.dtype) for name, a in arrays.items()},
                                self)

    def run(self, k: kir.Module | kir.Kernel, cuda: str, inputs: dict, sizes: dict, repeat: int = 0,
            device: "DeviceInputs | None" = None, outputs_on: str | None = None):
        """Launch once on poisoned outputs and return them; with `repeat`, also
        time `repeat` launches with CUDA events after a warm-up (ms each).
        `device` holds the inputs already uploaded (else they are copied now);
        an input may also be an `interop.DeviceArray`, read in place. With
        `outputs_on` (a library, interop.allocator) the outputs stay on the
        device as that library's arrays; else they come back as NumPy arrays.
        A module launches the version its launch condition picks."""
        sizes = k.launch_values(sizes, inputs)  # (a scalar a tile's extent is computed from, too)
        if isinstance(k, kir.Module):
            k = self.launched(k, cuda, inputs, sizes, device)
        check_launch(k, sizes)
        if not k.runs_at(sizes):
            raise CompilerBug(f"{k.name} launched at sizes {sizes} that break its vector alignment "
                              f"({', '.join(f'{n} % {w}' for n, w in k.divisible)}) or pass its tiles' bounds")
        with self.active():
            return self._run(k, cuda, inputs, sizes, repeat, device, outputs_on)

    def launched(self, m: kir.Module, cuda: str, inputs: dict, sizes: dict,
                 device: "DeviceInputs | None" = None) -> kir.Kernel:
        """The version a launch of `m` at these sizes runs: the one its
        conditions pick, or where that one has a rival, the faster of the two,
        raced at the first launch at these sizes (as the C launcher does: a
        warm-up launch each, then target.TIMED_ROUNDS timed, the fastest of
        each compared, the rival winning by target.TIMED_MARGIN). A split-K
        version races the next version first, a version for few points the
        one for more points, each winner then the next; here a kernel is
        timed once (the launcher times both of each race)."""
        picked = m.select(sizes, self.sm_count)
        ahead, fallback = m.ahead(sizes, self.sm_count), m.fallback(sizes, self.sm_count)
        if fallback is None and ahead is None:
            rival = m.rival(picked)
            return picked if rival is None else self._raced(picked, rival, cuda, inputs, sizes, device).winner
        # a split-K version races the next version first; a version for few points races the one for more
        # points, then the winner its own rival; the races remembered as one (Gpu.race), under the picked key
        key = _race_key(cuda, picked, sizes)
        if key not in self.races:
            steps = (lambda w: ahead, lambda w: fallback if m.version(w).races_first else None, m.rival)
            winner, ms = picked, {}
            for opponent in steps:  # each step's opponent, given the winner so far
                against = opponent(winner)
                if against is not None and against.name != winner.name:
                    race = self._race(winner, against, cuda, inputs, sizes, device, ms)
                    winner, ms = race.winner, {**ms, **race.ms}
            self.races[key] = Race(picked, winner, ms)
        return self.races[key].winner

    def _raced(self, picked: kir.Kernel, rival: kir.Kernel, cuda, inputs, sizes, device) -> "Race":
        """`picked`'s race against `rival` at these sizes (run once, then remembered)."""
        key = _race_key(cuda, picked, sizes)
        if key not in self.races:
            self.races[key] = self._race(picked, rival, cuda, inputs, sizes, device)
        return self.races[key]

    def race(self, m: kir.Module, cuda: str, sizes: dict, inputs: dict | None = None) -> "Race | None":
        """How the launches of `m` at these sizes (and `inputs`' scalars the launch reads) were raced (None: they
        were not)."""
        sizes = _launch_values(m, sizes, inputs)
        return self.races.get(_race_key(cuda, m.select(sizes, self.sm_count), sizes))

    def ran(self, m: kir.Module, cuda: str, sizes: dict, inputs: dict | None = None) -> kir.Kernel:
        """The version launches of `m` at these sizes (and `inputs`' scalars the launch reads) run (after a
        race, its winner)."""
        race = self.race(m, cuda, sizes, inputs)
        return race.winner if race is not None else m.select(_launch_values(m, sizes, inputs), self.sm_count)

    def _race(self, picked: kir.Kernel, rival: kir.Kernel, cuda, inputs, sizes, device, timed=None) -> "Race":
        """`picked` against `rival`, each timed once: a time in `timed` (an earlier race's) is kept, so that
        a winner carried into a second race is judged by the time that won it the first."""
        best = {k.name: timed[k.name] for k in (picked, rival) if timed and k.name in timed}
        for k in (picked, rival):
            if k.name in best:
                continue
            try:
                check_launch(k, sizes)
            except PlainError:
                if k is picked:
                    raise
                continue  # the rival cannot run here (a grid past the GPU's limits)
            if k.runs_at(sizes):
                with self.active():
                    _, times = self._run(k, cuda, inputs, sizes, target.TIMED_ROUNDS, device, None)
                best[k.name] = min(times, default=0.0)
        faster = rival.name in best and best[rival.name] * target.TIMED_MARGIN < best[picked.name]
        return Race(picked, rival if faster else picked, best)

    def _run(self, k: kir.Kernel, cuda: str, inputs: dict, sizes: dict, repeat: int, device, outputs_on):
        drv = self.drv
        fn = self._function_for(cuda, k, sizes)
        outputs, keep, transposes, by_name = [], [], [], {}
        params: dict[str, kir.Param] = {}  # every launch's, once a name (the kernel's first: its outputs' order)
        for s in (k, *k.stages):
            for p in s.params:
                params.setdefault(p.name, p)
        for p in params.values():
            if p.role == "input":
                arg = self._input(p, inputs, sizes, device, keep)
                if p.transposed:  # the launch's copy of the array, its last two axes swapped
                    arg = self._transposition(p, arg, cuda, sizes, keep, transposes)
            elif p.role == "output" and outputs_on is not None:
                made = interop.allocator(outputs_on)(_shape(p, sizes), np.dtype(NUMPY[p.ctype]), POISON[p.ctype],
                                                     bfloat16=p.ctype == BF16)
                outputs.append((None, made.owner, p.ctype))
                arg = np.uintp(made.pointer)
            elif p.role == "output":
                host = np.full(_shape(p, sizes), POISON[p.ctype], dtype=NUMPY[p.ctype])
                arg = drv.to_device(host)
                keep.append(arg)
                outputs.append((arg, host, p.ctype))
            elif p.role == "size":
                arg = np.int32(sizes[p.source])
            elif p.role == kir.SCRATCH:
                arg = self._scratch(k, p, sizes, keep)
            elif p.role == kir.TENSOR_MAP:
                continue  # (made below, of its array's address)
            else:
                arg = device_scalar(p.ctype, inputs[p.source])
            by_name[p.name] = arg
        for p in (p for p in params.values() if p.role == kir.TENSOR_MAP):  # (its array's map, by value)
            by_name[p.name] = tma.by_value(tma.encode(int(by_name[p.array]), p, _shape(p, sizes)[::-1]))
        args = [tma.padding()] * (k.params[0].role == kir.TENSOR_MAP) + [by_name[p.name] for p in k.params]
        grid = k.grid_dims(sizes)
        # what a launch runs: the transpositions it needs, its stages (a stage of no iterations has no blocks),
        # then the kernel, each one's arguments packed once (launches.py: the host's time is in every timing)
        calls = [prepared(transpose, targs, tgrid, (target.TRANSPOSE_TILE, target.TRANSPOSE_ROWS, 1))
                 for transpose, targs, tgrid in transposes]
        calls += [prepared(self._function_for(cuda, s, sizes), [by_name[p.name] for p in s.params],
                           s.grid_dims(sizes), s.block, s.shared_at(sizes))
                  for s in k.stages if all(s.grid_dims(sizes))]
        calls.append(prepared(fn, args, grid, k.block, k.shared_at(sizes)))

        def launch():
            for call in calls:
                call()

        times = []
        if all(g > 0 for g in grid):
            if outputs_on is not None:  # arrays of other libraries may still be written on their streams
                drv.Context.synchronize()
            if repeat:
                self.clock.warm(drv)
            launch()
            drv.Context.synchronize()
            if repeat:
                launch()  # warm-up
                for _ in range(repeat):
                    start, end = drv.Event(), drv.Event()
                    start.record()
                    launch()
                    end.record()
                    end.synchronize()
                    times.append(start.time_till(end))
            self.clock.ran()
        results = tuple(host if buf is None else host_layout(ctype, drv.from_device_like(buf, host))
                        for buf, host, ctype in outputs)
        for buf in keep:
            buf.free()  # while the context is pushed
        return results, times

    def _function_for(self, cuda: str, k: kir.Kernel, sizes: dict):
        """The module's function for kernel `k`, allowed the dynamic shared memory it takes at these sizes."""
        fn = self.function(cuda, k.name)
        shared = k.shared_at(sizes)
        if k.sized_at_launch:  # (raised alike at every launch its version's condition allows, as the launcher does)
            shared = max(shared, k.raised_shared) if shared > target.STATIC_SHARED_LIMIT or k.raised_shared else 0
        if shared:
            if shared > self.max_shared_optin:
                raise PlainError(f"{k.name} needs {shared} bytes of shared memory; this GPU gives a block "
                                 f"{self.max_shared_optin}", "plan with a smaller --max-shared or --tile")
            fn.set_attribute(self.drv.function_attribute.MAX_DYNAMIC_SHARED_SIZE_BYTES, shared)
        return fn

    def _input(self, p: kir.Param, inputs: dict, sizes: dict, device, keep: list):
        """The device array the kernel reads for input `p`: given on the device,
        uploaded before, or copied now (and freed after the launch)."""
        if isinstance(inputs[p.source], interop.DeviceArray):
            given = inputs[p.source]
            _check_fits(p, given.dtype, given.nbytes, sizes)
            return np.uintp(given.pointer)
        if device is not None and p.source in device.buffers:
            buf, nbytes, kind = device.buffers[p.source]
            _check_fits(p, kind, nbytes, sizes)
            return buf
        buf = self.drv.to_device(device_layout(p.ctype, inputs[p.source]))
        keep.append(buf)
        return buf

    def _scratch(self, k: kir.Kernel, p: kir.Param, sizes: dict, keep: list):
        """The scratch memory a kernel's stages leave their partial results in (freed after the launch)."""
        s = next(s for s in k.scratch if s.name == p.name)
        buf = self.drv.mem_alloc(max(kir.evaluate(s.count, sizes), 1) * np.dtype(NUMPY[s.ctype]).itemsize)
        keep.append(buf)
        return buf

    def _transposition(self, p: kir.Param, source, cuda: str, sizes: dict, keep: list, transposes: list):
        """Scratch memory for `p` (the array `source` with its last two axes
        swapped), and the launch of the module's transposition kernel that
        fills it, added to `transposes`."""
        *lead, rows, cols = _shape(p, sizes, p.source_shape)
        batch = int(np.prod(lead, dtype=np.int64))
        count = batch * rows * cols
        scratch = self.drv.mem_alloc(max(count, 1) * np.dtype(NUMPY[p.ctype]).itemsize)
        keep.append(scratch)
        if count:
            transposes.append((self.function(cuda, target.transpose_kernel(p.ctype)),
                               (source, scratch, np.int32(rows), np.int32(cols), np.int32(batch)),
                               target.transpose_grid(rows, cols, batch)))
        return scratch


@functools.lru_cache(maxsize=16)
def _module_key(cuda: str, arch: str, options: tuple, driver: str) -> str:
    """The key of a module's build, remembered for the last few sources: each
    launch looks its module up, and the fuzzer's batches are megabytes of
    CUDA, hashed again at every launch of one of their kernels before."""
    return hashlib.sha256("\0".join([cuda, arch, *options, driver]).encode()).hexdigest()


def _launch_values(m: kir.Module, sizes: dict, inputs: dict | None) -> dict:
    """The sizes, with the int scalars of `inputs` a launch of `m` reads (where it reads any)."""
    return m.launch_values(sizes, inputs or {}) if m.scalars_read else sizes


def _race_key(cuda: str, picked: kir.Kernel, sizes: dict) -> tuple:
    """What a race is remembered by: the module's CUDA, the version the conditions pick, the sizes."""
    return cuda, picked.name, tuple(sorted(sizes.items()))


def _shape(p: kir.Param, sizes: dict, shape: tuple | None = None) -> tuple[int, ...]:
    return tuple(sizes[s] if isinstance(s, str) else s for s in (p.shape if shape is None else shape))


def _check_fits(p: kir.Param, kind, nbytes: int, sizes: dict) -> None:
    """An array already on the device holds what the kernel reads of `p`."""
    want = int(np.prod(_shape(p, sizes), dtype=np.int64)) * np.dtype(NUMPY[p.ctype]).itemsize
    if kind != NUMPY[p.ctype] or nbytes != want:
        raise PlainError(f"input `{p.source}` on the device does not fit {p.ctype} [{p.shape}]")


def check_launch(k: kir.Kernel, sizes: dict) -> None:
    """Refuse sizes the kernel cannot index, and grids CUDA cannot launch."""
    for name in sorted({p.source for p in k.params if p.role == "size"}):
        if sizes[name] > target.MAX_SIZE:
            raise PlainError(f"size {name} = {sizes[name]:,}: a generated kernel indexes a dimension with a 32-bit int, "
                             f"so each size is at most {target.MAX_SIZE:,}",
                             "flat offsets are 64-bit: arrays may have more elements, spread over two dimensions")
    for axis, blocks in ((a, b) for s in k.launches for a, b in zip(target.AXES, s.grid_dims(sizes))):
        if blocks > target.MAX_GRID[axis]:
            raise PlainError(f"{k.name} at {sizes} needs {blocks:,} blocks along grid {axis}; CUDA allows "
                             f"{target.MAX_GRID[axis]:,}", "a larger --tile along that dimension needs fewer blocks")


@dataclass(frozen=True)
class Race:
    """A first launch's race: the version the conditions picked, the one that
    runs from then on, and each one's fastest timed launch (ms)."""

    picked: kir.Kernel
    winner: kir.Kernel
    ms: dict

    @property
    def overruled(self) -> bool:
        return self.winner is not self.picked


class DeviceInputs:
    def __init__(self, buffers: dict, gpu: Gpu):
        self.buffers, self.gpu = buffers, gpu

    def free(self) -> None:
        with self.gpu.active():
            for buf, _, _ in self.buffers.values():
                buf.free()
        self.buffers = {}


class _Pushed:
    def __init__(self, context):
        self.context = context

    def __enter__(self):
        self.context.push()

    def __exit__(self, *exc):
        self.context.pop()

