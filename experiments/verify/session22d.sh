#!/bin/bash
# Twenty-second session, fourth call: split-K for one point a thread where the body is heavy (a step of 20
# f32 adds or more) and the points few, from 1,024 iterations (the tiled kernel's blocks along z share its
# reduction, raced against the split for few points first). (1) GPU tests of split-K; (2) the 13 corpus
# programs it moves, every size, .baseline/ (6650182) then this checkout, neither with twins; (3) the same
# with their twins, this checkout; (4) mriq --quick, both trees; (5) memcheck and racecheck on b_gp_matern_f64
# at sizes no block divides. Run from the repository root after `source .gpu/bootstrap`, .baseline/ carried.
set -u
out=$(realpath -m "${OUT:-session22d}")
log=$out/logs
mkdir -p "$log"
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
start=$(date +%s)
(timeout ${GPU_S:-150} python3 -m pytest -q -m gpu -p no:cacheprovider -n 4 tests/test_gpu.py -k "split_k" \
  > "$log/gpu-tests.log" 2>&1) &
hv="b_coulomb_grid2d_f32 b_gp_matern_f64 b_gp_rbf_f32 b_hash_i64_collide b_kde2d_grid_f64 b_mc_option_f64
    b_minhash_int b_mri_fhd b_mri_q b_nbody1d_f64 b_nbody2d_helper_f32 b_nbody3d_accel_f32 b_nbody3d_pot_f64
    b_structure_factor"
rm -rf hk && mkdir hk && for p in $hv; do cp corpus/$p.* hk/; done
(cd .baseline && timeout ${BASE_S:-170} python3 -m tiler.bench.corpus ../hk small,medium,large "$log/base.json") \
  > "$log/base.log" 2>&1
echo "== base $(( $(date +%s) - start )) s: $(tail -1 "$log/base.log")"
timeout ${NOW_S:-170} python3 -m tiler corpus hk --sizes small,medium,large --json "$log/now.json" \
  --against "$log/base.json" > "$log/now.log" 2>&1
grep -v "^  (" "$log/now.log" | grep -v "^[abcdg]_.*  x" | tail -20
echo "== now $(( $(date +%s) - start )) s"
wait
echo "gpu tests: $(tail -1 "$log/gpu-tests.log")"; grep -E "^(FAILED|ERROR)" "$log/gpu-tests.log" | head
(cd .baseline && timeout 60 python3 -m tiler bench mriq --quick --repeat 10) > "$log/mriq-base.log" 2>&1
timeout 60 python3 -m tiler bench mriq --quick --repeat 10 > "$log/mriq-now.log" 2>&1
grep -E "^│ (untiled|tiled) " "$log/mriq-base.log" "$log/mriq-now.log"
san() {  # tool
  timeout 120 compute-sanitizer --tool $1 --error-exitcode 9 python3 -m tiler bench corpus/b_gp_matern_f64.fut \
    -s m=3001 -s n=1100 -s d=5 --repeat 1 > "$log/san-$1.log" 2>&1; echo "b_gp_matern_f64 $1 rc=$?"
}
san memcheck & san racecheck & wait
echo "== san $(( $(date +%s) - start )) s"
timeout ${PEER_S:-170} python3 -m tiler corpus hk --sizes small,medium,large --peer --json "$log/peer.json" \
  > "$log/peer.log" 2>&1
grep -A30 "^against the better" "$log/peer.log" | head -32
echo "== total $(( $(date +%s) - start )) s"
rm -rf hk
cp "$log"/*.json "$out/" 2>/dev/null
tar -czf "$out/session22d-logs.tgz" -C "$out" logs && rm -rf "$log"
