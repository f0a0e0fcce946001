// A ptxas defect, in the smallest kernel that shows it (found by `tiler fuzz
// --gpu`, seeds 10430 and 20319; README.md in this folder tells the story).
//
// Each thread sums a column of a row-major s1 x n0 matrix, the column being
// its thread index clamped twice: min(min(gtid1, n1 - 1), n0 - 1). The CUDA is
// free of undefined behaviour and the PTX nvcc writes is right (ptxas -O0
// runs it correctly). With ptxas -O1 and up (CUDA 12.8 and 13.0, sm_90; the
// 580 driver's JIT too), the remainder of the unrolled loop starts at the
// wrong element whenever s1 % 4 != 0: the front end writes the remainder's
// start as max(max(-n1, -n0), -gtid1 - 1), ptxas fuses the two maximums into
// one VIMNMX3 and drops the negation of n0.
//
//   nvcc -arch=sm_90 min.cu -o min && ./min              # WRONG (the defect)
//   nvcc -arch=sm_90 -Xptxas -O0 min.cu -o min && ./min  # OK
//   nvcc -arch=sm_90 -DHELPER min.cu -o min && ./min     # OK: tiler's spelling
//
// tiler writes the clamps it adds through tiler.cuh's tiler_min, one PTX
// instruction the front end cannot rewrite; -DHELPER is that spelling.
#include <cstdio>
#include <cmath>
#include <cstdlib>

#ifdef HELPER
#include "../../tiler/templates/tiler.cuh"
#define CLAMP tiler_min  // the clamp tiler adds; the program's own min stays min
#else
#define CLAMP min
#endif

extern "C" __global__ void __launch_bounds__(256)
colsum(const float* __restrict__ P, float* __restrict__ out, int n0, int n1, int s1)
{
  const int gtid0 = blockIdx.y;
  const int gtid1 = blockIdx.x * 256 + threadIdx.x;
  const int i1 = CLAMP(gtid1, n1 - 1);  // tiler's clamp: threads past the end stand in for the last
  float acc = 0.0f;
  for (int k = 0; k < s1; k += 1) acc = acc + P[min(i1, n0 - 1) + k * n0];  // the program's T[min(i, n0 - 1)]
  if (gtid0 < n0 && gtid1 < n1) out[gtid0 * n1 + gtid1] = acc;
}

int main(int argc, char** argv) {
  int n0 = 13, n1 = 36, s1 = 49;
  if (argc > 3) { n0 = atoi(argv[1]); n1 = atoi(argv[2]); s1 = atoi(argv[3]); }
  float* h = (float*)malloc(sizeof(float) * n0 * s1);
  for (int i = 0; i < n0 * s1; i++) h[i] = (float)((i * 37) % 101) - 50.0f;
  float *P, *out;
  cudaMalloc(&P, sizeof(float) * n0 * s1);
  cudaMemcpy(P, h, sizeof(float) * n0 * s1, cudaMemcpyHostToDevice);
  cudaMalloc(&out, sizeof(float) * n0 * n1);
  cudaMemset(out, 0xff, sizeof(float) * n0 * n1);  // NaN poison
  colsum<<<dim3((n1 + 255) / 256, n0, 1), dim3(256, 1, 1)>>>(P, out, n0, n1, s1);
  cudaError_t err = cudaDeviceSynchronize();
  if (err != cudaSuccess) { printf("launch: %s\n", cudaGetErrorString(err)); return 2; }
  float* got = (float*)malloc(sizeof(float) * n0 * n1);
  cudaMemcpy(got, out, sizeof(float) * n0 * n1, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int r = 0; r < n0; r++)
    for (int j = 0; j < n1; j++) {
      int c = j < n0 - 1 ? j : n0 - 1;
      float want = 0.0f;
      for (int k = 0; k < s1; k++) want += h[c + k * n0];
      if (!(fabsf(got[r * n1 + j] - want) <= 1e-3f * (1.0f + fabsf(want)))) {
        if (bad < 5) printf("out[%d][%d]: got %g, want %g\n", r, j, got[r * n1 + j], want);
        bad++;
      }
    }
  printf("%s: %d of %d wrong\n", bad ? "WRONG" : "OK", bad, n0 * n1);
  return bad != 0;
}
