// A standalone measurement for issue 58 (twenty-eighth session): C = A Btᵀ (A: M x K, Bt: N x K, both
// row-major, so both K-major as TF32's wgmma wants), in TF32 and in bf16 summed in f32, with the structure
// cuBLAS's Hopper kernels have and tiler's do not: one producer thread copying each chunk's tiles by TMA
// (cp.async.bulk.tensor, 128-byte swizzle) into a ring of STAGES buffers, two consumer warp groups waiting on
// each buffer's mbarrier, issuing its instructions, and keeping one chunk's instructions in flight
// (wgmma.wait_group 1) before they free the buffer before it. No __syncthreads in the main loop. Block tile
// BM x BN (BN = 128 or 256: m64nBN), chunks of one 128-byte line a row, tiles in groups of G rows (0: the
// launch's order). Checked against a plain f32 kernel; timed with CUDA events.
// Build: nvcc -gencode arch=compute_90a,code=sm_90a -O3 -o ws wgmma_ws.cu -lcuda
// Run: ./ws M N K [all] (multiples of the tile and of a chunk); TF32, then bf16
#include <cuda.h>
#include <cuda_runtime.h>
#include <cuda_bf16.h>
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <vector>
#include <algorithm>

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA %s at %d\n", cudaGetErrorString(e), __LINE__); exit(1); } } while (0)

constexpr int BM = 128, LINE = 128;  // a chunk: one 128-byte line of each row

__device__ __forceinline__ uint32_t smem(const void* p) { return (uint32_t)__cvta_generic_to_shared(p); }

__device__ __forceinline__ uint64_t desc(uint32_t start) {  // K-major, 128-byte swizzle, 8 rows of 128 bytes a stride
  return (uint64_t)((start & 0x3FFFF) >> 4) | ((uint64_t)1 << 16) | ((uint64_t)(1024 >> 4) << 32) | ((uint64_t)1 << 62);
}

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
__device__ __forceinline__ void wg_fence() { asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory"); }
__device__ __forceinline__ void wg_commit() { asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory"); }
template <int N> __device__ __forceinline__ void wg_wait() { asm volatile("wgmma.wait_group.sync.aligned %0;\n" :: "n"(N) : "memory"); }

__device__ __forceinline__ void wgmma_n128(float (&d)[64], uint64_t da, uint64_t db, const float*) {
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n"
               "wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}, %64, %65, p, 1, 1;\n}\n"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
               : "l"(da), "l"(db), "r"(1));
}
__device__ __forceinline__ void wgmma_n256(float (&d)[128], uint64_t da, uint64_t db, const float*) {
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %130, 0;\n"
               "wgmma.mma_async.sync.aligned.m64n256k8.f32.tf32.tf32 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, %96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, %112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127}, %128, %129, p, 1, 1;\n}\n"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]), "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]), "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]), "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]), "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]), "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]), "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]), "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])
               : "l"(da), "l"(db), "r"(1));
}
__device__ __forceinline__ void wgmma_n128(float (&d)[64], uint64_t da, uint64_t db, const __nv_bfloat16*) {
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n"
               "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}, %64, %65, p, 1, 1, 0, 0;\n}\n"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
               : "l"(da), "l"(db), "r"(1));
}
__device__ __forceinline__ void wgmma_n256(float (&d)[128], uint64_t da, uint64_t db, const __nv_bfloat16*) {
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %130, 0;\n"
               "wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, %96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, %112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127}, %128, %129, p, 1, 1, 0, 0;\n}\n"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]), "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]), "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]), "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]), "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]), "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]), "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]), "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])
               : "l"(da), "l"(db), "r"(1));
}

template <int N> struct Mma;
template <> struct Mma<128> {
  template <class In> static __device__ __forceinline__ void run(float (&d)[64], uint64_t a, uint64_t b, const In* t) { wgmma_n128(d, a, b, t); }
};
template <> struct Mma<256> {
  template <class In> static __device__ __forceinline__ void run(float (&d)[128], uint64_t a, uint64_t b, const In* t) { wgmma_n256(d, a, b, t); }
};

