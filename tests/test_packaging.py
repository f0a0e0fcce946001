"""The package: templates found from a checkout and from a wheel; the
pipeline's stages as data; frozen IRs."""
from __future__ import annotations

import dataclasses
import shutil
import subprocess
import sys
import zipfile

import pytest
from conftest import BENCHMARKS, ROOT

from tiler import pipeline
from tiler.resources import templates_dir
from tiler.syntax import ast


def test_templates_are_found_from_the_checkout():
    assert (templates_dir() / "README.md").is_file()


@pytest.mark.slow
def test_a_built_wheel_carries_the_templates_and_benchmarks(tmp_path):
    tree = tmp_path / "src"
    files = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                           capture_output=True, text=True, check=True).stdout.split()
    for name in files:
        src, dst = ROOT / name, tree / name
        dst.parent.mkdir(parents=True, exist_ok=True)
        if src.is_symlink():
            dst.symlink_to(src.readlink())
        elif src.is_file():
            shutil.copy2(src, dst)
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
                    "-w", str(tmp_path / "dist"), str(tree)], check=True, capture_output=True)
    wheel = next((tmp_path / "dist").glob("tiler_compiler-*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    assert "tiler/templates/README.md" in names and "tiler/cli.py" in names
    # `tiler bench nbody` works from an installed wheel, in any directory
    assert "tiler/benchmarks/nbody.fut" in names and "tiler/benchmarks/nbody.toml" in names


def test_stages_are_data_in_pipeline_order():
    assert pipeline.STAGE_NAMES[:4] == ("parse", "check", "kernel", "analyse")
    assert all(s.description for s in pipeline.STAGES)
    text = (BENCHMARKS / "nbody.fut").read_text()
    assert isinstance(pipeline.run_to("parse", text), ast.Program)
    assert pipeline.run_to("check", text).kernel.levels


def test_syntax_trees_and_typed_programs_are_frozen():
    prog = pipeline.run_to("check", (BENCHMARKS / "mm.fut").read_text())
    with pytest.raises(dataclasses.FrozenInstanceError):
        prog.kernel.body = None
    tree = pipeline.run_to("parse", (BENCHMARKS / "mm.fut").read_text())
    with pytest.raises(dataclasses.FrozenInstanceError):
        tree.funs[0].name = "x"
