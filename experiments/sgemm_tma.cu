// Issue 58's IEEE f32 product, a hand-written probe (session 41): do the
// copies cost the FFMA pipe its last 5-10%? Each chunk's tiles here are copied
// by TMA (one thread issues two boxes a chunk and every thread waits on the
// buffer's mbarrier) instead of each thread's ten cp.async and their
// addresses. Same points as tiler's plan: 16 x 16 threads, (4 GM) x 8 points a
// thread in 4 x 4 groups 64 apart, 64 FFMA and 4 LDS.128 a step.
//   AT 1: A transposed first (At: K x M), both tiles k-major: sA[k][m], sB[k][n].
//   AT 0: A's tile as A lies (sA[m][k], rows of BK floats), read four steps at
//         once along k (LDS.128 of one row), B as above.
//   REL 0: a barrier after each chunk, then thread 0 refills the buffer.
//   REL 1: each warp arrives at the buffer's `empty` mbarrier; thread 0 refills
//          the previous chunk's buffer once all eight have (no block barrier).
//   sg_cp: the same kernel copying by cp.async into the AT 1 layout (unpadded:
//         AT 0 copies from A itself, 8 scalar copies a thread, their stores in
//         conflict; AT 1 from At, 16 bytes a copy as B's are).
// Sizes the tiles divide only. Built into a library by sgemm_tma.py.
#include <cuda.h>
#include <cuda_runtime.h>
#include <cstdint>
#include <cstdio>
#include <vector>
#include <algorithm>

__device__ __forceinline__ uint32_t sm(const void* p) { return (uint32_t)__cvta_generic_to_shared(p); }
__device__ __forceinline__ void bar_init(uint32_t bar, int count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" :: "r"(bar), "r"(count));
}
__device__ __forceinline__ void bar_expect(uint32_t bar, int bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" :: "r"(bar), "r"(bytes) : "memory");
}
__device__ __forceinline__ void bar_arrive(uint32_t bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" :: "r"(bar) : "memory");
}
__device__ __forceinline__ void bar_wait(uint32_t bar, int parity) {
  asm volatile("{\n.reg .pred done;\nWAIT:\n"
               "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n"
               "@!done bra WAIT;\n}\n" :: "r"(bar), "r"(parity) : "memory");
}
__device__ __forceinline__ void tma_load(uint32_t dst, const CUtensorMap* map, int c0, int c1, uint32_t bar) {
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];\n"
               :: "r"(dst), "l"(map), "r"(c0), "r"(c1), "r"(bar) : "memory");
}
template <int B> __device__ __forceinline__ void cp_async(void* dst, const void* src) {
  if (B == 16) asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" :: "r"(sm(dst)), "l"(src) : "memory");
  else asm volatile("cp.async.ca.shared.global [%0], [%1], %2;\n" :: "r"(sm(dst)), "l"(src), "n"(B) : "memory");
}
__device__ __forceinline__ void cp_commit() { asm volatile("cp.async.commit_group;\n" ::: "memory"); }
template <int N> __device__ __forceinline__ void cp_wait() { asm volatile("cp.async.wait_group %0;\n" :: "n"(N) : "memory"); }

// the block's tile of C: groups of G block rows down each column of tiles (0: the launch's order)
template <int BM, int G>
__device__ __forceinline__ void tile_of(int M, int N, int& bm, int& bn) {
  const int tiles_n = N / 128, tiles_m = M / BM, id = blockIdx.x;
  if (G == 0) { bm = id / tiles_n * BM; bn = id % tiles_n * 128; return; }
  const int first = id / (G * tiles_n) * G, rows = min(tiles_m - first, G);
  bm = (first + id % (G * tiles_n) % rows) * BM;
  bn = id % (G * tiles_n) / rows * 128;
}

template <int GM>
__device__ __forceinline__ void store(float* C, const float* acc, int N, int bm, int bn, int rbase, int cbase) {
  #pragma unroll
  for (int g0 = 0; g0 < GM; ++g0)
    #pragma unroll
    for (int l0 = 0; l0 < 4; ++l0) {
      const int row = bm + g0 * 64 + rbase + l0;
      #pragma unroll
      for (int g1 = 0; g1 < 2; ++g1) {
        const float* a = acc + (g0 * 4 + l0) * 8 + g1 * 4;
        *reinterpret_cast<float4*>(&C[(size_t)row * N + bn + g1 * 64 + cbase]) = make_float4(a[0], a[1], a[2], a[3]);
      }
    }
}

