"""Compiling generated CUDA with nvcc and reading ptxas's report.

`ptxas_report(cuda, arch)` compiles to a cubin with `-Xptxas -v` and returns
a `Report` (registers, spill bytes, static shared memory, the log) for the
first kernel, `ptxas_reports` one per kernel by name; `compile_report` says
it in words for every kernel of a module and compares the shared memory
with the plan's.
"""
from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from ..errors import CompilerBug, PlainError


@dataclass(frozen=True)
class Report:
    ok: bool
    registers: int
    spill_stores: int
    spill_loads: int
    shared_bytes: int
    log: str


def nvcc_path() -> str | None:
    return shutil.which("nvcc")


def ptxas_report(cuda: str, arch: str = "sm_90", timeout: int = 300) -> Report:
    return _compile(cuda, arch, timeout)


def ptxas_reports(cuda: str, arch: str = "sm_90", timeout: int = 300) -> dict[str, Report]:
    """One report per kernel (by name); {} when nvcc fails (see ptxas_report's log)."""
    whole = _compile(cuda, arch, timeout)
    return _per_kernel(whole.log) if whole.ok else {}


def _per_kernel(log: str) -> dict[str, Report]:
    out = {}
    for part in re.split(r"ptxas info\s+: Compiling entry function ", log)[1:]:
        out[part.split("'")[1]] = _report(True, part)
    return out


def _compile(cuda: str, arch: str, timeout: int) -> Report:
    nvcc = nvcc_path()
    if nvcc is None:
        raise PlainError("nvcc is not on PATH", "install the CUDA toolkit, or leave out --nvcc")
    return _build(nvcc, cuda, arch, timeout)[0]


# what the fuzzer's CPU check asks of nvcc: that its front end accepts the
# CUDA, compiled to PTX with optimisation off (whether it accepts does not
# depend on that, and the optimiser was most of a large source's time: a
# fuzzed module of 930 KB, 20.4 s at -O1, 6.8 s at -O0). ptxas, even at -O0,
# was 4.9 of a 732 KB batch's 5.8 s, and the static shared memory it checks
# stays within 48 KiB by construction (more is dynamic: kir.Kernel), the total
# checked by the verifier; ptxas runs where cubins are built: the tests'
# goldens and every module of tests/programs, the GPU fuzzer
FRONT_END = ("-Xcicc", "-O0")


def _build(nvcc: str, cuda: str, arch: str, timeout: int, flags: tuple = ()) -> tuple[Report, bytes | None]:
    """ptxas's report and the cubin (None where nvcc fails); with FRONT_END,
    the front end's verdict and the PTX."""
    ptx = flags == FRONT_END
    with tempfile.TemporaryDirectory(prefix="tiler-") as tmp:
        src, out = Path(tmp) / "kernel.cu", Path(tmp) / ("kernel.ptx" if ptx else "kernel.cubin")
        src.write_text(cuda)
        stage = ["-ptx"] if ptx else ["-cubin", "-Xptxas", "-v"]
        cmd = [nvcc, f"-arch={arch}", *stage, *flags, "-o", str(out), str(src)]
        # a session of its own: past its time, nvcc and what it started (cicc, ptxas) are stopped together
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
        try:
            stdout, stderr = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:  # a finding to report like a refusal, not a crash of the caller
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
            return _report(False, f"nvcc did not finish within {timeout} s (stopped)"), None
        ok = proc.returncode == 0
        return _report(ok, stdout + stderr), out.read_bytes() if ok and out.is_file() else None


def _report(ok: bool, log: str) -> Report:
    return Report(ok, _int(r"Used (\d+) registers", log), _int(r"(\d+) bytes spill stores", log),
                  _int(r"(\d+) bytes spill loads", log), _int(r"(\d+) bytes smem", log), log)


def _int(pattern: str, text: str) -> int:
    m = re.search(pattern, text)
    return int(m.group(1)) if m else 0


def module_reports(cuda: str, arch: str) -> dict[str, Report]:
    """ptxas's report on every kernel of a module's CUDA, by name: nvcc
    refusing the architecture is the user's to fix; refusing the CUDA, a
    compiler bug."""
    whole = _compile(cuda, arch, 300)
    if not whole.ok:
        if "Unsupported gpu architecture" in whole.log or "is not defined for option 'gpu-architecture'" in whole.log:
            raise PlainError(f"this nvcc cannot build for {arch}: {whole.log.strip()}",
                             "name an architecture it supports (nvcc --list-gpu-arch), or update the CUDA toolkit")
        raise CompilerBug(f"nvcc rejects the generated CUDA:\n{whole.log.strip()}")
    return _per_kernel(whole.log)


def compile_report(cuda: str, arch: str, kernels) -> str:
    """ptxas's verdict on every kernel (`kir.Kernel`s) of one CUDA file, in words."""
    reports = module_reports(cuda, arch)
    lines = []
    for k in kernels:
        r = reports[k.name]
        planned = k.static_shared_bytes
        verdict = "as planned" if r.shared_bytes == planned else f"but the plan said {planned}"
        extra = ", and dynamic shared memory the launch sizes" if k.sized_at_launch else \
            f", and {k.dynamic_shared_bytes} bytes of dynamic shared memory at launch" if k.dynamic_shared_bytes else ""
        who = f"{k.name}: " if len(kernels) > 1 else ""
        lines.append(f"nvcc -arch={arch}: {who}{r.registers} registers, {r.spill_stores} bytes spill stores, "
                     f"{r.shared_bytes} bytes static shared memory ({verdict}){extra}")
    return "\n".join(lines)


def errors(cuda: str, arch: str = "sm_90", timeout: int = 900, flags: tuple = ()) -> str:
    """nvcc's log where it refuses `cuda`; '' where it compiles (or is missing)."""
    return built(cuda, arch, timeout, flags)[0]


def built(cuda: str, arch: str = "sm_90", timeout: int = 900, flags: tuple = ()) -> tuple[str, bytes | None]:
    """errors(), and the cubin where nvcc built one (a GPU of `arch` can
    load it); with FRONT_END, the PTX (nothing to load)."""
    nvcc = nvcc_path()
    if nvcc is None:
        return "", None
    report, image = _build(nvcc, cuda, arch, timeout, flags)
    return ("" if report.ok else report.log), image


def cores() -> int:
    """The cores this process may run on (its affinity, not the machine's
    count): how many nvcc's to run side by side."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def cubin(cuda: str, arch: str, timeout: int = 300) -> bytes | None:
    """The cubin nvcc builds from `cuda` (None where it fails or is missing:
    the caller compiles again to report why)."""
    nvcc = nvcc_path()
    return _build(nvcc, cuda, arch, timeout)[1] if nvcc else None
