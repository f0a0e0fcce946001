// A standalone test of Hopper's wgmma for tiler's next step (issue 58): a
// bf16 product C = A B (A row-major, so K-major; B row-major, so MN-major:
// the transposed operand, imm-trans-b = 1) summed in f32, from shared tiles
// laid out with the 128-byte swizzle and written by cp.async, in a
// 128 x 128 block tile of two warp groups, chunks of 64, three stages.
// It checks the descriptors (B's leading and stride byte offsets both ways)
// against a plain kernel and times the one that is right. Build: nvcc
// -gencode arch=compute_90a,code=sm_90a -O3 -o wgmma wgmma_bf16.cu (wgmma
// needs sm_90a's PTX); run: ./wgmma [M N K], each a multiple of 128.
#include <cuda_bf16.h>
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <vector>
#include <algorithm>

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA %s at %d\n", cudaGetErrorString(e), __LINE__); exit(1); } } while (0)

constexpr int BM = 128, BN = 128, BK = 64, STAGES = 3, THREADS = 256;
constexpr int A_BYTES = BM * BK * 2, B_BYTES = BK * BN * 2, STAGE_BYTES = A_BYTES + B_BYTES;

__device__ __forceinline__ uint32_t smem(const void* p) { return (uint32_t)__cvta_generic_to_shared(p); }

__device__ __forceinline__ void cp_async16(uint32_t dst, const void* src) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" :: "r"(dst), "l"(src));
}
__device__ __forceinline__ void cp_commit() { asm volatile("cp.async.commit_group;\n"); }
template <int N> __device__ __forceinline__ void cp_wait() { asm volatile("cp.async.wait_group %0;\n" :: "n"(N)); }

// a 128-byte-swizzled tile's descriptor: start, leading and stride byte offsets (sm_90: layout type 1 = 128B)
__device__ __forceinline__ uint64_t desc(uint32_t start, uint32_t lbo, uint32_t sbo) {
  return (uint64_t)((start & 0x3FFFF) >> 4) | ((uint64_t)((lbo >> 4) & 0x3FFF) << 16) |
         ((uint64_t)((sbo >> 4) & 0x3FFF) << 32) | ((uint64_t)1 << 62);
}

