-- step 1 of 3, block tiling: the tiles a block shares in fast memory, one point a thread
fun [[f32, m], n] main([[f32, m], n] AA, [[int, p], n] inds_nhbs) =
  -- 1-D block of 256 threads: dimension 1 -> threadIdx.x
  -- register tile: 4 points a thread, a block covers 1024 (steps 2 and 3)
  map(
    fn [f32, m] ([f32, m] A, int i) =>
      map(
        fn f32 (f32 a) =>
          streamSeq(
            fn f32 (int kk1, [int, chunk1] nhbs, f32 acc1) =>
              loop (acc1) = for k1 < chunk1 do
                let ind = inds_nhbs[i, nhbs[k1]] in
                let invar_AArow = AA[ind] in
                -- fast memory: shMem_invar_AArow_chunk[512]
                -- chunk = 512 (the last chunk may be shorter); copies guard the array's end
                -- rows joined with the loop at 11:27: one stream over the rows of all its iterations, laid end to end; a chunk may hold the end of one row and the start of the next
                streamSeq(
                  fn f32 (int kk2, [f32, chunk2] invar_AArow_chunk, f32 acc2) =>
                    let shMem_invar_AArow_chunk = copyFastMem(invar_AArow_chunk[threadIdx.x], threadIdx.x) in
                    loop (acc2) = for k2 < chunk2 do
                      acc2 + shMem_invar_AArow_chunk[k2] * 2.0f32
                    in acc2,
                  invar_AArow, acc1)
              in acc1,
            iota(p), 0.0f32),
        A),
    zip(AA, iota(n)))

