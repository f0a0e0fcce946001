// narrow.cuh: vectors of 16-bit floats (__half, __nv_bfloat16), included
// into a module whose kernels hold f16 or bf16 values. CUDA's own vector
// types of them stop at 2 elements; a tile's copy moves 8 (128 bits) and a
// register tile reads as many in one access.
#ifndef TILER_NARROW_CUH
#define TILER_NARROW_CUH
// N elements in one 32-, 64- or 128-bit access: aligned to its whole size, so
// that a load or store of one is a single instruction
template <typename T, int N>
struct __align__(sizeof(T) * N) tiler_vec {
  T v[N];
};
template <typename T, typename... E>
__device__ __forceinline__ tiler_vec<T, sizeof...(E)> tiler_make_vec(E... e) {
  tiler_vec<T, sizeof...(E)> out = { {e...} };  // (spaced: the module's template reads this file)
  return out;
}
#endif
