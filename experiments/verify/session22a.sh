#!/bin/bash
# Twenty-second session, first call: split-K wherever the plan's tiled kernel has fewer tiles than the GPU
# has SMs (not only for few points). (1) GPU tests of split-K and the split; (2) the corpus's 12 programs with
# a split-K version, every size, timed by .baseline/ (a80b3fa, the session's start) and by this checkout with
# their PyTorch twins, in this call; (3) the benchmarks whose quick sizes change version, both trees;
# (4) memcheck and racecheck on a product that now runs split-K at sizes no tile divides. Run from the
# repository root after `source .gpu/bootstrap`, .baseline/ carried. Logs to $OUT.
set -u
out=$(realpath -m "${OUT:-session22a}")
log=$out/logs
mkdir -p "$log"
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
start=$(date +%s)
(timeout ${GPU_S:-240} python3 -m pytest -q -m gpu -p no:cacheprovider -n 4 tests/test_gpu.py -k "split_k or split" \
  > "$log/gpu-tests.log" 2>&1) &
ks="a_cosine_sim_f32 a_covariance_f64 a_matmul_int_rowstream a_matmul_loop_f32 a_matmul_stream_f32
    a_matmul_tprelude_f32 a_pdist_euclid_f32 a_pdist_manhattan_int c_xty_loop_f32 c_xty_tstream_f64
    g_embed_scores_f32 g_hashed_proj_f64"
rm -rf ks && mkdir ks && for p in $ks; do cp corpus/$p.* ks/; done
(cd .baseline && timeout ${BASE_S:-200} python3 -m tiler.bench.corpus ../ks small,medium,large "$log/base.json") \
  > "$log/base.log" 2>&1
echo "== base $(( $(date +%s) - start )) s: $(tail -1 "$log/base.log")"
wait
echo "gpu tests: $(tail -1 "$log/gpu-tests.log")"; grep -E "^(FAILED|ERROR)" "$log/gpu-tests.log" | head
timeout ${NOW_S:-260} python3 -m tiler corpus ks --sizes small,medium,large --peer --json "$log/now.json" \
  --against "$log/base.json" > "$log/now.log" 2>&1
grep -v "^  (" "$log/now.log" | tail -45
echo "== now $(( $(date +%s) - start )) s"
bench() {  # name, tree
  (cd "$2" && timeout 100 python3 -m tiler bench mm mm_rows nbody embed_scores --quick --repeat 10 \
     --json "$log/bench-$1.json") > "$log/bench-$1.log" 2>&1
  grep -E "^[a-z_0-9]+ \(|^│ (untiled|tiled|cuBLAS|torch)" "$log/bench-$1.log" | head -30
}
bench base .baseline; bench now .
echo "== bench $(( $(date +%s) - start )) s"
san() {  # tool
  timeout 150 compute-sanitizer --tool $1 --error-exitcode 9 python3 -m tiler bench corpus/a_matmul_stream_f32.fut \
    -s n=37 -s m=130 -s p=700 --repeat 1 > "$log/san-$1.log" 2>&1; echo "a_matmul_stream_f32 $1 rc=$?"
}
san memcheck & san racecheck & wait
echo "== total $(( $(date +%s) - start )) s"
rm -rf ks
cp "$log"/*.json "$out/" 2>/dev/null
tar -czf "$out/session22a-logs.tgz" -C "$out" logs && rm -rf "$log"
