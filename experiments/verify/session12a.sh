#!/bin/bash
# Twelfth session's first GPU call: the eleventh session's split-K, race and
# several-blocks GPU tests alone (never run to the end), a GPU fuzz with
# windows beside them, then the window corpus (d_*) timed against untiled
# and the PyTorch twins at the large sizes: the baseline for issue 56.
set -u
out=${OUT:-session12a}
mkdir -p "$out"
SHARDS=8 GPU_K="split_k or several_blocks or few_points or races" GPU_TESTS_S=280 FUZZ=120 FUZZ_SEED=120000 \
  OUT="$out" bash experiments/verify/session11.sh
only=$(for f in corpus/d_*.fut; do printf -- "--only %s " "$(basename "$f" .fut)"; done)
timeout 240 python3 -m tiler corpus corpus $only --sizes large --peer --json "$out/d-large.json" > "$out/d-large.log" 2>&1
tail -40 "$out/d-large.log"
