#!/bin/bash
# Whether --loops-as-streams may become the default (issue 32, "the spelling
# decides"): on a GPU host, from the repository's root, after
# `source .gpu/bootstrap`. Every kernel the option changes against the
# interpreter, then the corpus at its three sizes with the option timed
# beside the default (raced as the default is): it may become the default
# only where neither list has a loser. Logs go to $OUT (or ./loops-as-streams).
set -u
out=${OUT:-loops-as-streams}
mkdir -p "$out"
python3 -m pytest -q -m gpu tests/test_gpu.py -p no:cacheprovider \
  -k "loops_read_as_streams or loop_matvec or loop_matmul" 2>&1 | tee "$out/gpu-tests.log" | tail -3
# only the programs the option changes (explain lists their loops); every other one runs the default's kernels
only=$(python3 - <<'PY'
from pathlib import Path
from tiler.pipeline import run_to
for p in sorted(Path("corpus").glob("*.fut")):
    if run_to("kernel", p.read_text(), p.name).streamable:
        print(f"--only {p.stem}", end=" ")
PY
)
echo "corpus programs with loops the option reads as streams: $only"
python3 -m tiler corpus corpus $only --variant "loops=--loops-as-streams" --json "$out/corpus-loops.json" \
  2>&1 | tee "$out/corpus-loops.log" | tail -40
