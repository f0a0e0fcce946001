#!/bin/bash
# Twentieth session, fourth call: f32 products under --tensor-cores on sm_90a's warp groups as TF32
# (wgmma m64n128k8, B's tile copied across its lines so that both operands have their positions adjacent),
# the tree in .tf32/ against this one (the wgmma commit) in the same call. (1) the tensor-core GPU tests and
# the TF32 programs at sizes no tile divides; memcheck and racecheck; (2) `tiler fuzz --products --gpu`;
# (3) mm, mm_rows, aat and mm_bf16 --tensor-cores in both trees. Logs to $OUT.
set -u
out=$(realpath -m "${OUT:-session20d}")
log=$out/logs
mkdir -p "$log"
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
start=$(date +%s)
(cd .tf32 && timeout ${GPU_S:-240} python3 -m pytest -q -m gpu -p no:cacheprovider -n 8 tests/test_gpu.py \
   -k "tensor_cores or f16 or bf16 or f64" > "$log/gpu-tests.log" 2>&1) &
check() {  # name, args...
  local name=$1; shift
  (cd .tf32 && timeout 200 python3 -m tiler bench "$@" --repeat 1 > "$log/check-$name.log" 2>&1)
  echo "check $name rc=$?: $(grep -E '^│ tiled,' "$log/check-$name.log" | head -1 | tr -s ' ')"
}
check atb_f32 tests/programs/tensor_cores/mm_atb_f32.fut --tensor-cores -s m=200 -s n=131 -s k=190
check bias tests/programs/tensor_cores/mm_bias.fut --tensor-cores -s m=37 -s n=130 -s k=131
check mm_tc mm --tensor-cores -s m=300 -s n=301 -s q=261
check mm_tc3 mm --tensor-cores -s m=130 -s n=3 -s q=37
check rows_tc mm_rows --tensor-cores -s m=300 -s n=301 -s q=261
check aat_tc aat --tensor-cores -s n=300 -s d=301
san() {  # name, tool, args...
  local name=$1 tool=$2; shift 2
  (cd .tf32 && timeout 200 compute-sanitizer --tool $tool --error-exitcode 9 python3 -m tiler bench "$@" --repeat 1 \
    > "$log/san-$name-$tool.log" 2>&1); echo "$name $tool rc=$?" >> "$log/sanitizer.txt"
}
for tool in memcheck racecheck; do
  san mm_tc $tool mm --tensor-cores -s m=300 -s n=301 -s q=261 &
  san atb_f32 $tool tests/programs/tensor_cores/mm_atb_f32.fut --tensor-cores -s m=130 -s n=37 -s k=131 &
done
wait
echo "gpu tests: $(tail -1 "$log/gpu-tests.log")"; grep -E "^(FAILED|ERROR)" "$log/gpu-tests.log" | head -20
sort "$log/sanitizer.txt"
echo "== $(( $(date +%s) - start )) s"
(cd .tf32 && timeout ${FUZZ_S:-150} python3 -m tiler fuzz ${FUZZ_N:-80} --seed 24000 --gpu --products --mutations 0 \
  --out "$log/fuzz" > "$log/fuzz.log" 2>&1)
echo "fuzz rc=$?: $(grep -E 'programs|GPU check' "$log/fuzz.log" | tail -2 | tr '\n' ' ')"
echo "== $(( $(date +%s) - start )) s"
run() {  # name, tree, args...
  local name=$1 tree=$2; shift 2
  (cd "$tree" && timeout ${BENCH_S:-300} python3 -m tiler bench "$@" --repeat 10 --json "$log/bench-$name.json" \
    > "$log/bench-$name.log" 2>&1; echo "$name rc=$?")
  grep -E "^│ (tiled|cuBLAS)|^[a-z_0-9]+ \(" "$log/bench-$name.log" | head -60
  echo "== $(( $(date +%s) - start )) s"
}
run before . mm mm_rows aat --tensor-cores
run tf32 .tf32 mm mm_rows aat --tensor-cores
run tf32_8192 .tf32 mm --tensor-cores -s m=8192 -s n=8192 -s q=8192
cp "$log"/bench-*.json "$out/"
tar -czf "$out/session20d-logs.tgz" -C "$out" logs && rm -rf "$log"
