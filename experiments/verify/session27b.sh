#!/bin/bash
# Twenty-seventh session, second call: the 1-D convolution of a launch-known length (tests/programs/windows/
# halo_launch_1d.fut) benched here and in .head/ (aee1579: no tile) at 2^24 points, 31 and 255 taps; the two
# cross-correlations whose small and medium sizes drifted in session27a timed again, here first this time.
set -u
out=$(realpath -m "${OUT:-session27b}")
log=$out/logs
mkdir -p "$log"
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
start=$(date +%s)
prog=$(realpath tests/programs/windows/halo_launch_1d.fut)
for m in 31 255; do
  for tree in now head; do
    dir=$([ $tree = now ] && echo . || echo .head)
    (cd $dir && timeout 60 python3 -m tiler bench "$prog" -s n=16777216 -s m=$m --repeat 10 \
      --json "$log/conv-$tree-$m.json" > "$log/conv-$tree-$m.log" 2>&1; echo "conv bench $tree m=$m rc=$?")
    grep -E "^│ " "$log/conv-$tree-$m.log" | head -6
  done
done
echo "== $(( $(date +%s) - start )) s"
rm -rf fz && mkdir fz && for p in d_xcorr_valid_f32 b_xcorr_ncc_f64; do cp corpus/$p.* fz/; done
timeout 120 python3 -m tiler.bench.corpus fz small,medium "$log/now.json" > "$log/now.log" 2>&1; echo "now rc=$?"
(cd .head && timeout 120 python3 -m tiler corpus ../fz --sizes small,medium --json "$log/head.json" \
  --against "$log/now.json" > "$log/head.log" 2>&1; echo "head rc=$?")
grep -E "^[abcdg]_|against|slower" "$log/head.log" | head -20
rm -rf fz
echo "== total $(( $(date +%s) - start )) s"
tar -czf "$out/session27b-logs.tgz" -C "$out" logs && rm -rf "$log"
