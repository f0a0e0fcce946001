// mma.cuh: the matrix units (tensor cores), included into a module whose
// register-tiled products run on them. Each warp keeps FM x FN accumulator
// fragments (16 x 16; 8 x 8 for f64 before sm_90) of its block's product tile; the
// plan (tiler/analyse/tensor_cores.py) chose the instruction, the warps'
// split of the tile and the tiles' layouts, and the kernel passes them in:
// nothing is decided here. Every product runs PTX `mma.sync`: 16-bit inputs
// fed by `ldmatrix` (CUDA's WMMA loads, which tiler used first, compile to
// one shared load a thread an element pair on sm_90), TF32 by ldmatrix where
// a tile's lines run along the chunk and element by element where they do
// not, f64 element by element.
#ifndef TILER_MMA_CUH
#define TILER_MMA_CUH
#include <cuda_bf16.h>
#include <cuda_fp16.h>
// a tile's layout as the units read it: row-major A (B) has its positions
// along the chunk (its columns) adjacent in memory
struct tiler_row_major {};
struct tiler_col_major {};
template <class L>
struct tiler_mma_row_major {
  static constexpr bool value = false;
};
template <>
struct tiler_mma_row_major<tiler_row_major> {
  static constexpr bool value = true;
};

// a warp's accumulator fragments for inputs In summed in Acc by M x N x K
// instructions: specialised below for each instruction tiler plans
// (target.MATRIX_SHAPES); tiler_mma_zero, tiler_mma_chunk and
// tiler_mma_store take each one. tiler_mma_chunk<STEPS, ...>(t, a, b) adds
// STEPS instructions along a chunk: `a` is the warp's first row of A at the
// chunk's first position, fragment i of it A_NEXT elements on and step s
// A_STEP on; `b` the same for its columns of B. tiler_mma_store<LD>(t, out)
// writes the fragments row-major from the warp's first row and column.
template <class In, class Acc, int M, int N, int K, int FM, int FN>
struct tiler_mma_tile;

// 16-bit and TF32 inputs summed in f32, and f64 from sm_90: a 16 x 16
// fragment is two m16n8 instructions' accumulators, 4 values each (the left
// 8 columns', then the right ones'): thread `lane` holds rows lane / 4 and
// lane / 4 + 8, columns 2 (lane % 4) and the next (PTX ISA, "Matrix
// Fragments for mma.m16n8k16", the same for f64's m16n8k8)
template <class In, class Acc, int K, int FM, int FN>
struct tiler_mma_tile<In, Acc, 16, 16, K, FM, FN> {
  Acc c[FM][FN][8];
};

// f64 before sm_90: a fragment is one m8n8k4 instruction's accumulator, 2 doubles a thread
template <int FM, int FN>
struct tiler_mma_tile<double, double, 8, 8, 4, FM, FN> {
  double c[FM][FN][2];
};

template <class T>
__device__ __forceinline__ void tiler_mma_zero(T& t) {
  #pragma unroll
  for (auto& row : t.c) {
    #pragma unroll
    for (auto& fragment : row) {
      #pragma unroll
      for (auto& x : fragment) {
        x = 0;
      }
    }
  }
}

__device__ __forceinline__ int tiler_lane() {
  int lane;
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));
  return lane;
}

// ---- 16-bit inputs summed in f32: mma.sync.m16n8k16 from ldmatrix ----------
template <class In>
struct tiler_mma_sync_name;
template <>
struct tiler_mma_sync_name<__half> {
  static constexpr bool f16 = true;
};
template <>
struct tiler_mma_sync_name<__nv_bfloat16> {
  static constexpr bool f16 = false;
};

// four 8 x 8 matrices of 16-bit elements, row `lane % 8` of matrix `lane / 8`
// at `p` (each lane passes its own row's address); TRANS: each transposed
__device__ __forceinline__ void tiler_ldmatrix4(unsigned (&r)[4], const void* p, bool trans) {
  const unsigned a = static_cast<unsigned>(__cvta_generic_to_shared(p));
  if (trans) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 { %0, %1, %2, %3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(a));
  } else {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 { %0, %1, %2, %3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(a));
  }
}

template <class In>
__device__ __forceinline__ void tiler_mma16816(float (&d)[4], const unsigned (&a)[4], unsigned b0, unsigned b1) {
  if (tiler_mma_sync_name<In>::f16) {
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 { %0, %1, %2, %3}, { %4, %5, %6, %7}, { %8, %9}, "
                 "{ %0, %1, %2, %3};\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
  } else {
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 { %0, %1, %2, %3}, { %4, %5, %6, %7}, { %8, %9}, "
                 "{ %0, %1, %2, %3};\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
  }
}

