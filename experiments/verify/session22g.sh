#!/bin/bash
# Twenty-second session, last call, the final tree (after the cold review's mends: split-K's scratch bounded,
# its few-tiles alternative only where the plan has a one-point version, no second race against the same
# version): GPU tests of the split, split-K (now with a 2-D heavy body one point a thread,
# b_coulomb_grid2d_f32), the races and the C launcher. Run from the repository root after
# `source .gpu/bootstrap`. Logs to $OUT.
set -u
out=$(realpath -m "${OUT:-session22g}")
log=$out/logs
mkdir -p "$log"
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
start=$(date +%s)
timeout 200 python3 -m pytest -q -m gpu -p no:cacheprovider -n 8 tests/test_gpu.py -k "split or race or launcher" \
  > "$log/gpu-tests.log" 2>&1
echo "gpu tests: $(tail -1 "$log/gpu-tests.log")"; grep -E "^(FAILED|ERROR)" "$log/gpu-tests.log" | head
echo "== total $(( $(date +%s) - start )) s"
tar -czf "$out/session22g-logs.tgz" -C "$out" logs && rm -rf "$log"
