"""Seeds 640373 and 304335: their 64-bit version in seven spellings of the copies' row offset (tests/FUZZ.md,
Findings). Writes DIR/w640_*.cu and DIR/w304_*.cu from DIR/w640_orig.cu and DIR/w304_orig.cu, the standalone
files of each seed's `_tiled_wide` made before tiler_wide_mul (`python tests/standalone.py PROGRAM --seed S
--version tiled_wide -o DIR/w640_orig.cu`, at 186d4e0's parent 1543798^); `wide_ptxas_spellings.sh DIR` then
builds and runs each on a GPU, under memcheck too.
    python experiments/wide_ptxas_spellings.py DIR"""
import re, sys, pathlib
d = pathlib.Path(sys.argv[1])
HELP = '''
__device__ __forceinline__ long long tiler_wide_mul(int a, int b) {
  long long r; asm("mul.wide.s32 %0, %1, %2;" : "=l"(r) : "r"(a), "r"(b)); return r; }
'''
pat = re.compile(r"(\w+)\[tiler_min\(([^,]+), (n0 - 1)\) \* \(long long\)(\d+) \+ \(([^)]+)\)\]")
for tag in ("w640", "w304"):
    src = (d / f"{tag}_orig.cu").read_text()
    inc = src.index("__global__") if "__global__" in src else 0
    def put(name, text): (d / f"{tag}_{name}.cu").write_text(text)
    put("bit32", src.replace("* (long long)3", "* 3"))
    put("mulwide", src[:inc] + HELP + pat.sub(lambda m: f"{m[1]}[tiler_wide_mul(tiler_min({m[2]}, {m[3]}), {m[4]}) + ({m[5]})]", src[inc:]))
    put("ptr", pat.sub(lambda m: f"({m[1]} + (long long)tiler_min({m[2]}, {m[3]}) * {m[4]})[{m[5]}]", src))
    put("unsigned", pat.sub(lambda m: f"{m[1]}[(long long)(unsigned)tiler_min({m[2]}, {m[3]}) * {m[4]} + ({m[5]})]", src))
    put("u64", pat.sub(lambda m: f"{m[1]}[(unsigned long long)tiler_min({m[2]}, {m[3]}) * {m[4]}ull + ({m[5]})]", src))
    tloop = re.sub(r"for \(int c_ = 0; c_ < (\d+); c_ \+= 1\) \{(.*?)\n(\s*)const int t_ = threadIdx.x \+ c_ \* (\d+);",
                   lambda m: f"for (int t_ = threadIdx.x; t_ < {int(m[1])*int(m[4])}; t_ += {m[4]}) {{{m[2]}", src, flags=re.S)
    put("tloop", tloop)
    put("unroll1", re.sub(r"(\n\s*)(for \(int c_ = 0; c_ < \d+; c_ \+= 1\))", r"\1#pragma unroll 1\1\2", src))
    for f in sorted(d.glob(f"{tag}_*.cu")):
        n = f.read_text().count("tiler_wide_mul(") + f.read_text().count("(unsigned)") + f.read_text().count("ull +")
        print(f.name, n, "t_ +=" in f.read_text())
