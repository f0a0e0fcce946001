#!/bin/bash
# Twenty-ninth session, first call: (1) the GPU tests of a module compiled knowing sizes launched past the grid
# (the looped fallback) and the grid tests beside them; (2) issue 58's next step's design question: the
# warp-specialized TMA product (experiments/wgmma/wgmma_ws.cu) with a producer warp group against the same
# without one (thread 0 of the first consumer group issuing the copies, so tiler's block of two warp groups
# stays), TF32 and bf16, 4096^3 and 8192^3, cuBLAS and tiler's A Btᵀ in the same call. Logs to $OUT.
set -u
out=$(realpath -m "${OUT:-session29a}")
log=$out/logs
mkdir -p "$log"
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
timeout 300 python3 -m pytest -q -m gpu tests/test_gpu.py -k "looped_fallback or grid_y or past" -p no:cacheprovider \
  2>&1 | tail -15 | tee "$log/pytest.log"
nvcc -gencode arch=compute_90a,code=sm_90a -O3 -Xptxas -v -o "$log/ws" experiments/wgmma/wgmma_ws.cu -lcuda \
  > "$log/build.log" 2>&1; echo "build rc=$?"
for s in 4096 8192; do timeout 150 "$log/ws" $s $s $s 2>&1 | tee "$log/ws-$s.log"; done
python3 - <<'PY' 2>&1 | tee "$log/cublas.log"
import statistics, torch
torch.backends.cuda.matmul.allow_tf32 = True
for dtype in (torch.float32, torch.bfloat16):
    for n in (4096, 8192):
        a, b = torch.rand(n, n, device="cuda", dtype=dtype), torch.rand(n, n, device="cuda", dtype=dtype)
        for _ in range(3):
            a @ b.t()
        times = []
        for _ in range(10):
            s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            s.record(); a @ b.t(); e.record(); e.synchronize(); times.append(s.elapsed_time(e))
        print(f"cuBLAS {dtype} A Bt {n}^3: {statistics.median(times):.4f} ms")
PY
V=$(realpath experiments/verify/variants.py)
ABT=$(realpath experiments/wgmma/abt/mm_abt_f32.fut)
python3 "$V" $ABT m=4096,n=4096,q=4096 abt:tensor_cores=1 2>&1 | tee "$log/abt-4096.log" | grep " ms"
rm -f "$log/ws"
tar -czf "$out/session29a-logs.tgz" -C "$out" logs