// every pair of a warp's A and B fragments through `mma`, once for the left
// 8 columns of the 16 x 16 fragment and once for the right ones (B's
// registers 0 and 1 are the left columns' two halves of the chunk, 2 and 3
// the right ones')
template <class Mma, int FM, int FN>
__device__ __forceinline__ void tiler_mma_pairs(float (&c)[FM][FN][8], const unsigned (&fa)[FM][4],
                                                const unsigned (&fb)[FN][4], Mma mma) {
  #pragma unroll
  for (int i = 0; i < FM; ++i) {
    #pragma unroll
    for (int j = 0; j < FN; ++j) {
      mma(*reinterpret_cast<float (*)[4]>(&c[i][j][0]), fa[i], fb[j][0], fb[j][1]);
      mma(*reinterpret_cast<float (*)[4]>(&c[i][j][4]), fa[i], fb[j][2], fb[j][3]);
    }
  }
}

// t += A B for 16-bit inputs. A row-major (its
// positions along the chunk adjacent) is read by ldmatrix, column-major by
// ldmatrix.trans; B row-major (its columns adjacent) by ldmatrix.trans,
// column-major by ldmatrix. Lane l's row address: for A, row (l % 8) + 8
// ((l / 8) % 2) and position 8 (l / 16) (row-major; the two swapped in
// memory for column-major); for B, position (l % 8) + 8 ((l / 8) % 2) and
// column 8 (l / 16) (row-major), column (l % 8) + 8 (l / 16) and position
// 8 ((l / 8) % 2) (column-major): the matrices land as the instruction's
// fragments want them (PTX ISA, "Matrix Fragments for mma.m16n8k16").
template <int STEPS, class LA, class LB, int LDA, int LDB, int A_NEXT, int A_STEP, int B_NEXT, int B_STEP, class In,
          int FM, int FN>
__device__ __forceinline__ void tiler_mma_chunk(tiler_mma_tile<In, float, 16, 16, 16, FM, FN>& t, const In* a,
                                                const In* b) {
  const int lane = tiler_lane();
  const int r8 = lane % 8, half = (lane / 8) % 2, quad = lane / 16;
  constexpr bool a_row = tiler_mma_row_major<LA>::value, b_row = tiler_mma_row_major<LB>::value;
  const In* pa = a_row ? a + (r8 + 8 * half) * LDA + 8 * quad : a + (r8 + 8 * quad) * LDA + 8 * half;
  const In* pb = b_row ? b + (r8 + 8 * half) * LDB + 8 * quad : b + (r8 + 8 * quad) * LDB + 8 * half;
  #pragma unroll
  for (int s = 0; s < STEPS; ++s) {
    unsigned fa[FM][4], fb[FN][4];
    #pragma unroll
    for (int i = 0; i < FM; ++i) {
      tiler_ldmatrix4(fa[i], pa + i * A_NEXT + s * A_STEP, !a_row);
    }
    #pragma unroll
    for (int j = 0; j < FN; ++j) {
      tiler_ldmatrix4(fb[j], pb + j * B_NEXT + s * B_STEP, b_row);
    }
    tiler_mma_pairs(t.c, fa, fb, tiler_mma16816<In>);
  }
}

// ---- f32 inputs as TF32: mma.sync.m16n8k8 ------------------------------------
// A row-major is read by ldmatrix (its 8 x 8 matrices of 16-bit halves are 8
// x 4 f32 ones: thread l gets row l / 4, element l % 4, as the instruction's A
// wants), column-major element by element; B row-major (its columns
// adjacent) element by element (thread l: position l % 4 and l % 4 + 4,
// column l / 4), column-major by ldmatrix. Each element is rounded to TF32
// first (cvt.rna: to nearest, ties away from zero).

__device__ __forceinline__ unsigned tiler_tf32(float x) {
  unsigned r;
  asm("cvt.rna.tf32.f32 %0, %1;\n" : "=r"(r) : "f"(x));
  return r;
}

__device__ __forceinline__ unsigned tiler_tf32_bits(unsigned x) {
  return tiler_tf32(__uint_as_float(x));
}

