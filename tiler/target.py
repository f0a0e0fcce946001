"""The CUDA target in one place: type spellings, sizes, literals, math
functions, keywords, builtin indices, vector types, asynchronous copies and
the limits of a block. The kernel IR, lowering, the verifier, the renderer
and the runtime all read these; nothing else spells CUDA."""
from __future__ import annotations

import re
from dataclasses import dataclass, replace

CTYPE = {"f32": "float", "f64": "double", "i32": "int", "i64": "long long", "bool": "bool", "f16": "__half",
         "bf16": "__nv_bfloat16"}
SIZEOF = {"float": 4, "double": 8, "int": 4, "long long": 8, "bool": 1, "__half": 2, "__nv_bfloat16": 2}

# ---- limits ---------------------------------------------------------------------

ARCH = "sm_90"  # Hopper: what tiler builds for unless told otherwise
WARP = 32
SHARED_BANKS = 32  # banks of 4 bytes: a warp's reads of one bank's distinct words are serialised
MAX_THREADS_PER_BLOCK = 1024
REGISTER_FILE = 65536  # 32-bit registers an SM has (and a block may use), sm_50 to sm_90
MAX_REGISTERS = 255  # a thread may use at most this many
MULTIPROCESSORS = 132  # SMs of an H100 or H200 (SXM): what a plan assumes when no GPU is at hand
# the name a launch condition gives the GPU's SM count: the host launcher reads
# it once a device (templates/launcher.cuh), the Python runtime from pycuda
MULTIPROCESSORS_NAME = "tiler_multiprocessors"
STATIC_SHARED_LIMIT = 48 * 1024  # beyond it, shared memory is dynamic and the launch raises the limit
SHARED_LIMIT_ANY_GPU = 227 * 1024  # the most a block can have (Hopper, Ampere A100: 227 KiB)
DYNAMIC_SHARED_ALIGN = 16  # each allocation in the dynamic buffer starts on a 16-byte boundary
MAX_GRID = {"x": 2**31 - 1, "y": 65535, "z": 65535}
AXES = ("x", "y", "z")


@dataclass(frozen=True)
class Device:
    """The GPU a plan is made for: read from the device where one is at hand
    (runtime.Gpu.described), else these defaults, an H100's or H200's
    (SXM, sm_90). A plan never reads them from the user's options."""

    name: str = "the default GPU (an H100 or H200, sm_90)"
    arch: str = ARCH
    multiprocessors: int = MULTIPROCESSORS  # SMs: how many blocks fill the GPU
    shared_optin: int = SHARED_LIMIT_ANY_GPU  # the shared memory a block may opt in to (dynamic)
    register_file: int = REGISTER_FILE  # 32-bit registers a block may use


DEFAULT_DEVICE = Device()

# the shared memory a block may opt in to, by compute capability (CUDA's programming guide, "Technical
# Specifications per Compute Capability"); another architecture is planned within the static 48 KiB
SHARED_OPTIN = {75: 64 * 1024, 80: 163 * 1024, 86: 99 * 1024, 87: 163 * 1024, 89: 99 * 1024, 90: 227 * 1024,
                100: 227 * 1024, 120: 99 * 1024}


def device_for_arch(arch: str) -> Device:
    """The GPU a plan is made for when only its architecture is known
    (`--arch` with no GPU at hand): the default device for sm_90, else one
    with that architecture's shared memory, so that the kernels launch
    there (the SM count is read at launch)."""
    number = arch_number(arch)
    if number == arch_number(ARCH):  # (sm_90a: the same GPU, built for its own instructions too)
        return DEFAULT_DEVICE if arch == ARCH else replace(DEFAULT_DEVICE, arch=arch)
    return Device(f"a GPU of {arch}", arch, shared_optin=SHARED_OPTIN.get(number, STATIC_SHARED_LIMIT))

# ---- spellings ------------------------------------------------------------------

