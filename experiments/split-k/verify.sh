#!/bin/bash
# Split-K's checks in one call on a GPU host, after `source .gpu/bootstrap`:
# the GPU tests of split kernels and races beside `tiler fuzz --gpu` on FUZZ
# programs, then compute-sanitizer memcheck and racecheck on SANITIZE (corpus
# programs, small sizes), then PEER (corpus programs) at their large sizes
# against PyTorch. Logs to $OUT.
set -u
out=${OUT:-split-k-verify}
mkdir -p "$out"
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$out/device.txt"
n=$(python3 -c "import xdist" 2>/dev/null && echo "-n 4")
timeout ${GPU_S:-220} python3 -m pytest -q -m gpu -p no:cacheprovider tests/test_gpu.py $n \
  -k "${GPU_K:-split_k or several_blocks or few_points or races}" > "$out/gpu-tests.log" 2>&1 &
per=$(( ${FUZZ:-0} / 2 ))
for i in 0 1; do
  [ "$per" -gt 0 ] && timeout ${GPU_S:-220} python3 -m tiler fuzz $per --seed $(( ${FUZZ_SEED:-0} + i * per )) --gpu \
    --mutations 0 --no-nvcc --out "$out/fuzz-failures" > "/tmp/fuzz$i.log" 2>&1 &
done
wait
tail -2 "$out/gpu-tests.log"; grep -E "^(FAILED|E )" "$out/gpu-tests.log" | head -30
for i in 0 1; do [ -f /tmp/fuzz$i.log ] && tail -2 /tmp/fuzz$i.log; done | tee "$out/fuzz.log"
for p in ${SANITIZE:-}; do
  for tool in memcheck racecheck; do
    timeout ${SANITIZE_S:-60} compute-sanitizer --tool "$tool" --error-exitcode 9 \
      python3 -m tiler corpus corpus --only "$p" --sizes small >> "$out/sanitizer.log" 2>&1
    echo "$p $tool rc=$?" | tee -a "$out/sanitizer.log"
  done
done
grep -E "ERROR SUMMARY|hazard" "$out/sanitizer.log" | sort | uniq -c
if [ -n "${PEER:-}" ]; then
  timeout ${PEER_S:-90} python3 -m tiler corpus corpus $(for p in $PEER; do echo "--only $p"; done) --sizes large --peer \
    > "$out/peer.log" 2>&1; tail -12 "$out/peer.log"
fi