__device__ __forceinline__ void tiler_mma1688(float (&d)[4], const unsigned (&a)[4], unsigned b0, unsigned b1) {
  asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 { %0, %1, %2, %3}, { %4, %5, %6, %7}, { %8, %9}, "
               "{ %0, %1, %2, %3};\n"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

template <int STEPS, class LA, class LB, int LDA, int LDB, int A_NEXT, int A_STEP, int B_NEXT, int B_STEP, int FM,
          int FN>
__device__ __forceinline__ void tiler_mma_chunk(tiler_mma_tile<float, float, 16, 16, 8, FM, FN>& t, const float* a,
                                                const float* b) {
  const int lane = tiler_lane();
  const int g = lane / 4, q = lane % 4, r8 = lane % 8, half = (lane / 8) % 2, quad = lane / 16;
  constexpr bool a_row = tiler_mma_row_major<LA>::value, b_row = tiler_mma_row_major<LB>::value;
  #pragma unroll
  for (int s = 0; s < STEPS; ++s) {
    unsigned fa[FM][4], fb[FN][4];  // fb[j]: the left 8 columns' two registers, then the right ones'
    #pragma unroll
    for (int i = 0; i < FM; ++i) {
      const float* p = a + i * A_NEXT + s * A_STEP;
      if (a_row) {
        tiler_ldmatrix4(fa[i], p + (r8 + 8 * half) * LDA + 4 * quad, false);
        #pragma unroll
        for (int e = 0; e < 4; ++e) {
          fa[i][e] = tiler_tf32_bits(fa[i][e]);
        }
      } else {
        fa[i][0] = tiler_tf32(p[q * LDA + g]);
        fa[i][1] = tiler_tf32(p[q * LDA + g + 8]);
        fa[i][2] = tiler_tf32(p[(q + 4) * LDA + g]);
        fa[i][3] = tiler_tf32(p[(q + 4) * LDA + g + 8]);
      }
    }
    #pragma unroll
    for (int j = 0; j < FN; ++j) {
      const float* p = b + j * B_NEXT + s * B_STEP;
      if (b_row) {
        fb[j][0] = tiler_tf32(p[q * LDB + g]);
        fb[j][1] = tiler_tf32(p[(q + 4) * LDB + g]);
        fb[j][2] = tiler_tf32(p[q * LDB + g + 8]);
        fb[j][3] = tiler_tf32(p[(q + 4) * LDB + g + 8]);
      } else {
        tiler_ldmatrix4(fb[j], p + (r8 + 8 * quad) * LDB + 4 * half, false);
        #pragma unroll
        for (int e = 0; e < 4; ++e) {
          fb[j][e] = tiler_tf32_bits(fb[j][e]);
        }
      }
    }
    tiler_mma_pairs(t.c, fa, fb, tiler_mma1688);
  }
}

// ---- f64 from sm_90: mma.sync.m16n8k8 ------------------------------------------
// Thread l holds A's rows l / 4 and l / 4 + 8 at positions l % 4 and l % 4 +
// 4 (register 2 p + r: row l / 4 + 8 r, position l % 4 + 4 p), B's
// positions l % 4 and l % 4 + 4 at column l / 4, and the accumulator as the
// 16 x 8 instructions above do (PTX ISA, "Matrix Fragments for mma.m16n8k8"
// with .f64): every operand element by element, one 8-byte load each.
// (mm_f64 at 4096^3 on an H200: m8n8k4 4.73 ms, m16n8k4 2.87, m16n8k8
// 2.85, m16n8k16 3.46: its 16 operand registers a fragment pair crowd out
// the loads in flight.)

// the element at `line` (A's row, B's column) and position `p` along the
// chunk of a tile whose lines are LD apart: LINES, each line's positions
// adjacent (A row-major, B column-major); else each position's lines
template <bool LINES, int LD>
__device__ __forceinline__ int tiler_mma_at(int line, int p) {
  return LINES ? line * LD + p : p * LD + line;
}

__device__ __forceinline__ void tiler_dmma16n8(double (&d)[4], const double (&a)[4], const double (&b)[2]) {
  asm volatile("mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64 { %0, %1, %2, %3}, { %4, %5, %6, %7}, { %8, %9}, "
               "{ %0, %1, %2, %3};\n"
               : "+d"(d[0]), "+d"(d[1]), "+d"(d[2]), "+d"(d[3])
               : "d"(a[0]), "d"(a[1]), "d"(a[2]), "d"(a[3]), "d"(b[0]), "d"(b[1]));
}

template <int STEPS, class LA, class LB, int LDA, int LDB, int A_NEXT, int A_STEP, int B_NEXT, int B_STEP, int FM,
          int FN>
__device__ __forceinline__ void tiler_mma_chunk(tiler_mma_tile<double, double, 16, 16, 8, FM, FN>& t, const double* a,
                                                const double* b) {
  constexpr int K = 8;
  const int lane = tiler_lane();
  const int g = lane / 4, q = lane % 4;
  constexpr bool a_row = tiler_mma_row_major<LA>::value, b_row = tiler_mma_row_major<LB>::value;
  #pragma unroll
  for (int s = 0; s < STEPS; ++s) {
    double fa[FM][K / 2], fb[FN][2][K / 4];
    #pragma unroll
    for (int i = 0; i < FM; ++i) {
      #pragma unroll
      for (int v = 0; v < K / 2; ++v) {
        fa[i][v] = a[i * A_NEXT + s * A_STEP + tiler_mma_at<a_row, LDA>(g + 8 * (v % 2), q + 4 * (v / 2))];
      }
    }
    #pragma unroll
    for (int j = 0; j < FN; ++j) {
      #pragma unroll
      for (int h = 0; h < 2; ++h) {
        #pragma unroll
        for (int v = 0; v < K / 4; ++v) {
          fb[j][h][v] = b[j * B_NEXT + s * B_STEP + tiler_mma_at<!b_row, LDB>(g + 8 * h, q + 4 * v)];
        }
      }
    }
    #pragma unroll
    for (int i = 0; i < FM; ++i) {
      #pragma unroll
      for (int j = 0; j < FN; ++j) {
        #pragma unroll
        for (int h = 0; h < 2; ++h) {
          tiler_dmma16n8(*reinterpret_cast<double (*)[4]>(&t.c[i][j][4 * h]), fa[i], fb[j][h]);
        }
      }
    }
  }
}

// ---- f64 before sm_90: mma.sync.m8n8k4 ----------------------------------------
// Thread l holds A's row l / 4 at position l % 4, B's position l % 4 at
// column l / 4, and the accumulator's row l / 4 at columns 2 (l % 4) and the
// next (PTX ISA, "Matrix Fragments for mma.m8n8k4" with .f64): every operand
// element by element, one 8-byte load each.

template <int STEPS, class LA, class LB, int LDA, int LDB, int A_NEXT, int A_STEP, int B_NEXT, int B_STEP, int FM,
          int FN>
__device__ __forceinline__ void tiler_mma_chunk(tiler_mma_tile<double, double, 8, 8, 4, FM, FN>& t, const double* a,
                                                const double* b) {
  const int lane = tiler_lane();
  const int g = lane / 4, q = lane % 4;
  constexpr bool a_row = tiler_mma_row_major<LA>::value, b_row = tiler_mma_row_major<LB>::value;
  const double* pa = a + (a_row ? g * LDA + q : q * LDA + g);
  const double* pb = b + (b_row ? q * LDB + g : g * LDB + q);
  #pragma unroll
  for (int s = 0; s < STEPS; ++s) {
    double fa[FM], fb[FN];
    #pragma unroll
    for (int i = 0; i < FM; ++i) {
      fa[i] = pa[i * A_NEXT + s * A_STEP];
    }
    #pragma unroll
    for (int j = 0; j < FN; ++j) {
      fb[j] = pb[j * B_NEXT + s * B_STEP];
    }
    #pragma unroll
    for (int i = 0; i < FM; ++i) {
      #pragma unroll
      for (int j = 0; j < FN; ++j) {
        asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 { %0, %1}, { %2}, { %3}, { %0, %1};\n"
                     : "+d"(t.c[i][j][0]), "+d"(t.c[i][j][1]) : "d"(fa[i]), "d"(fb[j]));
      }
    }
  }
}

