#!/bin/bash
# Twenty-eighth session, ninth call (issue 58, what would reach TF32's 0.7x at 8192^3): the standalone
# warp-specialized TF32 product (experiments/wgmma/wgmma_ws.cu: a TMA producer warp, consumers on
# mbarriers, one chunk's instructions in flight) beside cuBLAS's TF32 product, at 4096^3 and 8192^3. Logs to $OUT.
set -u
out=$(realpath -m "${OUT:-session28i}")
log=$out/logs
mkdir -p "$log"
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
nvcc -gencode arch=compute_90a,code=sm_90a -O3 -Xptxas -v -o "$log/ws" experiments/wgmma/wgmma_ws.cu -lcuda \
  > "$log/build.log" 2>&1; echo "build rc=$?"; grep -E "error|registers" "$log/build.log" | head
for s in 4096 8192; do timeout 120 "$log/ws" $s $s $s 2>&1 | tee "$log/ws-$s.log"; done
python3 - <<'PY' 2>&1 | tee "$log/cublas.log"
import statistics, torch
torch.backends.cuda.matmul.allow_tf32 = True
for n in (4096, 8192):
    a, b = torch.rand(n, n, device="cuda"), torch.rand(n, n, device="cuda")
    for _ in range(3):
        a @ b.t()
    times = []
    for _ in range(10):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record(); a @ b.t(); e.record(); e.synchronize(); times.append(s.elapsed_time(e))
    print(f"cuBLAS TF32 A Bt {n}^3: {statistics.median(times):.4f} ms")
PY
rm -f "$log/ws"
tar -czf "$out/session28i-logs.tgz" -C "$out" logs