KERNEL = 'extern "C" __global__ void'
LAUNCH_BOUNDS = "__launch_bounds__"
RESTRICT = "__restrict__"
SHARED = "__shared__ __align__(16)"  # aligned for 128-bit vector accesses
DYNAMIC_SHARED_BUFFER = "tiler_shared"
DYNAMIC_SHARED = f"extern __shared__ __align__({DYNAMIC_SHARED_ALIGN}) unsigned char {DYNAMIC_SHARED_BUFFER}[]"
# where allocations must start on a wider boundary (swizzled tiles: WGMMA_ALIGN), the buffer's first such
# boundary, found at run time: an `__align__` past 16 on the buffer would be the whole module's (PTX declares
# it once), padding every other kernel's static shared memory to it (ptxas: 8,448 bytes became 9,216)
ALIGNED_SHARED_BUFFER = "tiler_shared_aligned"
ALIGNED_SHARED = ("unsigned char* const " + ALIGNED_SHARED_BUFFER + " = " + DYNAMIC_SHARED_BUFFER +
                  " + ((0u - static_cast<unsigned>(__cvta_generic_to_shared(" + DYNAMIC_SHARED_BUFFER +
                  "))) & {mask}u)")
BARRIER = "__syncthreads()"
THREAD_INDEX = "threadIdx"
BLOCK_INDEX = "blockIdx"
UNROLL = "#pragma unroll"
RESERVED = {"threadIdx", "blockIdx", "blockDim", "gridDim", "warpSize"}
# C++'s keywords and alternative tokens, and what CUDA's and C's headers
# define that a kernel or its launcher may spell: a program's names that are
# among them, or that begin as the implementation's own do, are renamed
CXX_KEYWORDS = frozenset("""
    alignas alignof and and_eq asm auto bitand bitor bool break case catch char char8_t char16_t char32_t
    class compl concept const consteval constexpr constinit const_cast continue co_await co_return co_yield
    decltype default delete do double dynamic_cast else enum explicit export extern false float for friend
    goto if inline int long mutable namespace new noexcept not not_eq nullptr operator or or_eq private
    protected public register reinterpret_cast requires restrict return short signed sizeof static
    static_assert static_cast struct switch template this thread_local throw true try typedef typeid typename
    union unsigned using virtual void volatile wchar_t while xor xor_eq""".split())
CUDA_DEFINED = frozenset("""
    dim3 size_t ptrdiff_t uint int8_t int16_t int32_t int64_t uint8_t uint16_t uint32_t uint64_t NULL NAN
    INFINITY HUGE_VAL HUGE_VALF FLT_MAX DBL_MAX INT_MAX assert printf malloc free memcpy memcmp memset std
    main exp2f fma fmaf typeof errno linux unix math_errhandling sched_priority stdin stdout stderr L_ctermid
    L_cuserid L_tmpnam P_tmpdir""".split())
RESERVED_PREFIXES = ("__", "cuda", "CU", "tiler_", "TILER_")
# the shapes of the implementation's names: the prefixes above, `_` and a
# capital (C++'s), and the headers' object-like macros (707 on Linux with
# CUDA 13: EOF, INT_MIN, CHAR_BIT; the math constants M_PI, M_PIf, M_PIf64x),
# but for CUDA_DEFINED's few others
_IMPLEMENTATION_SHAPED = re.compile(r"(?:__|cuda|CU|tiler_|TILER_|_[A-Z]).*|[A-Z0-9_]{3,}"
                                    r"|M_[A-Z0-9_]+(?:f|l|f32x?|f64x?|f128)?", re.S)


def c_name(base: str) -> str:
    """A program's name as the kernels spell it (before a suffix makes it
    unique): other characters as `_`, a name shaped as the implementation's
    (`__x`, `tiler_x`, ...) behind `v_`."""
    base = re.sub(r"[^A-Za-z0-9_]", "_", base.replace("'", "_q")) or "v"
    return "v_" + base.strip("_") if implementation_shaped(base) else base


def implementation_shaped(name: str) -> bool:
    """A name shaped as the compiler's or the headers' own are (CXX_KEYWORDS
    and CUDA_DEFINED list the rest of what a program's names must avoid)."""
    return _IMPLEMENTATION_SHAPED.fullmatch(name) is not None
