#!/bin/bash
# Twenty-fifth session, second call: what is left between the march with march-inside.patch and the hand-written
# kernel (its kernel as generated, then by hand: the coefficients loaded once before the march, then also the inside
# branch's store guards dropped); star25 and stencil3d benched, and the corpus's marched programs timed, in the
# session's start (.head/, 218f8b4) and this tree, in the same call. Logs to $OUT.
set -u
out=$(realpath -m "${OUT:-session25b}")
log=$out/logs
mkdir -p "$log"
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
start=$(date +%s)
(cd experiments/windows && timeout 60 python3 march_generated.py k25/star25_head.cu k25/star25_inside.cu k25/star25_c.cu \
  k25/star25_c_nostoreguard.cu) > "$log/variants.log" 2>&1; echo "variants rc=$?"; grep -E "ms \(|WRONG|Error|copy" "$log/variants.log"
echo "== $(( $(date +%s) - start )) s"
for tree in now head; do
  dir=$([ $tree = now ] && echo . || echo .head)
  (cd $dir && timeout 120 python3 -m tiler bench star25 stencil3d --repeat 10 --json "$log/bench-$tree.json" \
    > "$log/bench-$tree.log" 2>&1; echo "bench $tree rc=$?")
  grep -E "^│ (untiled|tiled|march|window)|^[a-z_0-9]+ \(|copy|conv" "$log/bench-$tree.log" | head -14
  echo "== $(( $(date +%s) - start )) s"
done
rm -rf fz && mkdir fz && for p in d_stencil3d_7pt_f32 d_stencil3d_25pt_f64 a_laplace3d_f64; do cp corpus/$p.* fz/; done
(cd .head && timeout 100 python3 -m tiler.bench.corpus ../fz small,medium,large "$log/head.json") \
  > "$log/head.log" 2>&1; echo "head corpus rc=$?"
timeout 100 python3 -m tiler corpus fz --sizes small,medium,large --json "$log/now.json" --against "$log/head.json" \
  > "$log/now.log" 2>&1; echo "now corpus rc=$?"; grep -E "^[abcdg]_|against|geomean|median" "$log/now.log" | head -16
rm -rf fz
echo "== total $(( $(date +%s) - start )) s"
tar -czf "$out/session25b-logs.tgz" -C "$out" logs && rm -rf "$log"
