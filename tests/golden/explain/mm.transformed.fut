-- step 1 of 3, block tiling: the tiles a block shares in fast memory, one point a thread
fun [[f32, q], m] main([[f32, n], m] A, [[f32, q], n] B0) =
  let B = transpose(B0) in
  -- 2-D block of 16 x 16 threads: dimension 1 -> threadIdx.x, dimension 0 -> threadIdx.y
  -- tid = threadIdx.y * 16 + threadIdx.x
  -- register tile: 64 points a thread, a block covers 128 x 128 (steps 2 and 3)
  map(
    fn [f32, q] ([f32, n] a) =>
      map(
        fn f32 ([f32, n] b) =>
          -- fast memory: shMem_a_c[32][128] (transposed)
          -- fast memory: shMem_b_c[32][128] (transposed)
          -- chunk = 32 (the last chunk may be shorter); copies guard the array's end
          streamSeq(
            fn f32 (int kk, [f32, chunk] a_c, [f32, chunk] b_c, f32 acc) =>
              let shMem_a_c = copyFastMem(a_c[threadIdx.y], threadIdx.y, threadIdx.x) in
              let shMem_b_c = copyFastMem(b_c[threadIdx.y], threadIdx.y, threadIdx.x) in
              loop (acc) = for k < chunk do
                acc + shMem_a_c[k, threadIdx.y] * shMem_b_c[k, threadIdx.x]
              in acc,
            a, b, 0.0f32),
        B),
    A)

