#!/bin/bash
# Twenty-sixth session, eighth call: wrapped windows staged with their halo, the reads now taking the program's
# index before its remainder (`a % n` read at `a` less the tile's first index and one n): the window and halo GPU
# tests, memcheck and racecheck on the wrapped windows, and the 1-D circular convolution benched here and in
# .head/ (47acef2: not staged) at 2^24 and 2^20 points. Logs to $OUT.
set -u
out=$(realpath -m "${OUT:-session26h}")
log=$out/logs
mkdir -p "$log"
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
start=$(date +%s)
timeout 150 python3 -m pytest -q -m gpu -p no:cacheprovider -n 8 tests/test_gpu.py \
  -k "wrapped_window or window or halo" > "$log/gpu-tests.log" 2>&1
echo "gpu tests: $(tail -1 "$log/gpu-tests.log")"; grep -E "^(FAILED|ERROR)|^E  " "$log/gpu-tests.log" | head -20
for tool in memcheck racecheck; do
  timeout 80 compute-sanitizer --tool $tool --error-exitcode 9 python3 -m pytest -q -m gpu -p no:cacheprovider \
    tests/test_gpu.py -k "wrapped_window" > "$log/sanitize-$tool.log" 2>&1
  echo "$tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$log/sanitize-$tool.log" | tail -1) $(grep -E 'passed|failed' "$log/sanitize-$tool.log" | tail -1)"
done
echo "== $(( $(date +%s) - start )) s"
prog=$(realpath tests/programs/windows/halo_wrap_1d.fut)
for n in 16777216 1048576; do
  for tree in now head; do
    dir=$([ $tree = now ] && echo . || echo .head)
    (cd $dir && timeout 60 python3 -m tiler bench "$prog" -s n=$n --repeat 10 --json "$log/wrap-$tree-$n.json" \
      > "$log/wrap-$tree-$n.log" 2>&1; echo "wrap bench $tree n=$n rc=$?")
    grep -E "^│ (untiled|tiled|copy)" "$log/wrap-$tree-$n.log" | head -4
  done
done
echo "== total $(( $(date +%s) - start )) s"
tar -czf "$out/session26h-logs.tgz" -C "$out" logs && rm -rf "$log"
