#!/bin/bash
# Thirtieth session, fourth call: `tiler bench mm_rows --tensor-cores` in this tree and the start (.head/); then,
# side by side, the GPU tests of the TMA products (mm's transposed B, the wider tiles), the looped fallback and the
# tensor cores planned for the GPU's own architecture (8 shards), and the GPU fuzz (products, and general) over
# whole cycles of its size hints, half planned for sm_90a. Logs to $OUT.
set -u
out=$(realpath -m "${OUT:-session30d}")
log=$out/logs
mkdir -p "$log"
start=$(date +%s)
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
for tree in now head; do
  dir=.; [ $tree = head ] && dir=.head
  (cd $dir && timeout 100 python3 -m tiler bench mm_rows --tensor-cores --repeat 10 --json "$log/bench-$tree.json" \
    > "$log/bench-$tree.log" 2>&1; echo "bench $tree rc=$? $(( $(date +%s) - start )) s")
  grep -E "^│ (tiled|cuBLAS|untiled)" "$log/bench-$tree.log"
done
OUT=$log/tests KEYS="copied_by_tma or looped_fallback or tensor_cores_on_the_gpus_own" SHARDS=8 GPU_TESTS_S=400 \
  bash experiments/verify/whole-gpu.sh > /dev/null 2>&1 &
tests=$!
(timeout 400 python3 -m tiler fuzz 140 --seed 60060 --gpu --products > "$log/fuzz-products.log" 2>&1; \
  echo "fuzz products rc=$?" >> "$log/fuzz-products.log") &
(timeout 400 python3 -m tiler fuzz 70 --seed 61110 --gpu > "$log/fuzz-general.log" 2>&1; \
  echo "fuzz general rc=$?" >> "$log/fuzz-general.log") &
wait
cat "$log/tests/gpu-tests.log"; grep -E "^E  " "$log/tests/gpu-tests-full.log" | head -20
tail -4 "$log/fuzz-products.log"; tail -4 "$log/fuzz-general.log"
echo "== total $(( $(date +%s) - start )) s"
tar -czf "$out/session30d-logs.tgz" -C "$out" logs
