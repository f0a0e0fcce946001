#!/bin/bash
# The fissioned versions on a GPU, in one call (issue 34): every version of the programs that have them
# against the interpreter, compute-sanitizer on two of them at odd sizes, the GPU fuzz of the generated
# programs whose tiled variant fissions (seeds found by fuzz_fissioned.py find), and the timings of
# fission.py. On a GPU host, from the repository's root, after `source .gpu/bootstrap`; logs in $OUT.
set -u
out=${OUT:-fission-check}
mkdir -p "$out"
nvidia-smi --query-gpu=name --format=csv,noheader > "$out/device.txt"
timeout 150 python3 -m pytest -q -m gpu tests/test_gpu.py -p no:cacheprovider \
  -k "kmeans or launch_rows_chunk or best_match_loop or bilinear_rows" > "$out/gpu-tests.log" 2>&1
echo "rc=$?" >> "$out/gpu-tests.log"
for tool in memcheck racecheck; do
  timeout 90 compute-sanitizer --tool "$tool" --error-exitcode 9 python3 -m pytest -q -m gpu tests/test_gpu.py \
    -p no:cacheprovider -k "(bilinear_rows or kmeans) and test_gpu_matches and odd" >> "$out/sanitizer.log" 2>&1
  echo "$tool rc=$?" >> "$out/sanitizer.log"
done
timeout 150 python3 experiments/fuzz_fissioned.py run 950 1124 1484 1724 1814 1944 2112 4820 4950 5418 5946 6218 6998 7160 7188 7274 7388 7500 8066 8166 8760 8816 8846 9326 9486 9726 9896 10058 10494 10592 10796 11282 11550 12008 12036 12290 12302 12314 12410 12620 13508 14246 14400 14448 14580 16058 16136 16484 > "$out/fuzz.log" 2>&1
echo "fuzz rc=$?" >> "$out/fuzz.log"
timeout 200 python3 experiments/fission.py > "$out/fission.log" 2>&1
echo "fission rc=$?" >> "$out/fission.log"