__device__ __forceinline__ void wg_fence() { asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory"); }
__device__ __forceinline__ void wg_commit() { asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory"); }
template <int N> __device__ __forceinline__ void wg_wait() { asm volatile("wgmma.wait_group.sync.aligned %0;\n" :: "n"(N) : "memory"); }
__device__ __forceinline__ void proxy_fence() { asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory"); }

__device__ __forceinline__ void wgmma_m64n128k16_bf16(float (&d)[64], uint64_t da, uint64_t db) {
  asm volatile(
      "{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 "
      "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}, %64, %65, p, 1, 1, 0, 1;\n}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
      : "l"(da), "l"(db), "r"(1));
}

// the chunk's tiles into stage `st`: A as 128 rows of 64 (128 bytes a row,
// 16-byte unit c of row r at unit c ^ (r % 8)); B as two blocks of 64
// columns, each 64 rows (k) of 64 columns, swizzled by k % 8
__device__ __forceinline__ void load_stage(uint32_t base, const __nv_bfloat16* A, const __nv_bfloat16* B, int K, int N,
                                           int bm, int bn, int k0) {
  const int tid = threadIdx.x;
  #pragma unroll
  for (int j = 0; j < 4; ++j) {
    const int i = tid + j * THREADS, r = i / 8, c = i % 8;
    cp_async16(base + r * 128 + ((c ^ (r % 8)) * 16), A + (size_t)(bm + r) * K + k0 + c * 8);
  }
  #pragma unroll
  for (int j = 0; j < 4; ++j) {
    const int i = tid + j * THREADS, k = i / 16, nb = (i % 16) / 8, c = i % 8;
    cp_async16(base + A_BYTES + nb * 8192 + k * 128 + ((c ^ (k % 8)) * 16), B + (size_t)(k0 + k) * N + bn + nb * 64 + c * 8);
  }
}

template <bool CUTLASS_ORDER>
__global__ void __launch_bounds__(THREADS) gemm(const __nv_bfloat16* A, const __nv_bfloat16* B, float* C, int M, int N, int K) {
  extern __shared__ unsigned char raw[];
  const uint32_t base = (smem(raw) + 1023) & ~1023u;
  const int bm = blockIdx.y * BM, bn = blockIdx.x * BN;
  const int wg = threadIdx.x / 128, warp = (threadIdx.x % 128) / 32, lane = threadIdx.x % 32;
  float d[64];
  #pragma unroll
  for (int i = 0; i < 64; ++i) d[i] = 0.f;
  const int chunks = K / BK;
  for (int s = 0; s < STAGES - 1; ++s) {
    if (s < chunks) load_stage(base + s * STAGE_BYTES, A, B, K, N, bm, bn, s * BK);
    cp_commit();
  }
  for (int kc = 0; kc < chunks; ++kc) {
    cp_wait<STAGES - 2>();
    proxy_fence();
    __syncthreads();
    const int next = kc + STAGES - 1;
    if (next < chunks) load_stage(base + (next % STAGES) * STAGE_BYTES, A, B, K, N, bm, bn, next * BK);
    cp_commit();
    const uint32_t a = base + (kc % STAGES) * STAGE_BYTES + wg * 64 * 128, b = base + (kc % STAGES) * STAGE_BYTES + A_BYTES;
    wg_fence();
    #pragma unroll
    for (int s = 0; s < BK / 16; ++s) {
      const uint64_t da = desc(a + s * 32, 16, 1024);
      const uint64_t db = CUTLASS_ORDER ? desc(b + s * 2048, 8192, 1024) : desc(b + s * 2048, 1024, 8192);
      wgmma_m64n128k16_bf16(d, da, db);
    }
    wg_commit();
    wg_wait<0>();
  }
  // d[v]: row 16 warp + lane / 4 + 8 ((v / 2) % 2), column 8 (v / 4) + 2 (lane % 4) + v % 2
  const int row = bm + wg * 64 + warp * 16 + lane / 4, col = bn + 2 * (lane % 4);
  #pragma unroll
  for (int v2 = 0; v2 < 16; ++v2) {
    *reinterpret_cast<float2*>(C + (size_t)row * N + col + 8 * v2) = make_float2(d[4 * v2], d[4 * v2 + 1]);
    *reinterpret_cast<float2*>(C + (size_t)(row + 8) * N + col + 8 * v2) = make_float2(d[4 * v2 + 2], d[4 * v2 + 3]);
  }
}

__global__ void reference(const __nv_bfloat16* A, const __nv_bfloat16* B, float* C, int M, int N, int K) {
  const int i = blockIdx.y * blockDim.y + threadIdx.y, j = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= M || j >= N) return;
  float s = 0.f;
  for (int k = 0; k < K; ++k) s += __bfloat162float(A[(size_t)i * K + k]) * __bfloat162float(B[(size_t)k * N + j]);
  C[(size_t)i * N + j] = s;
}

template <bool ORDER>
float run(const __nv_bfloat16* A, const __nv_bfloat16* B, float* C, int M, int N, int K, int reps) {
  const int bytes = STAGES * STAGE_BYTES + 1024;
  CHECK(cudaFuncSetAttribute(gemm<ORDER>, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
  dim3 grid(N / BN, M / BM);
  gemm<ORDER><<<grid, THREADS, bytes>>>(A, B, C, M, N, K);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::vector<float> t;
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0); cudaEventCreate(&e1);
  for (int r = 0; r < reps; ++r) {
    cudaEventRecord(e0);
    gemm<ORDER><<<grid, THREADS, bytes>>>(A, B, C, M, N, K);
    cudaEventRecord(e1);
    cudaEventSynchronize(e1);
    float ms; cudaEventElapsedTime(&ms, e0, e1); t.push_back(ms);
  }
  std::sort(t.begin(), t.end());
  return t.empty() ? 0.f : t[t.size() / 2];
}

double worst(const float* got, const float* want, size_t n) {
  double w = 0, scale = 1e-6;
  for (size_t i = 0; i < n; ++i) scale = std::max(scale, (double)std::abs(want[i]));
  for (size_t i = 0; i < n; ++i) w = std::max(w, std::abs((double)got[i] - want[i]) / scale);
  return w;
}

int main(int argc, char** argv) {
  const int M = argc > 3 ? atoi(argv[1]) : 4096, N = argc > 3 ? atoi(argv[2]) : 4096, K = argc > 3 ? atoi(argv[3]) : 4096;
  std::vector<__nv_bfloat16> a((size_t)M * K), b((size_t)K * N);
  srand(1);
  for (auto& x : a) x = __float2bfloat16((rand() % 2001 - 1000) / 1000.f);
  for (auto& x : b) x = __float2bfloat16((rand() % 2001 - 1000) / 1000.f);
  __nv_bfloat16 *A, *B; float *C, *R;
  CHECK(cudaMalloc(&A, a.size() * 2)); CHECK(cudaMalloc(&B, b.size() * 2));
  CHECK(cudaMalloc(&C, (size_t)M * N * 4)); CHECK(cudaMalloc(&R, (size_t)M * N * 4));
  CHECK(cudaMemcpy(A, a.data(), a.size() * 2, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(B, b.data(), b.size() * 2, cudaMemcpyHostToDevice));
  reference<<<dim3((N + 15) / 16, (M + 15) / 16), dim3(16, 16)>>>(A, B, R, M, N, K);
  CHECK(cudaDeviceSynchronize());
  std::vector<float> want((size_t)M * N), got((size_t)M * N);
  CHECK(cudaMemcpy(want.data(), R, want.size() * 4, cudaMemcpyDeviceToHost));
  for (int order = 1; order >= 0; --order) {
    CHECK(cudaMemset(C, 0xff, (size_t)M * N * 4));
    const float ms = order ? run<true>(A, B, C, M, N, K, 10) : run<false>(A, B, C, M, N, K, 10);
    CHECK(cudaMemcpy(got.data(), C, got.size() * 4, cudaMemcpyDeviceToHost));
    printf("B's offsets %s: worst relative difference %.3g, median %.4f ms, %.1f TFLOP/s (M=%d N=%d K=%d)\n",
           order ? "as CUTLASS (LBO 8192, SBO 1024)" : "swapped (LBO 1024, SBO 8192)", worst(got.data(), want.data(), got.size()),
           ms, 2.0 * M * N * K / ms / 1e9, M, N, K);
  }
  return 0;
}
