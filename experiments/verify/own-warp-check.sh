#!/bin/bash
# What session 36 could not run for the own rows' warp (reductions.Split.own_warp, commit 5e3d8dc): the
# benchmarks matvec and mlp at their quick and full sizes in a tree without it (BASE, default .base: make it
# with `mkdir .base && git archive 8324187 | tar -x -C .base`, and carry it) and now, then its GPU tests. On a
# GPU host after `source .gpu/bootstrap`, from the repository's root: OUT=DIR bash experiments/verify/own-warp-check.sh
set -u
out=$(realpath -m "${OUT:-own-warp-check}")
base=${BASE:-.base}
mkdir -p "$out"
start=$(date +%s)
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$out/device.txt"
bench=$(realpath benchmarks)
(cd "$base" && timeout 150 python3 -m tiler corpus "$bench" --only matvec --only mlp --sizes quick,full \
   --json "$out/bench-base.json") > "$out/base.txt" 2>&1
echo "== base rc=$? $(( $(date +%s) - start )) s"
timeout 150 python3 -m tiler corpus "$bench" --only matvec --only mlp --sizes quick,full --json "$out/bench-now.json" \
  > "$out/now.txt" 2>&1
echo "== now rc=$? $(( $(date +%s) - start )) s"
python3 experiments/verify/compare_corpus.py "$out/bench-base.json" "$out/bench-now.json" | cut -c1-150
OUT=$out/tests SHARDS=8 GPU_TESTS_S=${TESTS_S:-200} KEYS="warp_a_row_of_each or few_points_split or own_row or (gpu_matches_the_interpreter and (matvec or mlp or launch_weights or promoted_row or launch_rows))" \
  bash experiments/verify/whole-gpu.sh > /dev/null 2>&1
cat "$out/tests/gpu-tests.log"; grep -E "^E  " "$out/tests/gpu-tests-full.log" | head -10
echo "== total $(( $(date +%s) - start )) s"
