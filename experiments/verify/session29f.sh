#!/bin/bash
# Twenty-ninth session, sixth call (issue 58): wider tiles now that TMA feeds them (the standalone kernel's best
# was 128 x 256): --register-tile 8,16 and 16,8 against the plan's 128 x 128, TMA, 4096^3 and 8192^3, PyTorch at
# the same precision in the same call; then the new GPU tests. Logs to $OUT.
set -u
out=$(realpath -m "${OUT:-session29f}")
log=$out/logs
mkdir -p "$log"
start=$(date +%s)
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
V=$(realpath experiments/verify/variants.py)
B=$(realpath benchmarks)
ABT=$(realpath tests/programs/tensor_cores/mm_abt_f32.fut)
for s in 4096 8192; do
  S=m=$s,n=$s,q=$s
  timeout 200 python3 "$V" $ABT $S plan:tensor_cores=1 t8x16:tensor_cores=1,register_tile=8x16 \
    t16x8:tensor_cores=1,register_tile=16x8 --torch tf32 --operands A,B 2>&1 | tee "$log/abt-$s.log" | grep -E " ms|failed"
  timeout 200 python3 "$V" $B/mm_bf16.fut $S plan: t8x16:register_tile=8x16 t16x8:register_tile=16x8 \
    --torch bf16 --operands A,B0 2>&1 | tee "$log/bf16-$s.log" | grep -E " ms|failed"
done
echo "== $(( $(date +%s) - start )) s"
timeout 200 python3 -m pytest -q -m gpu -p no:cacheprovider tests/test_gpu.py -k "copied_by_tma and (atbt or atb_f16 or bf16_f32)" \
  > "$log/gpu-tests.log" 2>&1
echo "gpu tests: $(tail -1 "$log/gpu-tests.log")"; grep -E "^(FAILED|ERROR)|^E  " "$log/gpu-tests.log" | head -20
echo "== total $(( $(date +%s) - start )) s"
tar -czf "$out/session29f-logs.tgz" -C "$out" logs
