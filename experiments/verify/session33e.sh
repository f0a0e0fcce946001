#!/bin/bash
# Thirty-third session, fifth call: the row scans at small sizes, the session's start (.head) and now taken in
# turns (session33d took now first, then the start: the small sizes were 5-30% apart).
set -u
out=$(realpath -m "${OUT:-session33e}")
mkdir -p "$out"
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
for tree in head now head now; do
  dir=.; [ $tree = head ] && dir=.head
  (cd $dir && timeout 40 python3 -m tiler corpus corpus --only e_row_count_min_int --only e_row_runmean_peak_f32 \
    --only e_series_wealth_logret_f64 --sizes small) > "$out/small-$tree.txt" 2>&1
  echo "== $tree rc=$?"; grep -E "^e_" "$out/small-$tree.txt" | cut -c1-120
done
