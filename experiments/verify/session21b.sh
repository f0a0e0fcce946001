#!/bin/bash
# Twenty-first session, second call: each chunk's wgmma issued before the next tiles' copies and waited for at
# the next barrier (.o/), against B-from-registers alone (.rs/, the first call's tree), in one call: mm, mm_rows,
# aat, mm_bf16 under --tensor-cores, mm at 8192; then in .o/: GPU tests of the products, memcheck and racecheck
# at sizes no tile divides, `tiler fuzz --products --gpu`. Logs to $OUT.
set -u
out=$(realpath -m "${OUT:-session21b}")
log=$out/logs
mkdir -p "$log"
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
start=$(date +%s)
run() {  # name, tree, args...
  local name=$1 tree=$2; shift 2
  (cd "$tree" && timeout ${BENCH_S:-200} python3 -m tiler bench "$@" --repeat 10 --json "$log/bench-$name.json" \
    > "$log/bench-$name.log" 2>&1; echo "$name rc=$?")
  grep -E "^│ (tiled|cuBLAS|torch)|^[a-z_0-9]+ \(|differ|rror" "$log/bench-$name.log" | head -40
  echo "== $(( $(date +%s) - start )) s"
}
run rs .rs mm mm_rows aat mm_bf16 --tensor-cores
run now .o mm mm_rows aat mm_bf16 --tensor-cores
run now8k .o mm --tensor-cores -s m=8192 -s n=8192 -s q=8192
run rs8k .rs mm --tensor-cores -s m=8192 -s n=8192 -s q=8192
cd .o
(timeout ${GPU_S:-200} python3 -m pytest -q -m gpu -p no:cacheprovider -n 8 tests/test_gpu.py \
   -k "tensor_cores or f16 or bf16 or f64" > "$log/gpu-tests.log" 2>&1) &
san() {  # name, tool, args...
  local name=$1 tool=$2; shift 2
  timeout 200 compute-sanitizer --tool $tool --error-exitcode 9 python3 -m tiler bench "$@" --repeat 1 \
    > "$log/san-$name-$tool.log" 2>&1; echo "$name $tool rc=$?" >> "$log/sanitizer.txt"
}
for tool in memcheck racecheck; do
  san mm_tc $tool mm --tensor-cores -s m=300 -s n=301 -s q=261 &
  san atb_f32 $tool tests/programs/tensor_cores/mm_atb_f32.fut --tensor-cores -s m=130 -s n=37 -s k=131 &
  san bias $tool tests/programs/tensor_cores/mm_bias.fut --tensor-cores -s m=130 -s n=200 -s q=37 &
  san mm_bf16 $tool mm_bf16 -s m=300 -s n=296 -s q=264 &
  san aat $tool aat --tensor-cores -s d=300 -s n=261 &
done
wait
echo "gpu tests: $(tail -1 "$log/gpu-tests.log")"; grep -E "^(FAILED|ERROR)" "$log/gpu-tests.log" | head -20
sort "$log/sanitizer.txt"
echo "== $(( $(date +%s) - start )) s"
timeout ${FUZZ_S:-150} python3 -m tiler fuzz ${FUZZ_N:-80} --seed 26000 --gpu --products --mutations 0 \
  --out "$log/fuzz" > "$log/fuzz.log" 2>&1
echo "fuzz rc=$?: $(grep -E 'programs|GPU batch|GPU check' "$log/fuzz.log" | tail -3 | tr '\n' ' ')"
echo "== $(( $(date +%s) - start )) s"
cp "$log"/bench-*.json "$out/"
tar -czf "$out/session21b-logs.tgz" -C "$out" logs && rm -rf "$log"
