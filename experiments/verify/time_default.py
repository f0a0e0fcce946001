"""Times the default of corpus programs only (no untiled kernel, no model's choice: those cost most of a corpus
run's time where the untiled kernel takes seconds), checked against the interpreter first as `tiler corpus`
does; extra variants by plan flags. Run from a tree's root (the tree's own tiler is imported):
    python3 ../../experiments/verify/time_default.py CORPUS SIZES OUT.json PROG... [-- NAME=FLAGS ...]"""
import shlex
import sys
from pathlib import Path

sys.path.insert(0, ".")
from tiler.analyse import Options  # noqa: E402
from tiler.bench import Variant  # noqa: E402
from tiler.bench.corpus import DEFAULT, run_corpus  # noqa: E402
from tiler.cli.arguments import options_of_flags  # noqa: E402

folder, sizes, out, *rest = sys.argv[1:]
progs, flags = (rest[:rest.index("--")], rest[rest.index("--") + 1:]) if "--" in rest else (rest, [])
variants = [Variant(DEFAULT, Options())] + [Variant(f.split("=", 1)[0], options_of_flags(shlex.split(f.split("=", 1)[1])))
                                           for f in flags]
records = run_corpus(Path(folder), variants, tuple(sizes.split(",")), tuple(progs))
import json  # noqa: E402

Path(out).write_text(json.dumps({"records": records}, indent=1))
for r in records:
    print(r["program"], r.get("size_set"), " ".join(f"{k} {v:.4f}" for k, v in r.get("ms", {}).items()),
          r.get("version", {}).get(DEFAULT, "").split(r["program"])[-1], r.get("error", ""))
