// tiler.cuh: helpers every generated kernel uses; included into each .cu so
// that a generated file compiles on its own.
#ifndef TILER_CUH
#define TILER_CUH
#ifndef __CUDACC_RTC__
#include <math.h>
#endif

// The clamps tiler adds (a thread past the end of a dimension stands in for
// the last one) as one PTX min.s32 the front end cannot see through. ptxas
// (CUDA 12.8 and 13.0, sm_90, and the 580 driver's JIT) miscompiles two nested
// signed minimums of a thread index once the front end has rewritten them as
// maximums of negations (the start of a loop's remainder after unrolling):
// the fused three-input VIMNMX3 drops one negation, and the loop reads the
// wrong elements. tiler's clamp nested in a program's own min (`T[min(i,
// n - 1)]`) was exactly that; tests/ptxas/ holds the minimal kernel.
__device__ __forceinline__ int tiler_min(int a, int b) {
  int r;
  asm("min.s32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
  return r;
}

// A 64-bit flat offset's first product, an int index times an int size, as
// one PTX mul.wide.s32 the front end cannot see through. Written as C, the
// front end rewrote two sibling copy loops of a 64-bit-offset kernel into one
// register reused as both loops' index, and ptxas (CUDA 13.0, sm_90, -O1 and
// up) then started the second loop where the first had ended: wrong values
// or shared-memory writes past the tile (tests/FUZZ.md, seeds 304335 and
// 640373). The host's copy (launch conditions) is plain C.
__host__ __device__ __forceinline__ long long tiler_wide_mul(int a, int b) {
#ifdef __CUDA_ARCH__
  long long r;
  asm("mul.wide.s32 %0, %1, %2;" : "=l"(r) : "r"(a), "r"(b));
  return r;
#else
  return (long long)a * b;
#endif
}

// --fast-math's square roots: the hardware approximations, flushing
// subnormals to zero, without the extra steps IEEE-exact results take.
__device__ __forceinline__ float tiler_rsqrt_approx(float x) {
  float r;
  asm("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
  return r;
}
__device__ __forceinline__ float tiler_sqrt_approx(float x) {
  float r;
  asm("sqrt.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
  return r;
}
// --fast-math's exp(x) is 2^(x log2 e) with the multiply written out in the
// kernel (where it joins the program's own factors), and subnormals flushed
// to zero as in the square roots: one MUFU.EX2, where exp2f's ex2.approx
// without .ftz takes a compare and two predicated multiplies around it.
__device__ __forceinline__ float tiler_exp2_approx(float x) {
  float r;
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
  return r;
}

// cp.async: BYTES (4, 8 or 16) from global to shared memory, not waited for;
// an invalid element is zero-filled (src must still be a valid address).
// Before sm_80 the copy is an ordinary load and store.
template <int BYTES>
__device__ __forceinline__ void tiler_cp_async(void* dst, const void* src, bool valid) {
#if __CUDA_ARCH__ >= 800
  unsigned int d = (unsigned int)__cvta_generic_to_shared(dst);
  if (BYTES == 16)  // a whole 128-bit line: through L2 alone (.cg), as a stream is read once
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" :: "r"(d), "l"(src), "r"(valid ? 16 : 0));
  else
    asm volatile("cp.async.ca.shared.global [%0], [%1], %2, %3;\n" :: "r"(d), "l"(src), "n"(BYTES), "r"(valid ? BYTES : 0));
#else
  struct alignas(BYTES) chunk_t { unsigned char b[BYTES]; };
  chunk_t v = {};
  if (valid) v = *(const chunk_t*)src;
  *(chunk_t*)dst = v;
#endif
}
__device__ __forceinline__ void tiler_cp_async_commit() {
#if __CUDA_ARCH__ >= 800
  asm volatile("cp.async.commit_group;\n" ::);
#endif
}
template <int PENDING>
__device__ __forceinline__ void tiler_cp_async_wait() {
#if __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_group %0;\n" :: "n"(PENDING));
#endif
}
// The launch's transposition of an input whose rows the kernel's threads
// walk alone, run before that kernel: [batch][rows][cols] ->
// [batch][cols][rows], a TILE x TILE tile a step through shared memory (one
// column of padding: no bank conflicts), so that both the reads and the
// writes coalesce. Blocks of TILE x ROWS threads; grid.y and grid.z may be
// smaller than the tiles and the batch, and then walk the rest.
template <int TILE, int ROWS, typename T>
__device__ __forceinline__ void tiler_transpose(const T* __restrict__ in, T* __restrict__ out, int rows, int cols,
                                                int batch) {
  __shared__ __align__(16) T tile[TILE][TILE + 1];
  const long long plane = (long long)rows * cols;
  const int r0 = blockIdx.x * TILE;
  for (int b = blockIdx.z; b < batch; b += gridDim.z) {
    for (int c0 = blockIdx.y * TILE; c0 < cols; c0 += gridDim.y * TILE) {
      for (int j = threadIdx.y; j < TILE; j += ROWS) {
        const int r = r0 + j, c = c0 + threadIdx.x;
        if (r < rows && c < cols) tile[j][threadIdx.x] = in[b * plane + (long long)r * cols + c];
      }
      __syncthreads();
      for (int j = threadIdx.y; j < TILE; j += ROWS) {
        const int c = c0 + j, r = r0 + threadIdx.x;
        if (r < rows && c < cols) out[b * plane + (long long)c * rows + r] = tile[threadIdx.x][j];
      }
      __syncthreads();
    }
  }
}
#endif
