"""Compiling generated CUDA with nvcc and reading ptxas's report.

`ptxas_report(cuda, arch)` compiles to a cubin with `-Xptxas -v` and returns
a `Report` (registers, spill bytes, static shared memory, barriers, the
log); `compile_report` says it in words and compares the shared memory with
the plan's.
"""
from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from .errors import PlainError


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
    nvcc = nvcc_path()
    if nvcc is None:
        raise PlainError("nvcc is not on PATH", "install the CUDA toolkit, or leave out --nvcc")
    with tempfile.TemporaryDirectory(prefix="tiler-") as tmp:
        src = Path(tmp) / "kernel.cu"
        src.write_text(cuda)
        cmd = [nvcc, f"-arch={arch}", "-cubin", "-Xptxas", "-v", "-o", str(Path(tmp) / "kernel.cubin"), str(src)]
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    log = done.stdout + done.stderr
    return Report(done.returncode == 0, _int(r"Used (\d+) registers", log), _int(r"(\d+) bytes spill stores", log),
                  _int(r"(\d+) bytes spill loads", log), _int(r"(\d+) bytes smem", log), log)


def _int(pattern: str, text: str) -> int:
    m = re.search(pattern, text)
    return int(m.group(1)) if m else 0


def compile_report(cuda: str, arch: str, planned_static: int, dynamic: int = 0) -> str:
    r = ptxas_report(cuda, arch)
    if not r.ok:
        return f"nvcc failed:\n{r.log}"
    verdict = "as planned" if r.shared_bytes == planned_static else f"but the plan said {planned_static}"
    extra = f", and {dynamic} bytes of dynamic shared memory at launch" if dynamic else ""
    return (f"nvcc -arch={arch}: {r.registers} registers, {r.spill_stores} bytes spill stores, "
            f"{r.shared_bytes} bytes static shared memory ({verdict}){extra}")
