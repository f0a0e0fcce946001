#!/bin/bash
# Twenty-third session, fifth call: fissioned versions raced against the kernel as written first (the next
# version that is not fissioned), their gates lowered to 32 rows and a loop of 32. The fission programs of the
# corpus at every size and the benchmarks with fissioned versions against the session's start (.baseline/,
# 3ba1ed9) in the same call; the bilinear form against PyTorch; GPU tests of fission, races and the launcher.
# Run from the repository root after `source .gpu/bootstrap`. Logs to $OUT.
set -u
out=$(realpath -m "${OUT:-session23e}")
log=$out/logs
mkdir -p "$log"
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
start=$(date +%s)
timeout 200 python3 -m pytest -q -m gpu -p no:cacheprovider -n 8 tests/test_gpu.py \
  -k "fission or kmeans or host_launcher or race or mlp or companion" > "$log/gpu-tests.log" 2>&1
echo "gpu tests: $(tail -1 "$log/gpu-tests.log")"; grep -E "^(FAILED|ERROR)" "$log/gpu-tests.log" | head
echo "== $(( $(date +%s) - start )) s"
rm -rf fz && mkdir fz && for p in a_bilinear_batch_f32 a_attn_online_softmax_f32 a_kmeans_assign_f32 b_gp_matern_f64; do
  cp corpus/$p.* fz/; done
(cd .baseline && timeout 170 python3 -m tiler.bench.corpus ../fz small,medium,large "$log/base.json") \
  > "$log/base.log" 2>&1; echo "base corpus rc=$?"
timeout 170 python3 -m tiler corpus fz --sizes small,medium,large --json "$log/now.json" --against "$log/base.json" \
  > "$log/now.log" 2>&1; echo "now corpus rc=$?"; grep -E "^[abcdg]_|against" "$log/now.log" | head -16
echo "== $(( $(date +%s) - start )) s"
run() {  # name, tree, args...
  local name=$1 tree=$2; shift 2
  (cd "$tree" && timeout 150 python3 -m tiler bench "$@" --repeat 10 --json "$log/bench-$name.json" \
    > "$log/bench-$name.log" 2>&1; echo "$name rc=$?")
  grep -E "^│ (untiled|tiled) |^[a-z_0-9]+ \(" "$log/bench-$name.log" | head -12
  echo "== $(( $(date +%s) - start )) s"
}
run base .baseline kmeans mlp attention_bf16
run now . kmeans mlp attention_bf16
rm -rf fz && mkdir fz && cp corpus/a_bilinear_batch_f32.* fz/
timeout 120 python3 -m tiler corpus fz --sizes small,medium,large --peer --json "$log/peer.json" \
  > "$log/peer.log" 2>&1; echo "peer rc=$?"; grep -E "^a_|against|  a_" "$log/peer.log" | head -10
rm -rf fz
echo "== total $(( $(date +%s) - start )) s"
tar -czf "$out/session23e-logs.tgz" -C "$out" logs && rm -rf "$log"
