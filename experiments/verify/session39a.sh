#!/bin/bash
# Thirty-ninth session, first call: the GPU checks the last session's review mends and analysis programs
# still owed (GPU tests of hoisting, splits and load-ahead, the two new programs at every scale, and under
# memcheck and racecheck), the GPU fuzz at seeds 100-199, then the corpus's small sizes against the PyTorch
# twins again (the GPU now warmed before each timing), as many programs as the call's time allows.
# From the repository's root on a GPU host after `source .gpu/bootstrap`: OUT=DIR bash experiments/verify/session39a.sh
set -u
out=$(realpath -m "${OUT:-session39a}")
log=$out/logs
mkdir -p "$log"
start=$(date +%s)
limit=${LIMIT_S:-560}
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
OUT=$log/tests SHARDS=8 GPU_TESTS_S=150 KEYS="prelude or split_helper or ahead or hoist or split" \
  bash experiments/verify/whole-gpu.sh > /dev/null 2>&1
cat "$log/tests/gpu-tests.log"; grep -E "^E  " /tmp/shards/*.log 2>/dev/null | head -10
echo "== tests $(( $(date +%s) - start )) s"
for tool in memcheck racecheck; do
  timeout 120 compute-sanitizer --tool "$tool" --error-exitcode 9 python3 -m pytest -q -m gpu -p no:cacheprovider \
    tests/test_gpu.py -k "prelude_sum_read_in_a_row or split_helper_index" >> "$log/sanitizer.log" 2>&1
  echo "new analysis programs $tool rc=$?"; grep -E "passed|failed|SUMMARY" "$log/sanitizer.log" | tail -2
done
echo "== sanitizers $(( $(date +%s) - start )) s"
timeout 90 python3 -m tiler fuzz 100 --seed 100 --gpu --mutations 0 > "$log/fuzz.txt" 2>&1
echo "== fuzz rc=$? $(( $(date +%s) - start )) s"; tail -3 "$log/fuzz.txt"
left=$(( limit - ($(date +%s) - start) - 15 ))
OUT=$log/peer SHARDS=${PEER_SHARDS:-1/2} SETS=small TAG=small LIMIT_S=$left bash experiments/verify/peer-corpus.sh \
  > "$log/peer.txt" 2>&1
echo "== peer $(( $(date +%s) - start )) s"
grep -E "median|programs" "$log/peer/peer-small.log" | tail -5
cp "$log/peer/peer-small.json" "$out/" 2>/dev/null
tar -czf "$out/logs.tgz" -C "$out" logs && rm -rf "$log"
echo "== total $(( $(date +%s) - start )) s"
