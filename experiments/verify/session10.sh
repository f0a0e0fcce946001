#!/bin/bash
# Tenth session's GPU checks and timings, in one call (on a GPU host, from the
# repository's root, after `source .gpu/bootstrap`, with `tools/corpus-baseline
# 28a4a3e` run beforehand so that .baseline/ holds the session's start):
#   1. `pytest -m gpu` on the kernels this session changed (streamRed, work once
#      a launch, the launch-condition filter of tests/test_gpu.py), 8 shards;
#   2. compute-sanitizer memcheck and racecheck on corpus programs named in SANITIZE;
#   3. `tiler fuzz --gpu` on FUZZ programs (4 processes);
#   4. the corpus programs named in CHANGED timed here and at the start, with the
#      PyTorch peer (--peer), at the sizes in SIZES.
# Logs go to $OUT. Each step has its own time limit.
set -u
out=${OUT:-session10}
mkdir -p "$out" /tmp/shards
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$out/device.txt"
start=$(date +%s)
python3 -m pytest -q -m gpu tests --collect-only -p no:cacheprovider -k "${GPU_K}" 2>/dev/null | grep "::" > /tmp/shards/all
echo "$(wc -l < /tmp/shards/all) GPU tests selected" | tee "$out/gpu-tests.log"
split -n r/8 /tmp/shards/all /tmp/shards/part.
for f in /tmp/shards/part.*; do
  (mapfile -t ids < "$f"
   timeout ${GPU_TESTS_S:-240} python3 -m pytest -q -m gpu -p no:cacheprovider "${ids[@]}" > "$f.log" 2>&1) &
done
wait
for f in /tmp/shards/part.*.log; do grep -E "passed|failed|error" "$f" | tail -1; grep -E "^(FAILED|ERROR)" "$f"; done | tee -a "$out/gpu-tests.log"
grep -h -B30 "^FAILED\|Error" /tmp/shards/part.*.log | head -150 > "$out/gpu-failures.log"
echo "tests: $(( $(date +%s) - start )) s" | tee -a "$out/gpu-tests.log"
for p in ${SANITIZE:-}; do
  for tool in memcheck racecheck; do
    timeout ${SANITIZE_S:-60} compute-sanitizer --tool "$tool" --error-exitcode 9 \
      python3 -m tiler corpus corpus --only "$p" --sizes small >> "$out/sanitizer.log" 2>&1
    echo "$p $tool rc=$?" | tee -a "$out/sanitizer.log"
  done
done
if [ "${FUZZ:-0}" -gt 0 ]; then
  per=$(( FUZZ / 4 ))
  for i in 0 1 2 3; do
    timeout ${FUZZ_S:-150} python3 -m tiler fuzz $per --seed $(( ${FUZZ_SEED:-0} + i * per )) --gpu --mutations 0 --no-nvcc \
      --out "$out/fuzz-failures" > "/tmp/fuzz$i.log" 2>&1 &
  done
  wait
  for i in 0 1 2 3; do tail -2 /tmp/fuzz$i.log; done | tee "$out/fuzz.log"
fi
if [ -n "${CHANGED:-}" ]; then
  mkdir -p changed-corpus
  for p in $CHANGED; do cp corpus/$p.* changed-corpus/; done
  (cd .baseline && timeout ${BASE_S:-120} python3 -m tiler.bench.corpus ../changed-corpus ${SIZES:-small,medium,large} "$out/base.json" \
    > "$out/base.log" 2>&1); tail -2 "$out/base.log"
  timeout ${NOW_S:-200} python3 -m tiler corpus changed-corpus --sizes ${SIZES:-small,medium,large} ${PEER:-} \
    --json "$out/now.json" --against "$out/base.json" > "$out/now.log" 2>&1; tail -30 "$out/now.log"
  rm -rf changed-corpus
fi
if [ -n "${PEER_ONLY:-}" ]; then  # programs the session's start cannot compile: against the peer alone
  mkdir -p peer-corpus
  for p in $PEER_ONLY; do cp corpus/$p.* peer-corpus/; done
  timeout ${PEER_S:-200} python3 -m tiler corpus peer-corpus --sizes ${PEER_SIZES:-large} --peer \
    --json "$out/peer.json" > "$out/peer.log" 2>&1; tail -30 "$out/peer.log"
  rm -rf peer-corpus
fi
