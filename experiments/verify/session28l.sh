#!/bin/bash
# Twenty-eighth session, twelfth call: the IEEE product's SASS (mm at 4096^3, the plan's kernel), for reading
# its inner loop here (the CPU machine has no cuobjdump). Output to $OUT.
set -u
out=$(realpath -m "${OUT:-session28l}")
mkdir -p "$out"
python3 -m tiler compile benchmarks/mm.fut -s m=4096 -s n=4096 -s q=4096 -o "$out/mm.cu"
nvcc -arch=sm_90 -cubin -O3 -o "$out/mm.cubin" "$out/mm.cu"
cuobjdump -sass -fun tiler_mm_tiled "$out/mm.cubin" > "$out/mm_tiled.sass" 2>&1 || nvdisasm "$out/mm.cubin" > "$out/mm_tiled.sass"
wc -l "$out/mm_tiled.sass"; rm -f "$out/mm.cubin"
