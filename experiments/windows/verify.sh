#!/bin/bash
# The window version's checks in one call on a GPU host, after
# `source .gpu/bootstrap`: its GPU tests and the races', beside `tiler fuzz
# --gpu` on the generator's programs that have a window version
# (fuzz-seeds.txt, found by analysing seeds 130000-132999) and on FUZZ more;
# then compute-sanitizer memcheck and racecheck on SANITIZE (corpus programs,
# small sizes: every version checked at the test sizes); then PROGRAMS at
# their large sizes in the tree before (.baseline/) and in this one. Logs to $OUT.
set -u
out=${OUT:-windows-verify}
mkdir -p "$out"
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$out/device.txt"
n=$(python3 -c "import xdist" 2>/dev/null && echo "-n 4")
timeout ${GPU_S:-150} python3 -m pytest -q -m gpu -p no:cacheprovider tests/test_gpu.py $n -k "${GPU_K:-window or races}" \
  > "$out/gpu-tests.log" 2>&1 &
tr ' ' '\n' < experiments/windows/fuzz-seeds.txt | grep . | timeout ${GPU_S:-150} xargs -P 3 -I{} \
  python3 -m tiler fuzz 1 --seed {} --gpu --mutations 0 --no-nvcc --out "$out/fuzz-failures" > /tmp/wfuzz.log 2>&1 &
[ "${FUZZ:-0}" -gt 0 ] && timeout ${GPU_S:-150} python3 -m tiler fuzz $FUZZ --seed ${FUZZ_SEED:-140000} --gpu \
  --mutations 0 --no-nvcc --out "$out/fuzz-failures" > /tmp/fuzz.log 2>&1 &
wait
tail -2 "$out/gpu-tests.log"; grep -E "^(FAILED|E )" "$out/gpu-tests.log" | head -30
echo "window seeds: $(grep -c '1 programs, 0 failures' /tmp/wfuzz.log) of $(wc -w < experiments/windows/fuzz-seeds.txt) without failure" \
  | tee "$out/fuzz.log"
grep -v "programs, 0 failures\|GPU check done\|^$" /tmp/wfuzz.log | head -20 | tee -a "$out/fuzz.log"
[ -f /tmp/fuzz.log ] && tail -2 /tmp/fuzz.log | tee -a "$out/fuzz.log"
for p in ${SANITIZE:-}; do
  for tool in memcheck racecheck; do
    timeout ${SANITIZE_S:-60} compute-sanitizer --tool "$tool" --error-exitcode 9 \
      python3 -m tiler corpus corpus --only "$p" --sizes small >> "$out/sanitizer.log" 2>&1
    echo "$p $tool rc=$?" | tee -a "$out/sanitizer.log"
  done
done
grep -E "ERROR SUMMARY|hazard" "$out/sanitizer.log" | sort | uniq -c
if [ -n "${PROGRAMS:-}" ]; then
  rm -rf wcorp && mkdir wcorp && for p in ${PROGRAMS}; do cp corpus/$p.* wcorp/; done
  (cd .baseline && timeout ${BASE_S:-100} python3 -m tiler.bench.corpus ../wcorp ${SETS:-large} "$out/base.json" \
    > "$out/base.log" 2>&1); grep -v "^  (" "$out/base.log" | tail -4
  timeout ${NOW_S:-120} python3 -m tiler corpus wcorp --sizes ${SETS:-large} --json "$out/now.json" \
    --against "$out/base.json" > "$out/now.log" 2>&1
  grep -v "^  (" "$out/now.log" | tail -8
  rm -rf wcorp
fi
