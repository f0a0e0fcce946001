#!/bin/bash
# Twenty-eighth session, eleventh call (issue 58): the standalone warp-specialized product
# (experiments/wgmma/wgmma_ws.cu) in TF32 and now bf16, every tile shape, beside cuBLAS's TF32 and bf16
# A Btᵀ, at 4096^3 and 8192^3. Logs to $OUT.
set -u
out=$(realpath -m "${OUT:-session28k}")
log=$out/logs
mkdir -p "$log"
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
nvcc -gencode arch=compute_90a,code=sm_90a -O3 -Xptxas -v -o "$log/ws" experiments/wgmma/wgmma_ws.cu -lcuda \
  > "$log/build.log" 2>&1; echo "build rc=$?"; grep -E "error|registers" "$log/build.log" | head
for s in 4096 8192; do timeout 120 "$log/ws" $s $s $s all 2>&1 | tee "$log/ws-$s.log"; done
python3 - <<'PY' 2>&1 | tee "$log/cublas.log"
import statistics, torch
torch.backends.cuda.matmul.allow_tf32 = True
for dtype, name in ((torch.float32, "TF32"), (torch.bfloat16, "bf16")):
    for n in (4096, 8192):
        a, b = torch.rand(n, n, device="cuda").to(dtype), torch.rand(n, n, device="cuda").to(dtype)
        for _ in range(3):
            a @ b.t()
        times = []
        for _ in range(10):
            s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            s.record(); a @ b.t(); e.record(); e.synchronize(); times.append(s.elapsed_time(e))
        print(f"cuBLAS {name} A Bt {n}^3: {statistics.median(times):.4f} ms")
PY
rm -f "$log/ws"
tar -czf "$out/session28k-logs.tgz" -C "$out" logs
