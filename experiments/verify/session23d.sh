#!/bin/bash
# Twenty-third session, last call, the final tree (after the cold review's mends: a group's rows at most the
# grid's, split-K's stage in the launch's order, no fissioned version that can never run): GPU tests of the
# grouped tiles, the fissioned attention programs and the tensor-core programs. Logs to $OUT.
set -u
out=$(realpath -m "${OUT:-session23d}")
log=$out/logs
mkdir -p "$log"
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
start=$(date +%s)
timeout 300 python3 -m pytest -q -m gpu -p no:cacheprovider -n 8 tests/test_gpu.py \
  -k "groups_of_rows or fissioned_across or tensor_cores_match or chunks_of_rows" > "$log/gpu-tests.log" 2>&1
echo "gpu tests: $(tail -1 "$log/gpu-tests.log")"; grep -E "^(FAILED|ERROR)" "$log/gpu-tests.log" | head
timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 python3 -m tiler bench mm_bf16 -s m=1100 -s n=100 \
  -s q=300 --repeat 1 > "$log/san-memcheck.log" 2>&1; echo "mm_bf16 memcheck rc=$?"
echo "== total $(( $(date +%s) - start )) s"
tar -czf "$out/session23d-logs.tgz" -C "$out" logs && rm -rf "$log"
