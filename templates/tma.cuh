// tma.cuh: sm_90's tensor memory accelerator as tiler uses it (tiler/tma.py), included into a module
// whose kernels copy tiles by TMA: the matrix units' products (sm_90a's warp groups) and f32 products on the
// CUDA cores (sm_90). A chunk's tiles are copied by one thread, waited on by mbarriers.
#ifndef TILER_TMA_CUH
#define TILER_TMA_CUH
struct alignas(64) tiler_tensor_map {
  unsigned long long bits[16];  // a CUtensorMap, made by the launch
};

__device__ __forceinline__ unsigned tiler_shared_address(const void* p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

__device__ __forceinline__ int tiler_flat_thread() {
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}

// each buffer's mbarriers: `full` completed by its copies' bytes (one arrival: the issuing thread's), `empty` by
// an arrival of each of the `consumers` warp groups; then the block's barrier, so that no thread waits on one
// before it is initialised
template <int STAGES>
__device__ __forceinline__ void tiler_tma_barriers(unsigned long long* full, unsigned long long* empty, int consumers) {
  if (tiler_flat_thread() == 0) {
    #pragma unroll
    for (int s = 0; s < STAGES; ++s) {
      asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" :: "r"(tiler_shared_address(&full[s])), "r"(1));
      if (consumers > 0)  // (0: the block's barrier frees a buffer: the CUDA cores' products)
        asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" :: "r"(tiler_shared_address(&empty[s])),
                     "r"(consumers));
    }
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
  }
  __syncthreads();
}

// the issuing thread's arrival at a buffer's `full` mbarrier, expecting `bytes` from its copies
__device__ __forceinline__ void tiler_tma_issue(unsigned long long* full, unsigned bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n"
               :: "r"(tiler_shared_address(full)), "r"(bytes) : "memory");
}

// one box of `map` at (c0, c1) (innermost first) into `dst`, its bytes counted on `full`
__device__ __forceinline__ void tiler_tma_copy(void* dst, const tiler_tensor_map* map, int c0, int c1,
                                               unsigned long long* full) {
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, { %2, %3 }], [%4];\n"
               :: "r"(tiler_shared_address(dst)), "l"(map), "r"(c0), "r"(c1), "r"(tiler_shared_address(full))
               : "memory");
}

__device__ __forceinline__ void tiler_mbarrier_wait(unsigned long long* bar, unsigned parity) {
  unsigned done = 0;
  while (!done) {
    asm volatile("{\n.reg .pred p;\nmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\nselp.u32 %0, 1, 0, p;\n}\n"
                 : "=r"(done) : "r"(tiler_shared_address(bar)), "r"(parity) : "memory");
  }
}

#if !defined(__CUDACC_RTC__)
// the host launcher's tensor map `m` of a row-major array of `rows` x `cols` elements of CUtensorMapDataType
// `type`, `bytes` each, copied in boxes of box0 x box1 (innermost first) with CUtensorMapSwizzle `swizzle`, zeros
// past its edges; false where the driver's encoder (looked up once: no -lcuda) is missing or refuses it
typedef int (*tiler_encode_tiled)(void*, int, unsigned, void*, const unsigned long long*, const unsigned long long*,
                                  const unsigned*, const unsigned*, int, int, int, int);
static bool tiler_tensor_map_2d(tiler_tensor_map* m, const void* p, int type, int bytes, long long cols,
                                long long rows, int box0, int box1, int swizzle) {
  static tiler_encode_tiled encode = nullptr;  // (a race between host threads stores the same pointer)
  if (encode == nullptr) {
    void* fn = nullptr;
    cudaDriverEntryPointQueryResult found;
#if CUDART_VERSION >= 12050
    const cudaError_t got = cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault,
                                                             &found);
#else
    const cudaError_t got = cudaGetDriverEntryPoint("cuTensorMapEncodeTiled", &fn, cudaEnableDefault, &found);
#endif
    if (got != cudaSuccess || found != cudaDriverEntryPointSuccess) return false;
    encode = reinterpret_cast<tiler_encode_tiled>(fn);
  }
  const unsigned long long dims[2] = {(unsigned long long)cols, (unsigned long long)rows};
  const unsigned long long strides[1] = {(unsigned long long)cols * bytes};
  const unsigned box[2] = {(unsigned)box0, (unsigned)box1}, steps[2] = {1, 1};
  return encode(m, type, 2, const_cast<void*>(p), dims, strides, box, steps, 0, swizzle, 3, 0) == 0;
}
#endif

// after a CUDA-core product's loop, every thread past the barrier after its last wait: the issuing thread
// invalidates the `full` mbarriers, so that a block walking the grid in a loop may initialise them again
template <int STAGES>
__device__ __forceinline__ void tiler_tma_invalidate(unsigned long long* full) {
  if (tiler_flat_thread() == 0) {
    #pragma unroll
    for (int s = 0; s < STAGES; ++s) {
      asm volatile("mbarrier.inval.shared::cta.b64 [%0];\n" :: "r"(tiler_shared_address(&full[s])) : "memory");
    }
  }
}

// the warp group is done with a buffer: its first thread arrives at the buffer's `empty` mbarrier
__device__ __forceinline__ void tiler_tma_release(unsigned long long* empty) {
  if (tiler_flat_thread() % 128 == 0) {
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" :: "r"(tiler_shared_address(empty)) : "memory");
  }
}

#endif
