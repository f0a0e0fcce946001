"""Whether sm_90's f64 matrix instruction (mma m8n8k4, DMMA) rounds as the
chain of fused multiply-adds a thread's loop `acc + a[k] * b[k]` compiles
to: 8 x 8 outputs over K, by DMMA in steps of 4 and by fma in k order,
compared bit for bit on random and wide-exponent inputs (cupy)."""
import sys
import cupy as cp
import numpy as np

SRC = r"""
extern "C" __global__ void by_mma(const double* A, const double* B, double* C, int K, int batch) {
  int lane = threadIdx.x, w = blockIdx.x;
  if (w >= batch) return;
  const double* a = A + (size_t)w * 8 * K; const double* b = B + (size_t)w * K * 8;
  double d0 = 0.0, d1 = 0.0;
  for (int k = 0; k < K; k += 4) {
    double fa = a[(lane / 4) * K + k + lane % 4];   // A 8 x K row-major: row lane/4, col k + lane%4
    double fb = b[(k + lane % 4) * 8 + lane / 4];   // B K x 8 row-major: row k + lane%4, col lane/4
    asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0,%1}, {%2}, {%3}, {%0,%1};"
                 : "+d"(d0), "+d"(d1) : "d"(fa), "d"(fb));
  }
  double* c = C + (size_t)w * 64;
  c[(lane / 4) * 8 + (lane % 4) * 2] = d0; c[(lane / 4) * 8 + (lane % 4) * 2 + 1] = d1;
}
extern "C" __global__ void by_mma16(const double* A, const double* B, double* C, int K, int batch) {
  // sm_90's m16n8k8: A 16 x K, B K x 8; the warp's first 8 rows are compared (rows 8-15 repeat them)
  int lane = threadIdx.x, w = blockIdx.x, g = lane / 4, t = lane % 4;
  if (w >= batch) return;
  const double* a = A + (size_t)w * 8 * K; const double* b = B + (size_t)w * K * 8;
  double d0 = 0.0, d1 = 0.0, d2 = 0.0, d3 = 0.0;
  for (int k = 0; k < K; k += 8) {
    double a0 = a[g * K + k + t], a1 = a[g * K + k + t], a2 = a[g * K + k + t + 4], a3 = a[g * K + k + t + 4];
    double b0 = b[(k + t) * 8 + g], b1 = b[(k + t + 4) * 8 + g];
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                 : "+d"(d0), "+d"(d1), "+d"(d2), "+d"(d3) : "d"(a0), "d"(a1), "d"(a2), "d"(a3), "d"(b0), "d"(b1));
  }
  double* c = C + (size_t)w * 64;
  c[g * 8 + t * 2] = d0; c[g * 8 + t * 2 + 1] = d1;
}
extern "C" __global__ void by_fma(const double* A, const double* B, double* C, int K, int batch) {
  int t = threadIdx.x, w = blockIdx.x;   // 64 threads: output (t / 8, t % 8)
  if (w >= batch) return;
  const double* a = A + (size_t)w * 8 * K; const double* b = B + (size_t)w * K * 8;
  double acc = 0.0;
  for (int k = 0; k < K; k++) acc = fma(a[(t / 8) * K + k], b[k * 8 + t % 8], acc);
  C[(size_t)w * 64 + t] = acc;
}
extern "C" __global__ void by_pairs(const double* A, const double* B, double* C, int K, int batch) {
  int t = threadIdx.x, w = blockIdx.x;   // a different order: four products summed, then added
  if (w >= batch) return;
  const double* a = A + (size_t)w * 8 * K; const double* b = B + (size_t)w * K * 8;
  double acc = 0.0;
  for (int k = 0; k < K; k += 4) {
    double s = a[(t / 8) * K + k] * b[k * 8 + t % 8];
    for (int j = 1; j < 4; j++) s = fma(a[(t / 8) * K + k + j], b[(k + j) * 8 + t % 8], s);
    acc = acc + s;
  }
  C[(size_t)w * 64 + t] = acc;
}
"""
mod = cp.RawModule(code=SRC, options=("-arch=sm_90",))
rng = np.random.default_rng(int(sys.argv[1]) if len(sys.argv) > 1 else 0)
for name, K, batch, wide in [("uniform", 4096, 2000, False), ("wide exponents", 1024, 4000, True),
                             ("short", 8, 20000, True), ("cancelling", 256, 8000, True)]:
    A = rng.uniform(-1, 1, (batch, 8, K)); B = rng.uniform(-1, 1, (batch, K, 8))
    if wide:
        A *= 2.0 ** rng.integers(-40, 40, A.shape); B *= 2.0 ** rng.integers(-40, 40, B.shape)
    if name == "cancelling":  # products that cancel: second half the negated first
        A[:, :, K // 2:] = A[:, :, :K // 2]; B[:, K // 2:, :] = -B[:, :K // 2, :] * (1 + 2.0 ** -30)
    dA, dB = cp.asarray(A), cp.asarray(B)
    out = {}
    for kern, threads in [("by_mma", 32), ("by_mma16", 32), ("by_fma", 64), ("by_pairs", 64)]:
        C = cp.zeros((batch, 64))
        mod.get_function(kern)((batch,), (threads,), (dA, dB, C, np.int32(K), np.int32(batch)))
        out[kern] = cp.asnumpy(C).view(np.int64)
    n = out["by_fma"].size
    print(f"{name:15s} K={K:5d} outputs {n}: mma != fma-chain {int((out['by_mma'] != out['by_fma']).sum())}, "
          f"pairs != fma-chain {int((out['by_pairs'] != out['by_fma']).sum())}, "
          f"mma != pairs {int((out['by_mma'] != out['by_pairs']).sum())}, "
          f"m16n8k8 != fma-chain {int((out['by_mma16'] != out['by_fma']).sum()) if K % 8 == 0 else 'n/a'}")
