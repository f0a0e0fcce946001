#!/bin/bash
# Twentieth session, last call: the final tree (16-bit and TF32 products on sm_90a's wgmma; the swizzled tiles'
# 1,024-byte boundary found at run time; register tiles on the units spread for whole-sector stores).
# (1) GPU tests of the products, memcheck and racecheck (wgmma: mm_bf16, mm_atb_f16, mm and mm_atb_f32
# --tensor-cores; mma.sync: mm_atbt_f64) at sizes no tile divides; (2) `tiler fuzz --products --gpu`; (3) the
# products in .baseline/ (the session's start) and this tree in one call, JSON kept. Logs to $OUT.
set -u
out=$(realpath -m "${OUT:-session20e}")
log=$out/logs
mkdir -p "$log"
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
start=$(date +%s)
(timeout ${GPU_S:-240} python3 -m pytest -q -m gpu -p no:cacheprovider -n 8 tests/test_gpu.py \
   -k "tensor_cores or f16 or bf16 or f64 or attention" > "$log/gpu-tests.log" 2>&1) &
san() {  # name, tool, args...
  local name=$1 tool=$2; shift 2
  timeout 200 compute-sanitizer --tool $tool --error-exitcode 9 python3 -m tiler bench "$@" --repeat 1 \
    > "$log/san-$name-$tool.log" 2>&1; echo "$name $tool rc=$?" >> "$log/sanitizer.txt"
}
for tool in memcheck racecheck; do
  san mm_bf16 $tool mm_bf16 -s m=300 -s n=296 -s q=264 &
  san atb_f16 $tool tests/programs/tensor_cores/mm_atb_f16.fut -s m=130 -s n=37 -s k=131 &
  san mm_tc $tool mm --tensor-cores -s m=300 -s n=301 -s q=261 &
  san atb_f32 $tool tests/programs/tensor_cores/mm_atb_f32.fut --tensor-cores -s m=130 -s n=37 -s k=131 &
  san atbt_f64 $tool tests/programs/tensor_cores/mm_atbt_f64.fut --tensor-cores -s m=130 -s n=37 -s k=131 &
done
wait
echo "gpu tests: $(tail -1 "$log/gpu-tests.log")"; grep -E "^(FAILED|ERROR)" "$log/gpu-tests.log" | head -20
sort "$log/sanitizer.txt"
echo "== $(( $(date +%s) - start )) s"
timeout ${FUZZ_S:-150} python3 -m tiler fuzz ${FUZZ_N:-80} --seed 25000 --gpu --products --mutations 0 \
  --out "$log/fuzz" > "$log/fuzz.log" 2>&1
echo "fuzz rc=$?: $(grep -E 'programs|GPU batch|GPU check' "$log/fuzz.log" | tail -3 | tr '\n' ' ')"
echo "== $(( $(date +%s) - start )) s"
run() {  # name, tree, args...
  local name=$1 tree=$2; shift 2
  (cd "$tree" && timeout ${BENCH_S:-300} python3 -m tiler bench "$@" --repeat 10 --json "$log/bench-$name.json" \
    > "$log/bench-$name.log" 2>&1; echo "$name rc=$?")
  grep -E "^│ (tiled|cuBLAS|torch)|^[a-z_0-9]+ \(" "$log/bench-$name.log" | head -60
  echo "== $(( $(date +%s) - start )) s"
}
run start .baseline mm_bf16 mm mm_rows --tensor-cores
run now . mm_bf16 mm mm_rows --tensor-cores
cp "$log"/bench-*.json "$out/"
tar -czf "$out/session20e-logs.tgz" -C "$out" logs && rm -rf "$log"