template <class In, int BN, int STAGES, int G>
__global__ void __launch_bounds__(384, 1) gemm(const __grid_constant__ CUtensorMap ma, const __grid_constant__ CUtensorMap mb,
                                               float* C, int M, int N, int K) {
  constexpr int BK = LINE / sizeof(In), A_BYTES = BM * LINE, B_BYTES = BN * LINE, STAGE = A_BYTES + B_BYTES;
  extern __shared__ unsigned char raw[];
  const uint32_t base = (smem(raw) + 1023) & ~1023u;
  __shared__ __align__(8) uint64_t full[STAGES], empty[STAGES];
  const int wg = threadIdx.x / 128, lane = threadIdx.x % 32, warp = (threadIdx.x % 128) / 32;
  // G > 0: consecutive blocks take G rows of tiles down each column of tiles (a wave shares panels in L2)
  const int tiles_n = N / BN, tiles_m = M / BM, id = blockIdx.x, first = id / (G * tiles_n) * G;
  const int rows = G ? min(tiles_m - first, G) : 1;
  const int tm = G ? first + id % (G * tiles_n) % rows : id / tiles_n;
  const int tn = G ? id % (G * tiles_n) / rows : id % tiles_n;
  const int bm = tm * BM, bn = tn * BN, chunks = K / BK;
  if (threadIdx.x == 0) {
    for (int s = 0; s < STAGES; ++s) { bar_init(smem(&full[s]), 1); bar_init(smem(&empty[s]), 2); }
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
  }
  __syncthreads();
  if (wg == 2) {  // the producer: one thread issues every copy
    if (threadIdx.x == 256) {
      for (int kc = 0; kc < chunks; ++kc) {
        const int s = kc % STAGES, round = kc / STAGES;
        if (round > 0) bar_wait(smem(&empty[s]), (round - 1) & 1);
        bar_expect(smem(&full[s]), STAGE);
        tma_load(base + s * STAGE, &ma, kc * BK, bm, smem(&full[s]));
        tma_load(base + s * STAGE + A_BYTES, &mb, kc * BK, bn, smem(&full[s]));
      }
    }
    return;
  }
  float d[BN / 2];
  #pragma unroll
  for (int i = 0; i < BN / 2; ++i) d[i] = 0.f;
  for (int kc = 0; kc < chunks; ++kc) {
    const int s = kc % STAGES;
    bar_wait(smem(&full[s]), (kc / STAGES) & 1);
    const uint32_t a = base + s * STAGE + wg * 64 * 128, b = base + s * STAGE + A_BYTES;
    wg_fence();
    #pragma unroll
    for (int k = 0; k < 4; ++k) Mma<BN>::run(d, desc(a + k * 32), desc(b + k * 32), (const In*)nullptr);
    wg_commit();
    wg_wait<1>();  // the chunk before this one is done: its buffer is free
    if (kc > 0 && threadIdx.x % 128 == 0) bar_arrive(smem(&empty[(kc - 1) % STAGES]));
  }
  wg_wait<0>();
  // d[v]: row 16 warp + lane / 4 + 8 ((v / 2) % 2), column 8 (v / 4) + 2 (lane % 4) + v % 2
  const int row = bm + wg * 64 + warp * 16 + lane / 4, col = bn + 2 * (lane % 4);
  #pragma unroll
  for (int q = 0; q < BN / 8; ++q) {
    *reinterpret_cast<float2*>(C + (size_t)row * N + col + 8 * q) = make_float2(d[4 * q], d[4 * q + 1]);
    *reinterpret_cast<float2*>(C + (size_t)(row + 8) * N + col + 8 * q) = make_float2(d[4 * q + 2], d[4 * q + 3]);
  }
}

