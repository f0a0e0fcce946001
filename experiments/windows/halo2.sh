#!/bin/bash
# Halo tiles (analyse/halo_tile.py) on a GPU host after `source .gpu/bootstrap`:
# the window GPU tests; compute-sanitizer memcheck and racecheck on $SANITIZE
# (programs of $DIR at their small sizes); then the window programs of
# $DIR and the corpus timed with and without halo tiles (--no-halo: the
# session's starting behaviour). Logs to $OUT.
set -u
out=${OUT:-halo2}
dir=${DIR:-experiments/windows/programs}
mkdir -p "$out"
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$out/device.txt"
n=$(python3 -c "import xdist" 2>/dev/null && echo "-n 4")
timeout ${GPU_S:-200} python3 -m pytest -q -m gpu -p no:cacheprovider tests/test_gpu.py $n -k "${GPU_K:-window}" \
  > "$out/gpu-tests.log" 2>&1 &
for p in ${SANITIZE:-}; do
  for tool in memcheck racecheck; do
    timeout ${SANITIZE_S:-60} compute-sanitizer --tool "$tool" --error-exitcode 9 \
      python3 -m tiler corpus $dir --only "$p" --sizes small >> "$out/sanitizer.log" 2>&1
    echo "$p $tool rc=$?" | tee -a "$out/sanitizer.log"
  done
done
wait
tail -2 "$out/gpu-tests.log"; grep -E "^(FAILED|E )" "$out/gpu-tests.log" | head -30
grep -E "ERROR SUMMARY|hazard" "$out/sanitizer.log" | sort | uniq -c
rm -rf wcorp && mkdir wcorp && cp $dir/* wcorp/ && rm -f wcorp/s25_f32.*
for p in ${PROGRAMS:-}; do cp corpus/$p.* wcorp/; done
timeout ${NOW_S:-200} python3 -m tiler corpus wcorp --sizes ${SETS:-medium,large} --variant nohalo=--no-halo \
  --json "$out/now.json" > "$out/now.log" 2>&1
grep -v "^  (" "$out/now.log" | tail -40
timeout ${S25_S:-100} python3 -m tiler corpus $dir --only s25_f32 --sizes medium --variant nohalo=--no-halo \
  --json "$out/s25.json" > "$out/s25.log" 2>&1
grep -v "^  (" "$out/s25.log" | tail -6
rm -rf wcorp