// one step k of a chunk whose tiles are k-major: A's 4 GM values and B's 8, 32 GM multiply-adds
template <int GM>
__device__ __forceinline__ void step_kmajor(float* acc, const float* sA, const float* sB, int k, int rbase, int cbase) {
  float a[4 * GM], b[8];
  #pragma unroll
  for (int g = 0; g < GM; ++g) {
    const float4 v = *reinterpret_cast<const float4*>(&sA[k * 64 * GM + g * 64 + rbase]);
    a[g * 4] = v.x; a[g * 4 + 1] = v.y; a[g * 4 + 2] = v.z; a[g * 4 + 3] = v.w;
  }
  #pragma unroll
  for (int g = 0; g < 2; ++g) {
    const float4 v = *reinterpret_cast<const float4*>(&sB[k * 128 + g * 64 + cbase]);
    b[g * 4] = v.x; b[g * 4 + 1] = v.y; b[g * 4 + 2] = v.z; b[g * 4 + 3] = v.w;
  }
  #pragma unroll
  for (int i = 0; i < 4 * GM; ++i)
    #pragma unroll
    for (int j = 0; j < 8; ++j) acc[i * 8 + j] += a[i] * b[j];
}

// a whole chunk; AT 0: A's tile m-major (rows of BK), read four steps of a row at once
template <int BK, int GM, int AT>
__device__ __forceinline__ void chunk(float* acc, const float* sA, const float* sB, int rbase, int cbase) {
  if (AT) {
    #pragma unroll
    for (int k = 0; k < BK; ++k) step_kmajor<GM>(acc, sA, sB, k, rbase, cbase);
  } else {
    #pragma unroll
    for (int k4 = 0; k4 < BK; k4 += 4) {
      float a[4 * GM][4];
      #pragma unroll
      for (int g = 0; g < GM; ++g)
        #pragma unroll
        for (int l = 0; l < 4; ++l) {
          const float4 v = *reinterpret_cast<const float4*>(&sA[(g * 64 + rbase + l) * BK + k4]);
          a[g * 4 + l][0] = v.x; a[g * 4 + l][1] = v.y; a[g * 4 + l][2] = v.z; a[g * 4 + l][3] = v.w;
        }
      #pragma unroll
      for (int kk = 0; kk < 4; ++kk) {
        float b[8];
        #pragma unroll
        for (int g = 0; g < 2; ++g) {
          const float4 v = *reinterpret_cast<const float4*>(&sB[(k4 + kk) * 128 + g * 64 + cbase]);
          b[g * 4] = v.x; b[g * 4 + 1] = v.y; b[g * 4 + 2] = v.z; b[g * 4 + 3] = v.w;
        }
        #pragma unroll
        for (int i = 0; i < 4 * GM; ++i)
          #pragma unroll
          for (int j = 0; j < 8; ++j) acc[i * 8 + j] += a[i][kk] * b[j];
      }
    }
  }
}

