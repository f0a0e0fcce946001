#!/bin/bash
# Nineteenth session, third: the f64 products on m16n8k8 with 16-byte
# copies, shared memory aligned to 16 bytes for every kernel (mma.sync and
# ldmatrix need 16; WMMA needed 32), and the new attention_bf16 benchmark.
# (1) GPU tests of the tensor-core programs, f64 and attention; memcheck
# and racecheck of mm_bf16, mm --tensor-cores and mm_atbt_f64 at sizes no
# tile divides; (2) `tiler fuzz --products --gpu`; (3) the products in
# .baseline/ (the session's start) and this tree, in one call, and
# attention_bf16; (4) the SASS of mm --tensor-cores's tiled kernel (what
# cvt.rna.tf32 compiles to). Logs to $OUT, packed.
set -u
out=$(realpath -m "${OUT:-session19c}")
log=$out/logs
mkdir -p "$log"
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
start=$(date +%s)
(timeout ${GPU_S:-240} python3 -m pytest -q -m gpu -p no:cacheprovider -n 8 tests/test_gpu.py \
   -k "tensor_cores or f64 or attention or mm_bf16" > "$log/gpu-tests.log" 2>&1) &
san() {  # name, tool, args...
  local name=$1 tool=$2; shift 2
  timeout 200 compute-sanitizer --tool $tool --error-exitcode 9 python3 -m tiler bench "$@" --repeat 1 \
    > "$log/san-$name-$tool.log" 2>&1; echo "$name $tool rc=$?" >> "$log/sanitizer.txt"
}
for tool in memcheck racecheck; do
  san mm_bf16 $tool mm_bf16 -s m=300 -s n=296 -s q=264 &
  san mm_tc $tool mm --tensor-cores -s m=300 -s n=301 -s q=261 &
  san atbt_f64 $tool tests/programs/tensor_cores/mm_atbt_f64.fut --tensor-cores -s m=130 -s n=37 -s q=131 &
  san attention $tool attention_bf16 --quick &
done
wait
echo "gpu tests: $(tail -1 "$log/gpu-tests.log")"; grep -E "^(FAILED|ERROR)" "$log/gpu-tests.log" | head -20
sort "$log/sanitizer.txt"
echo "== $(( $(date +%s) - start )) s"
timeout ${FUZZ_S:-150} python3 -m tiler fuzz ${FUZZ_N:-80} --seed 21000 --gpu --products --mutations 1 \
  --out "$log/fuzz" > "$log/fuzz.log" 2>&1
echo "fuzz rc=$?: $(grep -E 'programs|GPU batch' "$log/fuzz.log" | tail -4 | tr '\n' ' ')"
echo "== $(( $(date +%s) - start )) s"
run() {  # name, tree, args...
  local name=$1 tree=$2; shift 2
  (cd "$tree" && timeout ${BENCH_S:-300} python3 -m tiler bench "$@" --repeat 10 --json "$log/bench-$name.json" \
    > "$log/bench-$name.log" 2>&1; echo "$name rc=$?")
  grep -E "^│ [a-zA-Z]|^[a-z_0-9]+ \(" "$log/bench-$name.log" | head -60
  echo "== $(( $(date +%s) - start )) s"
}
run start .baseline mm mm_bf16 mm_f64 mm_rows --tensor-cores
run now . mm mm_bf16 mm_f64 mm_rows --tensor-cores
run attention . attention_bf16
python3 -m tiler compile benchmarks/mm.fut --tensor-cores -o "$log/mm_tc.cu" && \
  nvcc -arch=sm_90 -cubin -o "$log/mm_tc.cubin" "$log/mm_tc.cu" && \
  cuobjdump -sass "$log/mm_tc.cubin" | awk '/Function : tiler_mm_tiled$/,/Function : tiler_mm_tiled_/' > "$log/mm_tc_tiled.sass"
grep -oE "^ +/\*[0-9a-f]+\*/ +[A-Z][A-Z0-9_.]+" "$log/mm_tc_tiled.sass" | awk '{print $2}' | sed 's/\..*//' | sort | uniq -c | sort -rn | head -25
tar czf "$out/logs.tgz" -C "$out" logs && rm -rf "$log"
echo "total: $(( $(date +%s) - start )) s"
