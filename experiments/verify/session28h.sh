#!/bin/bash
# Twenty-eighth session, eighth call (issue 58, the next step's price): what transposing B at the launch would
# cost a TF32 product (a B.t().contiguous() of 4096^2 and 8192^2 f32, PyTorch's transpose), beside A Btᵀ (both
# tiles through descriptors) and mm as planned, in one call. Logs to $OUT.
set -u
out=$(realpath -m "${OUT:-session28h}")
log=$out/logs
mkdir -p "$log"
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
V=$(realpath experiments/verify/variants.py)
B=$(realpath benchmarks)
ABT=$(realpath experiments/wgmma/abt/mm_abt_f32.fut)
python3 - <<'PY' 2>&1 | tee "$log/transpose.log"
import statistics, torch
for n in (4096, 8192):
    b = torch.rand(n, n, device="cuda")
    for _ in range(3):
        b.t().contiguous()
    times = []
    for _ in range(20):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record(); b.t().contiguous(); e.record(); e.synchronize(); times.append(s.elapsed_time(e))
    print(f"transpose {n}^2 f32: {statistics.median(times):.4f} ms")
PY
for s in 4096 8192; do
  S=m=$s,n=$s,q=$s
  python3 "$V" $B/mm.fut $S mm:tensor_cores=1 --torch tf32 --operands A,B0 2>&1 | tee "$log/mm-$s.log" | grep " ms"
  python3 "$V" $ABT $S abt:tensor_cores=1 abt8x16:tensor_cores=1,register_tile=8x16 2>&1 | tee "$log/abt-$s.log" | grep " ms"
done
tar -czf "$out/session28h-logs.tgz" -C "$out" logs
