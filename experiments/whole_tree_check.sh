#!/bin/bash
# The checks a tree owes once a GPU is at hand, after sessions that changed
# kernels without one (issues 32, 34): on a GPU host, from the repository's
# root, after `source .gpu/bootstrap`. In about 9 minutes of device time:
#   1. `pytest -m gpu` on every kernel whose CUDA changed since the last
#      whole run (loops read as streams, the fallback versions whose copies
#      now share the steps issued at once), then compute-sanitizer on them;
#   2. the whole corpus at its three sizes (a call each, `--sizes`), the
#      default against untiled: its losers are the gate of issue 32.
# Logs and JSON go to $OUT (or ./whole-tree-check). Each step has its own
# time limit, so that one slow step leaves the others' results.
set -u
out=${OUT:-whole-tree-check}
mkdir -p "$out"
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$out/device.txt"
changed="loops_read_as_streams or loop_matvec or loop_matmul or rownorm or rowsum3d"
timeout 240 python3 -m pytest -q -m gpu tests/test_gpu.py -p no:cacheprovider -k "$changed" \
  > "$out/gpu-tests.log" 2>&1; echo "rc=$?" >> "$out/gpu-tests.log"; tail -2 "$out/gpu-tests.log"
# the corpus programs whose fallback versions changed, every version against the interpreter, under the sanitizer
for tool in memcheck racecheck; do
  timeout 120 compute-sanitizer --tool "$tool" --error-exitcode 9 \
    python3 -m tiler corpus corpus --only a_attn_scores_h64_f32 --only a_gram_rows32_f32 --sizes small \
    > "$out/sanitizer-$tool.log" 2>&1; echo "$tool rc=$?" | tee -a "$out/sanitizer-$tool.log"
done
for size in small medium large; do
  timeout 300 python3 -m tiler corpus corpus --sizes "$size" --json "$out/corpus-$size.json" \
    > "$out/corpus-$size.log" 2>&1; tail -3 "$out/corpus-$size.log"
done
