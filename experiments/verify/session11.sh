#!/bin/bash
# Eleventh session's first GPU call: the whole `pytest -m gpu` in SHARDS shards
# (test ids shuffled so that slow families spread), with `tiler fuzz --gpu` on
# FUZZ programs beside them, then the shipped benchmarks named in GATE timed
# by benchmarks/gate against .baseline/ (tools/corpus-baseline COMMIT) on a
# quiet GPU. On a GPU host, from the repository's root, after
# `source .gpu/bootstrap`. Logs go to $OUT.
set -u
out=${OUT:-session11}
rm -rf /tmp/shards; mkdir -p "$out" /tmp/shards
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$out/device.txt"
start=$(date +%s)
python3 -m pytest -q -m gpu tests --collect-only -p no:cacheprovider -k "${GPU_K:-}" 2>/dev/null | grep "::" \
  | python3 -c "import random, sys; ids = sys.stdin.read().splitlines(); random.Random(11).shuffle(ids); print(*ids, sep='\n')" \
  > /tmp/shards/all
echo "$(wc -l < /tmp/shards/all) GPU tests" | tee "$out/gpu-tests.log"
split -n r/${SHARDS:-12} /tmp/shards/all /tmp/shards/part.
for f in /tmp/shards/part.*; do
  (mapfile -t ids < "$f"
   timeout ${GPU_TESTS_S:-450} python3 -m pytest -q -m gpu -p no:cacheprovider --durations=8 "${ids[@]}" > "$f.log" 2>&1) &
done
if [ "${FUZZ:-0}" -gt 0 ]; then
  per=$(( FUZZ / 2 ))
  for i in 0 1; do
    timeout ${GPU_TESTS_S:-450} python3 -m tiler fuzz $per --seed $(( ${FUZZ_SEED:-0} + i * per )) --gpu --mutations 0 \
      --no-nvcc --out "$out/fuzz-failures" > "/tmp/fuzz$i.log" 2>&1 &
  done
fi
wait
echo "tests and fuzz: $(( $(date +%s) - start )) s" | tee -a "$out/gpu-tests.log"
for f in /tmp/shards/part.*.log; do grep -E "passed|failed|error" "$f" | tail -1; grep -E "^(FAILED|ERROR)" "$f"; done \
  | tee -a "$out/gpu-tests.log"
grep -h -B40 "^FAILED\|^E  " /tmp/shards/part.*.log | head -200 > "$out/gpu-failures.log"
grep -h -A10 "slowest" /tmp/shards/part.*.log > "$out/gpu-slowest.log"
for i in 0 1; do [ -f /tmp/fuzz$i.log ] && tail -3 /tmp/fuzz$i.log; done | tee "$out/fuzz.log"
if [ -n "${GATE:-}" ]; then
  timeout ${GATE_S:-120} python3 benchmarks/gate $GATE --json "$out/gate.json" 2>&1 | tee "$out/gate.log" | tail -15
fi
