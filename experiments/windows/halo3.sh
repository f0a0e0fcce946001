#!/bin/bash
# Halo tiles with points a block apart along threadIdx.x's dimension, on a
# GPU host after `source .gpu/bootstrap`: the window GPU tests; memcheck and
# racecheck on $SANITIZE (corpus programs, small sizes); the programs whose
# windows move only along x timed with and without (--no-halo: the
# session's starting behaviour) and at 2 and 8 points. Logs to $OUT.
set -u
out=${OUT:-halo3}
mkdir -p "$out"
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$out/device.txt"
n=$(python3 -c "import xdist" 2>/dev/null && echo "-n 4")
timeout ${GPU_S:-200} python3 -m pytest -q -m gpu -p no:cacheprovider tests/test_gpu.py $n -k "${GPU_K:-window}" \
  > "$out/gpu-tests.log" 2>&1 &
for p in ${SANITIZE:-}; do
  for tool in memcheck racecheck; do
    timeout ${SANITIZE_S:-60} compute-sanitizer --tool "$tool" --error-exitcode 9 \
      python3 -m tiler corpus corpus --only "$p" --sizes small >> "$out/sanitizer.log" 2>&1
    echo "$p $tool rc=$?" | tee -a "$out/sanitizer.log"
  done
done
wait
tail -2 "$out/gpu-tests.log"; grep -E "^(FAILED|E )" "$out/gpu-tests.log" | head -30
grep -E "ERROR SUMMARY|hazard" "$out/sanitizer.log" | sort | uniq -c
rm -rf wcorp && mkdir wcorp && cp ${DIR:-experiments/windows/programs}/c1d* wcorp/
for p in ${PROGRAMS:-}; do cp corpus/$p.* wcorp/; done
timeout ${NOW_S:-200} python3 -m tiler corpus wcorp --sizes ${SETS:-medium,large} --variant nohalo=--no-halo \
  --variant p2=--window-points\ 2 --variant p8=--window-points\ 8 --peer --json "$out/now.json" > "$out/now.log" 2>&1
grep -v "^  (" "$out/now.log" | tail -40
rm -rf wcorp