-- step 2 of 3, strip-mining dimension 1 by T1 = 4. From here on, the kernel tiler writes for this
-- plan, as the register tiling rewrites made it, with its copies drawn one line each and
-- synchronous (--show-rewrites prints the kernel's own, pipelined). After strip-mining, each tiled
-- dim's point P{d}_ becomes the thread's current point of its micro-tile, its group G{d}_ and lane
-- L{d}_ (the loops over them come next)
const int gtid0 = tiler_block_y;  // lavamd.fut:8
const int gtid1 = blockIdx.x * 1024 + (G1_ * 256 + threadIdx.x);  // lavamd.fut:9
const int i0 = tiler_min(gtid0, n - 1);
const int i1 = tiler_min(gtid1, m - 1);
const float a = AA[i0 * m + i1];  // lavamd.fut:9
float acc1 = 0.0f;  // lavamd.fut:10
const int joined = p * m;  // lavamd.fut:11
float acc2 = acc1;  // lavamd.fut:11
for (int kk2 = 0; kk2 < joined - 511; kk2 += 512) {  // lavamd.fut:14
  // copyFastMem: cooperative copy: 1 x 512 tile of AA into sh_invar_AArow_chunk, chunk fastest  // lavamd.fut:14
  __syncthreads();  // the tiles are written
  float acc2_2 = acc2;  // lavamd.fut:15
  for (int k2 = 0; k2 < 512; k2 += 1) {  // lavamd.fut:15
    acc2_2 = acc2_2 + sh_invar_AArow_chunk[k2] * 2.0f;
  }
  acc2 = acc2_2;
  __syncthreads();  // the tiles are read before the next copy
}
const int kk2_last = joined - joined % 512;
if (kk2_last < joined) {  // lavamd.fut:14
  const int chunk2 = joined - kk2_last;
  // copyFastMem: cooperative copy: 1 x 512 tile of AA into sh_invar_AArow_chunk, chunk fastest  // lavamd.fut:14
  __syncthreads();  // the tiles are written
  float acc2_3 = acc2;  // lavamd.fut:15
  for (int k2_2 = 0; k2_2 < chunk2; k2_2 += 1) {  // lavamd.fut:15
    acc2_3 = acc2_3 + sh_invar_AArow_chunk[k2_2] * 2.0f;
  }
  acc2 = acc2_3;
  __syncthreads();  // the tiles are read before the next copy
}
acc1 = acc2;
if (gtid0 < n && gtid1 < m) {
  out0[gtid0 * m + gtid1] = acc1;  // lavamd.fut:7
}

-- step 3 of 3, sequentialising, in two rewrites. After interchange, the map over the thread's
-- points (a loop point_...) distributed over the statements and moved inward through the loops
-- over chunks and over k; the copies and barriers stay once a thread, and a load that fewer dims
-- decide gets a map of its own, read once into registers and reused by the other dims' points
const int gtid0 = tiler_block_y;  // lavamd.fut:8
for (int point_1 = 0; point_1 < 4; point_1 += 1) {  // the map over the thread's 4 points of dims 1
  const int gtid1 = blockIdx.x * 1024 + (G1_ * 256 + threadIdx.x);  // lavamd.fut:9
}
const int i0 = tiler_min(gtid0, n - 1);
for (int point_1 = 0; point_1 < 4; point_1 += 1) {  // the map over the thread's 4 points of dims 1
  const int i1 = tiler_min(gtid1, m - 1);
  const float a = AA[i0 * m + i1];  // lavamd.fut:9
}
float acc1 = 0.0f;  // lavamd.fut:10
const int joined = p * m;  // lavamd.fut:11
float acc2 = acc1;  // lavamd.fut:11
for (int kk2 = 0; kk2 < joined - 511; kk2 += 512) {  // lavamd.fut:14
  // copyFastMem: cooperative copy: 1 x 512 tile of AA into sh_invar_AArow_chunk, chunk fastest  // lavamd.fut:14
  __syncthreads();  // the tiles are written
  float acc2_2 = acc2;  // lavamd.fut:15
  for (int k2 = 0; k2 < 512; k2 += 1) {  // lavamd.fut:15
    acc2_2 = acc2_2 + sh_invar_AArow_chunk[k2] * 2.0f;
  }
  acc2 = acc2_2;
  __syncthreads();  // the tiles are read before the next copy
}
const int kk2_last = joined - joined % 512;
if (kk2_last < joined) {  // lavamd.fut:14
  const int chunk2 = joined - kk2_last;
  // copyFastMem: cooperative copy: 1 x 512 tile of AA into sh_invar_AArow_chunk, chunk fastest  // lavamd.fut:14
  __syncthreads();  // the tiles are written
  float acc2_3 = acc2;  // lavamd.fut:15
  for (int k2_2 = 0; k2_2 < chunk2; k2_2 += 1) {  // lavamd.fut:15
    acc2_3 = acc2_3 + sh_invar_AArow_chunk[k2_2] * 2.0f;
  }
  acc2 = acc2_3;
  __syncthreads();  // the tiles are read before the next copy
}
acc1 = acc2;
for (int point_1 = 0; point_1 < 4; point_1 += 1) {  // the map over the thread's 4 points of dims 1
  if (gtid0 < n && gtid1 < m) {
    out0[gtid0 * m + gtid1] = acc1;  // lavamd.fut:7
  }
}

-- After sequentialising, each map over points made loops nvcc unrolls, each value that differs by
-- point an array of registers
const int gtid0 = tiler_block_y;  // lavamd.fut:8
int gtid1[4];  // lavamd.fut:9
#pragma unroll
for (int G1_ = 0; G1_ < 4; G1_ += 1) {
  gtid1[G1_] = blockIdx.x * 1024 + (G1_ * 256 + threadIdx.x);  // lavamd.fut:9
}
const int i0 = tiler_min(gtid0, n - 1);
int i1[4];
float a[4];  // lavamd.fut:9
#pragma unroll
for (int G1_ = 0; G1_ < 4; G1_ += 1) {
  i1[G1_] = tiler_min(gtid1[G1_], m - 1);
  a[G1_] = AA[i0 * m + i1[G1_]];  // lavamd.fut:9
}
float acc1 = 0.0f;  // lavamd.fut:10
const int joined = p * m;  // lavamd.fut:11
float acc2 = acc1;  // lavamd.fut:11
for (int kk2 = 0; kk2 < joined - 511; kk2 += 512) {  // lavamd.fut:14
  // copyFastMem: cooperative copy: 1 x 512 tile of AA into sh_invar_AArow_chunk, chunk fastest  // lavamd.fut:14
  __syncthreads();  // the tiles are written
  float acc2_2 = acc2;  // lavamd.fut:15
  for (int k2 = 0; k2 < 512; k2 += 1) {  // lavamd.fut:15
    acc2_2 = acc2_2 + sh_invar_AArow_chunk[k2] * 2.0f;
  }
  acc2 = acc2_2;
  __syncthreads();  // the tiles are read before the next copy
}
const int kk2_last = joined - joined % 512;
if (kk2_last < joined) {  // lavamd.fut:14
  const int chunk2 = joined - kk2_last;
  // copyFastMem: cooperative copy: 1 x 512 tile of AA into sh_invar_AArow_chunk, chunk fastest  // lavamd.fut:14
  __syncthreads();  // the tiles are written
  float acc2_3 = acc2;  // lavamd.fut:15
  for (int k2_2 = 0; k2_2 < chunk2; k2_2 += 1) {  // lavamd.fut:15
    acc2_3 = acc2_3 + sh_invar_AArow_chunk[k2_2] * 2.0f;
  }
  acc2 = acc2_3;
  __syncthreads();  // the tiles are read before the next copy
}
acc1 = acc2;
#pragma unroll
for (int G1_ = 0; G1_ < 4; G1_ += 1) {
  if (gtid0 < n && gtid1[G1_] < m) {
    out0[gtid0 * m + gtid1[G1_]] = acc1;  // lavamd.fut:7
  }
}
