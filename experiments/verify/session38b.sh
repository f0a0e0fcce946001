#!/bin/bash
# Thirty-eighth session, second call: checks of what landed (the heavy body at 15, main's prelude work once a
# launch, the warm-up of an idle GPU before timings): the GPU tests of splits, hoisting and launches, memcheck
# and racecheck on the changed programs, the GPU fuzz; the split lanes' load-ahead for steps that branch
# (.trees/ahead2) beside this tree (.trees/main) on c_col_welford_f32, A B B A; then the changed programs
# against their PyTorch twins at every size. From the repository's root on a GPU host after
# `source .gpu/bootstrap`, with .trees carried: OUT=DIR bash experiments/verify/session38b.sh
set -u
out=$(realpath -m "${OUT:-session38b}")
log=$out/logs
mkdir -p "$log"
start=$(date +%s)
limit=${LIMIT_S:-560}
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
OUT=$log/tests SHARDS=8 GPU_TESTS_S=150 KEYS="hoist or launch or few_points or split or heavy or prelude or int_grid or int_size or many_inputs" \
  bash experiments/verify/whole-gpu.sh > /dev/null 2>&1
cat "$log/tests/gpu-tests.log"; grep -E "^E  " "$log/tests"/*.log /tmp/shards/*.log 2>/dev/null | head -10
echo "== tests $(( $(date +%s) - start )) s"
for p in b_newton_expsum_f64 b_coulomb_grid3d_f32 b_kde1d_f32; do
  for tool in memcheck racecheck; do
    timeout 60 compute-sanitizer --tool "$tool" --error-exitcode 9 \
      python3 -m tiler corpus corpus --only "$p" --sizes small >> "$log/sanitizer.log" 2>&1
    echo "$p $tool rc=$?"
  done
done
for tool in memcheck racecheck; do
  (cd .trees/ahead2 && timeout 60 compute-sanitizer --tool "$tool" --error-exitcode 9 \
     python3 -m tiler corpus ../../corpus --only c_col_welford_f32 --sizes small) >> "$log/sanitizer.log" 2>&1
  echo "ahead2 c_col_welford_f32 $tool rc=$?"
done
echo "== sanitizers $(( $(date +%s) - start )) s"
timeout 90 python3 -m tiler fuzz 100 --seed 0 --gpu --mutations 0 > "$log/fuzz.txt" 2>&1
echo "== fuzz rc=$? $(( $(date +%s) - start )) s"; tail -3 "$log/fuzz.txt"
timer=$(realpath experiments/verify/time_default.py); corpus=$(realpath corpus)
for tree in ahead2 main main ahead2; do
  (cd .trees/$tree && timeout 60 python3 "$timer" "$corpus" small,medium,large "$log/welford-$tree-$(date +%s).json" \
     c_col_welford_f32) > "$log/welford-$tree.txt" 2>&1
  echo "== $tree rc=$? $(( $(date +%s) - start )) s"; grep "^c_col" "$log/welford-$tree.txt" | tail -3
done
left=$(( limit - ($(date +%s) - start) - 15 ))
OUT=$log/peer PROGRAMS="b_coulomb_grid3d_f32 b_kde1d_f32 b_nested_quadrature b_newton_expsum_f64" SETS=small,medium,large \
  TAG=changed LIMIT_S=$left bash experiments/verify/peer-corpus.sh > "$log/peer.txt" 2>&1
echo "== peer $(( $(date +%s) - start )) s"; grep -E "^[a-z_0-9]+ +(small|medium|large)|median" "$log/peer/peer-changed.log" | cut -c1-220
echo "== total $(( $(date +%s) - start )) s"
tar -czf "$out/logs.tgz" -C "$out" logs && rm -rf "$log"
