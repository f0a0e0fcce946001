#!/bin/bash
# Seventeenth session, third call: (1) GPU tests of the split for few points
# (its gate now 256 an SM for a heavy body); (2) one baseline run of .baseline/
# (66f796e, the session's start) over the corpus programs whose gates the
# heavy body moves, the three the sixteenth session's per-value `if`
# reductions changed, and branch bmm's four; (3) this checkout's kernels for
# the first two sets, and .bmm/'s for the four, each against it, with twins;
# (4) mriq --quick (its gate moved) before and after. On a GPU host after
# `source .gpu/bootstrap`, with .bmm/ and .baseline/ carried. Logs to $OUT,
# packed into one file.
set -u
out=$(realpath -m "${OUT:-session17c}")
log=$out/logs
mkdir -p "$log"
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
start=$(date +%s)
timeout ${GPU_S:-120} python3 -m pytest -q -m gpu -p no:cacheprovider -n 8 tests/test_gpu.py -k "few or split" \
  > "$log/gpu-tests.log" 2>&1
echo "gpu tests: $(tail -1 "$log/gpu-tests.log")"; grep -E "^(FAILED|ERROR)" "$log/gpu-tests.log" | head
pick() { rm -rf "$1" && mkdir "$1" && for p in ${@:2}; do cp corpus/$p.* "$1"/; done; }
heavy="b_gp_matern_f64 b_gp_rbf_f32 b_hash_i64_collide b_kde2d_grid_f64 b_mc_option_f64 b_mri_fhd b_nbody1d_f64
       b_nbody3d_pot_f64 b_newton_expsum_f64 b_structure_factor c_rowdot_normweights_f64"
ifr="b_minhash_int b_radius_count3d b_prefix_masked_i64"
bmm="a_attn_online_softmax_f32 a_batched_matmul_f32 a_matmul_int_rowstream a_vecmat_stream_f32"
pick all $heavy $ifr $bmm
pick mine $heavy $ifr
pick bc $bmm
(cd .baseline && timeout ${BASE_S:-150} python3 -m tiler.bench.corpus ../all small,medium,large "$log/base.json") \
  > "$log/base.log" 2>&1
echo "== base $(( $(date +%s) - start )) s: $(tail -1 "$log/base.log")"
timeout ${MINE_S:-200} python3 -m tiler corpus mine --sizes small,medium,large --peer --json "$log/mine.json" \
  --against "$log/base.json" > "$log/mine.log" 2>&1
grep -v "^  (" "$log/mine.log" | grep -v "^[abcd]_.*  x" | tail -40
echo "== mine $(( $(date +%s) - start )) s"
(cd .bmm && export PYTHONPATH=/tmp/site:$PWD && timeout ${BMM_S:-110} python3 -m tiler corpus ../bc \
  --sizes small,medium,large --peer --json "$log/bmm.json" --against "$log/base.json") > "$log/bmm.log" 2>&1
grep -v "^  (" "$log/bmm.log" | grep -v "^[abcd]_.*  x" | tail -20
echo "== bmm $(( $(date +%s) - start )) s"
(cd .baseline && timeout 60 python3 -m tiler bench mriq --quick --repeat 20) > "$log/mriq-base.log" 2>&1
timeout 60 python3 -m tiler bench mriq --quick --repeat 20 > "$log/mriq-now.log" 2>&1
grep -E "^│ (untiled|tiled) " "$log/mriq-base.log" "$log/mriq-now.log"
rm -rf all mine bc
tar czf "$out/logs.tgz" -C "$out" logs && rm -rf "$log"
echo "total: $(( $(date +%s) - start )) s"