# the host launcher's own names (render/launcher.py, and the helpers of
# templates/launcher.cuh and race.cuh it calls): a program's name never meets them
LAUNCHER_NAMES = {"stream", "tiler_device", MULTIPROCESSORS_NAME, "tiler_multiprocessor_count", "tiler_run", "tiler_v",
                  "tiler_few", "tiler_plain", "tiler_ahead", "tiler_next", "tiler_raced", "tiler_against", "tiler_before",
                  "tiler_raise", "tiler_grid", "tiler_block", "tiler_stage", "tiler_err", "tiler_version",
                  "tiler_rivals", "tiler_key", "tiler_races", "tiler_table", "tiler_race", "tiler_tensor_map"}

# vector types: one 64- or 128-bit access moves WIDTH elements
VECTOR = {("float", 2): "float2", ("float", 4): "float4", ("int", 2): "int2", ("int", 4): "int4",
          ("double", 2): "double2"}
LANES = ("x", "y", "z", "w")

# cp.async (sm_80 and later), wrapped by tiler.cuh: copies of 4, 8 or 16 bytes
# from global to shared memory that the thread does not wait for
ASYNC_COPY = "tiler_cp_async"  # tiler_cp_async<BYTES>(shared*, global*, valid)
ASYNC_COMMIT = "tiler_cp_async_commit"
ASYNC_WAIT = "tiler_cp_async_wait"  # tiler_cp_async_wait<PENDING>()
ASYNC_COPY_BYTES = (4, 8, 16)
ASYNC_MIN_ARCH = 80


# the matrix units (tensor cores) through PTX's mma.sync, wrapped by mma.cuh:
# a warp's accumulator fragments (a struct of MATRIX_TILE<inputs, accumulator,
# m, n, k, fragments along rows, along columns>), zeroed, updated over a
# chunk of two shared tiles, stored row-major into a shared tile
MATRIX_TILE = "tiler_mma_tile"
MATRIX_ZERO = "tiler_mma_zero"  # tiler_mma_zero(tile)
MATRIX_CHUNK = "tiler_mma_chunk"  # tiler_mma_chunk<STEPS, LAYOUT_A, LAYOUT_B, LDA, LDB, A_NEXT, A_STEP, B_NEXT, B_STEP>(...)
MATRIX_STORE = "tiler_mma_store"  # tiler_mma_store<LD>(tile, shared*)
MATRIX_LAYOUT = {True: "tiler_row_major", False: "tiler_col_major"}
# (the inputs' C type, the accumulator's) -> a fragment's m x n x k: two mma.sync.m16n8k16 (f16, bf16) or
# m16n8k8 (TF32) side by side, one m8n8k4 (f64 before sm_90); float inputs are rounded to TF32, 10-bit mantissas
MATRIX_SHAPES = {("float", "float"): (16, 16, 8), ("__half", "float"): (16, 16, 16),
                 ("__nv_bfloat16", "float"): (16, 16, 16), ("double", "double"): (8, 8, 4)}
