#!/bin/bash
# The checks the forty-first session owes its TMA product on the CUDA cores (benchmarks/RESULTS.md, "An f32 product
# on the CUDA cores copies its tiles by TMA"): the final form's GPU tests (a sum of products and the last-chunk form:
# minplus_few, rows_by_loop_index), compute-sanitizer memcheck and racecheck on launches that take the transposed TMA
# versions (q >= 2048, sizes no tile divides), `tiler bench mm aat mm_rows`, and the corpus programs of the last-chunk
# form against the start (.trees/head built from 3958370; .trees/now from the working tree). On a GPU host, from the
# repository's root after `source .gpu/bootstrap`:   OUT=DIR bash experiments/verify/tma-cores-owed.sh
set -u
out=$(realpath -m "${OUT:-tma-cores-owed}")
log=$out/logs
mkdir -p "$log"
start=$(date +%s)
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
timeout 150 python3 -m pytest -q -p no:cacheprovider tests/test_gpu.py -k "core_products_copied_by_tma" \
  > "$log/pytest-core-tma.txt" 2>&1
echo "== pytest rc=$? $(( $(date +%s) - start )) s"; tail -3 "$log/pytest-core-tma.txt"
for tool in memcheck racecheck; do
  for args in "benchmarks/mm.fut -s m=2052 -s n=70 -s q=2048" \
              "tests/programs/analysis/minplus_few.fut -s p=1028 -s n=45 -s q=2048"; do
    # shellcheck disable=SC2086
    timeout 150 compute-sanitizer --tool "$tool" --error-exitcode 9 python3 -m tiler bench $args --repeat 1 \
      >> "$log/sanitizer.log" 2>&1
    echo "$tool $args rc=$?"
  done
done
grep -E "ERROR SUMMARY|RACECHECK SUMMARY" "$log/sanitizer.log"
timeout 200 python3 -m tiler bench mm aat mm_rows --repeat 10 --json "$log/bench.json" > "$log/bench.txt" 2>&1
echo "== bench rc=$? $(( $(date +%s) - start )) s"; grep -E "^│ [a-zA-Z]" "$log/bench.txt" | head -20
timer=$(realpath experiments/verify/time_default.py); corpus=$(realpath corpus)
P="a_pdist_euclid_f32 a_cosine_sim_f32 a_matmul_loop_f32"
for tree in head now now head; do
  (cd .trees/$tree && timeout 80 python3 "$timer" "$corpus" small,medium,large "$log/corpus-$tree-$(date +%s%N).json" \
     $P) > "$log/corpus-$tree-$(date +%s%N).txt" 2>&1
  echo "== corpus $tree rc=$? $(( $(date +%s) - start )) s"
done
echo "== total $(( $(date +%s) - start )) s"
tar -czf "$out/logs.tgz" -C "$out" logs && rm -rf "$log"
