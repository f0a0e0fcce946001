#!/bin/bash
# Eighteenth session, first call: the matrix units' tiles laid out for them
# (row-major A, chunks of 64 bytes a line, cp.async of 16-byte vectors for
# 16-bit elements, the staging tile over the chunks' tiles). (1) The GPU
# tests of the tensor-core and 16-bit programs and memcheck/racecheck of
# mm_bf16 and mm --tensor-cores at sizes no tile divides; (2) `tiler bench
# mm_bf16 mm mm_f64 --tensor-cores` for .baseline/ (a693158, the session's
# start) and this tree, and this tree with chunks of 128 bytes a line (.c128/); (3) whether WMMA's
# loads are ldmatrix (LDSM) in the SASS. Logs to $OUT, packed.
set -u
out=$(realpath -m "${OUT:-session18a}")
log=$out/logs
mkdir -p "$log"
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
start=$(date +%s)
(timeout ${GPU_S:-200} python3 -m pytest -q -m gpu -p no:cacheprovider -n 8 tests/test_gpu.py tests/test_float16.py \
   -k "mm_bf16 or tensor_cores or 16_bit or mm_f64 or mm" > "$log/gpu-tests.log" 2>&1) &
for tool in memcheck racecheck; do
  for sz in "m=300 n=296 q=264" "m=300 n=301 q=261"; do
    set -- $sz
    (timeout 150 compute-sanitizer --tool $tool --error-exitcode 9 python3 -m tiler bench mm_bf16 -s $1 -s $2 -s $3 \
       --repeat 1 > "$log/san-mm_bf16-$tool-${3#q=}.log" 2>&1; echo "mm_bf16 $sz $tool rc=$?" >> "$log/sanitizer.txt") &
  done
  (timeout 150 compute-sanitizer --tool $tool --error-exitcode 9 python3 -m tiler bench mm --tensor-cores -s m=300 -s n=301 \
     -s q=264 --repeat 1 > "$log/san-mm-$tool.log" 2>&1; echo "mm tc $tool rc=$?" >> "$log/sanitizer.txt") &
done
wait
echo "gpu tests: $(tail -1 "$log/gpu-tests.log")"; grep -E "^(FAILED|ERROR)" "$log/gpu-tests.log" | head -20
sort "$log/sanitizer.txt"
echo "== $(( $(date +%s) - start )) s"
python3 -m tiler compile benchmarks/mm_bf16.fut -o "$log/bf16.cu" && nvcc -arch=sm_90 -cubin -o "$log/bf16.cubin" \
  -I templates "$log/bf16.cu" && (cuobjdump -sass "$log/bf16.cubin" > "$log/bf16.sass" 2>&1;
  echo "LDSM: $(grep -c LDSM "$log/bf16.sass") HMMA: $(grep -c HMMA "$log/bf16.sass") LDS: $(grep -cE 'LDS(\.|\s)' "$log/bf16.sass")")
run() {  # name, tree, args...
  local name=$1 tree=$2; shift 2
  (cd "$tree" && timeout ${BENCH_S:-200} python3 -m tiler bench "$@" --repeat 10 --json "$log/bench-$name.json" \
    > "$log/bench-$name.log" 2>&1; echo "$name rc=$?")
  grep -E "^│ [a-zA-Z]|^mm" "$log/bench-$name.log" | head -30
  echo "== $(( $(date +%s) - start )) s"
}
run now-tc . mm mm_f64 mm_bf16 --tensor-cores
run now-pad16 .c128 mm --tensor-cores  # B's lines padded by 16 bytes, not 32
tar czf "$out/logs.tgz" -C "$out" logs && rm -rf "$log"
echo "total: $(( $(date +%s) - start )) s"
