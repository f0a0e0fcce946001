#!/bin/bash
# Fourteenth session, the timings of issue 57's changes (on a GPU host after
# `source .gpu/bootstrap`, with .baseline/ from tools/corpus-baseline 0bf543b):
# the corpus programs whose kernels changed (a_bilinear_batch_f32 now
# fissioned; g_hashed_proj_f64 now staging its hashed rows), the session's
# start and this tree in the same call, with PyTorch; the new benchmarks
# embed_scores and mlp against their PyTorch twins. Logs to $OUT.
set -u
out=$(realpath -m "${OUT:-session14c}")
mkdir -p "$out"
rm -rf bc && mkdir bc && for p in ${PROGRAMS:-a_bilinear_batch_f32 g_hashed_proj_f64}; do cp corpus/$p.* bc/; done
(cd .baseline && timeout ${BASE_S:-150} python3 -m tiler.bench.corpus ../bc ${SETS:-small,medium,large} "$out/base.json") \
  > "$out/base.log" 2>&1
timeout ${NOW_S:-200} python3 -m tiler corpus bc --sizes ${SETS:-small,medium,large} ${PEER---peer} --json "$out/now.json" \
  --against "$out/base.json" > "$out/now.log" 2>&1
grep -v "^  (" "$out/now.log" | tail -24
rm -rf bc
timeout ${BENCH_S:-200} python3 -m tiler bench ${BENCH:-embed_scores mlp} --repeat 10 --json "$out/bench.json" \
  > "$out/bench.log" 2>&1
tail -40 "$out/bench.log"