template <int LD, int FM, int FN>
__device__ __forceinline__ void tiler_mma_store(const tiler_mma_tile<double, double, 8, 8, 4, FM, FN>& t, double* out) {
  const int lane = tiler_lane();
  const int row = lane / 4, col = 2 * (lane % 4);
  #pragma unroll
  for (int i = 0; i < FM; ++i) {
    #pragma unroll
    for (int j = 0; j < FN; ++j) {
      *reinterpret_cast<double2*>(out + (i * 8 + row) * LD + j * 8 + col) = make_double2(t.c[i][j][0], t.c[i][j][1]);
    }
  }
}

__device__ __forceinline__ void tiler_mma_store_pair(float* p, float x, float y) {
  *reinterpret_cast<float2*>(p) = make_float2(x, y);
}

__device__ __forceinline__ void tiler_mma_store_pair(double* p, double x, double y) {
  *reinterpret_cast<double2*>(p) = make_double2(x, y);
}

template <int LD, class In, class Acc, int K, int FM, int FN>
__device__ __forceinline__ void tiler_mma_store(const tiler_mma_tile<In, Acc, 16, 16, K, FM, FN>& t, Acc* out) {
  const int lane = tiler_lane();
  const int row = lane / 4, col = 2 * (lane % 4);
  #pragma unroll
  for (int i = 0; i < FM; ++i) {
    #pragma unroll
    for (int j = 0; j < FN; ++j) {
      #pragma unroll
      for (int h = 0; h < 2; ++h) {
        Acc* p = out + (i * 16 + row) * LD + j * 16 + h * 8 + col;
        tiler_mma_store_pair(p, t.c[i][j][4 * h], t.c[i][j][4 * h + 1]);
        tiler_mma_store_pair(p + 8 * LD, t.c[i][j][4 * h + 2], t.c[i][j][4 * h + 3]);
      }
    }
  }
}

