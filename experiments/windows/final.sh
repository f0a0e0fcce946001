#!/bin/bash
# The review's fixes on a GPU host, after `source .gpu/bootstrap`: the window
# and race GPU tests (the C launcher's window race among them), then the
# conv2d benchmark for the current results. Logs to $OUT.
set -u
out=${OUT:-windows-final}
mkdir -p "$out"
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$out/device.txt"
timeout ${GPU_S:-150} python3 -m pytest -q -m gpu -p no:cacheprovider tests/test_gpu.py \
  -k "window or races_the_next or races_the_split or host_launcher_races" \
  $(python3 -c "import xdist" 2>/dev/null && echo "-n 4") > "$out/gpu-tests.log" 2>&1
tail -2 "$out/gpu-tests.log"; grep -E "^(FAILED|E )" "$out/gpu-tests.log" | head -30
timeout ${BENCH_S:-90} python3 -m tiler bench conv2d --repeat 10 --json "$out/bench-conv2d.json" > "$out/bench.log" 2>&1
tail -12 "$out/bench.log"
