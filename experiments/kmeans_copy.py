"""k-means' tiled kernel by hand, before changing the compiler (issue 11):
which of its non-arithmetic instructions are worth removing. Each variant is
the kernel tiler writes at the full size with one edit; every variant is
checked against numpy, timed with CUDA events (median of 50), and its SASS
opcodes counted when cuobjdump is there:

    python experiments/kmeans_copy.py
    ncu --metrics smsp__inst_executed.sum -k regex:kmeans_tiled python experiments/kmeans_copy.py --once

  flat     the points' rows copied as one run of float4 (pitch 34, no / and %)
  flat2    the same with float2
  flat_u   flat, its 17 loads a thread unrolled (all in flight); flat_u1: not unrolled
  flat_async  flat by cp.async (16 bytes a copy, all in flight, no registers)
  pitch36  the centres' lines padded to 36 (broadcast reads of 4 at once)
  both     flat + pitch36
Writes $OUT (or /tmp)/kmeans_copy.log; RESULTS.md, "k-means".
"""
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, ".")
import cupy as cp  # noqa: E402
import numpy as np  # noqa: E402

import tiler  # noqa: E402

N, D, K = 1 << 20, 34, 16
P, T = 256, 128  # points a block, threads a block (as tiler plans them at this size)
k = tiler.compile("benchmarks/kmeans.fut", sizes={"n": N, "d": D, "k": K})
base = k.cuda
assert f"blockIdx.x * {P} +" in base and "sh_p[8960]" in base, "the plan changed: update the experiment"


def sub(src, old, new, count=None):
    hits = src.count(old)
    assert hits and (count is None or hits == count), (old, hits)
    return src.replace(old, new)


COPY_OLD = re.search(r"  // cooperative copy: 256 x 34 tile of points.*?\n  \}\n", base, re.S).group(0)


def flat(src, w, unroll="4", asynchronous=False):
    vec = {4: "float4", 2: "float2"}[w]
    move = ("tiler_cp_async<16>(sh_p + 4 * t_, src_ + t_, true);" if asynchronous else
            f"(({vec}*)sh_p)[t_] = src_[t_];")
    new = f"""  if (blockIdx.x * {P} + {P} <= n) {{
    const {vec}* src_ = (const {vec}*)(points + blockIdx.x * {P * D});
    #pragma unroll {unroll}
    for (int c_ = 0; c_ < {P * D // w // T}; c_ += 1) {{
      const int t_ = threadIdx.x + c_ * {T};
      {move}
    }}
    {"tiler_cp_async_commit(); tiler_cp_async_wait<0>();" if asynchronous else ""}
  }} else {{
    for (int c_ = 0; c_ < {P * D // T}; c_ += 1) {{
      const int t_ = threadIdx.x + c_ * {T};
      sh_p[t_] = points[tiler_min(blockIdx.x * {P * D} + t_, n * {D} - 1)];
    }}
  }}
"""
    src = sub(src, COPY_OLD, new)
    return sub(src, "* 35 +", "* 34 +")


def pitch36(src):
    src = re.sub(r"sh_cc\[(r_\d+) \* 34 \+", r"sh_cc[\1 * 36 +", src)
    src = re.sub(r"sh_cc\[(j(_\d+)?) \* 34 \+", r"sh_cc[\1 * 36 +", src)
    return sub(src, "sh_cc[544]", "sh_cc[576]")


VARIANTS = {
    "tiler": base,
    "flat": flat(base, 4),
    "flat2": flat(base, 2),
    "pitch36": pitch36(base),
    "both": pitch36(flat(base, 4)),
    "flat_u": flat(base, 4, ""),
    "flat_u1": flat(base, 4, "1"),
    "flat_async": flat(base, 4, "", True),
}

out = open(os.path.join(os.environ.get("OUT", "/tmp"), "kmeans_copy.log"), "w")


def log(*a):
    print(*a, flush=True)
    print(*a, file=out, flush=True)


rng = np.random.default_rng(0)
points = rng.uniform(0, 1, (N, D)).astype(np.float32)
centres = rng.uniform(0, 1, (K, D)).astype(np.float32)
want = ((points[:, None, :].astype(np.float64) - centres[None]) ** 2).sum(-1).argmin(1)
dp, dc = cp.asarray(points), cp.asarray(centres)
for name, src in VARIANTS.items():
    mod = cp.RawModule(code=src, options=("-std=c++17",))
    fn = mod.get_function("tiler_kmeans_tiled")
    # odd n too: the last block takes the clamped path
    for n in (N, N - 77):
        lab = cp.full(N, -1, dtype=cp.int32)
        fn(((n + P - 1) // P,), (T,), (dp, dc, lab, np.int32(n), np.int32(D), np.int32(K)))
        got = lab.get()[:n]
        agree = float((got == want[:n]).mean())
        assert agree > 0.999 and (lab.get()[n:] == -1).all(), (name, n, agree)
    if "--once" in sys.argv:  # under ncu: the checks' launches alone
        continue
    grid = ((N + P - 1) // P,)
    args = (dp, dc, lab, np.int32(N), np.int32(D), np.int32(K))
    for _ in range(5):
        fn(grid, (T,), args)
    times = []
    for _ in range(50):
        a, b = cp.cuda.Event(), cp.cuda.Event()
        a.record()
        fn(grid, (T,), args)
        b.record()
        b.synchronize()
        times.append(cp.cuda.get_elapsed_time(a, b))
    log(f"{name:10s} {np.median(times):.4f} ms  (labels agree {agree:.5f})")
    with tempfile.TemporaryDirectory() as d:
        cu = os.path.join(d, "k.cu")
        open(cu, "w").write(src)
        cubin = os.path.join(d, "k.cubin")
        r = subprocess.run(["nvcc", "-arch=sm_90", "-cubin", "-O3", "-Xptxas", "-v", "-o", cubin, cu],
                           capture_output=True, text=True)
        regs = re.search(r"tiler_kmeans_tiled'.*?Used (\d+) registers", r.stderr, re.S)
        log(f"           registers {regs.group(1) if regs else '?'}")
        s = subprocess.run(["cuobjdump", "-sass", "-fun", "tiler_kmeans_tiled", cubin], capture_output=True,
                           text=True).stdout
        ops = re.findall(r"/\*[0-9a-f]{4}\*/\s+(?:@!?U?P\w+\s+)?([A-Z0-9_]+(?:\.[A-Z0-9_]+)*)", s)
        counts = {}
        for o in ops:
            counts[o] = counts.get(o, 0) + 1
        top = sorted(counts.items(), key=lambda kv: -kv[1])[:14]
        log(f"           {len(ops)} SASS instructions: " + ", ".join(f"{o} {c}" for o, c in top))