// ---- sm_90a: a warp group's wgmma.mma_async.m64nNk16 (16-bit inputs) or m64nNk8 (TF32), summed in f32 ----
// A warp group (four warps, 128 threads) multiplies its 64 rows of A by its N
// columns of B, 32 bytes of positions an instruction, both read from shared memory
// through descriptors. The tiles are laid out as the 128-byte swizzle wants
// (lower/streams.py): lines of 128 bytes, 16-byte unit u of line l at unit u
// ^ (l % 8), each tile on a 1,024-byte boundary; a tile whose lines run along
// the chunk (A row-major, B column-major: "K-major") is read line by line, 8
// lines 1,024 bytes apart; one whose lines run along its sides (wgmma's
// transposed operand) in blocks of 64 across, its leading byte offset from
// one block to the next (CUTLASS's make_gmma_desc for its MN-major layout:
// the two offsets swapped, every result was wrong; experiments/wgmma/).
// Built only for sm_90a. Thread t of the group holds, of each fragment,
// row 16 (t / 32) + (t % 32) / 4 + 8 ((v / 2) % 2) and column 8 (v / 4) + 2
// (t % 4) + v % 2 in its v-th value (PTX ISA, "Register Fragments and Shared
// Memory Matrix Layouts" for wgmma's accumulator D).
struct tiler_wgmma_layout {
  static constexpr int M = 64;  // an instruction's rows
  static constexpr unsigned STRIDE_BYTES = 1024;  // 8 lines of 128 bytes: the swizzle's period
  static constexpr unsigned long long SWIZZLE_128 = 1ull << 62;  // sm_90's layout type 1 in bits 62-63
};

template <class In, int N, int FM, int FN>
struct tiler_wgmma_tile {
  float c[FM][FN][N / 2];
};

// shared writes before the next barrier, made visible to the instructions
// (cp.async and stores are the generic proxy's; wgmma reads through the async one)
template <int = 0>
__device__ __forceinline__ void tiler_fence_proxy_async() {
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
}

// a swizzled tile's descriptor: its start, leading byte offset and the stride (offsets in 16-byte units)
__device__ __forceinline__ unsigned long long tiler_wgmma_desc(unsigned start, unsigned lead) {
  return (unsigned long long)((start & 0x3FFFF) >> 4) | ((unsigned long long)((lead >> 4) & 0x3FFF) << 16) |
         ((unsigned long long)((tiler_wgmma_layout::STRIDE_BYTES >> 4) & 0x3FFF) << 32) | tiler_wgmma_layout::SWIZZLE_128;
}

// an instruction's accumulators, N / 2 floats of `d` a thread: their operands ("+f") and their names in
// the instruction's text ({ %0, ... }), written once for every instruction of that width
#define TILER_WGMMA_F8(i) \
  "+f"(d[i]), "+f"(d[i + 1]), "+f"(d[i + 2]), "+f"(d[i + 3]), "+f"(d[i + 4]), "+f"(d[i + 5]), "+f"(d[i + 6]), \
  "+f"(d[i + 7])
#define TILER_WGMMA_ACC32 TILER_WGMMA_F8(0), TILER_WGMMA_F8(8), TILER_WGMMA_F8(16), TILER_WGMMA_F8(24)
#define TILER_WGMMA_ACC64 TILER_WGMMA_ACC32, TILER_WGMMA_F8(32), TILER_WGMMA_F8(40), TILER_WGMMA_F8(48), \
  TILER_WGMMA_F8(56)
#define TILER_WGMMA_ACC128 TILER_WGMMA_ACC64, TILER_WGMMA_F8(64), TILER_WGMMA_F8(72), TILER_WGMMA_F8(80), \
  TILER_WGMMA_F8(88), TILER_WGMMA_F8(96), TILER_WGMMA_F8(104), TILER_WGMMA_F8(112), TILER_WGMMA_F8(120)
#define TILER_WGMMA_R0 \
  "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, " \
  "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31"
#define TILER_WGMMA_R32 \
  "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, " \
  "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63"
#define TILER_WGMMA_R64 \
  "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, " \
  "%80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95"
#define TILER_WGMMA_R96 \
  "%96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, " \
  "%112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127"
#define TILER_WGMMA_NAMES32 "{ " TILER_WGMMA_R0 "} "
#define TILER_WGMMA_NAMES64 "{ " TILER_WGMMA_R0 ", " TILER_WGMMA_R32 "} "
#define TILER_WGMMA_NAMES128 "{ " TILER_WGMMA_R0 ", " TILER_WGMMA_R32 ", " TILER_WGMMA_R64 ", " TILER_WGMMA_R96 "} "

