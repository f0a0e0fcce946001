// mma.cuh: the matrix units (tensor cores) through CUDA's WMMA API, included
// into a module whose register-tiled products run on them (--tensor-cores).
// Each warp keeps FM x FN accumulator fragments of its block's product tile;
// the plan (tiler/analyse/tensor_cores.py) chose the shape, the warps' split of
// the tile and the tiles' layouts, and the kernel passes them in: nothing is
// decided here.
#ifndef TILER_MMA_CUH
#define TILER_MMA_CUH
// the fragments' element type for inputs of type In: float inputs are read as
// TF32 (rounded to 10-bit mantissas), the others as they are
template <class In>
struct tiler_mma_element {
  using type = In;
};
template <>
struct tiler_mma_element<float> {
  using type = nvcuda::wmma::precision::tf32;
};

template <class In, class Acc, int M, int N, int K, int FM, int FN>
struct tiler_mma_tile {
  using in = In;
  using acc = Acc;
  static constexpr int m = M, n = N, k = K, fm = FM, fn = FN;
  nvcuda::wmma::fragment<nvcuda::wmma::accumulator, M, N, K, Acc> c[FM][FN];
};

template <class T>
__device__ __forceinline__ void tiler_mma_zero(T& t) {
  #pragma unroll
  for (int i = 0; i < T::fm; ++i) {
    #pragma unroll
    for (int j = 0; j < T::fn; ++j) {
      nvcuda::wmma::fill_fragment(t.c[i][j], typename T::acc(0));
    }
  }
}

// a fragment loaded from float elements holds them unrounded: TF32's
// instructions need them rounded first (CUDA's WMMA documentation)
template <class F>
__device__ __forceinline__ void tiler_mma_round(F&) {}
template <class Use, int M, int N, int K, class L>
__device__ __forceinline__ void tiler_mma_round(nvcuda::wmma::fragment<Use, M, N, K, nvcuda::wmma::precision::tf32, L>& f) {
  #pragma unroll
  for (int e = 0; e < f.num_elements; ++e) {
    f.x[e] = nvcuda::wmma::__float_to_tf32(f.x[e]);
  }
}

// t += A B over STEPS instructions along a chunk: `a` is the warp's first row
// of A at the chunk's first position, fragment i of it A_NEXT elements on and
// instruction s A_STEP on; `b` the same for its columns of B
template <int STEPS, class LA, class LB, int LDA, int LDB, int A_NEXT, int A_STEP, int B_NEXT, int B_STEP, class T>
__device__ __forceinline__ void tiler_mma_chunk(T& t, const typename T::in* a, const typename T::in* b) {
  using E = typename tiler_mma_element<typename T::in>::type;
  #pragma unroll
  for (int s = 0; s < STEPS; ++s) {
    nvcuda::wmma::fragment<nvcuda::wmma::matrix_a, T::m, T::n, T::k, E, LA> fa[T::fm];
    nvcuda::wmma::fragment<nvcuda::wmma::matrix_b, T::m, T::n, T::k, E, LB> fb[T::fn];
    #pragma unroll
    for (int i = 0; i < T::fm; ++i) {
      nvcuda::wmma::load_matrix_sync(fa[i], a + i * A_NEXT + s * A_STEP, LDA);
      tiler_mma_round(fa[i]);
    }
    #pragma unroll
    for (int j = 0; j < T::fn; ++j) {
      nvcuda::wmma::load_matrix_sync(fb[j], b + j * B_NEXT + s * B_STEP, LDB);
      tiler_mma_round(fb[j]);
    }
    #pragma unroll
    for (int i = 0; i < T::fm; ++i) {
      #pragma unroll
      for (int j = 0; j < T::fn; ++j) {
        nvcuda::wmma::mma_sync(t.c[i][j], fa[i], fb[j], t.c[i][j]);
      }
    }
  }
}

// the warp's fragments, row-major from `out` (its first row and column), LD
// elements a row
template <int LD, class T>
__device__ __forceinline__ void tiler_mma_store(const T& t, typename T::acc* out) {
  #pragma unroll
  for (int i = 0; i < T::fm; ++i) {
    #pragma unroll
    for (int j = 0; j < T::fn; ++j) {
      nvcuda::wmma::store_matrix_sync(out + i * T::m * LD + j * T::n, t.c[i][j], LD, nvcuda::wmma::mem_row_major);
    }
  }
}
#endif
