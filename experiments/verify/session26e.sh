#!/bin/bash
# Twenty-sixth session, fifth call: the march with consecutive rows a thread, 32 x 4 threads (64 x 4 for a wide
# halo), 32 planes, registers capped for 768 threads an SM: the march, window and halo GPU tests (new: a halo that
# takes the 64 x 4 block), memcheck and racecheck on inside and ragged blocks, the fuzzer's marched stars at inside
# and drawn sizes, the star's kernel as 47acef2 and this tree generate it, then star25 and stencil3d benched here and
# in .head/ (47acef2), in the same call. Logs to $OUT.
set -u
out=$(realpath -m "${OUT:-session26e}")
log=$out/logs
mkdir -p "$log"
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
start=$(date +%s)
timeout 150 python3 -m pytest -q -m gpu -p no:cacheprovider -n 8 tests/test_gpu.py \
  -k "march or window or halo" > "$log/gpu-tests.log" 2>&1
echo "gpu tests: $(tail -1 "$log/gpu-tests.log")"; grep -E "^(FAILED|ERROR)|^E  " "$log/gpu-tests.log" | head -20
for tool in memcheck racecheck; do
  timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 python3 -m pytest -q -m gpu -p no:cacheprovider \
    tests/test_gpu.py -k "(march_versions and (inside or 133) and (star25 or wide or clamped or 25pt)) or march_without" \
    > "$log/sanitize-$tool.log" 2>&1
  echo "$tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$log/sanitize-$tool.log" | tail -1) $(grep -E 'passed|failed' "$log/sanitize-$tool.log" | tail -1)"
done
echo "== $(( $(date +%s) - start )) s"
seeds=$(cat experiments/windows/march-seeds.txt)
timeout 120 python3 experiments/windows/march_fuzz.py $seeds > "$log/march-fuzz.log" 2>&1
echo "march fuzz inside rc=$? $(tail -1 "$log/march-fuzz.log")"; grep -vE ": ok$" "$log/march-fuzz.log" | head -5
timeout 100 python3 experiments/windows/march_fuzz.py --drawn $seeds > "$log/march-fuzz-drawn.log" 2>&1
echo "march fuzz drawn rc=$? $(tail -1 "$log/march-fuzz-drawn.log")"; grep -vE ": ok$" "$log/march-fuzz-drawn.log" | head -5
echo "== $(( $(date +%s) - start )) s"
(cd experiments/windows && timeout 60 python3 march_generated.py k26/star25_start.cu k26/star25_landed.cu) \
  > "$log/variants.log" 2>&1; echo "variants rc=$?"; grep -E "ms \(|WRONG|Error|copy" "$log/variants.log"
for tree in now head; do
  dir=$([ $tree = now ] && echo . || echo .head)
  (cd $dir && timeout 120 python3 -m tiler bench star25 stencil3d --repeat 10 --json "$log/bench-$tree.json" \
    > "$log/bench-$tree.log" 2>&1; echo "bench $tree rc=$?")
  grep -E "^│ (untiled|tiled|march|window|copy|conv)|^[a-z_0-9]+ \(" "$log/bench-$tree.log" | head -14
  echo "== $(( $(date +%s) - start )) s"
done
echo "== total $(( $(date +%s) - start )) s"
tar -czf "$out/session26e-logs.tgz" -C "$out" logs && rm -rf "$log"
