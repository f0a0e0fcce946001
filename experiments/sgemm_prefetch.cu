// Issue 58's IEEE f32 product, a hand-written probe (session 40): does
// loading a step's register fragments a step ahead (PF 1, within a chunk) or
// across the chunk's barrier as well (PF 2: the wait and the barrier moved to
// the chunk's last step, the next chunk's first fragments loaded behind it,
// one barrier a chunk) close the gap to SGEMM? tiler's kernel loads one of
// the two fragments a step ahead (ptxas's choice, SASS of tiler_mm_tiled).
// 16 x 16 threads, (4 GM) x 8 points a thread split in 4 x 4 groups 64 apart,
// STAGES cp.async buffers of BK steps, __launch_bounds__(256, MINB).
// Needs tiler.cuh's helpers before it; sizes the tiles divide only
// (m % (64 GM) == 0, q % 128 == 0, n % BK == 0). Run by sgemm_prefetch.py.
#define BM (64 * GM)
#define PA (BM + 4)
#define SA (BK * PA)
#define SB (BK * 128)
extern "C" __global__ void __launch_bounds__(256, MINB)
mm_pf(const float* __restrict__ A, const float* __restrict__ B0, float* __restrict__ out0, int m, int n, int q)
{
  extern __shared__ __align__(16) float smem[];
  const int tid = threadIdx.y * 16 + threadIdx.x;
  const int by = blockIdx.y, bx = blockIdx.x;
  const int rbase = threadIdx.y * 4, cbase = threadIdx.x * 4;
  float acc[GM * 32];
  #pragma unroll
  for (int i = 0; i < GM * 32; ++i) acc[i] = 0.0f;
  const int nk = n / BK;
  auto issue = [&](int c, int s) {
    float* shA = smem + s * (SA + SB);
    float* shB = shA + SA;
    const int kk = c * BK;
    #pragma unroll
    for (int c_ = 0; c_ < BM * BK / 256; ++c_) {
      const int t = tid + c_ * 256;
      const int r = t / BK, e = t % BK;
      tiler_cp_async<4>(&shA[e * PA + r], &A[tiler_min(by * BM + r, m - 1) * n + kk + e], true);
    }
    #pragma unroll
    for (int c_ = 0; c_ < BK / 8; ++c_) {
      const int t = tid + c_ * 256;
      const int r = t % 32 * 4, e = t / 32;
      tiler_cp_async<16>(&shB[e * 128 + r], &B0[tiler_min(bx * 128 + r, q - 4) + (kk + e) * q], true);
    }
  };
  auto frag = [&](int s, int k, float* a, float* b) {
    const float* shA = smem + s * (SA + SB);
    const float* shB = shA + SA;
    #pragma unroll
    for (int g = 0; g < GM; ++g) {
      const float4 va = *reinterpret_cast<const float4*>(&shA[g * 64 + rbase + k * PA]);
      a[g * 4] = va.x; a[g * 4 + 1] = va.y; a[g * 4 + 2] = va.z; a[g * 4 + 3] = va.w;
    }
    #pragma unroll
    for (int g = 0; g < 2; ++g) {
      const float4 vb = *reinterpret_cast<const float4*>(&shB[g * 64 + cbase + k * 128]);
      b[g * 4] = vb.x; b[g * 4 + 1] = vb.y; b[g * 4 + 2] = vb.z; b[g * 4 + 3] = vb.w;
    }
  };
  auto fma = [&](const float* a, const float* b) {
    #pragma unroll
    for (int i = 0; i < 4 * GM; ++i)
      #pragma unroll
      for (int j = 0; j < 8; ++j) acc[i * 8 + j] += a[i] * b[j];
  };
#if PF == 2
  #pragma unroll
  for (int s = 0; s < STAGES; ++s) {
    if (s < nk) issue(s, s);
    tiler_cp_async_commit();
  }
  tiler_cp_async_wait<STAGES - 1>();
  __syncthreads();
  float a[2][4 * GM], b[2][8];
  frag(0, 0, a[0], b[0]);
  for (int c = 0; c < nk; ++c) {
    const int s = c % STAGES;
    #pragma unroll
    for (int k = 0; k < BK; ++k) {
      if (k == BK - 1) {
        // chunk c+1 is copied, and every thread holds chunk c's last step: its buffer is free
        tiler_cp_async_wait<STAGES - 2>();
        __syncthreads();
        if (c + STAGES < nk) issue(c + STAGES, s);
        tiler_cp_async_commit();
        if (c + 1 < nk) frag((c + 1) % STAGES, 0, a[(k + 1) % 2], b[(k + 1) % 2]);
      } else {
        frag(s, k + 1, a[(k + 1) % 2], b[(k + 1) % 2]);
      }
      fma(a[k % 2], b[k % 2]);
    }
  }
#else
  #pragma unroll
  for (int s = 0; s < STAGES - 1; ++s) {
    if (s < nk) issue(s, s);
    tiler_cp_async_commit();
  }
  for (int c = 0; c < nk; ++c) {
    tiler_cp_async_wait<STAGES - 2>();
    __syncthreads();
    if (c + STAGES - 1 < nk) issue(c + STAGES - 1, (c + STAGES - 1) % STAGES);
    tiler_cp_async_commit();
    const int s = c % STAGES;
#if PF == 1
    float a[2][4 * GM], b[2][8];
    frag(s, 0, a[0], b[0]);
    #pragma unroll
    for (int k = 0; k < BK; ++k) {
      if (k + 1 < BK) frag(s, k + 1, a[(k + 1) % 2], b[(k + 1) % 2]);
      fma(a[k % 2], b[k % 2]);
    }
#else
    #pragma unroll
    for (int k = 0; k < BK; ++k) {
      float a[4 * GM], b[8];
      frag(s, k, a, b);
      fma(a, b);
    }
#endif
  }
#endif
  #pragma unroll
  for (int g0 = 0; g0 < GM; ++g0)
    #pragma unroll
    for (int l0 = 0; l0 < 4; ++l0) {
      const int row = by * BM + g0 * 64 + rbase + l0;
      #pragma unroll
      for (int g1 = 0; g1 < 2; ++g1) {
        const int col = bx * 128 + g1 * 64 + cbase;
        if (row < m && col < q)
          *reinterpret_cast<float4*>(&out0[row * q + col]) = make_float4(
              acc[(g0 * 4 + l0) * 8 + g1 * 4], acc[(g0 * 4 + l0) * 8 + g1 * 4 + 1],
              acc[(g0 * 4 + l0) * 8 + g1 * 4 + 2], acc[(g0 * 4 + l0) * 8 + g1 * 4 + 3]);
      }
    }
}
