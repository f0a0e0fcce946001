#!/bin/bash
# The whole `pytest -m gpu` in SHARDS (8) shards side by side on one GPU, then
# compute-sanitizer memcheck and racecheck on the corpus programs whose
# kernels the last unverified changes touched. On a GPU host, from the
# repository's root, after `source .gpu/bootstrap`:
#   SANITIZE="c_col_welford_f32 ..." [ONLY_PARTS="ae af"] [SHARDS=8] [KEYS="tma or race"] \
#     bash experiments/verify/whole-gpu.sh
set -u
out=${OUT:-whole-gpu}
mkdir -p "$out" /tmp/shards && rm -f /tmp/shards/*  # (a warm machine keeps the last call's shards)
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$out/device.txt"
python3 -m pytest -q -m gpu tests --collect-only -p no:cacheprovider ${KEYS:+-k "$KEYS"} 2>/dev/null | grep "::" \
  > /tmp/shards/all
split -n r/${SHARDS:-8} /tmp/shards/all /tmp/shards/part.
for f in /tmp/shards/part.*; do  # ONLY_PARTS="ae af": those shards alone
  [ -n "${ONLY_PARTS:-}" ] && [[ " $ONLY_PARTS " != *" ${f##*.} "* ]] && rm "$f"
done
start=$(date +%s)
for f in /tmp/shards/part.*; do
  (mapfile -t ids < "$f"
   timeout ${GPU_TESTS_S:-420} python3 -m pytest -q -m gpu -p no:cacheprovider "${ids[@]}" > "$f.log" 2>&1) &
done
wait
echo "tests: $(( $(date +%s) - start )) s" | tee "$out/gpu-tests.log"
# (a shard cut by the timeout prints no summary: its progress line's marks are counted instead)
for f in /tmp/shards/part.*.log; do
  if grep -qE "(passed|failed|error).* in [0-9.]+s" "$f"; then grep -E "passed|failed|error" "$f" | tail -1
  else
    marks=$(grep -E "^[.sFExX]+( +\[ *[0-9]+%\])?$" "$f" | tr -d ' []%0-9\n')
    echo "cut at ${GPU_TESTS_S:-420} s: $(echo -n "$marks" | tr -cd '.' | wc -c) passed, $(echo -n "$marks" | tr -cd 's' | wc -c) skipped, $(echo -n "$marks" | tr -cd 'FE' | wc -c) failed or errors so far"
  fi
  grep -E "^(FAILED|ERROR)" "$f"
done | tee -a "$out/gpu-tests.log"
cat /tmp/shards/part.*.log > "$out/gpu-tests-full.log"
for p in ${SANITIZE:-}; do
  for tool in memcheck racecheck; do
    timeout 90 compute-sanitizer --tool "$tool" --error-exitcode 9 \
      python3 -m tiler corpus corpus --only "$p" --sizes small >> "$out/sanitizer.log" 2>&1
    echo "$p $tool rc=$?" | tee -a "$out/sanitizer.log"
  done
done
