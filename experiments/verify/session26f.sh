#!/bin/bash
# Twenty-sixth session, sixth call: the corpus's marched programs (small, medium, large) timed in .head/ (47acef2)
# and in this tree (the march's rows consecutive, 32 x 4 threads, 32 planes, registers capped for 768 threads an
# SM), in the same call; then the fuzzer on the GPU over seeds with marched stars (its inside check, e64b00a).
set -u
out=$(realpath -m "${OUT:-session26f}")
log=$out/logs
mkdir -p "$log"
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
start=$(date +%s)
rm -rf fz && mkdir fz && for p in d_stencil3d_7pt_f32 d_stencil3d_25pt_f64 a_laplace3d_f64; do cp corpus/$p.* fz/; done
(cd .head && timeout 190 python3 -m tiler.bench.corpus ../fz small,medium,large "$log/head.json") \
  > "$log/head.log" 2>&1; echo "head corpus rc=$?"
echo "== $(( $(date +%s) - start )) s"
timeout 190 python3 -m tiler corpus fz --sizes small,medium,large --json "$log/now.json" --against "$log/head.json" \
  > "$log/now.log" 2>&1; echo "now corpus rc=$?"; grep -E "^[abcdg]_|against|geomean|median|slower" "$log/now.log" | head -20
rm -rf fz
timeout 170 python3 -m tiler fuzz 300 --seed 3200 --gpu --mutations 0 > "$log/fuzz.log" 2>&1
echo "fuzz rc=$? $(tail -3 "$log/fuzz.log" | tr '\n' ' ')"
echo "== total $(( $(date +%s) - start )) s"
tar -czf "$out/session26f-logs.tgz" -C "$out" logs && rm -rf "$log"