template <int BK, int STAGES, int GM, int MINB, int AT, int REL, int G>
__global__ void __launch_bounds__(256, MINB)
sg_tma(const __grid_constant__ CUtensorMap ma, const __grid_constant__ CUtensorMap mb, float* C, int M, int N, int K) {
  constexpr int BM = 64 * GM, A_BYTES = BM * BK * 4, STAGE = A_BYTES + 128 * BK * 4;
  extern __shared__ __align__(128) unsigned char raw[];
  __shared__ __align__(8) uint64_t full[STAGES], empty[STAGES];
  const int tid = threadIdx.x, rbase = tid / 16 * 4, cbase = tid % 16 * 4;
  int bm, bn;
  tile_of<BM, G>(M, N, bm, bn);
  const int chunks = K / BK;
  const uint32_t base = sm(raw);
  auto issue = [&](int kc, int s) {
    bar_expect(sm(&full[s]), STAGE);
    if (AT) tma_load(base + s * STAGE, &ma, bm, kc * BK, sm(&full[s]));
    else tma_load(base + s * STAGE, &ma, kc * BK, bm, sm(&full[s]));
    tma_load(base + s * STAGE + A_BYTES, &mb, bn, kc * BK, sm(&full[s]));
  };
  if (tid == 0) {
    for (int s = 0; s < STAGES; ++s) { bar_init(sm(&full[s]), 1); bar_init(sm(&empty[s]), 8); }
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
  }
  __syncthreads();
  if (tid == 0)
    for (int s = 0; s < min(STAGES, chunks); ++s) issue(s, s);
  float acc[GM * 32];
  #pragma unroll
  for (int i = 0; i < GM * 32; ++i) acc[i] = 0.0f;
  for (int kc = 0; kc < chunks; ++kc) {
    const int s = kc % STAGES;
    bar_wait(sm(&full[s]), (kc / STAGES) & 1);
    const float* sA = reinterpret_cast<const float*>(raw + s * STAGE);
    chunk<BK, GM, AT>(acc, sA, sA + BM * BK, rbase, cbase);
    if (REL == 0) {
      __syncthreads();
      if (tid == 0 && kc + STAGES < chunks) issue(kc + STAGES, s);
    } else {
      __syncwarp();
      if (tid % 32 == 0) bar_arrive(sm(&empty[s]));
      const int old = kc - 1;  // refill the chunk before's buffer: its readers are most likely done
      if (tid == 0 && old >= 0 && old + STAGES < chunks) {
        bar_wait(sm(&empty[old % STAGES]), (old / STAGES) & 1);
        issue(old + STAGES, old % STAGES);
      }
    }
  }
  store<GM>(C, acc, N, bm, bn, rbase, cbase);
}

// the baseline: tiler's plan by cp.async (A transposed into its tile by 8 scalar copies a thread)
template <int BK, int STAGES, int GM, int MINB, int G, int AT>
__global__ void __launch_bounds__(256, MINB)
sg_cp(const float* __restrict__ A, const float* __restrict__ At, const float* __restrict__ B, float* C, int M, int N,
      int K) {
  constexpr int BM = 64 * GM, SA = BK * BM, STAGE = SA + BK * 128;
  extern __shared__ __align__(128) float smem[];
  const int tid = threadIdx.x, rbase = tid / 16 * 4, cbase = tid % 16 * 4;
  int bm, bn;
  tile_of<BM, G>(M, N, bm, bn);
  const int chunks = K / BK;
  auto issue = [&](int kc, int s) {
    float* sA = smem + s * STAGE;
    float* sB = sA + SA;
    if (AT) {  // A's copy transposed first: its tile's lines whole, 16 bytes a copy
      #pragma unroll
      for (int c = 0; c < BM * BK / 1024; ++c) {
        const int t = tid + c * 256, r = t % (BM / 4) * 4, e = t / (BM / 4);
        cp_async<16>(&sA[e * BM + r], &At[(size_t)(kc * BK + e) * M + bm + r]);
      }
    } else {
      #pragma unroll
      for (int c = 0; c < BM * BK / 256; ++c) {
        const int r = tid / BK + c * (256 / BK), e = tid % BK;
        cp_async<4>(&sA[e * BM + r], &A[(size_t)(bm + r) * K + kc * BK + e]);
      }
    }
    #pragma unroll
    for (int c = 0; c < BK / 8; ++c) {
      const int t = tid + c * 256, r = t % 32 * 4, e = t / 32;
      cp_async<16>(&sB[e * 128 + r], &B[(size_t)(kc * BK + e) * N + bn + r]);
    }
  };
  float acc[GM * 32];
  #pragma unroll
  for (int i = 0; i < GM * 32; ++i) acc[i] = 0.0f;
  #pragma unroll
  for (int s = 0; s < STAGES - 1; ++s) {
    if (s < chunks) issue(s, s);
    cp_commit();
  }
  for (int kc = 0; kc < chunks; ++kc) {
    cp_wait<STAGES - 2>();
    __syncthreads();
    if (kc + STAGES - 1 < chunks) issue(kc + STAGES - 1, (kc + STAGES - 1) % STAGES);
    cp_commit();
    const float* sA = smem + kc % STAGES * STAGE;
    chunk<BK, GM, 1>(acc, sA, sA + SA, rbase, cbase);
  }
  store<GM>(C, acc, N, bm, bn, rbase, cbase);
}

