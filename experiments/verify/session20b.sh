#!/bin/bash
# Twentieth session, second call: a register tile on the matrix units with its points spread a block's width
# apart (whole-sector output stores) against groups of consecutive points (.nospread/) and the session's
# start (.baseline/), for wgmma (mm_bf16) and mma.sync (mm and mm_f64 --tensor-cores), all in one call;
# the standalone wgmma harness (experiments/wgmma/); the tensor-core GPU tests and the tensor-core test programs at sizes no tile
# divides. Logs to $OUT.
set -u
out=$(realpath -m "${OUT:-session20b}")
log=$out/logs
mkdir -p "$log"
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
start=$(date +%s)
(timeout ${GPU_S:-240} python3 -m pytest -q -m gpu -p no:cacheprovider -n 8 tests/test_gpu.py \
   -k "tensor_cores or f16 or bf16 or f64" > "$log/gpu-tests.log" 2>&1) &
check() {  # name, args...
  local name=$1; shift
  timeout 200 python3 -m tiler bench "$@" --repeat 1 > "$log/check-$name.log" 2>&1
  echo "check $name rc=$?: $(grep -E '^│ tiled' "$log/check-$name.log" | head -2 | tr -s ' ' | tr '\n' ' ')"
}
for p in mm_abt_bf16 mm_atb_f16 mm_atbt_bf16 mm_f16_f32; do
  check $p tests/programs/tensor_cores/$p.fut -s m=200 -s n=131 -s k=190
done
check atbt_f64 tests/programs/tensor_cores/mm_atbt_f64.fut --tensor-cores -s m=130 -s n=37 -s k=131
check mm_tc mm --tensor-cores -s m=300 -s n=301 -s q=261
wait
echo "gpu tests: $(tail -1 "$log/gpu-tests.log")"; grep -E "^(FAILED|ERROR)" "$log/gpu-tests.log" | head -20
echo "== $(( $(date +%s) - start )) s"
run() {  # name, tree, args...
  local name=$1 tree=$2; shift 2
  (cd "$tree" && timeout ${BENCH_S:-300} python3 -m tiler bench "$@" --repeat 10 --json "$log/bench-$name.json" \
    > "$log/bench-$name.log" 2>&1; echo "$name rc=$?")
  grep -E "^│ (tiled|cuBLAS)|^[a-z_0-9]+ \(" "$log/bench-$name.log" | head -60
  echo "== $(( $(date +%s) - start )) s"
}
run start .baseline mm_bf16 mm mm_f64 --tensor-cores
run nospread .nospread mm_bf16 mm mm_f64 --tensor-cores
run now . mm_bf16 mm mm_f64 --tensor-cores
nvcc -gencode arch=compute_90a,code=sm_90a -O3 -o "$log/wgmma" experiments/wgmma/wgmma_bf16.cu && "$log/wgmma" | tail -3
rm -f "$log/wgmma"
run now8192 . mm_bf16 -s m=8192 -s n=8192 -s q=8192
tar -czf "$out/session20b-logs.tgz" -C "$out" logs && rm -rf "$log"