# from sm_90 on, f64 runs two mma.sync.m16n8k8 side by side (mm_f64 4096^3, H200: 2.85 ms; m8n8k4 4.73, k4 2.87, k16 3.46)
MATRIX_SHAPES_SM90 = {("double", "double"): (16, 16, 8)}
MATRIX_MIN_ARCH = {"float": 80, "__half": 80, "__nv_bfloat16": 80, "double": 80}  # mma.sync's shapes (and ldmatrix: 75)
MATRIX_PRECISION = {"float": "TF32", "__half": "f16", "__nv_bfloat16": "bf16", "double": "f64"}
# inputs on the units without --tensor-cores: 16-bit ones (products exact in f32, only the f32 sum's order differs,
# as a split's does); on these archs, f64, whose m16n8k8 and m8n8k4 add each product in k order by a fused
# multiply-add, as `acc + a * b` compiles (dmma_order.py, H200: 0 of 4.3M sums differ; other GPUs: not measured)
MATRIX_ALWAYS = frozenset({"__half", "__nv_bfloat16"})
MATRIX_EXACT = {"double": frozenset({90})}
MATRIX_ALIGN = 16  # ldmatrix reads each line from a 16-byte aligned address, and the staging tile takes float2 and double2
MATRIX_LD_BYTES = 16  # and a leading dimension of a multiple of 16 bytes
# the chunk of a product on the matrix units, by its inputs' bytes, and whether its tiles are laid out for
# them (Constraints.matrix) at all: mm_bf16 at 4096^3 on an H200 ran 1.68 ms in chunks of 16 from
# transposed tiles, 0.67 in chunks of 32 and 0.58 in chunks of 64 laid out for the units; TF32's product 2.06
# ms in chunks of 16 (2.71 before; 32 spilled); f64's ran 7.37 ms laid out so, 6.68 as a register tile's (on
# WMMA; on sm_90's m16n8k8, chunks of 16 2.74 ms, of 32 2.99)
MATRIX_CHUNKS = {2: 64, 4: 16, 8: 16}
# sm_90's f64 chunk, one m16n8k8 step: mm_f64 at 4096^3 on an H200 2.67 ms (118 registers: two blocks an SM) against
# 3.34 in chunks of 16 (138: one block). Not for a loop over grid y (145 registers: 3.65 ms against 16's 3.45)
MATRIX_CHUNKS_SM90 = {8: 8}
# inputs whose products on the units ask for MATRIX_BLOCKS blocks an SM (TF32's kernel spilled 76 bytes so)
MATRIX_TWO_BLOCKS = frozenset({"__half", "__nv_bfloat16"})
MATRIX_BLOCKS = 2  # blocks an SM a product on the units asks for, where their shared memory fits
# inputs whose products on the units ask for one block an SM, which lets ptxas take the registers it wants:
# under its own choice mm_f64's kernel in chunks of 16 with its sizes known took 128 and spilled (138, none)
MATRIX_ONE_BLOCK = frozenset({"double"})
MATRIX_REGISTERS = 128  # and each thread keeps as many registers (mm_bf16's kernel: 128, no spills)


def sm90_chunk(sizes, arch: str, grid_loop: bool = False) -> int | None:
    """MATRIX_CHUNKS_SM90's chunk for staged elements of `sizes` bytes on `arch`, where it applies."""
    exact = [MATRIX_CHUNKS_SM90[s] for s in sizes if s in MATRIX_CHUNKS_SM90]
    return max(exact) if exact and arch_number(arch) >= 90 and not grid_loop else None


def matrix_chunk(sizes, arch: str, least: int, grid_loop: bool = False) -> int:
    """A product's chunk on the units (elements of `sizes` bytes; the block alone takes `least`)."""
    return sm90_chunk(sizes, arch, grid_loop) or max(least, *(MATRIX_CHUNKS.get(s, 0) for s in sizes))


def matrix_pad(size: int, by_element: bool) -> int:
    """Elements a line of a tile the units read is padded by: 16 bytes, so
    that ldmatrix's 8 lines of 16 bytes fall on distinct banks; 32 for f32
    lines read element by element (TF32's B, its columns adjacent: a warp
    reads 4 lines at 8 columns, 8 words apart mod 32 banks) and for f64
    lines (read element by element, a half-warp's 4 lines at 4 elements
    land 8 words apart)."""
    return (2 * MATRIX_LD_BYTES if (by_element and size == 4) or size == 8 else MATRIX_LD_BYTES) // size


def matrix_shapes(inputs: str, accumulator: str, arch: int) -> tuple:
    """The fragments' m x n x k for inputs and sums of those C types on
    sm_`arch`, the best first (MATRIX_SHAPES_SM90, then MATRIX_SHAPES: the
    smaller takes tiles and chunks the larger does not); () where no
    instruction takes them."""
    later = MATRIX_SHAPES_SM90.get((inputs, accumulator)) if arch >= 90 else None
    return tuple(s for s in (later, MATRIX_SHAPES.get((inputs, accumulator))) if s is not None)


