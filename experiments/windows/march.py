"""Issue 56: what 2.5-D blocking would reach on the 25-point star (benchmarks/star25.fut), by hand, before
building it into tiler. Times tiler's own window kernel (`tiler compile` of the benchmark, its 8-points-a-thread
version) beside hand-written kernels that march a block along z:

- `queue`: no shared memory; each thread walks a chunk of z keeping u[z-4..z+4] at its (y, x) in registers (the
  z neighbours come from the queue), the 16 y and x neighbours read from global memory (L1).
- `plane`: the classic 2.5-D scheme: the same register queue, and plane z staged in shared memory with its halo
  (the interior from the queue's centre, the halo from global memory), the y and x neighbours read from shared.

Every kernel is checked against tiler's before it is timed (CUDA events, median of 20 after a warm-up).
Run on a GPU host from the repository root: python3 experiments/windows/march.py [N]
"""
from __future__ import annotations

import subprocess
import sys
import tempfile

import cupy as cp
import numpy as np

R = 4
HAND = r"""
#define R 4
extern "C" __global__ void __launch_bounds__(BX * BY)
queue(const float* __restrict__ u, const float* __restrict__ c, float* __restrict__ out, int nz, int ny, int nx)
{
  const int x = blockIdx.x * BX + threadIdx.x, y = blockIdx.y * BY + threadIdx.y;
  const int z0 = blockIdx.z * ZC;
  if (x >= nx || y >= ny) return;
  const long long plane = (long long)nx * ny;
  const float* col = u + (long long)y * nx + x;
  float q[2 * R + 1];
  #pragma unroll
  for (int i = 0; i < 2 * R; i++) { int z = z0 - R + i; q[i + 1] = (z >= 0 && z < nz) ? col[z * plane] : 0.0f; }
  const float c0 = c[0], c1 = c[1], c2 = c[2], c3 = c[3], c4 = c[4];
  const int zend = min(z0 + ZC, nz);
  for (int z = z0; z < zend; z++) {
    #pragma unroll
    for (int i = 0; i < 2 * R; i++) q[i] = q[i + 1];
    q[2 * R] = (z + R < nz) ? col[(z + R) * plane] : 0.0f;
    const float* p = col + z * plane;
    float s1 = q[R - 1] + q[R + 1], s2 = q[R - 2] + q[R + 2], s3 = q[R - 3] + q[R + 3], s4 = q[R - 4] + q[R + 4];
    #define XY(r, s) s += (y - r >= 0 ? p[-r * nx] : 0.0f) + (y + r < ny ? p[r * nx] : 0.0f) \
                       + (x - r >= 0 ? p[-r] : 0.0f) + (x + r < nx ? p[r] : 0.0f);
    XY(1, s1) XY(2, s2) XY(3, s3) XY(4, s4)
    out[z * plane + (long long)y * nx + x] = c0 * q[R] + c1 * s1 + c2 * s2 + c3 * s3 + c4 * s4;
  }
}

extern "C" __global__ void __launch_bounds__(BX * BY)
plane(const float* __restrict__ u, const float* __restrict__ c, float* __restrict__ out, int nz, int ny, int nx)
{
  __shared__ float t[BY + 2 * R][BX + 2 * R];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int x = blockIdx.x * BX + tx, y = blockIdx.y * BY + ty;
  const int z0 = blockIdx.z * ZC;
  const bool in = x < nx && y < ny;
  const long long plane = (long long)nx * ny;
  const int xc = min(x, nx - 1), yc = min(y, ny - 1);
  const float* col = u + (long long)yc * nx + xc;
  float q[2 * R + 1];
  #pragma unroll
  for (int i = 0; i < 2 * R; i++) { int z = z0 - R + i; q[i + 1] = (in && z >= 0 && z < nz) ? col[z * plane] : 0.0f; }
  const float c0 = c[0], c1 = c[1], c2 = c[2], c3 = c[3], c4 = c[4];
  const int zend = min(z0 + ZC, nz);
  for (int z = z0; z < zend; z++) {
    #pragma unroll
    for (int i = 0; i < 2 * R; i++) q[i] = q[i + 1];
    q[2 * R] = (in && z + R < nz) ? col[(z + R) * plane] : 0.0f;
    const float* p = u + z * plane;
    __syncthreads();  // the last step's reads of t are done
    t[ty + R][tx + R] = q[R];
    // the halo: R rows above and below (BX wide), R columns left and right (BY high), read from global memory
    if (ty < R) {
      const int ya = y - R, yb = y + BY;
      t[ty][tx + R] = (ya >= 0 && x < nx) ? p[(long long)ya * nx + x] : 0.0f;
      t[ty + BY + R][tx + R] = (yb < ny && x < nx) ? p[(long long)yb * nx + x] : 0.0f;
    }
    if (tx < R) {
      const int xa = x - R, xb = blockIdx.x * BX + BX + tx;
      t[ty + R][tx] = (xa >= 0 && y < ny) ? p[(long long)y * nx + xa] : 0.0f;
      t[ty + R][tx + BX + R] = (xb < nx && y < ny) ? p[(long long)y * nx + xb] : 0.0f;
    }
    __syncthreads();
    float s1 = q[R - 1] + q[R + 1], s2 = q[R - 2] + q[R + 2], s3 = q[R - 3] + q[R + 3], s4 = q[R - 4] + q[R + 4];
    #define TXY(r, s) s += t[ty + R - r][tx + R] + t[ty + R + r][tx + R] + t[ty + R][tx + R - r] + t[ty + R][tx + R + r];
    TXY(1, s1) TXY(2, s2) TXY(3, s3) TXY(4, s4)
    if (in) out[z * plane + (long long)y * nx + x] = c0 * q[R] + c1 * s1 + c2 * s2 + c3 * s3 + c4 * s4;
  }
}
// plane2: RY rows a thread (rows ty, ty + BY, ...: a warp's reads stay whole rows), plane z staged in one of two
// shared buffers (one barrier a step), and the next step's global reads (the queue's fronts, the halo) issued
// before this step's arithmetic, so their latency overlaps it.
#ifdef RY
extern "C" __global__ void __launch_bounds__(BX * BY)
plane2(const float* __restrict__ u, const float* __restrict__ c, float* __restrict__ out, int nz, int ny, int nx)
{
  __shared__ float t[2][BY * RY + 2 * R][BX + 2 * R];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int x = blockIdx.x * BX + tx, yb = blockIdx.y * BY * RY;
  const int z0 = blockIdx.z * ZC, zend = min(z0 + ZC, nz);
  const long long plane = (long long)nx * ny;
  const bool xin = x < nx;
  float q[RY][2 * R + 1];
  #pragma unroll
  for (int k = 0; k < RY; k++) {
    const int y = yb + ty + k * BY;
    #pragma unroll
    for (int i = 0; i < 2 * R; i++) {
      int z = z0 - R + i;
      q[k][i + 1] = (xin && y < ny && z >= 0 && z < nz) ? u[z * plane + (long long)y * nx + x] : 0.0f;
    }
  }
  const float c0 = c[0], c1 = c[1], c2 = c[2], c3 = c[3], c4 = c[4];
  // what the next step writes to shared: its fronts (z + R), its halo (plane z)
  float front[RY], top = 0.0f, bottom = 0.0f, left[RY], right[RY];
  auto fetch = [&](int z) {
    const float* p = u + z * plane;
    #pragma unroll
    for (int k = 0; k < RY; k++) {
      const int y = yb + ty + k * BY;
      front[k] = (xin && y < ny && z + R < nz) ? u[(z + R) * plane + (long long)y * nx + x] : 0.0f;
    }
    if (ty < R) {
      const int ya = yb - R + ty, yc = yb + BY * RY + ty;
      top = (ya >= 0 && xin) ? p[(long long)ya * nx + x] : 0.0f;
      bottom = (yc < ny && xin) ? p[(long long)yc * nx + x] : 0.0f;
    }
    if (tx < R) {
      const int xa = blockIdx.x * BX - R + tx, xc = blockIdx.x * BX + BX + tx;
      #pragma unroll
      for (int k = 0; k < RY; k++) {
        const int y = yb + ty + k * BY;
        left[k] = (xa >= 0 && y < ny) ? p[(long long)y * nx + xa] : 0.0f;
        right[k] = (xc < nx && y < ny) ? p[(long long)y * nx + xc] : 0.0f;
      }
    }
  };
  if (z0 < zend) fetch(z0);
  for (int z = z0; z < zend; z++) {
    const int b = z & 1;
    #pragma unroll
    for (int k = 0; k < RY; k++) {
      #pragma unroll
      for (int i = 0; i < 2 * R; i++) q[k][i] = q[k][i + 1];
      q[k][2 * R] = front[k];
      t[b][ty + k * BY + R][tx + R] = q[k][R];
    }
    if (ty < R) { t[b][ty][tx + R] = top; t[b][ty + BY * RY + R][tx + R] = bottom; }
    if (tx < R) {
      #pragma unroll
      for (int k = 0; k < RY; k++) { t[b][ty + k * BY + R][tx] = left[k]; t[b][ty + k * BY + R][tx + BX + R] = right[k]; }
    }
    __syncthreads();
    if (z + 1 < zend) fetch(z + 1);
    #pragma unroll
    for (int k = 0; k < RY; k++) {
      const int yy = ty + k * BY + R, xx = tx + R;
      float s1 = q[k][R - 1] + q[k][R + 1], s2 = q[k][R - 2] + q[k][R + 2];
      float s3 = q[k][R - 3] + q[k][R + 3], s4 = q[k][R - 4] + q[k][R + 4];
      s1 += t[b][yy - 1][xx] + t[b][yy + 1][xx] + t[b][yy][xx - 1] + t[b][yy][xx + 1];
      s2 += t[b][yy - 2][xx] + t[b][yy + 2][xx] + t[b][yy][xx - 2] + t[b][yy][xx + 2];
      s3 += t[b][yy - 3][xx] + t[b][yy + 3][xx] + t[b][yy][xx - 3] + t[b][yy][xx + 3];
      s4 += t[b][yy - 4][xx] + t[b][yy + 4][xx] + t[b][yy][xx - 4] + t[b][yy][xx + 4];
      const int y = yb + ty + k * BY;
      if (xin && y < ny) out[z * plane + (long long)y * nx + x] = c0 * q[k][R] + c1 * s1 + c2 * s2 + c3 * s3 + c4 * s4;
    }
  }
}
#endif
// plane3: RC consecutive rows a thread and VX consecutive points along x (1 or 2, float2 loads and stores), so
// a thread's points share their y neighbours (loaded once, its own rows' centres from the queues) and, for VX 2,
// their x neighbours; two plane buffers, the next step's global reads issued before this step's arithmetic.
#ifdef RC
#ifndef VX
#define VX 1
#endif
#define WI (BX * VX)
#define HI (BY * RC)
#define TW (WI + 2 * R)
#define TH (HI + 2 * R)
#define HALO (2 * R * WI + 2 * R * HI)
#define NT (BX * BY)
#define HN ((HALO + NT - 1) / NT)
__device__ __forceinline__ void ldv(const float* p, float* d) {
#if VX == 2
  const float2 v = *reinterpret_cast<const float2*>(p); d[0] = v.x; d[1] = v.y;
#else
  d[0] = *p;
#endif
}
__device__ __forceinline__ void stv(float* p, const float* d) {
#if VX == 2
  *reinterpret_cast<float2*>(p) = make_float2(d[0], d[1]);
#else
  *p = d[0];
#endif
}
extern "C" __global__ void __launch_bounds__(NT)
plane3(const float* __restrict__ u, const float* __restrict__ c, float* __restrict__ out, int nz, int ny, int nx)
{
  __shared__ __align__(16) float t[2][TH][TW];
  const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * BX + tx;
  const int xb = blockIdx.x * WI, yb = blockIdx.y * HI;
  const int x = xb + tx * VX, y0 = yb + ty * RC;
  const int z0 = blockIdx.z * ZC, zend = min(z0 + ZC, nz);
  const long long plane = (long long)nx * ny;
  const bool xin = x < nx;  // nx a multiple of VX
  float q[RC][VX][2 * R + 1];
  #pragma unroll
  for (int k = 0; k < RC; k++) {
    #pragma unroll
    for (int i = 0; i < 2 * R; i++) {
      const int z = z0 - R + i;
      if (xin && y0 + k < ny && z >= 0 && z < nz) {
        float v[VX]; ldv(u + z * plane + (long long)(y0 + k) * nx + x, v);
        #pragma unroll
        for (int j = 0; j < VX; j++) q[k][j][i + 1] = v[j];
      } else {
        #pragma unroll
        for (int j = 0; j < VX; j++) q[k][j][i + 1] = 0.0f;
      }
    }
  }
  int hoff[HN], hslot[HN];
  #pragma unroll
  for (int j = 0; j < HN; j++) {
    const int i = tid + j * NT;
    int row, col;
    if (i < 2 * R * WI) { row = i / WI; row = row < R ? row : row - R + HI + R; col = R + i % WI; }
    else { const int e = i - 2 * R * WI; row = R + e / (2 * R); col = e % (2 * R); col = col < R ? col : col - R + WI + R; }
    const int gy = yb - R + row, gx = xb - R + col;
    hslot[j] = i < HALO ? row * TW + col : -1;
    hoff[j] = (i < HALO && gy >= 0 && gy < ny && gx >= 0 && gx < nx) ? gy * nx + gx : -1;
  }
  const float c0 = c[0], c1 = c[1], c2 = c[2], c3 = c[3], c4 = c[4];
  float front[RC][VX], hv[HN];
  auto fetch = [&](int z) {
    #pragma unroll
    for (int k = 0; k < RC; k++) {
      if (xin && y0 + k < ny && z + R < nz) ldv(u + (z + R) * plane + (long long)(y0 + k) * nx + x, front[k]);
      else {
        #pragma unroll
        for (int j = 0; j < VX; j++) front[k][j] = 0.0f;
      }
    }
    #pragma unroll
    for (int j = 0; j < HN; j++) hv[j] = hoff[j] >= 0 ? u[z * plane + hoff[j]] : 0.0f;
  };
  if (z0 < zend) fetch(z0);
  for (int z = z0; z < zend; z++) {
    const int b = z & 1;
    #pragma unroll
    for (int k = 0; k < RC; k++) {
      float mid[VX];
      #pragma unroll
      for (int j = 0; j < VX; j++) {
        #pragma unroll
        for (int i = 0; i < 2 * R; i++) q[k][j][i] = q[k][j][i + 1];
        q[k][j][2 * R] = front[k][j];
        mid[j] = q[k][j][R];
      }
      stv(&t[b][ty * RC + k + R][tx * VX + R], mid);
    }
    #pragma unroll
    for (int j = 0; j < HN; j++) if (hslot[j] >= 0) (&t[b][0][0])[hslot[j]] = hv[j];
    __syncthreads();
    if (z + 1 < zend) fetch(z + 1);
    float yr[RC + 2 * R][VX];  // rows ty * RC - R .. ty * RC + RC - 1 + R at the thread's columns
    #pragma unroll
    for (int d = 0; d < RC + 2 * R; d++) {
      if (d >= R && d < R + RC) {
        #pragma unroll
        for (int j = 0; j < VX; j++) yr[d][j] = q[d - R][j][R];
      } else ldv(&t[b][ty * RC + d][tx * VX + R], yr[d]);
    }
    #pragma unroll
    for (int k = 0; k < RC; k++) {
      float xr[VX + 2 * R];  // columns tx * VX - R .. tx * VX + VX - 1 + R of row k
      #pragma unroll
      for (int e = 0; e < R; e += VX) {
        ldv(&t[b][ty * RC + k + R][tx * VX + e], &xr[e]);
        ldv(&t[b][ty * RC + k + R][tx * VX + R + VX + e], &xr[R + VX + e]);
      }
      #pragma unroll
      for (int j = 0; j < VX; j++) xr[R + j] = q[k][j][R];
      float o[VX];
      #pragma unroll
      for (int j = 0; j < VX; j++) {
        float s[R + 1];
        #pragma unroll
        for (int r = 1; r <= R; r++)
          s[r] = q[k][j][R - r] + q[k][j][R + r] + yr[k + R - r][j] + yr[k + R + r][j] + xr[R + j - r] + xr[R + j + r];
        o[j] = c0 * q[k][j][R] + c1 * s[1] + c2 * s[2] + c3 * s[3] + c4 * s[4];
      }
      if (xin && y0 + k < ny) stv(out + z * plane + (long long)(y0 + k) * nx + x, o);
    }
  }
}
#endif
"""


