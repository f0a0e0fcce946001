#!/bin/bash
# Forty-second session, second call: a fissioned fold's pairs' product copied by TMA from the launch's transposed
# copies (versions/fission.py keeps the transposed pairs versions; the launcher and runtime transpose and map a
# stage's inputs): the new GPU test (kmeans, mlp; aligned rows and not), the GPU tests of the programs whose CUDA
# changed, compute-sanitizer on mlp's fissioned TMA launch, `tiler bench mlp kmeans` and the corpus's fissioned
# programs against the start (.trees/head: bdae205; .trees/now: the working tree). From the repository's root
# after `source .gpu/bootstrap`:   OUT=DIR bash experiments/verify/session42b.sh
# Its one run (H200) passed 600 s before the corpus's second turn and kept only 8 logs (bench and corpus): the
# pytest and sanitizer logs were lost. Run it in two calls (FROM=bench skips the tests and the sanitizer), each
# log archived as it is written.
set -u
out=$(realpath -m "${OUT:-session42b}")
log=$out/logs
mkdir -p "$log"
start=$(date +%s)
keep() { tar -czf "$out/logs.tgz" -C "$out" logs; }
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
if [ "${FROM:-}" != bench ]; then
timeout 150 python3 -m pytest -q -p no:cacheprovider tests/test_gpu.py -k "fissioned_pairs_copied_by_tma" \
  > "$log/pytest-fission-tma.txt" 2>&1
echo "== pytest fission rc=$? $(( $(date +%s) - start )) s"; tail -3 "$log/pytest-fission-tma.txt"
timeout 200 python3 -m pytest -q -p no:cacheprovider tests/test_gpu.py tests/test_fission.py \
  -k "kmeans or mlp or bilinear or best_match or launch_rows or own_row or fission" > "$log/pytest-changed.txt" 2>&1
echo "== pytest changed rc=$? $(( $(date +%s) - start )) s"; tail -3 "$log/pytest-changed.txt"; keep
for tool in memcheck racecheck; do
  timeout 120 compute-sanitizer --tool "$tool" --error-exitcode 9 python3 -m tiler bench benchmarks/mlp.fut \
    -s n=2052 -s h=2056 -s d=70 --repeat 1 >> "$log/sanitizer.log" 2>&1
  echo "$tool rc=$?"
done
grep -E "ERROR SUMMARY|RACECHECK SUMMARY|│ tiled" "$log/sanitizer.log"; keep
fi
for tree in head now; do
  (cd .trees/$tree && timeout 150 python3 -m tiler bench mlp kmeans --repeat 10 --json "$log/bench-$tree.json") \
    > "$log/bench-$tree.txt" 2>&1
  echo "== bench $tree rc=$? $(( $(date +%s) - start )) s"; grep -E "^│ (tiled|untiled|PyTorch|copy)" "$log/bench-$tree.txt"; keep
done
timer=$(realpath experiments/verify/time_default.py); corpus=$(realpath corpus)
P="a_kmeans_assign_f32 a_bilinear_batch_f32"
for tree in head now now head; do
  (cd .trees/$tree && timeout 90 python3 "$timer" "$corpus" small,medium,large "$log/corpus-$tree-$(date +%s%N).json" \
     $P) > "$log/corpus-$tree-$(date +%s%N).txt" 2>&1
  echo "== corpus $tree rc=$? $(( $(date +%s) - start )) s"; grep -E " default " "$log"/corpus-$tree-*.txt | tail -6; keep
done
echo "== total $(( $(date +%s) - start )) s"
keep && rm -rf "$log"
