#!/bin/bash
# Thirty-eighth session, fourth call: the whole corpus at its small sizes, default against untiled (the
# never-slower-than-untiled gate) with this session's changes and the GPU warmed before each timing, led by
# a_jacobi5_f32 (the one pair slower than untiled in session 37's merge). From the repository's root on a GPU
# host after `source .gpu/bootstrap`: OUT=DIR [LIMIT_S=300] bash experiments/verify/session38d.sh
set -u
out=$(realpath -m "${OUT:-session38d}")
mkdir -p "$out"
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$out/device.txt"
timeout 60 python3 -m tiler corpus corpus --only a_jacobi5_f32 --sizes small --json "$out/jacobi.json" \
  > "$out/jacobi.log" 2>&1
grep -E "^a_jacobi5|slower" "$out/jacobi.log"
timeout ${LIMIT_S:-300} python3 -m tiler corpus corpus --sizes small --json "$out/small.json" > "$out/small.log" 2>&1
echo "== corpus rc=$?"
grep -vE "^  \(|^[a-z_0-9]+ +small +x" "$out/small.log" | tail -20
grep -E "LOSER" "$out/small.log"
grep -cE "^[a-z_0-9]+ +small +x" "$out/small.log"