// d += A B for one instruction (the pointer's type picks the inputs' format, f32 read as TF32 with the low 13
// bits of each ignored, and the accumulators' count its columns: 64 x 256, 64 x 128 or 64 x 64); TA, TB: the
// operand is the transposed one (its lines along its sides)
template <int TA, int TB>
__device__ __forceinline__ void tiler_wgmma(float (&d)[128], unsigned long long da, unsigned long long db, __nv_bfloat16*) {
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %130, 0;\n"
               "wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16 " TILER_WGMMA_NAMES128
               ", %128, %129, p, 1, 1, %131, %132;\n}\n"
               : TILER_WGMMA_ACC128
               : "l"(da), "l"(db), "r"(1), "n"(TA), "n"(TB));
}

template <int TA, int TB>
__device__ __forceinline__ void tiler_wgmma(float (&d)[128], unsigned long long da, unsigned long long db, __half*) {
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %130, 0;\n"
               "wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16 " TILER_WGMMA_NAMES128
               ", %128, %129, p, 1, 1, %131, %132;\n}\n"
               : TILER_WGMMA_ACC128
               : "l"(da), "l"(db), "r"(1), "n"(TA), "n"(TB));
}

template <int TA, int TB>
__device__ __forceinline__ void tiler_wgmma(float (&d)[128], unsigned long long da, unsigned long long db, float*) {
  static_assert(TA == 0 && TB == 0, "TF32 operands have their positions adjacent");
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %130, 0;\n"
               "wgmma.mma_async.sync.aligned.m64n256k8.f32.tf32.tf32 " TILER_WGMMA_NAMES128
               ", %128, %129, p, 1, 1;\n}\n"
               : TILER_WGMMA_ACC128
               : "l"(da), "l"(db), "r"(1));
}

template <int TA, int TB>
__device__ __forceinline__ void tiler_wgmma(float (&d)[64], unsigned long long da, unsigned long long db, __nv_bfloat16*) {
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n"
               "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 " TILER_WGMMA_NAMES64
               ", %64, %65, p, 1, 1, %67, %68;\n}\n"
               : TILER_WGMMA_ACC64
               : "l"(da), "l"(db), "r"(1), "n"(TA), "n"(TB));
}

template <int TA, int TB>
__device__ __forceinline__ void tiler_wgmma(float (&d)[64], unsigned long long da, unsigned long long db, __half*) {
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n"
               "wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 " TILER_WGMMA_NAMES64
               ", %64, %65, p, 1, 1, %67, %68;\n}\n"
               : TILER_WGMMA_ACC64
               : "l"(da), "l"(db), "r"(1), "n"(TA), "n"(TB));
}

template <int TA, int TB>
__device__ __forceinline__ void tiler_wgmma(float (&d)[64], unsigned long long da, unsigned long long db, float*) {
  static_assert(TA == 0 && TB == 0, "TF32 operands have their positions adjacent");
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n"
               "wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32 " TILER_WGMMA_NAMES64
               ", %64, %65, p, 1, 1;\n}\n"
               : TILER_WGMMA_ACC64
               : "l"(da), "l"(db), "r"(1));
}

template <int TA, int TB>
__device__ __forceinline__ void tiler_wgmma(float (&d)[32], unsigned long long da, unsigned long long db, __nv_bfloat16*) {
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %34, 0;\n"
               "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 " TILER_WGMMA_NAMES32
               ", %32, %33, p, 1, 1, %35, %36;\n}\n"
               : TILER_WGMMA_ACC32
               : "l"(da), "l"(db), "r"(1), "n"(TA), "n"(TB));
}

template <int TA, int TB>
__device__ __forceinline__ void tiler_wgmma(float (&d)[32], unsigned long long da, unsigned long long db, __half*) {
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %34, 0;\n"
               "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 " TILER_WGMMA_NAMES32
               ", %32, %33, p, 1, 1, %35, %36;\n}\n"
               : TILER_WGMMA_ACC32
               : "l"(da), "l"(db), "r"(1), "n"(TA), "n"(TB));
}

template <int TA, int TB>
__device__ __forceinline__ void tiler_wgmma(float (&d)[32], unsigned long long da, unsigned long long db, float*) {
  static_assert(TA == 0 && TB == 0, "TF32 operands have their positions adjacent");
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %34, 0;\n"
               "wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32 " TILER_WGMMA_NAMES32
               ", %32, %33, p, 1, 1;\n}\n"
               : TILER_WGMMA_ACC32
               : "l"(da), "l"(db), "r"(1));
}

