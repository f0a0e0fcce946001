"""The package: templates found from a checkout and from a wheel; the
pipeline's stages as data; frozen IRs."""
from __future__ import annotations

import dataclasses
import os
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


# built from the checkout's files as git lists them: an unpacked sdist (no git) skips these
from_git = pytest.mark.skipif(not (ROOT / ".git").exists(), reason="needs a git checkout of tiler")


def _source_tree(tmp_path):
    """The checkout's files as git sees them (no build leftovers), links kept."""
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
    return tree


def _wheel_names(tree, dist) -> list[str]:
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
                    "-w", str(dist), str(tree)], check=True, capture_output=True)
    return zipfile.ZipFile(next(dist.glob("tiler_compiler-*.whl"))).namelist()


@pytest.mark.slow
@from_git
def test_a_built_wheel_carries_the_templates_and_benchmarks(tmp_path):
    names = _wheel_names(_source_tree(tmp_path), tmp_path / "dist")
    assert "tiler/templates/README.md" in names and "tiler/cli/__init__.py" in names
    # `tiler bench nbody` works from an installed wheel, in any directory
    assert "tiler/benchmarks/nbody.fut" in names and "tiler/benchmarks/nbody.toml" in names
    # `tiler docs language`: the reference ships with the package
    assert "tiler/docs/language.md" in names and "tiler/docs/guide.md" in names
    # the README's host program calling a generated kernel (`tiler docs examples/mm_host.cu --path`)
    assert "tiler/docs/examples/mm_host.cu" in names
    # the benchmarks' measuring scripts, results and logs are the checkout's, not the package's
    assert not any("/experiments/" in n or n.endswith((".json", ".log")) for n in names), \
        [n for n in names if "/experiments/" in n][:3]


# the tests an unpacked sdist runs on its own: every kind of data they read (the corpus, the analysis and
# regression programs, the benchmarks and their goldens, the docs' shown outputs, the error programs)
# (not the replay of every kernel nor the rest of explain's tests, two minutes of a two-core `make test`: the
# sdist's corpus and golden replay are asserted present; explain's goldens read the benchmarks and their data)
# (the docs' shown outputs are checked by the main run; here, that the sdist ships the docs: the cli test)
SDIST_TESTS = ("tests/test_explain.py::test_golden_explain", "tests/test_explain.py::test_golden_show_transformed",
               "tests/test_errors.py", "tests/test_layout.py", "tests/test_options.py",
               "tests/test_cli.py::test_docs_list_show_and_locate_the_shipped_documents")  # (docs copied, not linked)


@pytest.mark.slow
@from_git
def test_the_sdist_builds_installs_and_passes_its_tests_on_its_own(tmp_path):
    import tarfile

    tree = _source_tree(tmp_path)
    done = subprocess.run([sys.executable, "-c", "from setuptools import build_meta as b; print(b.build_sdist('sd'))"],
                          cwd=tree, capture_output=True, text=True, check=True)
    sdist = tree / "sd" / done.stdout.split()[-1]
    with tarfile.open(sdist) as tar:
        names = tar.getnames()
        safe = {"filter": "tar"} if hasattr(tarfile, "tar_filter") else {}  # Python 3.11.4 and later
        tar.extractall(tmp_path / "unpacked", **safe)
    top = names[0].split("/")[0]
    assert f"{top}/tiler/templates/module.cu.j2" in names and f"{top}/tiler/benchmarks/mm.fut" in names
    assert f"{top}/tests/conftest.py" in names and f"{top}/tests/golden/replay.json" in names
    assert f"{top}/Makefile" in names and f"{top}/corpus/a_ell_spmv_f32.fut" in names
    unpacked = tmp_path / "unpacked" / top
    wheel = _wheel_names(unpacked, tmp_path / "dist")
    assert "tiler/templates/README.md" in wheel and "tiler/benchmarks/rowsum.toml" in wheel
    assert "tiler/docs/language.md" in wheel and not any(n.startswith("tests/") for n in wheel)
    installed = tmp_path / "installed"
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation",
                    "--target", str(installed), str(sdist)], check=True, capture_output=True)
    # the installed package, the sdist's own tests and data (their command-line runs use the sdist's source)
    env = dict(os.environ, PYTHONPATH=str(installed))
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", *SDIST_TESTS],
                         cwd=unpacked, env=env, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    assert " passed" in run.stdout.strip().splitlines()[-1]


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


@pytest.mark.slow
@from_git
def test_the_licence_is_apache_2_with_llvm_exceptions_in_the_wheel(tmp_path):
    """Generated kernels carry tiler's own helpers, so the LLVM exception
    (embedded portions need no attribution) is part of the licence."""
    text = (ROOT / "LICENSE").read_text()
    assert "Apache License" in text and "Version 2.0, January 2004" in text
    assert "---- LLVM Exceptions to the Apache 2.0 License ----" in text and "Sections 4(a), 4(b) and 4(d)" in text
    dist = tmp_path / "dist"
    _wheel_names(_source_tree(tmp_path), dist)
    wheel = zipfile.ZipFile(next(dist.glob("tiler_compiler-*.whl")))
    meta = wheel.read(next(n for n in wheel.namelist() if n.endswith(".dist-info/METADATA"))).decode()
    assert "License-Expression: Apache-2.0 WITH LLVM-exception" in meta
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in wheel.namelist())


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_make_installs_into_its_own_virtual_environment_never_the_systems_python(tmp_path):
    """make makes .venv with the system's Python (which it says it leaves as
    it is), and installs and runs there: the demo only what running tiler
    needs, the tests the dev extra too, in parallel."""
    shutil.copy(ROOT / "Makefile", tmp_path / "Makefile")
    (tmp_path / "pyproject.toml").write_text("")
    system = tmp_path / "system-python"  # this Python, under another name
    system.write_text(f'#!/bin/sh\nexec {sys.executable} "$@"\n')
    system.chmod(0o755)
    done = subprocess.run(["make", "-n", "demo", "test", f"SYSTEM_PYTHON={system}"], cwd=tmp_path, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert f"making tiler's virtual environment in .venv: the packages of {system} are left as they are" in done.stdout
    assert (tmp_path / ".venv" / "bin" / "python").exists()
    commands = [line for line in done.stdout.splitlines() if "python" in line and "virtual environment" not in line]
    assert ".venv/bin/python -m pip install --quiet --disable-pip-version-check -e ." in commands
    assert ".venv/bin/python -m pip install --quiet --disable-pip-version-check -e '.[dev]'" in commands
    assert ".venv/bin/python -m pytest -q -n auto" in commands and str(system) not in "\n".join(commands)  # all in .venv
