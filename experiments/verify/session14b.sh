#!/bin/bash
# Fourteenth session, second call (on a GPU host after `source .gpu/bootstrap`):
# rows gathered through computed indices (views.Views.computable) and fission
# with companion vectors (issue 57). GPU tests of the new and changed
# programs; memcheck and racecheck on them; the GPU fuzz (with --perf) on the
# generated programs that gather rows; the new benchmarks embed_scores and mlp
# against PyTorch; g_hashed_proj_f64 against PyTorch. Logs to $OUT.
set -u
out=${OUT:-session14b}
mkdir -p "$out"
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$out/device.txt"
n=$(python3 -c "import xdist" 2>/dev/null && echo "-n 6")
K="rows_by or mlp or gather or embed_scores or fuzz_regression or kmeans or launch_rows"
timeout ${GPU_S:-180} python3 -m pytest -q -m gpu -p no:cacheprovider tests/test_gpu.py $n -k "$K" \
  > "$out/gpu-tests.log" 2>&1
tail -2 "$out/gpu-tests.log"; grep -E "^(FAILED|E )" "$out/gpu-tests.log" | head -30
timeout 60 python3 -m pytest -q -p no:cacheprovider tests/test_twins.py -k "embed_scores or mlp" > "$out/twins.log" 2>&1
tail -1 "$out/twins.log"
(for p in "rows_by_computed_index and odd and tiled" "mlp_companions or mlp_loop" "embed_scores and odd and tiled"; do
  for tool in memcheck racecheck; do
    timeout ${SANITIZE_S:-60} compute-sanitizer --tool "$tool" --error-exitcode 9 python3 -m pytest -q -m gpu \
      -p no:cacheprovider tests/test_gpu.py -k "test_gpu_matches and $p" > "$out/sanitizer-$tool-${p%% *}.log" 2>&1
    echo "$p $tool rc=$?" >> "$out/sanitizer.log"
  done
done) &
timeout ${FUZZ_S:-200} python3 experiments/verify/gathered_fuzz.py 90 > "$out/fuzz.log" 2>&1
tail -4 "$out/fuzz.log"
wait
cat "$out/sanitizer.log"; grep -hE "ERROR SUMMARY|hazard|passed|failed" "$out"/sanitizer-*.log | sort | uniq -c
[ -n "${TIMING:-}" ] || exit 0
timeout ${BENCH_S:-170} python3 -m tiler bench embed_scores mlp --repeat 10 --json "$out/bench.json" > "$out/bench.log" 2>&1
cat "$out/bench.log" | tail -40
timeout ${NOW_S:-120} python3 -m tiler corpus corpus --only g_hashed_proj_f64 --sizes medium,large --peer \
  --json "$out/g.json" > "$out/g.log" 2>&1
grep -v "^  (" "$out/g.log" | tail -8