// the registers' values, fixed where the compiler sees them (the instructions write them asynchronously)
template <int N>
__device__ __forceinline__ void tiler_wgmma_settle(float (&d)[N]) {
  #pragma unroll
  for (int i = 0; i < N; ++i) {
    asm volatile("" : "+f"(d[i])::"memory");
  }
}

template <class In, int N, int FM, int FN>
__device__ __forceinline__ void tiler_wgmma_settle_tile(tiler_wgmma_tile<In, N, FM, FN>& t) {
  #pragma unroll
  for (int i = 0; i < FM; ++i) {
    #pragma unroll
    for (int j = 0; j < FN; ++j) {
      tiler_wgmma_settle(t.c[i][j]);
    }
  }
}

// before a chunk's instructions: the accumulators (and registers of A loaded before) ordered for them; where
// chunks are left running (PENDING), not touched (ptxas serialises the instructions of a pipeline whose
// accumulators other instructions define)
template <int PENDING = 0, class In, int N, int FM, int FN>
__device__ __forceinline__ void tiler_wgmma_begin(tiler_wgmma_tile<In, N, FM, FN>& t) {
  if (PENDING == 0) tiler_wgmma_settle_tile(t);
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
}

// after them: committed, waited for, their sums in the accumulators; PENDING 1: only the chunk before this
// one waited for (a TMA pipeline's: tiler_wgmma_drain ends it)
template <int PENDING, class In, int N, int FM, int FN>
__device__ __forceinline__ void tiler_wgmma_end(tiler_wgmma_tile<In, N, FM, FN>& t) {
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
  asm volatile("wgmma.wait_group.sync.aligned %0;\n" :: "n"(PENDING) : "memory");
  if (PENDING == 0) tiler_wgmma_settle_tile(t);
}

// every chunk issued done, the sums in the accumulators
template <class In, int N, int FM, int FN>
__device__ __forceinline__ void tiler_wgmma_drain(tiler_wgmma_tile<In, N, FM, FN>& t) {
  asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
  tiler_wgmma_settle_tile(t);
}

// t += A B over STEPS instructions along the chunk: `a` is the warp group's
// first row of A at the chunk's first position, its fragment i A_NEXT
// elements on and step s A_STEP on (and the same for its columns of B)
template <int STEPS, int TA, int A_NEXT, int A_STEP, int A_LEAD, int TB, int B_NEXT, int B_STEP, int B_LEAD,
          int PENDING = 0, class In, int N, int FM, int FN>
__device__ __forceinline__ void tiler_wgmma_chunk(tiler_wgmma_tile<In, N, FM, FN>& t, const In* a, const In* b) {
  const unsigned sa = static_cast<unsigned>(__cvta_generic_to_shared(a));
  const unsigned sb = static_cast<unsigned>(__cvta_generic_to_shared(b));
  tiler_wgmma_begin<PENDING>(t);
  #pragma unroll
  for (int s = 0; s < STEPS; ++s) {
    #pragma unroll
    for (int i = 0; i < FM; ++i) {
      #pragma unroll
      for (int j = 0; j < FN; ++j) {
        tiler_wgmma<TA, TB>(t.c[i][j], tiler_wgmma_desc(sa + (i * A_NEXT + s * A_STEP) * sizeof(In), A_LEAD),
                            tiler_wgmma_desc(sb + (j * B_NEXT + s * B_STEP) * sizeof(In), B_LEAD),
                            static_cast<In*>(nullptr));
      }
    }
  }
  tiler_wgmma_end<PENDING>(t);
}

// this warp's share of the group's fragments, stored row-major from `out`
// (its first row, the group's first column), LD elements a row; where
// TRANSPOSED (the instructions computed the product's transpose), each
// fragment's row stored as a column from `out` (the tile's row of the
// group's first column of the fragments, this warp's first column)
template <int LD, int TRANSPOSED = 0, class In, int N, int FM, int FN>
__device__ __forceinline__ void tiler_wgmma_store(const tiler_wgmma_tile<In, N, FM, FN>& t, float* out) {
  const int lane = tiler_lane();
  const int row = lane / 4, col = 2 * (lane % 4);
  #pragma unroll
  for (int i = 0; i < FM; ++i) {
    #pragma unroll
    for (int j = 0; j < FN; ++j) {
      #pragma unroll
      for (int q = 0; q < N / 8; ++q) {
        if (TRANSPOSED) {
          float* p = out + (j * N + 8 * q + col) * LD + i * tiler_wgmma_layout::M + row;
          p[0] = t.c[i][j][4 * q];
          p[LD] = t.c[i][j][4 * q + 1];
          p[8] = t.c[i][j][4 * q + 2];
          p[LD + 8] = t.c[i][j][4 * q + 3];
        } else {
          float* p = out + (i * tiler_wgmma_layout::M + row) * LD + j * N + 8 * q + col;
          tiler_mma_store_pair(p, t.c[i][j][4 * q], t.c[i][j][4 * q + 1]);
          tiler_mma_store_pair(p + 8 * LD, t.c[i][j][4 * q + 2], t.c[i][j][4 * q + 3]);
        }
      }
    }
  }
}