// The same without a producer warp group (the twenty-ninth session's question: can tiler keep its block of two
// warp groups?): thread 0 of the first consumer group issues the copies, refilling at chunk kc the buffer of chunk
// kc - LAG (freed by both groups LAG - 1 chunks earlier), STAGES buffers, MINB blocks an SM.
template <class In, int BN, int STAGES, int G, int LAG, int MINB>
__global__ void __launch_bounds__(256, MINB) gemm_inline(const __grid_constant__ CUtensorMap ma,
                                                         const __grid_constant__ CUtensorMap mb,
                                                         float* C, int M, int N, int K) {
  constexpr int BK = LINE / sizeof(In), A_BYTES = BM * LINE, B_BYTES = BN * LINE, STAGE = A_BYTES + B_BYTES;
  extern __shared__ unsigned char raw[];
  const uint32_t base = (smem(raw) + 1023) & ~1023u;
  __shared__ __align__(8) uint64_t full[STAGES], empty[STAGES];
  const int wg = threadIdx.x / 128, lane = threadIdx.x % 32, warp = (threadIdx.x % 128) / 32;
  const int tiles_n = N / BN, tiles_m = M / BM, id = blockIdx.x, first = id / (G * tiles_n) * G;
  const int rows = G ? min(tiles_m - first, G) : 1;
  const int tm = G ? first + id % (G * tiles_n) % rows : id / tiles_n;
  const int tn = G ? id % (G * tiles_n) / rows : id % tiles_n;
  const int bm = tm * BM, bn = tn * BN, chunks = K / BK;
  if (threadIdx.x == 0) {
    for (int s = 0; s < STAGES; ++s) { bar_init(smem(&full[s]), 1); bar_init(smem(&empty[s]), 2); }
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    for (int kc = 0; kc < min(STAGES, chunks); ++kc) {
      bar_expect(smem(&full[kc]), STAGE);
      tma_load(base + kc * STAGE, &ma, kc * BK, bm, smem(&full[kc]));
      tma_load(base + kc * STAGE + A_BYTES, &mb, kc * BK, bn, smem(&full[kc]));
    }
  }
  float d[BN / 2];
  #pragma unroll
  for (int i = 0; i < BN / 2; ++i) d[i] = 0.f;
  for (int kc = 0; kc < chunks; ++kc) {
    const int s = kc % STAGES;
    bar_wait(smem(&full[s]), (kc / STAGES) & 1);
    const uint32_t a = base + s * STAGE + wg * 64 * 128, b = base + s * STAGE + A_BYTES;
    wg_fence();
    #pragma unroll
    for (int k = 0; k < 4; ++k) Mma<BN>::run(d, desc(a + k * 32), desc(b + k * 32), (const In*)nullptr);
    wg_commit();
    wg_wait<1>();
    if (kc > 0 && threadIdx.x % 128 == 0) bar_arrive(smem(&empty[(kc - 1) % STAGES]));
    const int old = kc - LAG, next = old + STAGES;
    if (threadIdx.x == 0 && old >= 0 && next < chunks) {
      const int r = old % STAGES;
      bar_wait(smem(&empty[r]), (old / STAGES) & 1);
      bar_expect(smem(&full[r]), STAGE);
      tma_load(base + r * STAGE, &ma, next * BK, bm, smem(&full[r]));
      tma_load(base + r * STAGE + A_BYTES, &mb, next * BK, bn, smem(&full[r]));
    }
  }
  wg_wait<0>();
  const int row = bm + wg * 64 + warp * 16 + lane / 4, col = bn + 2 * (lane % 4);
  #pragma unroll
  for (int q = 0; q < BN / 8; ++q) {
    *reinterpret_cast<float2*>(C + (size_t)row * N + col + 8 * q) = make_float2(d[4 * q], d[4 * q + 1]);
    *reinterpret_cast<float2*>(C + (size_t)(row + 8) * N + col + 8 * q) = make_float2(d[4 * q + 2], d[4 * q + 3]);
  }
}

__device__ __forceinline__ float wide(float x) { return x; }
__device__ __forceinline__ float wide(__nv_bfloat16 x) { return __bfloat162float(x); }

template <class In>
__global__ void reference(const In* A, const In* B, float* C, int M, int N, int K) {
  const int i = blockIdx.y * blockDim.y + threadIdx.y, j = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= M || j >= N) return;
  float s = 0.f;
  for (int k = 0; k < K; ++k) s += wide(A[(size_t)i * K + k]) * wide(B[(size_t)j * K + k]);
  C[(size_t)i * N + j] = s;
}

template <class In>
static CUtensorMap make_map(const In* p, int rows, int cols, int box_rows) {
  CUtensorMap m;
  cuuint64_t dims[2] = {(cuuint64_t)cols, (cuuint64_t)rows}, strides[1] = {(cuuint64_t)cols * sizeof(In)};
  cuuint32_t box[2] = {(cuuint32_t)(LINE / sizeof(In)), (cuuint32_t)box_rows}, es[2] = {1, 1};
  const CUtensorMapDataType type = sizeof(In) == 4 ? CU_TENSOR_MAP_DATA_TYPE_FLOAT32 : CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
  CUresult r = cuTensorMapEncodeTiled(&m, type, 2, (void*)p, dims, strides, box, es, CU_TENSOR_MAP_INTERLEAVE_NONE,
                                      CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                                      CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS) { printf("cuTensorMapEncodeTiled: %d\n", (int)r); exit(1); }
  return m;
}