# ---- the warp groups' matrix instructions (sm_90a's wgmma) ------------------------
# A warp group (WGMMA_GROUP threads, four warps) multiplies a 64 x N tile of A by B's N columns, 32 bytes of
# positions an instruction (16 of 16-bit inputs, 8 of TF32), reading both operands from shared memory through
# descriptors: only in code built for the architecture-specific sm_90a (WGMMA_ARCH), for 16-bit inputs and
# f32 ones as TF32 (whose operands must have their positions adjacent: WGMMA_TRANSPOSABLE), summed in f32.
# The tiles are laid out in lines of WGMMA_LINE_BYTES, the 16-byte units of each line XOR-ed with its index
# among WGMMA_ATOM_LINES (the 128-byte swizzle), no padding, each tile starting on a WGMMA_ATOM_LINES *
# WGMMA_LINE_BYTES boundary. mm_bf16 at 4096^3 on an H200, three stages of chunks of 64 copied by cp.async:
# 0.266 ms against mma.sync's 0.500 and cuBLAS's 0.206 (experiments/wgmma/).
WGMMA_ARCH = "sm_90a"
WGMMA_GROUP = 128
WGMMA_M = 64
WGMMA_K_BYTES = 32  # an instruction's positions, in bytes of its inputs
WGMMA_N = (256, 128, 64)  # an instruction's columns, the widest first (a block's N a warp group: one of these times FN)
WGMMA_N_REGISTERS = (128, 64)  # those of the instructions whose A is read from registers (tiler_wgmma_rs)
WGMMA_INPUTS = frozenset({"__half", "__nv_bfloat16", "float"})
WGMMA_TRANSPOSABLE = frozenset({"__half", "__nv_bfloat16"})  # inputs whose tiles may run across the positions
WGMMA_LINE_BYTES = 128
WGMMA_ATOM_LINES = 8
WGMMA_UNIT_BYTES = 16  # the swizzle permutes a line's units of this many bytes
WGMMA_ALIGN = WGMMA_LINE_BYTES * WGMMA_ATOM_LINES  # 1,024: where each swizzled tile starts
WGMMA_TILE = "tiler_wgmma_tile"
WGMMA_CHUNK = "tiler_wgmma_chunk"  # tiler_wgmma_chunk<STEPS, TRANS_A, TRANS_B, A_NEXT, A_STEP, A_LBO, B_...>(...)
WGMMA_STORE = "tiler_wgmma_store"  # <LD>(tile, shared*); <LD, 1>: the transposed product's, rows as columns
# A from registers: where one tile of a TF32 product has its sides adjacent (B's of a plain product, which the
# descriptors cannot read), each thread loads its share of it from a plain padded tile (matrix_pad) and the
# instruction takes it as A, computing the product transposed where that tile is B's (kir.MatrixShape)
WGMMA_REGISTER_INPUTS = frozenset({"float"})
WGMMA_CHUNK_REGISTERS = "tiler_wgmma_chunk_rs"  # <STEPS, A_ROW, A_POS, A_NEXT, A_STEP, TRANS_B, B_...>(...)
# thread t of a warp group holds, of a fragment of A, rows 16 (t / 32 % 4) + t % 32 / 4 and 8 more, positions
# t % 4 and 4 more (PTX ISA, wgmma's register fragments for TF32's A)
WGMMA_REGISTER_ROWS = 8
WGMMA_REGISTER_POSITIONS = 4
# before a barrier after which a warp group's instructions read what the threads wrote (cp.async and stores
# write through the generic proxy, wgmma reads through the async one)
PROXY_FENCE = "tiler_fence_proxy_async()"


def native_arch(major: int, minor: int) -> str:
    """What tiler builds for on a GPU of this compute capability: its own
    architecture, with its architecture-specific instructions where it has
    some tiler uses (9.0: sm_90a, for wgmma)."""
    arch = f"sm_{major}{minor}"
    return WGMMA_ARCH if arch_number(WGMMA_ARCH) == major * 10 + minor else arch


def has_wgmma(arch: str) -> bool:
    """Whether code for `arch` may run wgmma (built for sm_90a, which runs only on compute capability 9.0)."""
    return arch == WGMMA_ARCH


def alignment_slack(align: int) -> int:
    """Bytes the first `align`-byte boundary of the dynamic buffer (aligned
    to DYNAMIC_SHARED_ALIGN) may lie past its start (ALIGNED_SHARED)."""
    return align - DYNAMIC_SHARED_ALIGN


def wgmma_k(inputs: str) -> int:
    """Positions a warp-group instruction takes of inputs of this C type."""
    return WGMMA_K_BYTES // SIZEOF[inputs]