// ---- A from registers: TF32 products whose one tile has its sides adjacent ----
// Thread t of the group holds, of each fragment of A, rows 16 (t / 32) + (t % 32) / 4 and 8 more, positions
// t % 4 and 4 more, in the order (row, position), (row + 8, position), (row, position + 4), (row + 8,
// position + 4) (PTX ISA, wgmma's register fragments for TF32's A); B through its descriptor as above.
struct tiler_wgmma_registers {
  static constexpr int ROWS = 8;  // a thread's second row of a fragment, below its first
  static constexpr int POSITIONS = 4;  // its second position, after its first
};

template <int TB>
__device__ __forceinline__ void tiler_wgmma_rs(float (&d)[64], const unsigned (&a)[4], unsigned long long db, float*) {
  static_assert(TB == 0, "TF32 operands have their positions adjacent");
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %69, 0;\n"
               "wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32 " TILER_WGMMA_NAMES64
               ", { %64, %65, %66, %67 }, %68, p, 1, 1;\n}\n"
               : TILER_WGMMA_ACC64
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db), "r"(1));
}

template <int TB>
__device__ __forceinline__ void tiler_wgmma_rs(float (&d)[32], const unsigned (&a)[4], unsigned long long db, float*) {
  static_assert(TB == 0, "TF32 operands have their positions adjacent");
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %37, 0;\n"
               "wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32 " TILER_WGMMA_NAMES32
               ", { %32, %33, %34, %35 }, %36, p, 1, 1;\n}\n"
               : TILER_WGMMA_ACC32
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db), "r"(1));
}

#undef TILER_WGMMA_F8
#undef TILER_WGMMA_ACC32
#undef TILER_WGMMA_ACC64
#undef TILER_WGMMA_ACC128
#undef TILER_WGMMA_R0
#undef TILER_WGMMA_R32
#undef TILER_WGMMA_R64
#undef TILER_WGMMA_R96
#undef TILER_WGMMA_NAMES32
#undef TILER_WGMMA_NAMES64
#undef TILER_WGMMA_NAMES128

// t += A B over STEPS instructions along the chunk, A read into registers first: `a` is this thread's own
// first element of A (its first row of the group's first fragment, its first position of the chunk), its next
// row A_ROW elements on and its next position A_POS; fragment i A_NEXT on, instruction s A_STEP on; B as in
// tiler_wgmma_chunk. The registers are all loaded before the fence that orders them for the instructions.
template <int STEPS, int A_ROW, int A_POS, int A_NEXT, int A_STEP, int TB, int B_NEXT, int B_STEP, int B_LEAD,
          class In, int N, int FM, int FN>
__device__ __forceinline__ void tiler_wgmma_chunk_rs(tiler_wgmma_tile<In, N, FM, FN>& t, const In* a, const In* b) {
  const unsigned sb = static_cast<unsigned>(__cvta_generic_to_shared(b));
  unsigned r[STEPS][FM][4];
  #pragma unroll
  for (int s = 0; s < STEPS; ++s) {
    #pragma unroll
    for (int i = 0; i < FM; ++i) {
      const In* p = a + i * A_NEXT + s * A_STEP;
      r[s][i][0] = __float_as_uint(p[0]);
      r[s][i][1] = __float_as_uint(p[tiler_wgmma_registers::ROWS * A_ROW]);
      r[s][i][2] = __float_as_uint(p[tiler_wgmma_registers::POSITIONS * A_POS]);
      r[s][i][3] = __float_as_uint(p[tiler_wgmma_registers::ROWS * A_ROW + tiler_wgmma_registers::POSITIONS * A_POS]);
    }
  }
  tiler_wgmma_begin(t);
  #pragma unroll
  for (int s = 0; s < STEPS; ++s) {
    #pragma unroll
    for (int i = 0; i < FM; ++i) {
      #pragma unroll
      for (int j = 0; j < FN; ++j) {
        tiler_wgmma_rs<TB>(t.c[i][j], r[s][i], tiler_wgmma_desc(sb + (j * B_NEXT + s * B_STEP) * sizeof(In), B_LEAD),
                           static_cast<In*>(nullptr));
      }
    }
  }
  tiler_wgmma_end<0>(t);
}

#endif
