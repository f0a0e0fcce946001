"""Shared helpers: program files, their header expectations, and the CLI."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tiler import kir
from tiler.check import check
from tiler.errors import UserError
from tiler.source import Source
from tiler.syntax import parse

ROOT = Path(__file__).resolve().parent.parent
PROGRAMS = ROOT / "tests" / "programs"
BENCHMARKS = ROOT / "benchmarks"
BENCHMARK_NAMES = sorted(p.stem for p in BENCHMARKS.glob("*.fut"))


def gathered_row(row: str) -> str:
    """A program summing, in each thread, the row `row` of A, picked through
    the index array `idx` (`i` its element, `j` the thread's index, `t`
    `idx[j]`)."""
    return f"""fun [f32, n] main([int, n] idx, [[f32, m], r] A) =
  map(fn f32 (int i, int j) =>
        let t = idx[j] in
        let row = {row} in
        streamSeq(fn f32 (int kk, [f32, c] rc, f32 acc) =>
                    loop (acc) = for k < c do acc + rc[k] in acc
                 , row, 0f32)
     , zip(idx, iota(n)))
"""


def toolkit_include() -> Path | None:
    """The CUDA toolkit's include folder, where cuda_fp16.h is (None: no toolkit here)."""
    for root in (os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH"), "/usr/local/cuda"):
        if root and (Path(root) / "include" / "cuda_fp16.h").is_file():
            return Path(root) / "include"
    return None


def header(path: Path) -> dict[str, list[str]]:
    """`-- key: value` lines at the top of a test program (Futhark-style expectations)."""
    out: dict[str, list[str]] = {}
    for line in path.read_text().splitlines():
        m = re.match(r"--\s*([a-z][a-z ]*):\s*(.*)$", line)
        if not m:
            if line.startswith("--"):
                continue
            break
        out.setdefault(m.group(1), []).append(m.group(2).strip())
    return out


def header_options(path: Path):
    """The plan options a test program's `-- options:` header gives, parsed
    as `tiler explain` parses its command line (none: the defaults)."""
    import shlex

    from tiler.cli.arguments import options_of_flags

    return options_of_flags([f for line in header(path).get("options", []) for f in shlex.split(line)])


def load(path: Path):
    text = path.read_text()
    return check(parse(text, str(path)), Source(text, str(path)))


def errors_of(path: Path) -> UserError:
    text = path.read_text()
    with pytest.raises(UserError) as info:
        check(parse(text, path.name), Source(text, path.name))
    return info.value


def tiler(*args: str, cwd: Path = ROOT, timeout: int = 120) -> subprocess.CompletedProcess:
    """Run the real command line in a fresh process."""
    path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)  # this checkout's
    return subprocess.run([sys.executable, "-m", "tiler", *map(str, args)], cwd=cwd, capture_output=True,
                          text=True, timeout=timeout, env={**os.environ, "COLUMNS": "120", "PYTHONPATH": path})


def ptxas_reports(units: list[str], tmp_path: Path, flag: str = "-cubin") -> dict[str, str]:
    """nvcc -arch=sm_90 over the CUDA `units` together: ptxas's report of each kernel, by name."""
    src = tmp_path / "units.cu"
    src.write_text("\n".join(units))
    log = subprocess.run(["nvcc", "-arch=sm_90", flag, "-Xptxas", "-v", "-o", str(tmp_path / "units.out"), str(src)],
                         check=True, capture_output=True, text=True).stderr
    return {block.split("'")[1]: block for block in re.split(r"ptxas info\s+: Compiling entry function ", log)[1:]}


def kernels_of(cuda: str) -> str:
    """A module's CUDA from its first kernel on: tiler.cuh aside (its
    transposition, a template the launch instantiates, stages a tile)."""
    return cuda[cuda.index('\nextern "C" __global__'):]


def transformed(values: dict) -> str:
    """What `tiler explain --show-transformed` prints, from a run's stage values."""
    from tiler.pipeline import shown_synchronous
    from tiler.report.transformed import show_transformed

    return show_transformed(values["parse"], values["analyse"], shown_synchronous(values), values["versions"].fission)


def chunk_loop_reads(one_point: tuple):
    """The first full chunk's loop of the one-point kernel: its variable and
    the indices its A and B loads read at (P0_, k) and (P1_, k)."""
    loop = next(s for s in kir.statements(one_point) if isinstance(s, kir.For) and isinstance(s.stop, kir.Const)
                and len(s.body) == 1 and isinstance(s.body[0], kir.Assign) and s.body[0].name.startswith("acc"))
    loads = [x for x in kir.walk(loop.body[0].value) if isinstance(x, kir.Load)]
    by = {next(n.name for n in kir.walk(ld.index) if isinstance(n, kir.Ref) and n.name.startswith("P")): ld
          for ld in loads}
    return loop.var, by["P0_"], by["P1_"]
