"""Copies of the programs named on the command line into a folder, each with
size sets of few outputs and a long reduction, for timing split-K:
  kA: every other size 64, the reduction 32768 long;
  kB: every other size 90, the reduction 8192 long;
  kC: every other size 32, the reduction 100000 long.
Usage: python3 experiments/split-k/make_few.py OUT_DIR PROGRAM.fut ..."""
import shutil
import sys
from pathlib import Path

from tiler.analyse import Options
from tiler.pipeline import run_all
from tiler.workload import load_spec

SETS = {"kA": (64, 32768), "kB": (90, 8192), "kC": (32, 100000)}


def main(out: Path, paths: list[Path]) -> None:
    out.mkdir(parents=True, exist_ok=True)
    for path in paths:
        values = run_all(path.read_text(), path.name, Options())
        split, prog = values["analyse"].plan.split, values["check"]
        spec = load_spec(path)
        derived = {n for n, f in (spec.size_set("test").items() if spec else ()) if isinstance(f, str)}
        if split is None or split.length is None or derived:
            print(f"{path.stem}: skipped (no split length, or derived sizes)")
            continue
        shutil.copy(path, out / path.name)
        toml = path.with_suffix(".toml").read_text()
        head = toml.split("[sizes.")[0]
        rest = "[sizes." + "[sizes.".join(toml.split("[sizes.")[1:])
        sets = ""
        for name, (other, length) in SETS.items():
            sets += f"[sizes.{name}]\n" + "".join(
                f"{s.name} = {length if s.name == split.length else other}\n" for s in prog.kernel.sizes) + "\n"
        (out / path.with_suffix(".toml").name).write_text(head + rest + "\n" + sets)
        twin = path.with_suffix(".py")
        if twin.exists():
            shutil.copy(twin, out / twin.name)


if __name__ == "__main__":
    main(Path(sys.argv[1]), [Path(p) for p in sys.argv[2:]])