# (threads along x, along y, z-points a block marches, rows a thread: None for queue and plane; rows and points
# along x a thread of plane3, consecutive; None for plane2)
CONFIGS = [(32, 8, 64, None), (64, 8, 64, None), (32, 8, 64, 1), (32, 8, 64, 4), (64, 8, 64, 2), (64, 4, 64, 4),
           (64, 4, 128, 4), (64, 4, 32, 4), (32, 4, 128, 4), (32, 4, 64, 4), (128, 4, 64, 4), (64, 4, 64, 3),
           (64, 4, 64, 5), (64, 4, 64, 6), (96, 4, 64, 4)]  # BY >= R: the halo rows are loaded by rows ty < R
CONSECUTIVE = [(64, 4, 64, (3, 1)), (64, 4, 64, (4, 1)), (64, 4, 64, (3, 2)), (32, 4, 64, (3, 2)), (32, 8, 64, (2, 2)),
               (32, 8, 64, (3, 2)), (32, 4, 64, (4, 2)), (64, 2, 64, (4, 2)), (32, 8, 64, (4, 1)), (64, 4, 32, (3, 2)),
               (64, 4, 128, (3, 2)), (128, 2, 64, (3, 1))]


def tiler_kernel() -> cp.RawModule:
    tmp = tempfile.mkdtemp()  # kept: cupy loads the cubin when a function is first asked for
    subprocess.run([sys.executable, "-m", "tiler", "compile", "benchmarks/star25.fut", "-o", f"{tmp}/k.cu"],
                   check=True)
    subprocess.run(["nvcc", "-arch=sm_90", "-cubin", "-O3", "-o", f"{tmp}/k.cubin", f"{tmp}/k.cu"], check=True)
    return cp.RawModule(path=f"{tmp}/k.cubin")


