#!/bin/bash
# Thirty-seventh session, second call: the strided version (window_tile._coarse) and the untiled block narrowed
# to a literal inner dimension (blocks._narrowed), landed: their GPU tests and the own rows' warp's (not run in
# session 36), the strided and narrowed kernels' tests under memcheck and racecheck, the two changed corpus
# programs at the session's start (.trees/head) and now, twice each in turn at small and medium sizes (the first
# program a call times ran slower in session37a), then the corpus against its twins per shape at small and
# medium sizes for as long as the call allows (peer-rest.sh). From the repository's root on a GPU host after
# `source .gpu/bootstrap`, with .trees carried: OUT=DIR bash experiments/verify/session37b.sh
set -u
out=$(realpath -m "${OUT:-session37b}")
log=$out/logs
mkdir -p "$log"
start=$(date +%s)
limit=${LIMIT_S:-530}
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
keys="warp_a_row_of_each or strided_version or untiled_block_narrowed"
timeout 120 python3 -m pytest -q -m gpu tests/test_gpu.py -p no:cacheprovider -k "$keys" -rfE > "$log/gpu-tests.log" 2>&1
echo "== gpu tests rc=$? $(( $(date +%s) - start )) s"; tail -3 "$log/gpu-tests.log"
for tool in memcheck racecheck; do
  timeout 90 compute-sanitizer --tool $tool --error-exitcode 9 python3 -m pytest -q -m gpu tests/test_gpu.py \
    -p no:cacheprovider -k "strided_version or untiled_block_narrowed" > "$log/sanitizer-$tool.log" 2>&1
  echo "== $tool rc=$? $(( $(date +%s) - start )) s"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|passed|failed" "$log/sanitizer-$tool.log" | tail -3
done
corpus=$(realpath corpus)
for turn in 1 2; do
  for tree in .trees/head .; do
    name=$(basename $(realpath $tree))-$turn
    (cd $tree && timeout 60 python3 -m tiler corpus "$corpus" --only a_outer_update_f32 --only a_rigid3_points_f32 \
       --sizes small,medium --json "$log/$name.json") > "$log/$name.txt" 2>&1
    echo "== $name rc=$? $(( $(date +%s) - start )) s"
  done
done
for turn in 1 2; do
  python3 experiments/verify/compare_corpus.py "$log/head-$turn.json" "$log/$(basename $(realpath .))-$turn.json" | cut -c1-170
done
left=$(( limit - ($(date +%s) - start) ))
echo "== peer from $(( $(date +%s) - start )) s, $left s left"
[ $left -gt 120 ] && OUT=$out/peer SET=small,medium LIMIT_S=$(( left - 10 )) bash experiments/verify/peer-rest.sh \
  > "$log/peer-rest.txt" 2>&1
tail -5 "$log/peer-rest.txt"
echo "== total $(( $(date +%s) - start )) s"
tar -czf "$out/logs.tgz" -C "$out" logs && rm -rf "$log"
