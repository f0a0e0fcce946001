"""The package's layout: small modules, and no import cycle among them."""
from __future__ import annotations

import ast
import os
from pathlib import Path

from conftest import ROOT

MAX_LINES = 500


def _modules() -> dict[str, Path]:
    """tiler's modules by dotted name. The links in tiler/ (templates,
    benchmarks, docs) are data, not modules: they are not followed."""
    out = {}
    for folder, subfolders, files in os.walk(ROOT / "tiler"):
        subfolders[:] = [d for d in subfolders if d != "__pycache__" and not os.path.islink(os.path.join(folder, d))]
        for file in files:
            if file.endswith(".py"):
                path = Path(folder) / file
                parts = path.relative_to(ROOT).with_suffix("").parts
                out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return out


def _imports(name: str, path: Path, modules: dict, deferred: bool = False) -> set[str]:
    """The tiler modules `name` imports when it is imported: those at module
    level (in functions, imports run only when called; under TYPE_CHECKING,
    never); with `deferred`, those in its functions and under TYPE_CHECKING
    too (a dependency all the same, for a reader). `from P import x`
    imports the module P.x where there is one, else P."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()

    def visit(statements):
        for s in statements:
            if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                if deferred or isinstance(s, ast.ClassDef):
                    visit(s.body)
                continue
            if isinstance(s, ast.Import):
                found.update(a.name for a in s.names)
            elif isinstance(s, ast.ImportFrom):
                base = package.split(".")[:len(package.split(".")) - s.level + 1] if s.level else []
                source = ".".join(base + ([s.module] if s.module else []))
                found.update(f"{source}.{a.name}" if f"{source}.{a.name}" in modules else source for a in s.names)
            if isinstance(s, ast.If) and "TYPE_CHECKING" in ast.unparse(s.test):
                visit(s.body if deferred else s.orelse)
                continue
            for block in ("body", "orelse", "finalbody", "handlers"):
                visit(getattr(s, block, ()))

    visit(ast.parse(path.read_text()).body)
    return found & modules.keys()


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle (its first module repeated at the end), or None."""
    state: dict[str, str] = {}
    path: list[str] = []

    def walk(module):
        state[module] = "open"
        path.append(module)
        for other in sorted(graph[module]):
            if state.get(other) == "open":
                return path[path.index(other):] + [other]
            if other not in state and (cycle := walk(other)):
                return cycle
        path.pop()
        state[module] = "done"
        return None

    return next((c for m in sorted(graph) if m not in state and (c := walk(m))), None)


def test_no_module_is_over_500_lines():
    long = {str(p.relative_to(ROOT)): n for p in _modules().values() if (n := len(p.read_text().splitlines())) > MAX_LINES}
    assert not long, f"modules over {MAX_LINES} lines (split them along a seam): {long}"


def test_no_import_cycle_among_tilers_modules():
    modules = _modules()
    graph = {name: _imports(name, path, modules) for name, path in modules.items()}
    # the graph sees `from . import kir` (a submodule) and a package's own submodules
    assert "tiler.kir" in graph["tiler.api"] and "tiler.cli.run" in graph["tiler.cli"]
    cycle = _cycle(graph)
    assert cycle is None, "import cycle: " + " -> ".join(cycle)


def _graph(deferred: bool) -> dict[str, set[str]]:
    modules = _modules()
    return {name: _imports(name, path, modules, deferred) for name, path in modules.items()}


def test_no_import_cycle_even_through_imports_made_in_functions():
    """An import in a function breaks a cycle for Python, not for a reader:
    the modules still depend on each other."""
    cycle = _cycle(_graph(deferred=True))
    assert cycle is None, "import cycle (through an import in a function or under TYPE_CHECKING): " + " -> ".join(cycle)


def _package(module: str) -> str:
    """tiler.X for a module of package X (a module at the top, tiler.api, is its own)."""
    return ".".join(module.split(".")[:2])


def test_no_import_cycle_between_packages():
    packages: dict[str, set[str]] = {}
    for name, imported in _graph(deferred=True).items():
        if name == "tiler":  # (the package's own face: it re-exports the API)
            continue
        packages.setdefault(_package(name), set()).update(
            _package(m) for m in imported if _package(m) not in (_package(name), "tiler"))
    cycle = _cycle({p: packages.get(p, set()) & packages.keys() for p in packages})
    assert cycle is None, "import cycle between packages: " + " -> ".join(cycle)


def test_report_reads_records_and_traces_and_imports_neither_lower_nor_transform():
    """explain prints what the stages recorded (the versions, each kernel's
    trace of rewrites); it never lowers or rewrites anything itself."""
    graph = _graph(deferred=True)
    for name, imported in graph.items():
        if name.startswith("tiler.report"):
            bad = {m for m in imported if m.startswith(("tiler.lower", "tiler.transform", "tiler.versions.lowering"))}
            assert not bad, f"{name} imports {sorted(bad)}"


def test_the_package_holds_no_experiment():
    """The scripts that measured a decision live in experiments/, outside
    the package (and outside what its data links reach: tiler/benchmarks);
    a benchmark's PyTorch twin (NAME.py beside NAME.fut) is part of it."""
    linked = [p for p in (ROOT / "tiler" / "benchmarks").rglob("*") if p.suffix in (".py", ".sh", ".cu", ".log")
              and not (p.suffix == ".py" and p.with_suffix(".fut").is_file() and "def torch_twin" in p.read_text())]
    assert not linked, linked[:3]
