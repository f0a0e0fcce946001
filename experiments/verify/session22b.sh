#!/bin/bash
# Twenty-second session, second call: split-K for more points where the plan's tiled kernel's grid would not
# give 1 in 4 SMs a block and the reduction is 1,024 long or more. (1) GPU tests of split-K; (2) the corpus's 12
# programs with a split-K version, every size, timed by .baseline/ (a80b3fa) and by this checkout, neither
# with twins (the first call timed this checkout beside its twins, which slowed its small kernels); (3) the
# five programs whose version changes, at the size that changes, with their twins; (4) an experiment: .exp/
# (this checkout, a reduction step of 20 f32 adds heavy instead of 32) against this checkout on the three
# programs it moves; (5) memcheck and racecheck on a product that runs split-K by the new rule at sizes no
# tile divides; (6) the GPU fuzzer's products. Run from the repository root after `source .gpu/bootstrap`,
# .baseline/ and .exp/ carried. Logs to $OUT.
set -u
out=$(realpath -m "${OUT:-session22b}")
log=$out/logs
mkdir -p "$log"
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
start=$(date +%s)
(timeout ${GPU_S:-200} python3 -m pytest -q -m gpu -p no:cacheprovider -n 4 tests/test_gpu.py -k "split_k" \
  > "$log/gpu-tests.log" 2>&1) &
pick() { rm -rf "$1" && mkdir "$1" && for p in ${@:2}; do cp corpus/$p.* "$1"/; done; }
pick ks a_cosine_sim_f32 a_covariance_f64 a_matmul_int_rowstream a_matmul_loop_f32 a_matmul_stream_f32 \
  a_matmul_tprelude_f32 a_pdist_euclid_f32 a_pdist_manhattan_int c_xty_loop_f32 c_xty_tstream_f64 \
  g_embed_scores_f32 g_hashed_proj_f64
pick moved a_covariance_f64 a_matmul_int_rowstream a_matmul_loop_f32 a_matmul_stream_f32 a_matmul_tprelude_f32
pick hv b_coulomb_grid2d_f32 b_nbody2d_helper_f32 b_nbody3d_accel_f32
(cd .baseline && timeout ${BASE_S:-150} python3 -m tiler.bench.corpus ../ks small,medium,large "$log/base.json") \
  > "$log/base.log" 2>&1
echo "== base $(( $(date +%s) - start )) s: $(tail -1 "$log/base.log")"
timeout ${NOW_S:-150} python3 -m tiler corpus ks --sizes small,medium,large --json "$log/now.json" \
  --against "$log/base.json" > "$log/now.log" 2>&1
grep -v "^  (" "$log/now.log" | grep -v "^[abcdg]_.*  x" | tail -20
echo "== now $(( $(date +%s) - start )) s"
wait
echo "gpu tests: $(tail -1 "$log/gpu-tests.log")"; grep -E "^(FAILED|ERROR)" "$log/gpu-tests.log" | head
timeout ${PEER_S:-150} python3 -m tiler corpus moved --sizes small --peer --json "$log/peer.json" \
  > "$log/peer.log" 2>&1
grep -v "^  (" "$log/peer.log" | tail -12
echo "== peer $(( $(date +%s) - start )) s"
timeout 100 python3 -m tiler corpus hv --sizes small,medium,large --json "$log/hv-now.json" > "$log/hv-now.log" 2>&1
(cd .exp && timeout 100 python3 -m tiler corpus ../hv --sizes small,medium,large --json "$log/hv-exp.json" \
  --against "$log/hv-now.json") > "$log/hv-exp.log" 2>&1
grep -h "^[abcdg]_" "$log/hv-now.log" "$log/hv-exp.log"; grep -A5 "^against" "$log/hv-exp.log"
echo "== heavy $(( $(date +%s) - start )) s"
san() {  # tool
  timeout 150 compute-sanitizer --tool $1 --error-exitcode 9 python3 -m tiler bench corpus/a_matmul_stream_f32.fut \
    -s n=130 -s m=100 -s p=1100 --repeat 1 > "$log/san-$1.log" 2>&1; echo "a_matmul_stream_f32 $1 rc=$?"
}
san memcheck & san racecheck &
timeout 200 python3 -m tiler fuzz 40 --seed 29000 --gpu --products --mutations 0 > "$log/fuzz.log" 2>&1; echo "fuzz rc=$?"
wait
tail -3 "$log/fuzz.log"
echo "== total $(( $(date +%s) - start )) s"
rm -rf ks moved hv
cp "$log"/*.json "$out/" 2>/dev/null
tar -czf "$out/session22b-logs.tgz" -C "$out" logs && rm -rf "$log"
