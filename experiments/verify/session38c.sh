#!/bin/bash
# Thirty-eighth session, third call: racecheck at the test sizes on the programs the heavy body and the
# prelude's work changed (the second call's racecheck at small sizes ran past its minute), then the programs
# this session changed against their PyTorch twins at every size (issue 55's measure). From the repository's
# root on a GPU host after `source .gpu/bootstrap`: OUT=DIR bash experiments/verify/session38c.sh
set -u
out=$(realpath -m "${OUT:-session38c}")
log=$out/logs
mkdir -p "$log"
start=$(date +%s)
limit=${LIMIT_S:-440}
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
for p in b_newton_expsum_f64 b_coulomb_grid3d_f32 b_kde1d_f32; do
  timeout 50 compute-sanitizer --tool racecheck --error-exitcode 9 \
    python3 -m tiler corpus corpus --only "$p" --sizes test >> "$log/sanitizer.log" 2>&1
  echo "$p racecheck rc=$?"
done
echo "== sanitizers $(( $(date +%s) - start )) s"
left=$(( limit - ($(date +%s) - start) - 10 ))
OUT=$log/peer PROGRAMS="b_coulomb_grid3d_f32 b_kde1d_f32 b_nested_quadrature b_newton_expsum_f64 c_col_welford_f32" \
  SETS=small,medium,large TAG=changed LIMIT_S=$left bash experiments/verify/peer-corpus.sh > "$log/peer.txt" 2>&1
echo "== peer $(( $(date +%s) - start )) s"
grep -E "^[a-z_0-9]+ +(small|medium|large)|median" "$log/peer/peer-changed.log" | cut -c1-240
echo "== total $(( $(date +%s) - start )) s"
cp "$log/peer/peer-changed.json" "$out/" 2>/dev/null
tar -czf "$out/logs.tgz" -C "$out" logs && rm -rf "$log"
