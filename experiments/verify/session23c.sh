#!/bin/bash
# Twenty-third session, third call: a fold fissioned across map levels (attention's scores once for all of a
# query's output features): GPU tests of every fissioned program, memcheck and racecheck on both attention
# programs, attention_bf16 and the corpus's a_attn_online_softmax_f32 against the session's start
# (.baseline/, 3ba1ed9) in the same call, then against PyTorch. Run from the repository root after
# `source .gpu/bootstrap`. Logs to $OUT.
set -u
out=$(realpath -m "${OUT:-session23c}")
log=$out/logs
mkdir -p "$log"
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
start=$(date +%s)
(timeout 240 python3 -m pytest -q -m gpu -p no:cacheprovider -n 6 tests/test_gpu.py \
  -k "fissioned_across or chunks_of_rows or kmeans" > "$log/gpu-tests.log" 2>&1) &
san() {  # tool, name, args...
  local tool=$1 name=$2; shift 2
  timeout 200 compute-sanitizer --tool $tool --error-exitcode 9 python3 -m tiler bench "$@" --repeat 1 \
    > "$log/san-$tool-$name.log" 2>&1; echo "$name $tool rc=$?"
}
san memcheck f32 corpus/a_attn_online_softmax_f32.fut -s h=2 -s s=130 -s t=300 &
san racecheck f32 corpus/a_attn_online_softmax_f32.fut -s h=2 -s s=130 -s t=300 &
wait
san memcheck bf16 attention_bf16 -s h=2 -s s=130 -s t=300 &
san racecheck bf16 attention_bf16 -s h=2 -s s=130 -s t=300 &
wait
echo "gpu tests: $(tail -1 "$log/gpu-tests.log")"; grep -E "^(FAILED|ERROR)" "$log/gpu-tests.log" | head
echo "== $(( $(date +%s) - start )) s"
run() {  # name, tree, args...
  local name=$1 tree=$2; shift 2
  (cd "$tree" && timeout 200 python3 -m tiler bench "$@" --repeat 10 --json "$log/bench-$name.json" \
    > "$log/bench-$name.log" 2>&1; echo "$name rc=$?")
  grep -E "^│ (untiled|tiled|torch|PyTorch)|^[a-z_0-9]+ \(" "$log/bench-$name.log" | head -12
  echo "== $(( $(date +%s) - start )) s"
}
run base-att .baseline attention_bf16
run now-att . attention_bf16
rm -rf att && mkdir att && cp corpus/a_attn_online_softmax_f32.* att/
(cd .baseline && timeout 150 python3 -m tiler.bench.corpus ../att small,medium,large "$log/base.json") \
  > "$log/base.log" 2>&1; echo "base corpus rc=$?"
timeout 150 python3 -m tiler corpus att --sizes small,medium,large --json "$log/now.json" --against "$log/base.json" \
  > "$log/now.log" 2>&1; echo "now corpus rc=$?"; tail -12 "$log/now.log"
timeout 150 python3 -m tiler corpus att --sizes small,medium,large --peer --json "$log/peer.json" \
  > "$log/peer.log" 2>&1; echo "peer rc=$?"; tail -12 "$log/peer.log"
rm -rf att
echo "== total $(( $(date +%s) - start )) s"
tar -czf "$out/session23c-logs.tgz" -C "$out" logs && rm -rf "$log"
