#!/bin/bash
# Sixteenth session, first call (on a GPU host after `source .gpu/bootstrap`,
# with .baseline/ from tools/corpus-baseline aa90917): the fifteenth
# session's CUDA changes that never ran on a GPU: the 16-bit programs and
# device arrays, the counted Welford loops and the rolled Chan merges (GPU
# tests; memcheck and racecheck), the fuzzer with 16-bit programs and with
# its counting loops, and the changed corpus programs timed at the start and
# now in this call with their PyTorch twins. Logs to $OUT.
set -u
out=$(realpath -m "${OUT:-session16a}")
mkdir -p "$out"
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$out/device.txt"
n=$(python3 -c "import xdist" 2>/dev/null && echo "-n 8")
timeout ${GPU_S:-200} python3 -m pytest -q -m gpu -p no:cacheprovider $n tests/test_gpu.py tests/test_float16.py \
  -k "${GPU_K:-16_bit or welford or mean_index}" > "$out/gpu-tests.log" 2>&1
tail -2 "$out/gpu-tests.log"; grep -E "^(FAILED|ERROR)" "$out/gpu-tests.log" | head -30
rm -rf bc && mkdir bc && for p in ${PROGRAMS:-a_col_welford_f64 c_col_welford_f32 c_row_welford_f64}; do cp corpus/$p.* bc/; done
(cd .baseline && timeout ${BASE_S:-100} python3 -m tiler.bench.corpus ../bc ${SETS:-small,medium,large} "$out/base.json") \
  > "$out/base.log" 2>&1
timeout ${NOW_S:-170} python3 -m tiler corpus bc --sizes ${SETS:-small,medium,large} --peer --json "$out/now.json" \
  --against "$out/base.json" > "$out/now.log" 2>&1
grep -v "^  (" "$out/now.log" | tail -24
for p in ${SANITIZE:-a_col_welford_f64 c_col_welford_f32}; do
  for tool in memcheck racecheck; do
    timeout 60 compute-sanitizer --tool "$tool" --error-exitcode 9 \
      python3 -m tiler corpus bc --only "$p" --sizes small >> "$out/sanitizer.log" 2>&1
    echo "$p $tool rc=$?" | tee -a "$out/sanitizer.log"
  done
done
rm -rf bc
for f in "mm_f16 -s n=300 -s m=301 -s k=257" "rowsum_bf16 -s n=1000 -s m=3001"; do
  for tool in memcheck racecheck; do
    set -- $f
    timeout 60 compute-sanitizer --tool "$tool" --error-exitcode 9 \
      python3 -m tiler bench tests/programs/float16/$1.fut ${@:2} --repeat 1 >> "$out/sanitizer.log" 2>&1
    echo "$1 $tool rc=$?" | tee -a "$out/sanitizer.log"
  done
done
(timeout ${FUZZ_S:-90} python3 -m tiler fuzz ${FUZZ_N:-150} --seed 7000 --gpu --narrow --out "$out/fuzz-narrow" \
  > "$out/fuzz-narrow.log" 2>&1; echo "narrow rc=$?" >> "$out/fuzz-narrow.log") &
(timeout ${FUZZ_S:-90} python3 -m tiler fuzz ${FUZZ_N:-150} --seed 9000 --gpu --out "$out/fuzz" \
  > "$out/fuzz.log" 2>&1; echo "default rc=$?" >> "$out/fuzz.log") &
wait
tail -3 "$out/fuzz-narrow.log" "$out/fuzz.log"