def wgmma_line(inputs: str) -> int:
    """Elements a swizzled tile's line holds."""
    return WGMMA_LINE_BYTES // SIZEOF[inputs]


SHARED_RESERVED = 1024  # shared memory the GPU keeps for each resident block (sm_80 on)


# ---- 16-bit floats ---------------------------------------------------------------


@dataclass(frozen=True)
class Narrow:
    """A 16-bit float as CUDA spells it: its header and its conversions.
    Values are stored and moved in 16 bits; each operation converts its
    operands to float (exact), computes there and rounds the result back to
    nearest even, which for + - * / and sqrt is the exactly rounded result
    (float's 24 bits are more than twice the 11 of f16 and the 8 of bf16,
    plus two), as the interpreter computes it."""

    header: str
    to_float: str  # exact
    from_float: str  # each conversion to it rounds to nearest even
    from_double: str
    from_int: str
    from_long: str
    max: float  # the largest finite value

    def conversion(self, source: str) -> str:
        """The function converting a value of C type `source` (not a 16-bit float) to this type."""
        return {"float": self.from_float, "double": self.from_double, "int": self.from_int, "bool": self.from_int,
                "long long": self.from_long}[source]


NARROW = {"__half": Narrow("cuda_fp16.h", "__half2float", "__float2half_rn", "__double2half", "__int2half_rn",
                           "__ll2half_rn", 65504.0),
          "__nv_bfloat16": Narrow("cuda_bf16.h", "__bfloat162float", "__float2bfloat16_rn", "__double2bfloat16",
                                  "__int2bfloat16_rn", "__ll2bfloat16_rn", 3.3895313892515355e38)}
NARROW_COMPUTED_IN = "float"  # the C type a 16-bit float's operations compute in
NARROW_FUNCTIONS = {fn: c for c, n in NARROW.items()  # each conversion function -> the 16-bit type it is of
                    for fn in (n.to_float, n.from_float, n.from_double, n.from_int, n.from_long)}


def headers(ctypes) -> list[str]:
    """The headers a module whose values have these C types includes."""
    return sorted({NARROW[c].header for c in ctypes if c in NARROW})


# the launch's transposition of an input (a separate kernel before the main
# one): a [batch][rows][cols] array becomes [batch][cols][rows], TILE x TILE
# elements a block through shared memory, TILE x ROWS threads
TRANSPOSE_TILE, TRANSPOSE_ROWS = 32, 8


def transpose_kernel(ctype: str) -> str:
    """The name of the transposition kernel for elements of `ctype`."""
    return "tiler_transpose_" + ctype.replace(" ", "_")


