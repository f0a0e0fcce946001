// Calling a tiler kernel from your own program: the matrix product.
//
//   tiler compile benchmarks/mm.fut -o mm.cu        # writes mm.cu, mm.h, mm.launch.json
//   nvcc -arch=sm_90 -I. docs/examples/mm_host.cu mm.cu -o mm_host
//   ./mm_host 1000 700 513                          # m n q; prints OK or the first difference
//
// Nothing here knows which kernel version runs: tiler_mm_launch picks it from
// the sizes (and the arrays' alignment), as the comment at the top of mm.cu says.
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <vector>
#include "mm.h"

#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
  std::printf("%s: %s\n", #call, cudaGetErrorString(e_)); return 2; } } while (0)

int main(int argc, char** argv) {
  const int m = argc > 3 ? std::atoi(argv[1]) : 1000;
  const int n = argc > 3 ? std::atoi(argv[2]) : 700;
  const int q = argc > 3 ? std::atoi(argv[3]) : 513;
  std::vector<float> a((size_t)m * n), b((size_t)n * q), c((size_t)m * q);
  for (size_t i = 0; i < a.size(); i++) a[i] = (float)((i * 7) % 13) / 13.0f - 0.5f;
  for (size_t i = 0; i < b.size(); i++) b[i] = (float)((i * 5) % 11) / 11.0f - 0.5f;

  float *da, *db, *dc;
  CHECK(cudaMalloc(&da, a.size() * sizeof(float)));
  CHECK(cudaMalloc(&db, b.size() * sizeof(float)));
  CHECK(cudaMalloc(&dc, c.size() * sizeof(float)));
  CHECK(cudaMemcpy(da, a.data(), a.size() * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(db, b.data(), b.size() * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(dc, 0xff, c.size() * sizeof(float)));  // NaN: an element never written shows

  cudaStream_t stream;
  CHECK(cudaStreamCreate(&stream));
  CHECK(tiler_mm_launch(da, db, dc, m, n, q, stream));
  CHECK(cudaStreamSynchronize(stream));
  CHECK(cudaMemcpy(c.data(), dc, c.size() * sizeof(float), cudaMemcpyDeviceToHost));

  for (int i = 0; i < m; i++)
    for (int j = 0; j < q; j++) {
      double want = 0;
      for (int k = 0; k < n; k++) want += (double)a[(size_t)i * n + k] * b[(size_t)k * q + j];
      const float got = c[(size_t)i * q + j];
      if (!(std::fabs(got - want) <= 1e-3 * (1.0 + std::fabs(want)))) {
        std::printf("WRONG at (%d, %d): got %g, want %g\n", i, j, got, want);
        return 1;
      }
    }
  std::printf("OK: %d x %d x %d\n", m, n, q);
  return 0;
}
