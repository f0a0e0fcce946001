#!/bin/bash
# Forty-first session, fifth call: the final form (chunks of 32 for the TMA product, a chunk a loop step, the
# launch's transposed copies read by TMA versions alone): GPU tests of the CUDA cores' TMA products; mm at 4096^3
# and 2048^3 (TMA, sizes unknown, --no-tma: the start's kernel, cuBLAS); `tiler bench mm`; the corpus programs whose
# kernels changed, the start's tree (.trees/head) and this one (.trees/now), A B. Logs in one archive.
#   OUT=DIR bash experiments/verify/session41e.sh
set -u
out=$(realpath -m "${OUT:-session41e}")
log=$out/logs
mkdir -p "$log"
start=$(date +%s)
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
timeout 130 python3 -m pytest -q -p no:cacheprovider tests/test_gpu.py -k "core_products_copied_by_tma" \
  > "$log/pytest-core-tma.txt" 2>&1
echo "== pytest rc=$? $(( $(date +%s) - start )) s"; tail -3 "$log/pytest-core-tma.txt"
variants=$(realpath experiments/verify/variants.py); mm=$(realpath benchmarks/mm.fut)
for s in 4096 2048; do
  (cd .trees/now && timeout 80 python3 "$variants" "$mm" m=$s,n=$s,q=$s tma: unknown:hint=0 notma:no_tma=1 \
     --torch f32 --operands A,B0 --repeat 10) > "$log/mm-$s.txt" 2>&1
  echo "== mm $s rc=$? $(( $(date +%s) - start )) s"; grep -E " ms" "$log/mm-$s.txt" | tail -4
done
(cd .trees/now && timeout 90 python3 -m tiler bench mm --repeat 10 --json "$log/bench-mm.json") > "$log/bench-mm.txt" 2>&1
echo "== bench rc=$? $(( $(date +%s) - start )) s"; grep -E "^│ [a-zA-Z]" "$log/bench-mm.txt" | head -8
timer=$(realpath experiments/verify/time_default.py); corpus=$(realpath corpus)
P="c_xty_loop_f32 a_matmul_loop_f32 a_pdist_euclid_f32 a_cosine_sim_f32 a_gram_rows32_f32 a_matmul_stream_f32 a_matmul_tprelude_f32"
for tree in head now; do
  (cd .trees/$tree && timeout 110 python3 "$timer" "$corpus" small,medium,large "$log/corpus-$tree.json" $P) \
    > "$log/corpus-$tree.txt" 2>&1
  echo "== corpus $tree rc=$? $(( $(date +%s) - start )) s"
done
paste <(sort "$log/corpus-head.txt") <(sort "$log/corpus-now.txt") | grep -v "^\s*$" | head -30
echo "== total $(( $(date +%s) - start )) s"
tar -czf "$out/logs.tgz" -C "$out" logs && rm -rf "$log"
