#!/bin/bash
# Thirty-sixth session, fourth call: the benchmarks the own rows' warp changed (matvec, mlp) at their quick and
# full sizes in the session's starting tree (.head) and now, then the GPU tests of the warp a row.
set -u
out=$(realpath -m "${OUT:-session36d}")
log=$out/logs
mkdir -p "$log"
start=$(date +%s)
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
bench=$(realpath benchmarks)
(cd .head && timeout 60 python3 -m tiler corpus "$bench" --only matvec --only mlp --sizes quick,full \
   --json "$out/bench-head.json") > "$log/head.txt" 2>&1
echo "== head rc=$? $(( $(date +%s) - start )) s"
timeout 60 python3 -m tiler corpus "$bench" --only matvec --only mlp --sizes quick,full --json "$out/bench-now.json" \
  > "$log/now.txt" 2>&1
echo "== now rc=$? $(( $(date +%s) - start )) s"
python3 experiments/verify/compare_corpus.py "$out/bench-head.json" "$out/bench-now.json" | cut -c1-150
grep -E "x[0-9.]+  untiled" "$log/now.txt" | cut -c1-160
left=$(( ${LIMIT_S:-200} - ($(date +%s) - start) ))
OUT=$log/tests SHARDS=8 GPU_TESTS_S=$left KEYS="warp_a_row_of_each or (few_points_split and (matvec or launch_weights or promoted_row)) or (gpu_matches_the_interpreter and (matvec or mlp or launch_weights or promoted_row or launch_rows))" \
  bash experiments/verify/whole-gpu.sh > /dev/null 2>&1
cat "$log/tests/gpu-tests.log"; grep -E "^E  " "$log/tests/gpu-tests-full.log" | head -10
echo "== total $(( $(date +%s) - start )) s"
tar -czf "$out/logs.tgz" -C "$out" logs && rm -rf "$log"
