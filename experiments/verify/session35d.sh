#!/bin/bash
# Thirty-fifth session, fourth call: a row passed to a helper by name staged as its reads say (views.py's
# aliases): a_kmeans_assign_f32 at the session's start (.head) and now, the staged-rows GPU tests, the sanitizers
# on it, the GPU fuzz; then, with the call's time left, the corpus's b_* programs at large sizes against their
# twins (torch.compile per shape), continuing session35c's a_* ones.
set -u
out=$(realpath -m "${OUT:-session35d}")
log=$out/logs
mkdir -p "$log"
start=$(date +%s)
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
corpus=$(realpath corpus)
(cd .head && timeout 120 python3 -m tiler corpus "$corpus" --only a_kmeans_assign_f32 --sizes small,medium,large \
   --json "$out/kmeans-head.json") > "$log/kmeans-head.txt" 2>&1
echo "== head rc=$? $(( $(date +%s) - start )) s"
timeout 150 python3 -m tiler corpus corpus --only a_kmeans_assign_f32 --sizes small,medium,large --peer \
  --json "$out/kmeans-now.json" > "$log/kmeans-now.txt" 2>&1
echo "== now rc=$? $(( $(date +%s) - start )) s"
python3 experiments/verify/compare_corpus.py "$out/kmeans-head.json" "$out/kmeans-now.json" | cut -c1-170
grep -E "a_kmeans" "$log/kmeans-now.txt" | cut -c1-200
OUT=$log/tests KEYS="rows_staged_to_coalesce or kmeans or bounded_length" SHARDS=8 GPU_TESTS_S=100 \
  SANITIZE="a_kmeans_assign_f32" bash experiments/verify/whole-gpu.sh > /dev/null 2>&1
cat "$log/tests/gpu-tests.log"; grep -E "^E  " "$log/tests/gpu-tests-full.log" | head -10
grep -E "ERROR SUMMARY|error" "$log/tests/sanitizer.log" | sort | uniq -c | head
echo "== tests $(( $(date +%s) - start )) s"
timeout 120 python3 -m tiler fuzz 50 --seed 35000 --gpu > "$log/fuzz.txt" 2>&1
echo "== fuzz rc=$? $(( $(date +%s) - start )) s"; tail -4 "$log/fuzz.txt"
left=$(( 560 - ($(date +%s) - start) ))
if [ $left -gt 60 ]; then
  b=$(ls corpus/b_*.fut | sed 's|corpus/||; s|\.fut||' | tr '\n' ' ')
  OUT=$out/peer PROGRAMS="$b" SETS=large LIMIT_S=$left TAG=b-large bash experiments/verify/peer-corpus.sh \
    > "$log/peer-b.txt" 2>&1
  tail -3 "$log/peer-b.txt"
fi
echo "== total $(( $(date +%s) - start )) s"
tar -czf "$out/logs.tgz" -C "$out" logs && rm -rf "$log"
