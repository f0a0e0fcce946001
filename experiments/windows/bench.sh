#!/bin/bash
# The window benchmarks with their PyTorch twins (cuDNN's convolutions,
# slices under torch.compile) and copy bandwidth in one `tiler bench` call,
# beside the GPU tests of the new benchmarks and the twins, on a GPU host
# after `source .gpu/bootstrap`. Logs to $OUT.
set -u
out=${OUT:-windows-bench}
mkdir -p "$out"
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$out/device.txt"
timeout ${TEST_S:-150} python3 -m pytest -q -p no:cacheprovider tests/test_twins.py tests/test_gpu.py -m "gpu or not gpu" \
  -k "twin or conv1d or star25" -n 4 > "$out/tests.log" 2>&1 &
timeout ${BENCH_S:-420} python3 -m tiler bench ${BENCHES:-blur conv2d stencil3d conv1d conv1d31 star25} \
  --json "$out/bench.json" > "$out/bench.log" 2>&1
wait
tail -3 "$out/tests.log"; grep -E "^(FAILED|E )" "$out/tests.log" | head -20
cat "$out/bench.log" | tail -80
