#!/bin/bash
# Twenty-first session, first call: TF32 products on wgmma with B's tile read into registers (the product
# computed transposed), against the session's start. (1) the trees' mm, mm_rows, aat, mm at 8192 under
# --tensor-cores, timed in one call; (2) GPU tests of the products, memcheck and racecheck on mm, mm_atb_f32
# and mm_bias under --tensor-cores at sizes no tile divides. Run from the repository root with the tree
# in .rs/ and the start in .baseline/. Logs to $OUT.
set -u
out=$(realpath -m "${OUT:-session21a}")
log=$out/logs
mkdir -p "$log"
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
start=$(date +%s)
run() {  # name, tree, args...
  local name=$1 tree=$2; shift 2
  (cd "$tree" && timeout ${BENCH_S:-200} python3 -m tiler bench "$@" --repeat 10 --json "$log/bench-$name.json" \
    > "$log/bench-$name.log" 2>&1; echo "$name rc=$?")
  grep -E "^│ (tiled|cuBLAS|torch)|^[a-z_0-9]+ \(|differ|error" "$log/bench-$name.log" | head -40
  echo "== $(( $(date +%s) - start )) s"
}
run start .baseline mm mm_rows aat --tensor-cores
run now .rs mm mm_rows aat --tensor-cores
run now8k .rs mm --tensor-cores -s m=8192 -s n=8192 -s q=8192
cd .rs
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
done
wait
echo "gpu tests: $(tail -1 "$log/gpu-tests.log")"; grep -E "^(FAILED|ERROR)" "$log/gpu-tests.log" | head -20
sort "$log/sanitizer.txt"
echo "== $(( $(date +%s) - start )) s"
cp "$log"/bench-*.json "$out/"
tar -czf "$out/session21a-logs.tgz" -C "$out" logs && rm -rf "$log"
