#!/bin/bash
# Seventeenth session, last call, on main after the merges (bmm, tc) and the
# speculation: (1) the GPU tests of what changed (the tensor-core products,
# the batched element column, the split for few points, speculation's
# program, the float-to-int conversions) beside the GPU fuzzer; (2) memcheck
# and racecheck of the speculated and the newly split corpus kernels; (3)
# a_attn_scores_h64_f32 (speculated) and c_rowdot_normweights_f64 (its split
# gate moved) against .baseline/ (66f796e, the session's start), with twins.
# On a GPU host after `source .gpu/bootstrap`. Logs to $OUT, packed.
set -u
out=$(realpath -m "${OUT:-session17d}")
log=$out/logs
mkdir -p "$log"
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$log/device.txt"
start=$(date +%s)
(timeout ${GPU_S:-200} python3 -m pytest -q -m gpu -p no:cacheprovider -n 8 tests/test_gpu.py \
   -k "tensor_cores or batched_element_column or few or split or masked_dot or floats_past or mm_bf16 or mm_f64" \
   > "$log/gpu-tests.log" 2>&1) &
(timeout ${FUZZ_S:-200} python3 -m tiler fuzz ${FUZZ_N:-200} --seed 15000 --gpu --out "$log/fuzz" \
   > "$log/fuzz.log" 2>&1; echo "rc=$?" >> "$log/fuzz.log") &
wait
echo "gpu tests: $(tail -1 "$log/gpu-tests.log")"; grep -E "^(FAILED|ERROR)" "$log/gpu-tests.log" | head -20
echo "fuzz: $(tail -2 "$log/fuzz.log" | tr '\n' ' ')"
rm -rf "$log/fuzz"/*/ 2>/dev/null
echo "== $(( $(date +%s) - start )) s"
pick() { rm -rf "$1" && mkdir "$1" && for p in ${@:2}; do cp corpus/$p.* "$1"/; done; }
pick sp a_attn_scores_h64_f32 c_rowdot_normweights_f64
for p in a_attn_scores_h64_f32 c_rowdot_normweights_f64; do
  for tool in memcheck racecheck; do
    (timeout 150 compute-sanitizer --tool $tool --error-exitcode 9 python3 -m tiler corpus sp --only $p --sizes small \
       > "$log/san-$p-$tool.log" 2>&1; echo "$p $tool rc=$?" >> "$log/sanitizer.txt") &
  done
done
wait
sort "$log/sanitizer.txt"
echo "== $(( $(date +%s) - start )) s"
(cd .baseline && timeout ${BASE_S:-90} python3 -m tiler.bench.corpus ../sp small,medium,large "$log/base.json") \
  > "$log/base.log" 2>&1
timeout ${NOW_S:-150} python3 -m tiler corpus sp --sizes small,medium,large --peer --json "$log/now.json" \
  --against "$log/base.json" > "$log/now.log" 2>&1
grep -v "^  (" "$log/base.log" | grep -E "^[abc]_"
grep -v "^  (" "$log/now.log" | tail -24
echo "== $(( $(date +%s) - start )) s"
rm -rf sp
tar czf "$out/logs.tgz" -C "$out" logs && rm -rf "$log"
echo "total: $(( $(date +%s) - start )) s"
