#!/bin/bash
# The C launcher of a tile the launch sizes, on a GPU (from the twenty-seventh session's cold review): three host
# threads launching the 1-D convolution with filters of 5,000, 3 and 1,000 taps on their own streams, 4,000
# launches each (a launch must not find the limit another thread set for its own bytes), and a 2-D window whose
# extents multiply past 2^63 (the launch must fall through to a version that runs). Prints the failures.
set -u
work=$(mktemp -d)
repo=$(pwd)
cat > "$work/overflow.fut" <<'F'
fun int cl(int v, int hi) = min(max(v, 0), hi - 1)
fun [[f32, w], h] main([[f32, w], h] img, [bool, kh] my, [bool, kw] mx) =
  map(fn [f32, w] (int y) => map(fn f32 (int x) =>
      (if my[0] && mx[0] then 1f32 else 0f32) *
      (img[cl(y + kh / 2, h), cl(x + kw / 2, w)] - img[cl(y - kh / 2, h), cl(x - kw / 2, w)]),
    iota(w)), iota(h))
F
cat > "$work/driver.cu" <<'F'
#include <atomic>
#include <cstdio>
#include <thread>
#include <cuda_runtime.h>
extern "C" cudaError_t tiler_conv_launch(const float*, const float*, float*, int, int, cudaStream_t);
extern "C" cudaError_t tiler_wide_launch(const float*, const bool*, const bool*, float*, int, int, int, int,
                                         cudaStream_t);
static std::atomic<int> failures{0};
static void launches(int taps, int count) {
  cudaStream_t stream; cudaStreamCreate(&stream);
  const int n = 1 << 16;
  float *x, *f, *out;
  cudaMalloc(&x, n * 4); cudaMalloc(&f, taps * 4); cudaMalloc(&out, n * 4);
  cudaMemset(x, 0, n * 4); cudaMemset(f, 0, taps * 4);
  for (int i = 0; i < count; i++) {
    const cudaError_t e = tiler_conv_launch(x, f, out, n, taps, stream);
    if (e != cudaSuccess && failures++ < 4) printf("taps %d, launch %d: %s\n", taps, i, cudaGetErrorString(e));
  }
  cudaStreamSynchronize(stream);
}
int main() {
  const int kh = 1500000000, kw = 1600000000;
  bool *my, *mx; float *img, *out;
  cudaMalloc(&my, kh); cudaMalloc(&mx, kw); cudaMalloc(&img, 64); cudaMalloc(&out, 64);
  cudaMemset(my, 0, kh); cudaMemset(mx, 0, kw); cudaMemset(img, 0, 64);
  printf("extents past 2^63 together: %s\n", cudaGetErrorString(tiler_wide_launch(img, my, mx, out, 4, 4, kh, kw, 0)));
  printf("small extents: %s\n", cudaGetErrorString(tiler_wide_launch(img, my, mx, out, 4, 4, 3, 3, 0)));
  std::thread a(launches, 5000, 4000), b(launches, 3, 4000), c(launches, 1000, 4000);
  a.join(); b.join(); c.join();
  printf("concurrent launches failed: %d (then %s)\n", (int)failures, cudaGetErrorString(cudaDeviceSynchronize()));
  return failures ? 1 : 0;
}
F
python3 -m tiler compile tests/programs/windows/halo_launch_1d.fut --name conv -o "$work/conv.cu" &&
  python3 -m tiler compile "$work/overflow.fut" --name wide -o "$work/wide.cu" &&
  cd "$work" && (nvcc -arch=sm_90 -c conv.cu & nvcc -arch=sm_90 -c wide.cu & nvcc -arch=sm_90 -c driver.cu & wait) &&
  nvcc conv.o wide.o driver.o -o driver && ./driver
rc=$?
cd "$repo"; rm -rf "$work"
exit $rc
