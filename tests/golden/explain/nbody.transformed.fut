-- step 1 of 3, block tiling: the tiles a block shares in fast memory, one point a thread
fun [f32, n] main(f32 eps, [f32, n] bodies) =
  -- 1-D block of 256 threads: dimension 0 -> threadIdx.x
  -- register tile: 4 points a thread, a block covers 1024 (steps 2 and 3)
  map(
    fn f32 (f32 body) =>
      -- fast memory: shMem_bodies_chunk[256]
      -- chunk = 256 (the last chunk may be shorter); copies guard the array's end
      streamSeq(
        fn f32 (int kk, [f32, chunk] bodies_chunk, f32 acc) =>
          let shMem_bodies_chunk = copyFastMem(bodies_chunk[threadIdx.x], threadIdx.x) in
          loop (acc) = for k < chunk do
            acc + (shMem_bodies_chunk[k] - body)
          in acc,
        bodies, 0.0f32),
    bodies)

-- step 2 of 3, strip-mining dimension 0 by T0 = 4. From here on, the kernel tiler writes for this
-- plan, as the register tiling rewrites made it, with its copies drawn one line each and
-- synchronous (--show-rewrites prints the kernel's own, pipelined). After strip-mining, each tiled
-- dim's point P{d}_ becomes the thread's current point of its micro-tile, its group G{d}_ and lane
-- L{d}_ (the loops over them come next)
const int gtid0 = blockIdx.x * 1024 + (G0_ * 256 + threadIdx.x);  // nbody.fut:6
const int i0 = tiler_min(gtid0, n - 1);
const float body = bodies[i0];  // nbody.fut:6
float acc = 0.0f;  // nbody.fut:7
for (int kk = 0; kk < n - 255; kk += 256) {  // nbody.fut:7
  // copyFastMem: cooperative copy: 1 x 256 tile of bodies into sh_bodies_chunk, chunk fastest  // nbody.fut:7
  __syncthreads();  // the tiles are written
  float acc_2 = acc;  // nbody.fut:8
  for (int k = 0; k < 256; k += 1) {  // nbody.fut:8
    acc_2 = acc_2 + (sh_bodies_chunk[k] - body);
  }
  acc = acc_2;
  __syncthreads();  // the tiles are read before the next copy
}
const int kk_last = n - n % 256;
if (kk_last < n) {  // nbody.fut:7
  const int chunk = n - kk_last;
  // copyFastMem: cooperative copy: 1 x 256 tile of bodies into sh_bodies_chunk, chunk fastest  // nbody.fut:7
  __syncthreads();  // the tiles are written
  float acc_3 = acc;  // nbody.fut:8
  for (int k_2 = 0; k_2 < chunk; k_2 += 1) {  // nbody.fut:8
    acc_3 = acc_3 + (sh_bodies_chunk[k_2] - body);
  }
  acc = acc_3;
  __syncthreads();  // the tiles are read before the next copy
}
if (gtid0 < n) {
  out0[gtid0] = acc;  // nbody.fut:5
}

-- step 3 of 3, sequentialising, in two rewrites. After interchange, the map over the thread's
-- points (a loop point_...) distributed over the statements and moved inward through the loops
-- over chunks and over k; the copies and barriers stay once a thread, and a load that fewer dims
-- decide gets a map of its own, read once into registers and reused by the other dims' points
for (int point_0 = 0; point_0 < 4; point_0 += 1) {  // the map over the thread's 4 points of dims 0
  const int gtid0 = blockIdx.x * 1024 + (G0_ * 256 + threadIdx.x);  // nbody.fut:6
  const int i0 = tiler_min(gtid0, n - 1);
  const float body = bodies[i0];  // nbody.fut:6
  float acc = 0.0f;  // nbody.fut:7
}
for (int kk = 0; kk < n - 255; kk += 256) {  // nbody.fut:7
  // copyFastMem: cooperative copy: 1 x 256 tile of bodies into sh_bodies_chunk, chunk fastest  // nbody.fut:7
  __syncthreads();  // the tiles are written
  for (int point_0 = 0; point_0 < 4; point_0 += 1) {  // the map over the thread's 4 points of dims 0
    float acc_2 = acc;  // nbody.fut:8
  }
  for (int k = 0; k < 256; k += 1) {  // nbody.fut:8
    for (int point_0 = 0; point_0 < 4; point_0 += 1) {  // the map over the thread's 4 points of dims 0
      acc_2 = acc_2 + (sh_bodies_chunk[k] - body);
    }
  }
  for (int point_0 = 0; point_0 < 4; point_0 += 1) {  // the map over the thread's 4 points of dims 0
    acc = acc_2;
  }
  __syncthreads();  // the tiles are read before the next copy
}
const int kk_last = n - n % 256;
if (kk_last < n) {  // nbody.fut:7
  const int chunk = n - kk_last;
  // copyFastMem: cooperative copy: 1 x 256 tile of bodies into sh_bodies_chunk, chunk fastest  // nbody.fut:7
  __syncthreads();  // the tiles are written
  for (int point_0 = 0; point_0 < 4; point_0 += 1) {  // the map over the thread's 4 points of dims 0
    float acc_3 = acc;  // nbody.fut:8
  }
  for (int k_2 = 0; k_2 < chunk; k_2 += 1) {  // nbody.fut:8
    for (int point_0 = 0; point_0 < 4; point_0 += 1) {  // the map over the thread's 4 points of dims 0
      acc_3 = acc_3 + (sh_bodies_chunk[k_2] - body);
    }
  }
  for (int point_0 = 0; point_0 < 4; point_0 += 1) {  // the map over the thread's 4 points of dims 0
    acc = acc_3;
  }
  __syncthreads();  // the tiles are read before the next copy
}
for (int point_0 = 0; point_0 < 4; point_0 += 1) {  // the map over the thread's 4 points of dims 0
  if (gtid0 < n) {
    out0[gtid0] = acc;  // nbody.fut:5
  }
}

-- After sequentialising, each map over points made loops nvcc unrolls, each value that differs by
-- point an array of registers
int gtid0[4];  // nbody.fut:6
int i0[4];
float body[4];  // nbody.fut:6
float acc[4];  // nbody.fut:7
#pragma unroll
for (int G0_ = 0; G0_ < 4; G0_ += 1) {
  gtid0[G0_] = blockIdx.x * 1024 + (G0_ * 256 + threadIdx.x);  // nbody.fut:6
  i0[G0_] = tiler_min(gtid0[G0_], n - 1);
  body[G0_] = bodies[i0[G0_]];  // nbody.fut:6
  acc[G0_] = 0.0f;  // nbody.fut:7
}
for (int kk = 0; kk < n - 255; kk += 256) {  // nbody.fut:7
  // copyFastMem: cooperative copy: 1 x 256 tile of bodies into sh_bodies_chunk, chunk fastest  // nbody.fut:7
  __syncthreads();  // the tiles are written
  float acc_2[4];  // nbody.fut:8
  #pragma unroll
  for (int G0_ = 0; G0_ < 4; G0_ += 1) {
    acc_2[G0_] = acc[G0_];  // nbody.fut:8
  }
  for (int k = 0; k < 256; k += 1) {  // nbody.fut:8
    #pragma unroll
    for (int G0_ = 0; G0_ < 4; G0_ += 1) {
      acc_2[G0_] = acc_2[G0_] + (sh_bodies_chunk[k] - body[G0_]);
    }
  }
  #pragma unroll
  for (int G0_ = 0; G0_ < 4; G0_ += 1) {
    acc[G0_] = acc_2[G0_];
  }
  __syncthreads();  // the tiles are read before the next copy
}
const int kk_last = n - n % 256;
if (kk_last < n) {  // nbody.fut:7
  const int chunk = n - kk_last;
  // copyFastMem: cooperative copy: 1 x 256 tile of bodies into sh_bodies_chunk, chunk fastest  // nbody.fut:7
  __syncthreads();  // the tiles are written
  float acc_3[4];  // nbody.fut:8
  #pragma unroll
  for (int G0_ = 0; G0_ < 4; G0_ += 1) {
    acc_3[G0_] = acc[G0_];  // nbody.fut:8
  }
  for (int k_2 = 0; k_2 < chunk; k_2 += 1) {  // nbody.fut:8
    #pragma unroll
    for (int G0_ = 0; G0_ < 4; G0_ += 1) {
      acc_3[G0_] = acc_3[G0_] + (sh_bodies_chunk[k_2] - body[G0_]);
    }
  }
  #pragma unroll
  for (int G0_ = 0; G0_ < 4; G0_ += 1) {
    acc[G0_] = acc_3[G0_];
  }
  __syncthreads();  // the tiles are read before the next copy
}
#pragma unroll
for (int G0_ = 0; G0_ < 4; G0_ += 1) {
  if (gtid0[G0_] < n) {
    out0[gtid0[G0_]] = acc[G0_];  // nbody.fut:5
  }
}
