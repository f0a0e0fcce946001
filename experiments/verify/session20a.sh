#!/bin/bash
# Twentieth session, first call: 16-bit products on sm_90a's warp-group instructions (wgmma) from swizzled
# tiles. (1) mm_bf16 and the tensor-core test programs at sizes no tile divides, checked against the
# interpreter; memcheck and racecheck; (2) the GPU tests of the 16-bit products; (3) `tiler fuzz --products
# --gpu`; (4) mm_bf16, mm and attention_bf16 timed in .baseline/ (the session's start) and this tree in one
# call. Logs to $OUT.
set -u
out=$(realpath -m "${OUT:-session20a}")
log=$out/logs
mkdir -p "$log"
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
start=$(date +%s)
check() {  # name, args...
  local name=$1; shift
  timeout 200 python3 -m tiler bench "$@" --repeat 1 > "$log/check-$name.log" 2>&1
  echo "check $name rc=$?: $(grep -ciE 'wrong|mismatch|error' "$log/check-$name.log") error lines"
}
check mm_bf16 mm_bf16 -s m=300 -s n=296 -s q=264
check mm_bf16_odd mm_bf16 -s m=37 -s n=130 -s q=131
for p in mm_abt_bf16 mm_atb_f16 mm_atbt_bf16 mm_f16_f32; do
  check $p tests/programs/tensor_cores/$p.fut -s m=200 -s n=131 -s q=190
done
grep -hE "^│ [a-zA-Z]" "$log"/check-*.log | head -40
echo "== $(( $(date +%s) - start )) s"
(timeout ${GPU_S:-240} python3 -m pytest -q -m gpu -p no:cacheprovider -n 8 tests/test_gpu.py \
   -k "tensor_cores or f16 or bf16 or attention" > "$log/gpu-tests.log" 2>&1) &
san() {  # name, tool, args...
  local name=$1 tool=$2; shift 2
  timeout 200 compute-sanitizer --tool $tool --error-exitcode 9 python3 -m tiler bench "$@" --repeat 1 \
    > "$log/san-$name-$tool.log" 2>&1; echo "$name $tool rc=$?" >> "$log/sanitizer.txt"
}
for tool in memcheck racecheck; do
  san mm_bf16 $tool mm_bf16 -s m=300 -s n=296 -s q=264 &
  san atb_f16 $tool tests/programs/tensor_cores/mm_atb_f16.fut -s m=130 -s n=37 -s q=131 &
done
wait
echo "gpu tests: $(tail -1 "$log/gpu-tests.log")"; grep -E "^(FAILED|ERROR)" "$log/gpu-tests.log" | head -20
sort "$log/sanitizer.txt"
echo "== $(( $(date +%s) - start )) s"
timeout ${FUZZ_S:-150} python3 -m tiler fuzz ${FUZZ_N:-80} --seed 22000 --gpu --products --mutations 0 \
  --out "$log/fuzz" > "$log/fuzz.log" 2>&1
echo "fuzz rc=$?: $(grep -E 'programs|GPU batch|GPU check' "$log/fuzz.log" | tail -4 | tr '\n' ' ')"
echo "== $(( $(date +%s) - start )) s"
run() {  # name, tree, args...
  local name=$1 tree=$2; shift 2
  (cd "$tree" && timeout ${BENCH_S:-300} python3 -m tiler bench "$@" --repeat 10 --json "$log/bench-$name.json" \
    > "$log/bench-$name.log" 2>&1; echo "$name rc=$?")
  grep -E "^│ [a-zA-Z]|^[a-z_0-9]+ \(" "$log/bench-$name.log" | head -60
  echo "== $(( $(date +%s) - start )) s"
}
run start .baseline mm_bf16 attention_bf16
run now . mm_bf16 attention_bf16
python3 -m tiler compile benchmarks/mm_bf16.fut --arch sm_90a -o "$log/mm_bf16.cu" && \
  nvcc -arch=sm_90a -cubin -o "$log/mm_bf16.cubin" "$log/mm_bf16.cu" && \
  cuobjdump -sass "$log/mm_bf16.cubin" | awk '/Function : tiler_mm_bf16_tiled$/,/Function : tiler_mm_bf16_tiled_/' > "$log/mm_bf16_tiled.sass"
tar -czf "$out/session20a-logs.tgz" -C "$out" logs && rm -rf "$log"
