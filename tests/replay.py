"""Process replay: the CUDA of every program, before and after a change.

    python tests/replay.py [--base REF] [--fuzz N] [--out DIR] [--explain]

Writes the program set (benchmarks, analysis test programs, regressions and
N random programs from the fuzzer's generator) once, then compiles every
program under every option set with the `tiler compile` command line of two
trees: a checkout of REF (default HEAD, in a temporary worktree) and the
working tree. Prints which kernels changed and a unified diff of each (or
saves both sides under DIR). Exit 1 when anything changed, so a refactor can
be proved not to change the generated code, and a deliberate change shows
exactly what it touched. `--explain` also replays what explain says of
every program (its JSON, its text, --show-transformed and --show-rewrites)
and the launch description (`compile --emit launch`), under the default
options and --no-tile, so that a refactor of the records explain reads can
be proved to leave its outputs alone.
"""
from __future__ import annotations

import argparse
import difflib
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OPTION_SETS = {
    "untiled": ["--no-tile"],
    "tiled": [],
    "tile16": ["--tile", "16"],
    "tile64x8": ["--tile", "8,64"],
    "small-shared": ["--max-shared", "2048"],
    "sized": ["--size", "n=100", "--size", "m=37", "--size", "q=3"],
}
EXPLAIN_SETS = {  # (command, arguments): what --explain adds for each program
    "explain.json": ("explain", ["--json"]),
    "explain.text": ("explain", []),
    "explain.untiled": ("explain", ["--json", "--no-tile"]),
    "explain.transformed": ("explain", ["--show-transformed"]),
    "explain.rewrites": ("explain", ["--show-rewrites"]),
    "launch": ("compile", ["--emit", "launch"]),
}

# Runs inside one tree: compile every (program, option set) through the CLI's
# own entry point (the stable interface), one process for all of them.
WORKER = r"""
import json, sys
from click.testing import CliRunner
from tiler.cli import main
jobs = json.load(open(sys.argv[1]))
out = {}
runner = CliRunner()
for key, (command, path, args) in jobs.items():
    r = runner.invoke(main, [command, path, *args])
    out[key] = r.output if r.exit_code == 0 else f"exit {r.exit_code}\n{r.output}"
json.dump(out, open(sys.argv[2], "w"))
"""


def programs(fuzz: int, into: Path) -> list[Path]:
    files = sorted((ROOT / "benchmarks").glob("*.fut"))
    files += sorted((ROOT / "tests" / "programs" / "analysis").glob("*.fut"))
    files += sorted((ROOT / "tests" / "programs" / "regress").glob("*.fut"))
    files += sorted((ROOT / "corpus").glob("*.fut"))
    sys.path.insert(0, str(ROOT))
    from tiler.fuzz.generate import generate
    from tiler.syntax import pretty

    for seed in range(fuzz):
        path = into / f"fuzz{seed}.fut"
        path.write_text(pretty(generate(seed)))
        files.append(path)
    return files


def compile_all(tree: Path, jobs: dict, tmp: Path, tag: str) -> dict:
    job_file, out_file = tmp / f"jobs-{tag}.json", tmp / f"out-{tag}.json"
    job_file.write_text(json.dumps(jobs))
    subprocess.run([sys.executable, "-c", WORKER, str(job_file), str(out_file)], cwd=tree, check=True,
                   env={"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin", "COLUMNS": "120"})
    return json.loads(out_file.read_text())


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", default="HEAD")
    ap.add_argument("--fuzz", type=int, default=60)
    ap.add_argument("--out", default=None, help="also save both sides under this folder")
    ap.add_argument("--stat", action="store_true", help="list changed kernels only")
    ap.add_argument("--explain", action="store_true", help="also replay explain's outputs and the launch description")
    ap.add_argument("--only-explain", action="store_true", help="replay explain's outputs alone (not the CUDA)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="tiler-replay-") as tmp_name:
        tmp = Path(tmp_name)
        base = tmp / "base"
        subprocess.run(["git", "worktree", "add", "--detach", "-q", str(base), args.base], cwd=ROOT, check=True)
        try:
            (tmp / "progs").mkdir()
            files = programs(args.fuzz, tmp / "progs")
            sets = {} if args.only_explain else {name: ("compile", opts) for name, opts in OPTION_SETS.items()}
            if args.explain or args.only_explain:
                sets |= EXPLAIN_SETS
            jobs = {f"{p.stem}.{name}": (command, str(p.resolve()), opts) for p in files
                    for name, (command, opts) in sets.items()}
            before = compile_all(base, jobs, tmp, "base")
            after = compile_all(ROOT, jobs, tmp, "work")
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(base)], cwd=ROOT, check=False)
    changed = [k for k in jobs if before[k] != after[k]]
    if args.out:
        out = Path(args.out)
        for side, texts in (("before", before), ("after", after)):
            (out / side).mkdir(parents=True, exist_ok=True)
            for k, text in texts.items():
                (out / side / f"{k}.cu").write_text(text)
    for k in changed:
        print(f"changed: {k}")
        if not args.stat:
            sys.stdout.writelines(difflib.unified_diff(before[k].splitlines(True), after[k].splitlines(True),
                                                       f"{args.base}/{k}", f"work/{k}", n=2))
    print(f"{len(jobs)} kernels, {len(changed)} changed")
    return 1 if changed else 0


if __name__ == "__main__":
    sys.exit(main())
