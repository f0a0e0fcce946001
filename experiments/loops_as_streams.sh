#!/bin/bash
# Loops read as streams (issue 32, "the spelling decides"; the default
# since 2026-11-27, measured so): on a GPU host, from the repository's root,
# after `source .gpu/bootstrap`. Every kernel of the programs whose loops
# are read as streams against the interpreter, read so and kept
# (--keep-loops), then those corpus programs at their three sizes with their
# loops kept timed beside the default (raced as the default is): the default
# must be slower than neither. Logs go to $OUT (or ./loops-as-streams).
set -u
out=${OUT:-loops-as-streams}
mkdir -p "$out"
python3 -m pytest -q -m gpu tests/test_gpu.py -p no:cacheprovider \
  -k "loops_read_as_streams or loop_matvec or loop_matmul" 2>&1 | tee "$out/gpu-tests.log" | tail -3
# only the programs --keep-loops changes (explain lists their loops with it); every other one runs the same kernels
only=$(python3 - <<'PY'
from pathlib import Path
from tiler.analyse import Options
from tiler.pipeline import run_to
for p in sorted(Path("corpus").glob("*.fut")):
    if run_to("kernel", p.read_text(), p.name, Options(keep_loops=True)).streamable:
        print(f"--only {p.stem}", end=" ")
PY
)
echo "corpus programs with loops read as streams: $only"
python3 -m tiler corpus corpus $only --variant "kept=--keep-loops" --json "$out/corpus-loops.json" \
  2>&1 | tee "$out/corpus-loops.log" | tail -40
# The two benchmarks whose loops are read as streams, at rows short enough
# (under 256) that they run a row a thread, the version that changes; the
# benchmarks' own sizes run the split versions, which it leaves alone.
short="$out/short-rows"
mkdir -p "$short"
cp benchmarks/rownorm.fut benchmarks/rowsum3d.fut "$short/"
cat > "$short/rownorm.toml" <<'TOML'
title = "row norms, short rows"
[sizes.test]
n = 1000
m = 37
[sizes.small]
n = 4096
m = 64
[sizes.medium]
n = 262144
m = 100
[sizes.large]
n = 1048576
m = 200
TOML
cat > "$short/rowsum3d.toml" <<'TOML'
title = "row sums of a batch of matrices, short rows"
[sizes.test]
b = 3
n = 37
m = 21
[sizes.small]
b = 2
n = 2048
m = 64
[sizes.medium]
b = 4
n = 65536
m = 100
[sizes.large]
b = 8
n = 131072
m = 200
TOML
python3 -m tiler corpus "$short" --variant "kept=--keep-loops" --json "$out/short-rows.json" \
  2>&1 | tee "$out/short-rows.log" | tail -20