-- step 2 of 3, strip-mining dimension 0 by T0 = 8 and dimension 1 by T1 = 8. From here on, the
-- kernel tiler writes for this plan, as the register tiling rewrites made it, with its copies
-- drawn one line each and synchronous (--show-rewrites prints the kernel's own, pipelined). After
-- strip-mining, each tiled dim's point P{d}_ becomes the thread's current point of its micro-tile,
-- its group G{d}_ and lane L{d}_ (the loops over them come next)
const int gtid0 = tiler_block_y * 128 + (G0_ * 64 + threadIdx.y * 4 + L0_);  // mm.fut:7
const int gtid1 = blockIdx.x * 128 + (G1_ * 64 + threadIdx.x * 4 + L1_);  // mm.fut:8
const int i0 = tiler_min(gtid0, m - 1);
const int i1 = tiler_min(gtid1, q - 1);
float acc = 0.0f;  // mm.fut:9
for (int kk = 0; kk < n - 31; kk += 32) {  // mm.fut:9
  // copyFastMem: cooperative copy: 128 x 32 tile of A_t into sh_a_c, rows fastest, 4 at a time  // mm.fut:9
  // copyFastMem: cooperative copy: 128 x 32 tile of B0 into sh_b_c, rows fastest, 4 at a time  // mm.fut:9
  __syncthreads();  // the tiles are written
  float acc_2 = acc;  // mm.fut:10
  for (int k = 0; k < 32; k += 1) {  // mm.fut:10
    acc_2 = acc_2 + sh_a_c[G0_ * 64 + threadIdx.y * 4 + L0_ + k * 128] * sh_b_c[G1_ * 64 + threadIdx.x * 4 + L1_ + k * 128];
  }
  acc = acc_2;
  __syncthreads();  // the tiles are read before the next copy
}
const int kk_last = n - n % 32;
if (kk_last < n) {  // mm.fut:9
  const int chunk = n - kk_last;
  // copyFastMem: cooperative copy: 128 x 32 tile of A_t into sh_a_c, rows fastest  // mm.fut:9
  // copyFastMem: cooperative copy: 128 x 32 tile of B0 into sh_b_c, rows fastest  // mm.fut:9
  __syncthreads();  // the tiles are written
  float acc_3 = acc;  // mm.fut:10
  for (int k_2 = 0; k_2 < chunk; k_2 += 1) {  // mm.fut:10
    acc_3 = acc_3 + sh_a_c[G0_ * 64 + threadIdx.y * 4 + L0_ + k_2 * 128] * sh_b_c[G1_ * 64 + threadIdx.x * 4 + L1_ + k_2 * 128];
  }
  acc = acc_3;
  __syncthreads();  // the tiles are read before the next copy
}
if (gtid0 < m && gtid1 < q) {
  out0[gtid0 * q + gtid1] = acc;  // mm.fut:5
}

-- step 3 of 3, sequentialising, in two rewrites. After interchange, the map over the thread's
-- points (a loop point_...) distributed over the statements and moved inward through the loops
-- over chunks and over k; the copies and barriers stay once a thread, and a load that fewer dims
-- decide gets a map of its own, read once into registers and reused by the other dims' points
for (int point_0 = 0; point_0 < 8; point_0 += 1) {  // the map over the thread's 8 points of dims 0
  const int gtid0 = tiler_block_y * 128 + (G0_ * 64 + threadIdx.y * 4 + L0_);  // mm.fut:7
}
for (int point_1 = 0; point_1 < 8; point_1 += 1) {  // the map over the thread's 8 points of dims 1
  const int gtid1 = blockIdx.x * 128 + (G1_ * 64 + threadIdx.x * 4 + L1_);  // mm.fut:8
}
for (int point_0 = 0; point_0 < 8; point_0 += 1) {  // the map over the thread's 8 points of dims 0
  const int i0 = tiler_min(gtid0, m - 1);
}
for (int point_1 = 0; point_1 < 8; point_1 += 1) {  // the map over the thread's 8 points of dims 1
  const int i1 = tiler_min(gtid1, q - 1);
}
for (int point_01 = 0; point_01 < 64; point_01 += 1) {  // the map over the thread's 64 points of dims 0, 1
  float acc = 0.0f;  // mm.fut:9
}
for (int kk = 0; kk < n - 31; kk += 32) {  // mm.fut:9
  // copyFastMem: cooperative copy: 128 x 32 tile of A_t into sh_a_c, rows fastest, 4 at a time  // mm.fut:9
  // copyFastMem: cooperative copy: 128 x 32 tile of B0 into sh_b_c, rows fastest, 4 at a time  // mm.fut:9
  __syncthreads();  // the tiles are written
  for (int point_01 = 0; point_01 < 64; point_01 += 1) {  // the map over the thread's 64 points of dims 0, 1
    float acc_2 = acc;  // mm.fut:10
  }
  #pragma unroll
  for (int k = 0; k < 32; k += 1) {  // mm.fut:10
    for (int point_0 = 0; point_0 < 8; point_0 += 1) {  // the map over the thread's 8 points of dims 0
      const float reg_sh_a_c = sh_a_c[G0_ * 64 + threadIdx.y * 4 + L0_ + k * 128];
    }
    for (int point_1 = 0; point_1 < 8; point_1 += 1) {  // the map over the thread's 8 points of dims 1
      const float reg_sh_b_c = sh_b_c[G1_ * 64 + threadIdx.x * 4 + L1_ + k * 128];
    }
    for (int point_01 = 0; point_01 < 64; point_01 += 1) {  // the map over the thread's 64 points of dims 0, 1
      acc_2 = acc_2 + reg_sh_a_c * reg_sh_b_c;
    }
  }
  for (int point_01 = 0; point_01 < 64; point_01 += 1) {  // the map over the thread's 64 points of dims 0, 1
    acc = acc_2;
  }
  __syncthreads();  // the tiles are read before the next copy
}
const int kk_last = n - n % 32;
if (kk_last < n) {  // mm.fut:9
  const int chunk = n - kk_last;
  // copyFastMem: cooperative copy: 128 x 32 tile of A_t into sh_a_c, rows fastest  // mm.fut:9
  // copyFastMem: cooperative copy: 128 x 32 tile of B0 into sh_b_c, rows fastest  // mm.fut:9
  __syncthreads();  // the tiles are written
  for (int point_01 = 0; point_01 < 64; point_01 += 1) {  // the map over the thread's 64 points of dims 0, 1
    float acc_3 = acc;  // mm.fut:10
  }
  for (int k_2 = 0; k_2 < chunk; k_2 += 1) {  // mm.fut:10
    for (int point_0 = 0; point_0 < 8; point_0 += 1) {  // the map over the thread's 8 points of dims 0
      const float reg_sh_a_c_2 = sh_a_c[G0_ * 64 + threadIdx.y * 4 + L0_ + k_2 * 128];
    }
    for (int point_1 = 0; point_1 < 8; point_1 += 1) {  // the map over the thread's 8 points of dims 1
      const float reg_sh_b_c_2 = sh_b_c[G1_ * 64 + threadIdx.x * 4 + L1_ + k_2 * 128];
    }
    for (int point_01 = 0; point_01 < 64; point_01 += 1) {  // the map over the thread's 64 points of dims 0, 1
      acc_3 = acc_3 + reg_sh_a_c_2 * reg_sh_b_c_2;
    }
  }
  for (int point_01 = 0; point_01 < 64; point_01 += 1) {  // the map over the thread's 64 points of dims 0, 1
    acc = acc_3;
  }
  __syncthreads();  // the tiles are read before the next copy
}
for (int point_01 = 0; point_01 < 64; point_01 += 1) {  // the map over the thread's 64 points of dims 0, 1
  if (gtid0 < m && gtid1 < q) {
    out0[gtid0 * q + gtid1] = acc;  // mm.fut:5
  }
}

-- After sequentialising, each map over points made loops nvcc unrolls, each value that differs by
-- point an array of registers
int gtid0[8];  // mm.fut:7
#pragma unroll
for (int G0_ = 0; G0_ < 2; G0_ += 1) {
  #pragma unroll
  for (int L0_ = 0; L0_ < 4; L0_ += 1) {
    gtid0[G0_ * 4 + L0_] = tiler_block_y * 128 + (G0_ * 64 + threadIdx.y * 4 + L0_);  // mm.fut:7
  }
}
int gtid1[8];  // mm.fut:8
#pragma unroll
for (int G1_ = 0; G1_ < 2; G1_ += 1) {
  #pragma unroll
  for (int L1_ = 0; L1_ < 4; L1_ += 1) {
    gtid1[G1_ * 4 + L1_] = blockIdx.x * 128 + (G1_ * 64 + threadIdx.x * 4 + L1_);  // mm.fut:8
  }
}
int i0[8];
#pragma unroll
for (int G0_ = 0; G0_ < 2; G0_ += 1) {
  #pragma unroll
  for (int L0_ = 0; L0_ < 4; L0_ += 1) {
    i0[G0_ * 4 + L0_] = tiler_min(gtid0[G0_ * 4 + L0_], m - 1);
  }
}
int i1[8];
#pragma unroll
for (int G1_ = 0; G1_ < 2; G1_ += 1) {
  #pragma unroll
  for (int L1_ = 0; L1_ < 4; L1_ += 1) {
    i1[G1_ * 4 + L1_] = tiler_min(gtid1[G1_ * 4 + L1_], q - 1);
  }
}
float acc[64];  // mm.fut:9
#pragma unroll
for (int G0_ = 0; G0_ < 2; G0_ += 1) {
  #pragma unroll
  for (int L0_ = 0; L0_ < 4; L0_ += 1) {
    #pragma unroll
    for (int G1_ = 0; G1_ < 2; G1_ += 1) {
      #pragma unroll
      for (int L1_ = 0; L1_ < 4; L1_ += 1) {
        acc[(G0_ * 4 + L0_) * 8 + (G1_ * 4 + L1_)] = 0.0f;  // mm.fut:9
      }
    }
  }
}
for (int kk = 0; kk < n - 31; kk += 32) {  // mm.fut:9
  // copyFastMem: cooperative copy: 128 x 32 tile of A_t into sh_a_c, rows fastest, 4 at a time  // mm.fut:9
  // copyFastMem: cooperative copy: 128 x 32 tile of B0 into sh_b_c, rows fastest, 4 at a time  // mm.fut:9
  __syncthreads();  // the tiles are written
  float acc_2[64];  // mm.fut:10
  #pragma unroll
  for (int G0_ = 0; G0_ < 2; G0_ += 1) {
    #pragma unroll
    for (int L0_ = 0; L0_ < 4; L0_ += 1) {
      #pragma unroll
      for (int G1_ = 0; G1_ < 2; G1_ += 1) {
        #pragma unroll
        for (int L1_ = 0; L1_ < 4; L1_ += 1) {
          acc_2[(G0_ * 4 + L0_) * 8 + (G1_ * 4 + L1_)] = acc[(G0_ * 4 + L0_) * 8 + (G1_ * 4 + L1_)];  // mm.fut:10
        }
      }
    }
  }
  #pragma unroll
  for (int k = 0; k < 32; k += 1) {  // mm.fut:10
    float reg_sh_a_c[8];
    #pragma unroll
    for (int G0_ = 0; G0_ < 2; G0_ += 1) {
      const float4 v_reg_sh_a_c = *reinterpret_cast<const float4*>(&sh_a_c[G0_ * 64 + threadIdx.y * 4 + k * 128]);
      reg_sh_a_c[G0_ * 4] = v_reg_sh_a_c.x;
      reg_sh_a_c[G0_ * 4 + 1] = v_reg_sh_a_c.y;
      reg_sh_a_c[G0_ * 4 + 2] = v_reg_sh_a_c.z;
      reg_sh_a_c[G0_ * 4 + 3] = v_reg_sh_a_c.w;
    }
    float reg_sh_b_c[8];
    #pragma unroll
    for (int G1_ = 0; G1_ < 2; G1_ += 1) {
      const float4 v_reg_sh_b_c = *reinterpret_cast<const float4*>(&sh_b_c[G1_ * 64 + threadIdx.x * 4 + k * 128]);
      reg_sh_b_c[G1_ * 4] = v_reg_sh_b_c.x;
      reg_sh_b_c[G1_ * 4 + 1] = v_reg_sh_b_c.y;
      reg_sh_b_c[G1_ * 4 + 2] = v_reg_sh_b_c.z;
      reg_sh_b_c[G1_ * 4 + 3] = v_reg_sh_b_c.w;
    }
    #pragma unroll
    for (int G0_ = 0; G0_ < 2; G0_ += 1) {
      #pragma unroll
      for (int L0_ = 0; L0_ < 4; L0_ += 1) {
        #pragma unroll
        for (int G1_ = 0; G1_ < 2; G1_ += 1) {
          #pragma unroll
          for (int L1_ = 0; L1_ < 4; L1_ += 1) {
            acc_2[(G0_ * 4 + L0_) * 8 + (G1_ * 4 + L1_)] = acc_2[(G0_ * 4 + L0_) * 8 + (G1_ * 4 + L1_)] + reg_sh_a_c[G0_ * 4 + L0_] * reg_sh_b_c[G1_ * 4 + L1_];
          }
        }
      }
    }
  }
  #pragma unroll
  for (int G0_ = 0; G0_ < 2; G0_ += 1) {
    #pragma unroll
    for (int L0_ = 0; L0_ < 4; L0_ += 1) {
      #pragma unroll
      for (int G1_ = 0; G1_ < 2; G1_ += 1) {
        #pragma unroll
        for (int L1_ = 0; L1_ < 4; L1_ += 1) {
          acc[(G0_ * 4 + L0_) * 8 + (G1_ * 4 + L1_)] = acc_2[(G0_ * 4 + L0_) * 8 + (G1_ * 4 + L1_)];
        }
      }
    }
  }
  __syncthreads();  // the tiles are read before the next copy
}
const int kk_last = n - n % 32;
if (kk_last < n) {  // mm.fut:9
  const int chunk = n - kk_last;
  // copyFastMem: cooperative copy: 128 x 32 tile of A_t into sh_a_c, rows fastest  // mm.fut:9
  // copyFastMem: cooperative copy: 128 x 32 tile of B0 into sh_b_c, rows fastest  // mm.fut:9
  __syncthreads();  // the tiles are written
  float acc_3[64];  // mm.fut:10
  #pragma unroll
  for (int G0_ = 0; G0_ < 2; G0_ += 1) {
    #pragma unroll
    for (int L0_ = 0; L0_ < 4; L0_ += 1) {
      #pragma unroll
      for (int G1_ = 0; G1_ < 2; G1_ += 1) {
        #pragma unroll
        for (int L1_ = 0; L1_ < 4; L1_ += 1) {
          acc_3[(G0_ * 4 + L0_) * 8 + (G1_ * 4 + L1_)] = acc[(G0_ * 4 + L0_) * 8 + (G1_ * 4 + L1_)];  // mm.fut:10
        }
      }
    }
  }
  for (int k_2 = 0; k_2 < chunk; k_2 += 1) {  // mm.fut:10
    float reg_sh_a_c_2[8];
    #pragma unroll
    for (int G0_ = 0; G0_ < 2; G0_ += 1) {
      const float4 v_reg_sh_a_c_2 = *reinterpret_cast<const float4*>(&sh_a_c[G0_ * 64 + threadIdx.y * 4 + k_2 * 128]);
      reg_sh_a_c_2[G0_ * 4] = v_reg_sh_a_c_2.x;
      reg_sh_a_c_2[G0_ * 4 + 1] = v_reg_sh_a_c_2.y;
      reg_sh_a_c_2[G0_ * 4 + 2] = v_reg_sh_a_c_2.z;
      reg_sh_a_c_2[G0_ * 4 + 3] = v_reg_sh_a_c_2.w;
    }
    float reg_sh_b_c_2[8];
    #pragma unroll
    for (int G1_ = 0; G1_ < 2; G1_ += 1) {
      const float4 v_reg_sh_b_c_2 = *reinterpret_cast<const float4*>(&sh_b_c[G1_ * 64 + threadIdx.x * 4 + k_2 * 128]);
      reg_sh_b_c_2[G1_ * 4] = v_reg_sh_b_c_2.x;
      reg_sh_b_c_2[G1_ * 4 + 1] = v_reg_sh_b_c_2.y;
      reg_sh_b_c_2[G1_ * 4 + 2] = v_reg_sh_b_c_2.z;
      reg_sh_b_c_2[G1_ * 4 + 3] = v_reg_sh_b_c_2.w;
    }
    #pragma unroll
    for (int G0_ = 0; G0_ < 2; G0_ += 1) {
      #pragma unroll
      for (int L0_ = 0; L0_ < 4; L0_ += 1) {
        #pragma unroll
        for (int G1_ = 0; G1_ < 2; G1_ += 1) {
          #pragma unroll
          for (int L1_ = 0; L1_ < 4; L1_ += 1) {
            acc_3[(G0_ * 4 + L0_) * 8 + (G1_ * 4 + L1_)] = acc_3[(G0_ * 4 + L0_) * 8 + (G1_ * 4 + L1_)] + reg_sh_a_c_2[G0_ * 4 + L0_] * reg_sh_b_c_2[G1_ * 4 + L1_];
          }
        }
      }
    }
  }
  #pragma unroll
  for (int G0_ = 0; G0_ < 2; G0_ += 1) {
    #pragma unroll
    for (int L0_ = 0; L0_ < 4; L0_ += 1) {
      #pragma unroll
      for (int G1_ = 0; G1_ < 2; G1_ += 1) {
        #pragma unroll
        for (int L1_ = 0; L1_ < 4; L1_ += 1) {
          acc[(G0_ * 4 + L0_) * 8 + (G1_ * 4 + L1_)] = acc_3[(G0_ * 4 + L0_) * 8 + (G1_ * 4 + L1_)];
        }
      }
    }
  }
  __syncthreads();  // the tiles are read before the next copy
}
#pragma unroll
for (int G0_ = 0; G0_ < 2; G0_ += 1) {
  #pragma unroll
  for (int L0_ = 0; L0_ < 4; L0_ += 1) {
    #pragma unroll
    for (int G1_ = 0; G1_ < 2; G1_ += 1) {
      #pragma unroll
      for (int L1_ = 0; L1_ < 4; L1_ += 1) {
        if (gtid0[G0_ * 4 + L0_] < m && gtid1[G1_ * 4 + L1_] < q) {
          out0[gtid0[G0_ * 4 + L0_] * q + gtid1[G1_ * 4 + L1_]] = acc[(G0_ * 4 + L0_) * 8 + (G1_ * 4 + L1_)];  // mm.fut:5
        }
      }
    }
  }
}
