#!/bin/bash
# Twenty-seventh session, fourth call: the fuzzer on the GPU (its programs with windows of a launch-known extent
# now get tiles the launch sizes), and memcheck and racecheck on the corpus programs that gained such a tile.
set -u
out=$(realpath -m "${OUT:-session27d}")
log=$out/logs
mkdir -p "$log"
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
start=$(date +%s)
timeout 240 python3 -m tiler fuzz 400 --seed 3300 --gpu --mutations 0 > "$log/fuzz.log" 2>&1
echo "fuzz rc=$? $(tail -3 "$log/fuzz.log" | tr '\n' ' ')"
echo "== $(( $(date +%s) - start )) s"
for p in d_xcorr_valid_f32 a_conv2d_filter_f32; do
  for tool in memcheck racecheck; do
    timeout 100 compute-sanitizer --tool "$tool" --error-exitcode 9 \
      python3 -m tiler corpus corpus --only "$p" --sizes small > "$log/sanitize-$p-$tool.log" 2>&1
    echo "$p $tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$log/sanitize-$p-$tool.log" | tail -1)"
  done
done
echo "== total $(( $(date +%s) - start )) s"
tar -czf "$out/session27d-logs.tgz" -C "$out" logs && rm -rf "$log"