def transpose_grid(rows: int, cols: int, batch: int) -> tuple[int, int, int]:
    """Its grid: tiles of rows along x; tiles of columns and the batch along y
    and z, each at most CUDA's limit (the kernel walks the rest)."""
    tiles = -(-cols // TRANSPOSE_TILE)
    return -(-rows // TRANSPOSE_TILE), min(tiles, MAX_GRID["y"]), min(batch, MAX_GRID["z"])


def transpose_grid_c(rows: str, cols: str, batch: str | None) -> tuple[str, str, str]:
    """The same grid in C, over expressions for the extents (batch None: 1)."""
    t = TRANSPOSE_TILE
    return (f"({rows} + {t - 1}) / {t}", f"min(({cols} + {t - 1}) / {t}, {MAX_GRID['y']})",
            f"min({batch}, {MAX_GRID['z']})" if batch else "1")


# vectors of a 16-bit float: CUDA's stop at 2, so templates/narrow.cuh's
# tiler_vec<T, N> holds N of 2, 4 or 8 (one 32-, 64- or 128-bit access),
# made by tiler_make_vec<T>(...), its lanes `.v[i]`
NARROW_VECTOR_WIDTHS = (2, 4, 8)


def has_vector(ctype: str, width: int) -> bool:
    return (ctype, width) in VECTOR or ctype in NARROW and width in NARROW_VECTOR_WIDTHS


def vector_type(ctype: str, width: int) -> str:
    if not has_vector(ctype, width):
        raise ValueError(f"no {width}-wide vector of {ctype}")
    return f"tiler_vec<{ctype}, {width}>" if ctype in NARROW else VECTOR[(ctype, width)]


def make_vector(ctype: str, width: int) -> str:
    return f"tiler_make_vec<{ctype}>" if ctype in NARROW else "make_" + vector_type(ctype, width)


def lane_member(lane: int, ctype: str = "") -> str:
    """How a vector's lane is read: `.x`, or a 16-bit vector's `.v[i]`."""
    return f".v[{lane}]" if ctype in NARROW else "." + LANES[lane]


def arch_number(arch: str) -> int:
    """`sm_90` -> 90."""
    return int(arch.split("_", 1)[1].rstrip("af"))


OLDEST_ARCH = 50  # Maxwell: the oldest architecture nvcc 12 and 13 still build for


def check_arch(arch: str) -> str:
    """A GPU architecture as nvcc's -arch takes it (`sm_90`, `sm_90a`), or a PlainError."""
    import re

    from .errors import PlainError

    m = re.fullmatch(r"sm_(\d{2,3})[af]?", arch)
    if not m or int(m.group(1)) < OLDEST_ARCH:
        raise PlainError(f"--arch {arch}: not a GPU architecture tiler can build for",
                         f"name one as nvcc does, sm_{OLDEST_ARCH} or later: sm_80 (A100), sm_90 (H100, H200), "
                         "sm_100 (B200)")
    return arch


# the same functions in the tiled and the untiled kernel, so they compare exactly
MATH = {
    "float": {"sqrt": "sqrtf", "rsqrt": "rsqrtf", "exp": "expf", "log": "logf", "sin": "sinf", "cos": "cosf",
              "floor": "floorf", "abs": "fabsf", "pow": "powf", "min": "fminf", "max": "fmaxf", "%": "fmodf"},
    "double": {"sqrt": "sqrt", "rsqrt": "rsqrt", "exp": "exp", "log": "log", "sin": "sin", "cos": "cos",
               "floor": "floor", "abs": "fabs", "pow": "pow", "min": "fmin", "max": "fmax", "%": "fmod"},
    "int": {"abs": "abs", "min": "min", "max": "max"},
    "long long": {"abs": "llabs", "min": "min", "max": "max"},
}

# --fast-math: the hardware approximations (CUDA's intrinsics; tiler.cuh's
# PTX helpers for the square roots; exp below); "/" is f32 division. f64
# keeps MATH.
FAST_MATH = {"float": {"sqrt": "tiler_sqrt_approx", "rsqrt": "tiler_rsqrt_approx", "log": "__logf",
                       "sin": "__sinf", "cos": "__cosf", "pow": "__powf", "/": "__fdividef"}}
# --fast-math's exp(x) as 2^(x log2 e) (tiler.cuh's helper, flushing
# subnormals), the multiply written out in the kernel so that reordering a
# product (tiler/transform/reassociate.py) folds log2 e into the program's own
# constant factors, outside the loop
FAST_MATH_SCALED = {"float": {"exp": ("tiler_exp2_approx", 1.4426950408889634)}}

# what --fast-math changes, in the header comment and in explain
FAST_MATH_NOTE = ("--fast-math: sin, cos, exp, log, pow, sqrt, rsqrt and f32 division use the hardware "
                  "approximations (not IEEE-rounded; subnormals flush to zero in the square roots and exp), and "
                  "float sums and products are reordered: what outer loops compute first, products fused "
                  "into multiply-adds")


def math_function(ctype: str, name: str, fast: bool) -> str | None:
    """The C function computing builtin (or operator) `name` on `ctype`;
    None for an operator C spells itself."""
    if fast and name in FAST_MATH.get(ctype, {}):
        return FAST_MATH[ctype][name]
    return MATH[ctype].get(name)


# the host launcher (CUDA runtime API)
STREAM = "cudaStream_t"
ERROR = "cudaError_t"
SUCCESS = "cudaSuccess"
INVALID_VALUE = "cudaErrorInvalidValue"
LAST_ERROR = "cudaGetLastError()"
SCRATCH_ALLOC = "cudaMallocAsync((void**)&{name}, {bytes}, stream)"  # stream-ordered: freed once the kernel is done
SCRATCH_FREE = "cudaFreeAsync({name}, stream)"
RAISE_DYNAMIC_SHARED = "cudaFuncSetAttribute({kernel}, cudaFuncAttributeMaxDynamicSharedMemorySize, {bytes})"
GET_DEVICE = "cudaGetDevice(&{device})"
# A first launch at a set of sizes races a tiled version against the untiled
# kernel: a warm-up launch each, then TIMED_ROUNDS launches each, alternating;
# the fastest launch of each counts, and the rival wins only by TIMED_MARGIN
# (timer noise must not flip a choice the model made).
TIMED_ROUNDS = 3
TIMED_MARGIN = 1.02
TIMED_SIZES = 64  # sets of sizes (a device's, a version's) the C launcher remembers; past it, the conditions pick
NOT_NVRTC = "!defined(__CUDACC_RTC__)"  # host code: nvcc only; NVRTC compiles device code alone

# a program's integer sums, differences, products and negations wrap around
# (two's complement); C's signed arithmetic does not, so they are computed in
# the unsigned type of the same width, whose arithmetic does, and cast back
WRAPPING = ("+", "-", "*")
UNSIGNED = {"int": "unsigned", "long long": "unsigned long long"}

# Flat offsets into arrays of two or more dimensions are 64-bit (sizes times
# indices can pass 2^31); an index along one dimension stays an int, so every
# size must leave room for a block past its end.
INDEX = "long long"
INT_MAX = 2**31 - 1  # a size is an int; 32-bit offsets reach arrays of at most this many elements
FLOAT_MAX = {"float": 3.4028234663852886e38, "double": 1.7976931348623157e308,  # the largest finite value, by C type
             **{c: n.max for c, n in NARROW.items()}}
MAX_SIZE = 2**31 - 2**20

# The clamps tiler adds (kernel-IR calls "clamp") are spelled through
# tiler.cuh's PTX helper, which the front end cannot rewrite: tiler.cuh says why.
# A program's own min and max stay CUDA's, which the optimiser understands.
CALL_SPELLING = {"clamp": "tiler_min", "shuffle_xor": "__shfl_xor_sync", "shuffle_up": "__shfl_up_sync",
                 "shuffle": "__shfl_sync"}
# The first product of a 64-bit flat offset (an int index times an int size)
# is spelled through tiler.cuh's PTX mul.wide.s32, which the front end cannot
# rewrite: written as C, ptxas miscompiled the copy loops around it (tiler.cuh).
WIDE_MUL = "tiler_wide_mul"
FULL_MASK = 0xFFFFFFFF  # every lane of a warp takes part in a shuffle

BITS = {"float": {"inf": "__int_as_float(0x7f800000)", "-inf": "(-__int_as_float(0x7f800000))",
                  "nan": "__int_as_float(0x7fffffff)"},
        "double": {"inf": "__longlong_as_double(0x7ff0000000000000LL)",
                   "-inf": "(-__longlong_as_double(0x7ff0000000000000LL))",
                   "nan": "__longlong_as_double(0x7fffffffffffffffLL)"}}


def literal(value, ctype: str) -> str:
    if ctype in NARROW:  # (its value is one the type holds: the float's conversion is exact)
        return f"{NARROW[ctype].from_float}({literal(value, NARROW_COMPUTED_IN)})"
    if ctype == "bool":
        return "true" if value else "false"
    if ctype in ("float", "double"):
        text = repr(float(value))
        if text in ("inf", "-inf", "nan"):  # as bits: NVRTC has no math.h to define INFINITY and NAN
            return BITS[ctype][text]
        if "e" not in text and "." not in text:
            text += ".0"
        return text + ("f" if ctype == "float" else "")
    if ctype == "long long":  # (C has no literal for the smallest: its digits alone do not fit)
        return f"({int(value) + 1}LL - 1)" if int(value) == -2**63 else f"{int(value)}LL"
    if ctype == "unsigned":
        return f"{int(value):#x}u"
    return f"({int(value) + 1} - 1)" if int(value) == -2**31 else str(int(value))