static CUtensorMap make_map(const float* p, int rows, int cols, int box_cols, int box_rows) {
  CUtensorMap m;
  cuuint64_t dims[2] = {(cuuint64_t)cols, (cuuint64_t)rows}, strides[1] = {(cuuint64_t)cols * 4};
  cuuint32_t box[2] = {(cuuint32_t)box_cols, (cuuint32_t)box_rows}, es[2] = {1, 1};
  CUresult r = cuTensorMapEncodeTiled(&m, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, (void*)p, dims, strides, box, es,
                                      CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                                      CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS) printf("cuTensorMapEncodeTiled: %d\n", (int)r);
  return m;
}

struct Variant {
  const char* name;
  int tma, at, bk, stages, gm;
  const void* kernel;
};

#define TMA(BK, ST, GM, MINB, AT, REL, G) \
  {"tma bk " #BK " stages " #ST " gm " #GM " minb " #MINB " at " #AT " rel " #REL " groups " #G, 1, AT, BK, ST, GM, \
   (const void*)sg_tma<BK, ST, GM, MINB, AT, REL, G>}
#define CPA(BK, ST, GM, MINB, G, AT) \
  {"cp.async bk " #BK " stages " #ST " gm " #GM " minb " #MINB " groups " #G " at " #AT, 0, AT, BK, ST, GM, \
   (const void*)sg_cp<BK, ST, GM, MINB, G, AT>}

static const Variant VARIANTS[] = {
    CPA(16, 3, 2, 2, 0, 1), CPA(32, 3, 2, 2, 0, 1), CPA(16, 4, 2, 2, 0, 1), CPA(8, 4, 2, 2, 0, 1),
    TMA(16, 3, 2, 2, 1, 0, 0), TMA(32, 3, 2, 2, 1, 0, 0), TMA(32, 4, 2, 2, 1, 0, 0), TMA(8, 4, 2, 2, 1, 0, 0),
    TMA(32, 2, 2, 2, 1, 0, 0), TMA(64, 2, 2, 2, 1, 0, 0), TMA(32, 3, 2, 2, 1, 0, 8),
    CPA(16, 3, 2, 2, 0, 1),
};

extern "C" int count() { return sizeof(VARIANTS) / sizeof(VARIANTS[0]); }
extern "C" const char* name(int i) { return VARIANTS[i].name; }
extern "C" int transposed(int i) { return VARIANTS[i].at; }

// runs variant i reps times (one launch first, untimed); returns the median ms, or -1 on an error;
// *regs gets the kernel's registers. A: M x K, At: K x M, B: K x N, C: M x N, all row-major.
extern "C" float run(int i, const float* A, const float* At, const float* B, float* C, int M, int N, int K, int reps,
                     int* regs) {
  const Variant& v = VARIANTS[i];
  const int bm = 64 * v.gm, bytes = v.stages * (bm + 128) * v.bk * 4;
  if (cudaFuncSetAttribute(v.kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes) != cudaSuccess) return -1;
  cudaFuncAttributes attr;
  cudaFuncGetAttributes(&attr, v.kernel);
  *regs = attr.numRegs;
  CUtensorMap ma = v.at ? make_map(At, K, M, bm, v.bk) : make_map(A, M, K, v.bk, bm);
  CUtensorMap mb = make_map(B, K, N, 128, v.bk);
  void* tma_args[] = {&ma, &mb, &C, &M, &N, &K};
  void* cp_args[] = {&A, &At, &B, &C, &M, &N, &K};
  const dim3 grid((M / bm) * (N / 128)), block(256);
  auto launch = [&]() { return cudaLaunchKernel(v.kernel, grid, block, v.tma ? tma_args : cp_args, bytes, 0); };
  if (launch() != cudaSuccess || cudaDeviceSynchronize() != cudaSuccess) return -1;
  std::vector<float> t;
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  for (int r = 0; r < reps; ++r) {
    cudaEventRecord(e0);
    launch();
    cudaEventRecord(e1);
    cudaEventSynchronize(e1);
    float ms;
    cudaEventElapsedTime(&ms, e0, e1);
    t.push_back(ms);
  }
  cudaEventDestroy(e0);
  cudaEventDestroy(e1);
  if (t.empty()) return 0;
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}
