// Build beside a module of mm_abt_f32 compiled for sm_90a (`tiler compile tests/programs/tensor_cores/mm_abt_f32.fut
// --tensor-cores --arch sm_90a -s m=2048 -s n=2048 -s q=2048 --no-launch-timing -o kernel.cu`), then
// `nvcc -gencode arch=compute_90a,code=sm_90a -o harness harness.cu`: the host launcher making its TMA maps.
// With -DAB, beside mm.fut compiled so (`--tensor-cores --arch sm_90a -s m=2048 -s n=2048 -s q=2048`): C = A B,
// B transposed by the launcher into scratch, then its TMA kernel (thirtieth session).
// a C harness for the host launcher of mm_abt_f32 (TMA kernel): C = A Bt at N^3, against a CPU sum
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cmath>
#include "kernel.cu"
int main(int argc, char** argv) {
  const int N = argc > 1 ? atoi(argv[1]) : 256;
  std::vector<float> a((size_t)N * N), b((size_t)N * N), c((size_t)N * N);
  srand(1);
  for (auto& x : a) x = (rand() % 2001 - 1000) / 1000.f;
  for (auto& x : b) x = (rand() % 2001 - 1000) / 1000.f;
  float *A, *B, *C;
  cudaMalloc(&A, a.size() * 4); cudaMalloc(&B, b.size() * 4); cudaMalloc(&C, c.size() * 4);
  cudaMemcpy(A, a.data(), a.size() * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(B, b.data(), b.size() * 4, cudaMemcpyHostToDevice);
  cudaMemset(C, 0xff, c.size() * 4);
#ifdef AB
  cudaError_t e = tiler_mm_launch(A, B, C, N, N, N, 0);
#else
  cudaError_t e = tiler_mm_abt_f32_launch(A, B, C, N, N, N, 0);
#endif
  cudaError_t s = cudaDeviceSynchronize();
  printf("launch %s, sync %s\n", cudaGetErrorString(e), cudaGetErrorString(s));
  cudaMemcpy(c.data(), C, c.size() * 4, cudaMemcpyDeviceToHost);
  double worst = 0; int nans = 0;
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) {
      double want = 0;
#ifdef AB
      for (int k = 0; k < N; ++k) want += (double)a[(size_t)i * N + k] * b[(size_t)k * N + j];
#else
      for (int k = 0; k < N; ++k) want += (double)a[(size_t)i * N + k] * b[(size_t)j * N + k];
#endif
      const float got = c[(size_t)i * N + j];
      if (std::isnan(got)) ++nans; else worst = std::max(worst, std::fabs(got - want));
    }
  printf("N %d: nan %d, worst %.3g, c[0..3] %g %g %g %g\n", N, nans, worst, c[0], c[1], c[2], c[3]);
  return 0;
}
