// A hand-written variant of tiler's register-tiled matrix product (16 x 16
// threads, 8 x 8 points a thread, chunk BK), to measure three techniques
// before building them: an S-stage cp.async pipeline (A's tile transposed by
// 4-byte copies, B's rows by 16-byte copies; one barrier a chunk, no
// prefetch registers), blocks without clamps (CLAMP 0: sizes the tiles
// divide only), a 4 x 8 warp layout (WARP 1) instead of 2 x 16, and GM
// groups of 4 rows a thread (GM 4: 16 x 8 points a thread, a 256 x 128 block
// tile, one block an SM, as cuBLAS's own FFMA kernel on sm_90 is shaped)
// and a chunk of BK (8 or 16); A's tile padded by PAD (4 or 0) a line.
// Needs tiler.cuh's helpers (tiler_min, tiler_cp_async*) before it; n % 16
// == 0 assumed. Run by mm_pipeline.py; the results are in RESULTS.md.
// AVEC 1: A's tile kept as A lays it out (k fastest, a line of BK + 4), copied
// by 16-byte cp.async, and read four steps at a time by 16-byte loads.
// RASTER g: blocks in groups of g block rows (L2 reuse of B's panels).
#ifndef AVEC
#define AVEC 0
#endif
#ifndef RASTER
#define RASTER 0
#endif
#ifndef STAGES
#define STAGES 3
#endif
#ifndef WARP
#define WARP 0
#endif
#ifndef CLAMP
#define CLAMP 1
#endif
#ifndef GM
#define GM 2
#endif
#ifndef BK
#define BK 16
#endif
#define BM (64 * GM)
#ifndef PAD
#define PAD 4
#endif
#if AVEC
#define PA (BK + 4)
#define SA (BM * PA)
#else
#define PA (BM + PAD)
#define SA (BK * PA)
#endif
#define SB (BK * 128)
extern "C" __global__ void __launch_bounds__(256, GM == 2 ? 2 : 1)
mm_async(const float* __restrict__ A, const float* __restrict__ B0, float* __restrict__ out0, int m, int n, int q)
{
  extern __shared__ __align__(16) float smem[];
  const int tid = threadIdx.y * 16 + threadIdx.x;
#if RASTER
  const int gx = gridDim.x, gy = gridDim.y, bid = blockIdx.y * gx + blockIdx.x;
  const int group = bid / (RASTER * gx), first = group * RASTER, rows_g = min(gy - first, RASTER);
  const int by = first + (bid % (RASTER * gx)) % rows_g, bx = (bid % (RASTER * gx)) / rows_g;
#else
  const int by = blockIdx.y, bx = blockIdx.x;
#endif
#if WARP
  const int lane = tid % 32, warp = tid / 32;
  const int rbase = warp / 2 * 16 + lane / 8 * 4, cbase = warp % 2 * 32 + lane % 8 * 4;
#else
  const int rbase = threadIdx.y * 4, cbase = threadIdx.x * 4;
#endif
  float acc[GM * 32];
  #pragma unroll
  for (int i = 0; i < GM * 32; ++i) acc[i] = 0.0f;
  const int nk = n / BK;
  auto issue = [&](int c, int s) {
    float* shA = smem + s * (SA + SB);
    float* shB = shA + SA;
    const int kk = c * BK;
#if AVEC
    #pragma unroll
    for (int c_ = 0; c_ < BM * BK / 1024; ++c_) {
      const int t = tid + c_ * 256;
      const int r = t / (BK / 4), e = t % (BK / 4) * 4;
#if CLAMP
      const int row = tiler_min(by * BM + r, m - 1);
#else
      const int row = by * BM + r;
#endif
      tiler_cp_async<16>(&shA[r * PA + e], &A[row * n + kk + e], true);
    }
#else
    #pragma unroll
    for (int c_ = 0; c_ < BM * BK / 256; ++c_) {
      const int t = tid + c_ * 256;
      const int r = t / BK, e = t % BK;
#if CLAMP
      const int row = tiler_min(by * BM + r, m - 1);
#else
      const int row = by * BM + r;
#endif
      tiler_cp_async<4>(&shA[e * PA + r], &A[row * n + kk + e], true);
    }
#endif
    #pragma unroll
    for (int c_ = 0; c_ < BK / 8; ++c_) {
      const int t = tid + c_ * 256;
      const int r = t % 32 * 4, e = t / 32;
#if CLAMP
      const int col = tiler_min(bx * 128 + r, q - 4);
#else
      const int col = bx * 128 + r;
#endif
      tiler_cp_async<16>(&shB[e * 128 + r], &B0[col + (kk + e) * q], true);
    }
  };
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
    const float* shA = smem + (c % STAGES) * (SA + SB);
    const float* shB = shA + SA;
#if AVEC
    #pragma unroll
    for (int k4 = 0; k4 < BK; k4 += 4) {
      float4 a4[4 * GM];
      #pragma unroll
      for (int g = 0; g < GM; ++g)
        #pragma unroll
        for (int l = 0; l < 4; ++l) a4[g * 4 + l] = *reinterpret_cast<const float4*>(&shA[(g * 64 + rbase + l) * PA + k4]);
      #pragma unroll
      for (int kq = 0; kq < 4; ++kq) {
        const int k = k4 + kq;
        float a[4 * GM], b[8];
        #pragma unroll
        for (int i = 0; i < 4 * GM; ++i) a[i] = kq == 0 ? a4[i].x : kq == 1 ? a4[i].y : kq == 2 ? a4[i].z : a4[i].w;
        #pragma unroll
        for (int g = 0; g < 2; ++g) {
          const float4 vb = *reinterpret_cast<const float4*>(&shB[g * 64 + cbase + k * 128]);
          b[g*4] = vb.x; b[g*4+1] = vb.y; b[g*4+2] = vb.z; b[g*4+3] = vb.w;
        }
        #pragma unroll
        for (int i = 0; i < 4 * GM; ++i)
          #pragma unroll
          for (int j = 0; j < 8; ++j) acc[i * 8 + j] += a[i] * b[j];
      }
    }
#else
    #pragma unroll
    for (int k = 0; k < BK; ++k) {
      float a[4 * GM], b[8];
      #pragma unroll
      for (int g = 0; g < GM; ++g) {
        const float4 va = *reinterpret_cast<const float4*>(&shA[g * 64 + rbase + k * PA]);
        a[g*4] = va.x; a[g*4+1] = va.y; a[g*4+2] = va.z; a[g*4+3] = va.w;
      }
      #pragma unroll
      for (int g = 0; g < 2; ++g) {
        const float4 vb = *reinterpret_cast<const float4*>(&shB[g * 64 + cbase + k * 128]);
        b[g*4] = vb.x; b[g*4+1] = vb.y; b[g*4+2] = vb.z; b[g*4+3] = vb.w;
      }
      #pragma unroll
      for (int i = 0; i < 4 * GM; ++i)
        #pragma unroll
        for (int j = 0; j < 8; ++j) acc[i * 8 + j] += a[i] * b[j];
    }
#endif
  }
  #pragma unroll
  for (int g0 = 0; g0 < GM; ++g0)
    #pragma unroll
    for (int l0 = 0; l0 < 4; ++l0) {
      const int row = by * BM + g0 * 64 + rbase + l0;
      #pragma unroll
      for (int g1 = 0; g1 < 2; ++g1) {
        const int col = bx * 128 + g1 * 64 + cbase;
#if CLAMP
        if (row < m && col < q)
#endif
        *reinterpret_cast<float4*>(&out0[row * q + col]) = make_float4(acc[(g0*4+l0)*8 + g1*4], acc[(g0*4+l0)*8 + g1*4+1], acc[(g0*4+l0)*8 + g1*4+2], acc[(g0*4+l0)*8 + g1*4+3]);
      }
    }
}