def timed(launch, repeat: int = 20) -> float:
    launch()
    cp.cuda.Device().synchronize()
    times = []
    for _ in range(repeat):
        a, b = cp.cuda.Event(), cp.cuda.Event()
        a.record()
        launch()
        b.record()
        b.synchronize()
        times.append(cp.cuda.get_elapsed_time(a, b))
    return float(np.median(times))


def main() -> None:
    args = [a for a in sys.argv[1:] if not a.startswith('--')]
    n = int(args[0]) if args else 512
    shapes = [(n, n, n), (37, 130, 70)] if n > 200 else [(n, n, n)]
    for nz, ny, nx in shapes:
        rng = np.random.default_rng(0)
        u = cp.asarray(rng.standard_normal((nz, ny, nx), dtype=np.float32))
        c = cp.asarray(rng.standard_normal(5, dtype=np.float32))
        ref = cp.full_like(u, cp.nan)
        mod = tiler_kernel()
        win = mod.get_function("tiler_star25_window")
        args = (u, c, ref, np.int32(nz), np.int32(ny), np.int32(nx))
        wgrid = ((nx + 31) // 32, min((ny + 7) // 8, 65535), min((nz + 7) // 8, 65535))
        go = lambda: win(wgrid, (32, 8, 1), args)  # noqa: E731
        go()
        bytes_ = 2 * u.nbytes
        copy = timed(lambda: cp.copyto(cp.empty_like(u), u))
        print(f"== {nz} x {ny} x {nx}: copy {copy:.4f} ms (a bound: its bytes {bytes_ / 1e6:.0f} MB)")
        print(f"tiler window   {timed(go):.4f} ms")
        configs = CONSECUTIVE if "--consecutive" in sys.argv else CONFIGS + CONSECUTIVE
        for bx, by, zc, ry in configs:
            rc, vx = ry if isinstance(ry, tuple) else (None, 1)
            defines = (f"-DRY={ry}",) if isinstance(ry, int) else (f"-DRC={rc}", f"-DVX={vx}") if rc else ()
            hand = cp.RawModule(code=HAND, options=(f"-DBX={bx}", f"-DBY={by}", f"-DZC={zc}", "-std=c++17") + defines)
            for name in ("plane3",) if rc else ("plane2",) if ry else ("queue", "plane"):
                out = cp.full_like(u, cp.nan)
                f = hand.get_function(name)
                rows = by * (rc or ry or 1)
                grid = ((nx + bx * vx - 1) // (bx * vx), (ny + rows - 1) // rows, (nz + zc - 1) // zc)
                h = (lambda f=f, grid=grid, out=out: f(grid, (bx, by, 1), (u, c, out, np.int32(nz), np.int32(ny),
                                                                            np.int32(nx))))
                h()
                err = float(cp.max(cp.abs(out - ref)))
                ok = err < 1e-3 and not bool(cp.isnan(out).any())
                t = timed(h) if ok else float("nan")
                shape = f" r{ry}" if isinstance(ry, int) else f" rows{rc} x{vx}" if rc else ""
                print(f"{name:6s} {bx}x{by}{shape} z{zc:<4d} {t:.4f} ms  {t / copy if ok else float('nan'):.2f}x copy"
                      f"  max err {err:.2e}{'' if ok else '  WRONG'}")

if __name__ == "__main__":
    main()