template <class In, int BN, int STAGES, class Kernel>
void run(Kernel kernel, int threads, const char* label, const In* A, const In* B, float* C, const float* R, int M,
         int N, int K, int reps) {
  constexpr int bytes = STAGES * (BM + BN) * LINE + 1024;
  CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
  const CUtensorMap ma = make_map(A, M, K, BM), mb = make_map(B, N, K, BN);
  dim3 grid((N / BN) * (M / BM));
  CHECK(cudaMemset(C, 0xff, (size_t)M * N * 4));
  kernel<<<grid, threads, bytes>>>(ma, mb, C, M, N, K);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::vector<float> got((size_t)M * N), want((size_t)M * N);
  CHECK(cudaMemcpy(got.data(), C, got.size() * 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(want.data(), R, want.size() * 4, cudaMemcpyDeviceToHost));
  double worst = 0, scale = 1e-6;
  for (float w : want) scale = std::max(scale, (double)std::abs(w));
  for (size_t i = 0; i < got.size(); ++i) worst = std::max(worst, std::abs((double)got[i] - want[i]) / scale);
  int per_sm = 0;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, bytes));
  std::vector<float> t;
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0); cudaEventCreate(&e1);
  for (int r = 0; r < reps + 2; ++r) {
    cudaEventRecord(e0);
    kernel<<<grid, threads, bytes>>>(ma, mb, C, M, N, K);
    cudaEventRecord(e1);
    cudaEventSynchronize(e1);
    float ms; cudaEventElapsedTime(&ms, e0, e1);
    if (r >= 2) t.push_back(ms);
  }
  std::sort(t.begin(), t.end());
  printf("%s %s BN %d stages %d, %d blocks an SM: worst relative difference %.3g, median %.4f ms, %.1f TFLOP/s "
         "(M=%d N=%d K=%d)\n", sizeof(In) == 4 ? "tf32" : "bf16", label, BN, STAGES, per_sm, worst, t[t.size() / 2],
         2.0 * M * N * K / t[t.size() / 2] / 1e9, M, N, K);
}

template <class In>
void product(int M, int N, int K, bool all) {
  std::vector<In> a((size_t)M * K), b((size_t)N * K);
  srand(1);
  for (auto& x : a) x = (In)((rand() % 2001 - 1000) / 1000.f);
  for (auto& x : b) x = (In)((rand() % 2001 - 1000) / 1000.f);
  In *A, *B; float *C, *R;
  CHECK(cudaMalloc(&A, a.size() * sizeof(In))); CHECK(cudaMalloc(&B, b.size() * sizeof(In)));
  CHECK(cudaMalloc(&C, (size_t)M * N * 4)); CHECK(cudaMalloc(&R, (size_t)M * N * 4));
  CHECK(cudaMemcpy(A, a.data(), a.size() * sizeof(In), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(B, b.data(), b.size() * sizeof(In), cudaMemcpyHostToDevice));
  reference<<<dim3((N + 15) / 16, (M + 15) / 16), dim3(16, 16)>>>(A, B, R, M, N, K);
  CHECK(cudaDeviceSynchronize());
  if (all) {
    run<In, 128, 6>(gemm<In, 128, 6, 0>, 384, "producer group, launch order", A, B, C, R, M, N, K, 10);
    run<In, 256, 4>(gemm<In, 256, 4, 16>, 384, "producer group, groups of 16", A, B, C, R, M, N, K, 10);
  }
  run<In, 128, 6>(gemm<In, 128, 6, 8>, 384, "producer group, groups of 8", A, B, C, R, M, N, K, 10);
  run<In, 256, 4>(gemm<In, 256, 4, 8>, 384, "producer group, groups of 8", A, B, C, R, M, N, K, 10);
  run<In, 128, 3>(gemm_inline<In, 128, 3, 8, 1, 2>, 256, "inline, lag 1", A, B, C, R, M, N, K, 10);
  run<In, 128, 3>(gemm_inline<In, 128, 3, 8, 2, 2>, 256, "inline, lag 2", A, B, C, R, M, N, K, 10);
  run<In, 128, 4>(gemm_inline<In, 128, 4, 8, 2, 1>, 256, "inline, lag 2", A, B, C, R, M, N, K, 10);
  run<In, 128, 6>(gemm_inline<In, 128, 6, 8, 2, 1>, 256, "inline, lag 2", A, B, C, R, M, N, K, 10);
  run<In, 256, 4>(gemm_inline<In, 256, 4, 8, 1, 1>, 256, "inline, lag 1", A, B, C, R, M, N, K, 10);
  run<In, 256, 4>(gemm_inline<In, 256, 4, 8, 2, 1>, 256, "inline, lag 2", A, B, C, R, M, N, K, 10);
  cudaFree(A); cudaFree(B); cudaFree(C); cudaFree(R);
}

int main(int argc, char** argv) {
  const int M = argc > 3 ? atoi(argv[1]) : 4096, N = argc > 3 ? atoi(argv[2]) : 4096, K = argc > 3 ? atoi(argv[3]) : 4096;
  const bool all = argc > 4 && argv[4][0] == 'a';
  product<float>(M, N, K, all);
  product<__nv_bfloat16>(M, N, K, all);
  return 0;
}
