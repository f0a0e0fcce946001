#!/bin/bash
# Eighteenth session, the record: (1) the GPU tests of every tensor-core
# program (the new layouts: A or B transposed, in bf16, f16, TF32 and f64),
# the 16-bit programs and mm_f64, beside memcheck and racecheck of the new
# layouts at sizes no tile divides; (2) the GPU fuzzer on 16-bit programs;
# (3) `tiler bench mm mm_bf16 mm_f64 mm_rows --tensor-cores` for .baseline/
# (a693158, the session's start) and this tree, and aat for this tree. Logs
# to $OUT, packed.
set -u
out=$(realpath -m "${OUT:-session18d}")
log=$out/logs
mkdir -p "$log"
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
start=$(date +%s)
(timeout ${GPU_S:-200} python3 -m pytest -q -m gpu -p no:cacheprovider -n 8 tests/test_gpu.py tests/test_float16.py \
   -k "tensor_cores or 16_bit or mm_bf16 or mm_f64" > "$log/gpu-tests.log" 2>&1) &
san() {  # name program args...
  local name=$1 prog=$2; shift 2
  for tool in memcheck racecheck; do
    (timeout 150 compute-sanitizer --tool $tool --error-exitcode 9 python3 -m tiler bench "$prog" "$@" --repeat 1 \
       > "$log/san-$name-$tool.log" 2>&1; echo "$name $tool rc=$?" >> "$log/sanitizer.txt") &
  done
}
T=tests/programs/tensor_cores
san atb_f16 $T/mm_atb_f16.fut -s n=300 -s m=264 -s k=296
san atbt_bf16 $T/mm_atbt_bf16.fut -s n=300 -s m=261 -s k=301
san abt_bf16 $T/mm_abt_bf16.fut -s n=130 -s m=264 -s k=296
san atb_f32 $T/mm_atb_f32.fut --tensor-cores -s n=300 -s m=264 -s k=301
san atbt_f64 $T/mm_atbt_f64.fut --tensor-cores -s n=300 -s m=261 -s k=301
wait
echo "gpu tests: $(tail -1 "$log/gpu-tests.log")"; grep -E "^(FAILED|ERROR)" "$log/gpu-tests.log" | head -20
sort "$log/sanitizer.txt"
echo "== $(( $(date +%s) - start )) s"
timeout ${FUZZ_S:-120} python3 -m tiler fuzz ${FUZZ_N:-100} --seed 18000 --gpu --narrow --out "$log/fuzz" > "$log/fuzz.log" 2>&1
echo "fuzz rc=$?: $(tail -2 "$log/fuzz.log" | tr '\n' ' ')"
echo "== $(( $(date +%s) - start )) s"
run() {  # name, tree, args...
  local name=$1 tree=$2; shift 2
  (cd "$tree" && timeout ${BENCH_S:-240} python3 -m tiler bench "$@" --repeat 10 --json "$log/bench-$name.json" \
    > "$log/bench-$name.log" 2>&1; echo "$name rc=$?")
  grep -E "^│ [a-zA-Z]|^[a-z_0-9]+ \(" "$log/bench-$name.log" | head -60
  echo "== $(( $(date +%s) - start )) s"
}
run now . mm mm_bf16 mm_f64 mm_rows --tensor-cores
run base .baseline mm mm_bf16 mm_f64 mm_rows --tensor-cores
[ -n "${AAT:-1}" ] && run aat . aat --tensor-cores
tar czf "$out/logs.tgz" -C "$out" logs && rm -rf "$log"
echo "total: $(( $(date +%s) - start )) s"
